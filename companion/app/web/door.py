"""The door: who may talk to this server, and what every answer carries.

Flet's FastAPI app (`flet_web.fastapi.app`) carries the client and the `/ws` socket; uvicorn
serves it behind `Door`, an ASGI layer this package controls. Its rules:

1. A request whose `Host` is not an address this server was started on is refused (DNS
   rebinding: a web page whose name suddenly points at 127.0.0.1).
2. A page, file or socket asked for by another site (`Origin`, `Sec-Fetch-Site`) is refused,
   so a page the user happens to visit cannot read the games, tap or delete; a socket must
   say which page opened it. Following a link to the app stays allowed.
3. A refused request is answered 403 in one sentence; a refused socket is closed before it
   opens (1008).
4. FastAPI's `/docs`, `/redoc` and `/openapi.json`, and the Flet endpoints this app has no
   use for, answer 404.
5. Every answer carries a Content-Security-Policy allowing only the served origin, and
   headers that keep other sites from framing or reading it (Flet's
   `Access-Control-Allow-Origin: *` is taken off).
6. What arrives on the local-network address of a share (`lan`, now or after it stopped) is
   not judged here but by the room for that address (`lan_door`, see `join`).
7. A socket's frames pass `frames.guarded` before Flet reads them: malformed ones are
   dropped in one console line, and a page's session stays with the page it was made for.
8. `/upload` answers only a PUT that passed rules 1 and 2 on this device's address (a file
   picked on its page, signed by Flet), and only when `uploads` is on; anywhere else it is
   closed (rule 4).

The door knows nothing of the client's files or of sharing: the paths it answers itself
besides rule 4 come from `answers` (see `offline`), and `serving` puts the rooms together.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import companion.app.web.frames as frames  # its module, not the package: web/__init__ imports this one

log = logging.getLogger(__name__)

# What this server answers from: its page, the fonts, the join page.
ASSETS_DIR = Path(__file__).resolve().parent.parent.parent / "assets"

# Rule 4: FastAPI's self-documentation, and Flet endpoints this app has no use for.
CLOSED_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json", "/oauth_callback", "/upload"})
UPLOAD = "/upload"  # closed but to a PUT from this device's own page, when uploads are on (rule 8)

# A path answered by the door rather than by Flet, or None to leave it to Flet.
Answer = Callable[[str, Headers], Response | None]


@dataclass(frozen=True)
class Address:
    """Where a browser reaches this server: `http://host:port/`."""

    host: str
    port: int

    @property
    def netloc(self) -> str:
        return self.host if self.port == 80 else f"{self.host}:{self.port}"

    @property
    def origin(self) -> str:
        return f"http://{self.netloc}"

    @property
    def url(self) -> str:
        return f"{self.origin}/"

    def host_headers(self) -> set[str]:
        """The `Host` values a browser sends for this address (the port is left out for 80)."""
        return {self.netloc, f"{self.host}:{self.port}"}


def content_security_policy(addresses: Iterable[Address], *, forms: bool = False) -> str:
    """Only the served origin: scripts, wasm (CanvasKit/skwasm), its blob: worker, the socket.

    `forms`: the "enter the code" page posts its form to this server.
    """
    sockets = " ".join(sorted({f"ws://{address.netloc}" for address in addresses}))
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self' 'wasm-unsafe-eval'",
            "style-src 'self' 'unsafe-inline'",  # Flutter's engine writes its own <style> elements
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            f"connect-src 'self' {sockets}",
            "worker-src 'self' blob:",  # skwasm starts its render worker from a blob: URL
            "manifest-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'" if forms else "form-action 'none'",
            "frame-ancestors 'none'",
        ]
    )


def security_headers(addresses: Sequence[Address], *, forms: bool = False) -> list[tuple[bytes, bytes]]:
    """Rule 5: the headers every answer for `addresses` carries."""
    return [
        (b"content-security-policy", content_security_policy(addresses, forms=forms).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        # A form posted under "no-referrer" carries `Origin: null`, which the door refuses.
        (b"referrer-policy", b"same-origin" if forms else b"no-referrer"),
        (b"cross-origin-resource-policy", b"same-origin"),
    ]


def secured(send: Send, added: list[tuple[bytes, bytes]]) -> Send:
    """Rule 5: `send` with the `added` headers on the response, in place of any of the same name."""
    ours = {name for name, _ in added}

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            # Flet adds `Access-Control-Allow-Origin: *`, which would let any site read our answers.
            kept = [
                (k, v)
                for k, v in message.get("headers", [])
                if k.lower() != b"access-control-allow-origin" and k.lower() not in ours
            ]
            message["headers"] = kept + added
        await send(message)

    return send_with_headers


def client_address(scope: Scope) -> str:
    """The address a request's socket came from (never a header's)."""
    client = scope.get("client")
    return str(client[0]) if client else "an unknown address"


async def refuse_socket(receive: Receive, send: Send) -> None:
    """Rule 3: close a socket before accepting it (the browser sees 403)."""
    await receive()  # websocket.connect
    await send({"type": "websocket.close", "code": 1008, "reason": "refused"})


class Door:
    """ASGI layer in front of Flet's FastAPI app; see the module docstring."""

    def __init__(self, app: ASGIApp, addresses: Sequence[Address], *, answers: Sequence[Answer] = ()) -> None:
        if not addresses:
            raise ValueError("a web door needs at least one address")
        self.app = app
        self.addresses = tuple(addresses)
        self.hosts = frozenset().union(*(address.host_headers() for address in self.addresses))
        self.headers = security_headers(self.addresses)
        self.answers = tuple(answers)
        self.lan: Address | None = None  # where the share listener answers (kept after it stops)
        self.lan_door: ASGIApp | None = None  # rule 6: who answers there
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's, once it started
        self.on_started: list[Callable[[], None]] = []
        self.uploads = False  # rule 8: whether Flet's app takes a picked file at `UPLOAD`
        self.session_owners = frames.SessionOwners()  # rule 7, for every address
        frames.PhoneTracebacks.install()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # lifespan: Flet's sessions start and stop there
            if scope["type"] == "lifespan" and self.loop is None:
                self.loop = asyncio.get_running_loop()
                for started in self.on_started:
                    self.loop.call_soon(started)
            await self.app(scope, receive, send)
            return
        if self.lan_door is not None and self.shared(scope):  # rule 6
            await self.lan_door(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is not None:  # rule 3
            log.info("refused %s %s: %s", scope["type"], scope.get("path"), refusal)
            if scope["type"] == "websocket":
                await refuse_socket(receive, send)
            else:
                await PlainTextResponse(refusal, status_code=403)(scope, receive, secured(send, self.headers))
            return
        if scope["type"] == "websocket":
            address = client_address(scope)
            receive, send = frames.guarded(
                receive, send, f"host {address}", f"the host's page at {address}", self.session_owners
            )  # rule 7
            try:
                await self.app(scope, receive, send)
            except asyncio.CancelledError:
                # Cancelled by the server's stop (Ctrl-C): Flet's handler of a socket that
                # never opened a session waits until then. Nothing to report to the user.
                log.debug("socket handler stopped with the server")
            return
        if scope["type"] == "http" and scope["path"] == UPLOAD and scope["method"] == "PUT" and self.uploads:
            await self.app(scope, receive, secured(send, self.headers))  # rule 8: this device's own page only
            return
        await self.answer_or_app(scope, receive, secured(send, self.headers))

    def refusal(self, scope: Scope, addresses: Sequence[Address] | None = None) -> str | None:
        """Why this request is refused (rules 1 and 2), or None when it comes from a page of
        this server (of `addresses`, when given)."""
        addresses = addresses or self.addresses
        hosts = (
            self.hosts
            if addresses is self.addresses
            else frozenset().union(*(address.host_headers() for address in addresses))
        )
        origins = frozenset(address.origin for address in addresses)
        headers = Headers(scope=scope)
        served = " or ".join(address.url for address in addresses)
        if headers.get("host", "").lower() not in hosts:  # rule 1
            return f"This Companion server answers only at {served}."
        origin = headers.get("origin")
        if scope["type"] == "websocket" and origin is None:  # rule 2: a socket says its page
            return "A Companion game is only reachable from its own page."
        if origin is not None and origin.lower() not in origins:  # rule 2
            return f"Only pages from {served} may use this Companion server."
        # Rule 2: another site's page loading our files (scripts, images) without an Origin
        # header; following a link to the app (a navigation) stays allowed.
        site, mode = headers.get("sec-fetch-site"), headers.get("sec-fetch-mode")
        if site in ("cross-site", "same-site") and mode != "navigate":
            return f"Only pages from {served} may use this Companion server."
        return None

    def own_answer(self, path: str, headers: Headers) -> Response | None:
        """Paths answered here rather than by Flet: closed ones (rule 4), then the `answers`."""
        if path.rstrip("/") in CLOSED_PATHS:
            return PlainTextResponse("Not found", status_code=404)
        for answer in self.answers:
            response = answer(path, headers)
            if response is not None:
                return response
        return None

    async def answer_or_app(self, scope: Scope, receive: Receive, send: Send) -> None:
        """An HTTP request let in: the door's own answer for its path, else Flet's."""
        own = self.own_answer(scope["path"], Headers(scope=scope))
        await (own or self.app)(scope, receive, send)

    def shared(self, scope: Scope) -> bool:
        """Whether the request arrived on the local-network address of a share (now or before)."""
        server = scope.get("server")
        return self.lan is not None and server is not None and (server[0], server[1]) == (self.lan.host, self.lan.port)

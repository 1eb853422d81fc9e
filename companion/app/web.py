"""The web door: the app served to a browser, answering only the address it was started on.

Flet's FastAPI app (`flet_web.fastapi.app`) carries the client and the `/ws` socket; uvicorn
serves it behind `Door`, an ASGI layer this module controls:

- a request whose `Host` is not an address this server was started on is refused (DNS
  rebinding: a web page whose name suddenly points at 127.0.0.1);
- a page, file or socket asked for by another site (`Origin`, `Sec-Fetch-Site`) is refused,
  so a page the user happens to visit cannot read the games, tap or delete;
- FastAPI's `/docs`, `/redoc` and `/openapi.json` answer 404;
- every answer carries a Content-Security-Policy allowing only the served origin;
- nothing is fetched from the internet: the client's hard-coded Rive CDN address is
  rewritten to a local path that answers 404 (nothing here uses Rive), and the fallback
  fonts Flutter looks up by their Google Fonts names are answered with fonts shipped in
  `companion/assets/fonts/`.

Sharing a game (`companion.app.share`) adds the local-network address for as long as the
share lasts (`ShareListener`). What arrives on that address is held to stricter rules: the
`Host` and `Origin` must be that address, and without the cookie of a joined phone the only
answers are the "enter the code" page (`companion/assets/join.html`), the join itself and
the icon: no app, no socket, no list of games. A phone's socket carries its guest id to the
page's `main` (`share.current_guest`).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import hashlib
import html
import logging
import os
import re
import socket
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import flet as ft
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion import i18n
from companion.app.share import Share, ShareError, Sharing, current_guest
from companion.messages import Message as Sentence  # starlette's Message is an ASGI message

log = logging.getLogger(__name__)

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
FONTS_URL = "fonts/"  # where companion/assets/fonts/ is served
APP_NAME = "Companion"
APP_DESCRIPTION = "A table-side companion for board games."
LOOPBACK = "127.0.0.1"
GRACEFUL_SHUTDOWN_S = 5
# Flet reads these when the app is made; the page in companion/assets (and its policy)
# only works with its own assets folder and the socket at /ws.
FLET_OVERRIDES = ("FLET_ASSETS_DIR", "FLET_WEBSOCKET_HANDLER_ENDPOINT", "FLET_UPLOAD_DIR")

# FastAPI's self-documentation, and Flet endpoints this app has no use for.
CLOSED_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json", "/oauth_callback", "/upload"})

# Flet's web client (main.dart.js and main.dart.wasm) loads rive_native.js from this CDN
# on every page load. The replacement has the same length, so the wasm binary stays valid;
# it is a path relative to the page that this server answers with 404.
RIVE_CDN = b"https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"
RIVE_LOCAL_PREFIX = "no-cdn/rive/"
RIVE_LOCAL = (RIVE_LOCAL_PREFIX + "-" * (len(RIVE_CDN) - len(RIVE_LOCAL_PREFIX) - 1) + "/").encode()
PATCHED_CLIENT = {"/main.dart.js": "text/javascript", "/main.dart.wasm": "application/wasm"}

# With no CDN, Flutter asks for its Noto fallback fonts under assets/fonts/<Google Fonts
# path>, one path per font or per slice of a big one. Each family is answered with one
# shipped file that covers every slice (the browser then downloads it once).
FALLBACK_FONTS = {
    "notosans": "NotoSans-Regular.woff2",  # Latin with accents, Greek, Cyrillic
    "notocoloremoji": "NotoColorEmoji.woff2",
    # One subset of Noto Sans CJK SC (GB 2312, JIS X 0208 kanji, KS X 1001 hangul, kana).
    **dict.fromkeys(("notosanssc", "notosanstc", "notosanshk", "notosansjp", "notosanskr"),
                    "NotoSansCJK-Regular-subset.woff2"),
}
_FALLBACK_FONT_PATH = re.compile(r"^/assets/fonts/([a-z0-9]+)/v\d+/[A-Za-z0-9_.-]+\.woff2$")


# Sharing: the cookies of a joined phone, and what a phone without one may still ask for.
GUEST_COOKIE = "companion_guest"
NAME_COOKIE = "companion_name"
NAME_COOKIE_AGE_S = 365 * 24 * 3600  # the name is remembered on the phone for the next game
JOIN_PAGE = ASSETS_DIR / "join.html"
JOIN_BODY_MAX = 4096
OPEN_TO_ANYONE = frozenset({"/favicon.png"})
SHARE_STOP_GRACE_S = 0.5  # time for joined pages to draw "sharing stopped" before their sockets close


class PortError(Exception):
    """The port cannot be listened on; `str()` is a sentence for the user."""

    def __init__(self, sentence: str, errno_: int | None = None) -> None:
        super().__init__(sentence)
        self.errno = errno_


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


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port, or PortError saying why not (before anything is announced)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        # Lets a restarted server take its port back at once; a port another program is
        # listening on still fails (Linux and macOS).
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise PortError(_port_problem(error, host, port), error.errno) from error
    return sock


def _port_problem(error: OSError, host: str, port: int) -> str:
    if error.errno == errno.EADDRINUSE:
        return f"port {port} is already in use (another Companion, or another program); choose another with --port"
    if error.errno in (errno.EACCES, errno.EPERM):
        return f"this user may not listen on port {port}; choose a port above 1023 with --port"
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this device"
    return f"cannot listen on {host}:{port} ({error.strerror or error})"


def content_security_policy(addresses: Iterable[Address], *, forms: bool = False) -> str:
    """Only the served origin: scripts, wasm (CanvasKit/skwasm), its blob: worker, the socket.

    `forms`: the "enter the code" page posts its form to this server.
    """
    sockets = " ".join(sorted({f"ws://{address.netloc}" for address in addresses}))
    return "; ".join([
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
    ])


class Door:
    """ASGI layer in front of Flet's FastAPI app; see the module docstring."""

    def __init__(self, app: ASGIApp, addresses: Sequence[Address], *, web_dir: str | Path,
                 fonts_dir: Path = ASSETS_DIR / "fonts", sharing: Sharing | None = None) -> None:
        if not addresses:
            raise ValueError("a web door needs at least one address")
        self.app = app
        self.addresses = tuple(addresses)
        self.hosts = frozenset().union(*(address.host_headers() for address in self.addresses))
        self.origins = frozenset(address.origin for address in self.addresses)
        self.web_dir = Path(web_dir)
        self.fonts_dir = fonts_dir
        self.headers = security_headers(self.addresses)
        self._client: dict[str, tuple[bytes, str]] = {}
        self.sharing = sharing
        self.lan: Address | None = None  # where the share listener answers (kept after it stops)
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's, once it started
        self.on_started: list[Callable[[], None]] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # lifespan: Flet's sessions start and stop there
            if scope["type"] == "lifespan" and self.loop is None:
                self.loop = asyncio.get_running_loop()
                for started in self.on_started:
                    self.loop.call_soon(started)
            await self.app(scope, receive, send)
            return
        if self.shared(scope):
            await self.shared_door(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is not None:
            log.info("refused %s %s: %s", scope["type"], scope.get("path"), refusal)
            if scope["type"] == "websocket":
                await receive()  # websocket.connect; closing before accepting answers 403
                await send({"type": "websocket.close", "code": 1008, "reason": "refused"})
            else:
                await PlainTextResponse(refusal, status_code=403)(scope, receive, self._secured(send))
            return
        if scope["type"] == "websocket":
            try:
                await self.app(scope, receive, send)
            except asyncio.CancelledError:
                # Cancelled by the server's stop (Ctrl-C): Flet's handler of a socket that
                # never opened a session waits until then. Nothing to report to the user.
                log.debug("socket handler stopped with the server")
            return
        path: str = scope["path"]
        own = self.own_answer(path, Headers(scope=scope))
        if own is not None:
            await own(scope, receive, self._secured(send))
        else:
            await self.app(scope, receive, self._secured(send))

    def refusal(self, scope: Scope, addresses: Sequence[Address] | None = None) -> str | None:
        """Why this request is refused, or None when it comes from a page of this server."""
        addresses = addresses or self.addresses
        hosts = self.hosts if addresses is self.addresses else frozenset().union(
            *(address.host_headers() for address in addresses))
        origins = frozenset(address.origin for address in addresses)
        headers = Headers(scope=scope)
        served = " or ".join(address.url for address in addresses)
        if headers.get("host", "").lower() not in hosts:
            return f"This Companion server answers only at {served}."
        origin = headers.get("origin")
        if scope["type"] == "websocket" and origin is None:
            return "A Companion game is only reachable from its own page."
        if origin is not None and origin.lower() not in origins:
            return f"Only pages from {served} may use this Companion server."
        # Another site's page loading our files (scripts, images) without an Origin header;
        # following a link to the app (a navigation) stays allowed.
        site, mode = headers.get("sec-fetch-site"), headers.get("sec-fetch-mode")
        if site in ("cross-site", "same-site") and mode != "navigate":
            return f"Only pages from {served} may use this Companion server."
        return None

    def own_answer(self, path: str, headers: Headers) -> Response | None:
        """Paths answered here rather than by Flet: closed ones, the patched client, fonts."""
        if path.rstrip("/") in CLOSED_PATHS or path.startswith("/" + RIVE_LOCAL_PREFIX):
            return PlainTextResponse("Not found", status_code=404)
        if path in PATCHED_CLIENT:
            body, etag = self.client_file(path)
            if headers.get("if-none-match") == etag:
                return Response(status_code=304, headers={"etag": etag})
            return Response(body, media_type=PATCHED_CLIENT[path], headers={"etag": etag, "cache-control": "no-cache"})
        match = _FALLBACK_FONT_PATH.match(path)
        if match and match.group(1) in FALLBACK_FONTS and (self.fonts_dir / FALLBACK_FONTS[match.group(1)]).is_file():
            # One URL per shipped file, so the browser's cache holds each font once.
            return RedirectResponse(f"/{FONTS_URL}{FALLBACK_FONTS[match.group(1)]}", status_code=307)
        return None

    def client_file(self, path: str) -> tuple[bytes, str]:
        """The web client's file with the Rive CDN address made local (read once, kept)."""
        if path not in self._client:
            body = (self.web_dir / path.lstrip("/")).read_bytes()
            if RIVE_CDN in body:
                body = body.replace(RIVE_CDN, RIVE_LOCAL)
            else:  # another client version: the CSP still keeps the page from reaching out
                log.warning("%s no longer names the Rive CDN; served unchanged", path)
            self._client[path] = (body, f'"{hashlib.sha256(body).hexdigest()[:32]}"')
        return self._client[path]

    def _secured(self, send: Send, headers: list[tuple[bytes, bytes]] | None = None) -> Send:
        """`send` with this door's headers on the response."""
        added = self.headers if headers is None else headers
        ours = {name for name, _ in added}

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # Flet adds `Access-Control-Allow-Origin: *`, which would let any site read our answers.
                kept = [(k, v) for k, v in message.get("headers", [])
                        if k.lower() != b"access-control-allow-origin" and k.lower() not in ours]
                message["headers"] = kept + added
            await send(message)

        return send_with_headers

    # --- the shared address -------------------------------------------------------------

    def shared(self, scope: Scope) -> bool:
        """Whether the request arrived on the local-network address of a share (now or before)."""
        server = scope.get("server")
        return self.lan is not None and server is not None and (server[0], server[1]) == (self.lan.host,
                                                                                          self.lan.port)

    async def shared_door(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The rules of the shared address: its own Host and Origin, and a joined phone's cookie."""
        assert self.lan is not None
        share = self.sharing.current if self.sharing is not None else None
        refusal = self.refusal(scope, [self.lan])
        if share is None:
            refusal = "This game is no longer shared."
        headers = Headers(scope=scope)
        guest = share.guest(cookie_parser(headers.get("cookie", "")).get(GUEST_COOKIE)) if share else None
        if scope["type"] == "websocket":
            if refusal is None and guest is None:
                refusal = "Join the game with its code first."
            if refusal is not None:
                log.info("refused a shared socket: %s", refusal)
                await receive()
                await send({"type": "websocket.close", "code": 1008, "reason": "refused"})
                return
            assert guest is not None
            token = current_guest.set(guest.id)
            try:
                await self.app(scope, receive, send)
            except asyncio.CancelledError:
                log.debug("a shared socket stopped with the share")
            finally:
                current_guest.reset(token)
            return
        secured = self._secured(send, security_headers([self.lan], forms=True))
        if refusal is not None:
            await PlainTextResponse(refusal, status_code=403)(scope, receive, secured)
            return
        assert share is not None
        answer = await self.join_answer(scope, receive, share, headers)
        if answer is None and guest is None and scope["path"] not in OPEN_TO_ANYONE:
            answer = self.code_page(headers, status=200 if scope["path"] == "/" else 401)
        if answer is not None:
            await answer(scope, receive, secured)
        else:
            await self._call_app(scope, receive, secured)

    async def _call_app(self, scope: Scope, receive: Receive, send: Send) -> None:
        own = self.own_answer(scope["path"], Headers(scope=scope))
        await (own or self.app)(scope, receive, send)

    async def join_answer(self, scope: Scope, receive: Receive, share: Share, headers: Headers) -> Response | None:
        """The join link, the code form, the icon; None for every other path."""
        path, method = scope["path"], scope["method"]
        if path in OPEN_TO_ANYONE:
            return None if method == "GET" else PlainTextResponse("Not allowed", status_code=405)
        if path.startswith("/j/") and method == "GET":
            token = path[3:]
            if not share.link_opens(token):
                return self.code_page(headers, problem="ui.join.link_gone", status=403)
            remembered = remembered_name(headers)
            if remembered:  # the name typed at an earlier game: one scan joins
                return self.join(lambda: share.join_by_link(token, remembered), headers, token=token)
            return self.code_page(headers, token=token)
        if path == "/join":
            if method != "POST":
                return RedirectResponse("/", status_code=303)
            form = await read_form(receive)
            token, code, name = form.get("token", ""), form.get("code", ""), form.get("name", "")
            if token:
                if not share.link_opens(token):
                    return self.code_page(headers, problem="ui.join.link_gone", name=name, status=403)
                return self.join(lambda: share.join_by_link(token, name), headers, token=token, name=name)
            phone = scope["client"][0] if scope.get("client") else ""
            return self.join(lambda: share.join_by_code(code, name, phone), headers, name=name)
        return None

    def join(self, admit: Callable[[], Any], headers: Headers, *, token: str = "", name: str | None = None) -> Response:
        """Admit the phone and hand it its cookie, or show the code page again saying why not."""
        try:
            guest = admit()
        except ShareError as error:
            status = 429 if error.message.id == "share.too_many_tries" else 403
            return self.code_page(headers, problem=error.message, token=token, name=name, status=status)
        answer = RedirectResponse("/", status_code=303)  # the token leaves the address bar
        answer.set_cookie(GUEST_COOKIE, guest.id, httponly=True, samesite="strict", path="/")
        answer.set_cookie(NAME_COOKIE, urllib.parse.quote(guest.name), max_age=NAME_COOKIE_AGE_S, httponly=True,
                          samesite="strict", path="/")
        log.info("%s joined the shared game", guest.name)
        return answer

    def code_page(self, headers: Headers, *, problem: str | Sentence | None = None, token: str = "",
                  name: str | None = None, status: int = 200) -> Response:
        """The "enter the code" page: the only page a phone sees before it joined, in the
        phone's language (its Accept-Language; English when it names none we speak).
        `problem` is a message id or a sentence (`companion.messages.Message`)."""
        name = remembered_name(headers) if name is None else name
        language = i18n.choose(device=i18n.from_accept_language(headers.get("accept-language", "")), environ={})
        words = functools.partial(i18n.t, language=language)
        if token:
            intro = words("ui.join.intro_link")
            code_field = f'<input type="hidden" name="token" value="{html.escape(token)}">'
        else:
            intro = words("ui.join.intro_code")
            code_field = (f'<label for="code">{html.escape(words("ui.share.code"), quote=False)}</label>\n      '
                          '<input id="code" name="code" class="code" '
                          'autocomplete="off" autocapitalize="characters" maxlength="9" required>')
        said = problem.text(language) if isinstance(problem, Sentence) else words(problem) if problem else ""
        page = JOIN_PAGE.read_text(encoding="utf-8")
        text = functools.partial(html.escape, quote=False)
        for slot, value in (("{lang}", language), ("{heading}", text(words("ui.join.heading"))),
                            ("{your_name}", text(words("ui.join.your_name"))), ("{join}", text(words("ui.join.join"))),
                            ("{intro}", text(intro)), ("{code_field}", code_field), ("{name}", html.escape(name)),
                            ("{problem}", f'<p class="problem" role="alert">{html.escape(said)}</p>'
                             if said else "")):
            page = page.replace(slot, value)
        return HTMLResponse(page, status_code=status, headers={"cache-control": "no-store"})


def security_headers(addresses: Sequence[Address], *, forms: bool = False) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", content_security_policy(addresses, forms=forms).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        # A form posted under "no-referrer" carries `Origin: null`, which the door refuses.
        (b"referrer-policy", b"same-origin" if forms else b"no-referrer"),
        (b"cross-origin-resource-policy", b"same-origin"),
    ]


def remembered_name(headers: Headers) -> str:
    return urllib.parse.unquote(cookie_parser(headers.get("cookie", "")).get(NAME_COOKIE, ""))[:60]


async def read_form(receive: Receive) -> dict[str, str]:
    """A small url-encoded form (the join form); a bigger body is cut off, not read on."""
    body = b""
    while len(body) <= JOIN_BODY_MAX:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    fields = urllib.parse.parse_qs(body[:JOIN_BODY_MAX].decode("utf-8", "replace"), max_num_fields=10)
    return {key: values[0] for key, values in fields.items()}


def _shared_socket(host: str, port: int) -> tuple[socket.socket, Address]:
    """A socket listening on the local-network address, and that address; ShareError in words."""
    try:
        sock = listen(host, port)
    except PortError as error:
        raise ShareError("share.cannot_open", host=host, reason=str(error).rstrip(".")) from error
    return sock, Address(host, sock.getsockname()[1])


class ShareListener:
    """Answers on the local-network address while a game is shared (a second uvicorn server
    on the same app, so the shared pages live among the host's and hear the same changes)."""

    def __init__(self, door: Door, port: int) -> None:
        self.door = door
        self.port = port
        self._server: Any = None

    def open(self, host: str) -> str:
        sock, address = _shared_socket(host, self.port)
        self.close()
        loop = self.door.loop or asyncio.get_running_loop()
        self.door.lan = address
        self._server = server(self.door, lifespan=False)
        # `_serve`, not `serve`: `serve` would take over Ctrl-C from the main server.
        asyncio.run_coroutine_threadsafe(self._server._serve(sockets=[sock]), loop)
        return address.url

    def close(self) -> None:
        """Stop taking connections at once; close the open ones a moment later (see SHARE_STOP_GRACE_S)."""
        stopping, self._server = self._server, None
        loop = self.door.loop
        if stopping is not None and loop is not None and not loop.is_closed():  # closed: all stopped already
            loop.call_soon_threadsafe(_stop, stopping, loop)


class WindowShareListener:
    """Sharing from a desktop window: Flet serves the window itself, so the phones get a web
    door of their own on the local-network address, with the same `main` (the same games).
    Their pages hear of the window's changes through `Sharing.relay`."""

    def __init__(self, main: Callable[[ft.Page], Any], sharing: Sharing, port: int) -> None:
        self.main = main
        self.sharing = sharing
        self.port = port
        self._server: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        sharing.relay = True

    def open(self, host: str) -> str:
        sock, address = _shared_socket(host, self.port)
        self.close()
        door = create_app(self.main, [address], sharing=self.sharing)
        door.lan = address
        self._loop = asyncio.get_running_loop()  # the window's: sharing starts from one of its taps
        self._server = server(door)
        self._loop.create_task(self._server._serve(sockets=[sock]))
        return address.url

    def close(self) -> None:
        stopping, self._server = self._server, None
        if stopping is not None and self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(_stop, stopping, self._loop)


def _stop(uvicorn_server: Any, loop: asyncio.AbstractEventLoop) -> None:
    for listening in getattr(uvicorn_server, "servers", []):
        listening.close()
    loop.call_later(SHARE_STOP_GRACE_S, setattr, uvicorn_server, "should_exit", True)


@contextlib.contextmanager
def _without_env(names: Iterable[str]) -> Iterator[None]:
    saved = {name: os.environ.pop(name) for name in names if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def create_app(main: Callable[[ft.Page], Any], addresses: Sequence[Address], *,
               assets_dir: str | Path | None = None, sharing: Sharing | None = None) -> Door:
    """Flet's FastAPI app for `main`, named Companion, offline, behind a `Door` for `addresses`.

    Another `assets_dir` must hold the page of companion/assets (index.html, boot.js): Flet's
    own page has inline scripts, which the policy refuses.
    """
    import flet_web
    import flet_web.fastapi as flet_fastapi

    with _without_env(FLET_OVERRIDES):
        flet_app = flet_fastapi.app(
            main,
            assets_dir=str(assets_dir or ASSETS_DIR),
            app_name=APP_NAME,
            app_short_name=APP_NAME,
            app_description=APP_DESCRIPTION,
            no_cdn=True,
        )
    # FastAPI adds its documentation routes in its constructor; take them out (the Door
    # answers their paths with 404 rather than the app's page).
    flet_app.router.routes = [route for route in flet_app.router.routes
                              if getattr(route, "path", None) not in CLOSED_PATHS]
    flet_app.openapi_url = flet_app.docs_url = flet_app.redoc_url = None
    return Door(flet_app, addresses, web_dir=flet_web.get_package_web_dir(), sharing=sharing)


def server(app: Door, *, lifespan: bool = True) -> Any:
    """A uvicorn server for `app` (a `uvicorn.Server`; run it on a socket from `listen`).

    `lifespan=False` for a second server of an app another one already started.
    """
    import uvicorn

    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        server_header=False,
        # Nobody proxies Companion: a request's address is its socket's, never a header's
        # (typed join codes are counted per address, see share.TryLimits).
        proxy_headers=False,
        ws="websockets-sansio",  # the implementation Flet's own web server uses
        lifespan="on" if lifespan else "off",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,  # open sockets must not hold up a stop
    )
    return uvicorn.Server(config)


def serve(main: Callable[[ft.Page], Any], sock: socket.socket, *, also: Sequence[Address] = (),
          assets_dir: str | Path | None = None, sharing: Sharing | None = None,
          on_started: Callable[[], None] | None = None) -> None:
    """Serve `main` on the listening `sock` until interrupted (Ctrl-C, SIGTERM).

    The socket's own address is always allowed; `also` adds addresses this server is
    reached at. `sharing` gets a listener on the same port for the address it shares on;
    `on_started` runs in the server's loop once it is up (e.g. to start sharing at once).
    """
    host, port = sock.getsockname()[:2]
    app = create_app(main, [Address(host, port), *also], assets_dir=assets_dir, sharing=sharing)
    if sharing is not None:
        sharing.listener = ShareListener(app, port)
    if on_started is not None:
        app.on_started.append(on_started)
    try:
        server(app).run(sockets=[sock])
    finally:
        if sharing is not None:
            sharing.stop()

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

Loopback only for now; `Address` lists let a later "share on the local network" pass the
extra address (and so the extra allowed origin) it serves.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import logging
import os
import re
import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import flet as ft
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


def content_security_policy(addresses: Iterable[Address]) -> str:
    """Only the served origin: scripts, wasm (CanvasKit/skwasm), its blob: worker, the socket."""
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
        "form-action 'none'",
        "frame-ancestors 'none'",
    ])


class Door:
    """ASGI layer in front of Flet's FastAPI app; see the module docstring."""

    def __init__(self, app: ASGIApp, addresses: Sequence[Address], *, web_dir: str | Path,
                 fonts_dir: Path = ASSETS_DIR / "fonts") -> None:
        if not addresses:
            raise ValueError("a web door needs at least one address")
        self.app = app
        self.addresses = tuple(addresses)
        self.hosts = frozenset().union(*(address.host_headers() for address in self.addresses))
        self.origins = frozenset(address.origin for address in self.addresses)
        self.web_dir = Path(web_dir)
        self.fonts_dir = fonts_dir
        self.headers = [
            (b"content-security-policy", content_security_policy(self.addresses).encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
            (b"cross-origin-resource-policy", b"same-origin"),
        ]
        self._client: dict[str, tuple[bytes, str]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # lifespan: Flet's sessions start and stop there
            await self.app(scope, receive, send)
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

    def refusal(self, scope: Scope) -> str | None:
        """Why this request is refused, or None when it comes from a page of this server."""
        headers = Headers(scope=scope)
        served = " or ".join(address.url for address in self.addresses)
        if headers.get("host", "").lower() not in self.hosts:
            return f"This Companion server answers only at {served}."
        origin = headers.get("origin")
        if scope["type"] == "websocket" and origin is None:
            return "A Companion game is only reachable from its own page."
        if origin is not None and origin.lower() not in self.origins:
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

    def _secured(self, send: Send) -> Send:
        """`send` with this door's headers on the response."""
        ours = {name for name, _ in self.headers}

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # Flet adds `Access-Control-Allow-Origin: *`, which would let any site read our answers.
                kept = [(k, v) for k, v in message.get("headers", [])
                        if k.lower() != b"access-control-allow-origin" and k.lower() not in ours]
                message["headers"] = kept + self.headers
            await send(message)

        return send_with_headers


@contextlib.contextmanager
def _without_env(names: Iterable[str]) -> Iterator[None]:
    saved = {name: os.environ.pop(name) for name in names if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def create_app(main: Callable[[ft.Page], Any], addresses: Sequence[Address], *,
               assets_dir: str | Path | None = None) -> Door:
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
    return Door(flet_app, addresses, web_dir=flet_web.get_package_web_dir())


def server(app: Door) -> Any:
    """A uvicorn server for `app` (a `uvicorn.Server`; run it on a socket from `listen`)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        server_header=False,
        ws="websockets-sansio",  # the implementation Flet's own web server uses
        lifespan="on",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,  # open sockets must not hold up a stop
    )
    return uvicorn.Server(config)


def serve(main: Callable[[ft.Page], Any], sock: socket.socket, *, also: Sequence[Address] = (),
          assets_dir: str | Path | None = None) -> None:
    """Serve `main` on the listening `sock` until interrupted (Ctrl-C, SIGTERM).

    The socket's own address is always allowed; `also` adds addresses this server is
    reached at (a local-network share).
    """
    host, port = sock.getsockname()[:2]
    app = create_app(main, [Address(host, port), *also], assets_dir=assets_dir)
    server(app).run(sockets=[sock])

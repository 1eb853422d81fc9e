"""Serving: the port, Flet's app behind the door, uvicorn, the share listeners, the stop.

This is where the rooms are put together: `create_app` makes Flet's app and sets the door
(`door`) in front of it, with the offline client (`offline`) among its answers and the
join rules (`join`) on the shared address. Its rules:

1. The port is taken before anything is announced; a port that cannot be taken is one
   sentence saying why and what to do (`PortError`).
2. Flet's app is made offline (`no_cdn`), named Companion, on the page of
   `companion/assets` and the socket at `/ws`, whatever Flet's environment variables say;
   FastAPI's documentation routes are taken out.
3. Nobody proxies Companion: a request's address is its socket's, never a header's; the
   server names nothing about itself; open sockets hold a stop up at most
   `GRACEFUL_SHUTDOWN_S`.
4. While a game is shared, a second server on the same app answers on the local-network
   address (so the shared pages hear the same changes); a desktop window gets a web
   server of its own for it. Stopping the share stops taking connections at once and
   closes the open ones `SHARE_STOP_GRACE_S` later, once the phones drew "sharing stopped".
5. When serving stops (Ctrl-C, SIGTERM), the share stops with it.
6. A file picked on this device's page comes in as one signed PUT to `/upload` (see
   `companion.app.incoming`), at most an archive's limit, not as a message on the page's
   socket (uvicorn closes a socket sent more than 16 MiB at once, without a word); the
   door lets it through on this device's address only.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import flet as ft

from companion.aftergame.archive import MAX_IMPORT_BYTES
from companion.app import incoming
from companion.app.share import ShareError, Sharing
from companion.app.web.door import ASSETS_DIR, CLOSED_PATHS, UPLOAD, Address, Door
from companion.app.web.join import JoinDoor
from companion.app.web.offline import OfflineClient

APP_NAME = "Companion"
APP_DESCRIPTION = "A table-side companion for board games."
LOOPBACK = "127.0.0.1"
GRACEFUL_SHUTDOWN_S = 5
# Flet reads these when the app is made; the page in companion/assets (and its policy)
# only works with its own assets folder and the socket at /ws.
FLET_OVERRIDES = (
    "FLET_ASSETS_DIR",
    "FLET_WEBSOCKET_HANDLER_ENDPOINT",
    "FLET_UPLOAD_DIR",
    "FLET_UPLOAD_HANDLER_ENDPOINT",
)
SHARE_STOP_GRACE_S = 0.5  # time for joined pages to draw "sharing stopped" before their sockets close


class PortError(Exception):
    """The port cannot be listened on; `str()` is a sentence for the user."""

    def __init__(self, sentence: str, errno_: int | None = None) -> None:
        super().__init__(sentence)
        self.errno = errno_


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port, or PortError saying why not (rule 1)."""
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


@contextlib.contextmanager
def _without_env(names: Iterable[str]) -> Iterator[None]:
    saved = {name: os.environ.pop(name) for name in names if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def create_app(
    main: Callable[[ft.Page], Any],
    addresses: Sequence[Address],
    *,
    assets_dir: str | Path | None = None,
    sharing: Sharing | None = None,
) -> Door:
    """Flet's FastAPI app for `main`, named Companion, offline, behind a `Door` for `addresses`.

    Another `assets_dir` must hold the page of companion/assets (index.html, boot.js): Flet's
    own page has inline scripts, which the policy refuses.
    """
    import flet_web  # type: ignore[import-untyped]
    import flet_web.fastapi as flet_fastapi  # type: ignore[import-untyped]

    with _without_env(FLET_OVERRIDES):  # rule 2
        flet_app = flet_fastapi.app(
            main,
            assets_dir=str(assets_dir or ASSETS_DIR),
            app_name=APP_NAME,
            app_short_name=APP_NAME,
            app_description=APP_DESCRIPTION,
            no_cdn=True,
            # Rule 6: a picked file comes as one PUT, signed by this process, no bigger than an archive may be.
            upload_dir=incoming.folder(),
            upload_endpoint_path=incoming.UPLOAD_PATH,
            max_upload_size=MAX_IMPORT_BYTES,
            secret_key=incoming.secret(),
        )
    # FastAPI adds its documentation routes in its constructor; take them out (the Door
    # answers their paths with 404 rather than the app's page).
    flet_app.router.routes = [
        route for route in flet_app.router.routes if getattr(route, "path", None) not in CLOSED_PATHS - {UPLOAD}
    ]
    flet_app.openapi_url = flet_app.docs_url = flet_app.redoc_url = None
    door = Door(flet_app, addresses, answers=[OfflineClient(flet_web.get_package_web_dir()).answer])
    door.uploads = True
    door.lan_door = JoinDoor(door, sharing)
    return door


def server(app: Door, *, lifespan: bool = True) -> Any:
    """A uvicorn server for `app` (a `uvicorn.Server`; run it on a socket from `listen`).

    `lifespan=False` for a second server of an app another one already started.
    """
    import uvicorn

    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        server_header=False,  # rule 3
        # Rule 3: nobody proxies Companion: a request's address is its socket's, never a
        # header's (typed join codes are counted per address, see share.TryLimits).
        proxy_headers=False,
        ws="websockets-sansio",  # the implementation Flet's own web server uses
        # A tap's patch is about 1 KB, sent to every page following the game: compressing it
        # cost more server time than it saved on a table's Wi-Fi (bench/table.py).
        ws_per_message_deflate=False,
        lifespan="on" if lifespan else "off",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,  # rule 3: open sockets must not hold up a stop
    )
    return uvicorn.Server(config)


def serve(
    main: Callable[[ft.Page], Any],
    sock: socket.socket,
    *,
    also: Sequence[Address] = (),
    assets_dir: str | Path | None = None,
    sharing: Sharing | None = None,
    on_started: Callable[[], None] | None = None,
) -> None:
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
        if sharing is not None:  # rule 5
            sharing.stop()


# --- the share listeners (rule 4) -------------------------------------------------------


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

"""The web door: the app served to a browser, answering only the address it was started on.

Four rooms, each with its rules numbered in its docstring:

- `door`: who may talk to the server (Host and Origin), the closed paths, the
  Content-Security-Policy and the other headers every answer carries;
- `offline`: nothing fetched from the internet (the client's Rive CDN address made local,
  Flutter's fallback fonts answered with the shipped ones);
- `join`: what the local-network address of a shared game answers a phone (the code page,
  the join link and form, the guest and name cookies);
- `serving`: the port, uvicorn, the share listeners, the stop; `create_app` puts the rooms
  together (`door` imports none of the others; `serving` imports them all).

A fifth, `frames`, checks a page's socket frames before Flet reads them (the door's rule
7): a malformed one is dropped in one rate-limited console line, and a page's session stays
with the address and cookie it was made for.

The names below are the ones the CLI and the tests use.
"""

from companion.app.web.door import ASSETS_DIR, Address, Door
from companion.app.web.join import GUEST_COOKIE, NAME_COOKIE
from companion.app.web.offline import FALLBACK_FONTS, PATCHED_CLIENT, RIVE_CDN, RIVE_LOCAL
from companion.app.web.serving import (
    LOOPBACK,
    PortError,
    ShareListener,
    WindowShareListener,
    create_app,
    listen,
    serve,
    server,
)

__all__ = [
    "ASSETS_DIR",
    "FALLBACK_FONTS",
    "GUEST_COOKIE",
    "LOOPBACK",
    "NAME_COOKIE",
    "PATCHED_CLIENT",
    "RIVE_CDN",
    "RIVE_LOCAL",
    "Address",
    "Door",
    "PortError",
    "ShareListener",
    "WindowShareListener",
    "create_app",
    "listen",
    "serve",
    "server",
]

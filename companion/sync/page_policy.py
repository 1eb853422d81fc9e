"""The phone build: the one server the worker Python runs in may reach besides the site.

The service worker answers that worker's script with a policy naming the sync server kept
here (companion/publish/service-worker.js: `connect-src 'self' <server>`), so a server set up
in Settings is reachable once the app starts again, and no other ever is. Elsewhere (the
desktop, a server) there is nothing to keep: the app's own door has a policy of its own.
"""

from __future__ import annotations

import sys
import urllib.parse

IN_BROWSER = sys.platform == "emscripten"
CACHE = "companion:sync"  # not "companion-…": a new build drops those caches, and this one stays
KEY = "__companion_sync_origin__"


def origin(url: str) -> str:
    """A server's origin (scheme, host and port): what a policy names."""
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"


async def allow(url: str | None) -> None:
    """Keep the server the app may reach from its next start (None: none)."""
    if not IN_BROWSER:
        return
    import js  # type: ignore[import-not-found]  # Pyodide only

    base = str(js.URL.new("./", js.self.location.href).href)
    cache = await js.caches.open(CACHE)
    if url:
        await cache.put(base + KEY, js.Response.new(origin(url)))
    else:
        await cache.delete(base + KEY)

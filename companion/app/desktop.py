"""Can a desktop window be opened here? If not, say why in one line.

Flet's desktop window is a separate Flutter client that `flet-desktop` downloads on first
run. With no network (or no display), `ft.run` would fail deep inside; asking first lets
the launcher fall back to the browser with a plain sentence instead of a traceback.
"""

from __future__ import annotations

import logging
import os
import socket
import sys

log = logging.getLogger(__name__)
DOWNLOAD_TIMEOUT_S = 20


def hosted_by_flet() -> bool:
    """A built app (Flet embeds Python) or `flet run`: Flet brings its own client."""
    return bool(os.environ.get("FLET_PLATFORM") or os.environ.get("FLET_DISPLAY_URL_PREFIX"))


def desktop_problem() -> str | None:
    """None when a desktop window can open; else the reason, as one short sentence."""
    if hosted_by_flet():
        return None
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "no display to open a window on"
    try:
        import flet_desktop  # type: ignore[import-untyped]  # no stubs
    except ImportError:
        return "the desktop client (flet-desktop) is not installed"
    if os.environ.get("FLET_VIEW_PATH"):
        return None
    # urlopen has no timeout of its own: a network that drops packets would hang the launch.
    previous = socket.getdefaulttimeout()
    socket.setdefaulttimeout(DOWNLOAD_TIMEOUT_S)
    try:
        flet_desktop.ensure_client_cached()  # instant once cached; a one-time download otherwise
    except Exception as error:  # URLError, HTTPError, OSError, a broken archive: all mean "no client"
        log.info("desktop client unavailable: %r", error)
        return "the desktop window's client could not be downloaded (no network?)"
    finally:
        socket.setdefaulttimeout(previous)
    return None

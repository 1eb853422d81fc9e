"""The Flet entry point: one `main(page)` per window or browser tab."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import flet as ft

from companion.app import flet_diff, flet_private, theme
from companion.app.data import AppData
from companion.app.intents import Intents
from companion.app.screens import dispatch
from companion.app.share import Sharing, current_guest
from companion.app.shell import PageApp
from companion.store import Store, default_data_dir

log = logging.getLogger(__name__)
WAKELOCK_TIMEOUT_S = 2
BACKUP_AFTER_S = 1.5  # after the page is mounted: its first screen has been sent and drawn by then


def make_main(data: AppData, sharing: Sharing | None = None, language: str | None = None) -> Callable[[ft.Page], None]:
    """A `main` bound to one data folder; every page of this process shares it.

    With `sharing`, a game screen can be shared with the phones at the table; a page opened
    by a phone that joined (`current_guest`, set by the web door) follows the shared game.
    `language` (`--lang`) outranks the device and a choice made on it before this run.
    """

    flet_diff.install()  # every way in draws through here: Flet's diff, walked quicker
    backups = DailyBackup(data)
    # Phones alike on the shared game share one drawing of it (mirror.py).
    mirror = None
    # Flet's messaging, which it needs, loads compiled msgpack: not in the phone build. On a Flet
    # other than the one it reaches into, each page draws its own (flet_private.py).
    if sharing is not None and flet_private.mirror_usable():
        from companion.app.mirror import Mirror

        mirror = Mirror(data, sharing, dispatch.build, dispatch.sheet)
    data.on_game_over = backups.check
    data.sync.start()  # the background rounds, when sync is set up (Settings → Sync)
    run_started = time.time()  # a language chosen on a device before this run gives way to `language`

    def main(page: ft.Page) -> None:
        page.title = "Companion"
        page.theme_mode = ft.ThemeMode.SYSTEM
        page.theme = theme.theme(dark=False)
        page.dark_theme = theme.theme(dark=True)
        page.padding = 0
        # A desktop window opens phone-shaped but resizable; browsers and phones ignore these.
        page.window.width, page.window.height = 480, 900
        page.window.min_width, page.window.min_height = 360, 560
        guest = current_guest.get() if sharing is not None else None
        app = PageApp(
            page,
            data,
            dispatch.build,
            dispatch.sheet,
            sharing=sharing,
            guest=guest,
            language=language,
            run_started=run_started,
        )
        act = app.act

        # A dropped socket (a phone's screen locked, Wi-Fi blinked, a reload) keeps the page's
        # session and its game: the client reconnects to it. Only an expired session lets go.
        def sync_told(games_changed: bool) -> None:  # from the sync thread: drawn on the page's loop
            # Only a page that shows what changed draws again: games taken, or Settings' sync status.
            if games_changed or act.state.ui.screen == "settings":
                page.run_task(redraw_page, act)

        stop_following_sync = data.sync.subscribe(sync_told)

        def closed() -> None:
            stop_following_sync()
            act.release()

        page.on_close = lambda _: closed()
        page.on_app_lifecycle_state_change = lambda _: data.sync.poke()  # back to the app: a round
        page.on_connect = lambda _: reconnected(page, act)
        page.on_disconnect = lambda _: act.disconnected()
        page.on_platform_brightness_change = lambda _: act.redraw()  # player colours have a shade per theme
        page.on_resize = lambda _: act.redraw()  # a window made wide lays the game out side by side
        if sharing is not None and guest is not None:
            follow_connection(page, sharing, guest)
        page.on_locale_change = lambda event: app.language.device_locales(event.locales)
        keep_awake(page)
        app.mount(mirror.follow if mirror is not None else None)
        act.resume()
        page.run_task(app.language.learn_device_locales)
        # Once the first screen is out; a failure is drawn on this page's Home when it is known.
        backups.check(BACKUP_AFTER_S, told=lambda: page.run_task(redraw_page, act))

    return main


async def redraw_page(act: Intents) -> None:
    """`act.redraw` on the page's loop, in its context (from a thread: `page.run_task`)."""
    act.redraw()


class DailyBackup:
    """The day's backup, kept while the app runs (a server or a phone left on for days): looked
    for when a page opens, once its first screen is out, and whenever a game ends. Each check
    that finds today's backup already there costs nothing more; the copy itself runs in a
    thread of its own (it reads every game's file: no tap waits for it). A store held in
    memory goes with the process: a copy of it would save nothing."""

    def __init__(self, data: AppData) -> None:
        self.data = data
        self._lock = threading.Lock()
        self._running = False
        self._kept: date | None = None  # the day whose backup is known to be there

    def check(self, delay: float = 0.0, told: Callable[[], object] = lambda: None) -> None:
        """Keep the day's backup unless it is there; `told` is called when it could not be saved."""
        today = date.today()
        if self.data.store.directory is None:
            return
        with self._lock:
            if self._running or self._kept == today:
                return
            self._running = True
        timer = threading.Timer(delay, self._run, args=(today, told))
        timer.name, timer.daemon = "companion-backup", True
        try:
            timer.start()
        except RuntimeError:  # no threads (the phone build's Python): on the page's loop, after its draw
            self._later(delay, today, told)

    def _later(self, delay: float, today: date, told: Callable[[], object]) -> None:
        try:
            asyncio.get_running_loop().call_later(delay, self._run, today, told)
        except RuntimeError:  # no loop either: now
            self._run(today, told)

    def _run(self, today: date, told: Callable[[], object]) -> None:
        try:
            self.data.backup_if_due(today)
            if any(backup.day == today for backup in self.data.backups()):
                self._kept = today
            elif self.data.backup_failure is not None:
                told()
        finally:
            with self._lock:
                self._running = False


_default: Callable[[ft.Page], None] | None = None


def main(page: ft.Page) -> None:
    """For `ft.run(main)` from elsewhere: the data folder comes from the environment."""
    global _default
    if _default is None:
        _default = make_main(AppData(Store(default_data_dir())))
    _default(page)


def follow_connection(page: ft.Page, sharing: Sharing, guest: str) -> None:
    """Keep the host's list of connected phones true as this phone's socket comes and goes."""
    connected = [True]
    sharing.page_opened(guest)

    def now(on: bool) -> None:
        if connected[0] != on:
            connected[0] = on
            (sharing.page_opened if on else sharing.page_closed)(guest)

    for name, on in (("connect", True), ("disconnect", False), ("close", False)):
        before = getattr(page, f"on_{name}")

        def handler(event: Any, before: Any = before, on: bool = on) -> None:
            now(on)
            if before is not None:
                before(event)

        setattr(page, f"on_{name}", handler)


def reconnected(page: ft.Page, act: Intents) -> None:
    keep_awake(page)  # the browser dropped the lock with the page's socket
    act.reconnected()


def keep_awake(page: ft.Page) -> None:
    """Keep the screen on during a game where the platform allows it."""
    wakelock = next((service for service in page.services if isinstance(service, ft.Wakelock)), None)
    if wakelock is None:
        wakelock = ft.Wakelock()
        page.services.append(wakelock)

    async def enable() -> None:
        try:
            # The client may never answer (a test client, an old browser): don't wait forever.
            await asyncio.wait_for(wakelock.enable(), WAKELOCK_TIMEOUT_S)  # type: ignore[no-untyped-call]
        except Exception as error:  # not every platform has a wakelock (web, some desktops)
            log.info("screen wakelock unavailable: %s", error)

    page.run_task(enable)


ASSETS = Path(__file__).resolve().parents[2] / "assets"  # the icon, in a source checkout


def run_kwargs(view: Any, port: int = 0) -> dict[str, Any]:
    """`ft.run` arguments: loopback only, nothing fetched from a CDN."""
    assets = str(ASSETS) if ASSETS.is_dir() else None
    return {"view": view, "host": "127.0.0.1", "port": port, "no_cdn": True, "assets_dir": assets}

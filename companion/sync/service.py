"""Sync in the background while the app is open: never on a tap's path (a tap is saved here
first, as always), rounds at start, soon after a change here, when the server's changes feed
says something changed there, when a phone comes back to the app, and at least once a minute.

A fault (no network, the server down, a wrong password, a full server) stops nothing: the
status keeps the last good round and the fault in one sentence, and the next round is tried
again after 5 s, then 10, 20… up to 5 minutes. The thread's rounds go one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from companion.store import Store
from companion.sync import page_policy
from companion.sync.couch import Couch, SyncError, Transport, default_transport, is_encrypted
from companion.sync.documents import read_state, server_key
from companion.sync.engine import RoundReport, claim, sync_round
from companion.sync.settings import (
    SyncSettings,
    forget,
    read_password,
    read_settings,
    write_password,
    write_settings,
)
from companion.text.messages import Message, quoted, register

IDLE_S = 60.0  # a round at least this often while the app is open
SETTLE_S = 0.5  # changes here within this time go in one round
BACKOFF_S = (5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0)
FEED_S = 25  # how long the server holds the changes feed open when nothing changes
IN_BROWSER = sys.platform == "emscripten"  # the phone build: no threads, and no feed held open
POLL_S = 10.0  # there, what the feed would say is asked this often instead

register(
    "en",
    {
        "sync.tested": "The server {server} answered, took the user name and password, and the database {database} "
        "is ready.",
        "sync.tested_created": "The server {server} answered, took the user name and password, and the database "
        "{database} was created.",
    },
)


def backoff(failures: int) -> float:
    """How long to wait after this many faults in a row (5 s, 10 s… up to 5 minutes)."""
    return BACKOFF_S[min(failures, len(BACKOFF_S)) - 1]


@dataclass(frozen=True)
class SyncStatus:
    """What Settings shows of sync."""

    on: bool = False
    server: str = ""  # host and database
    encrypted: bool = True
    busy: bool = False
    last_ok: float | None = None
    fault: Message | None = None  # why the last round failed (None: it went well)
    progress: tuple[str, int, int] | None = None  # a round under way: (stage, done, total)
    last: RoundReport | None = None


class SyncService:
    """The background rounds of one data folder (one per process, shared by its pages)."""

    def __init__(
        self, store: Store, transport: Transport | None = None, language: Callable[[], str] = lambda: "en"
    ) -> None:
        self.store = store
        self.transport = transport or default_transport()
        self._page_wake: asyncio.Event | None = None  # the phone build's rounds, on the page's loop
        self._page_rounds: asyncio.Task[None] | None = None
        self.language = language
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self._settings_lock = threading.Lock()  # a round's last_ok, or Turn off's forgetting: one at a time
        self._listeners: list[Callable[[bool], None]] = []
        self._thread: threading.Thread | None = None
        self._watcher: threading.Thread | None = None
        self._stopped = threading.Event()
        self._from_feed = threading.Event()  # woken by the server's feed: no taps to gather, a round at once
        settings = read_settings(store.folder)
        self.status = SyncStatus() if settings is None else self._status_of(settings)
        # The phone build may reach the server it was set up with when it started (page_policy.py).
        self.reachable = page_policy.origin(settings.url) if settings is not None else None

    def needs_restart(self, settings: SyncSettings) -> bool:
        """Whether this server is reachable only once the app starts again (the phone build)."""
        return page_policy.IN_BROWSER and page_policy.origin(settings.url) != self.reachable

    async def keep_for_restart(self, settings: SyncSettings, password: str) -> None:
        """The phone build, a server it may not reach yet: keep the settings, the password and
        the server the next start may reach; its first round says whether the server answered."""
        settings.checked()
        write_password(self.store.folder, password)
        write_settings(self.store.folder, replace(settings, last_ok=None))
        await page_policy.allow(settings.url)

    # --- what pages see and do ---

    def subscribe(self, listener: Callable[[bool], None]) -> Callable[[], None]:
        """`listener(games_changed)` after each round and each change of status; returns how to stop listening."""
        with self._lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return stop

    def poke(self) -> None:
        """Something changed here (or the app came back): a round soon."""
        if self.status.on:
            self._wake.set()
            if self._page_wake is not None:
                self._page_wake.set()

    def start(self) -> None:
        """Start the rounds when sync is set up (at the app's start)."""
        settings = read_settings(self.store.folder)
        if settings is None or (self._thread is not None and self._thread.is_alive()):
            return
        if not self.status.on:
            self._set(self._status_of(settings))
        self._stopped.clear()
        if IN_BROWSER:
            if self._page_rounds is None or self._page_rounds.done():
                self._page_wake = asyncio.Event()
                self._page_rounds = asyncio.get_event_loop().create_task(self._rounds_in_page())
            self.poke()
            return
        self._thread = threading.Thread(target=self._rounds, name="companion-sync", daemon=True)
        self._watcher = threading.Thread(target=self._watch, name="companion-sync-feed", daemon=True)
        self._thread.start()
        self._watcher.start()
        self._wake.set()

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()
        if self._page_wake is not None:
            self._page_wake.set()

    def test(self, settings: SyncSettings, password: str) -> Message:
        """Whether the server answers, takes the credentials, and has the database (or made it): a sentence."""
        couch = self._couch(settings.checked(), password)
        couch.welcome()
        created = couch.ensure_database()
        claim(couch)
        return Message(
            "sync.tested_created" if created else "sync.tested",
            {"server": couch.server, "database": quoted(settings.database)},
        )

    def turn_on(self, settings: SyncSettings, password: str) -> Message:
        """Test, then keep the settings and the password and start the rounds; SyncError when the test fails."""
        said = self.test(settings, password)
        write_password(self.store.folder, password)
        write_settings(self.store.folder, replace(settings, last_ok=None))
        self._set(self._status_of(settings))
        self.start()
        self.poke()
        return said

    def turn_off(self) -> None:
        """No more rounds; the settings and the password are forgotten (the games stay)."""
        self.stop()
        with self._settings_lock:
            forget(self.store.folder)
        self._set(SyncStatus())
        if page_policy.IN_BROWSER:
            asyncio.ensure_future(page_policy.allow(None))  # from the next start, no server

    # --- the rounds ---

    def _rounds(self) -> None:
        failures = 0
        while not self._stopped.is_set():
            wait = IDLE_S if failures == 0 else backoff(failures)
            if self._wake.wait(timeout=wait) and not self._from_feed.is_set():
                time.sleep(SETTLE_S)  # taps in a row go in one round
            self._wake.clear()
            self._from_feed.clear()
            if self._stopped.is_set():
                return
            settings = read_settings(self.store.folder)
            if settings is None:
                return
            report = self.round_now(settings)
            failures = 0 if report is not None else failures + 1

    async def _rounds_in_page(self) -> None:
        """The phone build's rounds: a task of the page's loop (no threads there). A round's
        requests are waited for in the worker Python runs in; the screen is drawn meanwhile."""
        failures = 0
        assert self._page_wake is not None
        while not self._stopped.is_set():
            wait = POLL_S if failures == 0 else backoff(failures)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._page_wake.wait(), wait)
                await asyncio.sleep(SETTLE_S)  # taps in a row go in one round
            self._page_wake.clear()
            settings = read_settings(self.store.folder)
            if self._stopped.is_set() or settings is None:
                return
            failures = 0 if self.round_now(settings) is not None else failures + 1

    def round_now(self, settings: SyncSettings) -> RoundReport | None:
        """One round, its progress and outcome told to the pages; None when it failed."""
        self._set(replace(self.status, busy=True, progress=None))

        def progress(stage: str, done: int, total: int) -> None:
            self._set(replace(self.status, progress=(stage, done, total)))

        try:
            report = sync_round(
                self.store, self._couch(settings, read_password(self.store.folder)), self.language(), progress
            )
        except SyncError as error:
            self._set(replace(self.status, busy=False, progress=None, fault=error.message))
            return None
        except Exception as error:  # noqa: BLE001 - a bug must not end the thread: said, and tried again
            self._set(
                replace(
                    self.status,
                    busy=False,
                    progress=None,
                    fault=Message("sync.failed", {"reason": type(error).__name__}),
                )
            )
            return None
        now = time.time()
        # Not over settings Turn off forgot while the round ran: the next start would try that server again.
        with self._settings_lock, contextlib.suppress(SyncError, OSError):
            if read_settings(self.store.folder) is not None:
                write_settings(self.store.folder, replace(settings, last_ok=now))
        self._set(
            replace(self.status, busy=False, progress=None, fault=None, last_ok=now, last=report),
            games_changed=bool(report.taken or report.deleted or report.copies),
        )
        return report

    def _watch(self) -> None:
        """The server's changes feed: a round when something changed there (from where the last
        round took, then from what the feed itself last said)."""
        failures = 0
        since: Any = None
        while not self._stopped.is_set():
            settings = read_settings(self.store.folder)
            if settings is None:
                return
            try:
                couch = self._couch(settings, read_password(self.store.folder))
                if since is None:
                    since = read_state(self.store, server_key(couch)).seq
                following = couch.wait_for_changes(since, FEED_S)
                if following != since:
                    since = following
                    self._from_feed.set()
                    self._wake.set()
                failures = 0
            except Exception:  # noqa: BLE001 - the feed only wakes the rounds: any fault, wait and try again
                failures += 1
                since = None
                self._stopped.wait(backoff(failures))

    # --- helpers ---

    def _couch(self, settings: SyncSettings, password: str) -> Couch:
        return Couch(settings.url, settings.database, settings.user, password, transport=self.transport)

    def _status_of(self, settings: SyncSettings) -> SyncStatus:
        server = f"{settings.url.split('://', 1)[-1].rstrip('/')}/{settings.database}"
        return SyncStatus(on=True, server=server, encrypted=is_encrypted(settings.url), last_ok=settings.last_ok)

    def _set(self, status: SyncStatus, games_changed: bool = False) -> None:
        self.status = status
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            with contextlib.suppress(Exception):  # a page gone meanwhile
                listener(games_changed)


register(
    "en",
    {
        "sync.failed": "Sync stopped on an unexpected error ({reason}); it will try again.",
        "sync.turned_off": "Sync is off: nothing more is sent; the games stay here and on the server.",
        "sync.restarting": "The app starts again to reach this server (it may reach no other); sync begins then.",
        "sync.test_after_restart": "The app may reach this server only once it starts again: tap Turn "
        "sync on, and this page will say whether it answered.",
    },
)

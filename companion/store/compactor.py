"""Files rewritten whole in the background, once nobody has written them for a moment.

A file that piled up records (a session file after `storage.COMPACT_SOON` changes, the
index after `index_storage.COMPACT_SOON`, or an index of an earlier format) is told to the
compactor after each write; once `IDLE_SECONDS` pass without another write, one thread of
the store's rewrites it (`compact_idle`: staged while the file may still grow, put in place
only if it did not). Recording an event therefore never waits for a rewrite of its file:
the tap that would have rewritten it (every 128th, ~10 ms at 10,000 events) appends like
the others. A file that keeps being written past `COMPACT_EVERY` records is rewritten by
the write itself, so no file ever holds more.

The thread runs only while something is due, and holds the files' storages weakly. Where no
thread can start (Pyodide in a browser), nothing is rewritten in the background.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from typing import Protocol

log = logging.getLogger(__name__)

IDLE_SECONDS = 1.0  # without a write, after which a due file is rewritten


class Compactable(Protocol):
    def compact_due(self) -> bool: ...

    def compact_idle(self) -> bool: ...


class Compactor:
    """Rewrites the due files of one store in the background (see the module's docstring)."""

    def __init__(self) -> None:
        self._due: dict[int, tuple[weakref.ref[Compactable], float]] = {}
        self._mutex = threading.Lock()
        self._wake = threading.Condition(self._mutex)
        self._thread: threading.Thread | None = None
        # Held by the rewrites, and by other long background work of the store (the day's
        # backup): one at a time, so their memory never adds up (the index of an earlier
        # format rewritten during the first backup at 10,000 games: +12 MB instead of +0.2).
        self.busy = threading.Lock()

    def written(self, storage: Compactable) -> None:
        """A file was just written: rewrite it once it has been left alone, if it is due."""
        if not storage.compact_due():
            return
        with self._mutex:
            self._due[id(storage)] = (weakref.ref(storage), time.monotonic())
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="companion-compactor", daemon=True)
                try:
                    self._thread.start()
                except RuntimeError:  # no threads here (the phone build's Python in a browser):
                    self._thread = None  # the write itself rewrites a file past COMPACT_EVERY records
                    self._due.clear()
                    return
            self._wake.notify()

    def forget(self, storage: Compactable) -> None:
        with self._mutex:
            self._due.pop(id(storage), None)

    def pending(self) -> int:
        with self._mutex:
            return len(self._due)

    def _run(self) -> None:
        while True:
            with self._mutex:
                if not self._due:
                    self._thread = None
                    return
                now = time.monotonic()
                ready = [key for key, (_, written) in self._due.items() if now - written >= IDLE_SECONDS]
                if not ready:
                    self._wake.wait(min(written for _, written in self._due.values()) + IDLE_SECONDS - now)
                    continue
                storages = [self._due.pop(key)[0]() for key in ready]
            with self.busy:
                for storage in storages:
                    if storage is None:
                        continue
                    try:
                        storage.compact_idle()  # a write meanwhile tells it again: no retry here
                    except Exception as error:  # noqa: BLE001 - a background courtesy never stops the app
                        log.debug("compaction failed: %s", error)

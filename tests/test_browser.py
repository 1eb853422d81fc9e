"""The phone build's own parts that plain Python can run (companion/browser.py): the folder
that says when it changed, and the gate that holds the screen until IndexedDB has the change.

The browser itself (Pyodide, IDBFS, the service worker) is tested in Chromium:
tests/e2e/test_phone_e2e.py.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import browser
from companion.aftergame import archive
from companion.browser import BrowserStorage, Durable, SyncedFolder
from companion.store import Store
from companion.store.folders import DiskFolder, Folder


class Counted:
    def __init__(self) -> None:
        self.count = 0
        self.names: set[str] = set()

    def __call__(self, *names: str) -> None:
        self.count += 1
        self.names.update(names)


def synced_store(tmp_path: Path) -> tuple[Store, Counted]:
    changed = Counted()
    store = Store(tmp_path, folder=SyncedFolder(DiskFolder(tmp_path), changed))
    return store, changed


def test_every_change_a_game_makes_is_told_before_it_returns(tmp_path: Path) -> None:
    store, changed = synced_store(tmp_path)
    before = changed.count
    session = store.new("transamerica", ["Ann", "Bob"], {})
    assert changed.count > before
    for change in (
        lambda: session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 4}}),
        session.undo,
        session.redo,
    ):
        before = changed.count
        change()
        assert changed.count > before, "a change reported done was never copied"
    assert session.id is not None
    store.close_session(session.id)
    before = changed.count
    store.delete(session.id)
    assert changed.count > before


def test_a_change_that_fails_half_way_is_copied_too(tmp_path: Path) -> None:
    changed = Counted()
    folder = SyncedFolder(DiskFolder(tmp_path), changed)
    with pytest.raises(OSError):
        folder.append("missing.json", b"{}")  # the file is not there
    assert changed.count == 1


def files_of(root: Path) -> dict[str, tuple[int, bytes]]:
    return {
        path.relative_to(root).as_posix(): (path.stat().st_mtime_ns, path.read_bytes())
        for path in root.rglob("*")
        if path.is_file() and not path.name.endswith((".lock", ".tmp"))
    }


def test_every_file_a_change_leaves_different_is_among_the_names_it_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the names reported are copied to IndexedDB: a file changed or removed without its
    name would be lost at the next start. As in the browser, no thread can start, so the
    store's rewrites (a session past its records' limit, the index) happen inside the taps."""

    def no_threads(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", no_threads)
    changed = Counted()
    store = Store(tmp_path, folder=SyncedFolder(DiskFolder(tmp_path), changed))
    steps: list[Any] = []
    session = None

    def new() -> None:
        nonlocal session
        session = store.new("transamerica", ["Ann", "Bob"], {})

    steps.append(new)
    steps.append(lambda: session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 4}}))
    steps.append(lambda: session.undo())
    steps.append(lambda: session.redo())
    steps.extend(lambda: session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 1}}) for _ in range(5))
    steps.extend((lambda: session.undo()) if turn % 2 else (lambda: session.redo()) for turn in range(1, 301))
    steps.append(lambda: store.rename(session.id, "Friday"))
    steps.append(lambda: store.close_session(session.id))
    backups: list[str | None] = []
    steps.append(lambda: backups.append(archive.write_backup(store)))  # the day's backup
    steps.append(lambda: store.delete(session.id))
    steps.append(lambda: archive.restore_backup(store, str(backups[0])))  # the game back, in new files
    for step in steps:
        before = files_of(tmp_path)
        changed.names.clear()
        step()
        after = files_of(tmp_path)
        differ = {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
        assert differ <= changed.names, (step, sorted(differ - changed.names))
    assert backups[0] is not None and len(store.sessions()) == 1  # the backup held it, and it came back


def test_the_paths_copied_are_the_names_with_their_folders_first() -> None:
    assert browser.paths_to_copy(["sessions/a.json", "index.json", "sessions/b.json"]) == [
        "/data/index.json",
        "/data/sessions",
        "/data/sessions/a.json",
        "/data/sessions/b.json",
    ]
    assert browser.paths_to_copy([]) == []


def test_a_copy_is_of_the_names_changed_and_a_failed_one_is_copied_again_with_the_next() -> None:
    async def scenario() -> None:
        sync = Sync()
        durable = Durable(sync)
        durable.changed("sessions/a.json")
        await settle()
        durable.changed("sessions/b.json", "index.json")  # while a copy is in flight
        sync.finish(OSError("QuotaExceededError"))
        await settle()
        sync.finish(OSError("QuotaExceededError"))  # the second copy fails too
        await settle()
        assert durable.settled
        durable.changed("sessions/c.json")
        await settle()
        sync.finish()
        await settle()
        durable.changed()  # a change that names nothing: everything is copied
        await settle()
        sync.finish()
        await settle()
        assert sync.asked == [
            frozenset({"sessions/a.json"}),
            frozenset({"sessions/b.json", "index.json"}),
            frozenset({"sessions/a.json", "sessions/b.json", "index.json", "sessions/c.json"}),
            None,
        ]
        assert durable.settled and durable.problem is None

    asyncio.run(scenario())


def test_opening_a_store_whose_folders_are_there_asks_for_no_copy(tmp_path: Path) -> None:
    """At each start the store ensures its folders: only a new one is a change to copy."""
    store, changed = synced_store(tmp_path)
    assert changed.count > 0  # a new store's folders
    store, changed = synced_store(tmp_path)
    store.check_usable()
    assert changed.count == 0
    folder = SyncedFolder(DiskFolder(tmp_path), changed)
    folder.ensure("photos")
    assert changed.count == 1 and (tmp_path / "photos").is_dir()


def test_the_synced_folder_has_every_operation_of_a_folder() -> None:
    """A folder operation added later would otherwise reach the disk without a copy."""
    wanted = {name for name, _ in inspect.getmembers(DiskFolder, inspect.isfunction) if not name.startswith("_")}
    wanted |= {name for name in dir(Folder) if not name.startswith("_")}
    wanted.discard("path")  # DiskFolder's own helper, not part of a folder
    assert wanted <= set(vars(SyncedFolder)), sorted(wanted - set(vars(SyncedFolder)))


# --- Durable: the screen waits for IndexedDB -------------------------------------------


class Sync:
    """A copy to IndexedDB that the test finishes (or fails) when it chooses."""

    def __init__(self) -> None:
        self.in_flight: asyncio.Future[None] | None = None
        self.started = 0
        self.asked: list[frozenset[str] | None] = []

    async def __call__(self, names: frozenset[str] | None) -> None:
        self.started += 1
        self.asked.append(names)
        self.in_flight = asyncio.get_running_loop().create_future()
        try:
            await self.in_flight
        finally:
            self.in_flight = None

    def finish(self, error: Exception | None = None) -> None:
        assert self.in_flight is not None
        if error is None:
            self.in_flight.set_result(None)
        else:
            self.in_flight.set_exception(error)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_what_is_sent_after_a_change_waits_for_its_copy() -> None:
    async def scenario() -> None:
        sync, shown = Sync(), []
        durable = Durable(sync)
        durable.send(lambda: shown.append("before"))
        assert shown == ["before"]  # nothing to copy: at once
        durable.changed()
        durable.send(lambda: shown.append("tap"))
        await settle()
        assert shown == ["before"] and sync.started == 1
        sync.finish()
        await settle()
        assert shown == ["before", "tap"]
        assert durable.settled and durable.copies == 1

    asyncio.run(scenario())


def test_a_change_made_during_a_copy_gets_a_copy_of_its_own() -> None:
    async def scenario() -> None:
        sync, shown = Sync(), []
        durable = Durable(sync)
        durable.changed()
        await settle()
        durable.changed()  # the copy in flight may have missed it
        durable.send(lambda: shown.append("tap"))
        sync.finish()
        await settle()
        assert shown == [] and sync.started == 2
        sync.finish()
        await settle()
        assert shown == ["tap"]

    asyncio.run(scenario())


def test_a_failed_copy_is_said_and_the_screen_goes_on() -> None:
    async def scenario() -> None:
        sync, shown = Sync(), []
        durable = Durable(sync)
        browser.BROWSER = BrowserStorage(durable, persisted=True)
        durable.changed()
        durable.send(lambda: shown.append("tap"))
        await settle()
        sync.finish(OSError("QuotaExceededError"))
        await settle()
        assert shown == ["tap"]
        assert browser.storage_note() == ("ui.settings.storage.failed", {"reason": "QuotaExceededError"})
        durable.changed()  # the next copy that works clears it
        await settle()
        sync.finish()
        await settle()
        assert browser.storage_note() == ("ui.settings.storage.kept", {})

    try:
        asyncio.run(scenario())
    finally:
        browser.BROWSER = None


def test_settings_says_nothing_outside_the_browser_and_what_the_browser_answered() -> None:
    assert browser.BROWSER is None
    assert browser.storage_note() is None
    try:
        browser.BROWSER = BrowserStorage(Durable(Sync()))
        assert browser.storage_note() is None  # not answered yet
        browser.BROWSER.persisted = False
        assert browser.storage_note() == ("ui.settings.storage.may_clear", {})
    finally:
        browser.BROWSER = None


class Step:
    """What a coroutine waits for while the hypothesis test below drives it by hand."""

    def __await__(self) -> Generator[Step, Any, None]:
        yield self


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["change", "send", "finish", "fail"]), max_size=40))
def test_nothing_is_shown_before_every_change_made_before_it_was_copied(actions: list[str]) -> None:
    """Any order of changes, sends and copies finishing: each message is delivered once, in
    the order sent, and only after a copy started after every change made before it."""
    changes = 0  # changes made so far
    copied = 0  # changes covered by a finished copy
    copying: list[tuple[Any, int]] = []  # the copy in flight: (its coroutine, changes when it started)
    delivered: list[int] = []
    sent = 0

    async def sync(names: frozenset[str] | None) -> None:
        copying.append((None, changes))
        await Step()

    def start(work: Any) -> None:
        work.send(None)  # runs to the first copy
        copying[-1] = (work, copying[-1][1])

    durable = Durable(sync, start=start)

    def run_copy(error: Exception | None) -> None:
        nonlocal copied
        work, covered = copying.pop()
        copied = max(copied, covered)
        try:
            work.throw(error) if error is not None else work.send(None)
        except StopIteration:
            return
        copying[-1] = (work, copying[-1][1])  # another copy started: the same coroutine goes on

    for action in [*actions, *["finish"] * 50]:
        if action == "change":
            changes += 1
            durable.changed()
        elif action == "send":
            sent += 1
            needed, number = changes, sent

            def deliver(needed: int = needed, number: int = number) -> None:
                assert copied >= needed, "shown before its change was copied"
                delivered.append(number)

            durable.send(deliver)
        elif copying:
            run_copy(OSError("refused") if action == "fail" else None)
    assert not copying and durable.settled
    assert delivered == list(range(1, sent + 1))


def test_a_javascript_error_without_a_message_is_said_by_its_name_or_errno() -> None:
    class Aborted:  # IndexedDB's aborted transaction: a name, no message
        message = ""
        name = "AbortError"

    class FsError:  # Emscripten's FS.ErrnoError
        errno = 44

    assert browser.js_reason(Aborted()) == "AbortError"
    assert browser.js_reason(FsError()) == "error 44"
    assert browser.js_reason(OSError("quota exceeded")) == "quota exceeded"

"""A game's file that piled up records is rewritten whole in the background once the game
pauses: the same game, the same place in the list, nothing lost when a change comes while
it is being rewritten, and nothing touched once the game is closed. Runs against a real data
folder and the in-memory twin, like tests/test_store.py."""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_store import make_store  # noqa: F401 - the disk and memory stores of the store tests

from companion.store import Store, compactor, storage
from companion.store.file_format import parse_file

ADJUST = {"type": "adjust", "player": "Ann", "amount": 1, "note": "fix"}


@pytest.fixture
def fresh(make_store: Any, monkeypatch: pytest.MonkeyPatch) -> Any:  # noqa: F811 - the imported fixture
    monkeypatch.setattr(storage, "COMPACT_SOON", 4)
    monkeypatch.setattr(compactor, "IDLE_SECONDS", 0.05)
    return make_store


def file_of(store: Store, session_id: str) -> bytes:
    return store.folder.read(f"sessions/{session_id}.json") or b""


def records(store: Store, session_id: str) -> int:
    return parse_file(file_of(store, session_id), kind="session").records


def wait_for(condition: Any) -> None:
    deadline = time.monotonic() + 10
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_an_idle_game_is_rewritten_whole_and_keeps_its_place(fresh: Any) -> None:
    store = fresh()
    older = store.new("transamerica", ["Cy", "Di"])
    session = store.new("heartland", ["Ann", "Bob"])
    for _ in range(8):
        session.apply(ADJUST)
    session_id = session.id or ""
    assert records(store, session_id) >= 4
    played = store.folder.stat(f"sessions/{session_id}.json")
    order = [summary.id for summary in store.listing()]
    wait_for(lambda: records(store, session_id) == 0)
    assert records(store, session_id) == 0
    signature = store.folder.stat(f"sessions/{session_id}.json")
    assert played is not None and signature is not None and signature[2] == played[2]  # the file's time kept
    assert [summary.id for summary in store.listing()] == order and order[0] == session_id != older.id
    session.apply(ADJUST)  # and it goes on taking records
    assert records(store, session_id) == 1
    store.close()
    assert fresh().open(session_id).to_dict() == session.to_dict()


def test_a_change_made_while_the_file_is_rewritten_is_kept(fresh: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    store = fresh()
    session = store.new("heartland", ["Ann", "Bob"])
    monkeypatch.setattr(compactor, "IDLE_SECONDS", 1e9)
    for _ in range(6):
        session.apply(ADJUST)
    session_id = session.id or ""
    real_stage = store.folder.stage
    staged: list[str] = []

    def stage(name: str, data: bytes) -> str:
        staged.append(name)
        session.apply(ADJUST)  # a tap lands while the rewrite is being written
        return real_stage(name, data)

    monkeypatch.setattr(store.folder, "stage", stage)
    entry = store._journal.open[session_id]
    assert entry.storage.compact_idle() is False  # the file grew meanwhile: the rewrite is dropped
    assert staged and records(store, session_id) == 6  # the first change wrote it whole, then 5 + 1 records
    monkeypatch.setattr(store.folder, "stage", real_stage)
    assert entry.storage.compact_idle() is True
    assert records(store, session_id) == 0
    store.close()
    assert fresh().open(session_id).to_dict() == session.to_dict()
    assert [name for name in store.folder.names("sessions") if name.startswith(".")] == []


def test_a_closed_game_is_not_rewritten(fresh: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compactor, "IDLE_SECONDS", 0.2)
    store = fresh()
    session = store.new("heartland", ["Ann", "Bob"])
    for _ in range(8):
        session.apply(ADJUST)
    store.close_session(session.id or "")
    before = file_of(store, session.id or "")
    time.sleep(0.5)
    assert file_of(store, session.id or "") == before and store.compactor.pending() == 0


def test_where_no_thread_can_start_a_game_is_recorded_all_the_same(fresh: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The phone build's Python (Pyodide) starts no threads: nothing is rewritten in the background,
    and every change is kept as it is recorded."""

    def no_threads(self: Any) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(compactor.threading.Thread, "start", no_threads)
    store = fresh()
    session = store.new("heartland", ["Ann", "Bob"])
    for _ in range(12):
        session.apply(ADJUST)
    session_id = session.id or ""
    assert records(store, session_id) >= 4
    store.close()
    assert fresh().open(session_id).to_dict() == session.to_dict()


def test_a_rewrite_waits_while_the_days_backup_runs(fresh: Any) -> None:
    # Both read whole files off the page's thread: one at a time, their memory never adds up.
    store = fresh()
    session = store.new("heartland", ["Ann", "Bob"])
    session_id = session.id or ""
    with store.background_work():  # the backup, running
        for _ in range(8):
            session.apply(ADJUST)
        time.sleep(0.3)  # six times the idle time: the rewrite is due, and waits
        assert records(store, session_id) >= 4
    wait_for(lambda: records(store, session_id) == 0)  # then it runs
    assert records(store, session_id) == 0
    store.close()
    assert fresh().open(session_id).to_dict() == session.to_dict()

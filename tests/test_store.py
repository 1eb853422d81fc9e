"""The TinyDB store: write-through sessions, restarts, damage, versions, two processes.

Every store test runs twice: against a real data folder and against the in-memory twin
(`Store.in_memory`), like TinyDB's own storage fixture. A "restart" is a second `Store`
on the same folder (or the same `MemoryFolder`) after the first one was closed.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from store_helpers import verify
from tinydb import TinyDB

from companion.session import Session
from companion.store import (
    JournalStorage,
    NewerFormat,
    SessionBusy,
    SessionClosed,
    SessionDamaged,
    SessionNotFound,
    Store,
    StoreError,
    data_option,
    default_data_dir,
    folders,
    storage,
)
from companion.store.errors import DamagedFile
from companion.store.file_format import parse_file
from companion.store.index_file import doc_key
from companion.store.storage import DiskFolder, MemoryFolder, check_document, encode
from companion.store.store import new_session_id
from companion.text.messages import RuleError

ROOT = Path(__file__).resolve().parents[1]

ADJUST = {"type": "adjust", "player": "Ann", "amount": 1, "note": "fix"}
FINISH = [  # Ann reaches the target; each discards (a turn needs an action) and ends the last round
    {"type": "adjust", "player": "Ann", "amount": 50, "note": "win"},
    {"type": "discard", "player": "Ann", "forced": True},
    {"type": "end_turn", "player": "Ann"},
    {"type": "discard", "player": "Bob", "forced": True},
    {"type": "end_turn", "player": "Bob"},
]

MakeStore = Callable[[], Store]


@pytest.fixture(params=["disk", "memory"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MakeStore]:
    folder = MemoryFolder()
    stores: list[Store] = []

    def make() -> Store:
        store = Store(tmp_path / "data") if request.param == "disk" else Store.in_memory(folder)
        stores.append(store)
        return store

    yield make
    for store in stores:
        store.close()


@pytest.fixture
def store(make_store: MakeStore) -> Store:
    return make_store()


def restart(store: Store, make_store: MakeStore) -> Store:
    store.close()
    return make_store()


def session_doc(store: Store, session_id: str) -> dict[str, Any]:
    raw = store.folder.read(f"sessions/{session_id}.json")
    assert raw is not None
    doc: dict[str, Any] = check_document(raw, kind="session")["session"]["1"]
    return doc


# --------------------------------------------------------------------------- basics


def test_new_session_is_saved_and_listed(store: Store) -> None:
    session = store.new("heartland", ["Ann", "Bob"], title="Friday")
    assert session.id and session.journal is not None
    listing = store.sessions()
    assert [summary.id for summary in listing] == [session.id]
    summary = listing[0]
    assert (summary.game, summary.players, summary.title) == ("heartland", ("Ann", "Bob"), "Friday")
    assert summary.is_over is False and summary.winners == ()
    assert abs(summary.created - time.time()) < 60 and summary.updated >= summary.created - 1
    assert listing.quarantined == 0 and listing.newer == ()


def test_every_change_is_on_disk_when_it_returns(store: Store) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    session.apply(ADJUST)
    session.apply({"type": "move", "player": "Ann", "spaces": 2, "pay": "cash"})
    assert session_doc(store, session.id or "")["cursor"] == 2
    session.undo()
    doc = session_doc(store, session.id or "")
    assert doc["cursor"] == 1 and len(doc["events"]) == 2
    session.redo()
    assert session_doc(store, session.id or "")["cursor"] == 2


def test_restart_sees_same_state_and_undo_redo(store: Store, make_store: MakeStore) -> None:
    session = store.new("heartland", ["Ann", "Bob", "Cy"], {"target": "blog"})
    for event in (ADJUST, {"type": "move", "player": "Ann", "spaces": 3, "pay": "cash"}, ADJUST):
        session.apply(event)
    session.undo()
    session.undo()
    before = session.to_dict()
    state, current = session.state, session.current_player
    again = restart(store, make_store).open(session.id or "")
    assert again.to_dict() == before
    assert again.state == state and again.current_player == current
    assert (again.cursor, again.can_undo, again.can_redo) == (1, True, True)
    again.redo()
    assert again.cursor == 2
    again.apply(ADJUST)  # drops the redo tail, durably
    doc = session_doc(store, again.id or "")
    assert doc["cursor"] == 3 and len(doc["events"]) == 3


def test_listing_is_newest_first_and_updated_follows_events(store: Store) -> None:
    first = store.new("heartland", ["Ann", "Bob"])
    time.sleep(0.02)
    second = store.new("transamerica", ["Ann", "Bob", "Cy"])
    assert [summary.id for summary in store.sessions()] == [second.id, first.id]
    time.sleep(0.02)
    first.apply(ADJUST)
    listing = store.sessions()
    assert [summary.id for summary in listing] == [first.id, second.id]
    assert listing[0].updated > listing[1].updated


def test_finishing_and_unfinishing_update_the_index(store: Store, make_store: MakeStore) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    for event in FINISH:
        session.apply(event)
    summary = store.sessions()[0]
    assert summary.is_over and summary.winners == ("Ann",)
    session.undo()
    assert store.sessions()[0].is_over is False
    session.redo()
    store = restart(store, make_store)
    summary = store.sessions()[0]
    assert summary.is_over and summary.winners == ("Ann",)


def test_updated_time_of_finished_sessions_comes_from_their_file(store: Store) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    for event in FINISH:
        session.apply(event)
    signature = store.folder.stat(f"sessions/{session.id}.json")
    assert signature is not None
    assert store.sessions()[0].updated == signature[2] / 1e9
    time.sleep(0.02)
    session.undo()
    summary = store.sessions()[0]
    assert not summary.is_over and summary.updated > signature[2] / 1e9


def test_rename_and_known_players(store: Store, make_store: MakeStore) -> None:
    old = store.new("heartland", ["Ann", "Bob"])
    time.sleep(0.02)
    new = store.new("transamerica", ["Cy", "ann", "Dee"])
    store.rename(old.id or "", "  Birthday   game ")
    store.close_session(new.id or "")
    store.rename(new.id or "", "Rematch")  # not open: the store opens it for a moment
    store = restart(store, make_store)
    titles = {summary.id: summary.title for summary in store.sessions()}
    assert titles == {old.id: "Birthday game", new.id: "Rematch"}
    assert session_doc(store, old.id or "")["title"] == "Birthday game"
    assert store.known_players() == ["Cy", "ann", "Dee", "Bob"]
    with pytest.raises(StoreError):
        store.rename(old.id or "", "x" * 61)


def _placed_great_plains(store: Store) -> Session:
    """A Great Plains game with every cave and token placed: the prairies are being scored."""
    game = store.new("great_plains", ["Ann", "Bob"])
    while game.current_player is not None:
        game.apply({"type": "place_cave" if game.cursor < 6 else "place_token", "player": game.current_player})
    return game


def _zone(ann: int, bob: int) -> dict[str, Any]:
    return {"type": "zone", "spaces": 3, "water": 1, "tokens": {"Ann": ann, "Bob": bob}}


def test_scoring_before_the_end_leaves_the_index_alone(store: Store, make_store: MakeStore) -> None:
    game = _placed_great_plains(store)
    index = store.folder.stat("index.json")
    time.sleep(0.02)
    for _ in range(3):
        game.apply(_zone(1, 0))  # the result is not known yet: only the session file is written
    assert store.folder.stat("index.json") == index
    signature = store.folder.stat(f"sessions/{game.id}.json")
    assert signature is not None
    summary = store.sessions()[0]
    assert summary.updated == signature[2] / 1e9 and not summary.is_over and summary.winners == ()
    game.apply({"type": "scoring_done"})  # the game ends: the index follows
    assert store.sessions()[0].winners == ("Ann",) and store.sessions()[0].is_over
    game.undo()  # and follows back
    assert store.sessions()[0].winners == () and not store.sessions()[0].is_over
    game.redo()
    assert restart(store, make_store).sessions()[0].winners == ("Ann",)


def test_renaming_keeps_the_place_in_the_list(store: Store, make_store: MakeStore) -> None:
    old = store.new("transamerica", ["Ann", "Bob"])
    time.sleep(0.02)
    new = store.new("heartland", ["Ann", "Bob"])
    before = {summary.id: summary.updated for summary in store.sessions()}
    time.sleep(0.02)
    store.rename(old.id or "", "Sunday game")
    store.close_session(new.id or "")
    store.rename(new.id or "", "Rematch")  # not open: the store opens it for a moment
    store = restart(store, make_store)
    listing = store.sessions()
    assert [summary.id for summary in listing] == [new.id, old.id]
    assert {summary.id: summary.updated for summary in listing} == before
    assert [summary.title for summary in listing] == ["Rematch", "Sunday game"]
    time.sleep(0.02)
    store.open(old.id or "").apply({"type": "end_round", "missing": {"Ann": 1, "Bob": 0}})  # playing moves it up
    assert store.sessions()[0].id == old.id


def test_updated_is_never_before_created(store: Store) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    created = store.sessions()[0].created
    # a file system whose clock is coarser than time.time() stamps the file a little earlier
    store.folder.set_mtime(f"sessions/{session.id}.json", int((created - 0.5) * 1e9))
    summary = store.sessions()[0]
    assert summary.updated == summary.created == created


def test_a_deleted_game_says_so(store: Store) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    store.delete(session.id or "")
    with pytest.raises(SessionClosed, match="^This game was deleted.$"):
        session.apply(ADJUST)
    closed = store.new("heartland", ["Ann", "Bob"])
    store.close_session(closed.id or "")
    with pytest.raises(SessionClosed, match="open it again"):
        closed.apply(ADJUST)


def test_delete(store: Store, make_store: MakeStore) -> None:
    keep = store.new("heartland", ["Ann", "Bob"])
    gone = store.new("heartland", ["Ann", "Bob"])
    store.delete(gone.id or "")
    assert [summary.id for summary in store.sessions()] == [keep.id]
    with pytest.raises(SessionClosed):
        gone.apply(ADJUST)
    with pytest.raises(SessionNotFound):
        store.open(gone.id or "")
    assert [summary.id for summary in restart(store, make_store).sessions()] == [keep.id]


def test_open_twice_in_one_store_gives_the_same_session(store: Store) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    assert store.open(session.id or "") is session


def test_unknown_and_malformed_ids(store: Store) -> None:
    for bad in ("../index", "", "A B", "nope" * 20, 7):
        with pytest.raises(SessionNotFound):
            store.open(bad)  # type: ignore[arg-type]
    with pytest.raises(SessionNotFound):
        store.open(new_session_id())


def test_ids_are_sortable_unique_and_file_safe() -> None:
    ids = [new_session_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids) and ids == sorted(ids)
    assert all(len(item) == 16 and item.isalnum() and item == item.lower() for item in ids)


def test_bad_setup_is_a_rule_error_and_saves_nothing(store: Store) -> None:
    with pytest.raises(RuleError):
        store.new("heartland", ["Ann"])
    assert store.sessions() == []


def test_in_memory_store_needs_no_disk() -> None:
    store = Store.in_memory()
    session = store.new("heartland", ["Ann", "Bob"])
    session.apply(ADJUST)
    assert store.directory is None and store.sessions()[0].id == session.id


def test_standard_json_fallback_reads_and_writes_the_same_files(make_store: MakeStore) -> None:
    store = make_store()
    session = store.new("heartland", ["Ann", "Zoë"])
    session.apply(ADJUST)
    store.close()
    assert storage.use_orjson(False) == "json"
    try:
        store = make_store()
        again = store.open(session.id or "")
        again.apply(ADJUST)
        store.close()
    finally:
        storage.use_orjson(True)
    assert make_store().open(session.id or "").cursor == 2


# --------------------------------------------------------------------------- failures while writing


@pytest.mark.parametrize("operation", ["write", "append"])
def test_failed_write_changes_nothing(store: Store, monkeypatch: pytest.MonkeyPatch, operation: str) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    session.apply(ADJUST)  # the first change after opening writes the whole file, the next ones append
    if operation == "write":
        store.close_session(session.id or "")
        session = store.open(session.id or "")
    before_doc, before = session_doc(store, session.id or ""), session.to_dict()
    real = getattr(store.folder, operation)

    def disk_full(name: str, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.folder, operation, disk_full)
    changes: list[Callable[[], object]] = [lambda: session.apply(ADJUST), session.undo]
    for change in changes:
        with pytest.raises(StoreError, match=r"^Not saved, so not recorded: the disk is full\.$"):
            change()
        assert session.to_dict() == before
        assert session_doc(store, session.id or "") == before_doc
    monkeypatch.setattr(store.folder, operation, real)
    session.apply(ADJUST)
    assert session_doc(store, session.id or "")["cursor"] == 2


def test_index_failure_after_the_event_is_repaired_later(
    store: Store, make_store: MakeStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    for event in FINISH[:-1]:
        session.apply(event)

    def broken(*_: object, **__: object) -> None:
        raise OSError(errno.EIO, "index unavailable")

    monkeypatch.setattr(store._index, "edit", broken)
    session.apply(FINISH[-1])  # acknowledged: the session file has it
    assert session.is_over and session_doc(store, session.id or "")["cursor"] == len(FINISH)
    assert store.folder.exists(f"pending/{session.id}")
    monkeypatch.undo()
    store = restart(store, make_store)  # as if the app had died right there
    summary = store.sessions()[0]
    assert summary.is_over and summary.winners == ("Ann",)
    assert not store.folder.exists(f"pending/{session.id}")


def test_orphan_session_file_is_adopted(store: Store, make_store: MakeStore) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    session.apply(ADJUST)
    store.close()
    index = parse_file(store.folder.read("index.json") or b"").data  # with the records closing appended
    index["sessions"].clear()  # as if new() had died between its two writes
    store.folder.write("index.json", json.dumps(index).encode())
    store = make_store()
    assert [summary.id for summary in store.sessions()] == [session.id]


def test_closed_session_refuses_changes(store: Store) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    store.close_session(session.id or "")
    with pytest.raises(SessionClosed):
        session.apply(ADJUST)
    assert session.cursor == 0
    reopened = store.open(session.id or "")
    reopened.apply(ADJUST)
    assert reopened is not session and reopened.cursor == 1


# --------------------------------------------------------------------------- damaged files


def _damage(store: Store, content: bytes) -> tuple[str, str]:
    """Two sessions; the first one's file is replaced by `content`. Returns (damaged id, good id)."""
    bad = store.new("heartland", ["Ann", "Bob"])
    bad.apply(ADJUST)
    good = store.new("heartland", ["Cy", "Dee"])
    good.apply({"type": "adjust", "player": "Cy", "amount": 3, "note": "fix"})
    store.close()
    store.folder.write(f"sessions/{bad.id}.json", content)
    return bad.id or "", good.id or ""


def _check_quarantined(store: Store, bad: str, good: str, content: bytes) -> None:
    assert store.open(good).cursor == 1
    listing = store.sessions()
    assert [summary.id for summary in listing] == [good]
    assert listing.quarantined == 1
    assert not store.folder.exists(f"sessions/{bad}.json")
    assert store.folder.read(f"quarantine/{bad}.json") == content  # kept, byte for byte
    notes = store.quarantine_notes()
    assert len(notes) == 1 and notes[0].moved_to == f"quarantine/{bad}.json" and notes[0].reason


def _good_file(store: Store, session_id: str) -> dict[str, Any]:
    return check_document(store.folder.read(f"sessions/{session_id}.json") or b"", kind="session")


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(
            b'{"_meta": {"1": {"format": 1, "kind": "session"}}, "session": {"1": {"format": 1, "ga', id="truncated"
        ),
        pytest.param(b"\x00\xff\xfe\x89PNG\r\n\x1a\n" + bytes(range(256)), id="binary junk"),
        pytest.param(b'{"name": "not a companion file", "tracks": [1, 2, 3]}', id="foreign json"),
        pytest.param(b"[1, 2, 3]", id="json list"),
        pytest.param(b'{"_default": {"1": {"a": 1}}}', id="plain tinydb"),
    ],
)
def test_unreadable_file_is_quarantined_on_open(make_store: MakeStore, content: bytes) -> None:
    bad, good = _damage(make_store(), content)
    store = make_store()
    with pytest.raises(SessionDamaged, match="set aside"):
        store.open(bad)
    _check_quarantined(store, bad, good, content)


def test_zero_byte_file_is_quarantined_by_the_listing(make_store: MakeStore) -> None:
    bad, good = _damage(make_store(), b"")
    store = make_store()
    listing = store.sessions()  # found by its size alone: nothing is parsed
    assert [summary.id for summary in listing] == [good] and listing.quarantined == 1
    _check_quarantined(store, bad, good, b"")


def test_event_the_rules_reject_is_quarantined(make_store: MakeStore) -> None:
    store = make_store()
    bad, good = _damage(store, b"placeholder")
    data = {
        "_meta": {"1": {"format": 1, "kind": "session"}},
        "session": {
            "1": {
                "format": 1,
                "game": "heartland",
                "players": ["Ann", "Bob"],
                "options": {"target": "rulebook", "short_haul": False, "alternate_routes": False, "truck_stops": False},
                "events": [{"type": "move", "player": "Bob", "spaces": 2, "pay": "cash"}],  # not Bob's turn
                "cursor": 1,
                "created": time.time(),
                "title": "",
            }
        },
    }
    content = encode(data)
    store.folder.write(f"sessions/{bad}.json", content)
    store = make_store()
    with pytest.raises(SessionDamaged, match="event 1") as raised:
        store.open(bad)
    assert str(raised.value) == (
        "A saved game could not be read and was set aside in the quarantine folder: "
        "event 1 was refused (It is Ann's turn, not Bob's)."
    )
    _check_quarantined(store, bad, good, content)
    assert store.quarantine_notes()[0].reason == "event 1 was refused (It is Ann's turn, not Bob's)"


def test_missing_fields_are_quarantined(make_store: MakeStore) -> None:
    store = make_store()
    bad, good = _damage(store, b"placeholder")
    data = _good_file(store, good)
    del data["session"]["1"]["created"]
    content = encode(data)
    store.folder.write(f"sessions/{bad}.json", content)
    store = make_store()
    with pytest.raises(SessionDamaged):
        store.open(bad)
    _check_quarantined(store, bad, good, content)


def test_damaged_orphan_and_stray_files_are_quarantined_by_the_listing(store: Store) -> None:
    good = store.new("heartland", ["Ann", "Bob"])
    orphan = new_session_id()
    store.folder.write(f"sessions/{orphan}.json", b"\x00garbage")
    store.folder.write("sessions/Holiday Backup.json", b"{}")
    store.folder.write("sessions/notes.txt", b"left alone")  # not ours to judge
    listing = store.sessions()
    assert [summary.id for summary in listing] == [good.id]
    assert listing.quarantined == 2
    assert store.folder.exists(f"quarantine/{orphan}.json")
    assert store.folder.exists("quarantine/Holiday Backup.json")
    assert store.folder.exists("sessions/notes.txt")


DEEP = b'{"session": {"1": {"format": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}}"


@pytest.fixture(params=["orjson", "json"])
def serialiser(request: pytest.FixtureRequest) -> Iterator[str]:
    storage.use_orjson(request.param == "orjson")
    yield request.param
    storage.use_orjson(True)


def _huge_created(store: Store, session_id: str) -> bytes:
    data = _good_file(store, session_id)
    data["session"]["1"]["created"] = 10**400
    return json.dumps(data).encode()


def test_deep_nesting_is_damage_with_either_serialiser(serialiser: str) -> None:
    with pytest.raises(DamagedFile):
        check_document(DEEP)


@pytest.mark.parametrize("damage", ["deep", "huge"])
def test_deep_or_huge_session_file_is_quarantined(make_store: MakeStore, serialiser: str, damage: str) -> None:
    store = make_store()
    bad, good = _damage(store, b"placeholder")
    content = DEEP if damage == "deep" else _huge_created(store, good)
    store.folder.write(f"sessions/{bad}.json", content)
    store = make_store()
    with pytest.raises(SessionDamaged):
        store.open(bad)
    _check_quarantined(store, bad, good, content)


@pytest.mark.parametrize("damage", ["deep", "huge"])
def test_deep_or_huge_unindexed_file_is_quarantined_by_listing_and_verify(
    make_store: MakeStore, serialiser: str, damage: str
) -> None:
    store = make_store()
    bad, good = _damage(store, b"placeholder")
    content = DEEP if damage == "deep" else _huge_created(store, good)
    store.folder.write(f"sessions/{bad}.json", content)
    store.folder.remove("index.json")  # both files are unindexed: the listing parses them
    listing = make_store().sessions()
    assert [summary.id for summary in listing] == [good] and listing.quarantined == 1
    store = make_store()
    store.folder.write(f"sessions/{bad}.json", content)
    listing = verify(store)
    assert [summary.id for summary in listing] == [good] and listing.quarantined == 1


@pytest.mark.parametrize("damage", ["deep", "huge"])
def test_deep_or_huge_index_is_rebuilt(make_store: MakeStore, serialiser: str, damage: str) -> None:
    store = make_store()
    session = store.new("heartland", ["Ann", "Bob"], title="Kept")
    store.close()
    if damage == "deep":
        content = b'{"sessions": {"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
    else:
        index = json.loads(store.folder.read("index.json") or b"")
        index["sessions"][doc_key(session.id or "")]["created"] = 10**400
        content = json.dumps(index).encode()
    store.folder.write("index.json", content)
    listing = make_store().sessions()
    assert [(item.id, item.title) for item in listing] == [(session.id, "Kept")]
    assert abs(listing[0].created - time.time()) < 60


def test_verify_finds_damage_without_opening(make_store: MakeStore) -> None:
    bad, good = _damage(make_store(), b'{"_meta": {"1": {"format": 1, "kind": "session"}}}')
    store = make_store()
    assert len(store.sessions()) == 2  # the listing does not parse files
    listing = verify(store)
    assert [summary.id for summary in listing] == [good] and listing.quarantined == 1


def test_quarantine_never_overwrites(make_store: MakeStore) -> None:
    store = make_store()
    session = store.new("heartland", ["Ann", "Bob"])
    store.close()
    for round_number in range(2):
        store.folder.write(f"sessions/{session.id}.json", b"junk %d" % round_number)
        store = make_store()
        with pytest.raises(SessionDamaged):
            store.open(session.id or "")
    assert store.folder.read(f"quarantine/{session.id}.json") == b"junk 0"
    assert store.folder.read(f"quarantine/{session.id}.json.1") == b"junk 1"
    assert len(store.quarantine_notes()) == 2


def test_two_stores_setting_the_same_file_aside_do_not_collide(
    make_store: MakeStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = make_store(), make_store()
    first.new("heartland", ["Ann", "Bob"])
    first.folder.write("sessions/Holiday Backup.json", b"{}")
    real_move = first.folder.move
    raced: list[str] = []

    def move(source: str, target: str) -> None:
        if not raced:  # the other process sets the file aside just before this one moves it
            raced.append(source)
            monkeypatch.setattr(first.folder, "move", real_move)
            second._quarantine.move(source, "its name is not a session id")
        real_move(source, target)

    monkeypatch.setattr(first.folder, "move", move)
    listing = first.sessions()
    assert raced and len(listing) == 1 and listing.quarantined == 0
    assert sorted(first.folder.names("quarantine")) == ["Holiday Backup.json.1", "Holiday Backup.json.1.why.json"]
    assert len(first.quarantine_notes()) == 1


def test_damaged_index_is_set_aside_and_rebuilt(store: Store, make_store: MakeStore) -> None:
    first = store.new("heartland", ["Ann", "Bob"], title="One")
    for event in FINISH:
        first.apply(event)
    second = store.new("transamerica", ["Ann", "Bob", "Cy"])
    store.close()
    store.folder.write("index.json", b'{"_meta": {"1": {"form')
    store = make_store()
    listing = store.sessions()
    assert {summary.id for summary in listing} == {first.id, second.id}
    assert listing.quarantined == 1 and store.folder.exists("quarantine/index.json")
    finished = next(summary for summary in listing if summary.id == first.id)
    assert finished.is_over and finished.winners == ("Ann",) and finished.title == "One"


def test_index_entry_with_missing_fields_is_rebuilt_from_its_file(store: Store, make_store: MakeStore) -> None:
    session = store.new("heartland", ["Ann", "Bob"], title="Kept")
    store.close()
    index = json.loads(store.folder.read("index.json") or b"")
    del index["sessions"][doc_key(session.id or "")]["players"]
    store.folder.write("index.json", json.dumps(index).encode())
    listing = make_store().sessions()
    assert [(item.id, item.players, item.title) for item in listing] == [(session.id, ("Ann", "Bob"), "Kept")]


def test_repair_keeps_session_locks_until_the_index_is_written(
    make_store: MakeStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = make_store(), make_store()
    game = second.new("transamerica", ["Ann", "Bob"])
    game.apply({"type": "end_round", "missing": {"Ann": 5, "Bob": 0}})
    second.close()
    first.folder.write(f"pending/{game.id}", b"")  # a crash left the index behind: first repairs it
    real_edit, refused = first._index.edit, []

    def edit(*change: Any, **drops: Any) -> None:
        # Another window tries to finish the game between the repair's reading and writing.
        with pytest.raises(SessionBusy):
            second.open(game.id or "")
        refused.append(True)
        real_edit(*change, **drops)

    monkeypatch.setattr(first._index, "edit", edit)
    assert [summary.is_over for summary in first.sessions()] == [False]
    assert refused
    monkeypatch.undo()
    again = second.open(game.id or "")  # the repair let go of it
    again.apply({"type": "end_round", "missing": {"Ann": 9, "Bob": 0}})
    assert again.is_over
    second.close()
    for store in (first, make_store()):
        summary = store.sessions()[0]
        assert summary.is_over and summary.winners == ("Bob",)


def test_index_of_many_sessions_is_rebuilt_in_batches(store: Store, make_store: MakeStore) -> None:
    ids = {store.new("heartland", ["Ann", "Bob"]).id for _ in range(70)}
    store.close()
    store.folder.remove("index.json")
    store = make_store()
    assert {summary.id for summary in store.sessions()} == ids
    assert store.folder.names("pending") == []
    assert store.open(next(iter(ids)) or "").cursor == 0  # every lock was released


def test_missing_index_is_rebuilt(store: Store, make_store: MakeStore) -> None:
    session = store.new("heartland", ["Ann", "Bob"])
    store.close()
    store.folder.remove("index.json")
    assert [summary.id for summary in make_store().sessions()] == [session.id]


# --------------------------------------------------------------------------- versions


def test_newer_session_file_is_refused_and_untouched(make_store: MakeStore) -> None:
    store = make_store()
    session = store.new("heartland", ["Ann", "Bob"])
    store.close()
    data = _good_file(store, session.id or "")
    data["_meta"]["1"]["format"] = 2
    data["session"]["1"]["new_field"] = {"from": "the future"}
    content = encode(data)
    store.folder.write(f"sessions/{session.id}.json", content)
    store = make_store()
    with pytest.raises(NewerFormat, match="newer version of Companion"):
        store.open(session.id or "")
    with pytest.raises(NewerFormat):
        store.rename(session.id or "", "mine now")
    assert verify(store).quarantined == 0
    assert store.folder.read(f"sessions/{session.id}.json") == content
    assert store.quarantine_notes() == []


def test_newer_session_format_inside_the_document(make_store: MakeStore) -> None:
    store = make_store()
    session = store.new("heartland", ["Ann", "Bob"])
    store.close()
    data = _good_file(store, session.id or "")
    data["session"]["1"]["format"] = 7
    content = encode(data)
    store.folder.write(f"sessions/{session.id}.json", content)
    store.folder.remove("index.json")  # it becomes an orphan: the listing must not quarantine it
    store = make_store()
    listing = store.sessions()
    assert list(listing) == [] and listing.newer == (session.id,) and listing.quarantined == 0
    with pytest.raises(NewerFormat):
        store.open(session.id or "")
    assert store.folder.read(f"sessions/{session.id}.json") == content


def test_newer_index_refuses_the_folder(make_store: MakeStore) -> None:
    store = make_store()
    store.new("heartland", ["Ann", "Bob"])
    store.close()
    content = b'{"_meta": {"1": {"format": 9, "kind": "index"}}, "sessions": {}}'
    store.folder.write("index.json", content)
    with pytest.raises(NewerFormat, match="newer version of Companion"):
        make_store()
    assert store.folder.read("index.json") == content


@pytest.mark.parametrize("kind", ["disk", "memory"])
def test_storage_never_overwrites_a_newer_file(kind: str, tmp_path: Path) -> None:
    content = b'{"_meta": {"1": {"format": 3}}, "_default": {"1": {"a": 1}}}'
    if kind == "disk":
        (tmp_path / "db.json").write_bytes(content)
        db = TinyDB(tmp_path / "db.json", storage=JournalStorage)
    else:
        folder = MemoryFolder()
        folder.write("db.json", content)
        db = TinyDB("db.json", folder=folder, storage=JournalStorage)
    with pytest.raises(Exception, match="newer"):
        db.insert({"b": 2})
    with pytest.raises(Exception, match="newer"):
        db.storage.write({"_default": {}})
    after = (tmp_path / "db.json").read_bytes() if kind == "disk" else db.storage.folder.read("db.json")  # type: ignore[attr-defined]
    assert after == content


def test_cached_document_is_dropped_when_the_file_is_rewritten_in_place(tmp_path: Path) -> None:
    folder = DiskFolder(tmp_path)
    cached = JournalStorage("db.json", folder=folder)
    cached.write({"t": {"1": {"v": "a"}}})
    assert cached.read() == {"t": {"1": {"v": "a"}}, "_meta": {"1": {"format": 1}}}
    path = tmp_path / "db.json"
    before = os.stat(path)
    time.sleep(0.05)  # past the file system's clock tick
    raw = path.read_bytes()
    with open(path, "r+b") as file:  # same inode, same size ...
        file.write(raw.replace(b'"a"', b'"b"'))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # ... same mtime
    after = os.stat(path)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)
    data = cached.read()
    assert data is not None and data["t"]["1"]["v"] == "b"


def test_remove_waits_for_a_windows_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = DiskFolder(tmp_path)
    folder.write("x.json", b"{}")
    real_unlink, refusals = os.unlink, [1, 2]

    def unlink(path: str) -> None:
        if refusals:  # another program has the file open for a moment
            refusals.pop()
            raise PermissionError(errno.EACCES, "in use", path)
        real_unlink(path)

    monkeypatch.setattr(os, "unlink", unlink)
    monkeypatch.setattr(folders, "WINDOWS", True)
    folder.remove("x.json")
    monkeypatch.undo()
    assert not folder.exists("x.json") and refusals == []
    folder.write("y.json", b"{}")
    monkeypatch.setattr(os, "unlink", lambda path: (_ for _ in ()).throw(PermissionError(errno.EACCES, "no")))
    with pytest.raises(PermissionError):  # elsewhere a refusal is final
        folder.remove("y.json")


def test_atomic_storage_is_a_tinydb_drop_in(tmp_path: Path) -> None:
    db = TinyDB(tmp_path / "plain.json", storage=JournalStorage)
    db.insert({"name": "Ann"})
    db.table("other").insert({"x": 1})
    assert TinyDB(tmp_path / "plain.json", storage=JournalStorage).all() == [{"name": "Ann"}]
    assert json.loads((tmp_path / "plain.json").read_text())["_meta"]["1"]["format"] == 1
    assert [name for name in os.listdir(tmp_path) if name.endswith(".tmp")] == []


# --------------------------------------------------------------------------- where the data lives


def test_default_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert default_data_dir(tmp_path / "x", environ={"FLET_APP_STORAGE_DATA": "/elsewhere"}) == tmp_path / "x"
    assert default_data_dir(environ={"FLET_APP_STORAGE_DATA": str(tmp_path)}) == tmp_path
    user = default_data_dir(environ={})
    assert user.name == "Companion" and user.is_absolute()
    assert data_option(["app", "--data", "d1", "--data=d2"]) == "d2"
    assert data_option(["app", "--data"]) is None and data_option([]) is None


# --------------------------------------------------------------------------- two processes

CHILD = textwrap.dedent(
    """
    import sys, time
    from companion.store import Store
    store = Store(sys.argv[1])
    if sys.argv[2] == "play":
        session = store.new("heartland", ["Ann", "Bob"])
        for amount in (5, 6, 7):
            session.apply({"type": "adjust", "player": "Ann", "amount": amount, "note": "child"})
        session.undo()
        print(session.id, flush=True)
    elif sys.argv[2] == "hold":
        session = store.open(sys.argv[3])
        session.apply({"type": "adjust", "player": "Ann", "amount": 1, "note": "other window"})
        print("holding", flush=True)
        time.sleep(60)
    else:
        for number in range(int(sys.argv[3])):
            store.close_session(store.new("heartland", ["Ann", sys.argv[2]]).id)
        print("done", flush=True)
    """
)


def _child(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", CHILD, *args], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def test_a_restarted_process_sees_the_same_session_and_undo_redo(tmp_path: Path) -> None:
    out, _ = _child(str(tmp_path), "play").communicate(timeout=60)
    session_id = out.strip()
    store = Store(tmp_path)
    assert [summary.id for summary in store.sessions()] == [session_id]
    session = store.open(session_id)
    assert (session.cursor, session.can_undo, session.can_redo) == (2, True, True)
    assert session.redo().text() == "Ann +$7 (child), now $23"


def test_a_session_open_in_another_process_is_busy_until_it_dies(tmp_path: Path) -> None:
    store = Store(tmp_path)
    session = store.new("heartland", ["Ann", "Bob"])
    session_id = session.id or ""
    store.close_session(session_id)
    child = _child(str(tmp_path), "hold", session_id)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "holding"
        with pytest.raises(SessionBusy, match="open in another window"):
            store.open(session_id)
        with pytest.raises(SessionBusy, match="^This game is open on another screen; close it there before deleting"):
            store.delete(session_id)
        assert [summary.id for summary in store.sessions()] == [session_id]
        assert store.peek(session_id).cursor == 1  # its status still shows, read without the lock
    finally:
        child.kill()
        child.wait()
    again = store.open(session_id)  # the OS dropped the dead process's lock
    assert again.cursor == 1


def test_two_processes_creating_sessions_lose_nothing(tmp_path: Path) -> None:
    Store(tmp_path)
    children = [_child(str(tmp_path), name, "15") for name in ("Bob", "Cy")]
    store = Store(tmp_path)
    mine = [store.new("heartland", ["Ann", "Dee"]).id for _ in range(15)]
    for child in children:
        out, _ = child.communicate(timeout=60)
        assert out.strip() == "done"
    listing = store.sessions()
    assert len(listing) == 45
    assert set(mine) <= {summary.id for summary in listing}
    assert sorted(summary.players[1] for summary in listing).count("Bob") == 15
    assert listing.quarantined == 0


def test_two_stores_on_one_memory_folder_exclude_each_other() -> None:
    folder = MemoryFolder()
    first, second = Store.in_memory(folder), Store.in_memory(folder)
    session = first.new("heartland", ["Ann", "Bob"])
    with pytest.raises(SessionBusy):
        second.open(session.id or "")
    first.close()
    assert second.open(session.id or "").id == session.id


@pytest.mark.parametrize("kind", ["disk", "memory"])
def test_a_store_dropped_without_close_releases_its_locks(kind: str, tmp_path: Path) -> None:
    folder = MemoryFolder()

    def make() -> Store:
        return Store(tmp_path) if kind == "disk" else Store.in_memory(folder)

    first, second = make(), make()
    session = first.new("heartland", ["Ann", "Bob"])
    with pytest.raises(SessionBusy):
        second.open(session.id or "")
    collecting = gc.isenabled()
    gc.disable()  # no cyclic collection: reference counting alone must free the store
    try:
        del first
        assert second.open(session.id or "").cursor == 0
    finally:
        if collecting:
            gc.enable()
    with pytest.raises(SessionClosed):
        session.apply(ADJUST)
    second.close()


def test_stale_temporary_files_are_swept_everywhere(make_store: MakeStore) -> None:
    store = make_store()
    stale = int((time.time() - 2 * 3600) * 1e9)
    names = [
        ".index.json.0a1b2c3d.tmp",
        "sessions/.x.json.0a1b2c3d.tmp",
        "pending/.x.0a1b2c3d.tmp",
        "quarantine/.x.json.why.json.0a1b2c3d.tmp",
    ]
    for name in names:
        store.folder.write(name, b"half")
        store.folder.set_mtime(name, stale)
    store.folder.write("pending/.fresh.0a1b2c3d.tmp", b"in flight")  # may belong to a live write
    store = make_store()
    assert [name for name in names if store.folder.exists(name)] == []
    assert store.folder.exists("pending/.fresh.0a1b2c3d.tmp")

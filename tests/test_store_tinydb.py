"""Every file the app saves is a TinyDB file: written through TinyDB's table API, read back by
TinyDB with the one documented storage class, and once compacted by plain TinyDB alone.

Also: whatever TinyDB writes through `JournalStorage` (any mix of inserts, updates, in-place
operations and removals) is appended as records and reads back exactly as TinyDB's own
in-memory storage holds it, in the same process and after a restart.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tinydb import TinyDB
from tinydb.operations import add, delete, increment
from tinydb.storages import MemoryStorage as TinyMemory

from companion.aftergame import backups, stats
from companion.app.data import AppData
from companion.store import JournalStorage, Store
from companion.store.file_format import parse_file
from companion.store.index_file import doc_key
from companion.store.storage import MemoryFolder
from companion.sync import documents as sync_documents
from companion.sync import settings as sync_settings

ADJUST = {"type": "adjust", "player": "Ann", "amount": 1, "note": "fix"}
FINISH = [
    {"type": "adjust", "player": "Ann", "amount": 50, "note": "win"},
    {"type": "discard", "player": "Ann", "forced": True},
    {"type": "end_turn", "player": "Ann"},
    {"type": "discard", "player": "Bob", "forced": True},
    {"type": "end_turn", "player": "Bob"},
]


def played_through_the_app(directory: Path) -> tuple[AppData, str, str]:
    """A game played, renamed and finished through the app, and a second game, still open."""
    data = AppData(Store(directory))
    session = data.new("heartland", ["Ann", "Bob"], {})
    for _ in range(5):
        session.apply(ADJUST)
    session.undo()
    data.store.rename(session.id or "", "Friday")
    for event in FINISH:
        session.apply(event)
    other = data.new("transamerica", ["Cy", "Di"], {})
    other.apply({"type": "end_round", "missing": {"Cy": 0, "Di": 3}})  # written whole: its first change
    other.apply({"type": "end_round", "missing": {"Cy": 0, "Di": 2}})
    return data, session.id or "", other.id or ""


def test_the_app_s_files_open_with_tinydb_and_the_storage_class(tmp_path: Path) -> None:
    data, finished, playing = played_through_the_app(tmp_path)
    for session_id in (finished, playing):
        path = tmp_path / "sessions" / f"{session_id}.json"
        assert parse_file(path.read_bytes(), kind="session").records > 0  # records appended: not plain JSON
        doc = TinyDB(path, storage=JournalStorage).table("session").get(doc_id=1)
        session = data.peek(session_id)
        summary = next(summary for summary in data.store.listing() if summary.id == session_id)
        assert doc == {**session.to_dict(), "created": summary.created, "title": summary.title}
    index = TinyDB(tmp_path / "index.json", storage=JournalStorage).table("sessions")
    assert parse_file((tmp_path / "index.json").read_bytes(), kind="index").records > 0
    entry = index.get(doc_id=int(doc_key(finished)))
    assert entry is not None and entry["title"] == "Friday" and entry["is_over"] and entry["winners"] == ["Ann"]
    assert {doc["id"]: doc["players"] for doc in index.all()} == {finished: ["Ann", "Bob"], playing: ["Cy", "Di"]}


def test_a_compacted_file_opens_with_plain_tinydb(tmp_path: Path) -> None:
    data, finished, playing = played_through_the_app(tmp_path)
    data.store.compact_now()
    for session_id in (finished, playing):
        path = tmp_path / "sessions" / f"{session_id}.json"
        assert parse_file(path.read_bytes(), kind="session").records == 0
        plain = TinyDB(path, access_mode="r").table("session").get(doc_id=1)
        assert plain == TinyDB(path, storage=JournalStorage).table("session").get(doc_id=1)
        assert plain is not None and plain["events"] == data.peek(session_id).to_dict()["events"]
    index = TinyDB(tmp_path / "index.json", access_mode="r").table("sessions")
    assert index.get(doc_id=int(doc_key(finished)))["title"] == "Friday"  # type: ignore[index]
    assert {doc["id"] for doc in index.all()} == {finished, playing}
    assert {summary.id for summary in Store(tmp_path).sessions()} == {finished, playing}


FIXTURES = Path(__file__).resolve().parent / "fixtures"
NOT_TINYDB = ("locks/", "pending/", "backups/", "exports/")  # empty markers, and archives: plain JSON to carry


def used_data_folder(directory: Path) -> None:
    """A data folder an earlier version wrote (tests/fixtures/side-v2: the index keyed by session
    id, the side files one sealed object each), then used by this version: every kind of file."""
    shutil.copytree(FIXTURES / "side-v2", directory, ignore=shutil.ignore_patterns("expected.json"))
    quarantine = directory / "quarantine"
    quarantine.mkdir(exist_ok=True)
    # A note as earlier versions wrote it: the object alone.
    old_note = {"file": "players.json", "moved_to": "quarantine/players.json.1", "reason": "cut", "time": 1.0}
    (quarantine / "players.json.1").write_bytes(b"{")
    (quarantine / "players.json.1.why.json").write_text(json.dumps(old_note))
    with Store(directory) as store:
        data = AppData(store)
        data.statistics()  # reads players.json, counted.json, copies.json
        game = data.new("heartland", ["Ann", "Bob"], {})
        for _ in range(3):
            game.apply(ADJUST)
        store.rename(game.id or "", "Tonight")  # titles.json
        data.remember("heartland.price.corn", 4)  # ui-state.json
        store.quarantine_notes()  # reads the earlier version's note
        sync_settings.write_settings(
            store.folder, sync_settings.SyncSettings("http://127.0.0.1:5984", "companion", "ann")
        )
        sync_settings.write_password(store.folder, "s3cret")
        sync_documents.write_state(
            store, sync_documents.State("http://127.0.0.1:5984/companion", "7-x", {"g": [1, None]})
        )
        backups.write_backup(store)
    counted = directory / "counted.json"
    counted.write_bytes(counted.read_bytes().replace(b"true", b"trUe"))  # damaged: kept aside with a note
    with Store(directory) as store:
        stats.read_counted(store)
        assert store.listing().side_losses != ()
        finished = store.finished()[0]
        stats.set_counted(store, finished, True)  # written again whole


def test_every_file_of_a_used_data_folder_opens_with_tinydb_and_lists_every_table(tmp_path: Path) -> None:
    """What the README promises: any saved file opens with TinyDB and the documented storage
    class, and `.all()` lists every table (backups and exports are archives, plain JSON)."""
    directory = tmp_path / "data"
    used_data_folder(directory)
    opened = set()
    for path in sorted(directory.rglob("*")):
        name = path.relative_to(directory).as_posix()
        if path.is_dir() or name.startswith(NOT_TINYDB):
            continue
        if name.startswith("quarantine/") and not name.endswith(".why.json"):
            continue  # a damaged file's bytes, kept as they were found
        db = TinyDB(path, storage=JournalStorage)
        tables = db.tables()
        assert "_meta" in tables and len(tables) >= 2, name
        for table in tables:
            documents = db.table(table).all()
            assert documents and all(isinstance(doc.doc_id, int) for doc in documents), (name, table)
        db.close()
        opened.add(re.sub(r"[0-9a-z]{16}", "<id>", name))
    assert opened >= {
        "index.json",
        "sessions/<id>.json",
        "players.json",
        "counted.json",
        "copies.json",
        "titles.json",
        "ui-state.json",
        "sync.json",
        "sync-secret.json",
        "sync-state.json",
        "quarantine/players.json.1.why.json",
        "quarantine/counted.json.<id>.why.json",
    }, opened
    index = TinyDB(directory / "index.json", storage=JournalStorage).table("sessions")
    assert {doc["id"] for doc in index.all()} == {summary.id for summary in Store(directory).sessions()}


def test_the_small_files_an_earlier_version_wrote_read_as_they_did(tmp_path: Path) -> None:
    """ui-state.json, sync's three files and a quarantine note were the object alone: read as
    before (this version writes each as a TinyDB file with the next change)."""
    store = Store(tmp_path)
    data = AppData(store)
    session_id = data.new("heartland", ["Ann", "Bob"], {}).id
    view = {"open_session": session_id, "panel": None, "draft": {}, "habits": {"heartland.price.corn": 4}}
    (tmp_path / "ui-state.json").write_text(json.dumps(view))
    settings = {"format": "companion-sync", "version": 1, "url": "http://h:5984", "database": "companion"}
    (tmp_path / "sync.json").write_text(json.dumps({**settings, "user": "ann", "last_ok": 5.0}))
    (tmp_path / "sync-secret.json").write_text(json.dumps({"password": "pw"}))
    state = {"format": "companion-sync-state", "version": 1, "server": "S", "seq": "7-x", "docs": {"g": ["1-a", None]}}
    (tmp_path / "sync-state.json").write_text(json.dumps({**state, "again": []}))
    (tmp_path / "quarantine").mkdir(exist_ok=True)
    note = {"file": "index.json", "moved_to": "quarantine/index.json", "reason": "cut short", "time": 2.0}
    (tmp_path / "quarantine" / "index.json.why.json").write_text(json.dumps(note))
    assert data.recall("heartland.price.corn") == 4 and data.last_view()[0] == session_id
    assert sync_settings.read_settings(store.folder) == sync_settings.SyncSettings(
        "http://h:5984", "companion", "ann", 5.0
    )
    assert sync_settings.read_password(store.folder) == "pw"
    found = sync_documents.read_state(store, "S")
    assert (found.seq, found.docs) == ("7-x", {"g": ["1-a", None]})
    assert [(n.file, n.reason, n.time) for n in store.quarantine_notes()] == [("index.json", "cut short", 2.0)]
    assert [(n.file, n.reason, n.time) for n in Store(tmp_path).quarantine_notes()] == [
        ("index.json", "cut short", 2.0)
    ]  # written again as this version writes it, and read again


def test_tinydb_s_own_operations_are_saved_even_when_they_change_a_list_in_place(tmp_path: Path) -> None:
    path = tmp_path / "db.json"
    table = TinyDB(path, storage=JournalStorage).table("games")
    game = table.insert({"events": [1, 2], "cursor": 2, "note": {"by": "Ann"}})
    table.update(add("events", [3]), doc_ids=[game])  # list += list: in place
    table.update(increment("cursor"), doc_ids=[game])
    assert parse_file(path.read_bytes()).records == 2  # one record per write
    table.update(delete("note"), doc_ids=[game])  # a field removed: a `put`, so the file becomes format 2
    assert parse_file(path.read_bytes()).data["_meta"]["1"]["format"] == 2
    expected = {"events": [1, 2, 3], "cursor": 3}
    assert table.get(doc_id=game) == expected
    assert TinyDB(path, storage=JournalStorage).table("games").get(doc_id=game) == expected
    looked = table.get(doc_id=game)
    assert looked is not None
    looked["events"].append(99)  # a document read and changed in place is the reader's own
    assert TinyDB(path, storage=JournalStorage).table("games").get(doc_id=game) == expected
    assert table.get(doc_id=game) == expected


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=3)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
    max_leaves=6,
)
documents = st.dictionaries(st.sampled_from(["a", "b", "events", "n"]), values, max_size=4)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("insert"), st.sampled_from(["t", "u"]), documents),
        st.tuples(st.just("update"), st.sampled_from(["t", "u"]), documents),
        st.tuples(st.just("append"), st.sampled_from(["t", "u"]), values),
        st.tuples(st.just("remove"), st.sampled_from(["t", "u"]), st.integers(0, 3)),
        st.tuples(st.just("drop field"), st.sampled_from(["t", "u"]), st.sampled_from(["a", "b", "events", "n"])),
    ),
    max_size=12,
)


def _do(db: TinyDB, operation: tuple[str, str, Any]) -> None:
    kind, name, payload = operation
    table = db.table(name)
    ids = [doc.doc_id for doc in table.all()]
    if kind == "insert":
        table.insert(payload)
    elif kind == "update" and ids:
        table.update(payload, doc_ids=ids[:1])
    elif kind == "append" and ids:

        def grow(doc: Any) -> None:
            doc["events"] = [*doc["events"], payload] if isinstance(doc.get("events"), list) else [payload]

        table.update(grow, doc_ids=ids[-1:])
    elif kind == "remove" and ids:
        table.remove(doc_ids=[ids[payload % len(ids)]])
    elif kind == "drop field" and ids:
        table.update(lambda doc: doc.pop(payload, None), doc_ids=ids[:1])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations)
def test_whatever_tinydb_writes_reads_back_as_tinydb_s_own_storage_holds_it(steps: list[tuple[str, str, Any]]) -> None:
    folder = MemoryFolder()
    ours, theirs = TinyDB("db.json", folder=folder, storage=JournalStorage), TinyDB(storage=TinyMemory)
    for step in steps:
        _do(ours, step)
        _do(theirs, step)
        for name in ("t", "u"):
            assert ours.table(name).all() == theirs.table(name).all(), step
    again = TinyDB("db.json", folder=folder, storage=JournalStorage)
    for name in ("t", "u"):
        assert again.table(name).all() == theirs.table(name).all()

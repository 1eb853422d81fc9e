"""Every file the app saves is a TinyDB file: written through TinyDB's table API, read back by
TinyDB with the one documented storage class, and once compacted by plain TinyDB alone.

Also: whatever TinyDB writes through `JournalStorage` (any mix of inserts, updates, in-place
operations and removals) is appended as records and reads back exactly as TinyDB's own
in-memory storage holds it, in the same process and after a restart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tinydb import TinyDB
from tinydb.operations import add, delete, increment
from tinydb.storages import MemoryStorage as TinyMemory

from companion.app.data import AppData
from companion.store import JournalStorage, Store
from companion.store.file_format import parse_file
from companion.store.index_file import doc_key
from companion.store.storage import MemoryFolder

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

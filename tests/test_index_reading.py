"""Reading the index one entry at a time (`listing.index_summaries`) gives exactly what the
general reading gives (`storage.check_document` + `indexed_summary` per entry), or steps
aside (None) and lets the general reading decide: for any file, well-formed or not. An edit
(`index_file.IndexEntries`) writes what editing the parsed index writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.store import Store
from companion.store.errors import DamagedFile, NewerFile
from companion.store.index_file import INDEX_FORMAT, IndexEntries, by_key, by_session
from companion.store.listing import index_summaries, indexed_summary
from companion.store.storage import MemoryFolder, check_document, encode, record_line

FIXTURES = Path(__file__).resolve().parent / "fixtures"
META = {"1": {"format": 1, "kind": "index"}}


def general(raw: bytes) -> dict[str, Any] | type[Exception]:
    """What the store lists from `raw` the general way, or the error that reading raises."""
    try:
        data = check_document(raw, kind="index", plain=True)
    except (DamagedFile, NewerFile) as error:
        return type(error)
    return {session_id: indexed_summary(session_id, doc) for session_id, doc in by_session(data).items()}


def agrees(raw: bytes) -> bool:
    """index_summaries either steps aside or gives what the general reading gives."""
    scanned = index_summaries(raw)
    if scanned is None:
        return True
    expected = general(raw)
    assert expected == scanned[0], raw[:300]
    return False


ints = st.integers(-(2**63), 2**63 - 1)  # what orjson writes (the app's writer where installed)
entry = st.fixed_dictionaries(
    {
        "game": st.sampled_from(["heartland", "transamerica", "great_plains"]) | ints,
        "players": st.lists(st.text(max_size=6), max_size=4) | st.none(),
        "created": st.floats(allow_nan=True, allow_infinity=True) | ints | st.text(max_size=3),
        "title": st.text(max_size=8),
        "is_over": st.booleans() | st.integers(-1, 1),
        "winners": st.lists(st.text(max_size=6), max_size=2),
    },
    optional={
        "updated": st.floats(allow_nan=False) | st.booleans() | ints,
        "status": st.text(max_size=10) | ints,
        "status_in": st.dictionaries(st.text(max_size=9), st.text(max_size=5) | ints, max_size=3),
        "result": st.fixed_dictionaries(
            {
                "scores": st.lists(ints | st.floats(), max_size=4),
                "ranks": st.lists(st.integers(1, 4), max_size=4),
                "length": ints | st.floats(),
            }
        ),
        "extra": st.recursive(
            st.none() | ints | st.text(max_size=4),
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
        ),
    },
)
ids = st.text(alphabet="0123456789abcdefghjkmnpqrstvwxyz", min_size=1, max_size=16)


def written(document: dict[str, Any], style: int) -> bytes:
    """The document as the app writes it (orjson or json, compact) or with some white space."""
    if style == 0:
        return encode(document)
    if style == 1:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
    if style == 2:
        return json.dumps(document, ensure_ascii=False).encode()  # spaces after , and :
    return json.dumps(document, ensure_ascii=True, separators=(" , ", " : ")).encode() + b"\n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(ids, entry, max_size=6), st.integers(0, 3), st.booleans(), st.booleans())
def test_any_index_is_read_as_the_general_reading_reads_it(
    sessions: dict[str, Any], style: int, meta_first: bool, keyed: bool
) -> None:
    # keyed: as this version writes it (format 3: each entry under its number, naming its session)
    document = by_key({"_meta": META}, sessions) if keyed else {"_meta": META, "sessions": sessions}
    if not meta_first:
        document = {"sessions": document["sessions"], "_meta": document["_meta"]}
    raw = written(document, style)
    agrees(raw)
    if style in (0, 1, 2) and (meta_first or not keyed):  # as the app writes it (or with plain spaces)
        assert index_summaries(raw) is not None  # read one entry at a time


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"{",
        b"[]",
        b"{}",
        b'{"sessions":{}}',
        b'{"_meta":{"1":{"format":1,"kind":"index"}}}',
        b'{"_meta":{"1":{"format":2,"kind":"index"}},"sessions":{}}',  # newer
        b'{"_meta":{"1":{"format":1,"kind":"session"}},"sessions":{}}',  # another kind of file
        b'{"_meta":{"1":{"format":true,"kind":"index"}},"sessions":{}}',
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":[]}}',  # an entry that is not a document
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":null}}',
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":[]}',
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":{},}}',  # a trailing comma
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":{}}} x',  # something after the document
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":{"game":"x"}},"sessions":{}}',  # the last wins
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":{"game":1},"a":{"game":"x"}}}',
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"other":{"x":1},"sessions":{}}',  # a table of non-documents
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":{"created":1e400}}}',
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":{"created":123456789012345678901234}}}',
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":{"title":"\\ud800"}}}',
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":{"title":"\xff"}}}',  # not UTF-8
        b'{"_meta":{"1":{"format":1,"kind":"index"}},"sessions":{"a":{"title":"a\tb"}}}',  # a raw tab in a string
        # format 3: an entry whose number and id do not name the same session is left out
        b'{"_meta":{"1":{"format":3,"kind":"index"}},"sessions":{"48":{"id":"a"}}}',  # the number of "a"
        b'{"_meta":{"1":{"format":3,"kind":"index"}},"sessions":{"48":{"id":"b"}}}',
        b'{"_meta":{"1":{"format":3,"kind":"index"}},"sessions":{"48":{}}}',
        b'{"_meta":{"1":{"format":3,"kind":"index"}},"sessions":{"a":{"id":"a"}}}',
        b'{"_meta":{"1":{"format":3,"kind":"index"}},"sessions":{"1":{"id":""}}}',
        b'{"_meta":{"1":{"format":3,"kind":"index"}},"sessions":{"048":{"id":"a"}}}',
        b'{"_meta":{"1":{"format":3,"kind":"index"}},"sessions":{"48":{"title":"x","id":"a"}}}',  # id not first
        b'{"_meta":{"1":{"format":4,"kind":"index"}},"sessions":{}}',  # newer
    ],
)
def test_odd_files_are_read_as_the_general_reading_reads_them_or_left_to_it(raw: bytes) -> None:
    agrees(raw)


def test_a_file_with_appended_records_is_left_to_the_general_reading() -> None:
    base = encode(
        {
            "_meta": META,
            "sessions": {
                "a": {
                    "game": "heartland",
                    "players": ["Ann"],
                    "created": 1.0,
                    "title": "",
                    "is_over": False,
                    "winners": [],
                }
            },
        }
    )
    raw = base + record_line({"table": "sessions", "doc": "a", "set": {"title": "Friday"}})
    assert index_summaries(raw) is None
    summary = general(raw)["a"]  # type: ignore[index]
    assert summary is not None and summary.title == "Friday"


@pytest.mark.parametrize("version", ["store-v1", "store-v2", "store-v3", "store-v4", "store-v5", "store-v6"])
def test_the_indexes_earlier_versions_wrote_are_read_one_entry_at_a_time(version: str) -> None:
    raw = (FIXTURES / version / "index.json").read_bytes()
    scanned = index_summaries(raw)
    assert scanned is not None
    assert scanned[0] == general(raw)


def test_a_store_lists_the_same_games_whichever_way_the_index_is_read(tmp_path: Path) -> None:
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    for players in (["Ann", "Bob"], ["Léa", "Tom"]):
        store.new("heartland", players, {"target": 40})
    listed = [(summary.id, summary.players, summary.status) for summary in Store.in_memory(folder).sessions()]
    raw = folder.read("index.json")
    assert raw is not None and index_summaries(raw) is not None
    folder.write("index.json", raw.replace(b"{", b"{ ", 1))  # still plain: read one entry at a time
    assert [(s.id, s.players, s.status) for s in Store.in_memory(folder).sessions()] == listed
    folder.write("index.json", raw.replace(b"{", b"{\n", 1))  # a line break: the general reading
    assert [(s.id, s.players, s.status) for s in Store.in_memory(folder).sessions()] == listed


# --- edits: the entries not touched are written back as they were read -------------------------


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(ids, entry, max_size=6),
    st.integers(0, 2),
    st.lists(st.tuples(st.sampled_from(["set", "pop", "read"]), ids, entry), max_size=5),
)
def test_an_edit_writes_what_editing_the_parsed_index_writes(
    sessions: dict[str, Any], style: int, changes: list[tuple[str, str, dict[str, Any]]]
) -> None:
    raw = written({"_meta": META, "sessions": sessions}, style)
    # (json writes NaN and Infinity, which the general edit rewrites as orjson's null in every
    # entry, and this one leaves as they were in the entries it does not touch.)
    assume(b"NaN" not in raw and b"Infinity" not in raw)
    entries = IndexEntries.read(raw)
    assert entries is not None  # as the app writes it (or with plain spaces)
    expected = check_document(raw, kind="index", plain=True)
    changed = set()
    for action, session_id, doc in changes:
        if action == "set":
            entries[session_id] = doc
            expected["sessions"][session_id] = doc
            changed.add(session_id)
        elif action == "pop":
            if session_id in expected["sessions"]:
                changed.add(session_id)
            assert entries.pop(session_id, None) == expected["sessions"].pop(session_id, None)
        else:
            assert entries.get(session_id) == expected["sessions"].get(session_id)
    assert list(entries) == list(expected["sessions"])
    # What the general edit writes (`FolderStorage.write`: the whole document encoded), read back.
    rewritten = check_document(entries.encode(), kind="index", plain=True)
    assert rewritten["_meta"]["1"]["format"] == INDEX_FORMAT
    assert by_session(rewritten) == by_session(check_document(encode(expected), kind="index", plain=True))
    assert entries.changed == changed


def test_an_index_the_edit_cannot_write_back_as_text_is_edited_the_general_way() -> None:
    plain = encode({"_meta": META, "sessions": {"a": {"title": "x"}}})
    assert IndexEntries.read(plain) is not None
    assert IndexEntries.read(plain.replace(b'"x"', b'"\\ud83d\\ude00"')) is None  # an escaped surrogate pair
    assert IndexEntries.read(plain + record_line({"table": "sessions", "doc": "a", "set": {"title": "y"}})) is None


def test_games_saved_renamed_and_deleted_leave_the_other_entries_byte_for_byte(tmp_path: Path) -> None:
    store = Store(tmp_path)
    kept = store.new("heartland", ["Ann", "Bob"], {"target": 40})
    kept_id = kept.id
    store.close_session(kept_id)
    # An entry written by hand (with no checksum, as an earlier version wrote them), with white
    # space and an unknown field: the app leaves it as it is.
    raw = (tmp_path / "index.json").read_bytes()
    entry_text = raw[raw.index(b'{"id"') : raw.index(b"}", raw.index(b'{"id"')) + 1]
    named = b'{"id":"' + kept_id.encode() + b'",'  # as this version writes it: the id first
    assert entry_text.startswith(named + b'"check":')
    hand = named + entry_text[len(named + b'"check":"01234567",') : -1] + b', "note" : "by hand"}'
    (tmp_path / "index.json").write_bytes(raw.replace(entry_text, hand))
    again = Store(tmp_path)
    other = again.new("transamerica", ["Cy", "Di"], {})
    assert other.id is not None
    again.rename(other.id, "Friday")
    again.close_session(other.id)
    again.delete(other.id)
    assert hand in (tmp_path / "index.json").read_bytes()
    assert [summary.id for summary in Store(tmp_path).sessions()] == [kept_id]

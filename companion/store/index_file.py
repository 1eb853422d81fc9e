"""The index file (`index.json`) read one entry at a time, and rewritten without parsing it whole.

Kept for what it buys in memory, measured with and without in fresh processes, interleaved
(archives as `tests/archive_helpers.py` builds them): reading the list one entry at a time,
the app's memory after Home is +8.6 MB instead of +20.5 MB at 10,000 games (+2.0 instead of
+2.8 MB at 1,000); rewriting the index from its text, five renames that each rewrote it
leave +9.9 MB instead of +15.7 MB at 10,000 games (+2.5 instead of +4.4 MB at 1,000).
Parsing the whole file into dicts costs its whole size in small objects at once (a peak
of 26 MB instead of 15 MB at 10,000 games), memory the process then keeps. It buys no time:
the list is read in about the same time either way.

`scan_index` reads the document one entry at a time, then the records appended after it
(`put` and `drop` of entries, as the store appends them). `IndexEntries` is the index being
compacted: the entries no record touched stay the text they were read as and are written
back unchanged.

Both read only a plain, well-formed index of a version this one reads, its document
written without line breaks (as the app writes it), its records whole and of the kinds the
store appends; for anything else (a newer format, a damaged file, records of other kinds)
they step aside and the store reads the file the general way (`file_format.parse_file`),
which says what is wrong with it. Both parse with the standard json module, as the general
reading of the index does: any file reads the same either way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any, TypeVar

from companion.store.errors import DamagedFile, NewerFile
from companion.store.file_format import META, check_tables, encode, split_records

T = TypeVar("T")
SESSIONS_TABLE = "sessions"

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r]*")  # JSON's white space; a line break means appended records (or a hand)
_BLANK = " \t\r"


Records = list[tuple[str, dict[str, Any] | None]]  # (session id, its entry put, or None: dropped)


def scan_index(
    raw: bytes, on_entry: Callable[[str, dict[str, Any], str], T]
) -> tuple[dict[str, T], dict[str, Any], Records] | None:
    """`{session id: on_entry(id, entry, entry's text)}` for the sessions table of the document,
    the other tables, and the records after it (to apply in order); None when the file is not
    a plain, well-formed index this version reads."""
    split = split_records(raw)
    if split is None:
        return None
    document, found = split
    records = _index_records(found)
    try:
        text = document.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if records is None or "\n" in text.rstrip("\n"):
        return None  # records of other kinds (or a hand's line breaks): the general reading
    try:
        scanned = _scan_index(text, on_entry)
    except (ValueError, IndexError, StopIteration, RecursionError):
        return None
    return None if scanned is None else (*scanned, records)


def _index_records(found: list[dict[str, Any]]) -> Records | None:
    """The records as (id, entry or None), or None when one is not a `put` or `drop` of a sessions entry."""
    records: Records = []
    for record in found:
        if record.get("table") != SESSIONS_TABLE or not isinstance(record.get("doc"), str):
            return None
        if set(record) == {"table", "doc", "put"} and isinstance(record["put"], dict):
            records.append((record["doc"], record["put"]))
        elif set(record) == {"table", "doc", "drop"} and record["drop"] is True:
            records.append((record["doc"], None))
        else:
            return None
    return records


def _scan_index(
    text: str, on_entry: Callable[[str, dict[str, Any], str], T]
) -> tuple[dict[str, T], dict[str, Any]] | None:
    entries: dict[str, T] = {}
    tables: dict[str, Any] = {}
    position = _after(text, 0, "{")
    if text[_skip(text, position)] == "}":
        position = _skip(text, position) + 1
    else:
        while True:
            name, position = _key(text, position)
            if name == SESSIONS_TABLE:
                scanned = _scan_sessions(text, _after(text, position, "{"), on_entry)
                if scanned is None:
                    return None
                entries, position = scanned
            else:
                tables[name], position = _DECODER.raw_decode(text, _skip(text, position))
            position = _skip(text, position)
            if text[position] == "}":
                position += 1
                break
            position = _after(text, position, ",")
    if text[position:].strip(" \t\r\n"):
        return None
    try:  # the other tables as the general reading checks them (the entries were checked above)
        check_tables({**tables, SESSIONS_TABLE: {}}, "index")
    except (DamagedFile, NewerFile):
        return None  # the general reading says what is wrong
    return entries, tables


def _scan_sessions(
    text: str, position: int, on_entry: Callable[[str, dict[str, Any], str], T]
) -> tuple[dict[str, T], int] | None:
    """The entries of the sessions table from just inside its brace; the position after its closing one."""
    scan, name_at = _DECODER.scan_once, json.decoder.scanstring  # type: ignore[attr-defined]
    entries: dict[str, T] = {}
    position = _skip(text, position)
    if text[position] == "}":
        return entries, position + 1
    while True:  # the white space checks are inline: the app writes none, and this runs per game
        if text[position] != '"':
            raise ValueError(f"expected a name at {position}")
        session_id, position = name_at(text, position + 1, True)
        position = position + 1 if text[position] == ":" else _after(text, position, ":")
        if text[position] in _BLANK:
            position = _skip(text, position)
        start = position
        entry, position = scan(text, position)
        if not isinstance(entry, dict):
            return None  # not a set of documents: the general reading sets the file aside
        entries[session_id] = on_entry(session_id, entry, text[start:position])
        if text[position] in _BLANK:
            position = _skip(text, position)
        if text[position] == "}":
            return entries, position + 1
        position = _after(text, position, ",")
        if text[position] in _BLANK:
            position = _skip(text, position)


def _key(text: str, position: int) -> tuple[str, int]:
    """A member's name and the position after its colon."""
    position = _after(text, position, '"')
    name, position = json.decoder.scanstring(text, position, True)  # type: ignore[attr-defined]
    return name, _after(text, position, ":")


def _skip(text: str, position: int) -> int:
    return _SPACE.match(text, position).end()  # type: ignore[union-attr]


def _after(text: str, position: int, mark: str) -> int:
    """The position after `mark` (white space before it skipped); ValueError when it is not there."""
    position = _skip(text, position)
    if text[position] != mark:
        raise ValueError(f"expected {mark!r} at {position}")
    return position + 1


class _Text(str):
    """An entry kept as the JSON text it was read as (parsed again only when asked for)."""

    __slots__ = ()


class IndexEntries(MutableMapping[str, Any]):
    """The sessions table of an index being rewritten: a mapping of session id -> entry whose
    entries stay text until one is read, and `encode()` the whole file again as one document,
    the entries not changed written back as they were read.

    `changed` holds the ids set or removed since it was read.
    """

    def __init__(self, entries: dict[str, Any], tables: dict[str, Any]) -> None:
        self._entries = entries
        self._tables = tables
        self.changed: set[str] = set()

    @classmethod
    def read(cls, raw: bytes) -> IndexEntries | None:
        """The index in `raw` (its records applied), or None when it is not a plain, well-formed index."""
        if b"\\ud" in raw or b"\\uD" in raw:
            return None  # an escaped half of a surrogate pair could not be written back as text
        scanned = scan_index(raw, lambda _id, _entry, text: _Text(text))
        if scanned is None:
            return None
        texts, tables, records = scanned
        entries: dict[str, Any] = dict(texts)
        for session_id, entry in records:
            if entry is not None:
                entries[session_id] = entry
            elif entries.pop(session_id, None) is None:
                return None  # a record dropping what is not there: the general reading says so
        return cls(entries, tables)

    @classmethod
    def of(cls, data: dict[str, Any]) -> IndexEntries:
        """An index read the general way (its tables parsed)."""
        return cls(
            dict(data.get(SESSIONS_TABLE, {})), {name: table for name, table in data.items() if name != SESSIONS_TABLE}
        )

    def __getitem__(self, session_id: str) -> Any:
        value = self._entries[session_id]
        if isinstance(value, _Text):
            value = self._entries[session_id] = json.loads(value)  # the same object on the next read
        return value

    def __setitem__(self, session_id: str, entry: Any) -> None:
        self._entries[session_id] = entry
        self.changed.add(session_id)

    def __delitem__(self, session_id: str) -> None:
        del self._entries[session_id]
        self.changed.add(session_id)

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def encode(self, version: int | None = None) -> bytes:
        """The whole index file: its other tables, then the sessions, one after the other (in
        format `version` when given)."""
        parts = ["{"]
        for name, table in self._tables.items():
            if name == META and version is not None:
                table = {**table, "1": {**table.get("1", {}), "format": version}}
            parts += [json.dumps(name, ensure_ascii=False), ":", encode(table).decode("utf-8"), ","]
        if META not in self._tables and version is not None:
            meta = {"1": {"format": version, "kind": "index"}}
            parts += [json.dumps(META), ":", encode(meta).decode("utf-8"), ","]
        parts.append(f"{json.dumps(SESSIONS_TABLE)}:{{")
        for number, (session_id, entry) in enumerate(self._entries.items()):
            parts += [
                "," if number else "",
                json.dumps(session_id, ensure_ascii=False),
                ":",
                entry if isinstance(entry, _Text) else encode(entry).decode("utf-8"),
            ]
        parts.append("}}")
        return "".join(parts).encode("utf-8")

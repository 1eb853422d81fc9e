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

Format 3 (this version's) keys each entry by the number its session id stands for
(`doc_key`: the id in base 38 after a leading 1), which TinyDB reads as a document id, so
`TinyDB("index.json", storage=JournalStorage).table("sessions").all()` lists the games; the
entry names its session first (`"id"`), outside its checksum, which covers the id already.
Inside the store the entries are keyed by session id and hold no "id", as formats 1 and 2
kept them: `by_session` and `by_key` (and the scanner, by text) translate at the file.

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
INDEX_FORMAT = 3  # entries keyed by a number TinyDB reads as a document id, each naming its session ("id")
ID = "id"

# A session id (`listing.SESSION_ID`: these symbols, at most 64) is a number in base 38 after a
# leading 1, so that `doc_key` and `session_of` undo each other and TinyDB's int() reads it.
_SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz_-"
_VALUE = {symbol: value for value, symbol in enumerate(_SYMBOLS)}
_BASE = len(_SYMBOLS)
_LONGEST_KEY = 104  # digits of the key of a 64-symbol id
_ID_PREFIX = re.compile(r'\{"id":"([0-9a-z_-]{1,64})"(,?)')


def doc_key(session_id: str) -> str:
    """The entry's key in an index of format 3: its session id as a (decimal) number."""
    number = 1
    for symbol in session_id:
        number = number * _BASE + _VALUE[symbol]
    return str(number)


def session_of(key: Any) -> str | None:
    """The session id a key of format 3 stands for; None when it is no such key."""
    if not isinstance(key, str) or not key.isascii() or not key.isdigit() or len(key) > _LONGEST_KEY:
        return None
    number, symbols = int(key), []
    while number >= _BASE:
        number, value = divmod(number, _BASE)
        symbols.append(_SYMBOLS[value])
    return "".join(reversed(symbols)) if number == 1 and symbols else None


def with_id(session_id: str, entry: dict[str, Any]) -> dict[str, Any]:
    """An entry as format 3 writes it: its session's id first."""
    return {ID: session_id, **entry}


def without_id(key: str, entry: Any) -> tuple[str, Any] | None:
    """(session id, the entry as the store keeps it) of an entry format 3 wrote under `key`;
    None when its id and its key do not name the same session (a damaged entry)."""
    if not isinstance(entry, dict):
        return None
    session_id = session_of(key)
    if session_id is None or entry.get(ID) != session_id:
        return None
    return session_id, {name: value for name, value in entry.items() if name != ID}


def by_session(data: dict[str, Any]) -> dict[str, Any]:
    """The sessions table of an index read the general way, keyed by session id, entries as
    the store keeps them (an entry of format 3 whose key and id disagree is left out: the
    session's file is listed again from itself)."""
    table = data.get(SESSIONS_TABLE, {})
    if _format_of(data) < INDEX_FORMAT:
        return dict(table)
    entries = {}
    for key, entry in table.items():
        found = without_id(key, entry)
        if found is not None:
            entries[found[0]] = found[1]
    return entries


def by_key(data: dict[str, Any], entries: dict[str, Any]) -> dict[str, Any]:
    """An index's tables as format 3 writes them, from the sessions table keyed by session id."""
    meta = data.get(META, {}).get("1", {})
    return {
        META: {"1": {**meta, "format": INDEX_FORMAT, "kind": "index"}},
        **{name: table for name, table in data.items() if name not in (META, SESSIONS_TABLE)},
        SESSIONS_TABLE: {doc_key(session_id): with_id(session_id, entry) for session_id, entry in entries.items()},
    }


def _format_of(tables: dict[str, Any]) -> int:
    meta = tables.get(META, {}).get("1", {}) if isinstance(tables.get(META), dict) else {}
    found = meta.get("format", 1) if isinstance(meta, dict) else 1
    return found if type(found) is int else 1


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r]*")  # JSON's white space; a line break means appended records (or a hand)
_BLANK = " \t\r"


Records = list[tuple[str, dict[str, Any] | None]]  # (session id, its entry put, or None: dropped)


def scan_index(
    raw: bytes, on_entry: Callable[[str, dict[str, Any], str | None], T]
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
    if scanned is None:
        return None
    entries, tables, keyed = scanned
    if keyed:
        records = _records_by_session(records)
    elif _format_of(tables) >= INDEX_FORMAT:
        return None  # its marker after its entries (not as the app writes it): the general reading
    return None if records is None else (entries, tables, records)


def _records_by_session(records: Records) -> Records | None:
    """Records of format 3 (keyed by number, entries naming their session) keyed by session id."""
    found: Records = []
    for key, entry in records:
        if entry is None:
            session_id = session_of(key)
            if session_id is None:
                return None
            found.append((session_id, None))
        else:
            kept = without_id(key, entry)
            if kept is None:
                return None
            found.append(kept)
    return found


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
    text: str, on_entry: Callable[[str, dict[str, Any], str | None], T]
) -> tuple[dict[str, T], dict[str, Any], bool] | None:
    """The entries, the other tables, and whether the entries were read as format 3 (keyed by number)."""
    entries: dict[str, T] = {}
    tables: dict[str, Any] = {}
    keyed = False
    position = _after(text, 0, "{")
    if text[_skip(text, position)] == "}":
        position = _skip(text, position) + 1
    else:
        while True:
            name, position = _key(text, position)
            if name == SESSIONS_TABLE:
                keyed = _format_of(tables) >= INDEX_FORMAT  # the app writes the marker first
                scanned = _scan_sessions(text, _after(text, position, "{"), on_entry, keyed)
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
    return entries, tables, keyed


def _scan_sessions(
    text: str, position: int, on_entry: Callable[[str, dict[str, Any], str | None], T], keyed: bool
) -> tuple[dict[str, T], int] | None:
    """The entries of the sessions table from just inside its brace; the position after its closing one.

    `keyed` (format 3): each entry's key and id must name the same session; its text is given
    without the id (as format 2 held it), or None when the id is not where the app writes it."""
    scan, name_at = _DECODER.scan_once, json.decoder.scanstring  # type: ignore[attr-defined]
    entries: dict[str, T] = {}
    position = _skip(text, position)
    if text[position] == "}":
        return entries, position + 1
    while True:  # the white space checks are inline: the app writes none, and this runs per game
        if text[position] != '"':
            raise ValueError(f"expected a name at {position}")
        key, position = name_at(text, position + 1, True)
        position = position + 1 if text[position] == ":" else _after(text, position, ":")
        if text[position] in _BLANK:
            position = _skip(text, position)
        start = position
        entry, position = scan(text, position)
        if not isinstance(entry, dict):
            return None  # not a set of documents: the general reading sets the file aside
        if keyed:
            found = without_id(key, entry)
            if found is None:
                return None  # key and id disagree: the general reading leaves the entry out
            session_id, entry = found
            entries[session_id] = on_entry(session_id, entry, _text_without_id(text[start:position]))
        else:
            entries[key] = on_entry(key, entry, text[start:position])
        if text[position] in _BLANK:
            position = _skip(text, position)
        if text[position] == "}":
            return entries, position + 1
        position = _after(text, position, ",")
        if text[position] in _BLANK:
            position = _skip(text, position)


def _text_without_id(text: str) -> str | None:
    """An entry's text as format 2 held it (its id taken out); None when the id is not first."""
    found = _ID_PREFIX.match(text)
    if found is None:
        return None
    rest = text[found.end() :]
    if found.group(2):
        return "{" + rest
    return "{}" if rest.strip(_BLANK + "\n") == "}" else None


def _text_with_id(session_id: str, text: str) -> str:
    """An entry's text as format 3 writes it: its id first."""
    named = '{"id":' + json.dumps(session_id)
    return named + ("}" if text[1:].lstrip(_BLANK + "\n").startswith("}") else "," + text[1:])


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
        scanned = scan_index(raw, lambda _id, entry, text: entry if text is None else _Text(text))
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
        return cls(by_session(data), {name: table for name, table in data.items() if name != SESSIONS_TABLE})

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

    def encode(self) -> bytes:
        """The whole index file, as format 3: its marker, its other tables, then the sessions,
        one after the other, each under its number and naming its session first."""
        meta = {"1": {**self._tables.get(META, {}).get("1", {}), "format": INDEX_FORMAT, "kind": "index"}}
        parts = [json.dumps(META), ":", encode(meta).decode("utf-8"), ","]
        for name, table in self._tables.items():
            if name != META:
                parts += [json.dumps(name, ensure_ascii=False), ":", encode(table).decode("utf-8"), ","]
        parts.insert(0, "{")
        parts.append(f"{json.dumps(SESSIONS_TABLE)}:{{")
        for number, (session_id, entry) in enumerate(self._entries.items()):
            parts += [
                "," if number else "",
                '"',
                doc_key(session_id),
                '":',
                _text_with_id(session_id, entry)
                if isinstance(entry, _Text)
                else encode(with_id(session_id, entry)).decode("utf-8"),
            ]
        parts.append("}}")
        return "".join(parts).encode("utf-8")

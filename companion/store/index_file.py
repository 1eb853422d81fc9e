"""The index file (`index.json`) read one entry at a time, and edited without parsing it whole.

The index holds one small entry per session. Parsing the whole file into dicts costs its
whole size in memory at once (at 10,000 games, ~14 MB of small objects), and memory the
process then keeps; reading it one entry at a time costs an entry's worth. An edit (a game
saved, renamed, deleted) touches a few entries: `IndexEntries` keeps the others as the text
they were read as and writes them back unchanged.

Both read only a plain, well-formed index of this version, written without line breaks (as
the app writes it); for anything else (appended records, a newer format, a damaged file)
they step aside and the store reads the file the general way (`file_format.parse_file`), which
says what is wrong with it. Both parse with the standard json module, as the store's general
reading of the index does (see `FolderStorage.plain`): any file reads the same either way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any, TypeVar

from companion.store.errors import DamagedFile, NewerFile
from companion.store.file_format import check_tables, encode

T = TypeVar("T")
SESSIONS_TABLE = "sessions"

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r]*")  # JSON's white space; a line break means appended records (or a hand)
_BLANK = " \t\r"


def scan_index(raw: bytes, on_entry: Callable[[str, dict[str, Any], str], T]
               ) -> tuple[dict[str, T], dict[str, Any]] | None:
    """`{session id: on_entry(id, entry, entry's text)}` for the sessions table, and the other
    tables; None when the file is not a plain, well-formed index of this version."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\n" in text.rstrip("\n"):
        return None  # appended records (or a hand's line breaks): the general reading
    try:
        return _scan_index(text, on_entry)
    except (ValueError, IndexError, StopIteration, RecursionError):
        return None


def _scan_index(text: str, on_entry: Callable[[str, dict[str, Any], str], T]
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


def _scan_sessions(text: str, position: int, on_entry: Callable[[str, dict[str, Any], str], T]
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
    """The sessions table of an index being edited: a mapping of session id -> entry whose
    entries stay text until one is read, and `encode()` the whole file again, the entries
    not changed written back as they were read.

    `changed` holds the ids set or removed since it was read (what the summaries kept of the
    index must follow).
    """

    def __init__(self, entries: dict[str, Any], tables: dict[str, Any]) -> None:
        self._entries = entries
        self._tables = tables
        self.changed: set[str] = set()

    @classmethod
    def read(cls, raw: bytes) -> IndexEntries | None:
        """The index in `raw`, or None when it is not a plain, well-formed index of this version."""
        if b"\\ud" in raw or b"\\uD" in raw:
            return None  # an escaped half of a surrogate pair could not be written back as text
        scanned = scan_index(raw, lambda _id, _entry, text: _Text(text))
        return None if scanned is None else cls(*scanned)

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
        """The whole index file: its other tables, then the sessions, one after the other."""
        parts = ["{"]
        for name, table in self._tables.items():
            parts += [json.dumps(name, ensure_ascii=False), ":", encode(table).decode("utf-8"), ","]
        parts.append(f"{json.dumps(SESSIONS_TABLE)}:{{")
        for number, (session_id, entry) in enumerate(self._entries.items()):
            parts += ["," if number else "", json.dumps(session_id, ensure_ascii=False), ":",
                      entry if isinstance(entry, _Text) else encode(entry).decode("utf-8")]
        parts.append("}}")
        return "".join(parts).encode("utf-8")

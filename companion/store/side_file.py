"""The small files beside the games that keep the table's choices (players.json, counted.json,
copies.json: see companion/aftergame; titles.json), read so that damage is never read quietly.

Each holds one map (`SideKind.key`: {key: value}), written whole and atomically as a TinyDB
file: the map is document 1 of the table named by its key, and `_meta` holds, besides the
format marker, the number of its entries (`"count"`) and the file's checksum (`"crc32"`,
`file_format.document_bytes`), so that a file cut short or with a flipped bit is told from a
whole one and says how much it lost; `TinyDB(path, storage=JournalStorage)` reads it:

    {"_meta":{"1":{"format":1,"kind":"aliases","count":2,"crc32":"1c291ca3"}},
     "aliases":{"1":{"bob":"Rob","zoë":"Zoé"}}}

Earlier versions wrote one JSON object holding the map, sealed with its checksum first
(`{"crc32":"…","count":2,"aliases":{…}}`, tests/fixtures/side-v2) or, before that, without
one (tests/fixtures/side-v1): each reads as it always did, and is written in this shape with
the next choice. Anything else is damage: a file that does not parse
(cut short, binary, empty), one of another shape, one whose checksum fails. Of a damaged
file the entries that can still be read are kept (each whole: those before a cut or before
a broken byte; all of them when only the checksum fails, `ALTERED`), the file as it was is
copied into quarantine/ with a note before anything is written over it
(`Quarantine.keep_side`), and the store lists the loss (`SessionList.side_losses`) so Home
names the file and what it lost. The next choice writes what could be read plus itself.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from companion.store.file_format import (
    ALTERED,
    CHECKSUM,
    DAMAGED,
    META,
    Damage,
    document_bytes,
    seal_holds,
    stamp_holds,
)
from companion.store.folders import Folder, Signature
from companion.store.quarantine import Quarantine
from companion.text.messages import has_lone_surrogate

COUNT = "count"
UNKNOWN = "unknown"  # a damaged side file that does not say how many entries it held
_DECODER = json.JSONDecoder()
_UNREADABLE = object()


class SideKind(NamedTuple):
    """One side file: its name in the data folder, the table holding its map, what an entry is."""

    name: str
    key: str
    entry: Callable[[str, Any], bool]


class SideRead(NamedTuple):
    entries: dict[str, Any]  # what could be read
    damage: Damage | None  # what could not (kind DAMAGED: `lost` entries; UNKNOWN; ALTERED), None when whole


def side_bytes(kind: SideKind, entries: Mapping[str, Any]) -> bytes:
    """The file as this version writes it: a TinyDB file, its count and checksum in `_meta`."""
    meta = {"format": 1, "kind": kind.key, COUNT: len(entries)}
    return document_bytes({META: {"1": meta}, kind.key: {"1": dict(entries)}}, checksum=True)


def parse_side(raw: bytes, kind: SideKind) -> SideRead:
    """The entries of a side file's bytes, and what damage took from them (see the module's docstring)."""
    try:
        document = json.loads(raw)
    except (ValueError, RecursionError):
        document = _UNREADABLE
    if document is _UNREADABLE:
        if not raw:
            return SideRead({}, _loss(0, None, "it is empty"))
        entries, count = _salvaged(raw, kind)
        return SideRead(entries, _loss(len(entries), count, "it is not whole (cut short, or a byte damaged)"))
    if not isinstance(document, dict):
        return SideRead({}, _loss(0, None, f"it is not a {kind.name} file"))
    if META in document or (CHECKSUM not in document and stamp_holds(raw) is not None):
        return _parse_tables(raw, document, kind)  # this version's (its `_meta` named as written, or not)
    sealed = seal_holds(raw)  # an earlier version's: one object, its checksum first (or none)
    found = document.get(kind.key)
    if isinstance(found, dict) and (sealed or (sealed is None and CHECKSUM not in document)):
        return SideRead(entries_of(found, kind), None)  # as written (or an earlier version's file)
    if not isinstance(found, dict):  # its map's name damaged: the one map it holds
        maps = [value for name, value in document.items() if name != CHECKSUM and isinstance(value, dict)]
        found = maps[0] if len(maps) == 1 else {}
    entries = entries_of(found, kind)
    reason = "it does not match its checksum" if CHECKSUM in document else f"it is not a {kind.name} file"
    return SideRead(entries, _loss(len(entries), document.get(COUNT), reason))


def _parse_tables(raw: bytes, document: dict[str, Any], kind: SideKind) -> SideRead:
    """The entries of a file as this version writes it (a TinyDB file), and what damage took."""
    meta = document.get(META, {}).get("1") if isinstance(document.get(META), dict) else None
    table = document.get(kind.key)
    found = table.get("1") if isinstance(table, dict) else None
    sealed = stamp_holds(raw)
    if isinstance(found, dict) and sealed:
        return SideRead(entries_of(found, kind), None)
    if not isinstance(found, dict):  # its table's name damaged: the one map it holds
        maps = [
            doc
            for name, docs in document.items()
            if name != META and isinstance(docs, dict)
            for doc in docs.values()
            if isinstance(doc, dict)
        ]
        found = maps[0] if len(maps) == 1 else {}
    entries = entries_of(found, kind)
    reason = "it does not match its checksum" if sealed is False else f"it is not a {kind.name} file"
    return SideRead(entries, _loss(len(entries), meta.get(COUNT) if isinstance(meta, dict) else None, reason))


def entries_of(found: Mapping[Any, Any], kind: SideKind) -> dict[str, Any]:
    """The entries of a map that are entries of this kind (as an earlier version read them); half
    of a UTF-16 pair (no file can keep it) is not."""
    return {
        key: value
        for key, value in found.items()
        if isinstance(key, str)
        and kind.entry(key, value)
        and not has_lone_surrogate(key + (value if isinstance(value, str) else ""))
    }


def _loss(read: int, count: Any, reason: str) -> Damage:
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        return Damage(UNKNOWN, 0, reason)  # cut before its count, or an earlier version's file
    if count > read:
        return Damage(DAMAGED, count - read, reason)
    return Damage(ALTERED, 0, reason)  # every entry read, but not checked: one may differ


def _salvaged(raw: bytes, kind: SideKind) -> tuple[dict[str, Any], Any]:
    """What can be read of bytes that do not parse: the whole entries of the map before the
    damage, and the count said before the map (None when not found)."""
    text = raw.decode("utf-8", "surrogateescape")
    start = text.find(json.dumps(kind.key) + ":")
    count_at = re.search(r'"count":(\d{1,9})[,}]', text[: start if start >= 0 else len(text)])
    count = int(count_at.group(1)) if count_at else None
    if start < 0:
        return {}, count
    at = _skip(text, start + len(kind.key) + 3)
    if text[at : at + 1] != "{":
        return {}, count
    at += 1
    inner = re.compile(r'\s*"1"\s*:\s*\{').match(text, at)  # this version's: the map is document 1
    if inner is not None:
        at = inner.end()
    found: dict[Any, Any] = {}
    try:
        while True:
            at = _skip(text, at)
            if text[at : at + 1] == "}":
                break
            key, at = _DECODER.raw_decode(text, at)
            at = _skip(text, at)
            if not isinstance(key, str) or text[at : at + 1] != ":":
                break
            value, at = _DECODER.raw_decode(text, _skip(text, at + 1))
            at = _skip(text, at)
            following = text[at : at + 1]
            if following not in (",", "}", ""):
                break  # the value ran into the damage: it may not be whole
            found[key] = value  # whole: a text with its closing quote, true or false (a cut may follow)
            if following != ",":
                break
            at += 1
    except (ValueError, RecursionError):
        pass
    return entries_of(found, kind), count


def _skip(text: str, at: int) -> int:
    """Where JSON's white space from `at` ends."""
    while text[at : at + 1] in (" ", "\t", "\n", "\r"):
        at += 1
    return at


class SideFiles:
    """The side files of one data folder, read and written through its quarantine."""

    def __init__(self, folder: Folder, quarantine: Quarantine | None = None) -> None:
        self._folder = folder
        self._quarantine = quarantine if quarantine is not None else Quarantine(folder, None)
        self._lock = threading.RLock()
        # The entries of each file as last read whole, by its signature (inode, size, times): a
        # file unchanged since is not read again (a statistics screen asks for them all each draw).
        self._kept: dict[str, tuple[Signature, dict[str, Any]]] = {}

    def read(self, kind: SideKind) -> dict[str, Any]:
        """The entries of a side file ({} when there is none or the disk refuses it); a damaged
        one is kept aside and listed as a loss first."""
        try:
            return self._read(kind)[0]
        except OSError:
            return {}  # not damage: the disk refused (the next choice says so, see `update`)

    def _read(self, kind: SideKind) -> tuple[dict[str, Any], OSError | None]:
        """(entries, why the damaged file could not be copied aside); OSError when it cannot be read."""
        with self._lock:
            signature = self._folder.stat(kind.name)
            if signature is None:
                return {}, None  # none yet: nothing was chosen
            kept = self._kept.get(kind.name)
            if signature is not None and kept is not None and kept[0] == signature:
                return dict(kept[1]), None
            raw = self._folder.read(kind.name)
            if raw is None:
                return {}, None
            found = parse_side(raw, kind)
            if found.damage is None:
                earlier = not raw.startswith(b'{"' + META.encode())
                if earlier and self._folder.stat(kind.name) == signature:  # kept as this version writes it
                    with contextlib.suppress(OSError):  # a courtesy: a read-only folder reads it as it is
                        self._folder.write(kind.name, side_bytes(kind, found.entries))
                        signature = self._folder.stat(kind.name) or signature
                self._kept[kind.name] = (signature, dict(found.entries))
                return found.entries, None
            self._kept.pop(kind.name, None)
            try:
                self._quarantine.keep_side(kind.name, found.damage, raw)
            except OSError as error:
                return found.entries, error
            return found.entries, None

    def update(self, kind: SideKind, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
        """Write `change(entries read)` whole, atomically; returns it. OSError when the disk
        refuses, or when the file cannot be read, or is damaged and could not be copied
        aside: nothing is written then (it would replace the only copy of what it lost)."""
        with self._lock:
            entries, not_kept = self._read(kind)
            if not_kept is not None:
                raise not_kept
            entries = change(entries)
            self._kept.pop(kind.name, None)
            self._folder.write(kind.name, side_bytes(kind, entries))
            return entries

    def forget(self, name: str) -> None:
        """What the file lost was brought back (a backup restored): Home no longer tells it."""
        self._quarantine.forget_side(name)

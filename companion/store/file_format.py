"""What a Companion file's bytes hold, and how much of a damaged or cut-short one can be read.

A file is one JSON document on one line (a TinyDB document: tables of documents, with a
`_meta` table `{"1": {"format": n, "kind": ...}}`), then one line per appended record: a
change to one document (`<crc32 of its JSON, 8 hex digits> <JSON>`, each line started by
its line break). A record names its `table` and `doc`, then says what changed:

- format 1: `set` fields, and `splice` lists (`{field: [keep, items]}`: keep the first
  `keep` items, add the others) of a document that exists;
- format 2 adds `put` (the whole document, added or replacing one) and `drop` (`true`: the
  document is removed), so that a table's documents come and go by appended records too;
- format 3 (the index only) is format 2 with each entry under a number (index_file.py).

A file says the newest format it may use: session files stay at 1 (a change of a game is
fields set and events spliced), the index is 3 (an index of format 1 or 2, written by an
earlier version, is written again whole as format 3 once). A reader refuses a file of a
format newer than it knows for its kind (`NewerFile`), so an earlier version never misreads
one (an earlier version of Companion says the folder is a newer version's).

The document of a session file carries its own checksum in `_meta` (`"crc32"`: the CRC-32
of the document's bytes with those eight digits as zeros), so that every byte of the file
is checked. Files written before that hold no `"crc32"` and read as they always did.

What cannot be read is told apart (`Damage`) when salvaging (session files):

- a record that fails its checksum and is followed by another, or whose JSON is whole, is
  damage: it and every record after it are lost (each builds on the one before);
- a last record that is not whole is a write cut short (only a power cut makes one; a kill
  cannot, the record goes in one write): that change was probably never acknowledged;
- a document whose checksum fails was changed on the disk: it opens, but may differ from
  what was played.

A file cut exactly where a record begins reads as a whole file with fewer changes: nothing
in the bytes tells the two apart (the index entry's `written` length does: repair.py).
Without salvaging (the index, which is rebuilt from the session files), a damaged record
before the last one is a `DamagedFile`, and a damaged last one is ignored, as before.
"""

from __future__ import annotations

import json
import re
import zlib
from types import ModuleType
from typing import Any, NamedTuple

from companion.store.errors import DamagedFile, NewerFile
from companion.text.messages import quoted

try:  # orjson is faster; a phone build may have no wheel for it.
    import orjson as _orjson
except ImportError:  # pragma: no cover - exercised on platforms without orjson
    _orjson = None  # type: ignore[assignment]

orjson: ModuleType | None = _orjson

FORMAT = 2  # the newest format of a file (2: records may put and drop documents), but the index's
NEWEST = {"session": 1, "index": 3}  # kinds whose files are kept at another format (default: FORMAT)
FIRST = {"index": 3}  # the format a new file of a kind is written in (default 1: it grows when it must)
META = "_meta"
CHECKSUM = "crc32"
META_FIELDS = frozenset({"format", "kind", CHECKSUM})
TORN, DAMAGED, ALTERED = "torn", "damaged", "altered"

Data = dict[str, dict[str, Any]]

_ZEROS = b"00000000"
_CHECKSUM_FIELD = b'"' + CHECKSUM.encode() + b'":"'
_HEX8 = re.compile(r"[0-9a-f]{8}")
_RECORD_START = re.compile(rb"[0-9a-f]{8} ")
_CUT_START = re.compile(rb"[0-9a-f]{0,8}")  # the start of a record, cut short before its JSON
_DECODER = json.JSONDecoder()


def newest_format(kind: Any) -> int:
    """The newest format a file of this kind may declare for this version to read it."""
    return NEWEST.get(kind, FORMAT) if isinstance(kind, str) else FORMAT


def first_format(kind: Any) -> int:
    """The format a new file of this kind is written in (a later write raises it if its records need it)."""
    return FIRST.get(kind, 1) if isinstance(kind, str) else 1


def use_orjson(enabled: bool = True) -> str:
    """Choose the serialiser (orjson when installed and enabled, else json); returns its name."""
    global orjson
    orjson = _orjson if enabled else None
    return "orjson" if orjson is not None else "json"


def encode(data: Any) -> bytes:
    if orjson is not None:
        raw: bytes = orjson.dumps(data)
        return raw
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def decode(raw: bytes) -> Any:
    if orjson is not None:
        return orjson.loads(raw)
    return json.loads(raw)


# Where JSON may spell a lone surrogate: an escape of one (a pair is two escapes), or its
# bytes, which the standard json module decodes ("surrogatepass") where orjson refuses them.
_MAYBE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")


def may_hold_lone_surrogate(raw: bytes) -> bool:
    """False when JSON text cannot hold a lone surrogate (nearly always: no look at the parsed value needed).

    Measured with and without, interleaved: a store opened and Home listed at 1,000 games in
    82 ms of CPU instead of 92 ms, at 10,000 in 361 ms instead of 706 ms (each entry encoded
    once more to look for one otherwise)."""
    return _MAYBE_SURROGATE.search(raw) is not None


def holds_lone_surrogate(value: Any) -> bool:
    """Whether any text in a parsed JSON value (keys too) holds half of a UTF-16 pair, which
    no encoder (UTF-8, orjson, msgpack) accepts: such a value must never be written or sent."""
    try:
        json.dumps(value, ensure_ascii=False, check_circular=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (TypeError, ValueError, RecursionError):  # not JSON's shapes: the callers' checks refuse it
        return False
    return False


def document_bytes(data: Data, *, checksum: bool = False) -> bytes:
    """The document as written; with `checksum`, `_meta` first and holding the document's CRC-32."""
    if not checksum:
        return encode(data)
    meta = {**data[META]["1"], CHECKSUM: _ZEROS.decode()}
    return _stamped(encode({META: {"1": meta}, **{name: table for name, table in data.items() if name != META}}))


def single(kind: str, table: str, document: dict[str, Any]) -> Data:
    """A file of one document as TinyDB holds it: `_meta`, then `table` holding it as document 1
    (ui-state.json, quarantine notes, sync's files)."""
    return {META: {"1": {"format": 1, "kind": kind}}, table: {"1": document}}


def single_bytes(kind: str, table: str, document: dict[str, Any]) -> bytes:
    """`single` as ASCII JSON: any number, and any text, even a lone half of a UTF-16 pair (a
    file's name may hold one), is written."""
    return json.dumps(single(kind, table, document), separators=(",", ":")).encode()


def single_of(found: Any, table: str) -> Any:
    """The one document of a file `single_bytes` wrote (None when it has none); what an earlier
    version wrote (the document alone) as it is."""
    if isinstance(found, dict) and META in found and isinstance(found.get(table), dict):
        return found[table].get("1")
    return found


def sealed_bytes(fields: dict[str, Any]) -> bytes:
    """One JSON object whose first field is its own checksum (`"crc32"`, as a session document
    carries one): the CRC-32 of these bytes with those eight digits as zeros (the side files)."""
    return _stamped(
        encode({CHECKSUM: _ZEROS.decode(), **{name: value for name, value in fields.items() if name != CHECKSUM}})
    )


def seal_holds(raw: bytes) -> bool | None:
    """Whether bytes `sealed_bytes` wrote are as written: None when they do not start with a
    checksum (an earlier version's file, or one damaged there), else whether it matches."""
    if not raw.startswith(b"{" + _CHECKSUM_FIELD):
        return None
    return _stamp_holds_at(raw, 1 + len(_CHECKSUM_FIELD))


def stamp_holds(raw: bytes) -> bool | None:
    """Whether the first checksum field of bytes `document_bytes(..., checksum=True)` wrote (in
    `_meta`) is as written: None when there is none (or it is damaged), else whether it matches."""
    at = raw.find(_CHECKSUM_FIELD)
    return None if at < 0 else _stamp_holds_at(raw, at + len(_CHECKSUM_FIELD))


def _stamp_holds_at(raw: bytes, start: int) -> bool | None:
    """Whether the eight hex digits at `start` match (None when they are not eight hex digits then a quote)."""
    if raw[start + 8 : start + 9] != b'"' or not _HEX8.fullmatch(raw[start : start + 8].decode("latin-1")):
        return None
    return _stamp_matches(raw, start)


def _stamped(raw: bytes) -> bytes:
    """`raw` with the zeros of its first checksum field replaced by the CRC-32 of `raw`."""
    start = raw.find(_CHECKSUM_FIELD + _ZEROS) + len(_CHECKSUM_FIELD)
    return raw[:start] + b"%08x" % zlib.crc32(raw) + raw[start + len(_ZEROS) :]


def _stamp_matches(raw: bytes, start: int) -> bool:
    """Whether the eight hex digits at `start` are the CRC-32 of `raw` with them as zeros."""
    zeroed = raw[:start] + _ZEROS + raw[start + len(_ZEROS) :]
    return zlib.crc32(zeroed) == int(raw[start : start + len(_ZEROS)], 16)


class Damage(NamedTuple):
    """What of a file could not be read: its `kind` (TORN, DAMAGED, ALTERED), how many
    appended changes were `lost`, and why, in words."""

    kind: str
    lost: int
    reason: str


class Parsed(NamedTuple):
    data: Data
    records: int  # how many appended records were applied
    damage: Damage | None  # what could not be read (the next change rewrites the file whole)

    @property
    def torn(self) -> bool:
        """The file ends in a record cut short."""
        return self.damage is not None and self.damage.kind == TORN


def check_document(raw: bytes, *, kind: str | None = None, plain: bool = False) -> Data:
    """Parse bytes into a TinyDB document (its appended records applied); `DamagedFile` or `NewerFile`."""
    return parse_file(raw, kind=kind, plain=plain).data


def parse_file(raw: bytes, *, kind: str | None = None, plain: bool = False, salvage: bool = False) -> Parsed:
    """A file's document with its appended records applied; `DamagedFile` or `NewerFile`.

    `plain`: parse with the standard json module even where orjson is installed (see
    `FolderStorage`). `salvage`: read what can be read of a damaged file and say what could
    not be (`Parsed.damage`) rather than refuse it (see the module's docstring)."""
    if not raw:
        raise DamagedFile("the file is empty")
    end = _document_end(raw)
    try:
        document = _decode_json(raw[:end], plain)
    except DamagedFile:
        found = _json_end(raw[:end]) if salvage else None  # a damaged line break or checksum after it
        if found is None:
            raise
        end, document = found, _decode_json(raw[:found], plain)
    data = check_tables(document, kind)
    altered = _altered(raw[:end], data) if salvage else None
    records, damage = _apply_records(data, raw[end:], plain, salvage)
    if altered is not None and damage is not None:
        damage = damage._replace(reason=f"{altered.reason}; {damage.reason}")
    return Parsed(data, records, damage or altered)


def split_records(raw: bytes, *, plain: bool = True) -> tuple[bytes, list[dict[str, Any]]] | None:
    """A file's document (its bytes) and its records, parsed, when every record is whole and
    checks; None otherwise (the general reading, `parse_file`, says what is wrong)."""
    end = _document_end(raw)
    tail = raw[end:]
    if not tail:
        return raw, []
    if not tail.startswith(b"\n"):
        return None
    records = []
    for line in tail[1:].split(b"\n"):
        try:
            record = _record(line, plain)
        except DamagedFile:
            return None
        if record is None:
            return None
        records.append(record)
    return raw[:end], records


def _document_end(raw: bytes) -> int:
    """Where the document ends: at the first line that opens a record (a document never holds one)."""
    position = raw.find(b"\n")
    while position != -1:
        if _RECORD_START.fullmatch(raw, position + 1, position + 10) or _CUT_START.fullmatch(raw, position + 1):
            return position
        position = raw.find(b"\n", position + 1)  # a document written with line breaks by hand
    return len(raw)


def _json_end(raw: bytes) -> int | None:
    """Where a JSON value at the start of `raw` ends (in bytes), whatever follows it; None when none does."""
    text = raw.decode("utf-8", "surrogateescape")
    try:
        _, end = _DECODER.raw_decode(text)
    except (ValueError, RecursionError):
        return None
    return len(text[:end].encode("utf-8", "surrogateescape"))


def _altered(document: bytes, data: Data) -> Damage | None:
    """ALTERED when the document's own checksum (if it has one) does not match its bytes."""
    meta = data.get(META, {}).get("1")
    if meta is None:
        return None
    changed = Damage(ALTERED, 0, "its saved game does not match its checksum")
    if set(meta) - META_FIELDS:  # a flipped bit in the marker's own names
        return changed
    value = meta.get(CHECKSUM)
    if value is None:  # written before documents carried a checksum
        return None
    if not isinstance(value, str) or not _HEX8.fullmatch(value):
        return changed
    at = document.find(_CHECKSUM_FIELD + value.encode() + b'"')
    if at < 0:
        return changed
    return None if _stamp_matches(document, at + len(_CHECKSUM_FIELD)) else changed


def _apply_records(data: Data, tail: bytes, plain: bool, salvage: bool) -> tuple[int, Damage | None]:
    """Apply the records after the document (`tail` starts with the line break of the first)."""
    if not tail:
        return 0, None
    whole_break = tail.startswith(b"\n")
    lines = (tail[1:] if whole_break else tail).split(b"\n")
    for number, line in enumerate(lines):
        try:
            record = _record(line, plain) if whole_break or number else None
            if record is not None:
                apply_record(data, record)
                continue
        except DamagedFile as error:  # a record that checks but is not one, or does not fit
            if not salvage:
                raise
            return number, Damage(DAMAGED, _lost(lines, number), error.reason)
        last = number == len(lines) - 1
        if not salvage and not last:
            raise DamagedFile(f"the change recorded in line {number + 2} is damaged")
        if last and (not salvage or not _whole(line)):
            return number, Damage(TORN, 1, "its last change was cut short")
        return number, Damage(DAMAGED, _lost(lines, number), f"the change recorded in line {number + 2} is damaged")
    return len(lines), None


def _lost(lines: list[bytes], number: int) -> int:
    """The changes lost from line `number` on: it, and each later line that starts as a record
    (the rest is part of one that a flipped bit cut in two)."""
    return 1 + sum(1 for later in lines[number + 1 :] if _RECORD_START.match(later))


def _whole(line: bytes) -> bool:
    """Whether a line that is not a record still holds a whole one's JSON (damaged, not cut short)."""
    space = line.find(b" ")
    if space < 0:
        return False
    try:
        return isinstance(json.loads(line[space + 1 :]), dict)
    except (ValueError, RecursionError):
        return False


def _decode_json(raw: bytes, plain: bool = False) -> Any:
    try:
        return json.loads(raw) if plain else decode(raw)
    except (ValueError, UnicodeDecodeError) as error:
        raise DamagedFile(f"it is not valid JSON ({quoted(str(error))})") from error
    except RecursionError as error:  # the standard json module on very deeply nested data
        raise DamagedFile("it is nested too deeply to be a Companion file") from error


def check_tables(data: Any, kind: str | None) -> Data:
    if not isinstance(data, dict):
        raise DamagedFile("it is not a set of tables")
    for name, table in data.items():
        if not isinstance(table, dict) or not all(isinstance(doc, dict) for doc in table.values()):
            raise DamagedFile(f"table {_shown(name)} is not a set of documents")
    meta = data.get(META, {}).get("1")
    if meta is not None:
        found = meta.get("format")
        if isinstance(found, bool) or not isinstance(found, int) or found < 1:
            raise DamagedFile(f"its format {_shown(found)} is not a version number")
        newest = newest_format(meta.get("kind") if kind is None else kind)
        if found > newest:
            raise NewerFile(found, newest)
        if kind is not None and meta.get("kind") != kind:
            raise DamagedFile(f"it is a {_shown(meta.get('kind'))} file, not a {kind!r} file")
    elif kind is not None:
        raise DamagedFile("it has no Companion format marker")
    return data


def _shown(value: Any) -> str:
    """A value as a reason quotes it: never more than a short line (see `messages.quoted`)."""
    try:
        return quoted(repr(value))
    except ValueError:  # an integer too long for Python to print
        return "a number too long to show"


def record_line(record: dict[str, Any]) -> bytes:
    """One appended record as written: a newline, its checksum, its JSON."""
    payload = encode(record)
    return b"\n%08x " % zlib.crc32(payload) + payload


def _record(line: bytes, plain: bool = False) -> dict[str, Any] | None:
    """The record in a line, or None when the line is not a whole record (its checksum fails)."""
    if len(line) < 10 or not _RECORD_START.fullmatch(line, 0, 9):
        return None
    payload = line[9:]
    if zlib.crc32(payload) != int(line[:8], 16):
        return None
    record = _decode_json(payload, plain)
    if not isinstance(record, dict):
        raise DamagedFile("a recorded change is not a set of fields")
    return record


def apply_record(data: Data, record: dict[str, Any]) -> None:
    """Apply one record to a document in place: `set` fields, `splice` lists (keep the first n, add items),
    `put` a whole document or `drop` one.

    Lists are replaced, never changed in place: a list may be shared with whoever wrote it.
    """
    if "put" in record or "drop" in record:
        _put_or_drop(data, record)
        return
    try:
        doc = data[record["table"]][record["doc"]]
        updates: dict[str, Any] = {}
        for field, (keep, items) in record.get("splice", {}).items():
            current = doc[field]
            if not isinstance(current, list) or type(keep) is not int or not 0 <= keep <= len(current):
                raise DamagedFile(f"a recorded change cuts {_shown(field)} where it cannot")
            if not isinstance(items, list):
                raise DamagedFile(f"a recorded change adds to {_shown(field)} what is not a list")
            updates[field] = current[:keep] + items
        updates.update(record.get("set", {}))
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise DamagedFile(f"a recorded change does not fit its document ({quoted(str(error))})") from error
    doc.update(updates)


def _put_or_drop(data: Data, record: dict[str, Any]) -> None:
    table, doc_id = record.get("table"), record.get("doc")
    if not isinstance(table, str) or not isinstance(doc_id, str) or table == META:
        raise DamagedFile("a recorded change names no document")
    if set(record) - {"table", "doc", "put", "drop"} or ("put" in record) == ("drop" in record):
        raise DamagedFile("a recorded change both puts and changes a document")
    if "drop" in record:
        if record["drop"] is not True or doc_id not in data.get(table, {}):
            raise DamagedFile("a recorded change removes a document that is not there")
        del data[table][doc_id]
        return
    document = record["put"]
    if not isinstance(document, dict):
        raise DamagedFile("a recorded change puts what is not a document")
    data.setdefault(table, {})[doc_id] = document

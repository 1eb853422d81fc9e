"""The storage: TinyDB's `Storage` for a Companion file, each write one appended record.

Every file the store saves is a TinyDB file, and opens with TinyDB and this class::

    from tinydb import TinyDB
    from companion.store import JournalStorage

    game = TinyDB("sessions/<id>.json", storage=JournalStorage).table("session").get(doc_id=1)
    TinyDB("sessions/<id>.json").table("session").get(doc_id=1)   # once compacted: plain TinyDB

The store writes through TinyDB's table API (`insert`, `update`, `remove`); `write` does not
rewrite the file: it compares the data TinyDB gives it with what the file holds
(`changes.py`) and appends what changed as one checksummed record per document (one write,
one fdatasync; the bytes are in `file_format.py`). A reader applies the records to the
document, so what it reads is what TinyDB last wrote.

A file is rewritten whole (temporary file, fsync, rename, folder fsync: a reader sees the
old file or the new one, never a mixture) when a record could not say the change (a table
added, `_meta` changed), when a record would be bigger than the file, when the file holds
`COMPACT_EVERY` records, and when asked to (`rewrite_next`: the store does it at a game's
first change once it is opened, so a game saved by an earlier version is saved again as
this version writes it, with its checksum). Nothing is rewritten in the background: what
the records a file piles up cost where a goal looks was measured against the same file
compacted, and was nothing (tests/bench/README.md, compaction.py).

The file's data stays in memory between writes and is reused while the file's identity
(inode, size, mtime, ctime) is the one last seen. A read lends TinyDB documents whose
lists and dicts are copied when looked at (`changes.Lent`), so the cached data only ever
changes by a write. Values given to a write are kept as they are: the store never changes
one in place afterwards. A tap's write gives the game's whole log, a new list of the very
same events, so finding what it kept is one comparison by identity (changes.py); a shortcut
that appended the record without TinyDB saved 0.03 ms a tap at 1,000 events and 0.1 ms at
10,000 (tests/bench/append_path.py) and is gone.

`salvage` (session files): a file whose end or document checksum cannot be read opens with
what can be; `damage` says what was lost and `damaged_bytes` holds the file as it was until
the next write replaces it whole. A file of a newer format raises `NewerFile` and is never
written.
"""

from __future__ import annotations

import errno
import os
import threading
from typing import Any

from tinydb.storages import Storage

from companion.store.changes import changes, lent, plain
from companion.store.errors import DamagedFile
from companion.store.file_format import (
    META,
    Damage,
    Data,
    check_document,
    decode,
    document_bytes,
    encode,
    first_format,
    newest_format,
    parse_file,
    record_line,
    use_orjson,
)
from companion.store.folders import DiskFolder, Folder, MemoryFolder, Signature, _DiskLock  # noqa: F401

__all__ = [  # the storage, and what this module has always offered beside it
    "COMPACT_EVERY",
    "DamagedFile",
    "DiskFolder",
    "Folder",
    "JournalStorage",
    "MemoryFolder",
    "Signature",
    "check_document",
    "decode",
    "encode",
    "parse_file",
    "record_line",
    "use_orjson",
]


COMPACT_EVERY = 128  # records a file may hold: the write after them rewrites it whole, on the tap's path


class JournalStorage(Storage):
    """TinyDB's storage for a Companion file: `TinyDB(path, storage=JournalStorage)`.

    `kind` ("session", "index") is written into `_meta` and, when given, required on read.
    The store builds its storages on a `folder` (disk or memory), with `path` the file's
    name in it; `durable=False` skips the fsyncs (bulk imports and benchmarks only).
    """

    def __init__(
        self,
        path: str | os.PathLike[str] = "db.json",
        kind: str | None = None,
        *,
        durable: bool = True,
        folder: Folder | None = None,
        salvage: bool = False,
        plain: bool = False,
    ) -> None:
        if folder is None:
            directory, name = os.path.split(os.path.abspath(path))
            folder = DiskFolder(directory, durable=durable)
        else:
            name = os.fspath(path)
        self.folder = folder
        self.name = name
        self.kind = kind
        self.salvage = salvage
        # True: parse with the standard json module (see `parse_file`).
        self.plain = plain
        self._lock = threading.RLock()
        self._data: Data | None = None  # what the file holds, as last read or written
        self._signature: Signature | None = None
        self._records = 0  # records appended after the document in the file
        self._format = first_format(kind)  # the format the file declares
        self._whole_next = False
        # The cached data is what this object last wrote (a file read may hold what a failed write left).
        self._written = False
        self.closed = False  # set by the store when it lets the file go: no background rewrite after it
        self.damage: Damage | None = None  # what of the file as read could not be (a record cut short, ...)
        self.damaged_bytes: bytes | None = None  # the file as read, while `damage` says something was lost

    # ------------------------------------------------------------------ reading

    def read(self) -> Data | None:
        with self._lock:
            data = self._known()
            return None if data is None else lent(data)

    def _known(self) -> Data | None:
        """The file's data: kept while the file is the one last seen, else read again."""
        signature = self.folder.stat(self.name)
        if signature is None:
            self.forget()
            return None
        if self._data is not None and signature == self._signature:
            return self._data
        raw = self.folder.read(self.name)
        if raw is None:  # removed between stat and read
            self.forget()
            return None
        parsed = parse_file(raw, kind=self.kind, plain=self.plain, salvage=self.salvage)
        self._data, self._signature, self._records, self._written = parsed.data, signature, parsed.records, False
        self._format = parsed.data.get(META, {}).get("1", {}).get("format", 1)
        self.damage = parsed.damage
        self.damaged_bytes = raw if parsed.damage is not None and self.salvage else None
        self._whole_next = self._whole_next or parsed.damage is not None
        return parsed.data

    @property
    def signature(self) -> Signature | None:
        """The identity of the file as last read or written (None before either)."""
        return self._signature

    @property
    def records(self) -> int:
        """How many records follow the file's document."""
        return self._records

    # ------------------------------------------------------------------ writing

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        with self._lock:
            data = plain(data)
            self._mark(data)
            base = self._data
            if base is None or self._signature is None or self._signature != self.folder.stat(self.name):
                self._refuse_newer()  # not the file last read: never overwrite a newer one
                base = None
            if base is None or self._whole_next or self._records >= COMPACT_EVERY:
                self._write_whole(data)
                return
            records = changes(base, data, puts=True)
            if records == []:
                self._data = data  # the same content: nothing to write
                return
            if records is None:  # a table added or removed, the marker changed: only a whole file says it
                self._write_whole(data)
                return
            if self._format < 2 and any("put" in record or "drop" in record for record in records):
                # Documents that come and go need format 2: the file is written whole in it (where its kind may be).
                self._write_whole(data, max(self._format, min(2, newest_format(self._kind_of(data)))))
                return
            lines = b"".join(record_line(record) for record in records)
            if self._signature is not None and len(lines) > self._signature[1]:
                self._write_whole(data)  # a change of most of the file: say it whole
                return
            self._append(lines, data, len(records))

    def _kind_of(self, data: Data) -> Any:
        return self.kind if self.kind is not None else data.get(META, {}).get("1", {}).get("kind")

    def _mark(self, data: Data) -> None:
        """Give data without a `_meta` table this file's format marker."""
        meta = data.get(META)
        if not meta or "1" not in meta:
            data[META] = {
                "1": {"format": self._format} if self.kind is None else {"format": self._format, "kind": self.kind}
            }

    def _append(self, lines: bytes, data: Data, count: int) -> None:
        try:
            self.folder.append(self.name, lines)
        except BaseException:
            self.forget()  # the next read looks at what the disk holds
            raise
        self._data, self._signature, self._written = data, self.folder.stat(self.name), True
        self._records += count

    def _write_whole(self, data: Data, version: int | None = None) -> None:
        version = self._format if version is None else version
        meta = data[META]["1"]
        if meta.get("format") != version:
            data[META] = {"1": {**meta, "format": version}}
        try:
            self.folder.write(self.name, document_bytes(data, checksum=self.salvage))
        except BaseException:
            self.forget()
            raise
        self._data, self._signature, self._format, self._written = data, self.folder.stat(self.name), version, True
        self._records, self._whole_next, self.damage, self.damaged_bytes = 0, False, None, None

    def _refuse_newer(self) -> None:
        raw = self.folder.read(self.name)
        if raw:
            try:
                check_document(raw, plain=self.plain)
            except DamagedFile:
                return
            # NewerFile propagates: never overwrite a file from a newer version.

    def rewrite_next(self) -> None:
        """Have the next write rewrite the file whole (then records again)."""
        with self._lock:
            self._whole_next = True

    def set_mtime(self, mtime_ns: int) -> None:
        """Give the file this modification time, keeping the cached data."""
        with self._lock:
            self.folder.set_mtime(self.name, mtime_ns)
            if self._data is not None:
                self._signature = self.folder.stat(self.name)

    def forget(self) -> None:
        """Drop the cached data; the next read parses the file again."""
        with self._lock:
            self._data, self._signature, self._written = None, None, False
            self._records, self.damage, self.damaged_bytes = 0, None, None

    def close(self) -> None:
        return None

    # ------------------------------------------------------------------ compaction

    def compact(self) -> None:
        """Rewrite the file whole now, as it is (its records folded into its document)."""
        with self._lock:
            data = self._known()
            if data is None:
                raise FileNotFoundError(errno.ENOENT, "the file has disappeared", self.name)
            self._write_whole(dict(data))

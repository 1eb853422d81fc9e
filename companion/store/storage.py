"""TinyDB storages that survive a kill at any instant, and their in-memory twin.

`AtomicJSONStorage` replaces TinyDB's `JSONStorage`. Every write goes to a temporary file
in the same folder, is flushed and fsync'ed, then renamed over the old file with
`os.replace`, and the folder itself is fsync'ed; no handle stays open between calls
(Windows cannot replace an open file). A reader therefore sees either the old or the new
document, never a mixture, even after a power cut. The parsed document stays in memory
between writes and is reused as long as the file's identity (inode, size, mtime, ctime)
has not changed, so a write costs one serialisation and one small file, not a parse.

A file may also grow at the end: `FolderStorage.append` adds one record (a change to one
document: fields set, a list cut and extended) with one write and one fsync, instead of
rewriting the whole file. Each record is a checksummed line after the document (the bytes
are described in `file_format.py`). After `COMPACT_EVERY` records, or when a record that
cannot be read is found, the next change rewrites the whole file atomically (compaction),
so a reader never replays more than that many records. A storage that `salvage`s (session
files) opens what can be read of a damaged file and keeps its bytes and what was lost
(`damage`, `damaged_bytes`) for the store to set aside before anything rewrites it.

`MemoryStorage` behaves the same without a disk: it keeps the serialised bytes (so that
the in-memory store refuses exactly what the disk store refuses) in a `MemoryFolder`.

Both are thin `Storage` classes over a *folder*: `DiskFolder` and `MemoryFolder` offer the
handful of file operations the store needs (atomic write, read, stat, scan, move, remove,
lock), so the store itself runs unchanged against either.

Every file carries a format version in a `_meta` table (`{"1": {"format": 1, "kind": ...}}`).
A file declaring a newer format raises `NewerFile` on read and is never written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from tinydb.storages import Storage

from companion.store.errors import DamagedFile
from companion.store.file_format import (  # noqa: F401 - the file format, as this module has always offered it
    FORMAT,
    META,
    Damage,
    Data,
    Parsed,
    apply_record,
    check_document,
    check_tables,
    decode,
    document_bytes,
    encode,
    holds_lone_surrogate,
    may_hold_lone_surrogate,
    parse_file,
    record_line,
    use_orjson,
)

COMPACT_EVERY = 128  # appended records before the next change rewrites the whole file


# --------------------------------------------------------------------------- folders


# (inode or write number, size, mtime in ns, ctime in ns): the ctime changes with every
# rewrite, so a file rewritten in place with the same size and mtime is still told apart.
Signature = tuple[int, int, int, int]


class Entry(NamedTuple):
    name: str
    mtime: float  # seconds since the epoch
    size: int


class Lock(Protocol):
    def acquire(self, timeout: float) -> bool:
        """True when acquired; False when another holder kept it for `timeout` seconds (0: one try)."""

    def release(self) -> None: ...


class Folder(Protocol):
    """The file operations a store needs; names are relative paths using '/'."""

    def read(self, name: str) -> bytes | None: ...

    def write(self, name: str, data: bytes) -> None: ...

    def append(self, name: str, data: bytes) -> None:
        """Add `data` at the end of an existing file, durably; on failure the file is as it was (if the disk allows)."""

    def stat(self, name: str) -> Signature | None: ...

    def scan(self, sub: str) -> list[Entry]: ...

    def names(self, sub: str) -> list[str]:
        """File names in `sub` without looking at each file (cheaper than `scan`)."""

    def signatures(self, sub: str) -> dict[str, Signature]:
        """`stat` of every file in `sub`, by name, in one pass over the folder."""

    def remove(self, name: str) -> None: ...

    def set_mtime(self, name: str, mtime_ns: int) -> None:
        """Give an existing file this modification time (nanoseconds since the epoch)."""

    def move(self, source: str, target: str) -> None: ...

    def exists(self, name: str) -> bool: ...

    def lock(self, name: str) -> Lock: ...

    def ensure(self, sub: str) -> None: ...

    def probe(self, sub: str) -> None:
        """Raise OSError unless a file can be created (and removed) in the folder `sub`."""


def _fsync_directory(path: str) -> None:
    """Flush a folder after a rename, unlink or mkdir in it; never raises.

    It runs after the change is made and visible to every reader, now and after a
    restart. A folder that then refuses the flush (some filesystems cannot; a failing disk
    says EIO) cannot take the change back, and reporting it as not made would be false:
    the change stands, exposed to a power cut in this instant as it was just before.
    """
    if os.name == "nt":  # Windows has no directory handles to flush; NTFS journals the rename.
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _flush(fd: int) -> None:
    if sys.platform in ("darwin", "ios"):  # fsync on Apple systems does not reach the platter
        import fcntl

        try:
            fcntl.fcntl(fd, fcntl.F_FULLFSYNC)
            return
        except OSError:
            pass
    os.fsync(fd)


def _flush_data(fd: int) -> None:
    """Flush a file's bytes and size (what an append changes); its times may follow later."""
    if sys.platform in ("darwin", "ios") or not hasattr(os, "fdatasync"):
        _flush(fd)
    else:
        os.fdatasync(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


WINDOWS = os.name == "nt"


def _patiently(action: Any, *args: str) -> None:
    """Run a file operation, retrying for a moment on Windows while a reader has the file open."""
    for attempt in range(20):
        try:
            action(*args)
            return
        except PermissionError:
            if not WINDOWS or attempt == 19:
                raise
            time.sleep(0.01)


def _replace(source: str, target: str) -> None:
    _patiently(os.replace, source, target)


class DiskFolder:
    """Atomic, durable file operations under one directory."""

    def __init__(self, root: str | os.PathLike[str], *, durable: bool = True) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.durable = durable

    def path(self, name: str) -> str:
        return os.path.join(self.root, *name.split("/"))

    def ensure(self, sub: str) -> None:
        path = self.path(sub)
        if not os.path.isdir(path):
            os.makedirs(path, exist_ok=True)
            if self.durable:
                _fsync_directory(os.path.dirname(path))

    def probe(self, sub: str) -> None:
        directory = self.path(sub)
        if not os.path.isdir(directory):
            raise NotADirectoryError(errno.ENOTDIR, "not a folder", directory)
        probe = os.path.join(directory, f".probe.{secrets.token_hex(4)}.tmp")
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        os.unlink(probe)

    def read(self, name: str) -> bytes | None:
        path = self.path(name)
        try:
            # Non-blocking, so that a pipe put in a file's place cannot hang the app.
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            return None
        try:
            kind = os.fstat(fd).st_mode
            if stat.S_ISDIR(kind):
                raise IsADirectoryError(errno.EISDIR, "is a folder", path)
            if not stat.S_ISREG(kind):  # a device or a pipe: never a Companion file
                raise OSError(errno.EINVAL, "not an ordinary file", path)
        except BaseException:
            os.close(fd)
            raise
        with open(fd, "rb", closefd=True) as file:
            return file.read()

    def write(self, name: str, data: bytes) -> None:
        target = self.path(name)
        directory, base = os.path.split(target)
        temp = os.path.join(directory, f".{base}.{secrets.token_hex(4)}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
        try:
            try:
                _write_all(fd, data)
                if self.durable:
                    _flush(fd)
            finally:
                os.close(fd)
            _replace(temp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
        if self.durable:
            _fsync_directory(directory)

    def append(self, name: str, data: bytes) -> None:
        path = self.path(name)
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path, flags)
        try:
            kind = os.fstat(fd)
            if not stat.S_ISREG(kind.st_mode):
                raise OSError(errno.EINVAL, "not an ordinary file", path)
            try:
                _write_all(fd, data)
                if self.durable:
                    _flush_data(fd)
            except BaseException:
                # Take back what reached the file: a change reported as not saved must not
                # reappear (a part of a record would be ignored, a whole one would not).
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, kind.st_size)
                    if self.durable:
                        _flush_data(fd)
                raise
        finally:
            os.close(fd)

    def stat(self, name: str) -> Signature | None:
        try:
            result = os.stat(self.path(name))
        except FileNotFoundError:
            return None
        return (result.st_ino, result.st_size, result.st_mtime_ns, result.st_ctime_ns)

    def _file_stats(self, sub: str) -> Iterator[tuple[str, os.stat_result]]:
        try:
            iterator = os.scandir(self.path(sub))
        except FileNotFoundError:
            return
        with iterator:
            for item in iterator:
                try:
                    if item.is_file():
                        yield item.name, item.stat()
                except FileNotFoundError:  # removed while scanning
                    continue

    def scan(self, sub: str) -> list[Entry]:
        return [Entry(name, result.st_mtime_ns / 1e9, result.st_size) for name, result in self._file_stats(sub)]

    def names(self, sub: str) -> list[str]:
        try:
            with os.scandir(self.path(sub)) as iterator:
                return [item.name for item in iterator if item.is_file()]
        except FileNotFoundError:
            return []

    def signatures(self, sub: str) -> dict[str, Signature]:
        return {name: (result.st_ino, result.st_size, result.st_mtime_ns, result.st_ctime_ns)
                for name, result in self._file_stats(sub)}

    def remove(self, name: str) -> None:
        try:
            _patiently(os.unlink, self.path(name))
        except FileNotFoundError:
            return
        if self.durable:
            _fsync_directory(os.path.dirname(self.path(name)))

    def set_mtime(self, name: str, mtime_ns: int) -> None:
        path = self.path(name)
        os.utime(path, ns=(os.stat(path).st_atime_ns, mtime_ns))

    def move(self, source: str, target: str) -> None:
        _replace(self.path(source), self.path(target))
        if self.durable:
            _fsync_directory(os.path.dirname(self.path(target)))
            _fsync_directory(os.path.dirname(self.path(source)))

    def exists(self, name: str) -> bool:
        return os.path.exists(self.path(name))

    def lock(self, name: str) -> Lock:
        return _DiskLock(self.path(name))


class _DiskLock:
    """An OS-level lock (flock / LockFileEx via `filelock`): the OS drops it when the process dies."""

    def __init__(self, path: str) -> None:
        import filelock

        self._timeout_error = filelock.Timeout
        self._lock = filelock.FileLock(path, thread_local=False)

    def acquire(self, timeout: float) -> bool:
        try:
            if timeout <= 0:
                self._lock.acquire(blocking=False)
            else:
                self._lock.acquire(timeout=timeout, poll_interval=0.01)
        except self._timeout_error:
            return False
        return True

    def release(self) -> None:
        if self._lock.is_locked:
            # The OS lock goes with its file handle; a lock file that cannot be tidied is harmless.
            with contextlib.suppress(OSError):
                self._lock.release(force=True)


class MemoryFolder:
    """The in-memory twin of `DiskFolder`: same operations, same refusals, no disk.

    Two stores sharing one `MemoryFolder` behave like two processes sharing a directory
    (their locks exclude each other).
    """

    def __init__(self) -> None:
        self.files: dict[str, tuple[bytes, Signature]] = {}
        self._writes = 0
        self._holders: dict[str, object] = {}
        self._mutex = threading.Lock()

    def ensure(self, sub: str) -> None:
        return None

    def probe(self, sub: str) -> None:
        return None

    def read(self, name: str) -> bytes | None:
        item = self.files.get(name)
        return None if item is None else item[0]

    def write(self, name: str, data: bytes) -> None:
        with self._mutex:
            self._writes += 1
            now = time.time_ns()
            self.files[name] = (bytes(data), (self._writes, len(data), now, now))

    def append(self, name: str, data: bytes) -> None:
        with self._mutex:
            if name not in self.files:
                raise FileNotFoundError(errno.ENOENT, "no such file", name)
            self._writes += 1
            now = time.time_ns()
            content = self.files[name][0] + bytes(data)
            self.files[name] = (content, (self._writes, len(content), now, now))

    def stat(self, name: str) -> Signature | None:
        item = self.files.get(name)
        return None if item is None else item[1]

    def scan(self, sub: str) -> list[Entry]:
        prefix = sub.rstrip("/") + "/" if sub else ""
        return [
            Entry(name[len(prefix) :], signature[2] / 1e9, signature[1])
            for name, (_, signature) in list(self.files.items())
            if name.startswith(prefix) and "/" not in name[len(prefix) :]
        ]

    def names(self, sub: str) -> list[str]:
        return [entry.name for entry in self.scan(sub)]

    def signatures(self, sub: str) -> dict[str, Signature]:
        prefix = sub.rstrip("/") + "/" if sub else ""
        return {name[len(prefix):]: signature for name, (_, signature) in list(self.files.items())
                if name.startswith(prefix) and "/" not in name[len(prefix):]}

    def remove(self, name: str) -> None:
        self.files.pop(name, None)

    def set_mtime(self, name: str, mtime_ns: int) -> None:
        with self._mutex:
            if name not in self.files:
                raise FileNotFoundError(errno.ENOENT, "no such file", name)
            data, (number, size, _, _) = self.files[name]
            self.files[name] = (data, (number, size, mtime_ns, time.time_ns()))

    def move(self, source: str, target: str) -> None:
        with self._mutex:
            if source not in self.files:
                raise FileNotFoundError(errno.ENOENT, "no such file", source)
            self.files[target] = self.files.pop(source)

    def exists(self, name: str) -> bool:
        return name in self.files

    def lock(self, name: str) -> Lock:
        return _MemoryLock(self, name)

    def _try(self, name: str, owner: object) -> bool:
        with self._mutex:
            holder = self._holders.get(name)
            if holder is None or holder is owner:
                self._holders[name] = owner
                return True
            return False

    def _free(self, name: str, owner: object) -> None:
        with self._mutex:
            if self._holders.get(name) is owner:
                del self._holders[name]


class _MemoryLock:
    def __init__(self, folder: MemoryFolder, name: str) -> None:
        self._folder = folder
        self._name = name
        self._held = False

    def acquire(self, timeout: float) -> bool:
        deadline = time.monotonic() + max(timeout, 0)
        while not self._folder._try(self._name, self):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        self._held = True
        return True

    def release(self) -> None:
        if self._held:
            self._folder._free(self._name, self)
            self._held = False


# --------------------------------------------------------------------------- storages


class FolderStorage(Storage):
    """A TinyDB storage for one file of a `Folder`, cached in memory between writes.

    `kind` (e.g. "session") is written into the `_meta` table and, when given, required
    on read. `read()` raises `DamagedFile` for bytes that are not a TinyDB document and
    `NewerFile` for a newer format; `write()` refuses to overwrite a newer file.
    `append()` records a change to one document at the end of the file.

    `salvage` (session files): a file whose end (or whose document's checksum) cannot be read
    opens with what can be; `damage` says what was lost and `damaged_bytes` holds the file as
    it was, until the next write replaces it. The document is written with its checksum.
    """

    def __init__(self, folder: Folder, name: str, kind: str | None = None, *, keep: bool = True,
                 plain: bool = False, salvage: bool = False) -> None:
        self.folder = folder
        self.name = name
        self.kind = kind
        self.keep = keep  # False: parse the file on every read rather than hold the document in memory
        # True: parse with the standard json module. orjson keeps the short keys it has met
        # (a cache of its own) and with them the memory they sit in: after parsing a file of
        # thousands of small objects, most of that memory stays with the process.
        self.plain = plain
        self.salvage = salvage
        self._cache: Data | None = None
        self._signature: Signature | None = None
        self._records = 0  # records appended after the document in the file
        self.damage: Damage | None = None  # what of the file as read could not be (a record cut short, ...)
        self.damaged_bytes: bytes | None = None  # the file as read, while `damage` says something was lost

    def read(self) -> Data | None:
        signature = self.folder.stat(self.name)
        if signature is None:
            self.forget()
            return None
        if self._cache is not None and signature == self._signature:
            return self._cache
        raw = self.folder.read(self.name)
        if raw is None:  # removed between stat and read
            self.forget()
            return None
        parsed = parse_file(raw, kind=self.kind, plain=self.plain, salvage=self.salvage)
        self._cache, self._signature = parsed.data if self.keep else None, signature
        self._records, self.damage = parsed.records, parsed.damage
        self.damaged_bytes = raw if parsed.damage is not None and self.salvage else None
        return parsed.data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        checked = self._cache is not None and data is self._cache
        if not checked and not (not self.keep and self._signature is not None
                                and self._signature == self.folder.stat(self.name)):
            self._refuse_newer()  # unless the file is the one last read (and found of a known format)
        meta = data.get(META)
        if not meta or "1" not in meta:
            data[META] = {"1": {"format": FORMAT} if self.kind is None else {"format": FORMAT, "kind": self.kind}}
        try:
            raw = document_bytes(data, checksum=self.salvage)
            self.folder.write(self.name, raw)
        except BaseException:
            # TinyDB changed the cached document in place before calling write; the disk
            # still holds the previous version, so the next read must come from the disk.
            self.forget()
            raise
        self._cache, self._signature = data if self.keep else None, self.folder.stat(self.name)
        self._records, self.damage, self.damaged_bytes = 0, None, None

    def read_bytes(self) -> bytes | None:
        """The file's bytes as they are (None when it is missing), for a caller that reads
        them its own way; a `write_bytes` right after needs no second look at the file."""
        signature = self.folder.stat(self.name)
        raw = None if signature is None else self.folder.read(self.name)
        self._cache, self._signature = None, None if raw is None else signature
        self._records, self.damage, self.damaged_bytes = 0, None, None
        return raw

    def write_bytes(self, raw: bytes) -> None:
        """Replace the file with `raw`: a whole document of this format, encoded by the caller
        from what `read_bytes` gave (a file of a newer format is refused, as by `write`)."""
        if self._signature is None or self._signature != self.folder.stat(self.name):
            self._refuse_newer()
        try:
            self.folder.write(self.name, raw)
        except BaseException:
            self.forget()  # the next read looks at what the disk holds
            raise
        self._cache, self._signature = None, self.folder.stat(self.name)
        self._records, self.damage, self.damaged_bytes = 0, None, None

    def append(self, table: str, doc_id: str, *, fields: dict[str, Any] | None = None,
               splice: dict[str, tuple[int, list[Any]]] | None = None) -> None:
        """Change one existing document: set `fields`, and for each list in `splice` keep its first n items
        and add the given ones. One appended record (one write, one fsync), or the whole file rewritten
        when it is time to compact it."""
        record: dict[str, Any] = {"table": table, "doc": doc_id}
        if fields:
            record["set"] = fields
        if splice:
            record["splice"] = {field: [keep, items] for field, (keep, items) in splice.items()}
        data = self.read()
        if data is None:
            raise FileNotFoundError(errno.ENOENT, "the file has disappeared", self.name)
        if self.damage is not None or self._records >= COMPACT_EVERY:
            apply_record(data, record)
            self.write(data)
            return
        try:
            self.folder.append(self.name, record_line(record))
        except BaseException:
            self.forget()  # the next read looks at what the disk holds
            raise
        apply_record(data, record)
        self._signature = self.folder.stat(self.name)
        self._records += 1

    @property
    def signature(self) -> Signature | None:
        """The identity of the file as last read or written (None before either)."""
        return self._signature

    def set_mtime(self, mtime_ns: int) -> None:
        """Give the file this modification time, keeping the cached document."""
        self.folder.set_mtime(self.name, mtime_ns)
        if self._cache is not None:
            self._signature = self.folder.stat(self.name)

    def _refuse_newer(self) -> None:
        raw = self.folder.read(self.name)
        if raw:
            try:
                check_document(raw, plain=self.plain)
            except DamagedFile:
                return
            # NewerFile propagates: never overwrite a file from a newer version.

    def forget(self) -> None:
        """Drop the cached document; the next read parses the file again."""
        self._cache, self._signature = None, None
        self._records, self.damage, self.damaged_bytes = 0, None, None

    def close(self) -> None:
        return None


class AtomicJSONStorage(FolderStorage):
    """Drop-in replacement for TinyDB's `JSONStorage`: `TinyDB(path, storage=AtomicJSONStorage)`."""

    def __init__(self, path: str | os.PathLike[str], kind: str | None = None, *, durable: bool = True) -> None:
        directory, name = os.path.split(os.path.abspath(path))
        super().__init__(DiskFolder(directory, durable=durable), name, kind)


class MemoryStorage(FolderStorage):
    """The in-memory twin of `AtomicJSONStorage`: `TinyDB(storage=MemoryStorage)`."""

    def __init__(self, folder: MemoryFolder | None = None, name: str = "db.json", kind: str | None = None) -> None:
        super().__init__(folder if folder is not None else MemoryFolder(), name, kind)


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
rewriting the whole file. Each record is a line `<crc32 of its JSON, 8 hex digits> <JSON>`
after the document (which never holds a newline). A record cut short by a kill or a power
cut fails its checksum and is ignored: it was never acknowledged. After `COMPACT_EVERY`
records, or when a cut-short record is found, the next change rewrites the whole file
atomically (compaction), so a reader never replays more than that many records.

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
import json
import os
import re
import secrets
import stat
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple, Protocol

from tinydb.storages import Storage

from companion.messages import quoted
from companion.store.errors import DamagedFile, NewerFile

try:  # orjson is faster; a phone build may have no wheel for it.
    import orjson as _orjson
except ImportError:  # pragma: no cover - exercised on platforms without orjson
    _orjson = None  # type: ignore[assignment]

orjson: ModuleType | None = _orjson

FORMAT = 1
META = "_meta"
COMPACT_EVERY = 128  # appended records before the next change rewrites the whole file

Data = dict[str, dict[str, Any]]


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


def check_document(raw: bytes, *, kind: str | None = None, plain: bool = False) -> Data:
    """Parse bytes into a TinyDB document (its appended records applied); `DamagedFile` or `NewerFile`."""
    return parse_file(raw, kind=kind, plain=plain).data


class Parsed(NamedTuple):
    data: Data
    records: int  # how many appended records were applied
    torn: bool  # the file ends in a record cut short (never acknowledged; ignored)


def parse_file(raw: bytes, *, kind: str | None = None, plain: bool = False) -> Parsed:
    """A file's document with its appended records applied; `DamagedFile` or `NewerFile`.

    `plain`: parse with the standard json module even where orjson is installed (see
    `FolderStorage`)."""
    if not raw:
        raise DamagedFile("the file is empty")
    end = _document_end(raw)
    data = check_tables(_decode_json(raw[:end], plain), kind)
    records, torn = 0, False
    if end < len(raw):
        lines = raw[end + 1 :].split(b"\n")
        for number, line in enumerate(lines, start=1):
            record = _record(line, plain)
            if record is None:
                if number < len(lines):
                    raise DamagedFile(f"the change recorded in line {number + 1} is damaged")
                torn = True
                break
            apply_record(data, record)
            records += 1
    return Parsed(data, records, torn)


def _document_end(raw: bytes) -> int:
    """Where the document ends: at the first line that opens a record (a document never holds one)."""
    position = raw.find(b"\n")
    while position != -1:
        if _RECORD_START.fullmatch(raw, position + 1, position + 10) or _CUT_START.fullmatch(raw, position + 1):
            return position
        position = raw.find(b"\n", position + 1)  # a document written with line breaks by hand
    return len(raw)


_RECORD_START = re.compile(rb"[0-9a-f]{8} ")
_CUT_START = re.compile(rb"[0-9a-f]{0,8}")  # the start of a record, cut short before its JSON


def _decode_json(raw: bytes, plain: bool = False) -> Any:
    try:
        return json.loads(raw) if plain else decode(raw)
    except (ValueError, UnicodeDecodeError) as error:
        raise DamagedFile(f"it is not valid JSON ({quoted(str(error))})") from error
    except RecursionError as error:  # the standard json module on very deeply nested data
        raise DamagedFile("it is nested too deeply to be a Companion file") from error


# Where JSON may spell a lone surrogate: an escape of one (a pair is two escapes), or its
# bytes, which the standard json module decodes ("surrogatepass") where orjson refuses them.
_MAYBE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")


def may_hold_lone_surrogate(raw: bytes) -> bool:
    """False when JSON text cannot hold a lone surrogate (nearly always: no look at the parsed value needed)."""
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
        if found > FORMAT:
            raise NewerFile(found, FORMAT)
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
    """Apply one record to a document in place: `set` fields, `splice` lists (keep the first n, add items).

    Lists are replaced, never changed in place: a list may be shared with whoever wrote it.
    """
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
    """

    def __init__(self, folder: Folder, name: str, kind: str | None = None, *, keep: bool = True,
                 plain: bool = False) -> None:
        self.folder = folder
        self.name = name
        self.kind = kind
        self.keep = keep  # False: parse the file on every read rather than hold the document in memory
        # True: parse with the standard json module. orjson keeps the short keys it has met
        # (a cache of its own) and with them the memory they sit in: after parsing a file of
        # thousands of small objects, most of that memory stays with the process.
        self.plain = plain
        self._cache: Data | None = None
        self._signature: Signature | None = None
        self._records = 0  # records appended after the document in the file
        self._torn = False  # the file ends in a record cut short

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
        parsed = parse_file(raw, kind=self.kind, plain=self.plain)
        self._cache, self._signature = parsed.data if self.keep else None, signature
        self._records, self._torn = parsed.records, parsed.torn
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
            raw = encode(data)
            self.folder.write(self.name, raw)
        except BaseException:
            # TinyDB changed the cached document in place before calling write; the disk
            # still holds the previous version, so the next read must come from the disk.
            self.forget()
            raise
        self._cache, self._signature = data if self.keep else None, self.folder.stat(self.name)
        self._records, self._torn = 0, False

    def read_bytes(self) -> bytes | None:
        """The file's bytes as they are (None when it is missing), for a caller that reads
        them its own way; a `write_bytes` right after needs no second look at the file."""
        signature = self.folder.stat(self.name)
        raw = None if signature is None else self.folder.read(self.name)
        self._cache, self._signature = None, None if raw is None else signature
        self._records, self._torn = 0, False
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
        self._records, self._torn = 0, False

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
        if self._torn or self._records >= COMPACT_EVERY:
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
        self._records, self._torn = 0, False

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


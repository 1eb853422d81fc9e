"""Where the store's files live: a folder on disk or its in-memory twin, and their locks.

A `Folder` offers the handful of file operations the store needs, with names relative to
the data folder using '/'. `DiskFolder` makes each of them durable and atomic:

- `write` puts the bytes in a temporary file in the same folder, flushes it (fsync), renames
  it over the old file (`os.replace`) and flushes the folder: a reader, even after a power
  cut, sees the old file or the new one, never a mixture. No handle stays open between
  calls (Windows cannot replace an open file). `stage` + `commit` are the same write in
  two steps, so that the slow part (writing and flushing the temporary file) can happen
  while the file is still being appended to, and the rename only if it was not;
  `write_stream` writes chunks as they come (a backup of every game, never held whole).
- `append` adds bytes at the end with one write and one fdatasync; on failure what reached
  the file is cut off again, so a change reported as not saved never reappears.
- `lock` is an OS lock (flock / LockFileEx): the OS drops it when the process dies.

`MemoryFolder` behaves the same without a disk; two stores sharing one behave like two
processes sharing a directory (their locks exclude each other).

Cost: a write is one temporary file, two fsyncs and a rename; an append one write and one
fdatasync (about 0.15 ms on the disk tests/bench/README.md measures).
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
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple, Protocol

# (inode or write number, size, mtime in ns, ctime in ns): the ctime changes with every
# rewrite, so a file rewritten in place with the same size and mtime is still told apart.
Signature = tuple[int, int, int, int]

WINDOWS = os.name == "nt"


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

    def stage(self, name: str, data: bytes) -> str:
        """The first half of `write`: the bytes in a flushed temporary file beside `name`; its name."""

    def commit(self, staged: str, name: str, *, mtime_ns: int | None = None) -> None:
        """The second half of `write`: the staged file takes `name`'s place (with this modification time)."""

    def discard(self, staged: str) -> None:
        """Remove a staged file that will not be committed; never raises."""

    def write_stream(self, name: str, chunks: Iterable[bytes]) -> int:
        """`write` of the chunks joined, never held whole; the bytes written."""

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
    if WINDOWS:  # Windows has no directory handles to flush; NTFS journals the rename.
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
        self.commit(self.stage(name, data), name)

    def stage(self, name: str, data: bytes) -> str:
        return self._staged(name, (data,))[0]

    def write_stream(self, name: str, chunks: Iterable[bytes]) -> int:
        staged, size = self._staged(name, chunks)
        self.commit(staged, name)
        return size

    def _staged(self, name: str, chunks: Iterable[bytes]) -> tuple[str, int]:
        directory, base = os.path.split(self.path(name))
        temp = os.path.join(directory, f".{base}.{secrets.token_hex(4)}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
        size = 0
        try:
            try:
                for chunk in chunks:
                    _write_all(fd, chunk)
                    size += len(chunk)
                if self.durable:
                    _flush(fd)
            finally:
                os.close(fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
        return os.path.relpath(temp, self.root).replace(os.sep, "/"), size

    def commit(self, staged: str, name: str, *, mtime_ns: int | None = None) -> None:
        temp, target = self.path(staged), self.path(name)
        try:
            if mtime_ns is not None:
                os.utime(temp, ns=(time.time_ns(), mtime_ns))
            _replace(temp, target)
        except BaseException:
            self.discard(staged)
            raise
        if self.durable:
            _fsync_directory(os.path.dirname(target))

    def discard(self, staged: str) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.path(staged))

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
        return {
            name: (result.st_ino, result.st_size, result.st_mtime_ns, result.st_ctime_ns)
            for name, result in self._file_stats(sub)
        }

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
        self._staged: dict[str, bytes] = {}
        self._mutex = threading.Lock()

    def ensure(self, sub: str) -> None:
        return None

    def probe(self, sub: str) -> None:
        return None

    def read(self, name: str) -> bytes | None:
        item = self.files.get(name)
        return None if item is None else item[0]

    def write(self, name: str, data: bytes) -> None:
        self._put(name, bytes(data))

    def _put(self, name: str, data: bytes, mtime_ns: int | None = None) -> None:
        with self._mutex:
            self._writes += 1
            now = time.time_ns()
            self.files[name] = (data, (self._writes, len(data), now if mtime_ns is None else mtime_ns, now))

    def stage(self, name: str, data: bytes) -> str:
        staged = f"{name}.{secrets.token_hex(4)}.staged"
        with self._mutex:
            self._staged[staged] = bytes(data)
        return staged

    def commit(self, staged: str, name: str, *, mtime_ns: int | None = None) -> None:
        with self._mutex:
            data = self._staged.pop(staged)
        self._put(name, data, mtime_ns)

    def discard(self, staged: str) -> None:
        with self._mutex:
            self._staged.pop(staged, None)

    def write_stream(self, name: str, chunks: Iterable[bytes]) -> int:
        data = b"".join(chunks)
        self.write(name, data)
        return len(data)

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
        return {
            name[len(prefix) :]: signature
            for name, (_, signature) in list(self.files.items())
            if name.startswith(prefix) and "/" not in name[len(prefix) :]
        }

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

"""Every session in TinyDB, one small file each, written through on every tap.

Layout of a data folder::

    index.json              TinyDB: table "sessions", one document per session, keyed by id
                            (game, players, created, updated, title, is_over, winners, status,
                            and once finished its result: scores, ranks, length; see results.py)
    sessions/<id>.json      TinyDB: table "session", document "1": the whole session
                            (format, game, players, options, events incl. redo tail,
                            cursor, created, title), then one appended record per change
                            since the file was last written whole (see storage.py)
    pending/<id>            empty marker: the index may lag behind this session file
    quarantine/<name>       a damaged file, moved aside, and <name>.why.json saying why; or
                            <id>.json.<digest>: a session file as it was when it opened with a
                            loss (a record damaged or cut short), copied before any rewrite
    locks/<id>.lock         OS lock held while a session is open for writing
    locks/index.lock        OS lock held while the index is rewritten
    locks/put.lock          OS lock held while sessions played elsewhere are written (`put`)
    ui-state.json           the app's note of where it was (companion/app/ui_state.py)

Every file has a `_meta` table `{"1": {"format": 1, "kind": "index" | "session"}}` (a
session file's also holds its document's checksum). What a session file must hold is in
`session_file.py`; the bytes of a file and what of a damaged one can be read in
`file_format.py`; the list built from the index in `listing.py`; atomic files, appended
records and locks in `storage.py`.

Cost: recording an event appends one record to that session's file (one write, one
fsync); the first change after the file is read, and every `COMPACT_EVERY`-th, rewrites it
whole (atomic + fsync). The index is rewritten only when a session is created, finishes
(or stops being finished through undo, or its winners change), is closed after changes
(its status line), renamed or deleted; a store holds it as compact summaries, never as
the parsed file. `listing()` answers from those summaries and the sessions open here
(no file looked at but the index's), which is what the home screen asks on every tap.
`sessions()` also takes each session's "updated" time from its file's mtime (one stat
each), so start-up never parses every session. Files without an index entry (a crash
between the session file and the index entry of `new`, or an index rebuilt after damage),
sessions with a `pending` marker (a crash between a session write and its index update)
and entries whose status line is older than their file (the app stopped with the game
open) are parsed and reconciled when found. Entries saved by an earlier version have no
status line: the first `peek` works it out and the next change of the index keeps it;
finished ones have no result: the first `finished()` works them out and keeps them.

Damage: a session file whose end cannot be read (a record damaged, or cut short by a power
cut) or whose document fails its checksum opens with what can be read; the file as it was
is copied to quarantine/ first and `SessionList.losses` says which game lost what.

Faults: every OSError ends as a `StoreError` whose sentence says what the disk refused
(`check_usable()` tries the folder once, at start). A change the disk refuses changes
nothing (an appended record that could not be flushed is cut off again); a change the
disk has made visible (the rename of its file) stands whatever fails after it (the
folder's fsync, the index: its pending marker lets the next listing repair it), so the
app never says "not saved" of something that is.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import asdict, dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from tinydb import TinyDB
from tinydb.table import Document

from companion.messages import quoted
from companion.rules.base import name_key
from companion.session import FORMAT_VERSION as SESSION_FORMAT
from companion.session import Session
from companion.store.errors import (
    DamagedFile,
    NewerFile,
    NewerFormat,
    SessionBusy,
    SessionClosed,
    SessionDamaged,
    SessionInUse,
    SessionNotFound,
    StoreError,
    os_reason,
)
from companion.store.file_format import Data, decode, encode, may_hold_lone_surrogate
from companion.store.index_file import IndexEntries
from companion.store.listing import (
    SESSION_ID,
    QuarantineNote,
    SessionList,
    SessionSummary,
    gc_paused,
    index_summaries,
    indexed_summary,
    new_session_id,
    same_summary,
    translated_lines,
)
from companion.store.results import FinalResult, final_result, result_doc
from companion.store.session_file import SESSIONS, check_title, outcome, parse_session, session_file
from companion.store.storage import (
    DiskFolder,
    Folder,
    FolderStorage,
    Lock,
    MemoryFolder,
    Signature,
)

__all__ = ["QuarantineNote", "SessionList", "SessionSummary", "Store", "new_session_id"]

INDEX = "index.json"
PENDING = "pending"
QUARANTINE = "quarantine"
LOCKS = "locks"
INDEX_LOCK = f"{LOCKS}/index.lock"
PUT_LOCK = f"{LOCKS}/put.lock"
NOTE_SUFFIX = ".why.json"
INDEX_LOCK_TIMEOUT = 10.0
STALE_TEMP_SECONDS = 3600.0
REPAIR_BATCH = 64  # sessions locked at once while the index is repaired (each disk lock is a file handle)

@dataclass
class _Open:
    session: Session
    db: TinyDB
    lock: Lock
    created: float
    title: str
    saved_log: list[dict[str, Any]] | None = None  # the log object the file holds, once a change wrote it
    unlisted: bool = False  # changed since its index entry was written (its status line lags)


def _appended(entry: _Open, session: Session, log: list[dict[str, Any]], cursor: int) -> dict[str, Any] | None:
    """The record that brings the file from `entry.saved_log` to (log, cursor), or None: write it whole.

    Relies on how a Session hands its log to the journal (see `companion.session.Journal`):
    the same list for undo and redo, a new one sharing the first `session.cursor` events for apply.
    """
    saved = entry.saved_log
    if saved is None:
        return None
    if log is saved:
        return {"fields": {"cursor": cursor}}
    keep = session.cursor
    if len(log) == keep + 1 == cursor and keep <= len(saved) and (keep == 0 or log[keep - 1] is saved[keep - 1]):
        return {"fields": {"cursor": cursor}, "splice": {"events": (keep, [log[keep]])}}
    return None


def _listed_outcome(session: Session, state: Any = None) -> tuple[tuple[bool, tuple[str, ...]], FinalResult | None]:
    """What the index entry says of how the game ended: a change of it rewrites the entry."""
    return outcome(session, state), final_result(session, state)


def _by_time(summary: SessionSummary) -> tuple[float, str]:
    """Sort key: lists run newest first (`reverse=True`), ties by id."""
    return summary.updated, summary.id


def _indexed(session_id: str, doc: dict[str, Any]) -> SessionSummary:
    summary = indexed_summary(session_id, doc)
    assert summary is not None  # made by the store: always of the right shape
    return summary


def _closed_journal(session: Session, log: list[dict[str, Any]], cursor: int, state: Any) -> None:
    raise SessionClosed("store.closed")


def _deleted_journal(session: Session, log: list[dict[str, Any]], cursor: int, state: Any) -> None:
    raise SessionClosed("store.deleted")


def _close_all(open_sessions: dict[str, _Open]) -> None:
    """Close every open session and release its lock (also run when a store is dropped unclosed)."""
    for session_id in list(open_sessions):
        entry = open_sessions.pop(session_id, None)
        if entry is not None:
            entry.session.journal = _closed_journal
            entry.lock.release()


class Store:
    """All sessions of one data folder (or of memory, with `directory=None`).

    Sessions returned by `new` and `open` write through: when `apply`, `undo` or `redo`
    returns, the change is on disk. Such a session holds an OS lock until
    `close_session(id)`, `close()` or the end of the process; another process (or another
    `Store` on the same folder) gets `SessionBusy` when it tries to open it.

    `durable=False` skips the fsyncs (bulk imports and benchmarks only: a power cut may
    then lose recent changes, though never corrupt a file).

    `status(game id, state)` gives the line the list shows for a game in each language
    (`{"en": "Bob's turn · $32 / $40", "fr": ...}`); it is saved in the index with the game's
    entry ("status" the English, "status_in" the others), so listing never replays a game.
    """

    def __init__(
        self, directory: str | Path | None = None, *, durable: bool = True, folder: Folder | None = None,
        status: Callable[[str, Any], Mapping[str, str]] | None = None,
    ) -> None:
        self.directory = None if directory is None else Path(directory)
        self.status = status
        if directory is not None and "\0" in str(directory):  # Python's ValueError, before any disk sees it
            raise StoreError("store.unusable", path=repr(str(directory)), reason="no disk accepts a NUL in a name")
        try:
            if folder is None:
                folder = MemoryFolder() if directory is None else DiskFolder(directory, durable=durable)
            self._folder: Folder = folder
            for sub in (SESSIONS, PENDING, QUARANTINE, LOCKS):
                self._folder.ensure(sub)
            self._mutex = threading.RLock()
            # Parsed with the standard json module: see FolderStorage's `plain` and `index_summaries`.
            self._index = FolderStorage(self._folder, INDEX, "index", keep=False, plain=True)
            self._listed: dict[str, SessionSummary | None] = {}  # the index as summaries (None: a bad entry)
            self._listed_signature: Signature | None = None
            self._listed_known = False  # _listed holds the index file of _listed_signature
            self._ordered: list[SessionSummary] | None = None  # _listed newest first
            self._listing_kept: tuple[Any, int, int, int, SessionList] | None = None  # listing()'s last answer
            self._unsaved_status: dict[str, tuple[dict[str, Any], Signature]] = {}  # see _note_status
            self._checked = False  # sessions() has looked at every file once
            self._index_lock = self._folder.lock(INDEX_LOCK)
            self._open: dict[str, _Open] = {}
            self._notes: list[QuarantineNote] = []
            self._losses: dict[str, QuarantineNote] = {}  # games opened with what could be read (see _keep_aside)
            self._loss_count = 0  # notes of losses taken so far: the listing is worked out again when it grows
            self._newer: dict[str, Any] = {}
            for sub in ("", SESSIONS, PENDING, QUARANTINE):
                self._sweep_temp(sub)
            # A store dropped without close() releases its locks at once: sessions hold their
            # store only weakly (see _attach), so plain reference counting frees it.
            self._finalizer = weakref.finalize(self, _close_all, self._open)
            self._entries()  # refuse a newer data folder now, set a damaged index aside now
        except OSError as error:
            raise self._unusable(error) from error

    def check_usable(self) -> None:
        """Raise StoreError (one sentence) unless games can be listed, saved and locked here.

        Creates and removes a small file in each folder (permissions alone say nothing
        for an administrator or on a read-only disk) and takes the index lock once.
        """
        with self._mutex:
            try:
                self._entries()
                for sub in ("", SESSIONS, PENDING, QUARANTINE, LOCKS):
                    self._folder.probe(sub)
                if self._index_lock.acquire(0):  # held by another window: the lock works
                    self._index_lock.release()
            except OSError as error:
                raise self._unusable(error) from error

    @contextlib.contextmanager
    def _speaking(self, message_id: str) -> Iterator[None]:
        """Turn an OSError into StoreError(message_id) saying in words what the disk refused."""
        try:
            yield
        except OSError as error:
            raise StoreError(message_id, reason=os_reason(error, self.directory)) from error

    def _unusable(self, error: OSError) -> StoreError:
        where = "(in memory)" if self.directory is None else str(self.directory)
        return StoreError("store.unusable", path=where, reason=os_reason(error, self.directory))

    @classmethod
    def in_memory(cls, folder: MemoryFolder | None = None) -> Store:
        """The same store without a disk (for tests and previews).

        Stores built on one shared `MemoryFolder` see the same sessions, like two app
        instances on one data folder (or one app before and after a restart).
        """
        return cls(None, folder=folder if folder is not None else MemoryFolder())

    @property
    def folder(self) -> Folder:
        return self._folder

    # ------------------------------------------------------------------ public API

    def new(
        self, game: str, players: Any, options: Mapping[str, Any] | None = None, *, title: str = ""
    ) -> Session:
        """A new session, saved and open for writing. Raises RuleError for a bad set-up."""
        clean_title = check_title(title)
        session = Session.new(game, players, options)
        with self._mutex:
            session_id = new_session_id()
            while self._folder.exists(session_file(session_id)):
                session_id = new_session_id()
            lock = self._lock_session(session_id)
            entry = self._make_open(session, session_id, lock, time.time(), clean_title)
            try:
                with self._speaking("store.not_created"):
                    self._write(entry, session.to_dict(), first=True)
                    doc = self._index_doc(session_id, entry)
                    self._edit_index(lambda sessions: sessions.__setitem__(session_id, doc))
            except BaseException:
                with contextlib.suppress(OSError):
                    self._folder.remove(session_file(session_id))
                lock.release()
                raise
            self._attach(session_id, entry)
            return session

    def open(self, session_id: str) -> Session:
        """The saved session, open for writing (the same object if this store has it open already).

        Raises SessionNotFound, SessionBusy (open in another window), NewerFormat (saved
        by a newer version; the file is left untouched) or SessionDamaged (the file was
        moved to the quarantine folder).
        """
        self._check_id(session_id)
        with self._mutex:
            if session_id in self._open:
                return self._open[session_id].session
            lock = self._lock_session(session_id)
            try:
                entry = self._load(session_id, lock)
            except BaseException:
                lock.release()
                raise
            with contextlib.suppress(OSError, StoreError):  # the listing repairs the index later
                self._sync_index(session_id, entry)
            self._attach(session_id, entry)
            return entry.session

    def peek(self, session_id: str) -> Session:
        """The saved session as it is now, without locking it (another window may be playing it).

        The copy records nothing. Raises like `open`; a damaged file is set aside only
        when its lock can be taken (so a file being rewritten is never moved).
        """
        self._check_id(session_id)
        with self._mutex:
            if session_id in self._open:
                return Session.from_dict(self._open[session_id].session.to_dict())
            storage = self._session_storage(session_id)
            try:
                session, _, _ = self._read_session(session_id, quarantine=False, storage=storage)
            except SessionDamaged:
                self.open(session_id)  # under the lock: sets it aside (or finds it repaired)
                self.close_session(session_id)
                session, _, _ = self._read_session(session_id, quarantine=False, storage=storage)
            session.journal = _closed_journal
            self._note_status(session_id, session, storage.signature)
            return session

    def _note_status(self, session_id: str, session: Session, signature: Signature | None) -> None:
        """Keep the status line of a game whose entry an earlier version saved without one.

        It is written with the next change of the index (or when the store closes), if the
        file is still the one read: upgrading an archive costs no extra write of the index.
        """
        listed = self._listed.get(session_id) if self._listed_known else None
        if listed is not None and not listed.status and self.status is not None and signature is not None:
            self._unsaved_status[session_id] = (self._status_fields(session), signature)

    def _save_noted_status(self, sessions: MutableMapping[str, Any]) -> None:
        for session_id, (status, signature) in self._unsaved_status.items():
            doc = sessions.get(session_id)
            summary = indexed_summary(session_id, doc)
            if not isinstance(doc, dict) or summary is None or "status" in doc:
                continue
            if self._folder.stat(session_file(session_id)) != signature:
                continue  # changed since it was read: its line is worked out again
            sessions[session_id] = {**doc, **status, "updated": max(signature[2] / 1e9, summary.created)}
        self._unsaved_status.clear()

    def close_session(self, session_id: str) -> None:
        """Stop writing this session and release its lock; the Session object refuses further changes.

        A session changed since its index entry was written has that entry brought up to
        date first (its status line); if the index cannot be written, the listing repairs it.
        """
        with self._mutex:
            entry = self._open.pop(session_id, None)
            if entry is None:
                return
            entry.session.journal = _closed_journal
            try:
                if entry.unlisted:
                    with contextlib.suppress(OSError, StoreError):
                        self._sync_index(session_id, entry)
            finally:
                entry.lock.release()

    def close(self) -> None:
        """Close every open session (the store itself stays usable)."""
        with self._mutex:
            for session_id in list(self._open):
                self.close_session(session_id)
            if self._unsaved_status:
                with contextlib.suppress(OSError, StoreError):  # only a courtesy: the lines are worked out again
                    self._edit_index(lambda sessions: None)

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def is_open(self, session_id: str) -> bool:
        return session_id in self._open

    def sessions(self) -> SessionList:
        """Summaries of every session, newest first; see `SessionList` for what else it reports."""
        with self._mutex, gc_paused(), self._speaking("store.unreadable"):
            for attempt in range(2):
                index = self._entries()
                signatures = self._folder.signatures(SESSIONS)  # one pass: a stat per game, no path built
                names = self._session_ids(signatures)
                summaries, to_check = self._summaries(index, names, signatures)
                to_check |= names - index.keys()
                to_check |= {name for name in self._folder.names(PENDING) if SESSION_ID.fullmatch(name)}
                to_check = {
                    session_id
                    for session_id in to_check
                    if self._newer.get(session_id) != self._folder.stat(session_file(session_id))
                }
                missing = [session_id for session_id in index if session_id not in names]
                if attempt == 0 and (to_check or missing):
                    before = (self._folder.stat(INDEX), len(self._notes), len(self._newer))
                    with contextlib.suppress(OSError, StoreError):  # read-only: list what can be listed
                        self._repair(to_check, missing)
                    if before != (self._folder.stat(INDEX), len(self._notes), len(self._newer)):
                        continue  # list again what the repair changed (not when every game was busy elsewhere)
                break
            summaries.sort(key=_by_time, reverse=True)
            self._ordered = summaries  # the open sessions as they were: listing() shows them live
            self._checked = True
            return SessionList(summaries, self._notes, sorted(self._newer), losses=self._losses.values())

    def listing(self) -> SessionList:
        """What `sessions()` gives, from what this store knows: no file is looked at but the index
        (one stat) and the sessions open here, so its cost does not grow with the archive.

        The first call (and any after another window changed the index) is a `sessions()`.
        A game played in another window shows the status it had when that window last wrote the index.
        While nothing changes it answers the same list object: do not modify it.
        """
        with self._mutex, self._speaking("store.unreadable"):
            if not self._checked or not self._listed_known or self._folder.stat(INDEX) != self._listed_signature:
                return self.sessions()
            if self._ordered is None:
                known = (summary for summary in self._listed.values() if summary is not None)
                self._ordered = sorted(known, key=_by_time, reverse=True)
            live = [self._live_summary(session_id, entry) for session_id, entry in self._open.items()
                    if session_id in self._listed]
            if not live:
                # The same list while nothing changed, so that a caller may keep what it worked out from it.
                notes = (self._ordered, len(self._notes), len(self._newer), self._loss_count)
                kept = self._listing_kept
                if kept is None or kept[0] is not notes[0] or kept[1:4] != notes[1:]:
                    kept = self._listing_kept = (*notes, SessionList(self._ordered, self._notes, sorted(self._newer),
                                                                     losses=self._losses.values()))
                return kept[4]
            shown = {summary.id for summary in live}
            merged = live + [summary for summary in self._ordered if summary.id not in shown]
            merged.sort(key=_by_time, reverse=True)
            return SessionList(merged, self._notes, sorted(self._newer), losses=self._losses.values())

    def _summaries(
        self, index: dict[str, SessionSummary | None], names: set[str], signatures: Mapping[str, Signature]
    ) -> tuple[list[SessionSummary], set[str]]:
        """Summaries of the indexed sessions that have a file (one stat each), and the ids that need a closer look.

        A closer look: an entry of the wrong shape, an empty file, or a status line older
        than the file (the app stopped before it could bring the entry up to date).
        """
        summaries = []
        unreadable: set[str] = set()
        for session_id, summary in index.items():
            if session_id not in names:
                continue
            signature = signatures.get(f"{session_id}.json")
            if signature is None:
                continue
            if summary is None or signature[1] == 0:  # an empty file: damaged, no need to parse it
                unreadable.add(session_id)
                continue
            entry = self._open.get(session_id)
            if entry is not None:
                summaries.append(self._live_summary(session_id, entry, signature))
                continue
            updated = max(signature[2] / 1e9, summary.created)
            if summary.status and updated > summary.updated:
                unreadable.add(session_id)
            # The kept summary itself when nothing changed: the list and the store share it.
            summaries.append(summary if updated == summary.updated else summary._replace(updated=updated))
        return summaries, unreadable

    def _live_summary(self, session_id: str, entry: _Open, signature: Signature | None = None) -> SessionSummary:
        """The summary of a session open here, from memory (its file's mtime gives the updated time)."""
        signature = signature or self._folder.stat(session_file(session_id))
        modified = time.time() if signature is None else signature[2] / 1e9
        is_over, winners = outcome(entry.session)
        session = entry.session
        status = self._status_fields(session)
        return SessionSummary(session_id, session.game.id, session.players, entry.created,
                              max(modified, entry.created), is_over, winners, entry.title, status["status"],
                              final_result(session), translated_lines(status.get("status_in")))

    def _status_fields(self, session: Session, state: Any = None) -> dict[str, Any]:
        """The index fields of the session's status line (in `state`, when given): "status", the
        English line ("" without a status function), and "status_in", the other languages."""
        lines: Mapping[str, str] = {}
        if self.status is not None:
            try:
                lines = self.status(session.game.id, session.state if state is None else state)
            except Exception:  # noqa: BLE001 - a line on the list must never stop a game being saved
                lines = {}
        others = {language: line for language, line in lines.items() if language != "en"}
        return {"status": lines.get("en", ""), **({"status_in": others} if others else {})}

    def delete(self, session_id: str) -> None:
        """Delete a session for good (closing it first if this store has it open)."""
        self._check_id(session_id)
        with self._mutex:
            entry = self._open.get(session_id)
            if entry is not None:
                lock = entry.lock
            else:
                try:
                    lock = self._lock_session(session_id)
                except SessionBusy as error:
                    raise SessionInUse("store.in_use") from error
            try:
                with self._speaking("store.not_deleted"):
                    self._folder.remove(session_file(session_id))
                # Gone from the disk: from here on the game is deleted, whatever else fails.
                self._newer.pop(session_id, None)
                if self._losses.pop(session_id, None) is not None:
                    self._loss_count += 1
                if entry is not None:
                    del self._open[session_id]
                    entry.session.journal = _deleted_journal
                with contextlib.suppress(OSError, StoreError):  # a stale entry is dropped by the listing
                    self._edit_index(lambda sessions: sessions.pop(session_id, None))
                    self._folder.remove(f"{PENDING}/{session_id}")
            finally:
                if entry is None or session_id not in self._open:
                    lock.release()
            # Ids are never reused, so whoever locks this name later finds no session: safe to remove.
            with contextlib.suppress(OSError):
                self._folder.remove(f"{LOCKS}/{session_id}.lock")

    def rename(self, session_id: str, title: str) -> None:
        """Give a session a title ("" to let the UI compose one)."""
        clean_title = check_title(title)
        self._check_id(session_id)
        with self._mutex:
            entry = self._open.get(session_id)
            borrowed = entry is None
            if entry is None:
                lock = self._lock_session(session_id)
                try:
                    entry = self._load(session_id, lock)
                except BaseException:
                    lock.release()
                    raise
            try:
                previous = entry.title
                with self._speaking("store.not_renamed"):
                    self._folder.write(f"{PENDING}/{session_id}", b"")
                    played = self._folder.stat(session_file(session_id))
                    entry.title = clean_title
                    try:
                        self._write(entry, entry.session.to_dict())
                    except BaseException:
                        entry.title = previous
                        raise
                    entry.saved_log = None  # the file holds a copy of the log now
                # Saved in the session file: an index that cannot follow now is fixed from the
                # pending marker by the next listing.
                if played is not None:  # a new title is not a move: the list keeps its place
                    with contextlib.suppress(OSError):
                        self._storage(entry).set_mtime(played[2])
                with contextlib.suppress(OSError, StoreError):
                    self._sync_index(session_id, entry, force=True)
            finally:
                if borrowed:
                    entry.lock.release()

    def known_players(self) -> list[str]:
        """Player names of earlier sessions, most recently played first, each once (as names compare)."""
        seen: set[str] = set()
        names: list[str] = []
        for summary in self.listing():  # the index as known: never a look at every file
            for name in summary.players:
                key = name_key(name)
                if key not in seen:
                    seen.add(key)
                    names.append(name)
        return names

    def finished(self) -> list[SessionSummary]:
        """Summaries of the finished games, newest first, each with its final result where it can be read.

        From the index alone, but for entries saved before results were kept: each such game
        is read and replayed once, and its result goes into the index (one write for all).
        A game that cannot be read now is left without a result.
        """
        with self._mutex:
            listing = self.listing()
            missing = [summary.id for summary in listing if summary.is_over and summary.result is None]
            found: dict[str, tuple[FinalResult, Signature]] = {}
            for session_id in missing:
                signature = self._folder.stat(session_file(session_id))
                try:
                    result = final_result(self.peek(session_id))
                except StoreError:
                    continue
                if result is not None and signature is not None:
                    found[session_id] = (result, signature)
            if found:
                with contextlib.suppress(OSError, StoreError):  # kept next time; this answer has them anyway
                    self._edit_index(lambda sessions: self._keep_results(sessions, found))
                listing = self.listing()
            return [summary if summary.result is not None or summary.id not in found
                    else summary._replace(result=found[summary.id][0])
                    for summary in listing if summary.is_over]

    def _keep_results(self, sessions: MutableMapping[str, Any],
                      found: dict[str, tuple[FinalResult, Signature]]) -> None:
        for session_id, (result, signature) in found.items():
            doc = sessions.get(session_id)
            if not isinstance(doc, dict) or "result" in doc:
                continue
            if self._folder.stat(session_file(session_id)) == signature:  # else changed since: worked out again
                sessions[session_id] = {**doc, "result": result_doc(result)}

    def put(self, session: Session, *, session_id: str | None = None, created: float, title: str = "",
            updated: float | None = None) -> str:
        """Save a whole session that was played elsewhere (an import, a backup) and return its id.

        Written under `session_id` when that name is free, else under a new id: nothing
        present is ever overwritten. `updated` becomes its file's time (the list's order).
        The session object itself stays unsaved: open the returned id to play on.
        """
        return self.put_many([(session, session_id, created, title, updated)])[0]

    def put_many(self, sessions: list[tuple[Session, str | None, float, str, float | None]]) -> list[str]:
        """`put` for many sessions, with one write of the index for all of them."""
        # Only a put writes a file under a name it did not make up (`new` draws a fresh id): one
        # lock held while the files are written keeps two windows from writing the same name.
        lock = self._folder.lock(PUT_LOCK)
        with self._mutex, self._speaking("store.not_put"):
            if not lock.acquire(INDEX_LOCK_TIMEOUT):
                raise StoreError("store.locked")
            try:
                ids: list[str] = []
                docs: dict[str, dict[str, Any]] = {}
                for session, wanted, created, title, updated in sessions:
                    session_id, entry = self._put_file(session, wanted, created, check_title(title), updated, lock)
                    docs[session_id] = self._index_doc(session_id, entry)
                    ids.append(session_id)
                if docs:
                    # A file written without its index entry is listed by the next repair: no pending marker needed.
                    self._edit_index(lambda entries: entries.update(docs))
                return ids
            finally:
                lock.release()

    def _put_file(self, session: Session, wanted: str | None, created: float, title: str, updated: float | None,
                  lock: Lock) -> tuple[str, _Open]:
        session_id = wanted if wanted is not None and SESSION_ID.fullmatch(wanted) else new_session_id()
        while self._folder.exists(session_file(session_id)):
            session_id = new_session_id()
        entry = self._make_open(session, session_id, lock, created, title)
        self._write(entry, session.to_dict(), first=True)
        if updated is not None and updated >= created:
            self._storage(entry).set_mtime(int(updated * 1e9))
        return session_id, entry

    def verify(self) -> SessionList:
        """Parse every session file (slow; housekeeping only), set damaged ones aside, fix the index."""
        with self._mutex:
            with self._speaking("store.unreadable"):
                ids = self._session_ids()
                self._repair({session_id for session_id in ids if session_id not in self._open}, [], thorough=True)
            return self.sessions()

    def quarantine_notes(self) -> list[QuarantineNote]:
        """Every file ever set aside in this data folder, newest first."""
        notes = []
        with self._speaking("store.unreadable"):
            entries = self._folder.scan(QUARANTINE)
        for entry in entries:
            if not entry.name.endswith(NOTE_SUFFIX):
                continue
            try:
                raw = decode(self._folder.read(f"{QUARANTINE}/{entry.name}") or b"")
                note = QuarantineNote(str(raw["file"]), str(raw["moved_to"]), str(raw["reason"]), float(raw["time"]),
                                      str(raw.get("session", "")), int(raw.get("lost", 0)), str(raw.get("kind", "")))
            except (OSError, ValueError, KeyError, TypeError, ArithmeticError, RecursionError):
                continue  # a note is a courtesy: an unreadable one is skipped
            notes.append(note)
        notes.sort(key=lambda note: note.time, reverse=True)
        return notes

    # ------------------------------------------------------------------ writing

    def _lock_session(self, session_id: str) -> Lock:
        """The session's lock, acquired; SessionBusy when another window or process holds it."""
        lock = self._folder.lock(f"{LOCKS}/{session_id}.lock")
        with self._speaking("store.cannot_lock"):
            taken = lock.acquire(0)
        if not taken:
            raise SessionBusy("store.busy")
        return lock

    def _make_open(self, session: Session, session_id: str, lock: Lock, created: float, title: str,
                   storage: FolderStorage | None = None) -> _Open:
        # The storage that read the file, when given: its document is still cached.
        used = storage or self._session_storage(session_id)
        return _Open(session, TinyDB(storage=lambda: used), lock, created, title)

    @staticmethod
    def _storage(entry: _Open) -> FolderStorage:
        storage = entry.db.storage
        assert isinstance(storage, FolderStorage)
        return storage

    def _attach(self, session_id: str, entry: _Open) -> None:
        entry.session.id = session_id
        # The session holds its store weakly: a store dropped without close() is freed at
        # once (no reference cycle) and its finalizer releases the locks.
        store = weakref.ref(self)

        def journal(session: Session, log: list[dict[str, Any]], cursor: int, state: Any) -> None:
            alive = store()
            if alive is None:
                raise SessionClosed("store.closed")
            alive._journal(session, log, cursor, state)

        entry.session.journal = journal
        self._open[session_id] = entry

    def _write(self, entry: _Open, session_doc: dict[str, Any], *, first: bool = False) -> None:
        doc = dict(session_doc)
        doc["created"] = entry.created
        doc["title"] = entry.title
        table = entry.db.table("session")
        if first:  # one write of the whole file (an upsert would first write an empty table)
            table.insert(Document(doc, doc_id=1))
        else:  # the document exists: one write
            table.upsert(Document(doc, doc_id=1))

    def _journal(self, session: Session, log: list[dict[str, Any]], cursor: int, state: Any) -> None:
        with self._mutex:
            entry = self._open.get(session.id or "")
            if entry is None or entry.session is not session:
                raise SessionClosed("store.closed")
            session_id = session.id or ""
            # The journal runs before the change: the session still shows the state before it.
            # The index changes only when the session finishes, stops being finished or
            # changes winners (the listing takes the updated time from the session file).
            touch_index = _listed_outcome(session, state) != _listed_outcome(session)
            change = _appended(entry, session, log, cursor)
            with self._speaking("store.not_saved"):
                if touch_index:  # leave a trace in case we die between the two writes
                    self._folder.write(f"{PENDING}/{session_id}", b"")
                if change is not None:  # one record at the end of the file (compacted from time to time)
                    self._storage(entry).append("session", "1", **change)
                else:  # the first change since the file was read, or an unusual one: the whole file
                    self._write(
                        entry,
                        {
                            "format": SESSION_FORMAT,
                            "game": session.game.id,
                            "players": list(session.players),
                            "options": session.options,
                            "events": log,
                            "cursor": cursor,
                        },
                    )
            entry.saved_log = log
            entry.unlisted = True
            if touch_index:
                # The event is saved; an index that cannot be updated now is fixed from the
                # pending marker later, so the failure must not undo the acknowledged event.
                with contextlib.suppress(OSError, StoreError):
                    self._sync_index(session_id, entry, force=True, state=state)

    def _index_doc(self, session_id: str, entry: _Open, state: Any = None) -> dict[str, Any]:
        """The index entry of an open or loaded session (in `state`, when given: a change being saved)."""
        signature = self._folder.stat(session_file(session_id))
        is_over, winners = outcome(entry.session, state)
        doc = {
            "game": entry.session.game.id,
            "players": list(entry.session.players),
            "created": entry.created,
            "updated": time.time() if signature is None else max(signature[2] / 1e9, entry.created),
            "title": entry.title,
            "is_over": is_over,
            "winners": list(winners),
            **self._status_fields(entry.session, state),
        }
        result = final_result(entry.session, state)
        if result is not None:
            doc["result"] = result_doc(result)
        return doc

    def _sync_index(self, session_id: str, entry: _Open, *, force: bool = False, state: Any = None) -> None:
        doc = self._index_doc(session_id, entry, state)
        if force or not same_summary(self._entries().get(session_id), _indexed(session_id, doc)):
            self._edit_index(lambda sessions: sessions.__setitem__(session_id, doc))
        entry.unlisted = False
        self._folder.remove(f"{PENDING}/{session_id}")

    # ------------------------------------------------------------------ the index

    def _entries(self) -> dict[str, SessionSummary | None]:
        """The index as summaries, None for an entry of the wrong shape (read again when the file changes)."""
        signature = self._folder.stat(INDEX)
        if self._listed_known and signature == self._listed_signature:
            return self._listed
        raw = None if signature is None else self._folder.read(INDEX)
        if raw:
            with gc_paused():
                scanned = index_summaries(raw, {})  # one entry at a time: not the whole index in memory at once
            if scanned is not None:
                self._listed, self._listed_signature, self._listed_known, self._ordered = (
                    scanned[0], signature, True, None)
                return self._listed
        try:  # missing, damaged, newer, or with appended records: the general reading says which
            data = self._index.read()
        except NewerFile as error:
            raise NewerFormat("store.index_newer", found=quoted(str(error.found))) from error
        except DamagedFile as error:
            self._set_index_aside(error.reason)
            return {}
        self._remember_index(data, signature, raw is None or may_hold_lone_surrogate(raw))
        return self._listed

    def _remember_index(self, data: Data | None, signature: Signature | None, suspect: bool = True) -> None:
        """Keep the index as summaries only: the parsed file is let go. `suspect`: its text may
        hold half of a UTF-16 pair (see `summary_of`)."""
        shared: dict[Any, Any] = {}  # one copy of each name list and status line
        with gc_paused():
            self._listed = {session_id: indexed_summary(session_id, doc, shared, suspect=suspect)
                            for session_id, doc in (data or {}).get("sessions", {}).items()}
        self._listed_signature, self._listed_known, self._ordered = signature, True, None

    def _set_index_aside(self, reason: str) -> None:
        if not self._index_lock.acquire(INDEX_LOCK_TIMEOUT):
            raise StoreError("store.locked")
        try:
            try:
                self._index.read()
            except DamagedFile:
                self._quarantine(INDEX, f"the list of sessions could not be read: {reason}")
                self._index.forget()
                self._listed_known = False
        finally:
            self._index_lock.release()

    def _edit_index(self, change: Callable[[MutableMapping[str, Any]], object]) -> None:
        if not self._index_lock.acquire(INDEX_LOCK_TIMEOUT):
            raise StoreError("store.locked")
        try:
            raw = self._index.read_bytes()
            entries = IndexEntries.read(raw) if raw else None
            if entries is not None:
                # The usual case: the entries the change does not touch are written back as read.
                follows = self._listed_known and self._index.signature == self._listed_signature
                self._save_noted_status(entries)
                change(entries)
                self._index.write_bytes(entries.encode())
                if follows:
                    self._follow_changes(entries, self._folder.stat(INDEX))
                else:  # another window changed it too: its summaries are read anew
                    self._listed_known = False
                    self._entries()
                return
            try:  # missing, damaged, newer, or with appended records: the general reading
                data = self._index.read() or {}
            except NewerFile as error:
                raise NewerFormat("store.index_newer", found=quoted(str(error.found))) from error
            except DamagedFile as error:
                self._quarantine(INDEX, f"the list of sessions could not be read: {error.reason}")
                self._index.forget()
                data = {}
            sessions = data.setdefault("sessions", {})
            # The summaries kept match the file read: only the entries the change touches need new ones.
            follows = self._listed_known and self._index.signature == self._listed_signature
            before = dict(sessions) if follows else {}
            self._save_noted_status(sessions)
            change(sessions)
            self._index.write(data)
            if follows:
                self._follow_index(before, sessions, self._folder.stat(INDEX))
            else:
                self._remember_index(data, self._folder.stat(INDEX), raw is None or may_hold_lone_surrogate(raw))
        finally:
            self._index_lock.release()

    def _follow_changes(self, entries: IndexEntries, signature: Signature | None) -> None:
        """Bring the kept summaries in line with an edit of the index this store made."""
        for session_id in entries.changed:
            if session_id in entries:
                self._listed[session_id] = indexed_summary(session_id, entries[session_id])
            else:
                self._listed.pop(session_id, None)
        self._listed_signature, self._ordered = signature, None

    def _follow_index(self, before: dict[str, Any], after: dict[str, Any], signature: Signature | None) -> None:
        """Bring the kept summaries in line with an edit of the index this store made (entries compared by identity)."""
        for session_id in before.keys() - after.keys():
            self._listed.pop(session_id, None)
        for session_id, doc in after.items():
            if before.get(session_id) is not doc:
                self._listed[session_id] = indexed_summary(session_id, doc)
        self._listed_signature, self._ordered = signature, None

    # ------------------------------------------------------------------ reading and repair

    def _check_id(self, session_id: Any) -> None:
        if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
            raise SessionNotFound("store.not_found", id=quoted(str(session_id)))

    def _session_ids(self, listed: Iterable[str] | None = None) -> set[str]:
        """Ids of the session files (`listed`, else a directory listing); misnamed .json files are set aside."""
        ids: set[str] = set()
        for name in self._folder.names(SESSIONS) if listed is None else listed:
            if name.startswith(".") or not name.endswith(".json"):
                continue
            session_id = name[: -len(".json")]
            if SESSION_ID.fullmatch(session_id):
                ids.add(session_id)
            else:
                self._quarantine(f"{SESSIONS}/{name}", "its name is not a session id")
        return ids

    def _sweep_temp(self, sub: str) -> None:
        """Remove temporary files left by a write that was killed (never a fresh one: it may be in flight)."""
        now = time.time()
        # Names first, a stat only for a temporary file: a folder of 10,000 sessions costs no 10,000 stats.
        for name in self._folder.names(sub):
            if not (name.startswith(".") and name.endswith(".tmp")):
                continue
            path = f"{sub}/{name}" if sub else name
            signature = self._folder.stat(path)
            if signature is not None and now - signature[2] / 1e9 > STALE_TEMP_SECONDS:
                with contextlib.suppress(OSError):  # only tidying: a read-only folder keeps them
                    self._folder.remove(path)

    def _load(self, session_id: str, lock: Lock) -> _Open:
        """Read and check a session file (its lock held). Quarantines it if it is damaged."""
        # Read through the storage that will do the writing: its cache then holds the file.
        storage = self._session_storage(session_id)
        session, created, title = self._read_session(session_id, quarantine=True, storage=storage)
        entry = self._make_open(session, session_id, lock, created, title, storage)
        return entry

    def _read_session(
        self, session_id: str, *, quarantine: bool, storage: FolderStorage | None = None
    ) -> tuple[Session, float, str]:
        """The session in its file: SessionNotFound, NewerFormat, SessionDamaged or a StoreError otherwise."""
        name = session_file(session_id)
        storage = storage or self._session_storage(session_id)
        try:
            # A long game is tens of thousands of small objects, all kept: no collector passes meanwhile.
            with self._speaking("store.unreadable"), gc_paused():
                data = storage.read()
            if data is None:
                if quarantine:
                    with contextlib.suppress(OSError, StoreError):
                        self._drop_entries([session_id])
                raise SessionNotFound("store.not_found", id=session_id)
            with gc_paused():
                session, created, title = parse_session(data)
        except NewerFile as error:
            self._newer[session_id] = self._folder.stat(name)
            if error.game is not None:
                raise NewerFormat("store.unknown_game", id=session_id, game=quoted(error.game)) from error
            raise NewerFormat("store.newer", id=session_id, found=quoted(str(error.found))) from error
        except DamagedFile as error:
            if quarantine:
                with self._speaking("store.unreadable"):
                    self._quarantine_session(session_id, error.reason)
            raise SessionDamaged("store.damaged", id=session_id, reason=error.reason) from error
        self._newer.pop(session_id, None)
        if storage.damage is not None:
            self._keep_aside(session_id, storage, quarantine)
        return session, created, title

    def _session_storage(self, session_id: str) -> FolderStorage:
        """A session file's storage: it opens what can be read of a damaged file (see `_keep_aside`)."""
        return FolderStorage(self._folder, session_file(session_id), "session", salvage=True)

    def _keep_aside(self, session_id: str, storage: FolderStorage, locked: bool) -> None:
        """Copy a file that opened with a loss into quarantine/ as it was, with a note, before
        anything rewrites it, and tell the list which game lost what (`SessionList.losses`).

        Kept once per content (a file read again as it was is not copied again). When the copy
        cannot be written, a game opened for play (`locked`) is not opened: its next change
        would rewrite the only copy of what was lost. A peek only reads, and says so anyway."""
        damage, raw = storage.damage, storage.damaged_bytes
        assert damage is not None and raw is not None
        name = session_file(session_id)
        target = f"{QUARANTINE}/{session_id}.json.{hashlib.sha256(raw).hexdigest()[:16]}"
        note = QuarantineNote(file=name, moved_to=target, reason=damage.reason, time=time.time(),
                              session=session_id, lost=damage.lost, kind=damage.kind)
        try:
            if not (self._folder.exists(target) and self._folder.exists(target + NOTE_SUFFIX)):
                self._folder.ensure(QUARANTINE)
                self._folder.write(target, raw)
                self._folder.write(target + NOTE_SUFFIX, encode(asdict(note)))
        except OSError as error:
            if locked:
                raise StoreError("store.not_kept_aside", reason=os_reason(error, self.directory)) from error
        self._losses[session_id] = note
        self._loss_count += 1

    def _repair(self, to_check: set[str], missing: list[str], *, thorough: bool = False) -> None:
        """Bring the index in line with the session files (parsing only the files named)."""
        ids = sorted(to_check)
        batches = [ids[start : start + REPAIR_BATCH] for start in range(0, len(ids), REPAIR_BATCH)] or [[]]
        for number, batch in enumerate(batches):
            self._repair_batch(batch, missing if number == 0 else [], thorough)

    def _repair_batch(self, session_ids: list[str], missing: list[str], thorough: bool) -> None:
        """Reconcile a few sessions, keeping their locks until the index is written.

        Released earlier, another window could change a session (finish it, say) and write
        its entry in between, which this repair would then overwrite with a stale one.
        """
        updates: dict[str, dict[str, Any]] = {}
        dropped: set[str] = set(missing)
        settled: list[str] = []
        held: list[Lock] = []
        index = self._entries()
        try:
            for session_id in session_ids:
                entry = self._open.get(session_id)
                if entry is not None:
                    updates[session_id] = self._index_doc(session_id, entry)
                    settled.append(session_id)
                    continue
                try:
                    lock = self._lock_session(session_id)
                except StoreError:
                    continue  # another window is writing it (it updates the index itself), or no lock here
                held.append(lock)
                try:
                    loaded = self._load(session_id, lock)
                except SessionNotFound:
                    dropped.add(session_id)
                    settled.append(session_id)
                    continue
                except (NewerFormat, SessionDamaged):
                    continue
                doc = self._index_doc(session_id, loaded)
                if not thorough or not same_summary(index.get(session_id), _indexed(session_id, doc)):
                    updates[session_id] = doc
                settled.append(session_id)
            if updates or dropped:

                def change(sessions: MutableMapping[str, Any]) -> None:
                    for session_id in dropped:
                        sessions.pop(session_id, None)
                    sessions.update(updates)

                self._edit_index(change)
            for session_id in settled:
                self._folder.remove(f"{PENDING}/{session_id}")
        finally:
            for lock in held:
                lock.release()

    def _drop_entries(self, session_ids: list[str]) -> None:
        if any(session_id in self._entries() for session_id in session_ids):

            def change(sessions: MutableMapping[str, Any]) -> None:
                for session_id in session_ids:
                    sessions.pop(session_id, None)

            self._edit_index(change)

    def _quarantine_session(self, session_id: str, reason: str) -> None:
        self._quarantine(session_file(session_id), reason)
        self._drop_entries([session_id])
        self._folder.remove(f"{PENDING}/{session_id}")

    def _quarantine(self, name: str, reason: str) -> None:
        """Move a damaged file to quarantine/ next to a note saying why; never overwrites anything."""
        self._folder.ensure(QUARANTINE)
        base = name.rsplit("/", 1)[-1]
        target, number = f"{QUARANTINE}/{base}", 1
        while self._folder.exists(target) or self._folder.exists(target + NOTE_SUFFIX):
            target, number = f"{QUARANTINE}/{base}.{number}", number + 1
        note = QuarantineNote(file=name, moved_to=target, reason=reason, time=time.time())
        self._folder.write(target + NOTE_SUFFIX, encode(asdict(note)))
        try:
            self._folder.move(name, target)
        except FileNotFoundError:  # another process set it aside (or removed it) first
            self._folder.remove(target + NOTE_SUFFIX)
            return
        except OSError:  # the file stays where it was: so must its note (no note of a move that did not happen)
            with contextlib.suppress(OSError):
                self._folder.remove(target + NOTE_SUFFIX)
            raise
        self._notes.append(note)

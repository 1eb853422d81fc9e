"""The games open for play: each change written to its file before it takes effect.

A session opened by the store (`new`, `open`) holds its file's OS lock
(`locks/<id>.lock`) and a journal: `Session.apply`, `undo` and `redo` call it *before*
changing anything in memory, and it writes the change through TinyDB's table API
(`update` of the session document: its events and cursor), which the file's storage
(storage.py) appends as one record. So when a change returns it is on disk, and a change
the disk refuses is not made at all.

Cost per change: one appended record (one write, one fdatasync; the log given is the very
same events, so the storage finds what it kept by identity: see storage.py), plus, when
the game finishes, stops being finished or changes winners, an edit of the index (one
more record) after a `pending/<id>` marker that lets the next listing repair the index if
the app dies between the two. A game's first change once opened writes its file whole (a
file saved by an earlier version is then saved as this version writes it); so does the
change after `COMPACT_EVERY` records.
"""

from __future__ import annotations

import contextlib
import threading
import time
import weakref
import zlib
from dataclasses import dataclass
from typing import Any

from tinydb import TinyDB
from tinydb.table import Document

from companion import clock
from companion.session import FORMAT_VERSION as SESSION_FORMAT
from companion.session import LogChange, Session, Times
from companion.store.errors import SessionBusy, SessionClosed, Speaking, StoreError
from companion.store.folders import Folder, Lock
from companion.store.index import Index
from companion.store.listing import (
    SESSION_ID,
    SessionSummary,
    indexed_summary,
    new_session_id,
    same_summary,
    translated_lines,
)
from companion.store.results import FinalResult, final_result, result_doc
from companion.store.session_file import outcome, session_file
from companion.store.storage import JournalStorage

LOCKS = "locks"
PENDING = "pending"
Status = Any  # Callable[[str, Any], Mapping[str, str]] | None: see Store.status


@dataclass
class Open:
    """A session open for writing here: its file's storage (through TinyDB) and lock."""

    session: Session
    db: TinyDB
    storage: JournalStorage
    lock: Lock
    created: float
    title: str
    unlisted: bool = False  # changed since its index entry was written (its status line lags)


def closed_journal(session: Session, change: LogChange, cursor: int, state: Any, times: Times) -> None:
    raise SessionClosed("store.closed")


def deleted_journal(session: Session, change: LogChange, cursor: int, state: Any, times: Times) -> None:
    raise SessionClosed("store.deleted")


def clock_fields(
    session: Session,
    created: float,
    modified: float,
    kept: SessionSummary | None = None,
    state: Any = None,
    times: Times | None = None,
) -> dict[str, float | None]:
    """The index entry's times once the game is over: "finished" (when it ended) and "played"
    (seconds of play, pauses left out), from the session's clock (`times`, when given: a change
    being saved). A game saved before clocks were kept has its times as that version took them:
    the end kept in its entry (`kept`), else its file's time (`modified`), once; and then kept."""
    times = session.times if times is None else times
    over = bool(session.game.is_over(session.state if state is None else state))
    if times.marks is None:
        finished = None
        if over:
            finished = kept.finished if kept is not None and kept.finished is not None else max(modified, created)
        return {"finished": finished, "played": None if finished is None else max(0.0, finished - created)}
    if not over:  # kept once it ends: an unfinished game's entry is not rewritten for every minute played
        return {"finished": None, "played": None}
    reading = clock.read(times.marks)
    finished = reading.ended if reading.ended is not None else times.last if times.last is not None else modified
    return {"finished": finished, "played": round(reading.played_at(finished), 3)}


def close_all(open_sessions: dict[str, Open]) -> None:
    """Close every open session and release its lock (also run when a store is dropped unclosed)."""
    for session_id in list(open_sessions):
        entry = open_sessions.pop(session_id, None)
        if entry is not None:
            entry.session.journal = closed_journal
            entry.storage.closed = True
            entry.lock.release()


def listed_outcome(session: Session, state: Any = None) -> tuple[tuple[bool, tuple[str, ...]], FinalResult | None]:
    """What the index entry says of how the game ended: a change of it rewrites the entry."""
    return outcome(session, state), final_result(session, state)


class Journal:
    """The sessions open here (`open`: id -> Open), and the writing of their changes."""

    def __init__(self, folder: Folder, index: Index, speaking: Speaking, mutex: threading.RLock) -> None:
        self._folder = folder
        self.mutex = mutex  # the store's: one change at a time
        self._index = index
        self._speaking = speaking
        self.open: dict[str, Open] = {}
        self.status: Status = None

    def lock_session(self, session_id: str) -> Lock:
        """The session's lock, acquired; SessionBusy when another window or process holds it."""
        lock = self._folder.lock(f"{LOCKS}/{session_id}.lock")
        with self._speaking("store.cannot_lock"):
            taken = lock.acquire(0)
        if not taken:
            raise SessionBusy("store.busy")
        return lock

    def storage_of(self, session_id: str) -> JournalStorage:
        """A session file's storage: it opens what can be read of a damaged file (see `Quarantine.keep_aside`)."""
        return JournalStorage(session_file(session_id), "session", folder=self._folder, salvage=True)

    def make_open(
        self,
        session: Session,
        session_id: str,
        lock: Lock,
        created: float,
        title: str,
        storage: JournalStorage | None = None,
    ) -> Open:
        # The storage that read the file, when given: its data is still cached.
        used = storage or self.storage_of(session_id)
        return Open(session, TinyDB(storage=lambda: used), used, lock, created, title)

    def attach(self, session_id: str, entry: Open) -> None:
        entry.session.id = session_id
        entry.storage.rewrite_next()  # its first change writes the file whole (as this version writes it)
        # The session holds this journal weakly: a store dropped without close() is freed at
        # once (no reference cycle) and its finalizer releases the locks.
        journal = weakref.ref(self)

        def write(session: Session, change: LogChange, cursor: int, state: Any, times: Times) -> None:
            alive = journal()
            if alive is None:
                raise SessionClosed("store.closed")
            alive.record(session, change, cursor, state, times)

        entry.session.journal = write
        self.open[session_id] = entry

    def write_new(self, entry: Open, session_doc: dict[str, Any]) -> None:
        """The whole file of a session not saved yet (one write)."""
        entry.db.table("session").insert(
            Document({**session_doc, "created": entry.created, "title": entry.title}, doc_id=1)
        )

    def put_file(
        self, session: Session, wanted: str | None, created: float, title: str, updated: float | None, lock: Lock
    ) -> tuple[str, Open]:
        """A session played elsewhere, written whole under `wanted` when that name is free, else a new id."""
        session_id = wanted if wanted is not None and SESSION_ID.fullmatch(wanted) else new_session_id()
        while self._folder.exists(session_file(session_id)):
            session_id = new_session_id()
        entry = self.make_open(session, session_id, lock, created, title)
        self.write_new(entry, session.to_dict())
        if updated is not None and updated >= created:
            entry.storage.set_mtime(int(updated * 1e9))
        return session_id, entry

    def write_title(self, entry: Open) -> None:
        entry.db.table("session").update({"title": entry.title}, doc_ids=[1])

    def record(self, session: Session, change: LogChange, cursor: int, state: Any, times: Times) -> None:
        """Save one change of an open session (the journal `Session` calls before the change is made)."""
        with self.mutex:
            entry = self.open.get(session.id or "")
            if entry is None or entry.session is not session:
                raise SessionClosed("store.closed")
            session_id = session.id or ""
            # The journal runs before the change: the session still shows the state before it.
            # The index changes only when the session finishes, stops being finished or
            # changes winners (the listing takes the updated time from the session file).
            touch_index = listed_outcome(session, state) != listed_outcome(session)
            # Only the clock moved (the same cursor): not a move, so the list keeps its order.
            played = self._folder.stat(session_file(session_id)) if cursor == session.cursor else None
            with self._speaking("store.not_saved"):
                if touch_index:  # leave a trace in case we die between the two writes
                    self._folder.write(f"{PENDING}/{session_id}", b"")
                fields = {
                    "format": SESSION_FORMAT,
                    "game": session.game.id,
                    "players": list(session.players),
                    "options": session.options,
                    "cursor": cursor,
                    "clock": times.marks,
                    "last": times.last,
                }
                entry.db.table("session").update({**fields, "events": change.whole()}, doc_ids=[1])
            if played is not None:
                with contextlib.suppress(OSError):
                    entry.storage.set_mtime(played[2])
            entry.unlisted = entry.unlisted or played is None
            if touch_index:
                # The event is saved; an index that cannot be updated now is fixed from the
                # pending marker later, so the failure must not undo the acknowledged event.
                with contextlib.suppress(OSError, StoreError):
                    self.sync_index(
                        session_id,
                        entry,
                        force=True,
                        state=state,
                        times=times,
                        length=(change.kept + len(change.added), cursor),
                    )

    def close(self, session_id: str) -> Open | None:
        """Stop writing this session: its journal refuses, no background rewrite touches its file."""
        entry = self.open.pop(session_id, None)
        if entry is not None:
            entry.session.journal = closed_journal
            self.let_go(entry)
        return entry

    def let_go(self, entry: Open) -> None:
        with entry.storage._lock:
            entry.storage.closed = True

    # ------------------------------------------------------------------ the index entry of a session

    def status_fields(self, session: Session, state: Any = None) -> dict[str, Any]:
        """The index fields of the session's status line (in `state`, when given): "status", the
        English line ("" without a status function), and "status_in", the other languages."""
        lines: Any = {}
        if self.status is not None:
            try:
                lines = self.status(session.game.id, session.state if state is None else state)
            except Exception:  # noqa: BLE001 - a line on the list must never stop a game being saved
                lines = {}
        others = {language: line for language, line in lines.items() if language != "en"}
        return {"status": lines.get("en", ""), **({"status_in": others} if others else {})}

    def index_doc(
        self,
        session_id: str,
        entry: Open,
        state: Any = None,
        times: Times | None = None,
        length: tuple[int, int] | None = None,
    ) -> dict[str, Any]:
        """The index entry of an open or loaded session (in `state`, `times` and `length` (events,
        cursor), when given: a change being saved)."""
        signature = self._folder.stat(session_file(session_id))
        is_over, winners = outcome(entry.session, state)
        updated = time.time() if signature is None else max(signature[2] / 1e9, entry.created)
        doc = {
            "game": entry.session.game.id,
            "players": list(entry.session.players),
            "created": entry.created,
            "updated": updated,
            "title": entry.title,
            "is_over": is_over,
            "winners": list(winners),
            **self.status_fields(entry.session, state),
            **clock_fields(entry.session, entry.created, updated, self._kept(session_id), state, times),
        }
        result = final_result(entry.session, state)
        if result is not None:
            doc["result"] = result_doc(result)
        # What the game held when this entry was written: a file found holding less later lost
        # changes, even cut exactly where a record begins (see `Repair.read_session`).
        last = (times or entry.session.times).last
        events, cursor = length or (entry.session.logged, entry.session.cursor)
        if last is not None:
            doc["written"] = [events, cursor, last]
        # What the entry was worked out from, so that a copy of the folder with new file times
        # is trusted without reading every game again (`Store._summaries`).
        raw = self._folder.read(session_file(session_id)) if signature is not None else None
        if raw is not None and signature is not None and len(raw) == signature[1]:
            doc["file"] = [len(raw), zlib.crc32(raw)]
        return doc

    def clock_times(self, session_id: str, entry: Open, modified: float) -> float:
        """The last time of a game saved before clocks were kept: its end as its entry kept it, or its
        file's time (its last change) when it is not over."""
        fields = clock_fields(entry.session, entry.created, modified, self._kept(session_id))
        return fields["finished"] if fields["finished"] is not None else max(modified, entry.created)

    def _kept(self, session_id: str) -> SessionSummary | None:
        """The game's entry as the index holds it (None when unknown or unreadable now)."""
        try:
            return self._index.entries().get(session_id)
        except (OSError, StoreError):
            return None

    def sync_index(
        self,
        session_id: str,
        entry: Open,
        *,
        force: bool = False,
        state: Any = None,
        times: Times | None = None,
        length: tuple[int, int] | None = None,
    ) -> None:
        doc = self.index_doc(session_id, entry, state, times, length)
        summary = indexed_summary(session_id, doc)
        if force or summary is None or not same_summary(self._index.entries().get(session_id), summary):
            self._index.edit({session_id: doc})
        entry.unlisted = False
        self._folder.remove(f"{PENDING}/{session_id}")

    def live_summary(self, session_id: str, entry: Open, signature: Any = None) -> SessionSummary:
        """The summary of a session open here, from memory (its file's mtime gives the updated time)."""
        signature = signature or self._folder.stat(session_file(session_id))
        modified = time.time() if signature is None else signature[2] / 1e9
        session = entry.session
        is_over, winners = outcome(session)
        status = self.status_fields(session)
        times = clock_fields(session, entry.created, modified, self._kept(session_id))
        return SessionSummary(
            session_id,
            session.game.id,
            session.players,
            entry.created,
            max(modified, entry.created),
            is_over,
            winners,
            entry.title,
            status["status"],
            final_result(session),
            translated_lines(status.get("status_in")),
            times["finished"],
            times["played"],
        )

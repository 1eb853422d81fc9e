"""The store's facade: its public API, one lock, and its rooms wired together (the data
folder's layout, the rooms, what each change costs, damage and faults: the package's docstring)."""

from __future__ import annotations

import contextlib
import threading
import time
import weakref
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.session import Session
from companion.store.errors import (
    SessionBusy,
    SessionDamaged,
    SessionInUse,
    SessionNotFound,
    Speaking,
    StoreError,
    os_reason,
    unwritable_folder,
)
from companion.store.folders import DiskFolder, Folder, MemoryFolder, Signature
from companion.store.index import INDEX_LOCK_TIMEOUT, Index, by_time
from companion.store.index_storage import INDEX
from companion.store.journal import LOCKS, PENDING, Journal, Open, close_all, closed_journal, deleted_journal
from companion.store.listing import SESSION_ID, QuarantineNote, SessionList, SessionSummary, new_session_id, players_of
from companion.store.quarantine import QUARANTINE, Quarantine
from companion.store.repair import Repair
from companion.store.results import FinalResult, final_result
from companion.store.session_file import SESSIONS, check_title, is_time, session_file
from companion.store.side_file import SideFiles, SideKind
from companion.text.messages import quoted

__all__ = ["QuarantineNote", "SessionList", "SessionSummary", "Store", "new_session_id"]

PUT_LOCK = f"{LOCKS}/put.lock"
# When each game's title was last changed, {id: seconds since the epoch}: an import, and a game
# played on two devices, keep the later title (aftergame/archive.py). Written beside the games,
# never in their files (an earlier version would take an unknown field there for damage).
TITLES = SideKind("titles.json", "titled", lambda key, value: SESSION_ID.fullmatch(key) is not None and is_time(value))


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
        self,
        directory: str | Path | None = None,
        *,
        durable: bool = True,
        folder: Folder | None = None,
        status: Callable[[str, Any], Mapping[str, str]] | None = None,
    ) -> None:
        self.directory = None if directory is None else Path(directory)
        if directory is not None and "\0" in str(directory):  # Python's ValueError, before any disk sees it
            raise StoreError("store.unusable", path=repr(str(directory)), reason="no disk accepts a NUL in a name")
        self._speaking = Speaking(self.directory)
        try:
            if folder is None:
                folder = MemoryFolder() if directory is None else DiskFolder(directory, durable=durable)
            self._folder: Folder = folder
            for sub in (SESSIONS, PENDING, QUARANTINE, LOCKS):
                self._folder.ensure(sub)
            self._mutex = threading.RLock()
            self._quarantine = Quarantine(self._folder, self.directory)
            self._index = Index(self._folder, self._quarantine)
            self._journal = Journal(self._folder, self._index, self._speaking, self._mutex)
            self._journal.status = status
            self._repair = Repair(self._folder, self._index, self._journal, self._quarantine, self._speaking)
            self.side_files = SideFiles(self._folder, self._quarantine)  # the table's choices beside the games
            # listing()'s last answer, the same list while nothing changed (Home's cards are kept by it):
            # 1.0 ms instead of 2.3 ms at 10,000 games, 0.14 against 0.27 ms at 1,000.
            self._listing_kept: tuple[Any, int, int, int, SessionList] | None = None
            self._checked = False  # sessions() has looked at every file once
            for sub in ("", SESSIONS, PENDING, QUARANTINE):
                self._repair.sweep_temp(sub)
            # A store dropped without close() releases its locks at once: sessions hold their
            # journal only weakly (see Journal.attach), so plain reference counting frees it.
            self._finalizer = weakref.finalize(self, close_all, self._journal.open)
            self._index.entries()  # refuse a newer data folder now, set a damaged index aside now
        except OSError as error:
            raise self._unusable(error) from error

    @property
    def status(self) -> Callable[[str, Any], Mapping[str, str]] | None:
        return self._journal.status  # type: ignore[no-any-return]

    @status.setter
    def status(self, status: Callable[[str, Any], Mapping[str, str]] | None) -> None:
        self._journal.status = status

    def check_usable(self) -> None:
        """Raise StoreError (one sentence) unless games can be listed, saved and locked here.

        Creates and removes a small file in each folder (permissions alone say nothing
        for an administrator or on a read-only disk) and takes the index lock once.
        """
        with self._mutex:
            try:
                self._index.entries()
                for sub in ("", SESSIONS, PENDING, QUARANTINE, LOCKS):
                    self._folder.probe(sub)
                if self._index.lock.acquire(0):  # held by another window: the lock works
                    self._index.lock.release()
            except OSError as error:
                raise self._unusable(error) from error

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

    # ------------------------------------------------------------------ one game

    def new(self, game: str, players: Any, options: Mapping[str, Any] | None = None, *, title: str = "") -> Session:
        """A new session, saved and open for writing. Raises RuleError for a bad set-up."""
        clean_title = check_title(title)
        session = Session.new(game, players, options)
        with self._mutex:
            session_id = new_session_id()
            while self._folder.exists(session_file(session_id)):
                session_id = new_session_id()
            try:
                lock = self._journal.lock_session(session_id)
            except StoreError as error:
                raise unwritable_folder(error, self.directory) from error.__cause__
            started = session.clock.started
            entry = self._journal.make_open(
                session, session_id, lock, time.time() if started is None else started, clean_title
            )
            try:
                with self._speaking("store.not_created"):
                    self._journal.write_new(entry, session.to_dict())
                    self._index.edit({session_id: self._journal.index_doc(session_id, entry)})
            except BaseException as error:
                with contextlib.suppress(OSError):
                    self._folder.remove(session_file(session_id))
                lock.release()
                if isinstance(error, StoreError):
                    raise unwritable_folder(error, self.directory) from error.__cause__
                raise
            self._journal.attach(session_id, entry)
            return session

    def open(self, session_id: str) -> Session:
        """The saved session, open for writing (the same object if this store has it open already).

        Raises SessionNotFound, SessionBusy (open in another window), NewerFormat (saved
        by a newer version; the file is left untouched) or SessionDamaged (the file was
        moved to the quarantine folder).
        """
        _check_id(session_id)
        with self._mutex:
            if session_id in self._journal.open:
                return self._journal.open[session_id].session
            entry = self._locked_load(session_id)
            with contextlib.suppress(OSError, StoreError):  # the listing repairs the index later
                self._journal.sync_index(session_id, entry)
            self._journal.attach(session_id, entry)
            self._run_clock(session_id, entry)
            return entry.session

    def _locked_load(self, session_id: str) -> Open:
        """The saved session read under its lock, which it then holds (released again if it cannot be read)."""
        lock = self._journal.lock_session(session_id)
        try:
            return self._repair.load(session_id, lock)
        except BaseException:
            lock.release()
            raise

    def _run_clock(self, session_id: str, entry: Open) -> None:
        """A game opened for play: its clock runs (unless paused or over), ending first a run that
        ended unsaid at its last change. A game saved before clocks were kept first takes its
        times as its entry kept them (see `clock_fields`). Saved with the game's next change:
        opening a game writes nothing (see `Session.apply`)."""
        session = entry.session
        if session.times.marks is None:
            signature = self._folder.stat(session_file(session_id))
            modified = time.time() if signature is None else signature[2] / 1e9
            kept = self._journal.clock_times(session_id, entry, modified)
            session.apply({"type": "clock", "mark": "taken", "since": entry.created, "at": kept})
        session.apply({"type": "clock", "mark": "open"})

    def peek(self, session_id: str) -> Session:
        """The saved session as it is now, without locking it (another window may be playing it).

        The copy records nothing. Raises like `open`; a damaged file is set aside only
        when its lock can be taken (so a file being rewritten is never moved).
        """
        _check_id(session_id)
        with self._mutex:
            if session_id in self._journal.open:
                return Session.from_dict(self._journal.open[session_id].session.to_dict())
            storage = self._journal.storage_of(session_id)
            try:
                session, _, _ = self._repair.read_session(session_id, quarantine=False, storage=storage)
            except SessionDamaged:
                self.open(session_id)  # under the lock: sets it aside (or finds it repaired)
                self.close_session(session_id)
                session, _, _ = self._repair.read_session(session_id, quarantine=False, storage=storage)
            session.journal = closed_journal
            if self.status is not None and self._index.lacks_status(session_id):
                self._index.note_status(session_id, self._journal.status_fields(session), storage.signature)
            return session

    def saved(self, session_id: str) -> tuple[dict[str, Any], Signature] | None:
        """A game's document as its file holds it now (no replay, no lock, nothing set aside) and
        the file's identity then; None when it cannot be read. Safe from any thread."""
        _check_id(session_id)
        return self._repair.saved(session_id)

    def close_session(self, session_id: str) -> None:
        """Stop writing this session and release its lock; the Session object refuses further changes.

        A session changed since its index entry was written has that entry brought up to
        date first (its status line); if the index cannot be written, the listing repairs it.
        """
        with self._mutex:
            entry = self._journal.close(session_id)
            if entry is None:
                return
            try:
                if entry.unlisted:
                    with contextlib.suppress(OSError, StoreError):
                        self._journal.sync_index(session_id, entry)
            finally:
                entry.lock.release()

    def close(self) -> None:
        """Close every open session (the store itself stays usable)."""
        with self._mutex:
            for session_id in list(self._journal.open):
                self.close_session(session_id)
            if self._index.has_noted:
                with contextlib.suppress(OSError, StoreError):  # only a courtesy: the lines are worked out again
                    self._index.edit()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def is_open(self, session_id: str) -> bool:
        """Whether this store has the game open for writing (on a screen): nothing replaces it meanwhile."""
        return session_id in self._journal.open

    def delete(self, session_id: str) -> None:
        """Delete a session for good (closing it first if this store has it open)."""
        _check_id(session_id)
        with self._mutex:
            entry = self._journal.open.get(session_id)
            if entry is not None:
                lock = entry.lock
            else:
                try:
                    lock = self._journal.lock_session(session_id)
                except SessionBusy as error:
                    raise SessionInUse("store.in_use") from error
            try:
                with self._speaking("store.not_deleted"):
                    self._folder.remove(session_file(session_id))
                # Gone from the disk: from here on the game is deleted, whatever else fails.
                self._repair.newer.pop(session_id, None)
                self._quarantine.forget_loss(session_id)
                if entry is not None:
                    del self._journal.open[session_id]
                    entry.session.journal = deleted_journal
                    self._journal.let_go(entry)
                with contextlib.suppress(OSError, StoreError):  # a stale entry is dropped by the listing
                    self._index.edit(drops=[session_id])
                    self._folder.remove(f"{PENDING}/{session_id}")
            finally:
                if entry is None or session_id not in self._journal.open:
                    lock.release()
            # Ids are never reused, so whoever locks this name later finds no session: safe to remove.
            with contextlib.suppress(OSError):
                self._folder.remove(f"{LOCKS}/{session_id}.lock")

    def rename(self, session_id: str, title: str, titled: float | None = None) -> None:
        """Give a session a title ("" to let the UI compose one), changed at `titled` (now by
        default; an import passes the time it was changed on the other device)."""
        clean_title = check_title(title)
        _check_id(session_id)
        with self._mutex:
            entry = self._journal.open.get(session_id)
            borrowed = entry is None
            if entry is None:
                entry = self._locked_load(session_id)
            try:
                previous = entry.title
                with self._speaking("store.not_renamed"):
                    self._folder.write(f"{PENDING}/{session_id}", b"")
                    played = self._folder.stat(session_file(session_id))
                    entry.title = clean_title
                    try:
                        self._journal.write_title(entry)
                    except BaseException:
                        entry.title = previous
                        raise
                # Saved in the session file: an index that cannot follow now is fixed from the
                # pending marker by the next listing.
                if played is not None:  # a new title is not a move: the list keeps its place
                    with contextlib.suppress(OSError):
                        entry.storage.set_mtime(played[2])
                with contextlib.suppress(OSError, StoreError):
                    self._journal.sync_index(session_id, entry, force=True)
            finally:
                if borrowed:
                    entry.lock.release()
        self.note_titled({session_id: time.time() if titled is None else titled})

    def note_titled(self, times: Mapping[str, float]) -> None:
        """Keep when these games' titles were last changed (`TITLES`): the file's time says when
        it was last played, not retitled, and an import takes the later title. Not kept when the
        disk refuses: the title is saved, and an import then keeps the title here."""
        with contextlib.suppress(OSError):
            self.side_files.update(TITLES, lambda kept: {**kept, **times})

    # ------------------------------------------------------------------ the list

    def sessions(self) -> SessionList:
        """Summaries of every session, newest first; see `SessionList` for what else it reports."""
        with self._mutex, self._speaking("store.unreadable"):
            for attempt in range(2):
                index = self._index.entries()
                signatures = self._folder.signatures(SESSIONS)  # one pass: a stat per game, no path built
                names = self._repair.session_ids(signatures)
                summaries, to_check = self._summaries(index, names, signatures)
                to_check |= names - index.keys()
                to_check |= {name for name in self._folder.names(PENDING) if SESSION_ID.fullmatch(name)}
                newer = self._repair.newer
                to_check = {
                    session_id
                    for session_id in to_check
                    if newer.get(session_id) != self._folder.stat(session_file(session_id))
                }
                missing = [session_id for session_id in index if session_id not in names]
                if attempt == 0 and (to_check or missing):
                    before = (self._folder.stat(INDEX), len(self._quarantine.notes), len(newer))
                    with contextlib.suppress(OSError, StoreError):  # read-only: list what can be listed
                        self._repair.repair(to_check, missing)
                    if before != (self._folder.stat(INDEX), len(self._quarantine.notes), len(newer)):
                        continue  # list again what the repair changed (not when every game was busy elsewhere)
                break
            summaries.sort(key=by_time, reverse=True)
            self._index.keep_order(summaries)  # the open sessions as they were: listing() shows them live
            self._checked = True
            return self._list(summaries)

    def _list(self, summaries: list[SessionSummary]) -> SessionList:
        return SessionList(
            summaries,
            self._quarantine.notes,
            sorted(self._repair.newer),
            losses=self._quarantine.losses.values(),
            side_losses=self._quarantine.side_losses.values(),
        )

    def listing(self) -> SessionList:
        """What `sessions()` gives, from what this store knows: no file is looked at but the index
        (one stat) and the sessions open here, so its cost does not grow with the archive.

        The first call (and any after another window changed the index) is a `sessions()`.
        A game played in another window shows the status it had when that window last wrote the index.
        While nothing changes it answers the same list object: do not modify it.
        """
        with self._mutex, self._speaking("store.unreadable"):
            if not self._checked or not self._index.current():
                return self.sessions()
            ordered = self._index.ordered()
            live = [
                self._journal.live_summary(session_id, entry)
                for session_id, entry in self._journal.open.items()
                if session_id in self._index.listed
            ]
            if not live:
                # The same list while nothing changed, so that a caller may keep what it worked out from it.
                notes = (ordered, len(self._quarantine.notes), len(self._repair.newer), self._quarantine.loss_count)
                kept = self._listing_kept
                if kept is None or kept[0] is not notes[0] or kept[1:4] != notes[1:]:
                    kept = self._listing_kept = (*notes, self._list(ordered))
                return kept[4]
            shown = {summary.id for summary in live}
            merged = live + [summary for summary in ordered if summary.id not in shown]
            merged.sort(key=by_time, reverse=True)
            return self._list(merged)

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
            entry = self._journal.open.get(session_id)
            if entry is not None:
                summaries.append(self._journal.live_summary(session_id, entry, signature))
                continue
            updated = max(signature[2] / 1e9, summary.created)
            if updated > summary.updated and self._unchanged(session_id, summary, signature):
                summaries.append(summary)  # its time moved (a copy), not its bytes: "last played" stays
                continue
            if summary.status and updated > summary.updated:
                unreadable.add(session_id)
            # The kept summary itself when nothing changed: the list and the store share it.
            summaries.append(summary if updated == summary.updated else summary._replace(updated=updated))
        return summaries, unreadable

    def _unchanged(self, session_id: str, summary: SessionSummary, signature: Signature) -> bool:
        """Whether a session file whose time is later than its entry holds the bytes the entry was
        worked out from (its size, then a CRC-32 of them: one read, no parse, no replay)."""
        if summary.file is None or summary.file[0] != signature[1]:
            return False
        try:
            raw = self._folder.read(session_file(session_id))
        except OSError:
            return False
        return raw is not None and (len(raw), zlib.crc32(raw)) == summary.file

    def known_players(self) -> list[str]:
        """Player names of earlier sessions, most recently played first, each once (as names compare)."""
        return players_of(self.listing())  # the index as known: never a look at every file

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
                    self._index.keep_results(found)
                listing = self.listing()
            return [
                summary
                if summary.result is not None or summary.id not in found
                else summary._replace(result=found[summary.id][0])
                for summary in listing
                if summary.is_over
            ]

    # ------------------------------------------------------------------ games played elsewhere

    def put_many(self, sessions: list[tuple[Session, str | None, float, str, float | None]]) -> list[str]:
        """Save whole sessions played elsewhere (an import, a backup), with one write of the index
        for all of them, and return their ids.

        Each is `(session, session_id, created, title, updated)`, written under `session_id`
        when that name is free, else under a new id: nothing present is ever overwritten.
        `updated` becomes its file's time (the list's order). The session objects stay
        unsaved: open a returned id to play on.
        """
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
                    session_id, entry = self._journal.put_file(
                        session, wanted, created, check_title(title), updated, lock
                    )
                    docs[session_id] = self._journal.index_doc(session_id, entry)
                    ids.append(session_id)
                if docs:
                    # A file written without its index entry is listed by the next repair: no pending marker needed.
                    self._index.edit(docs)
                return ids
            finally:
                lock.release()

    def replace(self, session_id: str, session: Session, *, title: str, updated: float | None = None) -> None:
        """Save `session` in place of the game saved under `session_id` (an import of that game
        played on elsewhere), written whole in one atomic write; its creation time stays.

        SessionBusy while the game is open here or in another window: nobody's game changes
        under their fingers. StoreError when the disk refuses (the saved game is then as it was).
        """
        clean_title = check_title(title)
        _check_id(session_id)
        with self._mutex:
            if session_id in self._journal.open:
                raise SessionBusy("store.busy")
            lock = self._journal.lock_session(session_id)
            try:
                entry = self._repair.load(session_id, lock)
                with self._speaking("store.not_put"):
                    self._folder.write(f"{PENDING}/{session_id}", b"")
                    entry.storage.rewrite_next()
                    entry.db.table("session").update({**session.to_dict(), "title": clean_title}, doc_ids=[1])
                entry.session, entry.title = session, clean_title
                if updated is not None and updated >= entry.created:
                    with contextlib.suppress(OSError):
                        entry.storage.set_mtime(int(updated * 1e9))
                with contextlib.suppress(OSError, StoreError):  # the pending marker has the listing fix it
                    self._journal.sync_index(session_id, entry, force=True)
            finally:
                lock.release()

    # ------------------------------------------------------------------ housekeeping

    def _verify(self) -> SessionList:
        """Parse every session file (slow; only the tests ask), set damaged ones aside, fix the index."""
        with self._mutex:
            with self._speaking("store.unreadable"):
                ids = self._repair.session_ids()
                self._repair.repair(
                    {session_id for session_id in ids if session_id not in self._journal.open}, [], thorough=True
                )
            return self.sessions()

    def quarantine_notes(self) -> list[QuarantineNote]:
        """Every file ever set aside in this data folder, newest first."""
        with self._speaking("store.unreadable"):
            return self._quarantine.all_notes()

    def compact_now(self) -> None:
        """Rewrite whole, now, every file that piled up records (a bench or a test: the app lets a
        file pile up `COMPACT_EVERY` records, then the write after them rewrites it)."""
        with self._mutex:
            for entry in self._journal.open.values():
                if entry.storage.records:
                    entry.storage.compact()
            self._index.entries()
            if self._index.storage.records or self._index.storage.older_format:
                self._index.storage.compact()


def _check_id(session_id: Any) -> None:
    if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
        raise SessionNotFound("store.not_found", id=quoted(str(session_id)))

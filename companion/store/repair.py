"""Reading session files that may be damaged, and bringing the index in line with them.

A session file is read through its storage (storage.py): what cannot be read at all is
moved to quarantine/ with a note and the game is `SessionDamaged`; a file whose end or
checksum fails opens with what can be read, its bytes copied aside first
(`Quarantine.keep_aside`); a file of a newer format or game is left untouched
(`NewerFormat`, remembered in `newer` until the file changes).

The index lags behind the files after a crash between a session write and its index edit
(`pending/<id>` markers), for files without an entry (a crash inside `new`, an index
rebuilt after damage), and for entries whose status line is older than their file (the app
stopped with the game open). `repair` parses only those files, `REPAIR_BATCH` at a time,
each batch's session locks held until its index edit is written, so that another window
cannot change a game in between. Temporary files left by a killed write are removed once
they are an hour old (never a fresh one: it may be in flight).

Cost: nothing when nothing lags (the listing looks at one stat per file); a parse and a
replay per lagging file otherwise.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable
from typing import Any

from companion.session import Session
from companion.store.errors import (
    DamagedFile,
    NewerFile,
    NewerFormat,
    SessionDamaged,
    SessionNotFound,
    Speaking,
    StoreError,
)
from companion.store.file_format import DAMAGED, META, Damage, parse_file
from companion.store.folders import Folder, Lock, Signature
from companion.store.index import Index
from companion.store.journal import PENDING, Journal, Open
from companion.store.listing import SESSION_ID, indexed_summary, same_summary
from companion.store.quarantine import Quarantine
from companion.store.session_file import SESSIONS, parse_session, session_file
from companion.store.storage import JournalStorage
from companion.text.messages import quoted

STALE_TEMP_SECONDS = 3600.0
REPAIR_BATCH = 64  # sessions locked at once while the index is repaired (each disk lock is a file handle)


class Repair:
    """Reading and repair for one store (see the module's docstring)."""

    def __init__(
        self, folder: Folder, index: Index, journal: Journal, quarantine: Quarantine, speaking: Speaking
    ) -> None:
        self._folder = folder
        self._index = index
        self._journal = journal
        self._quarantine = quarantine
        self._speaking = speaking
        self.newer: dict[str, Signature | None] = {}  # sessions saved by a newer version, as their files were

    # ------------------------------------------------------------------ reading a session

    def load(self, session_id: str, lock: Lock) -> Open:
        """Read and check a session file (its lock held). Quarantines it if it is damaged."""
        # Read through the storage that will do the writing: its cache then holds the file.
        storage = self._journal.storage_of(session_id)
        session, created, title = self.read_session(session_id, quarantine=True, storage=storage)
        return self._journal.make_open(session, session_id, lock, created, title, storage)

    def read_session(
        self, session_id: str, *, quarantine: bool, storage: JournalStorage | None = None
    ) -> tuple[Session, float, str]:
        """The session in its file: SessionNotFound, NewerFormat, SessionDamaged or a StoreError otherwise."""
        storage = storage or self._journal.storage_of(session_id)
        try:
            with self._speaking("store.unreadable"):
                data = storage.read()
            if data is None:
                if quarantine:
                    with contextlib.suppress(OSError, StoreError):
                        self.drop_entries([session_id])
                raise SessionNotFound("store.not_found", id=session_id)
            session, created, title = parse_session(data)
        except NewerFile as error:
            self.newer[session_id] = self._folder.stat(session_file(session_id))
            if error.game is not None:
                raise NewerFormat("store.unknown_game", id=session_id, game=quoted(error.game)) from error
            raise NewerFormat("store.newer", id=session_id, found=quoted(str(error.found))) from error
        except DamagedFile as error:
            if quarantine:
                with self._speaking("store.unreadable"):
                    self.quarantine_session(session_id, error.reason)
            raise SessionDamaged("store.damaged", id=session_id, reason=error.reason) from error
        self.newer.pop(session_id, None)
        if storage.damage is not None and storage.damaged_bytes is not None:
            self._quarantine.keep_aside(session_id, storage.damage, storage.damaged_bytes, quarantine)
        else:
            cut = self._shorter_than_listed(session_id, session)
            raw = None if cut is None else self._folder.read(session_file(session_id))
            if cut is not None and raw is not None:
                self._quarantine.keep_aside(session_id, cut, raw, quarantine)
        return session, created, title

    def _shorter_than_listed(self, session_id: str, session: Session) -> Damage | None:
        """The loss of a file that reads whole but holds less than its index entry was written
        with: cut exactly where a record begins (nothing in its bytes tells). Its last change is
        then older than the entry's; a change after the entry only moves it on (undo, redo and
        a change after an undo too, though the log may shorten). None when nothing says so: an
        entry of an earlier version, a game without clock, or an entry behind its file (a
        pending marker: the write of the entry may not have happened)."""
        try:
            kept = self._index.entries().get(session_id)
        except (OSError, StoreError):
            return None
        last = session.times.last
        if kept is None or kept.written is None or last is None:
            return None
        events, cursor, kept_last = kept.written
        # The same time and another length: a change in the tick after the entry was written
        # (no table taps that fast) or a cut within one tick (a test's clock, a coarse one).
        if last > kept_last or (session.logged, session.cursor) == (events, cursor):
            return None
        if self._folder.exists(f"{PENDING}/{session_id}"):
            return None
        lost = max(1, events - session.logged, abs(cursor - session.cursor))
        return Damage(DAMAGED, lost, "it ends before changes its entry in the list was saved with")

    def quarantine_session(self, session_id: str, reason: str) -> None:
        self._quarantine.move(session_file(session_id), reason)
        self.drop_entries([session_id])
        self._folder.remove(f"{PENDING}/{session_id}")

    def drop_entries(self, session_ids: list[str]) -> None:
        if any(session_id in self._index.entries() for session_id in session_ids):
            self._index.edit(drops=session_ids)

    def saved(self, session_id: str) -> tuple[dict[str, Any], Signature] | None:
        """A session's document as its file holds it now, and the file's identity then; None when
        it cannot be read (missing, newer, damaged beyond reading). Reads only: nothing is set
        aside, nothing is locked, no rule replays it; a file being changed is read again."""
        name = session_file(session_id)
        for _ in range(3):
            before = self._folder.stat(name)
            raw = self._folder.read(name)
            if raw is None or before is None:
                return None
            if self._folder.stat(name) != before:
                continue  # written while read: read it again, whole
            try:
                data = parse_file(raw, kind="session", salvage=True).data
            except (DamagedFile, NewerFile):
                return None
            table = data.get("session", {})
            doc = table.get("1")
            if set(data) - {META} != {"session"} or set(table) != {"1"} or not isinstance(doc, dict):
                return None
            return doc, before
        return None

    # ------------------------------------------------------------------ the folder

    def session_ids(self, listed: Iterable[str] | None = None) -> set[str]:
        """Ids of the session files (`listed`, else a directory listing); misnamed .json files are set aside."""
        ids: set[str] = set()
        for name in self._folder.names(SESSIONS) if listed is None else listed:
            if name.startswith(".") or not name.endswith(".json"):
                continue
            session_id = name[: -len(".json")]
            if SESSION_ID.fullmatch(session_id):
                ids.add(session_id)
            else:
                self._quarantine.move(f"{SESSIONS}/{name}", "its name is not a session id")
        return ids

    def sweep_temp(self, sub: str) -> None:
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

    # ------------------------------------------------------------------ the index

    def repair(self, to_check: set[str], missing: list[str], *, thorough: bool = False) -> None:
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
        index = self._index.entries()
        try:
            for session_id in session_ids:
                entry = self._journal.open.get(session_id)
                if entry is not None:
                    updates[session_id] = self._journal.index_doc(session_id, entry)
                    settled.append(session_id)
                    continue
                try:
                    lock = self._journal.lock_session(session_id)
                except StoreError:
                    continue  # another window is writing it (it updates the index itself), or no lock here
                held.append(lock)
                try:
                    loaded = self.load(session_id, lock)
                except SessionNotFound:
                    dropped.add(session_id)
                    settled.append(session_id)
                    continue
                except (NewerFormat, SessionDamaged):
                    continue
                doc = self._journal.index_doc(session_id, loaded)
                summary = indexed_summary(session_id, doc)
                if not thorough or summary is None or not same_summary(index.get(session_id), summary):
                    updates[session_id] = doc
                settled.append(session_id)
            if updates or dropped:
                self._index.edit(updates, drops=dropped - updates.keys())
            for session_id in settled:
                self._folder.remove(f"{PENDING}/{session_id}")
        finally:
            for lock in held:
                lock.release()

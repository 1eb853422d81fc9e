"""The list of games: `index.json`, kept as compact summaries, changed by appended records.

Layout: a TinyDB file, table "sessions", one document per session under the number its id
stands for (format 3, `index_file.doc_key`: TinyDB's document ids are numbers): id, game,
players, created, updated, title, is_over, winners, status and status_in (the line Home
shows, in English and the other languages), once finished its result (results.py), and
`written`: [events, cursor, time of the last change] as the entry was written, so that a
session file found holding less is known to have lost changes (`Repair.read_session`).

Reading: one entry at a time straight into summaries (`listing.index_summaries`, over the
scanner of index_file.py), then the records appended after the document; the summaries are
kept while the file is the one read (one stat tells), so Home never replays or parses a
game. A file the scanner steps aside from is read the general way (`file_format.parse_file`):
a damaged index is set aside in quarantine/ and rebuilt from the session files (repair.py).

Writing: through TinyDB's table API (`insert`, `update`, `remove`), which the index's storage
(index_storage.py) turns into one appended record per entry: a new game, a game finished
(or unfinished through undo, or its winners changed), renamed, deleted, or closed after
changes (its status line) costs one write and one fdatasync, and the summaries follow the
entries written without reading the file again. The index lock (`locks/index.lock`) is
held meanwhile, so two windows never interleave their edits.

Entries saved by an earlier version have no status line: a `peek` works it out and it is
written with the next edit (`note_status`); finished ones have no result: `Store.finished()`
works them out once and keeps them (`keep_results`).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, MutableMapping
from typing import Any

from tinydb import TinyDB
from tinydb.table import Document, Table

from companion.store.errors import DamagedFile, NewerFile, NewerFormat, StoreError
from companion.store.file_format import META, Data, may_hold_lone_surrogate, parse_file
from companion.store.folders import Folder, Signature
from companion.store.index_file import INDEX_FORMAT, SESSIONS_TABLE, by_session
from companion.store.index_storage import INDEX, IndexStorage
from companion.store.listing import SessionSummary, checked, index_summaries, indexed_summary
from companion.store.quarantine import Quarantine
from companion.store.results import FinalResult, result_doc, result_of
from companion.store.session_file import session_file
from companion.store.shared import Shared
from companion.text.messages import quoted

INDEX_LOCK = "locks/index.lock"
INDEX_LOCK_TIMEOUT = 10.0


class _ByName(Table):
    # The store's table is keyed by session id (the storage translates to the file's numbers).
    # TinyDB's own `_update_table` walks the ids twice per edit: 1.1-1.4 ms of CPU at 10,000
    # games (tests/bench/README.md, index_edits.py), which moves no goal's verdict, so that
    # private method is no longer overridden.
    document_id_class = str  # type: ignore[assignment]


class _IndexDB(TinyDB):
    table_class = _ByName


def by_time(summary: SessionSummary) -> tuple[float, str]:
    """Sort key: lists run newest first (`reverse=True`), ties by id."""
    return summary.updated, summary.id


class _Later:
    """A sort key for a list that runs newest first (`by_time` reversed): bisect keeps it sorted."""

    __slots__ = ("key",)

    def __init__(self, summary: SessionSummary) -> None:
        self.key = by_time(summary)

    def __lt__(self, other: _Later) -> bool:
        return self.key > other.key


def _replaced_by(entry: dict[str, Any]) -> Any:
    def replace(current: MutableMapping[str, Any]) -> None:
        current.clear()  # a replacement: what the entry held is never read
        current.update(entry)

    return replace


class Index:
    """The index of one data folder, as summaries (`listed`: id -> summary, None for an entry of the wrong shape)."""

    def __init__(self, folder: Folder, quarantine: Quarantine) -> None:
        self._folder = folder
        self._quarantine = quarantine
        self.lock = folder.lock(INDEX_LOCK)
        self.storage = IndexStorage(folder, lambda: self.listed, folder.lock(INDEX_LOCK))
        self._db = _IndexDB(storage=lambda: self.storage)
        self.listed: dict[str, SessionSummary | None] = {}
        self.signature: Signature | None = None
        self.known = False  # `listed` holds the index file of `signature`
        # `listed` newest first, sorted once per change: a Home redraw's list 1.0 ms instead of 11.3 ms
        # at 10,000 games (0.14 against 0.96 ms at 1,000), measured with and without.
        self._ordered: list[SessionSummary] | None = None
        self._unsaved_status: dict[str, tuple[dict[str, Any], Signature]] = {}  # see note_status

    # ------------------------------------------------------------------ reading

    def current(self) -> bool:
        """Whether the summaries held are those of the file as it is (one stat)."""
        if not self.known:
            return False
        signature = self._folder.stat(INDEX)
        if signature == self.signature:
            return True
        if signature is not None and self.storage.rewritten == (self.signature, signature):
            self.signature = signature  # rewritten whole by `compact`: the same entries
            return True
        return False

    def entries(self) -> dict[str, SessionSummary | None]:
        """The index as summaries, read again when the file changed (NewerFormat for a newer index)."""
        if self.current():
            return self.listed
        signature = self._folder.stat(INDEX)
        raw = None if signature is None else self._folder.read(INDEX)
        if raw:
            scanned = index_summaries(raw)  # one entry at a time: not the whole index in memory at once
            if scanned is not None:
                summaries, tables, records = scanned
                self._remembered(summaries, signature, _version(tables), records)
                return self.listed
        try:  # missing, damaged, newer, or with records of other kinds: the general reading says which
            parsed = None if raw is None else parse_file(raw, kind="index", plain=True)
        except NewerFile as error:
            raise NewerFormat("store.index_newer", found=quoted(str(error.found))) from error
        except DamagedFile as error:
            self.set_aside(error.reason)
            return {}
        data: Data = {} if parsed is None else parsed.data
        shared = Shared()  # one copy of each name list and status line
        suspect = raw is None or may_hold_lone_surrogate(raw)
        summaries = {
            session_id: indexed_summary(session_id, doc, shared, suspect=suspect)
            for session_id, doc in by_session(data).items()
        }
        self._remembered(
            summaries,
            signature,
            INDEX_FORMAT if parsed is None else _version(data),
            0 if parsed is None else parsed.records,
            torn=parsed is not None and parsed.damage is not None,
        )
        return self.listed

    def _remembered(
        self,
        summaries: dict[str, SessionSummary | None],
        signature: Signature | None,
        version: int,
        records: int,
        *,
        torn: bool = False,
    ) -> None:
        self.listed, self.signature, self.known, self._ordered = summaries, signature, True, None
        self.storage.adopt(signature, records, version, torn)

    def ordered(self) -> list[SessionSummary]:
        """The summaries newest first (worked out once per change)."""
        if self._ordered is None:
            self._ordered = sorted(
                (summary for summary in self.listed.values() if summary is not None), key=by_time, reverse=True
            )
        return self._ordered

    def _reorder(self, old: SessionSummary | None, new: SessionSummary | None) -> None:
        """`old` out of the list newest first and `new` in at its place; the list is sorted again
        when next asked for if `old` is not in it as it is (a listing kept it with other times)."""
        if self._ordered is None:
            return
        ordered = self._ordered = list(self._ordered)  # a new list per change: a listing kept knows it by it
        if old is not None:
            at = bisect.bisect_left(ordered, _Later(old), key=_Later)
            if at < len(ordered) and ordered[at] is old:
                del ordered[at]
            else:
                self._ordered = None
                return
        if new is not None:
            bisect.insort(ordered, new, key=_Later)

    def keep_order(self, summaries: list[SessionSummary]) -> None:
        """The list newest first as a full listing found it (updated times from the files)."""
        self._ordered = summaries

    def set_aside(self, reason: str) -> None:
        """Move a damaged index to quarantine/ (if it still is damaged once the lock is held)."""
        if not self.lock.acquire(INDEX_LOCK_TIMEOUT):
            raise StoreError("store.locked")
        try:
            raw = self._folder.read(INDEX)
            try:
                if raw is not None:
                    parse_file(raw, kind="index", plain=True)
            except DamagedFile:
                self._quarantine.move(INDEX, f"the list of sessions could not be read: {reason}")
                self.storage.forget()
                self.known = False
        finally:
            self.lock.release()

    # ------------------------------------------------------------------ writing

    def edit(self, puts: Mapping[str, dict[str, Any]] | None = None, drops: Iterable[str] = ()) -> None:
        """Set these entries (whole) and remove those, through TinyDB: one appended record each."""
        if not self.lock.acquire(INDEX_LOCK_TIMEOUT):
            raise StoreError("store.locked")
        try:
            self.entries()
            puts = {
                session_id: checked(session_id, entry)
                for session_id, entry in {**self._noted(), **(puts or {})}.items()
            }
            table = self._db.table(SESSIONS_TABLE)
            new = {session_id: entry for session_id, entry in puts.items() if session_id not in self.listed}
            if new:
                table.insert_multiple(Document(entry, doc_id=session_id) for session_id, entry in new.items())  # type: ignore[arg-type]
                self._follow(new)
            for session_id, entry in puts.items():
                if session_id not in new:
                    table.update(_replaced_by(entry), doc_ids=[session_id])  # type: ignore[list-item]
                    self._follow({session_id: entry})
            gone = [
                session_id
                for session_id in dict.fromkeys(drops)
                if session_id in self.listed and session_id not in puts
            ]
            if gone:
                table.remove(doc_ids=gone)  # type: ignore[arg-type]
                self._follow(dict.fromkeys(gone))
        finally:
            self.lock.release()

    def _follow(self, changed: Mapping[str, dict[str, Any] | None]) -> None:
        """Bring the summaries in line with entries this store just wrote, and the list newest
        first with them (one taken out, one put in its place: no sort of 10,000 per edit)."""
        for session_id, entry in changed.items():
            old = self.listed.get(session_id)
            if entry is None:
                self.listed.pop(session_id, None)
                new = None
            else:
                new = self.listed[session_id] = indexed_summary(session_id, entry)
            self._reorder(old, new)
        self.signature = self.storage.signature
        if not self.storage.lean:  # written the general way (no index yet): read it anew next time
            self.known = False

    def lacks_status(self, session_id: str) -> bool:
        """Whether the game's entry, as known, was saved without a status line (by an earlier version)."""
        listed = self.listed.get(session_id) if self.known else None
        return listed is not None and not listed.status

    def note_status(self, session_id: str, fields: dict[str, Any], signature: Signature | None) -> None:
        """Keep the status line of a game whose entry an earlier version saved without one.

        It is written with the next edit of the index (or when the store closes), if the
        file is still the one read: upgrading an archive costs no extra write of the index.
        """
        if self.lacks_status(session_id) and signature is not None:
            self._unsaved_status[session_id] = (fields, signature)

    @property
    def has_noted(self) -> bool:
        return bool(self._unsaved_status)

    def _noted(self) -> dict[str, dict[str, Any]]:
        """The entries of the noted status lines, merged into the entries as the file holds them."""
        noted, self._unsaved_status = self._unsaved_status, {}
        if not noted:
            return {}
        found = self.storage.entries(noted)
        puts = {}
        for session_id, (status, signature) in noted.items():
            doc, summary = found.get(session_id), self.listed.get(session_id)
            if not isinstance(doc, dict) or summary is None or "status" in doc:
                continue
            if self._folder.stat(session_file(session_id)) != signature:
                continue  # changed since it was read: its line is worked out again
            # An entry saved before clocks were kept keeps the end it was saved with, not the file's time now.
            kept = {} if "finished" in doc else {"finished": summary.finished, "played": summary.played}
            puts[session_id] = {**doc, **status, **kept, "updated": max(signature[2] / 1e9, summary.created)}
        return puts

    def keep_results(self, found: dict[str, tuple[FinalResult, Signature]]) -> None:
        """Write the results worked out for entries saved without one (if their files did not change)."""
        entries = self.storage.entries(found)
        puts = {}
        for session_id, (result, signature) in found.items():
            doc = entries.get(session_id)
            if not isinstance(doc, dict) or result_of(doc.get("result"), len(result.scores)) is not None:
                continue  # kept already (by another process)
            if self._folder.stat(session_file(session_id)) == signature:  # else changed since: worked out again
                puts[session_id] = {**doc, "result": result_doc(result)}
        if puts:
            self.edit(puts)


def _version(tables: Mapping[str, Any]) -> int:
    meta = tables.get(META, {}).get("1", {})
    version = meta.get("format", 1) if isinstance(meta, dict) else 1
    return version if type(version) is int else 1

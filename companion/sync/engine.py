"""One round of sync between a data folder and a CouchDB database: take what changed there,
send what changed here, so that both hold the same games and the same choices.

The database holds (README, "Sync"):

    companion          {"kind": "companion", "format": 1}: this database is Companion's
    game:<id>          {"kind": "game", "format": 1, "game": <the game as an archive holds it>,
                        "counted": true|false|null, "copy_of": <id>|null, "titled": <time>|null}
    alias:<key>        {"kind": "alias", "name": "Rob"}: the player `key` is counted as Rob

(documents.py). A deleted game or rename is a deleted document. What was last in step with the server is kept
in the data folder's sync-state.json (each document's revision and a fingerprint of the game
here then), so that a round sends only what changed here and tells a game deleted here from
one never taken.

Decisions, the same on every device (those of an import, aftergame/archive.py):
- a game changed on one side only: that side's is taken;
- changed on both: a log that extends the other is kept; logs that part ways keep the one the
  server had first under its id, and the other beside it as "… (copy)" (noted as a copy, so
  statistics count the evening once); of two titles the later change is kept; a choice made
  on either side stays (counted, a copy's note);
- a game deleted on one side and not changed on the other is deleted there; one changed
  elsewhere after it was deleted here comes back;
- revisions in conflict on the server (`_conflicts`: two servers replicated, or a write
  without our read-merge-write) are resolved by the same rules, the server's winning revision
  first, a copy's id derived from the revision it keeps, so any device resolving them makes
  the same documents.

A game the rules refuse, or a document of the wrong shape, is never written here (it is
named in the report); a game open on a screen here is left for a later round.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.aftergame import archive, stats
from companion.session import Session
from companion.store import SessionSummary, Store, StoreError
from companion.store.file_format import encode
from companion.store.listing import SESSION_ID
from companion.sync.couch import Couch, SyncError
from companion.sync.documents import (
    ALIAS,
    DELETED,
    DOC_FORMAT,
    GAME,
    MARKER,
    Choices,
    Remote,
    content,
    fingerprint,
    game_doc,
    read_remote,
    read_state,
    server_key,
    write_state,
)
from companion.text.messages import Message, quoted, register

BATCH = 100  # documents a request carries: a game is a few kB, a long one ~100 kB
ROUNDS_OF_CONFLICT = 3  # a document changed again on the server while we merged: tried again at once, then next round

register("en", {"sync.refused_game": "The server's game {game} was not taken: {reason}"})

Progress = Callable[[str, int, int], None]  # (stage "taking" or "sending", done, total)


@dataclass
class RoundReport:
    """What one round did."""

    sent: int = 0  # documents the server took from here (games, renames, deletions)
    taken: int = 0  # games and renames taken from the server (new, changed or merged)
    copies: int = 0  # games kept beside another as "… (copy)" because their logs part ways
    deleted: int = 0  # games deleted here because they were deleted elsewhere
    waiting: int = 0  # games open here: left for a later round
    refused: list[Message] = field(default_factory=list)  # the server's documents not taken, and why
    created: bool = False  # the database was created by this round

    def summary(self) -> Message:
        return Message(
            "sync.report", {"sent": self.sent, "taken": self.taken, "copies": self.copies, "deleted": self.deleted}
        )


register("en", {"sync.report": "Sent {sent}, took {taken}, {copies} kept as a copy, {deleted} deleted here."})


# --- one round -----------------------------------------------------------------------------


class Round:
    """One round of sync (see the module's docstring); `run()` returns its report."""

    def __init__(self, store: Store, couch: Couch, language: str = "en", progress: Progress | None = None) -> None:
        self.store, self.couch, self.language, self.progress = store, couch, language, progress
        self.report = RoundReport()
        self.state = read_state(store, server_key(couch))
        self._listed: dict[str, SessionSummary] | None = None  # the games here, read again after a write
        self._choices: Choices | None = None
        self._new: list[tuple[Remote, dict[str, Any]]] = []  # games new here, written a page at a time

    def _changed(self) -> None:
        self._listed, self._choices = None, None

    def choices(self) -> Choices:
        if self._choices is None:
            self._choices = Choices.read(self.store)
        return self._choices

    def run(self) -> RoundReport:
        self.report.created = self.couch.ensure_database()
        claim(self.couch)
        self._take_again()
        self._take_changes()
        self._send()
        return self.report

    def _save(self) -> None:
        try:
            write_state(self.store, self.state)
        except OSError as error:
            raise SyncError(Message("sync.state_not_saved", {"reason": str(error.strerror or error)})) from None

    # --- taking ---

    def _take_again(self) -> None:
        """The documents a round could not take because their game was open here."""
        if not self.state.again:
            return
        again, self.state.again = self.state.again, []
        found = {doc["_id"]: doc for doc in self.couch.bulk_get(again) if isinstance(doc.get("_id"), str)}
        for doc_id in again:
            doc = found.get(doc_id)
            if doc is None:  # deleted there meanwhile (_bulk_get leaves those out): its deletion
                leaves = self.couch.open_revs(doc_id, "all")
                doc = max(leaves, key=winning_order) if leaves else None
            if doc is not None:
                self._take(doc)
        self._write_new()
        self._save()

    def _take_changes(self) -> None:
        done = 0
        while True:
            changes, last, pending = self.couch.changes(self.state.seq, BATCH)
            for change in changes:
                doc = change.get("doc")
                if isinstance(doc, dict):
                    if doc.get("_conflicts"):
                        doc = self._resolve(doc) or doc
                    self._take(doc)
            done += len(changes)
            if self.progress is not None:
                self.progress("taking", done, done + max(pending, BATCH if len(changes) == BATCH else 0))
            self._write_new()
            self.state.seq = last
            self._save()  # what was taken stays taken: a round cut here goes on from there
            if len(changes) < BATCH:  # the last page ("pending" is not said by every server)
                return

    def _take(self, doc: dict[str, Any]) -> None:
        doc_id = doc.get("_id")
        if not isinstance(doc_id, str) or doc_id == MARKER:
            return
        if doc_id.startswith(ALIAS):
            self._take_alias(doc)
        elif doc_id.startswith(GAME):
            self._take_game(doc)

    def _take_game(self, doc: dict[str, Any]) -> None:
        doc_id, rev = doc["_id"], doc.get("_rev")
        session_id = doc_id[len(GAME) :]
        if not SESSION_ID.fullmatch(session_id) or not isinstance(rev, str):
            self.report.refused.append(Message("sync.not_a_game", {"id": doc_id[:80]}))
            return
        known = self.state.docs.get(doc_id)
        here = self._summary(session_id)
        choices = self.choices()
        if doc.get("_deleted"):
            if here is None or (known is not None and known[1] == fingerprint(here, choices)):
                if here is not None:
                    if self.store.is_open(session_id):
                        self._wait(doc_id)
                        return
                    self.store.delete(session_id)
                    self._changed()
                    self.report.deleted += 1
                self.state.docs[doc_id] = [rev, DELETED]
            else:  # changed here since: it comes back there (sent on top of the deletion)
                self.state.docs[doc_id] = [rev, None]
            return
        if known is not None and known[0] == rev and here is None:
            return  # deleted here since it was taken: the deletion is sent
        if known is not None and known[0] == rev and here is not None and known[1] == fingerprint(here, choices):
            return  # in step already (what this device sent, coming back on the feed)
        try:
            remote = read_remote(doc)
        except archive.GameRefused as refused:
            self.report.refused.append(
                Message("sync.refused_game", {"game": doc_id[len(GAME) :], "reason": refused.message})
            )
            return
        if here is not None and self.store.is_open(session_id):
            self._wait(doc_id)
            return
        if here is None:
            self._new.append((remote, doc))  # written with the others of its page, in one write
            return
        changed_here = known is None or known[1] != fingerprint(here, choices)
        self._merge(here, remote, choices, changed_here)
        self._changed()
        self.report.taken += 1
        self._settle(doc_id, rev, doc)

    def _settle(self, doc_id: str, rev: str, doc: dict[str, Any]) -> None:
        """Note the revision taken; the game here is in step when it says what the document says."""
        here = self._summary(doc_id[len(GAME) :])
        if here is None:
            self.state.docs[doc_id] = [rev, None]
            return
        choices = self.choices()
        same = content(game_doc(self.store, here, choices)) == content(doc)
        self.state.docs[doc_id] = [rev, fingerprint(here, choices) if same else None]

    def _wait(self, doc_id: str) -> None:
        self.report.waiting += 1
        if doc_id not in self.state.again:
            self.state.again.append(doc_id)

    def _write_new(self) -> None:
        """The games new here of the documents taken so far, in one write (10,000 at a first sync)."""
        new, self._new = self._new, []
        if not new:
            return
        copies = {remote.game.session_id: remote.copy_of for remote, _ in new if remote.copy_of is not None}
        if copies:  # the notes first: a copy without its note would count twice
            self._choose(archive.COPIES_FILE, copies)
        self.store.put_many(
            [
                (
                    remote.game.session,
                    remote.game.session_id,
                    remote.game.created,
                    remote.game.title,
                    remote.game.updated,
                )
                for remote, _ in new
            ]
        )
        counted = {remote.game.session_id: remote.counted for remote, _ in new if remote.counted is not None}
        if counted:
            self._choose(stats.COUNTED_FILE, counted)
        titled = {remote.game.session_id: remote.titled for remote, _ in new if remote.titled is not None}
        if titled:
            self.store.note_titled(titled)
        self._changed()
        self.report.taken += len(new)
        for remote, doc in new:
            self._settle(remote.doc_id, remote.rev, doc)

    def _merge(self, here: SessionSummary, remote: Remote, choices: Choices, changed_here: bool) -> None:
        """The server's game into ours (see the module's docstring)."""
        game = remote.game
        ours = self.store.peek(here.id)
        relation = archive.relation(ours, game.session)
        if not changed_here:
            relation = "behind" if relation != "same" else relation  # only the server's changed: it is taken
        if relation == "apart":
            self._keep_as_copy(here, ours)
            relation = "behind"
        title = self._title(here, remote, choices, changed_here)
        if relation == "behind":
            self.store.replace(here.id, game.session, title=title, updated=game.updated)
        elif title != here.title:
            self.store.rename(here.id, title, titled=remote.titled)
        if title == game.title and remote.titled is not None and choices.titled.get(here.id) != remote.titled:
            self.store.note_titled({here.id: remote.titled})
        self._take_choices(remote, overwrite=not changed_here)

    def _title(self, here: SessionSummary, remote: Remote, choices: Choices, changed_here: bool) -> str:
        """Of two titles, the later change (the server's when only it changed)."""
        if remote.game.title == here.title or not changed_here:
            return remote.game.title
        ours = choices.titled.get(here.id, here.created)
        theirs = remote.titled if remote.titled is not None else remote.game.created
        return remote.game.title if theirs > ours else here.title

    def _keep_as_copy(self, here: SessionSummary, ours: Session) -> None:
        """Our game parted ways with the server's: ours is kept beside it as a copy (under an id
        derived from its log, so a round cut and run again makes the same one)."""
        digest = hashlib.sha1(encode(ours.to_dict())).hexdigest()[:8]
        copy_id = f"{here.id[:54]}-c{digest}"
        if self._summary(copy_id) is None:
            self._choose(archive.COPIES_FILE, {copy_id: here.id})
            incoming = archive.Incoming(ours, here.id, here.title, here.created, here.updated)
            self.store.put_many(
                [(ours, copy_id, here.created, archive.copy_title(incoming, self.language), here.updated)]
            )
        self.report.copies += 1

    def _take_choices(self, remote: Remote, overwrite: bool) -> None:
        """The server's choices about a game: exactly its own when only it changed (a choice
        undone there is undone here), else added to those here (a choice here stays)."""
        session_id = remote.game.session_id
        choices = self.choices()
        for kind, value, kept_here in (
            (stats.COUNTED_FILE, remote.counted, choices.counted),
            (archive.COPIES_FILE, remote.copy_of, choices.copies),
        ):
            if (
                kept_here.get(session_id) == value
                or (value is None and not overwrite)
                or (session_id in kept_here and not overwrite)
            ):
                continue  # nothing to write

            def change(kept: dict[str, Any], value: Any = value) -> dict[str, Any]:
                if value is None:
                    return {key: found for key, found in kept.items() if key != session_id} if overwrite else kept
                if session_id in kept and not overwrite:
                    return kept
                return {**kept, session_id: value}

            self._update(kind, change)

    def _choose(self, kind: Any, entries: dict[str, Any]) -> None:
        self._update(kind, lambda kept: {**kept, **entries})

    def _update(self, kind: Any, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        try:
            self.store.side_files.update(kind, change)
            self._changed()
        except OSError as error:
            raise SyncError(Message("sync.state_not_saved", {"reason": str(error.strerror or error)})) from None

    def _take_alias(self, doc: dict[str, Any]) -> None:
        doc_id, rev = doc["_id"], doc.get("_rev")
        key = doc_id[len(ALIAS) :]
        if not isinstance(rev, str) or not key:
            self.report.refused.append(Message("sync.not_a_game", {"id": doc_id[:80]}))
            return
        name = doc.get("name")
        deleted = bool(doc.get("_deleted"))
        if not deleted and (doc.get("kind") != "alias" or not stats.is_player_name(name)):
            self.report.refused.append(Message("sync.not_a_game", {"id": doc_id[:80]}))
            return
        known = self.state.docs.get(doc_id)
        here = stats.read_aliases(self.store).get(key)
        changed_here = known is None or known[1] != (here or DELETED)
        if changed_here and here is not None and here != name:
            self.state.docs[doc_id] = [rev, None]  # both renamed: the rename here is sent (on top of theirs)
            return

        def change(kept: dict[str, Any]) -> dict[str, Any]:
            if deleted:
                return {found: value for found, value in kept.items() if found != key}
            return {**kept, key: name}

        self._update(stats.ALIAS_FILE, change)
        self.report.taken += 1
        self.state.docs[doc_id] = [rev, DELETED if deleted else name]

    # --- conflicts on the server ---

    def _resolve(self, doc: dict[str, Any]) -> dict[str, Any] | None:
        """Resolve revisions in conflict (see the module's docstring); the document that stays."""
        doc_id = doc["_id"]
        if not doc_id.startswith(GAME):
            losers = [
                {"_id": doc_id, "_rev": rev, "_deleted": True} for rev in doc["_conflicts"] if isinstance(rev, str)
            ]
            self.couch.bulk_docs(losers)  # a rename: the server's winner stays
            return None
        conflicting = [rev for rev in doc["_conflicts"] if isinstance(rev, str)]
        leaves = self.couch.open_revs(doc_id, [doc["_rev"], *conflicting])
        live = []
        for leaf in leaves:
            if leaf.get("_deleted"):
                continue
            try:
                live.append((leaf, read_remote(leaf)))
            except archive.GameRefused:
                continue  # a leaf the rules refuse is dropped with the conflict
        winner = next(((leaf, remote) for leaf, remote in live if leaf["_rev"] == doc["_rev"]), None)
        if winner is None:
            return None
        kept, kept_remote = winner
        for leaf, remote in live:  # a log that extends every other one is the game
            if all(
                archive.relation(other.game.session, remote.game.session) in ("same", "behind") for _, other in live
            ):
                kept, kept_remote = leaf, remote
                break
        writes: list[dict[str, Any]] = []
        for leaf, remote in live:
            if leaf is kept:
                continue
            if archive.relation(kept_remote.game.session, remote.game.session) == "apart":
                writes.append(self._copy_doc(leaf, remote))
        if kept is not winner[0]:
            writes.append({**content(kept), "_id": doc_id, "_rev": doc["_rev"]})
        writes.extend(
            {"_id": doc_id, "_rev": leaf["_rev"], "_deleted": True} for leaf in leaves if leaf["_rev"] != doc["_rev"]
        )
        results = self.couch.bulk_docs(writes)
        stays = next(
            (item for item in results if item.get("id") == doc_id and "rev" in item and kept is not winner[0]), None
        )
        if stays is not None:
            return {**content(kept), "_id": doc_id, "_rev": stays["rev"]}
        return {**content(kept), "_id": doc_id, "_rev": doc["_rev"]}

    def _copy_doc(self, leaf: dict[str, Any], remote: Remote) -> dict[str, Any]:
        """A losing revision that parts ways, as a game of its own: its id derived from the revision."""
        session_id = remote.game.session_id
        copy_id = f"{session_id[:54]}-r{hashlib.sha1(leaf['_rev'].encode()).hexdigest()[:8]}"
        game = dict(content(leaf)["game"])
        game.update({"id": copy_id, "title": archive.copy_title(remote.game, self.language)})
        return {
            "_id": GAME + copy_id,
            "kind": "game",
            "format": DOC_FORMAT,
            "game": game,
            "counted": None,
            "copy_of": session_id,
            "titled": None,
        }

    # --- sending ---

    def _send(self) -> None:
        for _ in range(ROUNDS_OF_CONFLICT):
            docs = self._to_send()
            if not docs:
                return
            conflicts: list[str] = []
            for start in range(0, len(docs), BATCH):
                batch = docs[start : start + BATCH]
                by_id = {doc["_id"]: doc for doc in batch}
                for result in self.couch.bulk_docs(batch):
                    doc_id = result.get("id")
                    if not isinstance(doc_id, str) or doc_id not in by_id:
                        continue
                    if isinstance(result.get("rev"), str):
                        self.state.docs[doc_id] = [result["rev"], self._sent_print(by_id[doc_id])]
                        self.report.sent += 1
                    elif result.get("error") == "conflict":
                        conflicts.append(doc_id)
                if self.progress is not None:
                    self.progress("sending", min(start + BATCH, len(docs)), len(docs))
                self._save()
            if not conflicts:
                return
            for doc_id in conflicts:  # changed there meanwhile: taken with ours, then sent again
                self._take_latest(doc_id)
            self._save()

    def _sent_print(self, doc: dict[str, Any]) -> str | None:
        if doc.get("_deleted"):
            return DELETED
        if doc["_id"].startswith(ALIAS):
            return str(doc["name"])
        here = self._summary(doc["_id"][len(GAME) :])
        return None if here is None else fingerprint(here, self.choices())

    def _take_latest(self, doc_id: str) -> None:
        """The server's current revision of a document that refused ours (deleted ones too)."""
        leaves = self.couch.open_revs(doc_id, "all")
        if not leaves:
            return
        latest = max(leaves, key=winning_order)
        known = self.state.docs.get(doc_id)
        if doc_id.startswith(GAME) and known is not None:
            known[1] = None  # ours changed: merged, not overwritten
        if doc_id.startswith(ALIAS) and not latest.get("_deleted"):
            here = stats.read_aliases(self.store).get(doc_id[len(ALIAS) :])
            self.state.docs[doc_id] = [latest["_rev"], None if here is not None else DELETED]
            return
        self._take(latest)
        self._write_new()
        if latest.get("_deleted"):
            self.state.docs.setdefault(doc_id, [latest["_rev"], None])[0] = latest["_rev"]

    def _to_send(self) -> list[dict[str, Any]]:
        """Every document whose game, rename or deletion here the server does not have."""
        choices = self.choices()
        docs: list[dict[str, Any]] = []
        listed = self.listed()
        for session_id, summary in listed.items():
            doc_id = GAME + session_id
            known = self.state.docs.get(doc_id)
            if known is not None and known[1] == fingerprint(summary, choices):
                continue
            try:
                doc = game_doc(self.store, summary, choices)
            except StoreError:
                continue  # unreadable now: sent once it reads
            if known is not None:
                doc["_rev"] = known[0]
            docs.append(doc)
        for doc_id, (rev, printed) in list(self.state.docs.items()):
            if doc_id.startswith(GAME) and printed != DELETED and doc_id[len(GAME) :] not in listed:
                docs.append({"_id": doc_id, "_rev": rev, "_deleted": True})
        for key, name in choices.aliases.items():
            doc_id = ALIAS + key
            known = self.state.docs.get(doc_id)
            if known is not None and known[1] == name:
                continue
            docs.append({"_id": doc_id, "kind": "alias", "name": name, **({"_rev": known[0]} if known else {})})
        for doc_id, (rev, printed) in list(self.state.docs.items()):
            if doc_id.startswith(ALIAS) and printed != DELETED and doc_id[len(ALIAS) :] not in choices.aliases:
                docs.append({"_id": doc_id, "_rev": rev, "_deleted": True})
        return docs

    def listed(self) -> dict[str, SessionSummary]:
        if self._listed is None:
            self._listed = {summary.id: summary for summary in self.store.listing()}
        return self._listed

    def _summary(self, session_id: str) -> SessionSummary | None:
        return self.listed().get(session_id)


def claim(couch: Couch) -> None:
    """Make sure the database is Companion's: marked so (`MARKER`), or empty and marked now;
    SyncError when it holds anything else (another app's documents are never touched)."""
    marker = couch.get(MARKER)
    if marker is None:
        info = couch.info()
        if type(info.get("doc_count")) is int and info["doc_count"] > 0:
            marker = couch.get(MARKER)  # another device may have marked it a moment ago
            if marker is None:
                raise SyncError("sync.other_database", database=quoted(couch.database), server=couch.server)
        else:
            couch.bulk_docs([{"_id": MARKER, "kind": "companion", "format": DOC_FORMAT}])  # a conflict: marked too
            return
    if marker.get("kind") != "companion":
        raise SyncError("sync.other_database", database=quoted(couch.database), server=couch.server)


def winning_order(leaf: dict[str, Any]) -> tuple[bool, int, str]:
    """CouchDB's choice of a document's winning revision: a live one first, then the longest
    history, then the greater revision id."""
    rev = str(leaf.get("_rev", "0-"))
    number, _, digest = rev.partition("-")
    return (not leaf.get("_deleted"), int(number) if number.isdigit() else 0, digest)


def sync_round(store: Store, couch: Couch, language: str = "en", progress: Progress | None = None) -> RoundReport:
    """One round (see the module's docstring); SyncError (a sentence) when the server or the disk fails."""
    try:
        return Round(store, couch, language, progress).run()
    except StoreError as error:
        raise SyncError(error.message) from None


register("en", {"sync.state_not_saved": "What was synced could not be noted in the data folder: {reason}."})

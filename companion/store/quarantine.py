"""Damaged files set aside in `quarantine/`, each beside a note saying why.

    quarantine/<name>            a file that could not be read at all, moved there whole
    quarantine/<id>.json.<hash>  a session file as it was when it opened with a loss (a record
                                 damaged or cut short), copied there before anything rewrites it
    quarantine/<side>.<hash>     a side file (players.json, counted.json, copies.json, titles.json) as it was when
                                 it read damaged, copied there before anything writes over it
    quarantine/<…>.why.json      the note: where it was, why, when, and what the game lost

Nothing here ever overwrites a file: a name taken gets a number. A note is a courtesy: one
that cannot be read is skipped when the notes are listed.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from dataclasses import asdict
from pathlib import Path

from companion.store.errors import StoreError, os_reason
from companion.store.file_format import Damage, decode, single_bytes, single_of
from companion.store.folders import Folder
from companion.store.listing import QuarantineNote
from companion.store.session_file import session_file

QUARANTINE = "quarantine"
NOTE_SUFFIX = ".why.json"
NOTE = "note"  # a note is a TinyDB file: table "note", document 1 (earlier versions: the object alone)


class Quarantine:
    """The quarantine folder of one store, and what this store set aside since it was opened."""

    def __init__(self, folder: Folder, directory: Path | None) -> None:
        self._folder = folder
        self._directory = directory
        self.notes: list[QuarantineNote] = []  # files this store moved aside
        self.losses: dict[str, QuarantineNote] = {}  # games opened with what could be read (see `keep_aside`)
        self.side_losses: dict[str, QuarantineNote] = {}  # side files read damaged, by name (see `keep_side`)
        self.loss_count = 0  # notes of losses taken so far: the listing is worked out again when it grows

    def move(self, name: str, reason: str) -> None:
        """Move a damaged file to quarantine/ next to a note saying why; never overwrites anything."""
        self._folder.ensure(QUARANTINE)
        base = name.rsplit("/", 1)[-1]
        target, number = f"{QUARANTINE}/{base}", 1
        while self._folder.exists(target) or self._folder.exists(target + NOTE_SUFFIX):
            target, number = f"{QUARANTINE}/{base}.{number}", number + 1
        note = QuarantineNote(file=name, moved_to=target, reason=reason, time=time.time())
        self._folder.write(target + NOTE_SUFFIX, single_bytes(NOTE, NOTE, asdict(note)))
        try:
            self._folder.move(name, target)
        except FileNotFoundError:  # another process set it aside (or removed it) first
            self._folder.remove(target + NOTE_SUFFIX)
            return
        except OSError:  # the file stays where it was: so must its note (no note of a move that did not happen)
            with contextlib.suppress(OSError):
                self._folder.remove(target + NOTE_SUFFIX)
            raise
        self.notes.append(note)

    def keep_aside(self, session_id: str, damage: Damage, raw: bytes, locked: bool) -> None:
        """Copy a file that opened with a loss into quarantine/ as it was, with a note, before
        anything rewrites it, and tell the list which game lost what (`SessionList.losses`).

        Kept once per content (a file read again as it was is not copied again). When the copy
        cannot be written, a game opened for play (`locked`) is not opened: its next change
        would rewrite the only copy of what was lost. A peek only reads, and says so anyway."""
        name = session_file(session_id)
        target = f"{QUARANTINE}/{session_id}.json.{hashlib.sha256(raw).hexdigest()[:16]}"
        note = QuarantineNote(
            file=name,
            moved_to=target,
            reason=damage.reason,
            time=time.time(),
            session=session_id,
            lost=damage.lost,
            kind=damage.kind,
        )
        try:
            if not (self._folder.exists(target) and self._folder.exists(target + NOTE_SUFFIX)):
                self._folder.ensure(QUARANTINE)
                self._folder.write(target, raw)
                self._folder.write(target + NOTE_SUFFIX, single_bytes(NOTE, NOTE, asdict(note)))
        except OSError as error:
            if locked:
                raise StoreError("store.not_kept_aside", reason=os_reason(error, self._directory)) from error
        self.losses[session_id] = note
        self.loss_count += 1

    def keep_side(self, name: str, damage: Damage, raw: bytes) -> None:
        """Copy a side file that read damaged into quarantine/ as it was, with a note (once per
        content), and tell the list what it lost (`SessionList.side_losses`). The loss is told
        even when the copy cannot be written (OSError then: the file must not be written over)."""
        target = f"{QUARANTINE}/{name}.{hashlib.sha256(raw).hexdigest()[:16]}"
        note = QuarantineNote(
            file=name, moved_to=target, reason=damage.reason, time=time.time(), lost=damage.lost, kind=damage.kind
        )
        told = self.side_losses.get(name)
        if told is None or told.moved_to != target:  # read again as it was: nothing new to tell
            self.side_losses[name] = note
            self.loss_count += 1
        if not (self._folder.exists(target) and self._folder.exists(target + NOTE_SUFFIX)):
            self._folder.ensure(QUARANTINE)
            self._folder.write(target, raw)
            self._folder.write(target + NOTE_SUFFIX, single_bytes(NOTE, NOTE, asdict(note)))

    def forget_side(self, name: str) -> None:
        """What a side file lost was brought back: its loss is no longer told."""
        if self.side_losses.pop(name, None) is not None:
            self.loss_count += 1

    def forget_loss(self, session_id: str) -> None:
        """A game deleted: its loss is no longer told."""
        if self.losses.pop(session_id, None) is not None:
            self.loss_count += 1

    def all_notes(self) -> list[QuarantineNote]:
        """Every file ever set aside in this data folder, newest first (OSError when the folder cannot be read)."""
        notes = []
        for entry in self._folder.scan(QUARANTINE):
            if not entry.name.endswith(NOTE_SUFFIX):
                continue
            try:
                found = decode(self._folder.read(f"{QUARANTINE}/{entry.name}") or b"")
                raw = single_of(found, NOTE)
                note = QuarantineNote(
                    str(raw["file"]),
                    str(raw["moved_to"]),
                    str(raw["reason"]),
                    float(raw["time"]),
                    str(raw.get("session", "")),
                    int(raw.get("lost", 0)),
                    str(raw.get("kind", "")),
                )
            except (OSError, ValueError, KeyError, TypeError, ArithmeticError, RecursionError):
                continue  # a note is a courtesy: an unreadable one is skipped
            if raw is found:  # an earlier version's note: kept as this one writes it
                with contextlib.suppress(OSError):
                    self._folder.write(f"{QUARANTINE}/{entry.name}", single_bytes(NOTE, NOTE, found))
            notes.append(note)
        notes.sort(key=lambda note: note.time, reverse=True)
        return notes

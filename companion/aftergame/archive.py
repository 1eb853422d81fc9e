"""The archive leaves the app and comes back: JSON and CSV exports, imports, daily backups.

An archive is one JSON document::

    {"format": "companion-archive", "version": 1, "sessions": [
        {"id", "title", "created", "updated", "finished", <Session.to_dict(): format, game,
         players, options, events, cursor, clock, last>}, ...],
     "aliases": {...}, "counted": {...}, "copies": {...}, "titled": {...}}

The last four are the table's choices kept beside the games, as their side files hold them
(players.json, counted.json, copies.json, titles.json): every rename, and of the games in
the file whether each is counted in statistics, is a copy of another, and when its title
was last changed. Each is there only when not empty; an earlier version ignores them.

Times are seconds since the epoch (UTC); `finished` is when a finished game ended (its
clock's end; a game saved before clocks were kept: as it was listed), else null. An
import replays every game through the rules before anything is written: a game the rules
refuse is reported with the reason (named by its title, day and players) and changes
nothing. A file that holds one id twice is refused whole. A game
is known by its id; one already here is

- a duplicate when it is the same (nothing written);
- kept as ours when ours is as far along or further (the file's log is a beginning of
  ours, or only its title or what was undone differs);
- replaced by the file's when the file's log extends ours (the same game played on
  elsewhere): the longer one is kept;
- otherwise (the logs part ways) kept as ours, the file's added beside it as a copy under
  a new id, titled "… (copy)" and noted in `copies.json`, so statistics count it once.
  The same file imported again finds the copy.

Of two titles of one game the later change is kept, and the report says which (titles.json
keeps when each title was set: a game's file time says when it was last played). The file's
choices that are not here are added (a rename, a game counted or left out, a copy's note);
a choice here is never undone by a file, and a player renamed otherwise here keeps the name
given here, said. So moving every game to an empty folder leaves every statistic as it was.

Restoring a backup brings back only what is missing: the games that are not here, and the
changes a game here lost from the end of its log (a damaged file opens as the game it was at
its last readable change): a game whose damage a quarantine note records, never a game taken
for damaged by the shape of its log, as an undo followed by the same change again leaves it.
Any other game here that differs from the backup was changed since, and is left as it is
(the report says so).

A backup holds the table's choices as an export does (all of them). A restore brings back
the entries missing here of a side file that is missing, or that was found damaged after the
backup was made (its note in quarantine/ is newer than the backup); an entry here is left as
it is, and a side file that was not damaged is left alone (a rename undone since the backup
stays undone).

Files written in the data folder (each atomically): `copies.json` here, {"crc32", "format":
"companion-copies", "version": 1, "count", "copies": {copy id: id of the game it copies}}
(store/side_file.py); exports/ (exports.py); backups/, one archive a day while the app is
used, the last 7 kept, streamed game by game (backups.py). The shape of a game an archive
holds, and how it is checked: archive_entries.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from companion.aftergame import stats
from companion.aftergame.archive_entries import (
    COPIES,
    COPIES_FILE,
    FORMAT,
    KEPT_FIELDS,
    MAX_DEPTH,
    MAX_IMPORT_BYTES,
    SESSION_FIELDS,
    SESSION_ORDER,
    SIDE_KINDS,
    THE_FILE,
    VERSION,
    GameRefused,
    Incoming,
    Refusal,
    _archive_document,
    _check_ids_once,
    _entry_named,
    _Incoming,
    _label,
    _read_entry,
    _Refused,
    _relation,
    _speaking,
    copy_title,
    game_named,
    megabytes,
    read_copies,
    read_game,
    relation,
    shown_name,
    too_big,
)
from companion.aftergame.backups import (
    BACKUPS,
    BACKUPS_KEPT,
    Backup,
    _backup_day,
    backup_chunks,
    backup_name,
    backups,
    write_backup,
)
from companion.aftergame.exports import (
    BACKUP_PREFIX,
    CSV_COLUMNS,
    EXPORTS,
    FORMULA_STARTS,
    Progress,
    ResultRow,
    cell,
    duration_min,
    export_csv,
    export_json,
    export_name,
    export_xlsx,
    result_rows,
    save_export,
    side_maps,
    stored_form,
    was_stopped,
)
from companion.session import Session
from companion.store import SessionSummary, Store, StoreError
from companion.store.errors import os_reason
from companion.store.file_format import may_hold_lone_surrogate
from companion.store.listing import new_session_id
from companion.store.side_file import entries_of
from companion.store.store import TITLES
from companion.text import messages
from companion.text.messages import Message

__all__ = [
    "BACKUPS",
    "BACKUPS_KEPT",
    "BACKUP_PREFIX",
    "Backup",
    "COPIES",
    "COPIES_FILE",
    "CSV_COLUMNS",
    "EXPORTS",
    "FORMAT",
    "FORMULA_STARTS",
    "GameRefused",
    "ImportReport",
    "Incoming",
    "KEPT_FIELDS",
    "MAX_DEPTH",
    "MAX_IMPORT_BYTES",
    "NameKept",
    "Named",
    "Progress",
    "Refusal",
    "ResultRow",
    "SESSION_FIELDS",
    "SESSION_ORDER",
    "SIDE_KINDS",
    "THE_FILE",
    "Titled",
    "VERSION",
    "backup_chunks",
    "backup_name",
    "backups",
    "cell",
    "copy_title",
    "duration_min",
    "export_csv",
    "export_json",
    "export_name",
    "export_xlsx",
    "game_named",
    "import_json",
    "megabytes",
    "read_copies",
    "read_game",
    "relation",
    "restore_backup",
    "result_rows",
    "save_export",
    "shown_name",
    "side_maps",
    "stored_form",
    "too_big",
    "was_stopped",
    "write_backup",
]


class Named(NamedTuple):
    """A game the report names: its id and its title, day and players in words."""

    session: str
    named: Message


class Titled(NamedTuple):
    """A game whose title differed between the file and here: named by the title it now has here."""

    session: str
    named: Message
    other: str  # the title it does not have: the one it had here (retitled), or the file's (kept)


class NameKept(NamedTuple):
    """A player the file renamed otherwise than here: the rename here is kept."""

    player: str  # as a game here names them
    here: str
    file: str


@dataclass(frozen=True)
class ImportReport:
    """What an import did, game by game. A game is known by its id; one already here that differs
    is in exactly one of `updated`, `kept`, `copies` or `changed`."""

    imported: list[str] = field(default_factory=list)  # ids the new games were saved under (copies too)
    duplicates: list[str] = field(default_factory=list)  # ids already here exactly as in the file
    updated: list[Named] = field(default_factory=list)  # the file's was this game played on: it replaced ours
    kept: list[Named] = field(default_factory=list)  # ours is as far along or further (or only retitled): kept
    copies: list[Named] = field(default_factory=list)  # the logs part ways: ours kept, the file's added as a copy
    changed: list[Named] = field(default_factory=list)  # a restore: changed since the backup, left as it is
    retitled: list[Titled] = field(default_factory=list)  # the file's title was changed later: it is taken
    titles_kept: list[Titled] = field(default_factory=list)  # ours is as far along; its title was not changed earlier
    refused: list[Refusal] = field(default_factory=list)
    # A restore: the side files whose lost entries came back, (file name, how many came back).
    side: list[tuple[str, int]] = field(default_factory=list)
    # An import: the table's choices the file carried that were not here, (file name, how many were taken).
    taken: list[tuple[str, int]] = field(default_factory=list)
    names_kept: list[NameKept] = field(default_factory=list)  # renamed otherwise in the file: ours kept

    @property
    def already_here(self) -> int:
        """Games of the file that were here already (a title taken from the file aside)."""
        return len(self.duplicates) + len(self.kept) + len(self.changed) + len(self.retitled) + len(self.titles_kept)


def import_json(
    store: Store,
    data: bytes,
    *,
    failed: str = "archive.not_imported",
    restore: bool = False,
    language: str = messages.SOURCE_LANGUAGE,
    progress: Progress | None = None,
    backed_up: float | None = None,
) -> ImportReport:
    """Add the games of an archive to the store; see the module's docstring for what is refused.

    `failed`: what each game's refusal says when the disk refuses to take them (its `{reason}`).
    `restore`: a backup coming back: a game here that differs from it is left as it is.
    `language`: the table's, for the title of a copy ("Friday (copy)").
    `progress`: told each game replayed, then the games being saved.
    `backed_up`: a restore: when the backup was made (its side files then come back too)."""
    try:
        document = _archive_document(data)
        entries = document["sessions"]
        _check_ids_once(entries)
    except _Refused as refusal:
        return ImportReport(refused=[Refusal.of(THE_FILE, refusal.message)])
    report = ImportReport()
    incoming: list[_Incoming] = []
    suspect = may_hold_lone_surrogate(data)
    for number, entry in enumerate(entries, start=1):
        try:
            incoming.append(_read_entry(entry, suspect))
        except _Refused as refusal:
            label = _label(entry, number)
            report.refused.append(Refusal.of(label, refusal.message, _entry_named(entry)))
        if progress is not None:
            progress("replaying", number, len(entries))
    theirs = {} if restore else _file_choices(document)
    to_write, to_replace, to_retitle = _sort_out(store, incoming, report, restore, language, theirs.get(TITLES.key, {}))
    saving = len(to_write) + len(to_replace) + len(to_retitle)
    if progress is not None and saving:
        progress("saving", 0, saving)
    noted = _write(store, to_write, report, failed, theirs.get(COPIES_FILE.key, {}))
    _replace(store, to_replace, report, failed)
    _retitle(store, to_retitle, report, failed)
    if restore and backed_up is not None:
        _restore_side(store, document, backed_up, report, failed)
    elif not restore:
        refused = {refusal.session for refusal in report.refused}
        # The file's games here now under their own id: the file's choices about them apply.
        settled = {item.session_id for item in incoming} - refused - {copy_of for *_, copy_of in to_write}
        _take_choices(store, theirs, settled, noted, report, failed)
    if progress is not None and saving:
        progress("saving", saving, saving)
    return report


def _restore_side(store: Store, document: dict[str, Any], backed_up: float, report: ImportReport, failed: str) -> None:
    """Bring back the entries a side file lost since the backup (see the module's docstring)."""
    try:
        notes = store.quarantine_notes()
    except (OSError, StoreError):
        notes = []  # notes unreadable: only a missing side file takes the backup's entries
    damaged = {note.file for note in notes if not note.session and note.kind and note.time > backed_up}
    for kind in SIDE_KINDS:
        found = document.get(kind.key)
        kept = entries_of(found, kind) if isinstance(found, dict) else {}
        if not kept or not (kind.name in damaged or not store.folder.exists(kind.name)):
            continue
        back: list[int] = []

        def merged(here: dict[str, Any], kept: dict[str, Any] = kept, back: list[int] = back) -> dict[str, Any]:
            missing = {key: value for key, value in kept.items() if key not in here}
            back.append(len(missing))
            return {**here, **missing}

        try:
            store.side_files.update(kind, merged)
        except OSError as error:
            report.refused.append(Refusal.of(kind.name, Message(failed, {"reason": os_reason(error, store.directory)})))
            continue
        store.side_files.forget(kind.name)  # what it lost since the backup is back: Home no longer tells it
        if back[0]:
            report.side.append((kind.name, back[0]))


def _write(
    store: Store, to_write: list[_ToWrite], report: ImportReport, failed: str, their_copies: dict[str, str]
) -> int:
    """Save the new games and copies; a copy's note is kept before the copy itself (a note of a copy
    never written is harmless, a copy without its note would count twice in statistics): the copies
    made now, and the file's games that are copies there. Returns how many of the file's were noted."""
    copies = {wanted: copy_of for _, wanted, _, copy_of in to_write if copy_of is not None}
    carried = {
        wanted: their_copies[wanted] for _, wanted, _, copy_of in to_write if copy_of is None and wanted in their_copies
    }
    copies.update(carried)
    try:
        if copies:
            _note_copies(store, copies)
        ids = store.put_many(
            [(item.session, wanted, item.created, title, item.updated) for item, wanted, title, _ in to_write]
        )
    except StoreError as error:
        said = error.message
        if said.id == "store.not_put":
            said = Message(failed, said.params)
        report.refused.extend(Refusal.of(item.session_id, said, item.named()) for item, _, _, _ in to_write)
        return 0
    report.imported.extend(ids)
    report.copies.extend(
        Named(new_id, item.named())
        for new_id, (item, _, _, copy_of) in zip(ids, to_write, strict=True)
        if copy_of is not None
    )
    return len(carried)


def _replace(store: Store, to_replace: list[_ToReplace], report: ImportReport, failed: str) -> None:
    for item, title, titled in to_replace:
        try:
            store.replace(item.session_id, item.session, title=title, updated=item.updated)
        except StoreError as error:  # open in another window, or the disk refused: ours stays as it was
            said = Message(failed, error.message.params) if error.message.id == "store.not_put" else error.message
            report.refused.append(Refusal.of(item.session_id, said, item.named()))
            continue
        if titled is not None:
            store.note_titled({item.session_id: titled})
        report.updated.append(
            Named(item.session_id, game_named(item.session.game.id, title, item.created, item.session.players))
        )


def _retitle(store: Store, to_retitle: list[_ToRetitle], report: ImportReport, failed: str) -> None:
    """Give games here the file's title, a later change than theirs (kept with its time)."""
    for item, before, titled in to_retitle:
        try:
            store.rename(item.session_id, item.title, titled=titled)
        except StoreError as error:
            said = Message(failed, error.message.params) if error.message.id == "store.not_renamed" else error.message
            report.refused.append(Refusal.of(item.session_id, said, item.named()))
            continue
        report.retitled.append(Titled(item.session_id, item.named(), before))


def _file_choices(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The table's choices an archive carries (an earlier version's carries none), by their field;
    an entry that is not one of its kind is left out, as a side file's would be."""
    found: dict[str, dict[str, Any]] = {}
    for kind in SIDE_KINDS:
        entries = document.get(kind.key)
        found[kind.key] = entries_of(entries, kind) if isinstance(entries, dict) else {}
    found[stats.ALIAS_FILE.key] = {
        key: name for key, name in found[stats.ALIAS_FILE.key].items() if stats.is_player_name(name)
    }
    return found


def _take_choices(
    store: Store, theirs: dict[str, dict[str, Any]], settled: set[str], noted: int, report: ImportReport, failed: str
) -> None:
    """Add the file's choices that are not here: its renames (one made otherwise here is kept,
    and said), and its choices about the games now here under their own id (`settled`): counted
    or left out, noted as a copy, when their title was changed. A choice here is never undone."""
    taken: list[tuple[str, int]] = []

    def counted(here: dict[str, Any]) -> dict[str, Any]:
        new = {
            key: value for key, value in theirs[stats.COUNTED_FILE.key].items() if key in settled and key not in here
        }
        taken.append((stats.COUNTED_FILE.name, len(new)))
        return {**here, **new}

    def copies(here: dict[str, Any]) -> dict[str, Any]:
        new = {key: value for key, value in theirs[COPIES_FILE.key].items() if key in settled and key not in here}
        taken.append((COPIES_FILE.name, len(new) + noted))
        return {**here, **new}

    def titles(here: dict[str, Any]) -> dict[str, Any]:  # when a title was set: not a choice to tell
        return {**{key: value for key, value in theirs[TITLES.key].items() if key in settled}, **here}

    def aliases(here: dict[str, Any]) -> dict[str, Any]:
        merged, kept = stats.merge_aliases(here, theirs[stats.ALIAS_FILE.key])
        taken.append((stats.ALIAS_FILE.name, len(merged) - len(here)))
        for key, mine, their in kept:
            player = _player_named(store, key)
            report.names_kept.append(NameKept(player, mine or player, their))
        return merged

    for kind, change in (
        (stats.ALIAS_FILE, aliases),
        (stats.COUNTED_FILE, counted),
        (COPIES_FILE, copies),
        (TITLES, titles),
    ):
        if not theirs[kind.key] and not (kind is COPIES_FILE and noted):
            continue
        try:
            store.side_files.update(kind, change)
        except OSError as error:
            report.refused.append(Refusal.of(kind.name, Message(failed, {"reason": os_reason(error, store.directory)})))
    report.taken.extend((name, count) for name, count in taken if count > 0)


def _player_named(store: Store, key: str) -> str:
    """A player as the games here name them (a rename's key is a folded name)."""
    for summary in store.listing():
        for player in summary.players:
            if stats.player_key(player) == key:
                return player
    return key


_ToWrite = tuple[_Incoming, str, str, str | None]  # the game, the id and title it is saved under, what it copies

_ToReplace = tuple[_Incoming, str, float | None]  # the game, its title, when that title was changed (None: kept)

_ToRetitle = tuple[_Incoming, str, float]  # the game (the file's title), its title here, when the file's was changed


def _sort_out(
    store: Store,
    incoming: list[_Incoming],
    report: ImportReport,
    restore: bool,
    language: str,
    their_titles: dict[str, float],
) -> tuple[list[_ToWrite], list[_ToReplace], list[_ToRetitle]]:
    """(what to write; what replaces a game here; what takes the file's title). Duplicates,
    games kept and games left as they are go into the report. Of two titles of one game, the
    later change is kept (`_later_title`)."""
    listed = store.listing()
    our_titles = {} if restore else store.side_files.read(TITLES)
    present = {summary.id: summary for summary in listed}
    copies_of: dict[str, list[str]] = {}
    for copy_id, original in read_copies(store).items():
        copies_of.setdefault(original, []).append(copy_id)
    # A copy imported by an earlier version keeps the game, players and creation time of what it copied.
    alike: dict[tuple[str, tuple[str, ...], float], list[str]] = {}
    for summary in listed:
        alike.setdefault((summary.game, summary.players, summary.created), []).append(summary.id)
    to_write: list[_ToWrite] = []
    to_replace: list[_ToReplace] = []
    to_retitle: list[_ToRetitle] = []
    damaged = _damaged(store) if restore else set()
    for item in incoming:
        here = present.get(item.session_id)
        if here is None:
            to_write.append((item, item.session_id, item.title, None))
            continue
        ours = _peeked(store, item.session_id)
        ours_dict, theirs = (None, None) if ours is None else (ours.to_dict(), item.session.to_dict())
        relation = "apart" if ours_dict is None or theirs is None else _relation(ours_dict, theirs)
        later = None if restore else _later_title(item, here, our_titles, their_titles)
        if relation == "same" and here.title == item.title:
            report.duplicates.append(item.session_id)
        elif (
            restore
            and item.session_id in damaged
            and ours_dict is not None
            and theirs is not None
            and _lost_since(ours_dict, theirs)
        ):
            to_replace.append((item, item.title, None))  # what a damaged file lost comes back
        elif restore:
            report.changed.append(Named(item.session_id, game_named(here.game, here.title, here.created, here.players)))
        elif relation in ("same", "ahead") and later is not None:
            to_retitle.append((item, here.title, later))
        elif relation in ("same", "ahead") and here.title != item.title:
            report.titles_kept.append(
                Titled(item.session_id, game_named(here.game, here.title, here.created, here.players), item.title)
            )
        elif relation in ("same", "ahead"):
            report.kept.append(Named(item.session_id, item.named()))
        elif relation == "behind":
            to_replace.append(
                (item, item.title, later) if later is not None or here.title == item.title else (item, here.title, None)
            )
        elif _copied_before(
            store,
            item,
            copies_of.get(item.session_id, [])
            + alike.get((item.session.game.id, item.session.players, item.created), []),
        ):
            report.duplicates.append(item.session_id)
        else:
            to_write.append((item, new_session_id(), copy_title(item, language), item.session_id))
    return to_write, to_replace, to_retitle


def _later_title(item: _Incoming, here: SessionSummary, ours: dict[str, Any], theirs: dict[str, Any]) -> float | None:
    """When the file's title of a game here was changed, if that is later than the title here
    was (titles.json; a title never changed was given when the game was created); else None."""
    if item.title == here.title:
        return None
    changed = theirs.get(item.session_id)
    return changed if changed is not None and changed > ours.get(item.session_id, here.created) else None


def _damaged(store: Store) -> set[str]:
    """The games a quarantine note says lost changes: only these may be taken back by a restore.
    The shape of a log never says it: an undo followed by the same change again leaves a log
    that is a prefix of the backup's, and that game is the table's, not damage."""
    try:
        notes = store.quarantine_notes()
    except (OSError, StoreError):
        return set()  # notes unreadable: nothing is taken for damage, every game here stays as it is
    return {note.session for note in notes if note.session and note.lost > 0}


def _lost_since(ours: dict[str, Any], backed_up: dict[str, Any]) -> bool:
    """Whether our game is the backup's with changes missing from its end, as a damaged file
    opens (asked only of a game a quarantine note says was damaged, see `_damaged`)."""
    if any(ours[name] != backed_up[name] for name in ("game", "players", "options")):
        return False
    events, kept = ours["events"], backed_up["events"]
    return len(events) < len(kept) and kept[: len(events)] == events


def _copied_before(store: Store, item: _Incoming, candidates: list[str]) -> bool:
    """Whether a copy of this game as the file holds it is here already (a file imported twice)."""
    theirs = item.session.to_dict()
    for candidate in dict.fromkeys(candidates):
        if candidate == item.session_id:
            continue
        found = _peeked(store, candidate)
        if found is not None and found.to_dict() == theirs:
            return True
    return False


def _peeked(store: Store, session_id: str) -> Session | None:
    try:
        return store.peek(session_id)
    except StoreError:
        return None


def _note_copies(store: Store, new: dict[str, str]) -> None:
    with _speaking(store, "store.not_put"):
        store.side_files.update(COPIES_FILE, lambda kept: {**kept, **new})


def restore_backup(store: Store, name: str) -> ImportReport:
    """Import a backup: its games not here come back; a game here is left as it is (`changed` when it
    differs from the backup); the entries a side file lost since the backup come back (`side`)."""
    if _backup_day(name) is None:
        return ImportReport(refused=[Refusal.of(name, Message("archive.not_a_backup"))])
    with _speaking(store, "archive.backup_unreadable"):
        made = store.folder.stat(f"{BACKUPS}/{name}")
        data = store.folder.read(f"{BACKUPS}/{name}")
    if data is None or made is None:
        return ImportReport(refused=[Refusal.of(name, Message("archive.no_backup"))])
    return import_json(store, data, failed="archive.not_restored", restore=True, backed_up=made[2] / 1e9)

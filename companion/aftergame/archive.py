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

Files this module writes, in the data folder (each atomically)::

    exports/companion-<date>-<time>.json|.csv   what the player exported (-2, -3… when the name is taken)
    copies.json                                 {"crc32": checksum, "format": "companion-copies",
                                                 "version": 1, "count": n,
                                                 "copies": {copy id: id of the game it copies}}
                                                 (store/side_file.py: an earlier version's has no
                                                 checksum nor count)
    backups/companion-<date>.json               one archive a day while the app is used, the last 7 kept
                                                 (looked for when a page opens and whenever a game
                                                 ends, so a server or a phone left running for days
                                                 keeps one a day while games are played)

A backup is the same archive, streamed: each game is copied from its file as it is saved
(no rule replays it, one game at a time in memory), so the day's first start costs the
app no more memory than before it, in a thread of its own (see app/main.py).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from datetime import time as dt_time
from typing import Any, NamedTuple

from companion.aftergame import stats
from companion.rules import GAMES
from companion.rules.base import describe_value
from companion.session import CLOCK_FIELDS, Session, UnknownGameError
from companion.session import FORMATS as SESSION_FORMATS
from companion.store import SessionSummary, Store, StoreError
from companion.store.errors import os_reason
from companion.store.file_format import encode, holds_lone_surrogate, may_hold_lone_surrogate
from companion.store.folders import Folder
from companion.store.listing import SESSION_ID, new_session_id
from companion.store.session_file import MAX_TITLE, is_time, loaded_title
from companion.store.side_file import SideKind, entries_of
from companion.store.store import TITLES
from companion.text import messages
from companion.text.messages import Message, RuleError, quoted
from companion.text.numbers import fixed, whole

FORMAT = "companion-archive"
VERSION = 1
MAX_IMPORT_BYTES = 50 * 2**20  # what the web server takes in one message (see app/web/serving.py)
# The deepest an archive goes: document, sessions, a session, its events, an event, a count
# per player, the count. Anything deeper is not an archive (and is refused before any replay).
MAX_DEPTH = 6
SESSION_ORDER = ("format", "game", "players", "options", "events", "cursor")  # as Session.to_dict gives them
SESSION_FIELDS = frozenset(SESSION_ORDER)
KEPT_FIELDS = frozenset({"id", "title", "created", "updated", "finished"})
CSV_COLUMNS = ("session_id", "title", "date", "time", "duration_min", "stopped", "game", "copy_of", "player", "seat",
               "score", "rank", "winner")
EXPORTS = "exports"
BACKUPS = "backups"
BACKUPS_KEPT = 7
BACKUP_PREFIX = "companion-"
COPIES = "copies.json"
COPIES_FORMAT = "companion-copies"
COPIES_FILE = SideKind(COPIES, "copies", lambda key, value: isinstance(value, str) and SESSION_ID.fullmatch(key)
                       is not None, (("format", COPIES_FORMAT), ("version", 1)))
# The table's choices kept beside the games: an archive and a backup carry them (see the docstring).
SIDE_KINDS = (stats.ALIAS_FILE, stats.COUNTED_FILE, COPIES_FILE, TITLES)

messages.register(
    "en",
    {
        "archive.the_file": "the file",
        "archive.session_number": "session {number}",
        "archive.not_bytes": "It is not the content of a file.",
        "archive.too_big": "It is {size} MB; an archive may hold at most {limit} MB.",
        "archive.too_deep": "It is nested deeper than an archive is ({levels} levels).",
        "archive.not_json": "It is not a Companion archive: it is not readable JSON.",
        "archive.not_json_at": "It is not a Companion archive: it is not readable JSON (line {line}, column {column}).",
        "archive.id_twice": "It holds the game {game} twice (sessions {first} and {second}); "
                            "a file holds each game once, so nothing was imported.",
        "archive.game": "{title} ({day}, {players})",
        "archive.game_undated": "{title} ({players})",
        "archive.game_day": "{title} ({day})",
        "archive.missing_fields": "It lacks fields every game has: {fields}.",
        "archive.session_format": "Its session format {format} is not supported.",
        "archive.events_not_list": "Its events are not a list.",
        "archive.bad_cursor": "Its undo position {cursor} is out of range (0 to {count}).",
        "archive.players_not_saved": "Its player names are not as a game saves them.",
        "archive.player_refused": "Its player {name} would be refused by New game: {reason}.",
        "archive.bad_event": "Its event {number} was refused: {reason}.",
        "archive.copy_title": "{title} (copy)",
        "archive.wrong_format": "It is not a Companion archive (its format is not 'companion-archive').",
        "archive.no_version": "Its version is missing or not a whole number.",
        "archive.newer": "It was written by a newer version of Companion (archive version {version}); "
                         "this version reads version {known}.",
        "archive.no_sessions": "It holds no list of sessions.",
        "archive.not_fields": "It is not a set of named fields.",
        "archive.unknown_fields": "It has fields an archive does not have: {fields}.",
        "archive.broken_text": "It holds a broken character (half of a pair) that no file can keep.",
        "archive.no_id": "Its id is missing or not a session id.",
        "archive.title_not_text": "Its title is not text.",
        "archive.no_created": "Its creation time is missing.",
        "archive.bad_created": "Its creation time is not a time.",
        "archive.bad_updated": "The time of its last change is not a time.",
        "archive.bad_finished": "Its finishing time is not a time.",
        "archive.unknown_game": "Its game is not one this version knows: {reason}.",
        "archive.not_a_backup": "It is not the name of a backup.",
        "archive.not_exported": "The export could not be saved: {reason}.",
        "archive.bad_export_name": "'{name}' is not a plain file name.",
        "archive.not_backed_up": "Today's backup could not be saved: {reason}.",
        "archive.backup_unreadable": "The backup could not be read: {reason}.",
        "archive.not_imported": "It could not be saved: {reason}.",
        "archive.not_restored": "It could not be brought back: {reason}.",
        "archive.no_backup": "There is no such backup.",
    },
)


# --- export ------------------------------------------------------------------------


def stored_form(store: Store, summary: SessionSummary) -> dict[str, Any]:
    """A session as an archive holds it (StoreError when its file cannot be read)."""
    session = store.peek(summary.id)
    return {
        "id": summary.id,
        "title": summary.title,
        "created": summary.created,
        "updated": summary.updated,
        "finished": summary.finished,
        **session.to_dict(),
    }


# Long work says how far it is: (stage, done, total), stage "exporting", "replaying" or "saving".
Progress = Callable[[str, int, int], None]


def export_json(store: Store, session_ids: Iterable[str] | None = None, progress: Progress | None = None) -> bytes:
    """The archive of the listed sessions (all of them by default), oldest first.

    A session that cannot be read now (damaged, saved by a newer version) is left out:
    the list says why it is missing.
    """
    wanted = None if session_ids is None else set(session_ids)
    summaries = [summary for summary in sorted(store.listing(), key=lambda summary: (summary.created, summary.id))
                 if wanted is None or summary.id in wanted]
    sessions = []
    for done, summary in enumerate(summaries, start=1):
        try:
            sessions.append(stored_form(store, summary))
        except StoreError:
            continue
        finally:
            if progress is not None:
                progress("exporting", done, len(summaries))
    return encode({"format": FORMAT, "version": VERSION, "sessions": sessions,
                   **side_maps(store, {session["id"] for session in sessions})})


def side_maps(store: Store, ids: set[str]) -> dict[str, dict[str, Any]]:
    """The table's choices an archive of these games carries beside them, by their field: every
    rename (a player is one player across all games), the other choices of these games only."""
    maps = {}
    for kind in SIDE_KINDS:
        entries = store.side_files.read(kind)
        if kind is not stats.ALIAS_FILE:
            entries = {key: value for key, value in entries.items() if key in ids}
        if entries:
            maps[kind.key] = entries
    return maps


def export_csv(store: Store, language: str = messages.SOURCE_LANGUAGE) -> str:
    """One row per player of each finished game, oldest game first, from the kept results (no replay).

    Starts with a UTF-8 byte order mark (spreadsheets then read the names right). `date` and
    `time` are the local day and time the game was started; `duration_min` its length in
    minutes (`duration_min`); `stopped` true when the table stopped it; `copy_of` the game a
    copy was imported beside (statistics leave copies out); `seat` counts from 1. A text cell
    a spreadsheet would take for a formula (= + - @, a tab or a return first) starts with '.
    """
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in result_rows(store, language):
        writer.writerow(_written(value) for value in row)
    return out.getvalue()


def _written(value: Any) -> Any:
    """One value of a results row as the CSV writes it: 2026-12-03, 20:45, true, a text made safe."""
    if isinstance(value, str):
        return cell(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt_time):
        return value.strftime("%H:%M")
    if isinstance(value, date):
        return value.isoformat()
    return value


def export_xlsx(store: Store, language: str = messages.SOURCE_LANGUAGE) -> bytes:
    """The rows of `export_csv` as an Excel workbook: every cell typed (dates, times, numbers,
    true/false), so a spreadsheet opens it right whatever its import settings (LibreOffice's CSV
    import ignores the byte order mark by default and shows the protective '), and a text is
    always a text (no apostrophe needed: a name starting with = stays a name)."""
    from openpyxl import Workbook  # type: ignore[import-untyped]  # loaded when asked: not at start

    book = Workbook(write_only=True)
    sheet = book.create_sheet(title="Results")
    sheet.append(CSV_COLUMNS)
    for row in result_rows(store, language):
        sheet.append([_typed(sheet, value) for value in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _typed(sheet: Any, value: Any) -> Any:
    """A workbook cell for one value; a text one whatever it starts with (openpyxl reads "=..." as a formula)."""
    from openpyxl.cell import WriteOnlyCell  # type: ignore[import-untyped]

    if not isinstance(value, str):
        return value
    text = WriteOnlyCell(sheet, value)
    text.data_type = "s"
    return text


ResultRow = tuple[str, str, date, dt_time, int, bool, str, str, str, int, float, int, bool]


def result_rows(store: Store, language: str = messages.SOURCE_LANGUAGE) -> Iterator[ResultRow]:
    """The values of each row of the results exports (`CSV_COLUMNS`), typed."""
    copies = read_copies(store)
    for summary in sorted(store.finished(), key=lambda summary: (summary.created, summary.id)):
        result = summary.result
        if result is None:
            continue
        started = datetime.fromtimestamp(summary.created)
        game = GAMES.get(summary.game)
        title = summary.title or f"{game.home_title if game else summary.game} · " \
                                 f"{messages.join_names(list(summary.players), language)}"
        when = started.time().replace(second=0, microsecond=0)
        common = (summary.id, title, started.date(), when, duration_min(summary), was_stopped(store, summary),
                  summary.game, copies.get(summary.id, ""))
        for seat, player in enumerate(summary.players):
            yield (*common, player, seat + 1, result.scores[seat], result.ranks[seat], player in summary.winners)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str) -> str:
    """A text a spreadsheet shows as text: one it would run as a formula starts with an apostrophe."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def duration_min(summary: SessionSummary) -> int:
    """A finished game's playing time in whole minutes (at least 1), pauses left out (see `stats.duration_of`)."""
    return max(1, whole((stats.duration_of(summary) or 0) / 60))


def was_stopped(store: Store, summary: SessionSummary) -> bool:
    """Whether the table stopped the game: its kept result says so; else (a result saved by an
    earlier version) its last played event is `end_game`, read from its file, not replayed."""
    if summary.result is not None:
        return summary.result.stopped
    found = store.saved(summary.id)
    if found is None:
        return False
    events, cursor = found[0].get("events"), found[0].get("cursor")
    if not isinstance(events, list) or type(cursor) is not int or not 0 < cursor <= len(events):
        return False
    last = events[cursor - 1]
    return isinstance(last, dict) and last.get("type") == "end_game"


def export_name(extension: str, moment: float | None = None) -> str:
    """companion-2026-12-01-193005.json: the local date and time of the export, to the second."""
    stamp = datetime.fromtimestamp(time.time() if moment is None else moment).strftime("%Y-%m-%d-%H%M%S")
    return f"{BACKUP_PREFIX}{stamp}.{extension}"


def save_export(store: Store, name: str, data: bytes | str) -> str:
    """Write an export into the data folder's exports/ (atomically) and return where it is.

    A name already taken there gets -2, -3… before its extension: an export never replaces another."""
    if "/" in name or "\\" in name or name.startswith("."):
        bad_name = Message("archive.bad_export_name", {"name": messages.quoted(name)})
        raise StoreError("archive.not_exported", reason=bad_name)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with _speaking(store, "archive.not_exported"):
        store.folder.ensure(EXPORTS)
        name = _free_name(store.folder, name)
        store.folder.write(f"{EXPORTS}/{name}", raw)
    return _shown_path(store, f"{EXPORTS}/{name}")


def _free_name(folder: Folder, name: str) -> str:
    stem, dot, extension = name.rpartition(".")
    if not dot:
        stem, extension = name, ""
    taken = set(folder.names(EXPORTS))
    found, number = name, 1
    while found in taken:
        number += 1
        found = f"{stem}-{number}{dot}{extension}"
    return found


# --- import ------------------------------------------------------------------------


class Refusal(NamedTuple):
    """What was refused and why: in English (`session`, `reason`, `str()`) and as messages to say in any language."""

    session: str  # the session's id, or "session 3" / "the file" when it has none
    reason: str  # a sentence
    why: Message  # the reason
    named: Message | None = None  # the game in words (title, day, players), or "session 3" / "the file"

    def __str__(self) -> str:
        return f"{self.session}: {self.reason}"

    @classmethod
    def of(cls, session: str | Message, why: Message, named: Message | None = None) -> Refusal:
        if isinstance(session, Message):
            return cls(session.text(), why.text(), why, named or session)
        return cls(session, why.text(), why, named)

    def reason_text(self, language: str) -> str:
        return self.why.text(language)


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


class _Refused(Exception):
    def __init__(self, message_id: str | Message, **params: Any) -> None:
        self.message = message_id if isinstance(message_id, Message) else Message(message_id, params)
        super().__init__(str(self.message))


THE_FILE = Message("archive.the_file")


class _Incoming(NamedTuple):
    session: Session
    session_id: str
    title: str
    created: float
    updated: float | None

    def named(self) -> Message:
        return game_named(self.session.game.id, self.title, self.created, self.session.players)


def import_json(store: Store, data: bytes, *, failed: str = "archive.not_imported", restore: bool = False,
                language: str = messages.SOURCE_LANGUAGE, progress: Progress | None = None,
                backed_up: float | None = None) -> ImportReport:
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
    to_write, to_replace, to_retitle = _sort_out(store, incoming, report, restore, language,
                                                 theirs.get(TITLES.key, {}))
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


def _restore_side(store: Store, document: dict[str, Any], backed_up: float, report: ImportReport,
                  failed: str) -> None:
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


def _write(store: Store, to_write: list[_ToWrite], report: ImportReport, failed: str,
           their_copies: dict[str, str]) -> int:
    """Save the new games and copies; a copy's note is kept before the copy itself (a note of a copy
    never written is harmless, a copy without its note would count twice in statistics): the copies
    made now, and the file's games that are copies there. Returns how many of the file's were noted."""
    copies = {wanted: copy_of for _, wanted, _, copy_of in to_write if copy_of is not None}
    carried = {wanted: their_copies[wanted] for _, wanted, _, copy_of in to_write
               if copy_of is None and wanted in their_copies}
    copies.update(carried)
    try:
        if copies:
            _note_copies(store, copies)
        ids = store.put_many([(item.session, wanted, item.created, title, item.updated)
                              for item, wanted, title, _ in to_write])
    except StoreError as error:
        said = error.message
        if said.id == "store.not_put":
            said = Message(failed, said.params)
        report.refused.extend(Refusal.of(item.session_id, said, item.named()) for item, _, _, _ in to_write)
        return 0
    report.imported.extend(ids)
    report.copies.extend(Named(new_id, item.named())
                         for new_id, (item, _, _, copy_of) in zip(ids, to_write, strict=True) if copy_of is not None)
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
        report.updated.append(Named(item.session_id, game_named(item.session.game.id, title, item.created,
                                                                item.session.players)))


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
    found[stats.ALIAS_FILE.key] = {key: name for key, name in found[stats.ALIAS_FILE.key].items()
                                   if stats.is_player_name(name)}
    return found


def _take_choices(store: Store, theirs: dict[str, dict[str, Any]], settled: set[str], noted: int,
                  report: ImportReport, failed: str) -> None:
    """Add the file's choices that are not here: its renames (one made otherwise here is kept,
    and said), and its choices about the games now here under their own id (`settled`): counted
    or left out, noted as a copy, when their title was changed. A choice here is never undone."""
    taken: list[tuple[str, int]] = []

    def counted(here: dict[str, Any]) -> dict[str, Any]:
        new = {key: value for key, value in theirs[stats.COUNTED_FILE.key].items()
               if key in settled and key not in here}
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

    for kind, change in ((stats.ALIAS_FILE, aliases), (stats.COUNTED_FILE, counted), (COPIES_FILE, copies),
                         (TITLES, titles)):
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


def _archive_document(data: bytes) -> dict[str, Any]:
    """The archive's document, its "sessions" a list; _Refused otherwise."""
    if not isinstance(data, (bytes, bytearray)):
        raise _Refused("archive.not_bytes")
    if len(data) > MAX_IMPORT_BYTES:
        raise _Refused(too_big(len(data)))
    try:
        # The standard parser: it tells nesting too deep for it apart from broken JSON (orjson does not).
        document = json.loads(bytes(data))
    except RecursionError:
        raise _Refused("archive.too_deep", levels=MAX_DEPTH) from None
    except json.JSONDecodeError as error:  # where it breaks, in numbers: the parser's own words are English
        raise _Refused("archive.not_json_at", line=error.lineno, column=error.colno) from None
    except ValueError:  # bad UTF-8
        raise _Refused("archive.not_json") from None
    if _depth_exceeds(document, MAX_DEPTH):
        raise _Refused("archive.too_deep", levels=MAX_DEPTH)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _Refused("archive.wrong_format")
    version = document.get("version")
    if type(version) is not int or version < 1:
        raise _Refused("archive.no_version")
    if version > VERSION:
        raise _Refused("archive.newer", version=version, known=VERSION)
    if not isinstance(document.get("sessions"), list):
        raise _Refused("archive.no_sessions")
    return document


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether anything sits deeper than `limit` (the document is 0), walking one level at a time."""
    level = [value] if type(value) in (list, dict) else []
    for _ in range(limit):
        level = [inner for item in level for inner in (item if type(item) is list else item.values())
                 if type(inner) in (list, dict)]
        if not level:
            return False
    return any(level)  # a container at the limit holds something beyond it


def too_big(size: int) -> Message:
    """Why a file of `size` bytes is refused: its size and the limit, in MB."""
    return Message("archive.too_big", {"size": megabytes(size), "limit": megabytes(MAX_IMPORT_BYTES)})


def megabytes(size: int) -> str:
    """A size as the refusals say it: 20.0, 50 (MB of 2**20 bytes)."""
    shown = fixed(size / 2**20, 1)
    return shown[:-2] if shown.endswith(".0") and size % 2**20 == 0 else shown


def _check_ids_once(entries: list[Any]) -> None:
    """A file holding one game twice cannot say which is the game: the whole file is refused."""
    first_seen: dict[str, int] = {}
    for number, entry in enumerate(entries, start=1):
        session_id = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
            continue
        if session_id in first_seen:
            raise _Refused("archive.id_twice", game=_entry_named(entries[first_seen[session_id] - 1]) or session_id,
                           first=first_seen[session_id], second=number)
        first_seen[session_id] = number


def _label(entry: Any, number: int) -> str | Message:
    session_id = entry.get("id") if isinstance(entry, dict) else None
    if isinstance(session_id, str) and SESSION_ID.fullmatch(session_id):
        return session_id
    return Message("archive.session_number", {"number": number})


def game_named(game_id: str, title: str, created: float | None, players: Iterable[str]) -> Message:
    """A game as a report names it: "Friday (2026-11-29, Ann, Bob and Cy)"; the game's title when it has none."""
    game = GAMES.get(game_id)
    shown = title or (game.home_title if game is not None else quoted(game_id))
    names = [quoted(name) for name in players]
    day = None if created is None else date.fromtimestamp(created).isoformat()
    if day is None:
        return Message("archive.game_undated", {"title": shown, "players": names}) if names else \
            Message("label.named", {"name": shown})
    if not names:
        return Message("archive.game_day", {"title": shown, "day": day})
    return Message("archive.game", {"title": shown, "day": day, "players": names})


def _entry_named(entry: Any) -> Message | None:
    """What can be read of a refused entry's title, day and players, in words; None when nothing can."""
    if not isinstance(entry, dict):
        return None
    title = entry.get("title")
    title = loaded_title(title) if isinstance(title, str) and not holds_lone_surrogate(title) else ""
    created = entry.get("created")
    players = entry.get("players")
    players = [" ".join(player.split()) for player in players if isinstance(player, str)][:6] \
        if isinstance(players, list) else []
    game = entry.get("game")
    if not (title or players) or holds_lone_surrogate(players):
        return None
    when = float(created) if isinstance(created, (int, float)) and is_time(created) else None
    return game_named(game if isinstance(game, str) else "", title, when, players)


def _read_entry(entry: Any, suspect: bool = True) -> _Incoming:
    """The session an archive entry holds, replayed by the rules; _Refused with the reason otherwise.

    `suspect`: the archive's text may hold a lone surrogate (else that look is spared)."""
    if not isinstance(entry, dict):
        raise _Refused("archive.not_fields")
    unknown = sorted(map(str, set(entry) - SESSION_FIELDS - set(CLOCK_FIELDS) - KEPT_FIELDS))
    if unknown:
        raise _Refused("archive.unknown_fields", fields=quoted(", ".join(unknown)))
    if suspect and holds_lone_surrogate(entry):
        raise _Refused("archive.broken_text")
    session_id = entry.get("id")
    if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
        raise _Refused("archive.no_id")
    title = entry.get("title", "")
    if not isinstance(title, str):
        raise _Refused("archive.title_not_text")
    created = _time(entry.get("created"), "archive.bad_created")
    if created is None:
        raise _Refused("archive.no_created")
    updated = _time(entry.get("updated"), "archive.bad_updated")
    _time(entry.get("finished"), "archive.bad_finished")
    _check_session_fields(entry)
    try:
        session = Session.from_dict({**{name: entry.get(name) for name in SESSION_FIELDS},
                                     **{name: entry[name] for name in CLOCK_FIELDS if name in entry}})
    except UnknownGameError as error:
        raise _Refused("archive.unknown_game", reason=error.message) from None
    except RuleError as error:
        raise _Refused(_rules_words(error)) from None
    return _Incoming(session, session_id, loaded_title(title), created, updated)


class GameRefused(Exception):
    """A game another device sent (an archive's entry, a synced document's) that is not taken: `message` says why."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(message.text())


Incoming = _Incoming


def read_game(entry: Any) -> Incoming:
    """A game as an archive holds it, checked as an import checks it (replayed by the rules);
    GameRefused with the reason otherwise."""
    try:
        return _read_entry(entry)
    except _Refused as refusal:
        raise GameRefused(refusal.message) from None


def relation(ours: Session, theirs: Session) -> str:
    """How another device's game stands to ours: "same", "behind" (theirs extends ours), "ahead" or "apart"."""
    return _relation(ours.to_dict(), theirs.to_dict())


def _check_session_fields(entry: dict[str, Any]) -> None:
    """What `Session.from_dict` checks of a saved game's shape, said here in the table's language
    (its own sentences are for the data folder, in English)."""
    missing = [name for name in SESSION_ORDER if name not in entry]
    if missing:
        raise _Refused("archive.missing_fields", fields=quoted(", ".join(missing)))
    version = entry["format"]
    if type(version) is not int or version not in SESSION_FORMATS:
        raise _Refused("archive.session_format", format=describe_value(version))
    events, cursor = entry["events"], entry["cursor"]
    if not isinstance(events, list):
        raise _Refused("archive.events_not_list")
    if type(cursor) is not int or not 0 <= cursor <= len(events):
        raise _Refused("archive.bad_cursor", cursor=describe_value(cursor), count=len(events))
    game, players = GAMES.get(entry["game"]) if isinstance(entry["game"], str) else None, entry["players"]
    if game is not None and isinstance(players, list):  # an unknown game is said by `Session.from_dict`
        try:
            checked = game.check_saved_players(players)
        except RuleError as error:
            raise _Refused(error.message) from None
        if list(checked) != players:
            raise _Refused("archive.players_not_saved")
        _check_new_game_names(game, players)


def _check_new_game_names(game: Any, players: list[str]) -> None:
    """The names New game would take (`check_players`), each said by name when it is not."""
    for name in players:
        try:
            game.check_player_name(name)
        except RuleError as error:
            raise _Refused("archive.player_refused", name=quoted(shown_name(name)), reason=error.message) from None
    try:
        game.check_players(players)
    except RuleError as error:  # two names New game takes for the same one
        twin = str(error.message.params.get("name", ""))
        raise _Refused("archive.player_refused", name=quoted(shown_name(twin)), reason=error.message) from None


def shown_name(name: str) -> str:
    """A name with its invisible characters shown as their codes, so a sentence can point at them."""
    return "".join(f"<U+{ord(character):04X}>" if unicodedata.category(character) in ("Cc", "Cf") else character
                   for character in name)


def _rules_words(error: RuleError) -> Message:
    """The rules' refusal of a saved event as a sentence of its own language (the replay's words are English)."""
    cause = error.__cause__
    if error.message.id == "session.bad_event" and isinstance(cause, RuleError):
        return Message("archive.bad_event", {"number": error.message.params.get("number"), "reason": cause.message})
    return error.message


def _time(value: Any, not_a_time: str) -> float | None:
    if value is None:
        return None
    if not is_time(value):  # checked before any clock or calendar sees it: 10**400 is no time
        raise _Refused(not_a_time)
    return float(value)


_ToWrite = tuple[_Incoming, str, str, str | None]  # the game, the id and title it is saved under, what it copies
_ToReplace = tuple[_Incoming, str, float | None]  # the game, its title, when that title was changed (None: kept)
_ToRetitle = tuple[_Incoming, str, float]  # the game (the file's title), its title here, when the file's was changed


def _sort_out(store: Store, incoming: list[_Incoming], report: ImportReport, restore: bool, language: str,
              their_titles: dict[str, float]) -> tuple[list[_ToWrite], list[_ToReplace], list[_ToRetitle]]:
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
        elif (restore and item.session_id in damaged and ours_dict is not None and theirs is not None
              and _lost_since(ours_dict, theirs)):
            to_replace.append((item, item.title, None))  # what a damaged file lost comes back
        elif restore:
            report.changed.append(Named(item.session_id, game_named(here.game, here.title, here.created, here.players)))
        elif relation in ("same", "ahead") and later is not None:
            to_retitle.append((item, here.title, later))
        elif relation in ("same", "ahead") and here.title != item.title:
            report.titles_kept.append(Titled(item.session_id, game_named(here.game, here.title, here.created,
                                                                         here.players), item.title))
        elif relation in ("same", "ahead"):
            report.kept.append(Named(item.session_id, item.named()))
        elif relation == "behind":
            to_replace.append((item, item.title, later) if later is not None or here.title == item.title
                              else (item, here.title, None))
        elif _copied_before(store, item, copies_of.get(item.session_id, []) + alike.get(
                (item.session.game.id, item.session.players, item.created), [])):
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


def _relation(ours: dict[str, Any], theirs: dict[str, Any]) -> str:
    """How the file's game stands to ours: "same" (as far as either was played), "behind" (ours is
    behind: the file's log extends ours), "ahead" (ours extends the file's) or "apart"."""
    if ours == theirs:
        return "same"
    if any(ours[name] != theirs[name] for name in ("game", "players", "options")):
        return "apart"
    played, theirs_played = ours["events"][: ours["cursor"]], theirs["events"][: theirs["cursor"]]
    if played == theirs_played:
        return "same"  # only what was undone (or the title) differs
    if theirs_played[: len(played)] == played:
        return "behind"
    if played[: len(theirs_played)] == theirs_played:
        return "ahead"
    return "apart"


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


def copy_title(item: _Incoming, language: str) -> str:
    """The title a copy is saved under: its own (or its game's) marked as a copy, within a title's length."""
    game = item.session.game
    base = item.title or f"{game.home_title} · {messages.join_names(list(item.session.players), language)}"
    for length in range(len(base), -1, -1):
        title = Message("archive.copy_title", {"title": base[:length].rstrip()}).text(language)
        if len(" ".join(title.split())) <= MAX_TITLE:
            return title
    return ""


def _peeked(store: Store, session_id: str) -> Session | None:
    try:
        return store.peek(session_id)
    except StoreError:
        return None


# --- copies: a game of a file that parted ways with ours, kept beside it ---------------------


def read_copies(source: Store | Folder) -> dict[str, str]:
    """The copies an import added: {copy id: the id of the game it is a copy of}; {} when none or unreadable.

    Statistics leave the copies out (the game is counted once, as ours); Home lists them,
    their title saying they are a copy. A damaged file reads what it can and is told (stats.py)."""
    return stats.side_files(source).read(COPIES_FILE)


def _note_copies(store: Store, new: dict[str, str]) -> None:
    with _speaking(store, "store.not_put"):
        store.side_files.update(COPIES_FILE, lambda kept: {**kept, **new})


# --- backups -----------------------------------------------------------------------


class Backup(NamedTuple):
    name: str  # companion-2026-12-01.json, in the data folder's backups/
    day: date
    size: int  # bytes


def backups(store: Store) -> list[Backup]:
    """The backups in the data folder, newest first."""
    found = []
    with _speaking(store, "store.unreadable"):
        entries = store.folder.scan(BACKUPS)
    for entry in entries:
        day = _backup_day(entry.name)
        if day is not None:
            found.append(Backup(entry.name, day, entry.size))
    return sorted(found, key=lambda backup: backup.day, reverse=True)


def backup_name(day: date) -> str:
    return f"{BACKUP_PREFIX}{day.isoformat()}.json"


def write_backup(store: Store, today: date | None = None) -> str | None:
    """Keep today's copy of the whole archive unless there is one (or nothing to keep); returns its name.

    The copy is written game by game from the stored files (`backup_chunks`): no rule
    replays a game and one game at a time is in memory. Only the last `BACKUPS_KEPT` days
    are kept. StoreError when the disk refuses.
    """
    day = date.today() if today is None else today
    name = backup_name(day)
    present = backups(store)
    if any(backup.name == name for backup in present) or not store.listing():
        return None
    with _speaking(store, "archive.not_backed_up"), store.background_work():
        store.folder.ensure(BACKUPS)
        size = store.folder.write_stream(f"{BACKUPS}/{name}", backup_chunks(store))
        for old in sorted([*present, Backup(name, day, size)], key=lambda backup: backup.day)[:-BACKUPS_KEPT]:
            store.folder.remove(f"{BACKUPS}/{old.name}")
    return name


def backup_chunks(store: Store) -> Iterator[bytes]:
    """The archive of every listed game, oldest first, as chunks of bytes: each game as its
    file holds it when it is reached (read whole, so a game recorded meanwhile is in the
    backup as it was then, or in tomorrow's), without replaying it. A game whose file cannot
    be read now is left out, as `export_json` leaves it out. Between two games the thread
    lets others run, so a tap never waits for more than one game's copy."""
    yield b'{"format":"' + FORMAT.encode() + b'","version":' + str(VERSION).encode() + b',"sessions":['
    first = True
    for summary in sorted(store.listing(), key=lambda summary: (summary.created, summary.id)):
        chunk = _backup_entry(store, summary)
        if chunk is not None:
            yield chunk if first else b"," + chunk
            first = False
        time.sleep(0)  # let a tap's thread have the interpreter
    yield b"]"
    for kind in SIDE_KINDS:  # the table's choices beside the games, as their files hold them
        entries = store.side_files.read(kind)
        if entries:
            yield b',"' + kind.key.encode() + b'":' + encode(entries)
    yield b"}"


def _backup_entry(store: Store, summary: SessionSummary) -> bytes | None:
    """One game of a backup as `stored_form` gives it, its session from its file (not replayed);
    None when the file cannot be read now."""
    found = store.saved(summary.id)
    if found is None:
        return None
    doc, signature = found
    updated = max(signature[2] / 1e9, summary.created)  # the file's time, as the list takes it
    entry = {"id": summary.id, "title": summary.title, "created": summary.created, "updated": updated,
             "finished": summary.finished,
             **{name: doc[name] for name in (*SESSION_ORDER, *CLOCK_FIELDS) if name in doc}}
    try:
        return encode(entry)
    except (TypeError, ValueError, OverflowError):  # what no encoder takes (half of a UTF-16 pair): left out
        return None


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


def _backup_day(name: str) -> date | None:
    if not (name.startswith(BACKUP_PREFIX) and name.endswith(".json")):
        return None
    try:
        return date.fromisoformat(name[len(BACKUP_PREFIX) : -len(".json")])
    except ValueError:
        return None


# --- helpers -------------------------------------------------------------------------


@contextlib.contextmanager
def _speaking(store: Store, message_id: str) -> Iterator[None]:
    """Turn an OSError into StoreError(message_id) saying in words what the disk refused."""
    try:
        yield
    except OSError as error:
        raise StoreError(message_id, reason=os_reason(error, store.directory)) from error


def _shown_path(store: Store, name: str) -> str:
    return name if store.directory is None else str(store.directory / name)

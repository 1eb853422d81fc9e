"""The archive leaves the app and comes back: JSON and CSV exports, imports, daily backups.

An archive is one JSON document::

    {"format": "companion-archive", "version": 1, "sessions": [
        {"id", "title", "created", "updated", "finished", <Session.to_dict(): format, game,
         players, options, events, cursor, clock, last>}, ...]}

Times are seconds since the epoch (UTC); `finished` is when a finished game ended (its
clock's end; a game saved before clocks were kept: as it was listed), else null. An
import replays every session through the rules before
anything is written: a session the rules refuse is reported with the reason and changes
nothing, a session already present (same id, same content) is a duplicate, and one whose
id is taken by a different game comes in as a copy under a new id. Nothing present is
ever overwritten, so restoring a backup is an import of it.

Files this module writes, in the data folder (each atomically)::

    exports/companion-<date>-<time>.json|.csv   what the player exported
    backups/companion-<date>.json               one archive a day while the app is used, the last 7 kept

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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, NamedTuple

from companion import messages
from companion.messages import Message, RuleError
from companion.session import CLOCK_FIELDS, Session, UnknownGameError
from companion.store import SessionSummary, Store, StoreError
from companion.store.errors import os_reason
from companion.store.file_format import encode, holds_lone_surrogate, may_hold_lone_surrogate
from companion.store.listing import SESSION_ID, gc_paused
from companion.store.session_file import is_time, loaded_title

FORMAT = "companion-archive"
VERSION = 1
MAX_IMPORT_BYTES = 20 * 1024 * 1024
# The deepest an archive goes: document, sessions, a session, its events, an event, a count
# per player, the count. Anything deeper is not an archive (and is refused before any replay).
MAX_DEPTH = 6
SESSION_ORDER = ("format", "game", "players", "options", "events", "cursor")  # as Session.to_dict gives them
SESSION_FIELDS = frozenset(SESSION_ORDER)
KEPT_FIELDS = frozenset({"id", "title", "created", "updated", "finished"})
CSV_COLUMNS = ("session_id", "date", "game", "player", "seat", "score", "rank", "winner")
EXPORTS = "exports"
BACKUPS = "backups"
BACKUPS_KEPT = 7
BACKUP_PREFIX = "companion-"

messages.register(
    "en",
    {
        "archive.the_file": "the file",
        "archive.session_number": "session {number}",
        "archive.not_bytes": "It is not the content of a file.",
        "archive.too_big": "It is {size} MB; an archive may hold at most 20 MB.",
        "archive.too_deep": "It is nested deeper than an archive is ({levels} levels).",
        "archive.not_json": "It is not a Companion archive: it is not readable JSON ({detail}).",
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


def export_json(store: Store, session_ids: Iterable[str] | None = None) -> bytes:
    """The archive of the listed sessions (all of them by default), oldest first.

    A session that cannot be read now (damaged, saved by a newer version) is left out:
    the list says why it is missing.
    """
    wanted = None if session_ids is None else set(session_ids)
    sessions = []
    for summary in sorted(store.listing(), key=lambda summary: (summary.created, summary.id)):
        if wanted is not None and summary.id not in wanted:
            continue
        try:
            sessions.append(stored_form(store, summary))
        except StoreError:
            continue
    return encode({"format": FORMAT, "version": VERSION, "sessions": sessions})


def export_csv(store: Store) -> str:
    """One row per player of each finished game, oldest game first, from the kept results (no replay).

    `date` is the local day the game was started; `seat` counts from 1; `winner` is true or false.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for summary in sorted(store.finished(), key=lambda summary: (summary.created, summary.id)):
        result = summary.result
        if result is None:
            continue
        day = date.fromtimestamp(summary.created).isoformat()
        for seat, player in enumerate(summary.players):
            writer.writerow((summary.id, day, summary.game, player, seat + 1, result.scores[seat],
                             result.ranks[seat], "true" if player in summary.winners else "false"))
    return out.getvalue()


def export_name(extension: str, moment: float | None = None) -> str:
    """companion-2026-12-01-1930.json: the local date and time of the export."""
    stamp = datetime.fromtimestamp(time.time() if moment is None else moment).strftime("%Y-%m-%d-%H%M")
    return f"{BACKUP_PREFIX}{stamp}.{extension}"


def save_export(store: Store, name: str, data: bytes | str) -> str:
    """Write an export into the data folder's exports/ (atomically) and return where it is."""
    if "/" in name or "\\" in name or name.startswith("."):
        bad_name = Message("archive.bad_export_name", {"name": messages.quoted(name)})
        raise StoreError("archive.not_exported", reason=bad_name)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with _speaking(store, "archive.not_exported"):
        store.folder.ensure(EXPORTS)
        store.folder.write(f"{EXPORTS}/{name}", raw)
    return _shown_path(store, f"{EXPORTS}/{name}")


# --- import ------------------------------------------------------------------------


class Refusal(NamedTuple):
    """What was refused and why: in English (`session`, `reason`, `str()`) and as messages to say in any language."""

    session: str  # the session's id, or "session 3" / "the file" when it has none
    reason: str  # a sentence
    why: Message  # the reason
    named: Message | None = None  # the session in words when it has no id ("the file"); None: `session` is its id

    def __str__(self) -> str:
        return f"{self.session}: {self.reason}"

    @classmethod
    def of(cls, session: str | Message, why: Message) -> Refusal:
        if isinstance(session, Message):
            return cls(session.text(), why.text(), why, session)
        return cls(session, why.text(), why)

    def reason_text(self, language: str) -> str:
        return self.why.text(language)


@dataclass(frozen=True)
class ImportReport:
    imported: list[str] = field(default_factory=list)  # ids the new sessions were saved under
    duplicates: list[str] = field(default_factory=list)  # ids already present with the same content
    refused: list[Refusal] = field(default_factory=list)


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


def import_json(store: Store, data: bytes, *, failed: str = "archive.not_imported") -> ImportReport:
    """Add the sessions of an archive to the store; see the module's docstring for what is refused.

    `failed`: what each session's refusal says when the disk refuses to take them (its `{reason}`)."""
    try:
        entries = _archive_sessions(data)
    except _Refused as refusal:
        return ImportReport(refused=[Refusal.of(THE_FILE, refusal.message)])
    report = ImportReport()
    incoming: list[_Incoming] = []
    suspect = may_hold_lone_surrogate(data)
    with gc_paused():  # thousands of replayed sessions, all kept until written: no collector passes meanwhile
        for number, entry in enumerate(entries, start=1):
            try:
                incoming.append(_read_entry(entry, suspect))
            except _Refused as refusal:
                report.refused.append(Refusal.of(_label(entry, number), refusal.message))
    to_write = _sort_out(store, incoming, report)
    try:
        ids = store.put_many([(item.session, wanted, item.created, item.title, item.updated)
                              for item, wanted in to_write])
    except StoreError as error:
        said = error.message
        if said.id == "store.not_put":
            said = Message(failed, said.params)
        report.refused.extend(Refusal.of(item.session_id, said) for item, _ in to_write)
        return report
    report.imported.extend(ids)
    return report


def _archive_sessions(data: bytes) -> list[Any]:
    if not isinstance(data, (bytes, bytearray)):
        raise _Refused("archive.not_bytes")
    if len(data) > MAX_IMPORT_BYTES:
        raise _Refused("archive.too_big", size=f"{len(data) / 2**20:.1f}")
    try:
        # The standard parser: it tells nesting too deep for it apart from broken JSON (orjson does not).
        document = json.loads(bytes(data))
    except RecursionError:
        raise _Refused("archive.too_deep", levels=MAX_DEPTH) from None
    except ValueError as error:  # JSON errors and bad UTF-8 are both ValueErrors
        raise _Refused("archive.not_json", detail=_first_line(error)) from None
    if _depth_exceeds(document, MAX_DEPTH):
        raise _Refused("archive.too_deep", levels=MAX_DEPTH)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _Refused("archive.wrong_format")
    version = document.get("version")
    if type(version) is not int or version < 1:
        raise _Refused("archive.no_version")
    if version > VERSION:
        raise _Refused("archive.newer", version=version, known=VERSION)
    sessions = document.get("sessions")
    if not isinstance(sessions, list):
        raise _Refused("archive.no_sessions")
    return sessions


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0].rstrip(".") if str(error) else type(error).__name__


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether anything sits deeper than `limit` (the document is 0), walking one level at a time."""
    level = [value] if type(value) in (list, dict) else []
    for _ in range(limit):
        level = [inner for item in level for inner in (item if type(item) is list else item.values())
                 if type(inner) in (list, dict)]
        if not level:
            return False
    return any(level)  # a container at the limit holds something beyond it


def _label(entry: Any, number: int) -> str | Message:
    session_id = entry.get("id") if isinstance(entry, dict) else None
    if isinstance(session_id, str) and SESSION_ID.fullmatch(session_id):
        return session_id
    return Message("archive.session_number", {"number": number})


def _read_entry(entry: Any, suspect: bool = True) -> _Incoming:
    """The session an archive entry holds, replayed by the rules; _Refused with the reason otherwise.

    `suspect`: the archive's text may hold a lone surrogate (else that look is spared)."""
    if not isinstance(entry, dict):
        raise _Refused("archive.not_fields")
    unknown = sorted(map(str, set(entry) - SESSION_FIELDS - set(CLOCK_FIELDS) - KEPT_FIELDS))
    if unknown:
        raise _Refused("archive.unknown_fields", fields=messages.quoted(", ".join(unknown)))
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
    try:
        session = Session.from_dict({**{name: entry.get(name) for name in SESSION_FIELDS},
                                     **{name: entry[name] for name in CLOCK_FIELDS if name in entry}})
    except UnknownGameError as error:
        raise _Refused("archive.unknown_game", reason=error.message) from None
    except RuleError as error:
        raise _Refused(error.message) from None  # the rules' own sentence
    return _Incoming(session, session_id, loaded_title(title), created, updated)


def _time(value: Any, not_a_time: str) -> float | None:
    if value is None:
        return None
    if not is_time(value):  # checked before any clock or calendar sees it: 10**400 is no time
        raise _Refused(not_a_time)
    return float(value)


def _sort_out(store: Store, incoming: list[_Incoming], report: ImportReport) -> list[tuple[_Incoming, str | None]]:
    """What to write (under its own id, or None: a new one); duplicates go into the report."""
    listed = store.listing()
    present = {summary.id: summary for summary in listed}
    # A copy imported earlier keeps the game, players and creation time of what it copied.
    alike: dict[tuple[str, tuple[str, ...], float], list[SessionSummary]] = {}
    for summary in listed:
        alike.setdefault((summary.game, summary.players, summary.created), []).append(summary)
    seen: dict[str, dict[str, Any]] = {}
    to_write: list[tuple[_Incoming, str | None]] = []
    for item in incoming:
        content = _content(item.session, item.title, item.created)
        if item.session_id in seen:
            same = seen[item.session_id] == content
        elif item.session_id in present:
            candidates = alike.get((item.session.game.id, item.session.players, item.created), [])
            same = any(_present_content(store, summary) == content
                       for summary in sorted(candidates, key=lambda summary: summary.id != item.session_id))
        else:
            seen[item.session_id] = content
            to_write.append((item, item.session_id))
            continue
        if same:
            report.duplicates.append(item.session_id)
        else:
            to_write.append((item, None))
    return to_write


def _content(session: Session, title: str, created: float) -> dict[str, Any]:
    return {**session.to_dict(), "title": title, "created": created}


def _present_content(store: Store, summary: SessionSummary) -> dict[str, Any] | None:
    try:
        return _content(store.peek(summary.id), summary.title, summary.created)
    except StoreError:
        return None


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
    with _speaking(store, "archive.not_backed_up"):
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
    yield b"]}"


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
    """Import a backup: its sessions not present come back, those present count as duplicates."""
    if _backup_day(name) is None:
        return ImportReport(refused=[Refusal.of(name, Message("archive.not_a_backup"))])
    with _speaking(store, "archive.backup_unreadable"):
        data = store.folder.read(f"{BACKUPS}/{name}")
    if data is None:
        return ImportReport(refused=[Refusal.of(name, Message("archive.no_backup"))])
    return import_json(store, data, failed="archive.not_restored")


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

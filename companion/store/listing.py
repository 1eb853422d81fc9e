"""The session list: ids, one summary per session, and what could not be listed.

The summaries come from the index (`index.json`, one entry per session), never from
parsing session files; an entry of the wrong shape, or whose checksum fails, is rebuilt
from its file by the store.

Each entry carries its own checksum (`"check"`, its first field: the CRC-32 of its session
id and its other fields as the file holds them), so that a bit flipped on the disk
inside an entry that still parses (a finished game listed as in progress, a player "Anl",
an id "hearvland") is found and the entry rebuilt, rather than listed wrong for good.
Entries saved before that have none and are read as they always were.
A store keeps the index only as these summaries (small tuples whose repeated texts, game
ids and player names, are held once: shared.py), never as the parsed file.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from companion.rules.base import name_key
from companion.store.file_format import encode, holds_lone_surrogate, may_hold_lone_surrogate
from companion.store.index_file import scan_index
from companion.store.results import FinalResult, result_of
from companion.store.session_file import LATEST_TIME, is_time, loaded_title
from companion.store.shared import Shared, names, text

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base 32, lower case: safe on case-blind disks
SESSION_ID = re.compile(r"[0-9a-z][0-9a-z_-]{0,63}")
_id_lock = threading.Lock()
_last_ms = 0


def new_session_id() -> str:
    """16 characters: 10 of milliseconds (so ids sort by creation) and 6 random ones."""
    global _last_ms
    with _id_lock:
        ms = max(time.time_ns() // 1_000_000, _last_ms + 1)
        _last_ms = ms
    stamp = "".join(_ALPHABET[(ms >> shift) & 31] for shift in range(45, -5, -5))
    return stamp + "".join(secrets.choice(_ALPHABET) for _ in range(6))


class SessionSummary(NamedTuple):
    """One line of the session list (immutable). Times are seconds since the epoch (floats, UTC)."""

    id: str
    game: str
    players: tuple[str, ...]
    created: float
    updated: float  # the session file's modification time: the last recorded change
    is_over: bool
    winners: tuple[str, ...]
    title: str  # "" means: let the UI compose one
    status: str = ""  # "Bob's turn · $32 / $40", worked out when the entry was saved; "" when unknown
    result: FinalResult | None = None  # a finished game's scores and length (see results.py); None when not kept
    # The status line in the other languages, as (language, line) pairs; a language missing
    # here (an entry saved by an earlier version) is worked out when it is shown.
    translated: tuple[tuple[str, str], ...] = ()
    # When the game ended (by its rules, scored or stopped), as its log's clock says; None
    # while it is not over. An entry saved before clocks were kept: the time it was saved
    # with, taken once (the file's time then) and kept from then on, never a file's time now.
    finished: float | None = None
    # Seconds of play, pauses left out (see companion/clock.py); for a game saved before
    # clocks were kept, finished - created. None when unknown.
    played: float | None = None
    # The game's length as its entry was last written: (events, cursor, the time of its last
    # change as its log says); None for an entry saved by an earlier version or a game saved
    # before clocks were kept. A file found holding less than this lost changes (repair.py).
    written: tuple[int, int, float] | None = None
    # The session file as the entry was written: (its size, the CRC-32 of its bytes). A file
    # whose time changed (a copy without its times) but not these is the one the entry was
    # worked out from: the list trusts it without reading the game again. None: not known.
    file: tuple[int, int] | None = None


@dataclass(frozen=True)
class QuarantineNote:
    """A file set aside in quarantine/: moved there whole (it could not be read at all), or
    copied there as it was while the part of it that can be read opens (`lost` says what the
    game lost: `kind` "damaged", "torn" or "altered", see `file_format.Damage`)."""

    file: str  # where it was, relative to the data folder
    moved_to: str  # where it is now (or its copy), relative to the data folder
    reason: str
    time: float
    session: str = ""  # the game whose file was copied aside ("" for a file moved whole)
    lost: int = 0  # changes of that game (entries of a side file) that could not be read
    kind: str = ""  # "" (moved whole), or the kind of damage of a file copied aside (a side file's: side_file.py)


class SessionList(list[SessionSummary]):
    """Summaries, newest first (by updated time), plus what could not be listed.

    - `quarantined`: how many damaged files this store has set aside since it was opened;
    - `notes`: the notes of those files (see `Store.quarantine_notes()` for all of them);
    - `losses`: the games that opened with what could be read of a damaged file, one note
      each (its copy kept in quarantine/, what it lost);
    - `side_losses`: the side files (players.json, counted.json, copies.json, titles.json) that read damaged,
      one note each (its copy kept in quarantine/, what it lost: see store/side_file.py);
    - `newer`: ids of sessions saved by a newer version of Companion (left untouched);
    - `problem`: why the list could not be read at all (a sentence), else None.
    """

    quarantined: int
    notes: tuple[QuarantineNote, ...]
    newer: tuple[str, ...]
    problem: str | None
    losses: tuple[QuarantineNote, ...]
    side_losses: tuple[QuarantineNote, ...]

    def __init__(
        self,
        items: Iterable[SessionSummary] = (),
        notes: Iterable[QuarantineNote] = (),
        newer: Iterable[str] = (),
        problem: str | None = None,
        losses: Iterable[QuarantineNote] = (),
        side_losses: Iterable[QuarantineNote] = (),
    ) -> None:
        super().__init__(items)
        self.notes = tuple(notes)
        self.quarantined = len(self.notes)
        self.newer = tuple(newer)
        self.problem = problem
        self.losses = tuple(losses)
        self.side_losses = tuple(side_losses)


def summary_of(
    session_id: str, entry: Any, modified: float, shared: Shared | None = None, *, suspect: bool = True
) -> SessionSummary:
    """The summary of an index entry; KeyError, TypeError or ValueError when the entry is not one.

    `modified` is the session file's mtime: the updated time, never before the creation
    time (the file system's clock may be coarser than `time.time()`). Equal names, lists
    of names and status lines are stored once in `shared`, when given. An entry holding half
    of a UTF-16 pair is not one (no page could be sent it); `suspect=False` when the file's
    text cannot hold one (see `file_format.may_hold_lone_surrogate`), sparing that look.
    """
    share = (Shared() if shared is None else shared).one
    if suspect and holds_lone_surrogate(entry):
        raise TypeError("not text")
    if not is_time(entry["created"]):
        raise ValueError("not a time")
    created = float(entry["created"])
    status = entry.get("status", "")
    players = share(names(entry["players"]))
    winners = names(entry["winners"])
    title = loaded_title(entry["title"])
    status = status if isinstance(status, str) else ""
    translated = translated_lines(entry.get("status_in"))
    is_over = bool(entry["is_over"])
    finished, played = _times(entry, is_over, created, max(modified, created))
    return SessionSummary(
        session_id,
        text(entry["game"]),
        players,
        created,
        max(modified, created),
        is_over,
        share(winners),
        share(title),
        share(status),
        result_of(entry.get("result"), len(players)),
        share(translated),
        finished,
        played,
        _written(entry.get("written")),
        _file(entry.get("file")),
    )


def _file(value: Any) -> tuple[int, int] | None:
    """An entry's `file` ([size, crc32]); None when absent or not one."""
    if not isinstance(value, list) or len(value) != 2:
        return None
    size, crc = value
    if isinstance(size, bool) or isinstance(crc, bool) or not isinstance(size, int) or not isinstance(crc, int):
        return None
    return size, crc


def _written(value: Any) -> tuple[int, int, float] | None:
    """An entry's `written` ([events, cursor, last]); None when absent or not one."""
    if not isinstance(value, list) or len(value) != 3:
        return None
    events, cursor, last = value
    if (
        isinstance(events, bool)
        or isinstance(cursor, bool)
        or not isinstance(events, int)
        or not isinstance(cursor, int)
        or not 0 <= cursor <= events
        or not is_time(last)
    ):
        return None
    return events, cursor, float(last)


def _times(entry: dict[str, Any], is_over: bool, created: float, updated: float) -> tuple[float | None, float | None]:
    """(finished, played) of an entry; an entry without them (saved by an earlier version) takes
    the updated time it was saved with as its end and the time since its start as its length."""
    if not is_over:
        finished = None
    elif "finished" in entry:
        finished = float(entry["finished"]) if is_time(entry["finished"]) else updated
    else:
        finished = updated
    played = entry.get("played")
    if isinstance(played, bool) or not isinstance(played, (int, float)) or not 0 <= played <= LATEST_TIME:
        played = None if finished is None else max(0.0, finished - created)
    return finished, None if played is None else float(played)


MAX_STATUS = 200  # characters of one status line kept from an index entry


def translated_lines(value: Any) -> tuple[tuple[str, str], ...]:
    """The (language, line) pairs of an entry's `status_in`; whatever is not one is left out."""
    if not isinstance(value, dict):
        return ()
    return tuple(
        sorted(
            (language, line[:MAX_STATUS])
            for language, line in value.items()
            if isinstance(language, str) and len(language) <= 8 and isinstance(line, str)
        )
    )


CHECK = "check"
_CHECKED = re.compile(r'\{"check":"([0-9a-f]{8})",')  # an entry as this version writes it: its checksum first


def _crc(session_id: str, body: bytes) -> str:
    return f"{zlib.crc32(body, zlib.crc32(session_id.encode('utf-8', 'surrogatepass') + b':')):08x}"


def entry_check(session_id: str, entry: dict[str, Any]) -> str:
    """An entry's checksum: the CRC-32 of its id and its other fields as the file holds them."""
    return _crc(session_id, encode({name: value for name, value in entry.items() if name != CHECK}))


def checked(session_id: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The entry as written: its checksum first, then its other fields."""
    fields = {name: value for name, value in entry.items() if name != CHECK}
    return {CHECK: _crc(session_id, encode(fields)), **fields}


def _fails_check(session_id: str, entry: dict[str, Any], text: str | None) -> bool:
    """Whether the entry carries a checksum its id and fields do not match. From its text as read
    when there is one (a CRC of bytes: 10,000 entries cost milliseconds), else from its fields
    encoded again."""
    if CHECK not in entry:
        return False  # saved before entries had a checksum: read as it always was
    found = _CHECKED.match(text) if text is not None else None
    if found is not None:
        body = ("{" + text[found.end() :]).encode("utf-8", "surrogatepass")  # type: ignore[index]
        return found.group(1) != _crc(session_id, body) or entry[CHECK] != found.group(1)
    try:
        return bool(entry[CHECK] != entry_check(session_id, entry))
    except (TypeError, ValueError, RecursionError):
        return True


def indexed_summary(
    session_id: str, entry: Any, shared: Shared | None = None, *, suspect: bool = True, text: str | None = None
) -> SessionSummary | None:
    """The summary an index entry holds (its updated time as saved), or None when it is not one
    (or its checksum fails; `text`: the entry as read from the file, when it is at hand)."""
    if isinstance(entry, dict) and _fails_check(session_id, entry, text):
        return None
    try:
        saved: Any = entry.get("updated") if isinstance(entry, dict) else None
        return summary_of(session_id, entry, float(saved) if is_time(saved) else 0.0, shared, suspect=suspect)
    except (KeyError, TypeError, ValueError, ArithmeticError, RecursionError):
        return None


def index_summaries(
    raw: bytes, shared: Shared | None = None
) -> tuple[dict[str, SessionSummary | None], dict[str, Any], int] | None:
    """The summaries of an index file's entries (read one entry at a time, see `index_file`),
    its other tables and how many records follow its document; None when the file is anything
    but a plain, well-formed index this version reads: the caller then reads it the general
    way, which says what is wrong with it.

    Each entry is still a parsed JSON object given to `indexed_summary`, so the summaries
    are those the general reading gives.
    """
    shared = Shared() if shared is None else shared
    suspect = may_hold_lone_surrogate(raw)
    scanned = scan_index(
        raw, lambda session_id, entry, text: indexed_summary(session_id, entry, shared, suspect=suspect, text=text)
    )
    if scanned is None:
        return None
    summaries, tables, records = scanned
    for session_id, entry in records:
        if entry is not None:
            summaries[session_id] = indexed_summary(session_id, entry, shared, suspect=suspect)
        elif summaries.pop(session_id, _GONE) is _GONE:
            return None  # a record dropping what is not there: the general reading says so
    return summaries, tables, len(records)


_GONE: Any = object()


def same_summary(old: SessionSummary | None, new: SessionSummary) -> bool:
    """Summaries equal but for the updated time."""
    return old is not None and old._replace(updated=0.0) == new._replace(updated=0.0)


def players_of(summaries: Iterable[SessionSummary]) -> list[str]:
    """The players of these games in their order, each once (as names compare)."""
    seen: set[str] = set()
    names: list[str] = []
    for summary in summaries:
        for name in summary.players:
            key = name_key(name)
            if key not in seen:
                seen.add(key)
                names.append(name)
    return names

"""The archive and the results leave the app: the JSON archive of the games and the table's
choices (`export_json`, the document archive.py describes), the results as CSV or an Excel
workbook (one row per player of each finished game), saved into the data folder's exports/.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime
from datetime import time as dt_time
from typing import Any

from companion.aftergame import stats
from companion.aftergame.archive_entries import (
    FORMAT,
    SIDE_KINDS,
    VERSION,
    _speaking,
    read_copies,
)
from companion.rules import GAMES
from companion.store import SessionSummary, Store, StoreError
from companion.store.file_format import encode
from companion.store.folders import Folder
from companion.text import messages
from companion.text.messages import Message
from companion.text.numbers import whole

CSV_COLUMNS = (
    "session_id",
    "title",
    "date",
    "time",
    "duration_min",
    "stopped",
    "game",
    "copy_of",
    "player",
    "seat",
    "score",
    "rank",
    "winner",
)

EXPORTS = "exports"

BACKUP_PREFIX = "companion-"

# Long work says how far it is: (stage, done, total), stage "exporting", "replaying" or "saving".
Progress = Callable[[str, int, int], None]


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


def export_json(store: Store, session_ids: Iterable[str] | None = None, progress: Progress | None = None) -> bytes:
    """The archive of the listed sessions (all of them by default), oldest first.

    A session that cannot be read now (damaged, saved by a newer version) is left out:
    the list says why it is missing.
    """
    wanted = None if session_ids is None else set(session_ids)
    summaries = [
        summary
        for summary in sorted(store.listing(), key=lambda summary: (summary.created, summary.id))
        if wanted is None or summary.id in wanted
    ]
    sessions = []
    for done, summary in enumerate(summaries, start=1):
        try:
            sessions.append(stored_form(store, summary))
        except StoreError:
            continue
        finally:
            if progress is not None:
                progress("exporting", done, len(summaries))
    return encode(
        {
            "format": FORMAT,
            "version": VERSION,
            "sessions": sessions,
            **side_maps(store, {session["id"] for session in sessions}),
        }
    )


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
        title = (
            summary.title
            or f"{game.home_title if game else summary.game} · {messages.join_names(list(summary.players), language)}"
        )
        when = started.time().replace(second=0, microsecond=0)
        common = (
            summary.id,
            title,
            started.date(),
            when,
            duration_min(summary),
            was_stopped(store, summary),
            summary.game,
            copies.get(summary.id, ""),
        )
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


def _shown_path(store: Store, name: str) -> str:
    return name if store.directory is None else str(store.directory / name)

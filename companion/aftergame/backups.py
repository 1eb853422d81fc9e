"""The daily backup: the whole archive (archive.py's document, the table's choices included)
copied into the data folder's backups/ once a day while the app is used, the last 7 kept.

It is streamed: each game is copied from its file as it is saved (no rule replays it, one
game at a time in memory), so the day's first start costs the app no more memory than
before it, in a thread of its own (see app/main.py). `archive.restore_backup` brings one back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import date
from typing import NamedTuple

from companion.aftergame.archive_entries import FORMAT, SESSION_ORDER, SIDE_KINDS, VERSION, _speaking
from companion.aftergame.exports import BACKUP_PREFIX
from companion.session import CLOCK_FIELDS
from companion.store import SessionSummary, Store
from companion.store.file_format import encode

BACKUPS = "backups"
BACKUPS_KEPT = 7


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
    entry = {
        "id": summary.id,
        "title": summary.title,
        "created": summary.created,
        "updated": updated,
        "finished": summary.finished,
        **{name: doc[name] for name in (*SESSION_ORDER, *CLOCK_FIELDS) if name in doc},
    }
    try:
        return encode(entry)
    except (TypeError, ValueError, OverflowError):  # what no encoder takes (half of a UTF-16 pair): left out
        return None


def _backup_day(name: str) -> date | None:
    if not (name.startswith(BACKUP_PREFIX) and name.endswith(".json")):
        return None
    try:
        return date.fromisoformat(name[len(BACKUP_PREFIX) : -len(".json")])
    except ValueError:
        return None

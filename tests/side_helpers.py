"""The side files damaged on purpose: cut at a byte, or a bit flipped, then read and written again.

`SideTable` is a data folder in memory whose four side files the app wrote (renames, games
counted or left out, an imported copy, titles changed); `after_damage` opens a copy of it with one side file
replaced and says what happened (tests/test_side_files.py and tests/bench/side_files.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from companion.aftergame import archive, stats
from companion.session import Session
from companion.store import Store
from companion.store.storage import MemoryFolder
from companion.store.store import TITLES

START = 1_764_612_000.0
DAY = 86_400.0
SIDE_FILES = (stats.ALIASES, stats.COUNTED, archive.COPIES, TITLES.name)


def transamerica(players: list[str], rounds: list[dict[str, int]], stop: bool = False) -> Session:
    session = Session.new("transamerica", players)
    for missing in rounds:
        session.apply({"type": "end_round", "missing": missing})
    if stop:
        session.apply({"type": "end_game", "note": "late"})
    return session


WON = [{"Ann": 0, "Bob": 6, "Cy": 2}, {"Ann": 0, "Bob": 7, "Cy": 2}]


def archive_of(*entries: dict[str, Any]) -> bytes:
    return json.dumps({"format": "companion-archive", "version": 1, "sessions": list(entries)}).encode()


def parted(store: Store, session_id: str, last: dict[str, int]) -> bytes:
    """An archive of the game `session_id` as another device played it on: its logs part ways with ours."""
    entry = json.loads(archive.export_json(store, [session_id]))["sessions"][0]
    entry.update(transamerica(["Ann", "Bob", "Cy"], [WON[0], last]).to_dict())
    return archive_of(entry)


class Outcome(NamedTuple):
    read: Any  # what the reader gave
    right: bool  # exactly what the table chose
    noted: bool  # Home lists a loss of this file
    kept: bool  # the damaged bytes are in quarantine/, with a note
    lost_by_write: int  # entries read before the next write and gone after it
    chosen_lost: int  # entries the table chose that are gone after the next write


class SideTable:
    """Six finished TransAmerica games and the table's choices, in the files the app writes."""

    def __init__(self) -> None:
        self.folder = MemoryFolder()
        store = Store.in_memory(self.folder)
        games = [transamerica(["Ann", "Bob", "Cy"], WON) for _ in range(5)]
        games.append(transamerica(["Ann", "Bob", "Cy"], WON[:1], stop=True))
        self.ids = store.put_many(
            [(game, None, START + day * DAY, "", START + day * DAY + 3_600) for day, game in enumerate(games)]
        )
        for old, new in (
            ("Bob", "Robert"),
            ("Robert", "Rob"),
            ("Cy", "Cyrielle"),
            ("Ann", "Annie"),
            ("Dee", "Délia ☕"),
        ):
            stats.rename_player(store, old, new)
        finished = {summary.id: summary for summary in store.finished()}
        for session_id, counted in zip(self.ids[1:], (False, False, False, False, True), strict=True):
            stats.set_counted(store, finished[session_id], counted)
        for day, (session_id, title) in enumerate(zip(self.ids, ("Friday", "Game night", "Rematch"), strict=False)):
            store.rename(session_id, title, titled=START + day * DAY + 7_200)
        for session_id in self.ids[:3]:
            report = archive.import_json(store, parted(store, session_id, {"Ann": 0, "Bob": 7, "Cy": 3}))
            assert len(report.copies) == 1, report
        self.next_import = parted(store, self.ids[3], {"Ann": 1, "Bob": 7, "Cy": 0})
        self.left_alone = finished[self.ids[0]]  # counted by default: the next choice leaves it out
        self.raw = {name: self.folder.read(name) or b"" for name in SIDE_FILES}
        self.expected = {name: READ[name](store) for name in SIDE_FILES}
        store.close()

    def next_write(self, name: str, store: Store) -> None:
        """The table's next choice of the kind the file keeps."""
        if name == stats.ALIASES:
            stats.rename_player(store, "Eve", "Evelyne")
        elif name == stats.COUNTED:
            stats.set_counted(store, self.left_alone, False)
        elif name == TITLES.name:
            store.rename(self.ids[5], "Stopped early")
        else:
            report = archive.import_json(store, self.next_import)
            assert len(report.copies) == 1, report

    def after_damage(self, name: str, damaged: bytes) -> Outcome:
        """Open a copy of the folder with `name` holding `damaged`; read it, then write the next choice."""
        folder = MemoryFolder()
        folder.files = dict(self.folder.files)
        folder.write(name, damaged)
        store = Store.in_memory(folder)
        read = READ[name](store)
        noted = any(note.file == name for note in getattr(store.listing(), "side_losses", ()))
        kept = any(
            folder.read(f"quarantine/{entry.name}") == damaged and folder.exists(f"quarantine/{entry.name}.why.json")
            for entry in folder.scan("quarantine")
            if not entry.name.endswith(".why.json")
        )
        try:
            self.next_write(name, store)
        except Exception as error:  # noqa: BLE001 - the bench counts a refusal, the test looks at it
            raise AssertionError(f"the next choice was refused: {error}") from error
        after = READ[name](store)
        store.close()
        lost = sum(1 for key, value in read.items() if after.get(key) != value)
        chosen_lost = sum(1 for key, value in self.expected[name].items() if after.get(key) != value)
        return Outcome(read, read == self.expected[name], noted, kept, lost, chosen_lost)


READ: dict[str, Callable[[Any], dict[str, Any]]] = {
    stats.ALIASES: stats.read_aliases,
    stats.COUNTED: stats.read_counted,
    archive.COPIES: archive.read_copies,
    TITLES.name: lambda store: store.side_files.read(TITLES),
}


def cuts(raw: bytes) -> range:
    """Every length a file can be cut to but its own."""
    return range(len(raw))


def flipped(raw: bytes, at: int, bit: int) -> bytes:
    damaged = bytearray(raw)
    damaged[at] ^= 1 << bit
    return bytes(damaged)

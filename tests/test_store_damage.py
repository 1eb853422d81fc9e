"""A session file cut short or with a flipped bit is never read quietly.

A game of 40 acknowledged changes is saved (its document, then one record per change), and
its file is then cut at every byte of its last three records and at a sample of the bytes
before them, or has a bit flipped: each bit of each byte of the last record, one bit of each
byte of the two before it and of the sample, a different bit each time, and a digit of the
document (each bit of every byte of the file: tests/bench/session_flips.py). Every cut inside
a record and every flipped bit leaves a note and the file as it was in quarantine/: a game
that opens shows exactly what came before the damage, and Home says which game lost what. A
cut exactly where a record begins cannot be told from a whole file (README, "After the
game"): those open as the shorter game, with nothing set aside.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from app_helpers import table
from flet_harness import Screen
from sampling import every_nth

from companion.aftergame import archive
from companion.app.data import AppData
from companion.app.main import make_main
from companion.store import SessionDamaged, Store, StoreError
from companion.store.file_format import parse_file
from companion.store.storage import MemoryFolder

TAPS = 40
FIXTURES = Path(__file__).resolve().parent / "fixtures"


class Saved:
    """A Heartland game of `TAPS` acknowledged changes, in memory: its file, and the game after each change."""

    def __init__(self) -> None:
        self.folder = MemoryFolder()
        store = Store.in_memory(self.folder)
        session = store.new("heartland", ["Ann", "Bob"], title="Friday")
        self.id = session.id or ""
        self.after: list[dict[str, Any]] = [session.to_dict()]
        for tap in range(TAPS):
            if tap % 5 == 4:
                session.undo()
            else:
                session.apply({"type": "adjust", "player": "Ann", "amount": tap + 1, "note": f"tap {tap}"})
            self.after.append(session.to_dict())
        store.close()
        self.name = f"sessions/{self.id}.json"
        raw = self.folder.read(self.name)
        assert raw is not None
        self.raw = raw
        # The document is the file as the first change left it; each record starts with a line break.
        self.breaks = [at for at, byte in enumerate(raw) if byte == 0x0A]
        assert len(self.breaks) == TAPS - 1 and parse_file(raw, kind="session").records == TAPS - 1

    def records_before(self, end: int) -> int:
        """How many whole records end at or before byte `end`."""
        return sum(1 for start in self.breaks[1:] + [len(self.raw)] if start <= end)

    def with_file(self, raw: bytes) -> Store:
        """A store (a restart) on a copy of the data folder whose session file now holds `raw`."""
        folder = MemoryFolder()
        folder.files = dict(self.folder.files)
        folder.write(self.name, raw)
        return Store.in_memory(folder)


@pytest.fixture(scope="module")
def saved() -> Saved:
    return Saved()


def last_three_and_a_sample(saved: Saved, every: int) -> list[int]:
    """Every byte of the last three records, and every `every`-th byte before them (the document too)."""
    start = saved.breaks[-3]
    return [*range(0, start, every), *range(start, len(saved.raw))]


def quarantined(store: Store) -> dict[str, bytes]:
    """What quarantine/ holds: each file set aside, and that it has its note."""
    names = {entry.name for entry in store.folder.scan("quarantine")}
    kept = {name for name in names if not name.endswith(".why.json")}
    assert {f"{name}.why.json" for name in kept} == names - kept, names
    return {name: store.folder.read(f"quarantine/{name}") or b"" for name in kept}


def opened_after_cut(saved: Saved, cut: int) -> str:
    """Open the game with its file cut to `cut` bytes; what happened, checked."""
    cut_file = saved.raw[:cut]
    store = saved.with_file(cut_file)
    try:
        session = store.open(saved.id)
    except SessionDamaged:
        assert list(quarantined(store).values()) == [cut_file]  # moved whole, with its note
        assert store.sessions().quarantined == 1
        return "set aside"
    kept = saved.records_before(cut)
    assert session.to_dict() == saved.after[1 + kept], cut  # what came before the cut, exactly
    losses = store.listing().losses
    if cut == len(saved.raw):
        assert losses == () and quarantined(store) == {}, cut  # the whole file: nothing to tell
        return "whole"
    if cut in saved.breaks:  # reads whole, but holds less than its entry in the list says: told
        (lost,) = losses
        assert (lost.session, lost.kind) == (saved.id, "damaged") and lost.lost >= 1, cut
        assert store.folder.read(lost.moved_to) == cut_file and list(quarantined(store).values()) == [cut_file]
        return "cut where a change begins"
    (lost,) = losses
    assert (lost.session, lost.kind, lost.lost) == (saved.id, "torn", 1), cut
    assert store.folder.read(lost.moved_to) == cut_file and list(quarantined(store).values()) == [cut_file]
    return "cut short"


def test_every_cut_inside_a_record_leaves_a_note_and_the_file_as_it_was(saved: Saved) -> None:
    seen: dict[str, int] = {}
    for cut in last_three_and_a_sample(saved, 7):
        outcome = opened_after_cut(saved, cut) if cut else "set aside"
        seen[outcome] = seen.get(outcome, 0) + 1
        if saved.breaks[0] < cut < len(saved.raw) and cut not in saved.breaks:
            assert outcome == "cut short", cut
        if cut < saved.breaks[0]:
            assert outcome == "set aside", cut  # inside the document: nothing can be read
    print(f"{len(saved.raw)}-byte file of {TAPS} changes, cut at {sum(seen.values())} places: {seen}")
    assert "whole" not in seen and seen["cut where a change begins"] >= 3 and seen["cut short"] > 3 * 80


def opened_after_flip(saved: Saved, at: int, bit: int) -> str:
    flipped = bytearray(saved.raw)
    flipped[at] ^= 1 << bit
    damaged = bytes(flipped)
    store = saved.with_file(damaged)
    try:
        session = store.open(saved.id)
    except SessionDamaged:
        assert list(quarantined(store).values()) == [damaged]
        return "set aside"
    (lost,) = store.listing().losses
    assert store.folder.read(lost.moved_to) == damaged and list(quarantined(store).values()) == [damaged]
    if lost.kind != "altered":  # records lost from the damaged one on: the game as it stood before it
        # 0: the document. A flip of the document's own line break (where the sample may land, as ids
        # and times vary in length) loses the records; the document itself still reads whole.
        line = max(1, sum(1 for start in saved.breaks if start < at)) if at >= saved.breaks[0] else 0
        assert line >= 1 and session.to_dict() == saved.after[line], (at, bit)
        assert lost.lost >= 1
    return lost.kind


def flips(saved: Saved) -> list[tuple[int, int]]:
    """Each bit of each byte of the last record; one bit of each byte of the two records before it
    and of one byte in 29 before them (the document too), a different bit each time; and a digit
    of the document's last time made another (it still reads, but not as it was saved)."""
    start, last = saved.breaks[-3], saved.breaks[-1]
    turning = [*every_nth(0, start, 29), *range(start, last)]
    digit = saved.raw.index(b'"last":') + len(b'"last":') + 2
    return [
        *((at, number % 8) for number, at in enumerate(turning)),
        *((at, bit) for at in range(last, len(saved.raw)) for bit in range(8)),
        (digit, 0),
    ]


def test_every_flipped_bit_leaves_a_note_and_the_file_as_it_was(saved: Saved) -> None:
    seen: dict[str, int] = {}
    for at, bit in flips(saved):
        outcome = opened_after_flip(saved, at, bit)
        seen[outcome] = seen.get(outcome, 0) + 1
    print(f"bits flipped: {sum(seen.values())}: {seen}")
    assert set(seen) >= {"set aside", "damaged", "altered"}


def test_a_flipped_bit_in_the_last_record_is_damage_not_a_cut(saved: Saved) -> None:
    at = saved.breaks[-1] + 30  # inside the last record's JSON, away from its ends
    flipped = bytearray(saved.raw)
    flipped[at] ^= 0x01
    store = saved.with_file(bytes(flipped))
    assert store.open(saved.id).to_dict() == saved.after[TAPS - 1]
    (lost,) = store.listing().losses
    assert (lost.kind, lost.lost) == ("damaged", 1)


def test_the_copy_is_kept_before_the_next_change_rewrites_the_file(saved: Saved) -> None:
    cut_file = saved.raw[: saved.breaks[-1] + 20]
    store = saved.with_file(cut_file)
    session = store.open(saved.id)
    (lost,) = store.listing().losses
    assert store.folder.read(lost.moved_to) == cut_file
    session.apply({"type": "adjust", "player": "Bob", "amount": 2, "note": "after the cut"})
    rewritten = parse_file(store.folder.read(saved.name) or b"", kind="session", salvage=True)
    assert rewritten.records == 0 and rewritten.damage is None  # whole again, with its checksum
    assert store.folder.read(lost.moved_to) == cut_file
    store.close()
    again = Store.in_memory(store.folder)
    assert again.open(saved.id).to_dict() == session.to_dict()
    assert again.listing().losses == ()


def test_a_file_read_again_as_it_was_is_not_copied_again(saved: Saved) -> None:
    store = saved.with_file(saved.raw[:-5])
    store.peek(saved.id)
    store.open(saved.id)
    store.close()
    Store.in_memory(store.folder).open(saved.id)
    assert len(quarantined(store)) == 1


def test_a_game_whose_damaged_file_cannot_be_copied_aside_is_not_opened_for_play(
    saved: Saved, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = saved.with_file(saved.raw[:-5])
    real_write = store.folder.write

    def full(name: str, data: bytes) -> None:
        if name.startswith("quarantine/"):
            raise OSError(28, "No space left on device", name)
        real_write(name, data)

    monkeypatch.setattr(store.folder, "write", full)
    with pytest.raises(StoreError, match="could not be copied aside before it is changed, so it is not opened"):
        store.open(saved.id)
    assert store.peek(saved.id).to_dict() == saved.after[TAPS - 1]  # reading it still works
    assert store.folder.read(saved.name) == saved.raw[:-5]


@pytest.fixture
def lost_games(tmp_path: Path) -> Iterator[tuple[AppData, str, str]]:
    """A data folder on disk with a game cut short at its last record and one with a damaged record."""
    directory = tmp_path / "data"
    with Store(directory) as store:
        ids = []
        for players, title in ((["Ann", "Bob"], ""), (["Cy", "Di"], "Sunday")):
            session = store.new("heartland", players, title=title)
            for tap in range(6):
                session.apply({"type": "adjust", "player": players[0], "amount": tap + 1, "note": "x"})
            ids.append(session.id or "")
    torn, damaged = ids
    torn_path, damaged_path = (directory / "sessions" / f"{game}.json" for game in ids)
    torn_path.write_bytes(torn_path.read_bytes()[:-7])
    lines = damaged_path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"amount":3', b'"amount":4')
    damaged_path.write_bytes(b"\n".join(lines))
    data = AppData(Store(directory))
    yield data, torn, damaged
    data.store.close()


@table
async def test_home_says_which_game_lost_what_and_where_the_file_is_kept(lost_games: tuple[AppData, str, str]) -> None:
    data, torn, damaged = lost_games
    kept = data.store.directory / "quarantine"  # type: ignore[operator]
    async with Screen(make_main(data)) as screen:
        await screen.tap(f"session-{torn}")
        assert screen.exists("money-ann")
        await screen.tap("back")
        assert screen.text_of(f"lost-{torn}").startswith(
            "Heartland · Ann and Bob: its last change was cut short and probably never saved; "
            f"the file as it was is kept in {kept}/{torn}.json."
        )
        await screen.tap(f"session-{damaged}")
        await screen.tap("back")
        said = screen.text_of(f"lost-{damaged}")
        assert said.startswith(
            f"Sunday: 4 changes could not be read; the damaged file is kept in {kept}/{damaged}.json."
        )
    for note in data.store.listing().losses:
        assert (kept.parent / note.moved_to).exists()


@table
async def test_a_french_table_reads_the_loss_in_french(lost_games: tuple[AppData, str, str]) -> None:
    data, torn, _ = lost_games
    data.store.peek(torn)
    async with Screen(make_main(data, language="fr")) as screen:
        assert "sa dernière modification" in screen.text_of(f"lost-{torn}")


@pytest.mark.parametrize("version", ["store-v1", "store-v2", "store-v3", "store-v4", "store-v5", "store-v6"])
def test_files_of_earlier_versions_open_with_nothing_set_aside(tmp_path: Path, version: str) -> None:
    shutil.copytree(FIXTURES / version, tmp_path / "data", ignore=shutil.ignore_patterns("expected.json"))
    expected = json.loads((FIXTURES / version / "expected.json").read_text(encoding="utf-8"))
    with Store(tmp_path / "data") as store:
        for session_id, doc in expected.items():
            assert store.open(session_id).cursor == doc["cursor"]
        assert store.listing().losses == () and store.listing().quarantined == 0
    assert list((tmp_path / "data" / "quarantine").iterdir()) == []


def test_a_game_cut_where_a_change_begins_comes_back_whole_from_a_backup(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    with Store(directory) as store:
        session = store.new("heartland", ["Ann", "Bob"])
        for tap in range(6):
            session.apply({"type": "adjust", "player": "Ann", "amount": tap + 1, "note": "x"})
        whole = session.to_dict()
        assert archive.write_backup(store, date(2026, 11, 30)) is not None
    path = directory / "sessions" / f"{session.id}.json"
    raw = path.read_bytes()
    path.write_bytes(raw[: raw.rindex(b"\n")])  # the last change gone, exactly at its start
    with Store(directory) as store:
        assert store.open(session.id or "").cursor == 5
        (lost,) = store.listing().losses  # it holds less than its entry in the list: told, and kept aside
        assert (lost.session, lost.kind, lost.lost) == (session.id, "damaged", 1)
        assert (directory / lost.moved_to).read_bytes() == raw[: raw.rindex(b"\n")]
        store.close_session(session.id or "")
        report = archive.restore_backup(store, "companion-2026-11-30.json")
        assert [named.session for named in report.updated] == [session.id] and report.imported == []
        assert store.peek(session.id or "").to_dict() == whole  # the lost change is back, in the game itself
        assert len(store.sessions()) == 1

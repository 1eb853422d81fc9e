"""The side files keep the table's choices beside the games: players.json (renames),
counted.json (games counted or left out), copies.json (games imported as a copy).

Files written by an earlier version (plain JSON, no checksum) read exactly as that version
read them (tests/fixtures/side-v1/, made by make_side_v1.py). Written now, each carries its
checksum and count: one cut at any byte, or with a flipped bit, is never read wrong unsaid:
Home names the file and what it lost, the damaged bytes are kept in quarantine/ before
anything writes over them, and the next choice keeps what could be read. The day's backup
holds the choices, and restoring one made before the damage brings back what was lost."""

from __future__ import annotations

import errno
import json
import os
import shutil
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from app_helpers import table
from flet_harness import Screen
from side_helpers import DAY, START, WON, SideTable, cuts, flipped, parted, transamerica

from companion.aftergame import archive, stats
from companion.app.data import AppData
from companion.app.main import make_main
from companion.store import Store, StoreError
from companion.store.file_format import stamp_holds
from companion.store.storage import MemoryFolder
from companion.store.store import TITLES

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def side_v1(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A copy of the data folder whose side files an earlier version wrote, and what it read."""
    target = tmp_path / "data"
    shutil.copytree(FIXTURES / "side-v1", target, ignore=shutil.ignore_patterns("expected.json"))
    expected: dict[str, Any] = json.loads((FIXTURES / "side-v1" / "expected.json").read_text(encoding="utf-8"))
    return target, expected


def figures(data: AppData) -> dict[str, Any]:
    found = data.statistics()
    return {
        "plays": found.plays,
        "stopped": found.stopped,
        "left_out": found.left_out,
        "players": {player.name: [player.plays, player.wins] for player in found.players},
    }


@pytest.fixture(params=["side-v1", "side-v2"])
def earlier(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A copy of a data folder whose side files an earlier version wrote (side-v1: plain JSON;
    side-v2: one object sealed with its checksum first), and what that version read."""
    target = tmp_path / "data"
    shutil.copytree(FIXTURES / request.param, target, ignore=shutil.ignore_patterns("expected.json"))
    expected: dict[str, Any] = json.loads((FIXTURES / request.param / "expected.json").read_text(encoding="utf-8"))
    return target, expected


def test_side_files_of_an_earlier_version_read_exactly_as_it_read_them(earlier: tuple[Path, dict[str, Any]]) -> None:
    directory, expected = earlier
    with Store(directory) as store:
        data = AppData(store)
        assert stats.read_aliases(store.folder) == expected["aliases"]
        assert stats.read_counted(store.folder) == expected["counted"]
        assert archive.read_copies(store.folder) == expected["copies"]
        assert store.side_files.read(TITLES) == expected.get("titles", {})
        assert figures(data) == expected["statistics"]
        assert store.listing().side_losses == ()
    assert list((directory / "quarantine").iterdir()) == []  # nothing taken for damage


def test_a_choice_made_after_an_earlier_version_keeps_its_choices(earlier: tuple[Path, dict[str, Any]]) -> None:
    directory, expected = earlier
    with Store(directory) as store:
        stats.rename_player(store.folder, "Ann", "Anne")
        assert stats.read_aliases(store.folder) == {**expected["aliases"], "ann": "Anne"}
        stopped = next(summary for summary in store.finished() if expected["counted"].get(summary.id))
        stats.set_counted(store.folder, stopped, False)  # a stopped game as by default: the choice taken back
        assert stats.read_counted(store.folder) == {
            key: value for key, value in expected["counted"].items() if key != stopped.id
        }
        assert archive.read_copies(store.folder) == expected["copies"]
        assert (directory / "players.json").read_bytes().startswith(b'{"_meta":')  # written as this version does
        renamed = next(iter(store.sessions())).id
        store.rename(renamed, "Again")
        assert store.side_files.read(TITLES).keys() == expected.get("titles", {}).keys() | {renamed}
    with Store(directory) as store:
        assert stats.read_aliases(store.folder) == {**expected["aliases"], "ann": "Anne"}
        assert store.listing().side_losses == ()


# --- as this version writes them --------------------------------------------------------


@pytest.fixture(scope="module")
def side() -> SideTable:
    return SideTable()


def renamed_store() -> Store:
    """A store whose players.json holds three renames, as the app writes it."""
    store = Store.in_memory()
    for old, new in (("Bob", "Robert"), ("Cy", "Cyrielle"), ("Dee", "Délia")):
        stats.rename_player(store, old, new)
    return store


def with_file(store: Store, name: str, raw: bytes) -> Store:
    """A restart on a copy of the store's folder whose file `name` now holds `raw`."""
    folder = MemoryFolder()
    assert isinstance(store.folder, MemoryFolder)
    folder.files = dict(store.folder.files)
    folder.write(name, raw)
    return Store.in_memory(folder)


def kept_aside(store: Store) -> dict[str, bytes]:
    """What quarantine/ holds, each file with its note."""
    names = {entry.name for entry in store.folder.scan("quarantine")}
    kept = {name for name in names if not name.endswith(".why.json")}
    assert {f"{name}.why.json" for name in kept} == names - kept, names
    return {name: store.folder.read(f"quarantine/{name}") or b"" for name in kept}


def test_a_side_file_carries_its_checksum_and_how_many_entries_it_holds() -> None:
    store = renamed_store()
    raw = store.folder.read(stats.ALIASES) or b""
    assert raw.startswith(b'{"_meta":{"1":{"format":1,"kind":"aliases","count":3,"crc32":"')  # a TinyDB file
    assert stamp_holds(raw) is True
    assert stats.read_aliases(store) == {"bob": "Robert", "cy": "Cyrielle", "dee": "Délia"}
    assert store.listing().side_losses == () and kept_aside(store) == {}


def test_a_flipped_bit_that_still_reads_as_json_is_told_not_read_quietly() -> None:
    store = renamed_store()
    raw = store.folder.read(stats.ALIASES) or b""
    damaged = with_file(store, stats.ALIASES, raw.replace(b'"Robert"', b'"Robest"'))  # one bit: r -> s
    assert stats.read_aliases(damaged)["bob"] == "Robest"  # read, as it is: the damage is said
    (note,) = damaged.listing().side_losses
    assert (note.file, note.kind, note.lost) == ("players.json", "altered", 0)
    assert kept_aside(damaged) == {note.moved_to.removeprefix("quarantine/"): raw.replace(b"Robert", b"Robest")}


@pytest.mark.parametrize("name", [stats.ALIASES, stats.COUNTED, archive.COPIES, TITLES.name])
@pytest.mark.parametrize("damage", ["empty", "binary", "foreign JSON", "a list", "cut in two"])
def test_a_side_file_that_does_not_read_is_told_and_kept_aside_before_it_is_written_over(
    side: SideTable, name: str, damage: str
) -> None:
    raw = side.raw[name]
    damaged = {
        "empty": b"",
        "binary": bytes(range(256)),
        "foreign JSON": b'{"players": ["Ann"]}',
        "a list": b"[1, 2]",
        "cut in two": raw[: len(raw) // 2],
    }[damage]
    outcome = side.after_damage(name, damaged)
    assert outcome.noted and outcome.kept, outcome  # said on Home, and the bytes in quarantine/
    assert outcome.lost_by_write == 0  # the next choice kept all that could be read


def test_what_can_be_read_before_a_cut_is_kept_and_the_next_rename_keeps_it_too() -> None:
    store = renamed_store()
    raw = store.folder.read(stats.ALIASES) or b""
    cut = raw[: raw.index(b'"dee"') + 3]  # within the third rename
    damaged = with_file(store, stats.ALIASES, cut)
    assert stats.read_aliases(damaged) == {"bob": "Robert", "cy": "Cyrielle"}
    (note,) = damaged.listing().side_losses
    assert (note.kind, note.lost) == ("damaged", 1)  # the count said before the cut: one rename lost
    stats.rename_player(damaged, "Eve", "Evelyne")
    assert stats.read_aliases(damaged) == {"bob": "Robert", "cy": "Cyrielle", "eve": "Evelyne"}
    assert list(kept_aside(damaged).values()) == [cut]  # the file as it was, kept before it was written over
    assert damaged.listing().side_losses == (note,)  # still said: the rewritten file reads whole now


def test_a_damaged_side_file_that_cannot_be_kept_aside_is_not_written_over() -> None:
    store = renamed_store()
    cut = (store.folder.read(stats.ALIASES) or b"")[:40]

    class NoQuarantine(MemoryFolder):
        def write(self, name: str, data: bytes) -> None:
            if name.startswith("quarantine/"):
                raise OSError(errno.ENOSPC, "full", name)
            super().write(name, data)

    folder = NoQuarantine()
    assert isinstance(store.folder, MemoryFolder)
    folder.files = {**store.folder.files}
    folder.write(stats.ALIASES, cut)
    damaged = Store.in_memory(folder)
    with pytest.raises(StoreError, match="The new name could not be saved: the disk is full"):
        stats.rename_player(damaged, "Eve", "Evelyne")
    assert folder.read(stats.ALIASES) == cut  # the only copy of what it held, untouched
    assert [note.file for note in damaged.listing().side_losses] == ["players.json"]  # and said


def test_a_side_file_the_disk_refuses_to_read_is_not_written_over() -> None:
    class Unreadable(MemoryFolder):
        def read(self, name: str) -> bytes | None:
            if name == stats.COUNTED:
                raise PermissionError(errno.EACCES, "denied", name)
            return super().read(name)

    folder = Unreadable()
    store = Store.in_memory(folder)
    session = store.new("heartland", ["Ann", "Bob"])
    session.apply({"type": "end_game", "note": "late"})
    (summary,) = store.finished()
    folder.files[stats.COUNTED] = (b"{}", (0, 2, 0, 0))
    assert stats.read_counted(store) == {}  # every game counts as by default meanwhile
    with pytest.raises(StoreError, match="The choice could not be saved"):
        stats.set_counted(store, summary, True)
    assert folder.files[stats.COUNTED][0] == b"{}"


def test_a_flip_in_an_earlier_version_s_file_is_read_as_it_always_was(side_v1: tuple[Path, dict[str, Any]]) -> None:
    directory, expected = side_v1
    raw = (directory / "counted.json").read_bytes()
    (directory / "counted.json").write_bytes(raw[:-1])  # cut: no longer its shape, so damage even without a checksum
    with Store(directory) as store:
        assert stats.read_counted(store) == expected["counted"]  # every choice whole before the cut
        (note,) = store.listing().side_losses
        assert (note.file, note.kind) == ("counted.json", "unknown")  # an earlier version's file says no count


# --- every cut, and a sample of flipped bits ------------------------------------------------


@pytest.mark.parametrize("name", [stats.ALIASES, stats.COUNTED, archive.COPIES])
def test_every_cut_and_flipped_bit_is_read_right_or_told_with_the_file_kept_aside(side: SideTable, name: str) -> None:
    raw = side.raw[name]
    seen: dict[str, int] = {}
    damaged = [raw[:cut] for cut in cuts(raw)] + [flipped(raw, at, (at * 5) % 8) for at in range(len(raw))]
    for number, bytes_ in enumerate(damaged):
        outcome = side.after_damage(name, bytes_)
        if outcome.noted:
            assert outcome.kept, (number, bytes_)  # the damaged bytes are in quarantine/, with a note
            said = "told" if outcome.right else "told, not all read right"
        else:
            assert outcome.right, (number, bytes_)  # never wrong unsaid
            assert number >= len(raw), number  # a cut is always told
            said = "read right"
        assert outcome.lost_by_write == 0, (number, bytes_)  # what could be read survives the next choice
        seen[said] = seen.get(said, 0) + 1
    print(f"{name}: {len(raw)} cuts and {len(raw)} flipped bits: {seen}")
    assert seen["told, not all read right"] > len(raw) // 2 and seen.get("read right", 0) < 10


# --- Home says it ---------------------------------------------------------------------------


@pytest.fixture
def damaged_app(tmp_path: Path) -> Iterator[AppData]:
    """A data folder on disk with a game, three renames, and players.json cut within its last rename."""
    directory = tmp_path / "data"
    with Store(directory) as store:
        session = store.new("heartland", ["Ann", "Bob"])
        session.apply({"type": "end_game", "note": "late"})
        for old, new in (("Bob", "Robert"), ("Cy", "Cyrielle"), ("Dee", "Délia")):
            stats.rename_player(store, old, new)
    path = directory / "players.json"
    raw = path.read_bytes()
    path.write_bytes(raw[: raw.index(b'"cy"') + 2])  # two renames lost: Cy's and Dee's
    data = AppData(Store(directory))
    yield data
    data.store.close()


@table
async def test_home_names_the_damaged_side_file_what_it_lost_and_where_it_is_kept(damaged_app: AppData) -> None:
    async with Screen(make_main(damaged_app)) as screen:  # the first Home reads the side files once
        (note,) = damaged_app.store.listing().side_losses
        kept = damaged_app.store.directory / note.moved_to  # type: ignore[operator]
        assert screen.text_of("side-lost-players") == (
            "Renamed players (players.json): 2 renames could not be read, so those players appear under the name "
            f"they played with. The damaged file is kept in {kept}; restoring an earlier backup brings back what "
            "it lost."
        )
    assert kept.read_bytes() == (damaged_app.store.directory / "players.json").read_bytes()  # type: ignore[operator]


@table
async def test_a_spanish_table_reads_the_side_file_s_loss_in_spanish(damaged_app: AppData) -> None:
    damaged_app.statistics()  # statistics read the renames: the damage is found there too
    async with Screen(make_main(damaged_app, language="es")) as screen:
        assert screen.text_of("side-lost-players").startswith(
            "Jugadores renombrados (players.json): no se pudieron leer 2 cambios de nombre"
        )


# --- the day's backup ------------------------------------------------------------------------


@pytest.fixture
def backed_up(tmp_path: Path) -> Iterator[AppData]:
    """Two finished games, one of them imported again as a copy, Bob renamed Robert, the second
    game left out of statistics; then the day's backup."""
    data = AppData(Store(tmp_path / "data"))
    store = data.store
    first, second = store.put_many(
        [(transamerica(["Ann", "Bob", "Cy"], WON), None, START + day * DAY, "", None) for day in range(2)]
    )
    assert len(archive.import_json(store, parted(store, first, {"Ann": 0, "Bob": 7, "Cy": 3})).copies) == 1
    data.rename_player("Bob", "Robert")
    data.set_counted(next(summary for summary in store.finished() if summary.id == second), False)
    assert data.statistics().plays == 1
    assert data.backup_if_due(date(2026, 11, 30)) == "companion-2026-11-30.json"
    yield data
    store.close()


def test_the_day_s_backup_holds_the_table_s_choices_beside_the_games(backed_up: AppData) -> None:
    store = backed_up.store
    kept = json.loads(store.folder.read("backups/companion-2026-11-30.json") or b"")
    assert kept["aliases"] == stats.read_aliases(store) == {"bob": "Robert"}
    assert kept["counted"] == stats.read_counted(store) and len(kept["counted"]) == 1
    assert kept["copies"] == archive.read_copies(store) and len(kept["copies"]) == 1
    assert len(kept["sessions"]) == 3


def damage(data: AppData, name: str, keep: int) -> bytes:
    """Cut a side file to its first `keep` bytes, as a power cut might; what it held."""
    path = data.store.directory / name  # type: ignore[operator]
    raw = path.read_bytes()
    path.write_bytes(raw[:keep])
    return raw


def test_restoring_the_day_s_backup_brings_back_what_a_damaged_side_file_lost(backed_up: AppData) -> None:
    data = backed_up
    for name in (stats.ALIASES, stats.COUNTED, archive.COPIES):
        damage(data, name, 20)  # every entry lost
    time.sleep(0.01)
    found = data.statistics()  # the copy counted as a second play, the game left out counted, Bob as Bob
    assert (found.plays, sorted(player.name for player in found.players)) == (3, ["Ann", "Bob", "Cy"])
    assert {note.file for note in data.store.listing().side_losses} == {"players.json", "counted.json", "copies.json"}
    report = data.restore_backup("companion-2026-11-30.json")
    assert sorted(report.side) == [("copies.json", 1), ("counted.json", 1), ("players.json", 1)]
    assert report.imported == [] and report.refused == []
    found = data.statistics()
    assert (found.plays, found.left_out, sorted(player.name for player in found.players)) == (
        1,
        1,
        ["Ann", "Cy", "Robert"],
    )
    assert data.store.listing().side_losses == ()  # what they lost is back: no longer said
    again = data.restore_backup("companion-2026-11-30.json")
    assert again.side == []  # nothing left to bring back


def test_a_restore_leaves_a_side_file_that_was_not_damaged_as_it_is(backed_up: AppData) -> None:
    data = backed_up
    data.rename_player("Robert", "Bob")  # the rename undone since the backup
    assert data.restore_backup("companion-2026-11-30.json").side == []
    assert stats.read_aliases(data.store) == {"robert": "Bob"}  # it stays undone: no "bob" -> "Robert"


def test_a_restore_brings_back_a_side_file_that_is_missing(backed_up: AppData) -> None:
    data = backed_up
    (data.store.directory / "players.json").unlink()  # type: ignore[operator]
    assert data.restore_backup("companion-2026-11-30.json").side == [("players.json", 1)]
    assert stats.read_aliases(data.store) == {"bob": "Robert"}


def test_a_backup_made_after_the_damage_was_found_brings_nothing_back(backed_up: AppData) -> None:
    data = backed_up
    damage(data, stats.ALIASES, 20)
    assert stats.read_aliases(data.store) == {}  # found damaged now
    backup = data.store.directory / "backups" / "companion-2026-12-01.json"  # type: ignore[operator]
    assert data.backup_if_due(date(2026, 12, 1)) == backup.name  # it holds what could be read: no rename
    later = time.time() + 1
    os.utime(backup, (later, later))
    assert data.restore_backup(backup.name).side == []
    assert [note.file for note in data.store.listing().side_losses] == ["players.json"]  # still said


@table
async def test_the_restore_s_report_says_what_came_back(backed_up: AppData) -> None:
    damage(backed_up, archive.COPIES, 30)
    time.sleep(0.01)
    async with Screen(make_main(backed_up)) as screen:
        await screen.tap("archive")
        await screen.tap("restore-companion-2026-11-30.json")
        assert screen.text_of("side-restored-copies") == (
            "Brought back from the backup: 1 note of a game imported as a copy that copies.json had lost."
        )


def test_a_restore_leaves_an_entry_made_since_the_damage_as_it_is(backed_up: AppData) -> None:
    data = backed_up
    damage(data, stats.ALIASES, 20)
    time.sleep(0.01)
    data.rename_player("Bob", "Bobby")  # chosen again after the damage: the table's latest word
    assert data.restore_backup("companion-2026-11-30.json").side == []
    assert stats.read_aliases(data.store) == {"bob": "Bobby"}

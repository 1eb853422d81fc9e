"""The side files keep the table's choices beside the games: players.json (renames),
counted.json (games counted or left out), copies.json (games imported as a copy).

Files written by an earlier version (plain JSON, no checksum) read exactly as that version
read them (tests/fixtures/side-v1/, made by make_side_v1.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.aftergame import archive, stats
from companion.app.data import AppData
from companion.store import Store

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
    return {"plays": found.plays, "stopped": found.stopped, "left_out": found.left_out,
            "players": {player.name: [player.plays, player.wins] for player in found.players}}


def test_side_files_of_an_earlier_version_read_exactly_as_it_read_them(side_v1: tuple[Path, dict[str, Any]]
                                                                        ) -> None:
    directory, expected = side_v1
    with Store(directory) as store:
        data = AppData(store)
        assert stats.read_aliases(store.folder) == expected["aliases"]
        assert stats.read_counted(store.folder) == expected["counted"]
        assert archive.read_copies(store.folder) == expected["copies"]
        assert figures(data) == expected["statistics"]
    assert list((directory / "quarantine").iterdir()) == []  # nothing taken for damage


def test_a_choice_made_after_an_earlier_version_keeps_its_choices(side_v1: tuple[Path, dict[str, Any]]) -> None:
    directory, expected = side_v1
    with Store(directory) as store:
        stats.rename_player(store.folder, "Ann", "Anne")
        assert stats.read_aliases(store.folder) == {**expected["aliases"], "ann": "Anne"}
        stopped = next(summary for summary in store.finished() if expected["counted"].get(summary.id))
        stats.set_counted(store.folder, stopped, False)  # a stopped game as by default: the choice taken back
        assert stats.read_counted(store.folder) == {key: value for key, value in expected["counted"].items()
                                                    if key != stopped.id}
        assert archive.read_copies(store.folder) == expected["copies"]

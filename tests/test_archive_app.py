"""What the screens will call after a game: AppData's statistics, chart, export, import and backups."""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from pathlib import Path

import pytest

from companion.app.data import AppData
from companion.store import Store, StoreError
from companion.text.messages import RuleError


def finish_transamerica(data: AppData, players: list[str]) -> str:
    session = data.new("transamerica", players, {})
    session.apply({"type": "end_round", "missing": {players[0]: 0, **{name: 13 for name in players[1:]}}})
    assert session.id is not None
    data.close_session(session.id)
    return session.id


def test_a_finished_game_shows_in_statistics_chart_bg_stats_and_csv(tmp_path: Path) -> None:
    data = AppData(Store(tmp_path / "data"))
    session_id = finish_transamerica(data, ["Ann", "Bob"])
    ann = data.statistics("transamerica").player("Ann")
    assert ann is not None and (ann.plays, ann.wins) == (1, 1)
    assert data.score_series(session_id).of("Bob") == [13, 0]
    assert data.bgstats_url(session_id).startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    name, content = data.export("csv")
    assert name.endswith(".csv")
    assert [row["player"] for row in csv.DictReader(io.StringIO(content.decode("utf-8")))] == ["Ann", "Bob"]
    path = Path(data.save_export("json"))
    assert path.parent == tmp_path / "data" / "exports"
    assert [entry["id"] for entry in json.loads(path.read_bytes())["sessions"]] == [session_id]
    with pytest.raises(StoreError):
        data.bgstats_url("0nosuchgame")


def test_renaming_a_player_merges_their_statistics(tmp_path: Path) -> None:
    data = AppData(Store(tmp_path / "data"))
    finish_transamerica(data, ["Bob", "Ann"])
    finish_transamerica(data, ["Robert", "Ann"])
    data.rename_player("Bob", "Robert")
    robert = data.statistics().player("robert")
    assert robert is not None and (robert.plays, robert.wins, robert.longest_streak) == (2, 2, 2)
    with pytest.raises(RuleError):
        data.rename_player("Robert", "   ")


def test_a_backup_a_day_and_restoring_one_brings_back_a_deleted_game(tmp_path: Path) -> None:
    data = AppData(Store(tmp_path / "data"))
    session_id = finish_transamerica(data, ["Ann", "Bob"])
    assert data.backup_if_due(date(2026, 12, 1)) == "companion-2026-12-01.json"
    assert data.backup_if_due(date(2026, 12, 1)) is None
    data.delete(session_id)
    (backup,) = data.backups()
    report = data.restore_backup(backup.name)
    assert report.imported == [session_id] and data.exists(session_id)
    assert data.import_archive(b"nonsense").refused[0].session == "the file"

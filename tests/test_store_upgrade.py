"""Data folders written by earlier store formats open, list and replay exactly as recorded.

Each fixture was made by the version it preserves: tests/fixtures/store-v1/ by
make_store_v1.py (the first format), tests/fixtures/store-v2/ by make_store_v2.py (format-2
sessions, each file one whole document, before appended records), tests/fixtures/store-v3/ by
make_store_v3.py (appended records, index entries with a status line but no final result),
tests/fixtures/store-v4/ by make_store_v4.py (session documents carrying their checksum),
tests/fixtures/store-v5/ by make_store_v5.py (an index of format 2, its entries put and
dropped by appended records), tests/fixtures/store-v6/ by make_store_v6.py (format-3
sessions carrying their table clock); `expected.json` holds what that version read back. Every test
works on a copy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.store import Store
from companion.store.file_format import parse_file
from companion.store.folders import DiskFolder
from companion.store.listing import index_summaries

FIXTURES = Path(__file__).resolve().parent / "fixtures"


Expected = dict[str, dict[str, Any]]


@pytest.fixture(params=["store-v1", "store-v2", "store-v3", "store-v4", "store-v5", "store-v6"])
def fixture(request: pytest.FixtureRequest) -> Path:
    return FIXTURES / request.param


@pytest.fixture
def expected(fixture: Path) -> Expected:
    found: Expected = json.loads((fixture / "expected.json").read_text(encoding="utf-8"))
    return found


@pytest.fixture
def old_folder(tmp_path: Path, fixture: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(fixture, target, ignore=shutil.ignore_patterns("expected.json"))
    return target


def test_the_fixture_holds_every_game_finished_and_not_renamed_and_with_a_redo_tail(expected: Expected) -> None:
    games = {(doc["game"], doc["is_over"]) for doc in expected.values()}
    assert games == {(game, over) for game in ("heartland", "transamerica", "great_plains") for over in (False, True)}
    assert any(doc["title"] for doc in expected.values())
    assert any(doc["cursor"] < len(doc["events"]) for doc in expected.values())


def test_an_old_data_folder_lists_every_game_as_recorded(old_folder: Path, expected: Expected) -> None:
    with Store(old_folder) as store:
        listing = store.sessions()
        assert listing.quarantined == 0 and listing.newer == ()
        found = {
            summary.id: (summary.game, list(summary.players), summary.title, summary.is_over, list(summary.winners))
            for summary in listing
        }
        assert found == {
            session_id: (doc["game"], doc["players"], doc["title"], doc["is_over"], doc["winners"])
            for session_id, doc in expected.items()
        }
        assert {summary.id: summary.created for summary in listing} == {
            session_id: doc["created"] for session_id, doc in expected.items()
        }


def as_recorded(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events without the mark a later format may add to say they were recorded under the first rules."""
    return [{key: value for key, value in event.items() if (key, value) != ("rules", 1)} for event in events]


def test_an_old_data_folder_replays_every_game_as_recorded(old_folder: Path, expected: Expected) -> None:
    with Store(old_folder) as store:
        for session_id, doc in expected.items():
            session = store.open(session_id)
            saved = session.to_dict()
            for field in ("game", "players", "options", "cursor"):
                assert saved[field] == doc[field], (session_id, field)
            assert as_recorded(saved["events"]) == doc["events"]
            assert [str(sentence) for sentence in session.sentences] == doc["sentences"]
            assert session.is_over == doc["is_over"]
            standings = [
                {"player": s.player, "score": s.score, "rank": s.rank, "winner": s.winner, "detail": s.detail}
                for s in session.standings()
            ]
            assert json.loads(json.dumps(standings)) == doc["standings"]


def test_an_old_game_keeps_recording_and_its_redo_tail(old_folder: Path, expected: Expected) -> None:
    session_id = next(key for key, doc in expected.items() if doc["cursor"] < len(doc["events"]))
    with Store(old_folder) as store:
        session = store.open(session_id)
        session.redo()
        session.undo()
    with Store(old_folder) as store:
        assert as_recorded(store.open(session_id).to_dict()["events"]) == expected[session_id]["events"]


def index_format(folder: Path) -> tuple[int, int]:
    """(the format the index declares, how many records follow its document)."""
    parsed = parse_file((folder / "index.json").read_bytes(), kind="index")
    return parsed.data["_meta"]["1"]["format"], parsed.records


def test_an_index_of_an_earlier_format_is_written_again_once_then_takes_records(
    old_folder: Path, expected: Expected, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, _ = index_format(old_folder)
    rewrites: list[str] = []
    real_write = DiskFolder.write

    def write(folder: DiskFolder, name: str, data: bytes) -> None:
        if name == "index.json":
            rewrites.append(name)
        real_write(folder, name, data)

    monkeypatch.setattr(DiskFolder, "write", write)
    with Store(old_folder) as store:
        listed = {summary.id: summary for summary in store.sessions()}
        first, second = sorted(expected)[:2]
        store.rename(first, "Renamed once")
        store.rename(second, "And again")
        store.rename(first, "Renamed twice")
    assert rewrites == (["index.json"] if before < 3 else [])  # written whole at most once, atomically
    version, records = index_format(old_folder)
    assert version == 3 and records >= 2
    with Store(old_folder) as store:
        again = {summary.id: summary for summary in store.sessions()}
    assert again[first].title == "Renamed twice" and again[second].title == "And again"
    for session_id, summary in listed.items():
        if session_id not in (first, second):
            assert again[session_id] == summary
    assert index_summaries((old_folder / "index.json").read_bytes()) is not None  # read one entry at a time


def test_an_index_of_an_earlier_format_rewritten_whole_lists_the_same(old_folder: Path) -> None:
    with Store(old_folder) as store:
        listed = store.sessions()
        store.compact_now()
        assert index_format(old_folder) == (3, 0)
        assert store.listing() is listed or list(store.listing()) == list(listed)  # nothing read again
    with Store(old_folder) as store:
        assert list(store.sessions()) == list(listed)

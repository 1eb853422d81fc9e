"""A finished game's result is kept in its index entry, so statistics never replay a game.

(The index is read as the store reads it, its appended records applied.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from store_helpers import put

from companion.session import Session
from companion.store import Store
from companion.store.index_file import by_session, doc_key
from companion.store.results import FinalResult
from companion.store.storage import MemoryFolder, check_document

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def finish_transamerica(session: Session) -> None:
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 6, "Cy": 2}})
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 7, "Cy": 2}})


def test_finishing_a_game_keeps_its_scores_ranks_and_rounds_in_the_index() -> None:
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    session = store.new("transamerica", ["Ann", "Bob", "Cy"])
    finish_transamerica(session)
    entry = check_document(folder.read("index.json") or b"", kind="index")["sessions"][doc_key(session.id or "")]
    assert entry["result"] == {"scores": [13, 0, 9], "ranks": [1, 3, 2], "length": 2, "stopped": False}
    reopened = Store.in_memory(folder)
    (summary,) = reopened.finished()
    assert summary.result == FinalResult((13, 0, 9), (1, 3, 2), 2)


def test_undoing_the_last_round_takes_the_result_out_of_the_index() -> None:
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    session = store.new("transamerica", ["Ann", "Bob", "Cy"])
    finish_transamerica(session)
    session.undo()
    entry = check_document(folder.read("index.json") or b"", kind="index")["sessions"][doc_key(session.id or "")]
    assert "result" not in entry
    assert Store.in_memory(folder).finished() == []


def test_a_stopped_game_keeps_its_standings_as_they_stood() -> None:
    store = Store.in_memory()
    session = store.new("transamerica", ["Ann", "Bob"])
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 4}})
    session.apply({"type": "end_game", "note": "pizza came"})
    (summary,) = store.finished()
    assert summary.result == FinalResult((13, 9), (1, 2), 1, stopped=True)
    assert Store.in_memory(store.folder).finished()[0].result == summary.result  # kept in the index


def test_a_stopped_game_kept_by_an_earlier_version_is_found_stopped_once() -> None:
    """Results kept before `stopped` was: the game is replayed once, then the index says it."""
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    session = store.new("transamerica", ["Ann", "Bob"])
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 4}})
    session.apply({"type": "end_game", "note": "pizza came"})
    store.close()
    sessions = check_document(folder.read("index.json") or b"", kind="index")["sessions"]
    (entry,) = sessions.values()
    del entry["result"]["stopped"]  # as the version before kept it
    folder.write(
        "index.json", json.dumps({"sessions": sessions, "_meta": {"1": {"format": 3, "kind": "index"}}}).encode()
    )
    (summary,) = Store.in_memory(folder).finished()
    assert summary.result is not None and summary.result.stopped
    entry = check_document(folder.read("index.json") or b"", kind="index")["sessions"][doc_key(session.id or "")]
    assert entry["result"]["stopped"] is True


def test_games_finished_by_an_earlier_version_get_their_result_once_and_keep_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "store-v3", data, ignore=shutil.ignore_patterns("expected.json"))
    expected = json.loads((FIXTURES / "store-v3" / "expected.json").read_text(encoding="utf-8"))
    with Store(data) as store:
        finished = store.finished()
    assert {summary.id for summary in finished} == {key for key, doc in expected.items() if doc["is_over"]}
    for summary in finished:
        standings = {s["player"]: s for s in expected[summary.id]["standings"]}
        assert summary.result is not None
        assert list(summary.result.scores) == [standings[p]["score"] for p in summary.players]
        assert list(summary.result.ranks) == [standings[p]["rank"] for p in summary.players]
    index = by_session(check_document((data / "index.json").read_bytes(), kind="index"))
    assert all("result" in index[summary.id] for summary in finished)
    with Store(data) as store:  # kept: the next store reads no session file for them

        def no_peek(session_id: str) -> Session:
            raise AssertionError("a game was read again")

        store.peek = no_peek  # type: ignore[method-assign]
        assert store.finished() == finished


def test_put_writes_a_whole_session_under_its_id_and_never_over_another() -> None:
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    played = Session.new("transamerica", ["Ann", "Bob", "Cy"])
    finish_transamerica(played)
    first = put(store, played, session_id="0abc", created=100.0, title="Friday", updated=200.0)
    second = put(store, played, session_id="0abc", created=100.0, title="Friday")
    assert first == "0abc" and second != "0abc"
    reopened = Store.in_memory(folder)
    summaries = {summary.id: summary for summary in reopened.sessions()}
    assert summaries["0abc"].title == "Friday" and summaries["0abc"].created == 100.0
    assert summaries["0abc"].updated == 200.0
    assert summaries["0abc"].result == FinalResult((13, 0, 9), (1, 3, 2), 2)
    assert reopened.open(second).to_dict() == played.to_dict()

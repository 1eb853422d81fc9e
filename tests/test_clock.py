"""The table clock: a game's time runs while it is open, a pause survives a restart, and the
times (start, end, playing time) come from the game's log, never from its file's times."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from clock_helpers import SetClock, clock_set
from hypothesis import given, settings
from hypothesis import strategies as st
from store_helpers import put

from companion.aftergame import archive, bgstats
from companion.session import Session
from companion.store import Store
from companion.store.listing import index_summaries
from companion.text.messages import RuleError

MINUTE = 60.0
DAY = 24 * 60 * MINUTE
PAUSE = {"type": "clock", "mark": "pause"}
RESUME = {"type": "clock", "mark": "resume"}
ROUND_1 = {"type": "end_round", "missing": {"Ann": 0, "Bob": 4}}
ROUND_2 = {"type": "end_round", "missing": {"Ann": 0, "Bob": 9}}  # Bob has lost 13: the game ends


@pytest.fixture
def now() -> Any:
    with clock_set(SetClock()) as test_clock:
        yield test_clock


def minutes(seconds: float | None) -> float:
    assert seconds is not None
    return round(seconds / MINUTE, 3)


def test_a_pause_is_left_out_of_the_playing_time_and_survives_a_restart(tmp_path: Path, now: SetClock) -> None:
    with Store(tmp_path) as store:
        session = store.new("transamerica", ["Ann", "Bob"])
        game_id = session.id or ""
        now.wait(20 * MINUTE)
        session.apply(ROUND_1)
        now.wait(5 * MINUTE)
        session.apply(PAUSE)  # pizza
        now.wait(40 * MINUTE)
    # The server restarts during the pizza: the game opens paused, and nothing counted meanwhile.
    now.wait(10 * MINUTE)
    with Store(tmp_path) as store:
        again = store.open(game_id)
        assert again.clock.paused and again.clock.running_since is None
        assert minutes(again.played()) == 25
        now.wait(15 * MINUTE)
        assert minutes(again.played()) == 25
        again.apply(RESUME)
        now.wait(30 * MINUTE)
        again.apply(ROUND_2)
        assert again.is_over
        now.wait(60 * MINUTE)  # the end screen stays up: the clock stopped at the end
        assert minutes(again.played()) == 55
        (summary,) = store.finished()
        assert minutes(summary.played) == 55
        assert summary.finished == again.clock.ended == summary.created + 120 * MINUTE


def test_a_game_act_on_a_paused_clock_runs_it_again(now: SetClock) -> None:
    session = Session.new("transamerica", ["Ann", "Bob"])
    session.apply(PAUSE)
    now.wait(30 * MINUTE)
    session.apply(ROUND_1)  # the table forgot to press play: the act says they are playing
    assert not session.clock.paused
    now.wait(10 * MINUTE)
    assert minutes(session.played()) == 10


def test_undo_after_a_pause_takes_back_the_last_move_and_leaves_the_clock_paused(now: SetClock) -> None:
    session = Session.new("transamerica", ["Ann", "Bob"])
    session.apply(ROUND_1)
    now.wait(10 * MINUTE)
    session.apply(PAUSE)
    assert str(session.undo_sentence) == "Round 1 ended: Ann connected all cities; Bob -4"
    session.undo()  # over pizza, the table sees round 1 was wrong
    assert session.events == [] and session.clock.paused
    now.wait(20 * MINUTE)
    assert minutes(session.played()) == 10
    session.redo()
    assert len(session.events) == 1 and session.clock.paused
    # A pause is no move: nothing to undo once the move is taken back, and no redo brings a pause back.
    session.undo()
    assert not session.can_undo and session.clock.paused


def test_undoing_the_end_runs_the_clock_again_from_the_undo(now: SetClock) -> None:
    session = Session.new("transamerica", ["Ann", "Bob"])
    session.apply(ROUND_1)
    now.wait(10 * MINUTE)
    session.apply(ROUND_2)
    now.wait(30 * MINUTE)  # looking at the result
    session.undo()
    assert not session.is_over and session.clock.ended is None
    now.wait(5 * MINUTE)
    session.apply(ROUND_2)
    assert minutes(session.played()) == 15 and session.clock.ended == now()


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ([PAUSE, PAUSE], "The clock is already paused."),
        ([RESUME], "The clock is not paused."),
        ([ROUND_1, ROUND_2, PAUSE], "The game is over: its clock has stopped."),
        ([{"type": "clock", "mark": "wind"}], "A table pauses or runs the clock; 'wind' is not one of those."),
        ([{"type": "clock", "mark": "taken", "since": 1.0, "at": 2.0}], "'taken' is not one of those"),
    ],
)
def test_a_clock_change_that_makes_no_sense_is_refused_in_words(
    now: SetClock, change: list[dict[str, Any]], refusal: str
) -> None:
    session = Session.new("transamerica", ["Ann", "Bob"])
    for event in change[:-1]:
        session.apply(event)
    before = session.to_dict()
    with pytest.raises(RuleError, match=refusal):
        session.apply(change[-1])
    assert session.to_dict() == before


def test_an_app_killed_while_the_clock_runs_counts_up_to_its_last_change(tmp_path: Path, now: SetClock) -> None:
    store = Store(tmp_path)
    session = store.new("transamerica", ["Ann", "Bob"])
    now.wait(20 * MINUTE)
    session.apply(ROUND_1)
    now.wait(3 * 60 * MINUTE)  # the phone killed the app with the clock running; opened again the next day
    store._finalizer.detach()  # no close: as a kill leaves it (its locks go with the process)
    for entry in store._journal.open.values():
        entry.lock.release()
    with Store(tmp_path) as again:
        reopened = again.open(session.id or "")
        assert minutes(reopened.played()) == 20
        now.wait(7 * MINUTE)
        assert minutes(reopened.played()) == 27
        assert [mark["mark"] for mark in reopened.times.marks or []] == ["start"]  # opening it wrote nothing
        reopened.apply(ROUND_2)
        assert [mark["mark"] for mark in reopened.times.marks or []] == ["start", "close", "open", "end"]
        assert minutes(again.finished()[0].played) == 27


def test_leaving_the_game_stops_its_clock_and_coming_back_runs_it(tmp_path: Path, now: SetClock) -> None:
    """Left, its run ends at its last change (opening and leaving a game writes nothing)."""
    with Store(tmp_path) as store:
        session = store.new("transamerica", ["Ann", "Bob"])
        now.wait(10 * MINUTE)
        session.apply(ROUND_1)
        now.wait(2 * MINUTE)
        store.close_session(session.id or "")
        now.wait(60 * MINUTE)  # on Home, or the app closed
        again = store.open(session.id or "")
        assert minutes(again.played()) == 10
        now.wait(5 * MINUTE)
        assert minutes(again.played()) == 15
        store.close_session(session.id or "")
        assert store.peek(session.id or "").to_dict() == again.to_dict()  # looked at, not changed


def test_a_game_s_times_do_not_move_when_its_data_folder_is_copied(tmp_path: Path, now: SetClock) -> None:
    with Store(tmp_path / "data") as store:
        session = store.new("transamerica", ["Ann", "Bob"])
        now.wait(60 * MINUTE)
        session.apply(ROUND_1)
        now.wait(17 * MINUTE)
        session.apply(ROUND_2)
        (before,) = store.finished()
        link = bgstats.play(session, before)
        exported = json.loads(archive.export_json(store))["sessions"][0]
    # Copied 200 days later by a tool that gives every file the copy's time.
    shutil.copytree(tmp_path / "data", tmp_path / "copy", copy_function=shutil.copy)
    later = time.time() + 200 * DAY
    for path in (tmp_path / "copy").rglob("*"):
        os.utime(path, (later, later))
    with Store(tmp_path / "copy") as copied:
        (after,) = copied.finished()
        # The file's time moved, not its bytes: the list keeps the time its entry holds.
        assert (tmp_path / "copy" / "sessions" / f"{after.id}.json").stat().st_mtime > before.updated + 199 * DAY
        assert after.updated == before.updated
        assert (after.created, after.finished, after.played) == (before.created, before.finished, before.played)
        assert minutes(after.played) == 77
        assert bgstats.play(copied.peek(after.id), after) == link and link["durationMin"] == 77
        assert json.loads(archive.export_json(copied))["sessions"][0]["finished"] == exported["finished"]
        assert exported["finished"] == before.created + 77 * MINUTE


def test_the_clock_is_saved_in_the_log_and_read_back_the_same() -> None:
    session = Session.new("transamerica", ["Ann", "Bob"])
    session.apply(PAUSE)
    session.apply(RESUME)
    saved = session.to_dict()
    assert saved["format"] == 3 and [mark["mark"] for mark in saved["clock"]] == ["start", "pause", "resume"]
    assert json.loads(json.dumps(saved)) == saved
    assert Session.from_dict(saved).to_dict() == saved


@pytest.mark.parametrize(
    ("clock_field", "value"),
    [
        ("clock", {"start": 1}),
        ("clock", [{"mark": "start"}]),
        ("clock", [{"mark": "nap", "at": 1.0}]),
        ("clock", [{"mark": "start", "at": float("nan")}]),
        ("clock", [{"mark": "start", "at": 10**400}]),
        ("clock", [{"mark": "start", "at": True}]),
        ("clock", [{"mark": "start", "at": 1.0, "extra": 1}]),
        ("clock", [{"mark": "taken", "at": 1.0}]),
        ("last", "yesterday"),
        ("last", -5),
    ],
)
def test_a_damaged_clock_is_refused_in_words(clock_field: str, value: Any) -> None:
    saved = {**Session.new("transamerica", ["Ann", "Bob"]).to_dict(), clock_field: value}
    with pytest.raises(RuleError, match=r"^This saved session cannot be read: .+\.$"):
        Session.from_dict(saved)


def test_a_saved_game_without_a_clock_keeps_working_and_takes_its_times_once(tmp_path: Path, now: SetClock) -> None:
    """A game of an earlier version, opened for play: its start and last change as it was listed."""
    old = Session.new("transamerica", ["Ann", "Bob"]).to_dict()
    old = {name: old[name] for name in ("game", "players", "options", "events", "cursor")} | {"format": 2}
    with Store(tmp_path) as store:
        game_id = put(store, Session.from_dict(old), created=now() - 90 * MINUTE, updated=now() - 30 * MINUTE)
        (listed,) = store.sessions()
        assert listed.finished is None and listed.played is None
        session = store.open(game_id)
        assert minutes(session.played()) == 60  # as earlier versions took it: its start to its last change
        now.wait(10 * MINUTE)
        session.apply(ROUND_1)
        session.apply(ROUND_2)
        assert minutes(store.finished()[0].played) == 70
        assert [mark["mark"] for mark in session.times.marks or []] == ["taken", "close", "open", "end"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["pause", "resume", "act", "undo", "redo", "close", "open"]), st.integers(0, 90)),
        max_size=30,
    )
)
def test_the_playing_time_is_the_time_the_clock_ran(steps: list[tuple[str, int]]) -> None:
    """Whatever the table taps, the playing time is the sum of the minutes the clock ran,
    and the game's log is what its acts, undos and redos alone make it."""
    test_clock = SetClock()
    with clock_set(test_clock):
        session = Session.new("transamerica", ["Ann", "Bob", "Cy"])
        shadow = Session.new("transamerica", ["Ann", "Bob", "Cy"])
        running, paused, closed, ran = True, False, False, 0.0
        for step, wait in steps:
            test_clock.wait(wait * MINUTE)
            ran += wait * MINUTE if running else 0.0
            over = session.is_over
            if closed != (step == "open"):  # a closed game is opened before anything else (as the store does)
                continue
            if step in ("pause", "resume"):
                if over or paused == (step == "pause"):
                    continue
                session.apply({"type": "clock", "mark": step})
                paused = step == "pause"
            elif step in ("close", "open"):
                session.apply({"type": "clock", "mark": step})
                closed = step == "close"
            elif step == "act" and not over:
                session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 3, "Cy": 5}})
                shadow.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 3, "Cy": 5}})
                paused = False
            elif step == "undo" and session.can_undo:
                session.undo()
                shadow.undo()
            elif step == "redo" and session.can_redo:
                session.redo()
                shadow.redo()
            else:
                continue
            if session.is_over:
                paused = False  # the end stops the clock, a pause with it
            running = session.clock.running_since is not None
            assert running == (not paused and not session.is_over and not closed)
            assert session.clock.paused == paused
        assert session.played() == pytest.approx(ran)
        assert session.events == shadow.events and session.cursor == shadow.cursor


FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.mark.parametrize("fixture", ["store-v1", "store-v2", "store-v3", "store-v4", "store-v5"])
def test_games_saved_before_the_clock_keep_the_times_they_were_listed_with(tmp_path: Path, fixture: str) -> None:
    """Copied with new file times, an old data folder's finished games keep the end their index
    entries were saved with (when they finished): taken once, as earlier versions took it, then kept."""
    folder = tmp_path / "data"
    shutil.copytree(
        FIXTURES / fixture, folder, ignore=shutil.ignore_patterns("expected.json"), copy_function=shutil.copy
    )
    later = time.time() + 200 * DAY
    for path in folder.rglob("*"):
        os.utime(path, (later, later))  # every file's time is the copy's (a sync tool's, a restore's)
    scanned = index_summaries((FIXTURES / fixture / "index.json").read_bytes())
    assert scanned is not None
    saved = {game_id: summary for game_id, summary in scanned[0].items() if summary is not None and summary.is_over}
    assert len(saved) == 3
    for _ in range(2):  # and again, once the store has written what it worked out
        with Store(folder) as store:
            finished = {summary.id: summary for summary in store.finished()}
            assert {game_id: (summary.finished, summary.played) for game_id, summary in finished.items()} == {
                game_id: (summary.updated, summary.updated - summary.created) for game_id, summary in saved.items()
            }
    with Store(folder) as store:
        game_id = next(iter(saved))
        session = store.open(game_id)  # opened for play: its times go into its log, as listed
        assert session.clock.started == saved[game_id].created and session.clock.ended == saved[game_id].updated
        assert store.finished()[0].finished is not None
        assert {summary.id: summary.finished for summary in store.finished()}[game_id] == saved[game_id].updated


def test_a_data_folder_of_clocked_games_opens_with_the_times_it_recorded(tmp_path: Path) -> None:
    """tests/fixtures/store-v6 (make_store_v6.py), copied with new file times: every game's end
    and playing time as recorded; the paused game opens paused, the others run from their opening."""
    expected = json.loads((FIXTURES / "store-v6" / "expected.json").read_text(encoding="utf-8"))
    folder = tmp_path / "data"
    shutil.copytree(
        FIXTURES / "store-v6", folder, ignore=shutil.ignore_patterns("expected.json"), copy_function=shutil.copy
    )
    later = time.time() + 200 * DAY
    for path in folder.rglob("*"):
        os.utime(path, (later, later))
    with Store(folder) as store:
        listed = {summary.id: summary for summary in store.sessions()}
        assert {game_id: (summary.finished, summary.played) for game_id, summary in listed.items()} == {
            game_id: (doc["finished"], doc["played"]) for game_id, doc in expected.items()
        }
        assert sorted(minutes(doc["played"]) for doc in expected.values() if doc["played"] is not None) == [3, 36, 40]
        for game_id, doc in expected.items():
            assert store.peek(game_id).to_dict() == {name: doc[name] for name in store.peek(game_id).to_dict()}
        with clock_set(SetClock(later)) as now:
            for game_id, doc in expected.items():
                session = store.open(game_id)
                assert session.clock.paused == doc["paused"]
                before = session.played()
                now.wait(10 * MINUTE)
                ran = 0 if doc["paused"] or doc["is_over"] else 10
                assert minutes(session.played()) == minutes(before) + ran

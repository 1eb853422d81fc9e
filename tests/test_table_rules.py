"""The table is the authority, in every game: it can stop a game, and it can record what
the app would refuse when the rule is its call (never a fact). A game module gets both
without a line of its own."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import pytest
from rules_helpers import fact_refuses, refusal, refused

from companion import GAMES, Message, RuleError, Session
from companion.rules.base import EventKind, Game, IntField, PlayerField, Standing, rank_by, table_call
from companion.text.messages import register

TABLES = {
    "heartland": ["Ann", "Bob", "Cy"],
    "transamerica": ["Ann", "Bob", "Cy"],
    "great_plains": ["Ann", "Bob"],
}
STOP = {"type": "end_game", "note": "Bob had to leave"}


def test_every_game_is_covered() -> None:
    assert set(TABLES) == set(GAMES)


@pytest.mark.parametrize("game_id", list(TABLES))
def test_any_game_can_be_stopped_and_its_standings_as_they_stand_become_final(game_id: str) -> None:
    session = Session.new(game_id, TABLES[game_id])
    assert session.stopped_note is None
    assert str(session.check(STOP)) == "The game was stopped: Bob had to leave"
    assert not session.is_over
    assert str(session.apply(STOP)) == "The game was stopped: Bob had to leave"
    assert session.is_over and session.current_player is None
    assert session.stopped_note == "Bob had to leave"
    assert [s.winner for s in session.standings()] == [s.rank == 1 for s in session.standings()]
    assert any(s.winner for s in session.standings())

    reopened = Session.from_dict(json.loads(json.dumps(session.to_dict())))
    assert (reopened.is_over, reopened.stopped_note) == (True, "Bob had to leave")
    assert reopened.state == session.state

    assert str(session.undo()) == "The game was stopped: Bob had to leave"
    assert (session.is_over, session.stopped_note) == (False, None)
    assert not any(s.winner for s in session.standings())


@pytest.mark.parametrize("game_id", list(TABLES))
def test_a_stop_needs_a_reason_and_happens_once(game_id: str) -> None:
    session = Session.new(game_id, TABLES[game_id])
    assert "The end_game event is missing 'note'" in refused(session, {"type": "end_game"})
    assert "'note' must be a text of 1 to 60 characters" in refused(session, {"type": "end_game", "note": "  "})
    session.apply(STOP)
    assert fact_refuses(session, STOP) == "The game is over; no more end_game events can be recorded."


@pytest.mark.parametrize("game_id", list(TABLES))
def test_an_override_with_nothing_to_override_is_refused_in_every_game(game_id: str) -> None:
    session = Session.new(game_id, TABLES[game_id])
    assert refused(session, {**STOP, "override": True}) == (
        "Nothing in this end_game goes against a rule; record it without 'override'."
    )


def test_transamerica_has_no_rule_that_is_the_table_s_call() -> None:
    session = Session.new("transamerica", ["Ann", "Bob"])
    nobody = {"type": "end_round", "missing": {"Ann": 1, "Bob": 2}}
    assert fact_refuses(session, nobody).startswith("Someone must have 0 segments missing")
    assert refused(session, {"type": "end_round", "missing": {"Ann": 0, "Bob": 2}, "override": True}) == (
        "Nothing in this end_round goes against a rule; record it without 'override'."
    )


def test_a_previewed_refusal_says_whether_the_table_may_record_it_anyway() -> None:
    session = Session.new("heartland", ["Ann", "Bob"])
    session.apply({"type": "load", "player": "Ann", "good": "corn", "cubes": 2})
    with pytest.raises(RuleError) as caught:
        session.check({"type": "end_turn", "player": "Bob"})
    assert not caught.value.overridable
    again = {"type": "load", "player": "Ann", "good": "corn", "cubes": 1}
    with pytest.raises(RuleError) as caught:
        session.check(again)
    assert caught.value.overridable
    assert str(session.check({**again, "override": True})).endswith("only one action per turn")
    assert session.cursor == 1


# --- a fourth game gets it all for free -----------------------------------------------------------


@dataclass(frozen=True)
class RaceState:
    players: tuple[str, ...]
    laps: tuple[int, ...]

    @property
    def over(self) -> bool:
        return max(self.laps) >= 3


def lap(state: RaceState, event: dict[str, Any]) -> tuple[RaceState, Message]:
    seat = state.players.index(event["player"])
    if event["laps"] > 1:
        table_call(event, RuleError("race.one_lap"))
    laps = tuple(count + event["laps"] if index == seat else count for index, count in enumerate(state.laps))
    return replace(state, laps=laps), Message("race.log.lap", {"player": event["player"]})


def race_standings(state: RaceState) -> list[Standing]:
    ranks = rank_by(state.players, lambda player: (state.laps[state.players.index(player)],))
    return [
        Standing(p, state.laps[i], ranks[p], max(state.laps) >= 3 and ranks[p] == 1)
        for i, p in enumerate(state.players)
    ]


RACE: Game[RaceState] = Game(
    id="race",
    title="Race",
    min_players=2,
    max_players=2,
    setup=lambda players, options: RaceState(players, (0, 0)),
    normalize_options=lambda players, options: {},
    events={"lap": EventKind({"player": PlayerField(), "laps": IntField(1, 2)}, lap)},
    end_if=lambda state: max(state.laps) >= 3,
    player_to_act=lambda state: None,
    ranking=race_standings,
    messages={"race.one_lap": "A car runs one lap at a time.", "race.log.lap": "{player} ran a lap"},
)


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> None:
    register("en", RACE.messages)
    monkeypatch.setitem(GAMES, RACE.id, RACE)


def test_a_fourth_game_is_stopped_and_overridden_without_a_line_of_its_own(race: None) -> None:
    session = Session.new("race", ["Ann", "Bob"])
    two = {"type": "lap", "player": "Bob", "laps": 2}
    assert refusal(session, two).overridable
    assert str(session.apply({**two, "override": True})) == (
        "Bob ran a lap — recorded against the rule: A car runs one lap at a time"
    )
    session.apply({"type": "end_game", "note": "rain"})
    assert session.is_over and session.stopped_note == "rain"
    assert [(s.player, s.winner) for s in session.standings()] == [("Ann", False), ("Bob", True)]
    assert GAMES["race"].is_over(session.state)
    assert Session.from_dict(session.to_dict()).stopped_note == "rain"

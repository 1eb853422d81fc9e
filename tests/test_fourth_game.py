"""A fourth game is one module plus one registry line: the session, the store and the app
(through its generic screen) take it without any other change."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest
from app_helpers import add_players, app_screen, table

from companion import GAMES, RuleError, Session
from companion.app.data import AppData
from companion.messages import Message, register
from companion.rules.base import EventKind, Game, IntField, PlayerField, Standing, rank_by
from companion.store import Store

# --- the whole "module" of a toy game: first to 10 points ---------------------------------


@dataclass(frozen=True)
class TallyState:
    players: tuple[str, ...]
    points: tuple[int, ...]

    @property
    def over(self) -> bool:
        return max(self.points) >= 10


def score(state: TallyState, event: dict[str, Any]) -> tuple[TallyState, Message]:
    seat = state.players.index(event["player"])
    points = tuple(p + event["points"] if index == seat else p for index, p in enumerate(state.points))
    return replace(state, points=points), Message("tally.log.score", {"player": event["player"],
                                                                       "points": event["points"]})


def standings(state: TallyState) -> list[Standing]:
    ranks = rank_by(state.players, lambda player: (state.points[state.players.index(player)],))
    return sorted(
        (Standing(p, state.points[i], ranks[p], state.over and ranks[p] == 1, {}) for i, p in enumerate(state.players)),
        key=lambda standing: standing.rank,
    )


TALLY: Game[TallyState] = Game(
    id="tally",
    title="Tally",
    min_players=2,
    max_players=3,
    setup=lambda players, options: TallyState(players, (0,) * len(players)),
    normalize_options=lambda players, options: {},
    events={"score": EventKind({"player": PlayerField(), "points": IntField(1, 5)}, score)},
    is_over=lambda state: state.over,
    current_player=lambda state: None,
    standings=standings,
    messages={"tally.log.score": "{player} scored {points}"},
)


@pytest.fixture
def tally_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    register("en", TALLY.messages)
    monkeypatch.setitem(GAMES, TALLY.id, TALLY)  # the one registry line


def test_a_fourth_game_plays_through_a_session_and_refuses_bad_events(tally_registered: None) -> None:
    session = Session.new("tally", ["Ann", "Bob"])
    assert str(session.apply({"type": "score", "player": "Ann", "points": 5})) == "Ann scored 5"
    with pytest.raises(RuleError, match="'points' must be a whole number from 1 to 5, not 9"):
        session.apply({"type": "score", "player": "Bob", "points": 9})
    session.apply({"type": "score", "player": "Ann", "points": 5})
    assert session.is_over
    assert [s.player for s in session.standings() if s.winner] == ["Ann"]
    assert Session.from_dict(session.to_dict()).state == session.state


def test_a_fourth_game_is_saved_and_reopened_by_the_store(tally_registered: None, tmp_path: Any) -> None:
    store = Store(tmp_path)
    session = store.new("tally", ["Ann", "Bob"], {})
    session.apply({"type": "score", "player": "Bob", "points": 3})
    store.close()
    again = Store(tmp_path).open(session.id or "")
    assert again.state.points == (0, 3)


@table
async def test_a_fourth_game_gets_the_generic_screen(tally_registered: None) -> None:
    data = AppData(Store.in_memory())
    async with app_screen(data) as screen:
        await screen.tap("new-game")
        await screen.tap("game-tally")
        await add_players(screen, ["Ann", "Bob"])
        await screen.tap("start")
        assert "1st Ann: 0" in screen.texts() and "1st Bob: 0" in screen.texts()
        session = data.open(data.sessions()[0].id)  # the same Session object the screen shows
        session.apply({"type": "score", "player": "Bob", "points": 4})
        await screen.tap("log")  # any tap rebuilds the screen from the session
        assert "1st Bob: 4" in screen.texts()
        assert "1. Bob scored 4" in screen.texts()
        await screen.tap("panel-close")
        await screen.tap("undo")
        assert "1st Ann: 0" in screen.texts()

"""A fourth game is one module plus one registry line: the session, the store and the app
(through its generic screen) take it without any other change, and its description alone
(its event kinds and their fields) says enough to record every event it has."""

from __future__ import annotations

import json
import urllib.parse
from dataclasses import dataclass, replace
from typing import Any

import pytest
from app_helpers import add_players, app_screen, notice, table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_conformance import play_randomly, table_for

from companion import GAMES, RuleError, Session
from companion.aftergame.bgstats import play_url as bgstats_play_url
from companion.aftergame.stats import score_series, statistics
from companion.app.data import AppData, status_of
from companion.rules.base import (
    BoolField,
    ChoiceField,
    EventKind,
    FieldCheck,
    Game,
    IntField,
    PerPlayerField,
    PlayerField,
    Standing,
    Step,
    TextField,
    rank_by,
)
from companion.store import Store
from companion.text import reference
from companion.text.messages import Message, register

# --- the whole "module" of a toy game: first to 10 points ---------------------------------
# Every kind of field once: a player scores points (doubled or not), names a bonus from a
# short list with a few words, and a round gives each player some points.


@dataclass(frozen=True)
class TallyState:
    players: tuple[str, ...]
    points: tuple[int, ...]
    bonuses: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        return max(self.points) >= 10


def _add(state: TallyState, gains: dict[str, int]) -> TallyState:
    return replace(
        state, points=tuple(p + gains.get(name, 0) for name, p in zip(state.players, state.points, strict=True))
    )


def score(state: TallyState, event: dict[str, Any]) -> tuple[TallyState, Message]:
    points = event["points"] * (2 if event["doubled"] else 1)
    return _add(state, {event["player"]: points}), Message(
        "tally.log.score", {"player": event["player"], "points": points}
    )


def bonus(state: TallyState, event: dict[str, Any]) -> tuple[TallyState, Message]:
    state = replace(_add(state, {event["player"]: 1}), bonuses=(*state.bonuses, event["kind"]))
    return state, Message("tally.log.bonus", {"player": event["player"], "kind": event["kind"], "why": event["why"]})


def round_end(state: TallyState, event: dict[str, Any]) -> tuple[TallyState, Message]:
    return _add(state, event["gains"]), Message("tally.log.round")


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
    events={
        "score": EventKind(
            {"player": PlayerField(label="tally.field.player"), "points": IntField(1, 5), "doubled": BoolField()},
            score,
            label="tally.event.score",
        ),
        "bonus": EventKind(
            {"player": PlayerField(), "kind": ChoiceField(("speed", "style")), "why": TextField(20)}, bonus
        ),
        "round": EventKind({"gains": PerPlayerField(IntField(0, 3), every=False)}, round_end),
    },
    end_if=lambda state: state.over,
    player_to_act=lambda state: None,
    ranking=standings,
    messages={
        "tally.log.score": "{player} scored {points}",
        "tally.log.bonus": "{player}: {kind} bonus ({why})",
        "tally.log.round": "Round scored",
        "tally.event.score": "Score",
        "tally.field.player": "Who",
    },
)


@pytest.fixture
def tally_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    register("en", TALLY.messages)
    monkeypatch.setitem(GAMES, TALLY.id, TALLY)  # the one registry line


def test_a_fourth_game_plays_through_a_session_and_refuses_bad_events(tally_registered: None) -> None:
    session = Session.new("tally", ["Ann", "Bob"])
    assert str(session.apply({"type": "score", "player": "Ann", "points": 5, "doubled": False})) == "Ann scored 5"
    with pytest.raises(RuleError, match="'points' must be a whole number from 1 to 5, not 9"):
        session.apply({"type": "score", "player": "Bob", "points": 9, "doubled": False})
    session.apply({"type": "score", "player": "Ann", "points": 5, "doubled": False})
    assert session.is_over
    assert [s.player for s in session.standings() if s.winner] == ["Ann"]
    assert Session.from_dict(session.to_dict()).state == session.state


def test_a_fourth_game_is_saved_and_reopened_by_the_store(tally_registered: None, tmp_path: Any) -> None:
    store = Store(tmp_path)
    session = store.new("tally", ["Ann", "Bob"], {})
    session.apply({"type": "score", "player": "Bob", "points": 3, "doubled": False})
    store.close()
    again = Store(tmp_path).open(session.id or "")
    assert again.state.points == (0, 3)


# --- its description is enough to fill in every event -------------------------------------


def filled(field: FieldCheck, players: tuple[str, ...], highest: bool) -> Any:
    """What a form built from the field's description alone offers first (or last)."""
    if isinstance(field, IntField):
        assert field.high is not None
        return field.high if highest else field.low
    if isinstance(field, BoolField):
        return highest
    if isinstance(field, ChoiceField):
        return field.choices[-1 if highest else 0]
    if isinstance(field, TextField):
        return "x" * field.high if highest else "x"
    if isinstance(field, PlayerField):
        return players[-1 if highest else 0]
    chosen = players if field.every or highest else players[:1]
    return {player: filled(field.each, players, highest) for player in chosen}


def test_every_event_a_fourth_game_has_is_recorded_from_its_description_alone(tally_registered: None) -> None:
    session = Session.new("tally", ["Ann", "Bob", "Cy"])
    kinds = {type(field) for kind in TALLY.events.values() for field in kind.fields.values()}
    assert kinds == {IntField, BoolField, ChoiceField, TextField, PlayerField, PerPlayerField}
    # Each kind with the first values a form offers, then with the last ones (Cy's double 5 last: it wins).
    for name, highest in (
        ("score", False),
        ("bonus", False),
        ("round", False),
        ("bonus", True),
        ("round", True),
        ("score", True),
    ):
        fields = TALLY.events[name].fields
        session.apply(
            {"type": name, **{field: filled(check, session.players, highest) for field, check in fields.items()}}
        )
    assert session.state.points == (1 + 1 + 0 + 3, 0 + 3, 1 + 3 + 10)
    assert session.state.bonuses == ("speed", "style")
    assert [str(sentence) for sentence in session.sentences] == [
        "Ann scored 1",
        "Ann: speed bonus (x)",
        "Round scored",
        f"Cy: style bonus ({'x' * 20})",
        "Round scored",
        "Cy scored 10",
    ]
    assert session.is_over and [s.player for s in session.standings() if s.winner] == ["Cy"]


def test_each_event_and_field_names_itself_in_words_or_by_its_name(tally_registered: None) -> None:
    assert TALLY.event_label("score").text() == "Score"
    assert TALLY.event_label("bonus").text() == "bonus"  # no words of its own: its type
    assert TALLY.event_label("end_game").text() == "Stop the game"
    assert TALLY.event_label("end_game").text("fr") == "Arrêter la partie"
    assert TALLY.field_label("score", "player").text() == "Who"
    assert TALLY.field_label("round", "gains").text() == "gains"
    assert TALLY.field_label("end_game", "note").text("es") == "Motivo"
    assert "gains" in TALLY.events["round"].fields and not TALLY.events["round"].fields["gains"].every


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_event_of_every_registered_game_has_words_for_it_and_its_fields(game_id: str) -> None:
    """What a game brings besides its module: words for its events and fields in each language."""
    game = GAMES[game_id]
    for name, kind in game.all_events.items():
        assert kind.label, name
        for language in ("en", "fr", "es"):
            assert game.event_label(name).text(language) != kind.label
            for field in kind.fields:
                assert game.field_label(name, field).text(language) != game.all_events[name].fields[field].label


# --- the facts other layers ask of a game, each with a default ------------------------------


def test_a_fourth_game_needs_none_of_the_facts_the_other_layers_ask_for(tally_registered: None) -> None:
    session = Session.new("tally", ["Ann", "Bob"])
    assert (TALLY.home_title, TALLY.unit, TALLY.bgg_id, TALLY.length_unit) == ("Tally", "points", None, "rounds")
    assert status_of("tally", session.state) == {"en": "in progress", "fr": "en cours", "es": "en curso"}
    assert reference.opening("tally", "end") is None and reference.sections("tally") == []
    for _ in range(2):
        session.apply({"type": "score", "player": "Bob", "points": 5, "doubled": False})
    assert status_of("tally", session.state)["en"] == "Bob won with 10 points"
    assert score_series(session).steps == [Step("final", 0, (0, 10))]
    assert score_series(session).unit == "points"
    summary = store_finished(session)
    assert statistics([summary], game="tally").average_length is None  # it has no rounds to count
    link = json.loads(urllib.parse.unquote(bgstats_play_url(session, summary).split("data=")[1]))
    assert "bggId" not in link["game"] and link["game"]["name"] == "Tally"


def test_a_stopped_fourth_game_says_who_won_on_home(tally_registered: None) -> None:
    session = Session.new("tally", ["Ann", "Bob"])
    session.apply({"type": "score", "player": "Ann", "points": 2, "doubled": True})
    session.apply({"type": "end_game", "note": "rain"})
    assert status_of("tally", session.state)["fr"] == "Victoire d'Ann avec 4 points"
    assert session.stopped_note == "rain" and score_series(session).steps == [Step("final", 0, (4, 0))]


def store_finished(session: Session) -> Any:
    """The store's summary of the same game recorded through it."""
    store = Store.in_memory()
    stored = store.new(session.game.id, list(session.players), session.options)
    for event in session.events:
        stored.apply(event)
    (summary,) = store.finished()
    return summary


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
        session.apply({"type": "score", "player": "Bob", "points": 4, "doubled": False})
        await screen.tap("log")  # any tap rebuilds the screen from the session
        assert "1st Bob: 4" in screen.texts()
        assert "1. Bob scored 4" in screen.texts()
        await screen.tap("panel-close")
        await screen.tap("undo")
        assert "1st Ann: 0" in screen.texts()


@table
async def test_a_fourth_game_is_played_to_its_end_from_the_generic_screen_alone(tally_registered: None) -> None:
    """Every event recorded by taps on forms the screen builds from the game's description."""
    data = AppData(Store.in_memory())
    async with app_screen(data) as screen:
        await screen.tap("new-game")
        await screen.tap("game-tally")
        await add_players(screen, ["Ann", "Bob"])
        await screen.tap("start")
        # score: a player, a number (chips), yes or no
        await screen.tap("record-score")
        await screen.tap("field-player-bob")
        await screen.tap("field-points-4")
        await screen.tap("field-doubled-true")
        await screen.tap("event-save")
        assert "1st Bob: 8" in screen.texts() and "1. Bob scored 8" in screen.texts()
        assert not screen.dialogs  # the form closes once recorded
        # bonus: a player, one of a few choices, a few words typed
        await screen.tap("record-bonus")
        await screen.tap("field-kind-style")
        await screen.type("field-why", "fast hands")
        await screen.tap("event-save")
        # the log, newest first
        assert any(line.startswith("2. Ann: style bonus (fast hands)") for line in screen.texts())
        # a form the rules refuse says why and records nothing: a bonus needs its few words
        await screen.tap("record-bonus")
        await screen.tap("event-save")
        assert notice(screen) and len(data.open(data.sessions()[0].id).events) == 2
        await screen.tap("panel-close")
        # round: a number per player (Ann 3 by chip, Bob 2 typed)
        await screen.tap("record-round")
        await screen.tap("field-gains-ann-3")
        await screen.type("field-gains-bob-typed", "2")
        await screen.tap("event-save")
        assert "1st Bob: 10 — winner" in screen.texts() and "2nd Ann: 4" in screen.texts()
        assert not screen.exists("record-row")  # Bob reached 10: the game is over, nothing more to record
    (summary,) = data.sessions()
    assert summary.is_over and summary.winners == ("Bob",)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_conformance_suite_plays_a_fourth_game_from_its_description(
    tally_registered: None, data: st.DataObject
) -> None:
    """Registered, it is played like the three, by a table drawn from its description (no test edited)."""
    play_randomly("tally", table_for("tally"), data)

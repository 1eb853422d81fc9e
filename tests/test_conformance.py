"""One suite for every registered game: random tables, random events, the same promises.

A game may bring a `Table`: who may sit down, which options, the events a table might
plausibly record (legal or not), and what must always hold for that game. A game without
one is played from its description alone (`described`: its seats, its event kinds and their
fields, as the generic screen builds its forms), so a game added to GAMES runs here with no
edit; everything else runs unchanged, stopping the game (`end_game`) and recording events
against the rules (`override`) included. The three games are played both ways.

The strategies are built once for each situation they depend on (the players, whose turn
it is, the phase), never once per step: hypothesis checks a strategy the first time it
draws from it, and doing that for a new strategy at every step was most of the time.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion import GAMES, RuleError, Session
from companion.rules.base import (
    BoolField,
    ChoiceField,
    FieldCheck,
    Game,
    IntField,
    PerPlayerField,
    PlayerField,
    TextField,
)
from companion.session import CLOCK_FIELDS

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
WRONG_VALUES = (None, True, False, -1, 0, 10**9, 10**40, 1.5, "", "x" * 100, [], {}, [[[[[[[[[[]]]]]]]]]], "Nobody")
STOP = {"type": "end_game", "note": "the table stopped"}
EventStrategy = st.SearchStrategy[Any]


@dataclass(frozen=True)
class Table:
    players: st.SearchStrategy[list[str]]
    options: st.SearchStrategy[dict[str, Any]]
    events: Callable[[Session], EventStrategy]
    always: Callable[[Session], None] = lambda session: None
    # Legal events that bring the game to a later phase before random play (0: none).
    opening: Callable[[Session, int], None] = lambda session, length: None


def seated(low: int, high: int) -> st.SearchStrategy[list[str]]:
    return st.integers(low, high).map(lambda count: list(NAMES[:count]))


def mostly_current(players: tuple[str, ...], current: str | None) -> st.SearchStrategy[str]:
    return st.sampled_from(([current] * 6 if current else []) + list(players))


def event(kind: str, **fields: st.SearchStrategy[Any]) -> EventStrategy:
    return st.fixed_dictionaries({"type": st.just(kind), **fields})


# --- Heartland ------------------------------------------------------------------------------


def heartland_events(session: Session) -> EventStrategy:
    return heartland_events_for(session.players, session.current_player)


@functools.cache
def heartland_events_for(players: tuple[str, ...], current: str | None) -> EventStrategy:
    player = mostly_current(players, current)
    good = st.sampled_from(("corn", "soybeans", "cattle", "pigs"))
    cubes = st.integers(1, 5)
    end_turn = event("end_turn", player=player)
    return st.one_of(
        event("move", player=player, spaces=st.integers(1, 3), pay=st.sampled_from(("fuel", "cash"))),
        end_turn,
        event("unload", player=player, good=good, cubes=st.integers(1, 2), price=st.integers(1, 20)),
        event("load", player=player, good=good, cubes=cubes),
        end_turn,
        event("unload", player=player, good=good, cubes=cubes, price=st.integers(1, 20)),
        end_turn,
        event("discard", player=player, forced=st.booleans()),
        event("tow", player=player),
        event("toll", player=player),
        event("weigh_station", player=player),
        event("buy_upgrade", player=player, name=st.sampled_from(("Sleeper Cab", "Big Tank")), cost=st.integers(0, 6)),
        event("adjust", player=player, amount=st.integers(-3, 3), note=st.just("correction")),
        event("correct_cargo", player=player, good=good, cubes=st.integers(-3, 3), note=st.just("missed load")),
    )


def heartland_always(session: Session) -> None:
    overridden = any(event.get("override") for event in session.events)
    for truck in session.state.trucks:
        assert truck.money >= 0
        assert all(count >= 0 for count in truck.cargo)
        assert overridden or truck.cubes <= session.state.capacity
    assert session.state.round == (session.state.turn.number - 1) // len(session.players) + 1


# --- TransAmerica ---------------------------------------------------------------------------


def transamerica_events(session: Session) -> EventStrategy:
    return transamerica_events_for(session.players)


@functools.cache
def transamerica_events_for(seats: tuple[str, ...]) -> EventStrategy:
    players = list(seats)
    losses = st.lists(st.integers(0, 6), min_size=len(players), max_size=len(players))

    def round_of(drawn: tuple[list[int], int, bool]) -> dict[str, Any]:
        missing, finisher, someone_finished = drawn
        if someone_finished:
            missing[finisher % len(players)] = 0
        return {"type": "end_round", "missing": dict(zip(players, missing, strict=True))}

    rounds = st.tuples(losses, st.integers(0, 5), st.sampled_from((True, True, True, False))).map(round_of)
    # A past round corrected: often refused (no such round, nothing changed), sometimes replayed in place.
    amends = st.tuples(rounds, st.integers(1, 4)).map(
        lambda drawn: {"type": "amend_round", "round": drawn[1], "missing": drawn[0]["missing"]}
    )
    return st.one_of(rounds, rounds, rounds, amends)


def transamerica_always(session: Session) -> None:
    for seat, standing in enumerate(sorted(session.standings(), key=lambda s: session.players.index(s.player))):
        rounds = standing.detail["rounds"]
        assert standing.score == 13 - sum(rounds)
        assert len(rounds) == session.state.round_number - 1
        assert session.state.starter == session.players[len(rounds) % len(session.players)]
        assert seat == session.players.index(standing.player)
    for losses in session.state.rounds:
        assert 0 in losses


# --- Great Plains ---------------------------------------------------------------------------


def great_plains_events(session: Session) -> EventStrategy:
    state = session.state
    return great_plains_events_for(session.players, session.current_player, state.cave_phase, state.scoring)


@functools.cache
def great_plains_events_for(
    players: tuple[str, ...], current: str | None, cave_phase: bool, scoring: bool
) -> EventStrategy:
    player = mostly_current(players, current)
    spirit = st.sampled_from(("horse", "eagle", "bear"))
    placing = (
        event("place_cave", player=player)
        if cave_phase
        else st.one_of(
            event("place_token", player=player),
            event("place_token", player=player, spirit=spirit),
        )
    )
    tokens = st.dictionaries(st.sampled_from(players), st.integers(0, 6), max_size=2)
    zone = event("zone", spaces=st.integers(1, 12), water=st.integers(0, 3), tokens=tokens)
    scoring_done = event("scoring_done")
    if scoring:
        return st.one_of(zone, zone, zone, scoring_done, event("use_spirit", player=player, spirit=spirit), placing)
    return st.one_of(
        placing,
        placing,
        placing,
        placing,
        placing,
        placing,
        event("use_spirit", player=player, spirit=spirit),
        zone,
        scoring_done,
    )


def great_plains_opening(session: Session, tokens: int) -> None:
    """All six caves, then up to 40 tokens: random play then starts near or in the scoring."""
    if tokens:
        for _ in range(6 + tokens):
            kind = "place_cave" if session.state.cave_phase else "place_token"
            session.apply({"type": kind, "player": session.current_player})


def great_plains_always(session: Session) -> None:
    state = session.state
    assert all(0 <= caves <= 3 for caves in state.caves)
    assert all(0 <= tokens <= 20 for tokens in state.tokens)
    assert all(0 <= left <= 3 for left in state.supply)
    for kind, left in enumerate(state.supply):
        assert left + sum(held[kind] for held in state.spirits) == 3
    for seat, player in enumerate(session.players):
        counted = sum(zone.tokens[seat] for zone in state.zones)
        assert counted == state.zone_tokens_of(player) <= state.tokens[seat]
    assert state.scoring == (state.all_placed and not session.is_over)
    if state.scoring:
        assert session.current_player is None and not any(s.winner for s in session.standings())


TABLES: dict[str, Table] = {
    "heartland": Table(
        players=seated(2, 4),
        options=st.fixed_dictionaries(
            {
                "target": st.one_of(st.sampled_from(("rulebook", "blog")), st.integers(6, 60)),
                "short_haul": st.booleans(),
                "alternate_routes": st.booleans(),
                "truck_stops": st.booleans(),
            }
        ),
        events=heartland_events,
        always=heartland_always,
    ),
    "transamerica": Table(
        players=seated(2, 6), options=st.just({}), events=transamerica_events, always=transamerica_always
    ),
    "great_plains": Table(
        players=seated(2, 2),
        options=st.sampled_from(({}, {"fox": "Ann"}, {"fox": "bob"}, {"first": "Bob"}, {"fox": "Bob", "first": "ann"})),
        events=great_plains_events,
        always=great_plains_always,
        opening=great_plains_opening,
    ),
}


# --- any game, from its description alone ----------------------------------------------------


def described(game: Game[Any]) -> Table:
    """The table a game gets from its description: any number of seats it takes, its default
    options, and any of its events with values drawn from each field's own range."""
    return Table(
        players=seated(game.min_players, min(game.max_players, len(NAMES))),
        options=st.just({}),
        events=lambda session: described_events(game.id, session.players, session.current_player),
    )


@functools.cache
def described_events(game_id: str, players: tuple[str, ...], current: str | None) -> EventStrategy:
    kinds = []
    for kind, description in sorted(GAMES[game_id].events.items()):
        if kind == "end_game":
            continue  # stopping is a step of its own (STOP): drawn among events, it ended most games at once
        fields = {name: values_of(field, players, current) for name, field in description.fields.items()}
        required = {name: values for name, values in fields.items() if name not in description.optional}
        optional = {name: values for name, values in fields.items() if name in description.optional}
        kinds.append(st.fixed_dictionaries({"type": st.just(kind), **required}, optional=optional))
    return st.one_of(kinds)


def values_of(field: FieldCheck, players: tuple[str, ...], current: str | None) -> st.SearchStrategy[Any]:
    """Values a table might give a field, all in its range (the malformed steps go beyond it)."""
    if isinstance(field, BoolField):
        return st.booleans()
    if isinstance(field, IntField):
        high = field.high if field.high is not None else field.low + 20
        # Small values are what tables mostly record (and a round's finisher misses 0): the
        # lowest often, the whole range now and then.
        low = st.integers(field.low, min(high, field.low + 6))
        return st.one_of(st.just(field.low), low, low, st.integers(field.low, high))
    if isinstance(field, ChoiceField):
        return st.sampled_from(field.choices)
    if isinstance(field, TextField):
        return st.sampled_from(("set-up", "the table's call", "x" * field.high))
    if isinstance(field, PlayerField):
        return mostly_current(players, current)
    if isinstance(field, PerPlayerField):
        each = values_of(field.each, players, current)
        if field.every:
            return st.fixed_dictionaries({player: each for player in players})
        return st.dictionaries(st.sampled_from(players), each, max_size=len(players))
    raise AssertionError(f"a field of a kind this suite cannot fill in: {field!r} (give it values here)")


def table_for(game_id: str) -> Table:
    """The game's own table, else the one its description gives."""
    return TABLES.get(game_id) or described(GAMES[game_id])


# --- what every game promises ---------------------------------------------------------------


DAMAGE = st.sampled_from(("not_a_dict", "drop", "extra", "wrong_value", "unknown_type"))
NOT_A_DICT = st.sampled_from((None, "end_turn", 3, "the event"))
UNKNOWN_TYPE = st.sampled_from(("teleport", "", 7, None))
EXTRA_FIELD = st.sampled_from(("bonus", "Type", "note"))
WRONG_VALUE = st.sampled_from(WRONG_VALUES)


@functools.cache
def one_of_fields(fields: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.sampled_from(fields)


def malformed(data: st.DataObject, plausible: Any) -> Any:
    """A plausible event bent out of shape: a field dropped, added or given a wrong value."""
    if not isinstance(plausible, dict):
        return plausible
    damage = data.draw(DAMAGE)
    fields = [name for name in plausible if name != "type"]
    if damage == "not_a_dict":
        shape = data.draw(NOT_A_DICT)
        return [plausible] if shape == "the event" else shape
    if damage == "unknown_type":
        return {**plausible, "type": data.draw(UNKNOWN_TYPE)}
    if damage == "extra":
        return {**plausible, data.draw(EXTRA_FIELD): 1}
    name = data.draw(one_of_fields(tuple(fields) or ("type",)))
    if damage == "drop":
        return {key: value for key, value in plausible.items() if key != name}
    return {**plausible, name: data.draw(WRONG_VALUE)}


def assert_sensible_standings(session: Session) -> None:
    standings = session.standings()
    assert sorted(standing.player for standing in standings) == sorted(session.players)
    ranks = [standing.rank for standing in standings]
    assert ranks == sorted(ranks) and ranks[0] == 1
    for standing in standings:
        assert standing.rank == 1 + sum(1 for rank in ranks if rank < standing.rank)
        assert isinstance(standing.score, int) and not isinstance(standing.score, bool)
        assert standing.winner == (session.is_over and standing.rank == 1)
        json.dumps(standing.detail)


def assert_always(session: Session, table: Table) -> None:
    assert_sensible_standings(session)
    if session.is_over:
        assert session.current_player is None
    assert session.current_player in (None, *session.players)
    last = session.events[-1] if session.events else {}
    stopped = last.get("note") if last.get("type") == "end_game" else None  # STOP, or a description's
    assert session.stopped_note == (stopped.strip() if stopped else None)
    table.always(session)


def assert_english(sentence: Any) -> None:
    text = str(sentence)
    assert text and text != sentence.id


def record(session: Session, candidate: Any) -> None:
    """Apply an event the way the app does; a refusal must leave everything as it was.

    A refusal that says the table may record the event anyway must be right about it.
    """
    state, cursor = session.state, session.cursor
    try:
        preview = session.check(candidate)
    except RuleError as refusal:
        assert session.state is state and session.cursor == cursor
        assert_english(refusal.message)
        before = session.to_dict()
        with pytest.raises(RuleError) as again:
            session.apply(candidate)
        assert str(again.value) == str(refusal)
        assert again.value.overridable == refusal.overridable
        assert session.to_dict() == before and session.state is state
        if refusal.overridable:
            anyway = session.check({**candidate, "override": True})
            assert f" — recorded against the rule: {str(refusal).rstrip('.')}" in str(anyway)
        return
    assert session.state is state and session.cursor == cursor
    assert session.apply(candidate) == preview
    assert_english(preview)
    assert not session.can_redo


def assert_replays(session: Session, game_id: str) -> None:
    reloaded = Session.from_dict(json.loads(json.dumps(session.to_dict())))
    assert reloaded.to_dict() == session.to_dict()
    assert reloaded.state == session.state

    fresh = Session.new(game_id, list(session.players), options=session.options)
    for applied in session.events:
        fresh.apply(applied)
    assert fresh.state == session.state

    saved, state, cursor = session.to_dict(), session.state, session.cursor
    while session.can_undo:
        session.undo()
    assert session.state == Session.new(game_id, list(session.players), options=session.options).state
    for _ in range(cursor):
        session.redo()
    assert session.state == state and game_log(session) == game_log_of(saved)


def game_log_of(saved: dict[str, Any]) -> dict[str, Any]:
    """A saved session but its clock: undoing and redoing takes time, and the clock says so."""
    return {name: value for name, value in saved.items() if name not in CLOCK_FIELDS}


def game_log(session: Session) -> dict[str, Any]:
    return game_log_of(session.to_dict())


OPENINGS = st.sampled_from((0, 0, 34, 38, 40))
LENGTHS = st.integers(20, 100)
STEPS = st.sampled_from(
    ("event",) * 24 + ("override",) * 4 + ("malformed",) * 4 + ("undo", "undo", "redo", "undo_redo", "stop")
)


def test_every_field_of_every_game_can_be_filled_in_from_its_description() -> None:
    """A field of a kind `values_of` does not know fails here by its name, not deep in a draw."""
    for game in GAMES.values():
        players = NAMES[: game.min_players]
        for description in game.events.values():
            for field in description.fields.values():
                assert isinstance(values_of(field, players, players[0]), st.SearchStrategy)


# Random tables a game in each run of the suite; each run draws new ones. tests/bench/conformance.py
# plays as many as it is asked.
EXAMPLES = 40


@pytest.mark.parametrize("game_id", list(GAMES))
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_random_play_keeps_every_promise(game_id: str, data: st.DataObject) -> None:
    play_randomly(game_id, table_for(game_id), data)


@pytest.mark.parametrize("game_id", list(GAMES))
@settings(
    max_examples=EXAMPLES // 4,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_random_play_from_the_description_alone_keeps_every_promise(game_id: str, data: st.DataObject) -> None:
    """What a game added to GAMES is played with until it brings a table of its own."""
    play_randomly(game_id, described(GAMES[game_id]), data)


def play_randomly(game_id: str, table: Table, data: st.DataObject) -> None:
    session = Session.new(game_id, data.draw(table.players), options=data.draw(table.options))
    table.opening(session, data.draw(OPENINGS, label="opening"))
    assert_always(session, table)
    for _ in range(data.draw(LENGTHS, label="steps")):
        step = data.draw(STEPS)
        if step == "undo" and session.can_undo:
            session.undo()
        elif step == "redo" and session.can_redo:
            session.redo()
        elif step == "undo_redo" and session.can_undo:
            assert_undo_redo_changes_nothing(session)
        elif step == "stop":
            record(session, STOP)
        elif step in ("event", "override", "malformed"):
            candidate = data.draw(table.events(session))
            if step == "override":
                candidate = {**candidate, "override": True}
            record(session, malformed(data, candidate) if step == "malformed" else candidate)
        assert_always(session, table)
    assert_replays(session, game_id)


def assert_undo_redo_changes_nothing(session: Session) -> None:
    saved, state, standings = session.to_dict(), session.state, session.standings()
    undone = session.undo()
    assert session.redo() == undone
    assert (game_log(session), session.state, session.standings()) == (game_log_of(saved), state, standings)

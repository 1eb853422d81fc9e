"""The Session API every game shares: the log, undo and redo, saving and loading, refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rules_helpers import refused

from companion import GAMES, Message, RuleError, Session, Standing
from companion.session import LogChange


def heartland(*players: str) -> Session:
    return Session.new("heartland", list(players or ("Ann", "Bob", "Cy")))


def move(player: str, spaces: int = 1, pay: str = "fuel") -> dict[str, Any]:
    return {"type": "move", "player": player, "spaces": spaces, "pay": pay}


def load(player: str, cubes: int = 1) -> dict[str, Any]:
    return {"type": "load", "player": player, "good": "corn", "cubes": cubes}


def end_turn(player: str) -> dict[str, Any]:
    return {"type": "end_turn", "player": player}


def saved(session: Session) -> dict[str, Any]:
    return dict(json.loads(json.dumps(session.to_dict())))


def test_the_three_games_are_registered() -> None:
    assert set(GAMES) == {"heartland", "transamerica", "great_plains"}


def test_an_unknown_game_is_refused_with_the_known_ones_listed() -> None:
    with pytest.raises(RuleError) as caught:
        Session.new("monopoly", ["Ann", "Bob"])
    assert str(caught.value) == "Unknown game 'monopoly'; known games: heartland, transamerica, great_plains."


def test_rule_errors_are_value_errors_carrying_a_message_id() -> None:
    with pytest.raises(ValueError) as caught:
        heartland().apply(move("Bob"))
    assert isinstance(caught.value, RuleError)
    assert caught.value.message == Message("turn.not_yours", {"current": "Ann", "player": "Bob"})


# --- the log, undo and redo ------------------------------------------------------------------


def test_undo_goes_back_one_event_and_redo_brings_it_back() -> None:
    session = heartland()
    assert (session.can_undo, session.can_redo) == (False, False)
    session.apply(move("Ann", 2, "cash"))
    session.apply(load("Ann"))
    session.apply(end_turn("Ann"))
    assert session.current_player == "Bob"
    assert str(session.undo_sentence) == "Ann ended the turn; Bob plays"

    assert str(session.undo()) == "Ann ended the turn; Bob plays"
    assert session.current_player == "Ann"
    assert (session.can_undo, session.can_redo, session.cursor) == (True, True, 2)
    assert str(session.redo_sentence) == "Ann ended the turn; Bob plays"

    session.undo()
    session.undo()
    assert session.events == []
    assert session.standings()[0].detail["money"] == 5
    assert refused(session, {"type": "nothing"}).startswith("Unknown event type")
    with pytest.raises(RuleError, match="There is nothing to undo."):
        session.undo()

    assert str(session.redo()) == "Ann moved 2 spaces for $2"
    session.redo()
    session.redo()
    assert session.current_player == "Bob"
    with pytest.raises(RuleError, match="There is nothing to redo."):
        session.redo()


def test_a_new_event_after_undo_drops_the_redo_tail() -> None:
    session = heartland()
    session.apply(move("Ann", 2, "cash"))
    session.apply(load("Ann"))
    session.undo()
    session.undo()
    session.apply(move("Ann", 3, "fuel"))
    assert not session.can_redo
    assert session.events == [{"type": "move", "player": "Ann", "spaces": 3, "pay": "fuel"}]
    assert session.to_dict()["events"] == session.events


def test_events_are_the_applied_ones_oldest_first_as_plain_data() -> None:
    session = heartland()
    session.apply(move("Ann"))
    session.apply({"type": "load", "player": "Ann", "good": "pigs", "cubes": 2})
    session.apply(end_turn("Ann"))
    session.undo()
    assert [event["type"] for event in session.events] == ["move", "load"]
    assert json.loads(json.dumps(session.events)) == session.events
    session.events.clear()
    assert len(session.events) == 2
    assert [str(sentence) for sentence in session.sentences] == [
        "Ann moved 1 space with fuel",
        "Ann loaded 2 pigs",
    ]


def test_check_tells_what_an_event_would_log_and_changes_nothing() -> None:
    session = heartland()
    before = session.to_dict()
    assert str(session.check(move("Ann", 2, "cash"))) == "Ann moved 2 spaces for $2"
    assert session.to_dict() == before
    with pytest.raises(RuleError, match="It is Ann's turn, not Bob's"):
        session.check(move("Bob"))
    assert session.to_dict() == before


def test_a_change_the_journal_cannot_save_is_not_made() -> None:
    session = heartland()
    session.apply(move("Ann"))
    session.apply(load("Ann"))
    calls: list[tuple[int, int]] = []

    def failing_journal(_: Session, change: LogChange, cursor: int, state: Any, times: Any) -> None:
        calls.append((len(change.whole()), cursor))
        raise OSError("disk full")

    session.journal = failing_journal
    before = session.to_dict()
    for change in (lambda: session.apply(end_turn("Ann")), session.undo):
        with pytest.raises(OSError):
            change()
        assert session.to_dict() == before
    assert calls == [(3, 3), (2, 1)]


# --- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ("move", "An event must be a set of named fields, not 'move'"),
        (None, "not nothing"),
        ({"player": "Ann"}, "The event has no 'type'; allowed types: move, tow, load"),
        ({"type": "fly", "player": "Ann"}, "Unknown event type 'fly'"),
        ({"type": 3}, "Unknown event type '3'"),
        ({"type": "move", "player": "Ann", "spaces": 1}, "The move event is missing 'pay'"),
        ({**move("Ann"), "speed": 9}, "The move event has an unexpected field 'speed'"),
        ({**move("Ann"), 7: 9}, "unexpected field '7'"),
        (move("Ann", True), "'spaces' must be a whole number from 1 to 3, not true"),
        (move("Ann", 2.0), "not 2.0"),
        (move("Ann", 4), "not 4"),
        (move("Dee"), "'player' must name a player of this game (Ann, Bob and Cy), not 'Dee'"),
        (move("ann"), "not 'ann'"),
        (move("Ann", 1, "credit"), "'pay' must be one of fuel, cash, not 'credit'"),
        ({"type": "unload", "player": "Ann", "good": "corn", "cubes": 1, "price": 0}, "'price'"),
    ],
)
def test_malformed_events_are_refused_in_words_and_change_nothing(event: Any, words: str) -> None:
    session = heartland()
    session.apply({"type": "adjust", "player": "Bob", "amount": 2, "note": "found $2"})
    assert words in refused(session, event)


# --- players and options ------------------------------------------------------------------------


def test_player_names_are_trimmed() -> None:
    session = Session.new("transamerica", ["  Ann ", "Bob\t", " Mary   Lou "])
    assert session.players == ("Ann", "Bob", "Mary Lou")
    assert [standing.player for standing in session.standings()] == ["Ann", "Bob", "Mary Lou"]


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ann", "   "], "A player's name cannot be empty."),
        (["Ann", "B" * 31], f"The name '{'B' * 31}' is longer than 30 characters."),
        (["Ann", "Bob", " ann"], "Two players are called 'ann'; each name must be different."),
        (["Ann", 7], "A player's name must be text, not 7."),
        ("Ann and Bob", "The players must be a list of names."),
        (["Ann"], "TransAmerica is for 2 to 6 players, not 1."),
    ],
)
def test_player_names_must_be_non_empty_short_and_different(players: Any, message: str) -> None:
    with pytest.raises(RuleError) as caught:
        Session.new("transamerica", players)
    assert str(caught.value) == message


def test_a_30_character_name_is_fine() -> None:
    assert Session.new("transamerica", ["A" * 30, "Bob"]).players[0] == "A" * 30


@pytest.mark.parametrize("options", [["target"], "blog", 3])
def test_options_must_be_named_values(options: Any) -> None:
    with pytest.raises(RuleError, match="The options must be a set of named values."):
        Session.new("heartland", ["Ann", "Bob"], options=options)


def test_the_options_chosen_are_kept_in_the_save() -> None:
    session = Session.new("heartland", ["Ann", "Bob"], options={"target": "blog", "short_haul": True})
    assert session.to_dict()["options"] == {
        "target": "blog",
        "short_haul": True,
        "alternate_routes": False,
        "truck_stops": False,
    }
    assert Session.new("great_plains", ["Ann", "Bob"]).to_dict()["options"] == {"fox": "Ann"}
    assert Session.new("great_plains", ["Ann", "Bob"], {"first": "Bob"}).to_dict()["options"] == {
        "fox": "Ann",
        "first": "Bob",
    }


# --- saving and loading -------------------------------------------------------------------------


def test_a_saved_session_loads_with_its_undo_position_and_redo_tail() -> None:
    session = heartland()
    session.apply(move("Ann", 1, "cash"))
    session.apply(load("Ann"))
    session.apply(end_turn("Ann"))
    session.apply(move("Bob", 3, "cash"))
    session.undo()
    loaded = Session.from_dict(saved(session))
    assert loaded.to_dict() == session.to_dict()
    assert loaded.state == session.state
    assert loaded.can_redo
    assert str(loaded.redo()) == "Bob moved 3 spaces for $3"


def test_every_game_round_trips_through_json() -> None:
    sessions = [
        heartland(),
        Session.new("transamerica", ["Ann", "Bob"]),
        Session.new("great_plains", ["Ann", "Bob"], options={"fox": "Bob"}),
    ]
    sessions[1].apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 4}})
    sessions[2].apply({"type": "place_cave", "player": "Ann"})
    sessions[2].apply({"type": "end_game", "note": "Bob's bus came"})
    for session in sessions:
        loaded = Session.from_dict(saved(session))
        assert (loaded.state, loaded.to_dict()) == (session.state, session.to_dict())
        assert [s for s in loaded.standings()] == session.standings()
        assert all(isinstance(standing, Standing) for standing in loaded.standings())


def good_save() -> dict[str, Any]:
    session = heartland()
    session.apply(move("Ann", 2, "cash"))
    session.apply(load("Ann"))
    session.apply(end_turn("Ann"))
    return saved(session)


BAD_SAVES: list[tuple[str, Any]] = [
    ("not a dict", []),
    ("a text", "heartland"),
    ("nothing", None),
    ("missing events", {key: value for key, value in good_save().items() if key != "events"}),
    ("an extra field", {**good_save(), "notes": "hi"}),
    ("extra fields of mixed kinds", {**good_save(), 1: 2, "x": 3}),
    ("a future format", {**good_save(), "format": 4}),
    ("a format that is a float", {**good_save(), "format": 1.0}),
    ("the newest format as a float", {**good_save(), "format": 2.0}),
    ("format true", {**good_save(), "format": True}),
    ("a format text", {**good_save(), "format": "1"}),
    ("an unknown game", {**good_save(), "game": "chess"}),
    ("a game that is a list", {**good_save(), "game": ["heartland"]}),
    ("players that are a text", {**good_save(), "players": "Ann"}),
    ("a player that is a number", {**good_save(), "players": ["Ann", 2, "Cy"]}),
    ("untrimmed players", {**good_save(), "players": ["Ann ", "Bob", "Cy"]}),
    ("duplicate players", {**good_save(), "players": ["Ann", "ANN", "Cy"]}),
    ("too many players", {**good_save(), "players": ["A", "B", "C", "D", "E"]}),
    ("options that are a list", {**good_save(), "options": []}),
    ("an unknown option", {**good_save(), "options": {"turbo": True}}),
    ("a target that is a list", {**good_save(), "options": {"target": [40]}}),
    ("a target that is a dict", {**good_save(), "options": {"target": {"n": 40}}}),
    ("events that are a dict", {**good_save(), "events": {"0": {}}}),
    ("an event that is a number", {**good_save(), "events": [5], "cursor": 1}),
    ("an event with an unknown type", {**good_save(), "events": [{"type": "jump"}], "cursor": 1}),
    ("an event with a list for a type", {**good_save(), "events": [{"type": ["move"]}], "cursor": 1}),
    ("an event out of turn", {**good_save(), "events": [move("Bob")], "cursor": 1}),
    ("an event with a nested field", {**good_save(), "events": [{**move("Ann"), "player": {"n": 1}}], "cursor": 1}),
    ("a cursor past the end", {**good_save(), "cursor": 4}),
    ("a negative cursor", {**good_save(), "cursor": -1}),
    ("a cursor that is true", {**good_save(), "cursor": True}),
    ("a cursor that is a text", {**good_save(), "cursor": "2"}),
    ("a cursor that is a float", {**good_save(), "cursor": 1.0}),
]


@pytest.mark.parametrize(("shape", "data"), BAD_SAVES, ids=[shape for shape, _ in BAD_SAVES])
def test_a_damaged_save_is_refused_in_words_never_with_a_crash(shape: str, data: Any) -> None:
    with pytest.raises(RuleError) as caught:
        Session.from_dict(data)
    message = str(caught.value)
    assert message[0].isupper() and message.endswith(".") and " " in message


def test_a_refused_saved_event_says_which_one_and_why() -> None:
    data = {**good_save(), "events": [move("Ann"), load("Ann"), end_turn("Ann"), move("Ann")], "cursor": 4}
    with pytest.raises(RuleError) as caught:
        Session.from_dict(data)
    assert str(caught.value) == (
        "This saved session cannot be read: event 4 was refused (It is Bob's turn, not Ann's)."
    )


def test_events_after_the_undo_position_are_checked_too() -> None:
    data = {**good_save(), "events": [move("Ann"), move("Ann")], "cursor": 1}
    with pytest.raises(RuleError, match="event 2 was refused"):
        Session.from_dict(data)


# --- messages -----------------------------------------------------------------------------------


def test_log_sentences_are_built_from_an_id_and_parameters_and_read_in_each_language() -> None:
    session = heartland()
    sentence = session.apply(move("Ann", 2, "cash"))
    assert sentence.id == "heartland.log.move_cash"
    assert dict(sentence.params) == {"player": "Ann", "spaces": 2, "cost": 2}
    assert str(sentence) == sentence.text("en") == "Ann moved 2 spaces for $2"
    assert sentence.text("fr") == "Ann a avancé de 2 cases pour 2\u00a0$"
    assert sentence.text("es") == "Ann avanzó 2 espacios por 2\u00a0$"


def test_a_change_from_a_stale_screen_records_nothing():
    from companion.session import StaleError

    session = Session.new("transamerica", ["Ann", "Bob"])
    drawn = session.version
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 2}}, at=drawn)
    for change in (
        lambda: session.undo(at=drawn),
        lambda: session.redo(at=drawn),
        lambda: session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 1}}, at=drawn),
    ):
        with pytest.raises(StaleError, match="changed on another screen; nothing was recorded"):
            change()
    assert session.cursor == 1 and session.state.points == (13, 11)
    session.undo(at=session.version)
    assert session.cursor == 0


def test_the_states_of_a_game_run_from_its_set_up_to_its_undo_position() -> None:
    session = Session.new("transamerica", ["Ann", "Bob"])
    for _ in range(150):  # past two kept states (one every 64 events)
        session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 0}})
    for _ in range(10):
        session.undo()
    states = session.states
    assert len(states) == 141 and states[-1] == session.state and states[0] == session.state_at(0)
    assert list(states) == [session.state_at(cursor) for cursor in range(141)]
    assert [state.round_number for state in states[60:70:3]] == [61, 64, 67, 70]
    with pytest.raises(IndexError):
        states[141]

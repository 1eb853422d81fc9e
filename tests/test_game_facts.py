"""What the other layers ask of a game comes from the game's own description, and the rules
hand the message layer data, never English: names are joined, amounts written and words
chosen per language."""

from __future__ import annotations

import pytest
from rules_helpers import refusal

from companion import GAMES, Session
from companion.rules import great_plains, heartland, transamerica
from companion.rules.base import STOP_IN_PLACE, Reference, Stopped
from companion.text.messages import Listed, Message, Money

LANGUAGES = ("en", "fr", "es")
TABLES = {"heartland": ["Ann", "Bob", "Cy"], "transamerica": ["Ann", "Bob", "Cy"], "great_plains": ["Ann", "Inés"]}

STOPPED = {
    "heartland": "Ann, Bob and Cy shared the win ($5)",
    "transamerica": "Ann, Bob and Cy shared the win with 13 points",
    "great_plains": "Ann and Inés shared the win 0–0",
}


def seats(game_id: str) -> list[str]:
    """A table for the game: the usual one here, else as few players as it takes (a game added later)."""
    return TABLES.get(game_id) or ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][: GAMES[game_id].min_players]


def test_money_is_written_as_each_language_writes_it_inside_any_sentence() -> None:
    line = Message("heartland.status", {"player": "Ann", "money": Money(12), "target": Money(40)})
    assert [line.text(language) for language in LANGUAGES] == [
        "Ann's turn · $12 / $40",
        "Au tour d'Ann · 12\u00a0$ / 40\u00a0$",
        "Turno de Ann · 12\u00a0$ / 40\u00a0$",
    ]
    assert Message("game.status.money", {"money": Money(-3)}).text("fr") == "(-3\u00a0$)"


def test_listed_parts_are_separated_by_commas_and_each_is_said_in_the_language() -> None:
    parts = Listed(
        Message("transamerica.log.loss", {"player": name, "lost": lost}) for name, lost in (("Bob", 3), ("Cy", 2))
    )
    sentence = Message("transamerica.log.end_round", {"round": 1, "finished": ["Ann"], "losses": parts})
    assert sentence.text() == "Round 1 ended: Ann connected all cities; Bob -3, Cy -2"
    assert sentence.text("fr").endswith("Ann\u00a0; Bob -3, Cy -2")


def test_a_refusal_names_the_players_as_the_language_joins_names() -> None:
    session = Session.new("great_plains", ["Ann", "Inés"])
    wrong = refusal(session, {"type": "place_cave", "player": "Bob"})
    assert "(Ann and Inés)" in wrong.message.text()
    assert "(Ann et Inés)" in wrong.message.text("fr")
    assert "(Ann e Inés)" in wrong.message.text("es")
    missing = refusal(
        Session.new("transamerica", ["Ann", "Bob"]), {"type": "end_round", "missing": {"Ann": 0, "Bob": 100}}
    )
    assert str(missing) == "'missing of Bob' must be a whole number from 0 to 99, not 100."
    assert missing.message.text("fr").startswith("'missing de Bob'")


def test_a_spirit_taken_reads_with_its_own_article() -> None:
    session = Session.new("great_plains", ["Ann", "Bob"])
    for _ in range(6):
        session.apply({"type": "place_cave", "player": session.current_player})
    taken = [
        str(session.apply({"type": "place_token", "player": session.current_player, "spirit": spirit}))
        for spirit in ("eagle", "horse")
    ]
    assert taken == [
        "Ann placed a token (1 of 20) and took an eagle spirit",
        "Bob placed a token (1 of 20) and took a horse spirit",
    ]


def test_each_game_says_what_home_calls_it_and_what_its_scores_count() -> None:
    facts = {game_id: (game.home_title, game.unit, game.bgg_id, game.length_unit) for game_id, game in GAMES.items()}
    assert {game_id: facts[game_id] for game_id in ("heartland", "transamerica", "great_plains")} == {
        "heartland": ("Heartland", "money", 111417, "rounds"),
        "transamerica": ("TransAmerica", "points", 2842, "rounds"),
        "great_plains": ("Great Plains", "points", 330036, "zones"),
    }
    assert all(unit in ("money", "points") for _, unit, _, _ in facts.values())  # what the words for a score know


@pytest.mark.parametrize("game_id", list(GAMES))
def test_each_game_has_a_status_line_in_every_language_from_its_first_state_to_its_stop(game_id: str) -> None:
    game = GAMES[game_id]
    session = Session.new(game_id, seats(game_id))
    playing = [game.status_line(session.state).text(language) for language in LANGUAGES]
    session.apply({"type": "end_game", "note": "rain"})
    stopped = [game.status_line(session.state).text(language) for language in LANGUAGES]
    assert len(set(playing)) == 3 and len(set(stopped)) == 3
    assert " shared the win" in stopped[0]  # stopped before anyone scored: all of them, tied
    assert stopped[0] == STOPPED.get(game_id, stopped[0])
    assert all(not line.startswith(game_id) for line in playing + stopped)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_stopped_game_is_a_state_of_its_own_game_that_reads_as_finished(game_id: str) -> None:
    """So a game's screen shows a stopped game as a finished one, reading its state as always."""
    game = GAMES[game_id]
    session = Session.new(game_id, seats(game_id))
    before = type(session.state)
    session.apply({"type": "end_game", "note": "rain"})
    state = session.state
    assert game.stopped_note(state) == "rain" and game.is_over(state) and game.current_player(state) is None
    if game.all_events["end_game"] is STOP_IN_PLACE:  # the three: the game's own state says it
        assert type(state) is before and not isinstance(state, Stopped)
        assert state.over and state.stopped == "rain"
    else:  # a game that leaves stopping to the default: its state, wrapped
        assert isinstance(state, Stopped) and type(state.state) is before


def test_each_reference_opens_each_place_at_one_of_its_own_sections() -> None:
    for game in (heartland.GAME, transamerica.GAME, great_plains.GAME):
        assert isinstance(game.reference, Reference)
        assert set(game.reference.places.values()) <= set(game.reference.sections)
        assert game.reference.opening("a place it never names") == game.reference.sections[0]


def test_a_heartland_game_ends_by_a_check_over_its_state_once_the_final_round_is_played_out() -> None:
    session = Session.new("heartland", ["Ann", "Bob"], {"target": 6})
    session.apply({"type": "adjust", "player": "Ann", "amount": 1, "note": "found a dollar"})
    assert session.state.final_round_players == ("Bob",) and not session.state.over
    for player in ("Ann", "Bob"):
        session.apply({"type": "discard", "player": player, "forced": False})
        session.apply({"type": "end_turn", "player": player})
    assert session.state.over and session.state.final_round_players == ()
    assert heartland.GAME.end_if(session.state)

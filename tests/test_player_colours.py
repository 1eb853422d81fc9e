"""Each player's colour, picked at New game and kept in the game's options (`colours`), and
who the app drew to play first (`drawn`): games saved before either keep their colours."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import companion.app.screens.registry  # noqa: F401  # the game screens register their colour rules (Great Plains' tribes)
from companion import RuleError, Session
from companion.app import theme, widgets

SAVED = sorted((Path(__file__).parent / "fixtures" / "sessions" / "v1").glob("*.json"))
TRIBES = {"fox": 4, "snake": 1}  # orange and blue, as Great Plains always drew them


@pytest.mark.parametrize("path", SAVED, ids=[path.stem for path in SAVED])
def test_a_game_saved_before_colours_were_picked_shows_the_colours_it_always_had(path: Path) -> None:
    session = Session.from_dict(json.loads(path.read_text(encoding="utf-8"))["session"])
    assert "colours" not in session.options and "drawn" not in session.options
    for seat, player in enumerate(session.players):
        place = widgets.colour_place(session.game.id, session.players, session.options, player)
        if session.game.id == "great_plains":
            assert place == TRIBES[session.state.tribe(player)]
        else:
            assert place == seat


def test_picked_colours_are_kept_through_a_save_and_give_each_player_their_shade() -> None:
    colours = {"Ann": "teal", "Bob": "red", "Eve": "purple"}
    session = Session.new("transamerica", ["Ann", "Bob", "Eve"], {"colours": colours, "drawn": "Ann"})
    again = Session.from_dict(json.loads(json.dumps(session.to_dict())))
    assert again.options == {"colours": colours, "drawn": "Ann"}
    places = [widgets.colour_place("transamerica", again.players, again.options, p) for p in again.players]
    assert places == [5, 0, 3]
    assert theme.PLAYER_COLOUR_NAMES[places[0]] == "teal"


@pytest.mark.parametrize(
    ("colours", "why"),
    [
        ({"Ann": "red", "Bob": "red"}, "Ann and Bob cannot both be red: each player has a colour of their own."),
        ({"Ann": "gold"}, "Ann's colour must be one of red, blue, green, purple, orange, teal, not 'gold'."),
        ({"Cy": "red"}, "A colour is given to 'Cy', who is not a player of this game (Ann and Bob)."),
        (
            ["red", "blue"],
            "The players' colours must name a colour per player, from red, blue, green, purple, orange, teal.",
        ),
    ],
)
def test_colours_no_game_can_show_are_refused_in_words(colours: object, why: str) -> None:
    with pytest.raises(RuleError) as refused:
        Session.new("heartland", ["Ann", "Bob"], {"colours": colours})
    assert refused.value.message.text("en") == why


def test_a_refused_colour_is_said_in_the_table_s_language() -> None:
    with pytest.raises(RuleError) as refused:
        Session.new("heartland", ["Ann", "Bob"], {"colours": {"Ann": "teal", "Bob": "teal"}})
    assert refused.value.message.text("es") == (
        "Ann y Bob no pueden ser los dos verde azulado: cada jugador tiene su propio color."
    )


def test_only_a_player_can_have_been_drawn() -> None:
    with pytest.raises(RuleError) as refused:
        Session.new("heartland", ["Ann", "Bob"], {"drawn": "Cy"})
    assert refused.value.message.text("en") == "'drawn' must name a player of this game (Ann and Bob), not 'Cy'."


def test_the_draw_is_the_log_s_set_up_line() -> None:
    session = Session.new("great_plains", ["Ann", "Bob"], {"first": "Bob", "drawn": "Bob"})
    sentence = session.game.setup_sentence(session.options)
    assert sentence is not None and sentence.text("fr") == "Bob a été tiré au sort pour jouer en premier."
    assert session.game.setup_sentence(Session.new("great_plains", ["Ann", "Bob"]).options) is None

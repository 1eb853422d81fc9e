"""Player names and odd data: whatever is typed or loaded, the answer is one sentence.

Names are kept as typed but in one Unicode form (NFC), trimmed, with inner spaces
collapsed; a name that shows nothing, holds a control character or reverses the text
around it is refused, and two names that look the same are twins. Absurd numbers and
absurdly nested data are refused in words before anything tries to print or walk them.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import refused

from companion import RuleError, Session

HUGE = 10**5000


def nested(depth: int, inner: Any = "x") -> Any:
    value = inner
    for _ in range(depth):
        value = [value]
    return value


def new_game_refusal(players: Any, game_id: str = "transamerica", **options: Any) -> str:
    with pytest.raises(RuleError) as caught:
        Session.new(game_id, players, options=options)
    return str(caught.value)


# --- names ----------------------------------------------------------------------------------------


def test_names_are_kept_in_one_unicode_form_trimmed_and_with_single_spaces() -> None:
    session = Session.new("transamerica", ["  Zoe\u0301 ", "Mary \u00a0 Lou", "Łukasz"])
    assert session.players == ("Zo\u00e9", "Mary Lou", "Łukasz")


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Zo\u00e9", "Zoe\u0301"], "Two players are called 'Zoé'; each name must be different."),
        (["Ann", "An\u200bn"], "Two players are called 'An\u200bn'; each name must be different."),
        (["Ann", "\ufeffANN"], "Two players are called '\ufeffANN'; each name must be different."),
        (["Ann", "\u200b"], "A player's name cannot be empty."),
        (["Ann", "\u200b \u2060"], "A player's name cannot be empty."),
        (["Ann", "Bob\x00"], "A player's name cannot hold a control character (U+0000 in 'Bob')."),
        (["Ann", "\x1b[31mBob"], "A player's name cannot hold a control character (U+001B in '[31mBob')."),
        (["Ann", "\u202eboB"], "A player's name cannot hold a text-direction control (U+202E in 'boB')."),
        (["Ann", "Bob\u2066"], "A player's name cannot hold a text-direction control (U+2066 in 'Bob')."),
    ],
)
def test_names_that_look_alike_show_nothing_or_garble_the_screen_are_refused(players: list[str], message: str) -> None:
    assert new_game_refusal(players) == message


def test_emoji_sequences_and_scripts_keep_their_joiners() -> None:
    family = "\U0001f469\u200d\U0001f467"
    session = Session.new("transamerica", [family, "Zoë 🐻", "李雷", "Юлия"])
    assert session.players[0] == family
    assert new_game_refusal([family, "\U0001f469\U0001f467"]).startswith("Two players are called")


def test_a_saved_game_keeps_names_the_new_rule_would_refuse() -> None:
    saved = Session.new("transamerica", ["Ann", "Bob"]).to_dict()
    odd = {**saved, "players": ["Ann", "An\u200bn"], "events": []}
    assert Session.from_dict(odd).players == ("Ann", "An\u200bn")


# --- numbers too large to print ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ({"type": "move", "player": "Ann", "spaces": HUGE, "pay": "cash"},
         "'spaces' must be a whole number from 1 to 3, not a number of more than 30 digits."),
        ({"type": "move", "player": "Ann", "spaces": -HUGE, "pay": "cash"}, "not a number of more than 30 digits"),
        ({"type": "move", "player": HUGE, "spaces": 1, "pay": "cash"}, "'player' must name a player"),
        ({"type": HUGE}, "Unknown event type 'a number of more than 30 digits'"),
        ({"type": "end_turn", "player": "Ann", HUGE: 1}, "unexpected field 'a number of more than 30 digits'"),
        ({"type": "adjust", "player": "Ann", "amount": 1, "note": [HUGE]}, "'note' must be a text"),
        ({"type": "end_game", "note": {"n": HUGE}}, "not a set of named fields."),
        ({"type": "end_turn", "player": "Ann", "override": HUGE}, "'override' must be true or false"),
        ([HUGE], "An event must be a set of named fields, not a list."),
    ],
)
def test_a_number_of_5000_digits_anywhere_in_an_event_is_refused_in_words(event: Any, words: str) -> None:
    assert words in refused(Session.new("heartland", ["Ann", "Bob"]), event)


def test_a_number_of_5000_digits_in_a_zone_options_players_or_a_save_is_refused_in_words() -> None:
    assert "not a number of more than 30 digits" in new_game_refusal(["Ann", "Bob"], "heartland", target=HUGE)
    assert "must be text, not a number of more than 30 digits" in new_game_refusal(["Ann", HUGE])
    assert "not a number of more than 30 digits" in new_game_refusal(["Ann", "Bob"], "great_plains", fox=HUGE)
    saved = Session.new("transamerica", ["Ann", "Bob"]).to_dict()
    for damage in ({"cursor": HUGE}, {"format": HUGE}, {"game": HUGE}):
        with pytest.raises(RuleError, match="a number of more than 30 digits"):
            Session.from_dict({**saved, **damage})
    zone = {"type": "zone", "spaces": 3, "water": 0, "tokens": {"Ann": HUGE}, "override": True}
    assert "'tokens of Ann' must be a whole number from 0 to 20, not a number of more than 30 digits" in refused(
        Session.new("great_plains", ["Ann", "Bob"]), zone
    )


# --- data nested beyond reason --------------------------------------------------------------------


DEEP = nested(100_000)


@pytest.mark.parametrize(
    "event",
    [
        {"type": "adjust", "player": "Ann", "amount": 1, "note": DEEP},
        {"type": "end_game", "note": {"why": DEEP}},
        {"type": "end_turn", "player": "Ann", "extra": DEEP},
        {"type": DEEP},
        nested(100_000, {"type": "end_turn", "player": "Ann"}),
    ],
    ids=["note", "nested note", "extra field", "type", "event"],
)
def test_an_event_nested_100000_deep_is_refused_as_bad_data(event: Any) -> None:
    message = refused(Session.new("heartland", ["Ann", "Bob"]), event)
    if isinstance(event, dict):
        assert message == "This event is nested more than 32 levels deep; no real event is."
    else:
        assert message == "An event must be a set of named fields, not a list."


def test_options_players_and_saves_nested_100000_deep_are_refused_as_bad_data() -> None:
    assert new_game_refusal(["Ann", "Bob"], "heartland", target=DEEP) == (
        "This set of options is nested more than 32 levels deep; no real set of options is."
    )
    assert new_game_refusal(["Ann", DEEP]) == (
        "This list of players is nested more than 32 levels deep; no real list of players is."
    )
    saved = Session.new("transamerica", ["Ann", "Bob"]).to_dict()
    for damage in ({"options": {"x": DEEP}}, {"events": [DEEP]}, {"players": DEEP}, {"cursor": DEEP}):
        with pytest.raises(RuleError, match="This saved session is nested more than 32 levels deep"):
            Session.from_dict({**saved, **damage})


def test_data_that_refers_to_itself_is_refused_not_walked_forever() -> None:
    loop: list[Any] = []
    loop.append(loop)
    message = refused(Session.new("heartland", ["Ann", "Bob"]), {"type": "end_game", "note": loop})
    assert message == "This event is nested more than 32 levels deep; no real event is."


# --- shapes that were let through ----------------------------------------------------------------


def test_options_that_are_an_empty_list_are_refused() -> None:
    with pytest.raises(RuleError, match="The options must be a set of named values."):
        Session.new("heartland", ["Ann", "Bob"], options=[])  # type: ignore[arg-type]


@pytest.mark.parametrize("version", [1.0, 2.0, True, "2", None])
def test_a_format_that_is_not_a_whole_number_is_refused(version: Any) -> None:
    saved = {**Session.new("transamerica", ["Ann", "Bob"]).to_dict(), "format": version}
    with pytest.raises(RuleError, match=r"This saved session cannot be read: format .* is not supported\."):
        Session.from_dict(saved)


def test_the_first_rules_mark_is_for_saved_games_only() -> None:
    session = Session.new("heartland", ["Ann", "Bob"])
    bare = {"type": "end_turn", "player": "Ann", "rules": 1}
    assert refused(session, bare) == "The end_turn event has an unexpected field 'rules'."
    loaded = Session.from_dict({**session.to_dict(), "events": [bare], "cursor": 1})
    assert loaded.current_player == "Bob"
    assert str(loaded.sentences[0]) == "Ann ended the turn; Bob plays"
    with pytest.raises(RuleError, match=r"'rules' must be a whole number from 1 to 1, not 2"):
        Session.from_dict({**session.to_dict(), "events": [{**bare, "rules": 2}], "cursor": 1})

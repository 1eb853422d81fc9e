"""Player names and odd data: whatever is typed or loaded, the answer is one sentence.

Names are kept as typed but in one Unicode form (NFC), trimmed, with inner spaces
collapsed; a name that shows nothing, holds a control character, half of a UTF-16 pair or
reverses the text around it is refused, and two names that look the same (case, invisible
marks, Unicode and compatibility forms) are twins. Absurd numbers and absurdly nested data
are refused in words before anything tries to print or walk them, and a refusal quotes at
most 60 characters of what it refuses.
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


@pytest.mark.parametrize(
    ("twin", "shown"),
    [
        ("\uff21\uff4e\uff4e", "Ａｎｎ"),  # full-width letters, as a Japanese keyboard types them
        ("\u24b6nn", "Ⓐnn"),  # a circled letter
        ("A\u207f\u207f", "Aⁿⁿ"),  # superscripts
    ],
)
def test_names_equal_under_compatibility_forms_are_twins(twin: str, shown: str) -> None:
    assert new_game_refusal(["Ann", twin]) == f"Two players are called '{shown}'; each name must be different."


def test_ligatures_and_width_are_one_name_but_stay_as_typed() -> None:
    assert new_game_refusal(["\ufb01ona", "Fiona"]).startswith("Two players are called 'Fiona'")
    assert Session.new("transamerica", ["\uff21\uff4e\uff4e", "Bob"]).players == ("Ａｎｎ", "Bob")


def test_a_saved_game_with_names_now_twins_opens_and_replays_as_recorded() -> None:
    saved = Session.new("transamerica", ["Ann", "Bob"]).to_dict()
    event = {"type": "end_round", "missing": {"Ann": 0, "\uff21\uff4e\uff4e": 4}}
    old = {**saved, "players": ["Ann", "\uff21\uff4e\uff4e"], "events": [event], "cursor": 1}
    session = Session.from_dict(old)
    assert session.players == ("Ann", "Ａｎｎ")
    assert [standing.score for standing in session.standings()] == [13, 9]


@pytest.mark.parametrize("name", ["\ud800", "Ann\udfff", "\udc00Bob"])
def test_a_name_holding_half_of_a_pair_is_refused_new_or_saved(name: str) -> None:
    assert new_game_refusal(["Ann", name]).endswith("holds a broken character (half of a pair) that cannot be saved.")
    saved = Session.new("transamerica", ["Ann", "Bob"]).to_dict()
    with pytest.raises(RuleError) as caught:
        Session.from_dict({**saved, "players": ["Ann", name]})
    str(caught.value).encode("utf-8")  # the sentence itself can be sent


def test_a_refusal_quotes_at_most_60_characters_of_what_it_refuses() -> None:
    huge = "x" * 10_000_000
    refusals = [
        new_game_refusal(["Ann", huge]),
        refused(
            Session.new("heartland", ["Ann", "Bob"]), {"type": "adjust", "player": "Ann", "amount": 1, "note": huge}
        ),
        refused(Session.new("heartland", ["Ann", "Bob"]), {"type": huge}),
        refused(Session.new("heartland", ["Ann", "Bob"]), {"type": "end_turn", "player": huge}),
        refused(Session.new("heartland", ["Ann", "Bob"]), {"type": "end_turn", "player": "Ann", huge: 1}),
        refused(Session.new("heartland", ["Ann", "Bob"]), {"type": "end_game", "note": [huge]}),
        new_game_refusal(["Ann", "Bob"], "heartland", target=huge),
        new_game_refusal(["Ann", "Bob"], "great_plains", fox=huge),
    ]
    saved = Session.new("transamerica", ["Ann", "Bob"]).to_dict()
    for damage in ({huge: 1}, {"format": huge}, {"game": huge}, {"cursor": huge}):
        with pytest.raises(RuleError) as caught:
            Session.from_dict({**saved, **damage})
        refusals.append(str(caught.value))
    for refusal in refusals:
        assert len(refusal) < 250 and "x" * 61 not in refusal, refusal[:300]
    assert "x" * 59 + "…" in refusals[0]


@pytest.mark.parametrize("note", ["\ud800", "fixed \udfff", "\udbff\udbff"])
def test_a_note_holding_half_of_a_pair_is_refused_in_words(note: str) -> None:
    session = Session.new("heartland", ["Ann", "Bob"])
    said = refused(session, {"type": "adjust", "player": "Ann", "amount": 1, "note": note})
    assert said == "'note' holds a broken character (half of a pair) that cannot be saved; type it again."
    said = refused(session, {"type": "end_game", "note": note})
    assert said.startswith("'note' holds a broken character")


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
        (
            {"type": "move", "player": "Ann", "spaces": HUGE, "pay": "cash"},
            "'spaces' must be a whole number from 1 to 3, not a number of more than 30 digits.",
        ),
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

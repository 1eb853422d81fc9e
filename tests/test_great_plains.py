"""Great Plains, played through a Session: caves, tokens, spirits, then zone-by-zone scoring."""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import fact_refuses, recorded_anyway, refused, scores, table_refuses, to_scoring

from companion import RuleError, Session


def new_game(players: tuple[str, ...] = ("Ann", "Bob"), **options: Any) -> Session:
    return Session.new("great_plains", list(players), options=options)


def cave(player: str) -> dict[str, Any]:
    return {"type": "place_cave", "player": player}


def token(player: str, spirit: str | None = None) -> dict[str, Any]:
    event = {"type": "place_token", "player": player}
    return event if spirit is None else {**event, "spirit": spirit}


def use_spirit(player: str, spirit: str) -> dict[str, Any]:
    return {"type": "use_spirit", "player": player, "spirit": spirit}


def zone(spaces: int, water: int = 0, **tokens: int) -> dict[str, Any]:
    return {"type": "zone", "spaces": spaces, "water": water, "tokens": tokens}


SCORING_DONE = {"type": "scoring_done"}


def place_caves(session: Session) -> None:
    for _ in range(6):
        session.apply(cave(session.current_player or ""))


def place_tokens(session: Session, pairs: int) -> None:
    for _ in range(pairs):
        session.apply(token(session.current_player or ""))
        session.apply(token(session.current_player or ""))


# --- set-up ------------------------------------------------------------------------------------


def test_the_first_listed_player_is_the_fox_unless_the_table_says_otherwise() -> None:
    assert new_game().state.fox == "Ann"
    assert new_game(fox="bob").state.fox == "Bob"
    with pytest.raises(RuleError, match="The Fox player must be one of Ann and Bob, not 'Cy'"):
        new_game(fox="Cy")


@pytest.mark.parametrize("players", [("Ann",), ("Ann", "Bob", "Cy")])
def test_great_plains_is_for_exactly_2_players(players: tuple[str, ...]) -> None:
    with pytest.raises(RuleError, match=f"exactly 2 players, not {len(players)}"):
        new_game(players)


def test_players_alternate_placing_three_caves_each_first_listed_first() -> None:
    session = new_game()
    assert session.current_player == "Ann"
    assert refused(session, token("Ann")) == "0 of 6 caves are placed: Ann places a cave next."
    assert str(session.apply(cave("Ann"))) == "Ann placed a cave (1 of 3)"
    assert refused(session, cave("Ann")) == "It is Bob's turn, not Ann's."
    session.apply(cave("Bob"))
    for _ in range(2):
        session.apply(cave("Ann"))
        session.apply(cave("Bob"))
    assert refused(session, cave("Ann")) == "All 6 caves are placed; now the players place tribe tokens."
    assert session.current_player == "Ann"
    assert str(session.apply(token("Ann"))) == "Ann placed a token (1 of 20)"
    assert session.current_player == "Bob"


# --- spirits ----------------------------------------------------------------------------------


def test_landing_on_a_spirit_takes_it_while_the_supply_lasts() -> None:
    session = new_game()
    place_caves(session)
    for _ in range(3):
        session.apply(token("Ann", "horse"))
        session.apply(token("Bob"))
    assert session.state.spirits_of("Ann")["horse"] == 3
    sentence = session.apply(token("Ann", "horse"))
    assert str(sentence) == "Ann placed a token (4 of 20) on a horse; none was left to take"
    assert session.state.spirits_of("Ann")["horse"] == 3
    assert str(session.apply(token("Bob", "eagle"))) == "Bob placed a token (4 of 20) and took an eagle spirit"


def test_a_spirit_is_used_on_a_later_turn_and_goes_back_to_the_supply() -> None:
    session = new_game()
    place_caves(session)
    session.apply(token("Ann", "bear"))
    assert refused(session, use_spirit("Bob", "bear")) == "Bob holds no bear spirit."
    session.apply(token("Bob", "bear"))
    assert session.state.supply == (3, 3, 1)
    assert refused(session, use_spirit("Ann", "horse")) == "Ann holds no horse spirit."
    assert str(session.apply(use_spirit("Ann", "bear"))) == "Ann used a bear spirit to push a token back"
    assert session.state.supply == (3, 3, 2)
    assert session.current_player == "Ann"
    assert "It is Ann's turn" in refused(session, use_spirit("Bob", "bear"))


def test_only_horse_eagle_and_bear_spirits_exist() -> None:
    session = new_game()
    place_caves(session)
    assert "'spirit' must be one of horse, eagle, bear, not 'wolf'" in refused(session, token("Ann", "wolf"))


# --- zones --------------------------------------------------------------------------------------


def test_the_strict_majority_scores_the_spaces_and_the_water_and_a_tie_scores_nobody() -> None:
    session = new_game()
    to_scoring(session)
    assert str(session.apply(zone(8, 2, Ann=3, Bob=1))) == "Zone 1: 8 spaces + 2 water, 3–1: Ann +10"
    assert str(session.apply(zone(6, 1, Ann=2, Bob=2))) == "Zone 2: 6 spaces + 1 water, 2–2: tied, nobody scores"
    session.apply(zone(4, Bob=2))
    assert scores(session) == {"Ann": 10, "Bob": 4}
    ann, bob = session.standings()
    assert (ann.detail["zones_won"], bob.detail["zones_won"]) == (1, 1)


def test_a_zone_cannot_hold_more_tokens_than_spaces_or_more_than_were_placed() -> None:
    session = new_game()
    to_scoring(session)
    assert fact_refuses(session, zone(3, Ann=2, Bob=2)) == "A zone of 3 spaces cannot hold 4 tokens."
    session.apply(zone(30, Ann=18))
    assert fact_refuses(session, zone(5, Ann=3)) == "Ann has placed 20 tokens, but the zones count 21."
    assert "'spaces' must be a whole number from 1 to 200, not 0" in refused(session, zone(0))
    assert "not -1" in refused(session, zone(3, water=-1))
    assert "'tokens' names 'Cy', who is not a player" in refused(session, zone(3, Cy=1))


def test_after_the_last_token_the_prairies_are_counted_and_nobody_has_won_until_scoring_is_done() -> None:
    session = new_game()
    to_scoring(session)
    assert (session.is_over, session.current_player) == (False, None)
    assert [(s.player, s.score, s.winner) for s in session.standings()] == [("Ann", 0, False), ("Bob", 0, False)]
    assert fact_refuses(session, token("Ann")) == "All 40 tokens are placed; the prairies are being scored."
    session.apply(zone(12, 1, Ann=6, Bob=4))
    session.apply(zone(20, 2, Ann=7, Bob=13))
    assert scores(session) == {"Bob": 22, "Ann": 13}
    assert not any(s.winner for s in session.standings())

    assert str(session.apply(SCORING_DONE)) == "Scoring done; the game is over"
    assert session.is_over and not session.state.scoring
    assert [s.winner for s in session.standings()] == [True, False]
    assert "The game is over" in fact_refuses(session, zone(3, Ann=1))
    assert "The game is over" in fact_refuses(session, SCORING_DONE)

    session.undo()
    assert session.state.scoring and not session.is_over
    assert str(session.apply(zone(3, Ann=1))) == "Zone 3: 3 spaces + 0 water, 1–0: Ann +3"


def test_counting_a_prairie_before_the_last_token_is_the_table_s_call() -> None:
    session = new_game()
    place_caves(session)
    place_tokens(session, 10)
    assert table_refuses(session, zone(12, 1, Ann=6, Bob=4)) == (
        "20 of 40 tokens are placed; the prairies are scored once all are down."
    )
    assert recorded_anyway(session, zone(12, 1, Ann=6, Bob=4)) == (
        "Zone 1: 12 spaces + 1 water, 6–4: Ann +13 — recorded against the rule: "
        "20 of 40 tokens are placed; the prairies are scored once all are down"
    )
    assert session.current_player == "Ann" and not session.is_over


def test_a_table_may_call_the_scoring_done_before_the_last_token() -> None:
    session = new_game()
    place_caves(session)
    place_tokens(session, 19)
    session.apply({**zone(30, 2, Ann=12, Bob=10), "override": True})
    assert table_refuses(session, SCORING_DONE) == (
        "38 of 40 tokens are placed; the prairies are scored once all are down."
    )
    assert recorded_anyway(session, SCORING_DONE).startswith("Scoring done; the game is over — recorded against")
    assert session.is_over and session.current_player is None
    assert [(s.player, s.winner) for s in session.standings()] == [("Ann", True), ("Bob", False)]


def test_spirits_left_after_the_last_token_are_kept_unless_the_table_says_one_was_used() -> None:
    session = new_game()
    place_caves(session)
    session.apply(token("Ann", "eagle"))
    place_tokens(session, 19)
    session.apply(token("Bob"))
    assert session.state.scoring
    assert table_refuses(session, use_spirit("Ann", "eagle")) == (
        "All 40 tokens are placed: Ann's spirits are kept for the tie-break."
    )
    assert fact_refuses(session, use_spirit("Bob", "eagle")) == "Bob holds no eagle spirit."
    assert recorded_anyway(session, use_spirit("Ann", "eagle")).startswith("Ann used an eagle spirit")
    assert session.state.spirits_of("Ann")["eagle"] == 0


def test_the_first_player_is_chosen_apart_from_the_fox() -> None:
    session = new_game(fox="Ann", first="bob")
    assert session.options == {"fox": "Ann", "first": "Bob"}
    assert session.current_player == "Bob"
    assert refused(session, cave("Ann")) == "It is Bob's turn, not Ann's."
    place_caves(session)
    assert session.current_player == "Bob"
    session.apply(token("Bob"))
    assert session.current_player == "Ann"
    assert session.standings()[0].detail["tribe"] == "fox"
    with pytest.raises(RuleError, match="The first player must be one of Ann and Bob, not 'Cy'"):
        new_game(first="Cy")


def test_the_table_stops_a_game_being_scored_with_the_zones_entered_so_far() -> None:
    session = new_game()
    to_scoring(session)
    session.apply(zone(10, 1, Bob=4))
    assert str(session.apply({"type": "end_game", "note": "closing time"})) == "The game was stopped: closing time"
    assert session.is_over and session.stopped_note == "closing time"
    assert session.state.over and not session.state.scoring and session.state.all_placed
    assert [(s.player, s.score, s.winner) for s in session.standings()] == [("Bob", 11, True), ("Ann", 0, False)]
    assert "The game is over" in fact_refuses(session, zone(3, Ann=1))
    assert "The game is over" in fact_refuses(session, SCORING_DONE)


# --- a whole game ----------------------------------------------------------------------------


def play_to_the_end(session: Session, ann_spirits: int, bob_spirits: int) -> None:
    """Both place 20 tokens; the first few land on spirits the players then keep."""
    place_caves(session)
    for number in range(20):
        session.apply(token("Ann", "horse" if number < ann_spirits else None))
        session.apply(token("Bob", "eagle" if number < bob_spirits else None))
    assert session.state.scoring


def test_the_game_is_scored_once_both_tribes_have_placed_all_20_tokens() -> None:
    session = new_game(("Ann", "Bob"), fox="Bob")
    place_caves(session)
    place_tokens(session, 19)
    session.apply(token("Ann"))
    assert session.current_player == "Bob"
    session.apply(token("Bob"))
    assert session.state.scoring
    session.apply(zone(30, 3, Ann=12, Bob=8))
    session.apply(zone(25, 0, Ann=8, Bob=12))
    session.apply(SCORING_DONE)
    ann, bob = session.standings()
    assert (ann.player, ann.score, ann.winner, ann.detail["tribe"]) == ("Ann", 33, True, "snake")
    assert (bob.score, bob.winner, bob.detail["tribe"]) == (25, False, "fox")


def test_equal_points_go_to_the_player_who_kept_more_spirits() -> None:
    session = new_game()
    play_to_the_end(session, ann_spirits=1, bob_spirits=2)
    session.apply(zone(10, 0, Ann=5, Bob=3))
    session.apply(zone(9, 1, Ann=3, Bob=5))
    session.apply(SCORING_DONE)
    assert [(s.player, s.score, s.detail["spirits"], s.rank, s.winner) for s in session.standings()] == [
        ("Bob", 10, 2, 1, True),
        ("Ann", 10, 1, 2, False),
    ]


def test_equal_points_and_equal_spirits_share_the_victory() -> None:
    session = new_game()
    play_to_the_end(session, ann_spirits=2, bob_spirits=2)
    session.apply(zone(10, 0, Ann=5, Bob=3))
    session.apply(zone(9, 1, Ann=3, Bob=5))
    session.apply(SCORING_DONE)
    assert [(s.player, s.rank, s.winner) for s in session.standings()] == [("Ann", 1, True), ("Bob", 1, True)]


def test_spirits_used_are_no_longer_kept_for_the_tie_break() -> None:
    session = new_game()
    place_caves(session)
    session.apply(token("Ann", "horse"))
    session.apply(token("Bob", "eagle"))
    session.apply(use_spirit("Ann", "horse"))
    for _ in range(19):
        session.apply(token("Ann"))
        session.apply(token("Bob"))
    session.apply(zone(5, Ann=1, Bob=0))
    session.apply(zone(5, Ann=0, Bob=1))
    session.apply(SCORING_DONE)
    assert [(s.player, s.detail["spirits"], s.winner) for s in session.standings()] == [
        ("Bob", 1, True),
        ("Ann", 0, False),
    ]


# --- a zone already scored, corrected -----------------------------------------------------------


def amend_zone(number: int, spaces: int, water: int = 0, **tokens: int) -> dict[str, Any]:
    return {"type": "amend_zone", "zone": number, "spaces": spaces, "water": water, "tokens": tokens}


def five_zones() -> Session:
    session = new_game()
    to_scoring(session)
    for spaces, ann, bob in ((8, 3, 1), (10, 5, 1), (6, 2, 2), (4, 0, 2), (7, 1, 3)):
        session.apply(zone(spaces, 1, Ann=ann, Bob=bob))
    return session


def test_zone_2_of_5_is_corrected_in_place_without_undoing_zones_5_to_3() -> None:
    session = five_zones()
    assert scores(session) == {"Ann": 20, "Bob": 13}
    sentence = session.apply(amend_zone(2, 9, 1, Ann=1, Bob=4))
    assert str(sentence) == (
        "Zone 2 corrected: 9 spaces + 1 water, 1–4: Bob +10, not 10 spaces + 1 water, 5–1: Ann +11"
    )
    assert [counted.spaces for counted in session.state.zones] == [8, 9, 6, 4, 7]  # the later ones as they were
    assert scores(session) == {"Ann": 9, "Bob": 23}
    assert (session.state.zone_tokens_of("Ann"), session.state.zone_tokens_of("Bob")) == (7, 12)
    assert [step.values for step in session.game.score_steps([session.state])][2] == (9, 10)
    assert str(session.undo()).startswith("Zone 2 corrected")
    assert scores(session) == {"Ann": 20, "Bob": 13}
    session.redo()
    again = Session.from_dict(session.to_dict())
    assert again.state == session.state and scores(again) == {"Ann": 9, "Bob": 23}


def test_a_zone_corrected_to_a_tie_says_so() -> None:
    session = five_zones()
    assert str(session.apply(amend_zone(1, 8, 1, Ann=2, Bob=2))) == (
        "Zone 1 corrected: 8 spaces + 1 water, 2–2: tied, not 8 spaces + 1 water, 3–1: Ann +9"
    )
    assert scores(session) == {"Ann": 11, "Bob": 13}


def test_a_zone_correction_is_refused_in_words_where_it_cannot_hold_and_changes_nothing() -> None:
    session = five_zones()
    before = session.state
    assert fact_refuses(session, amend_zone(6, 5, Ann=1)) == "There is no zone 6 to correct: 5 zones are scored."
    assert fact_refuses(session, amend_zone(2, 10, 1, Ann=5, Bob=1)) == "Zone 2 already reads so: nothing to correct."
    assert fact_refuses(session, amend_zone(2, 3, Ann=2, Bob=2)) == "A zone of 3 spaces cannot hold 4 tokens."
    # Ann's 20 tokens: the other zones count 6 of them, so zone 2 cannot count 15.
    assert fact_refuses(session, amend_zone(2, 30, Ann=15)) == "Ann has placed 20 tokens, but the zones count 21."
    assert "'zone' must be a whole number from 1 to 200, not 0" in refused(session, amend_zone(0, 5))
    assert session.state == before


def test_no_zone_is_corrected_before_one_is_scored_nor_after_the_end() -> None:
    session = new_game()
    to_scoring(session)
    assert fact_refuses(session, amend_zone(1, 5, Ann=1)) == "There is no zone 1 to correct: 0 zones are scored."
    session.apply(zone(5, Ann=1))
    session.apply(SCORING_DONE)
    assert "over" in refused(session, amend_zone(1, 5, Bob=1))

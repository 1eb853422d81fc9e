"""TransAmerica, played through a Session: the app records each round's missing segments."""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import refused, scores

from companion import RuleError, Session


def new_game(*players: str) -> Session:
    return Session.new("transamerica", list(players or ("Ann", "Bob", "Cy")))


def end_round(**missing: Any) -> dict[str, Any]:
    return {"type": "end_round", "missing": missing}


def test_everyone_starts_with_13_points_and_ann_starts_the_first_round() -> None:
    session = new_game()
    assert scores(session) == {"Ann": 13, "Bob": 13, "Cy": 13}
    assert session.state.round_number == 1
    assert session.state.starter == "Ann"
    assert session.current_player is None
    assert not session.is_over


def test_each_round_everyone_loses_their_missing_segments_and_the_start_moves_one_seat() -> None:
    session = new_game()
    sentence = session.apply(end_round(Ann=0, Bob=3, Cy=5))
    assert str(sentence) == "Round 1 ended: Ann connected all cities; Bob -3, Cy -5"
    assert scores(session) == {"Ann": 13, "Bob": 10, "Cy": 8}
    assert (session.state.round_number, session.state.starter) == (2, "Bob")

    session.apply(end_round(Ann=2, Bob=0, Cy=0))
    assert session.state.starter == "Cy"
    session.apply(end_round(Ann=1, Bob=1, Cy=0))
    assert session.state.starter == "Ann"
    assert session.state.round_number == 4
    assert scores(session) == {"Ann": 10, "Bob": 9, "Cy": 8}


def test_a_round_everyone_finishes_costs_nobody_anything() -> None:
    session = new_game("Ann", "Bob")
    sentence = session.apply(end_round(Ann=0, Bob=0))
    assert str(sentence) == "Round 1 ended: Ann and Bob connected all cities; nobody lost points"
    assert scores(session) == {"Ann": 13, "Bob": 13}


def test_a_round_where_nobody_connected_everything_is_refused() -> None:
    message = refused(new_game(), end_round(Ann=1, Bob=2, Cy=3))
    assert "Someone must have 0 segments missing" in message


@pytest.mark.parametrize(
    ("missing", "words"),
    [
        ({"Ann": 0, "Bob": 2}, "'missing' must give a number for each player (Ann, Bob and Cy)"),
        ({"Ann": 0, "Bob": 2, "Cy": 1, "Dee": 0}, "'missing' names 'Dee', who is not a player"),
        ({"Ann": 0, "Bob": -1, "Cy": 1}, "'missing of Bob' must be a whole number from 0 to 99, not -1"),
        ({"Ann": 0, "Bob": True, "Cy": 1}, "not true"),
        ({"Ann": 0, "Bob": "2", "Cy": 1}, "not '2'"),
        ({"ann": 0, "Bob": 2, "Cy": 1}, "names 'ann'"),
    ],
)
def test_every_player_is_counted_exactly_once_with_a_whole_number(missing: dict[str, Any], words: str) -> None:
    assert words in refused(new_game(), {"type": "end_round", "missing": missing})


def test_the_game_ends_after_the_round_that_takes_someone_to_zero() -> None:
    session = new_game()
    session.apply(end_round(Ann=0, Bob=6, Cy=2))
    assert not session.is_over
    session.apply(end_round(Ann=0, Bob=7, Cy=2))
    assert session.is_over
    assert scores(session) == {"Ann": 13, "Cy": 9, "Bob": 0}
    ann, cy, bob = session.standings()
    assert (ann.player, ann.rank, ann.winner) == ("Ann", 1, True)
    assert (cy.rank, cy.winner, bob.rank) == (2, False, 3)
    assert ann.detail == {"points": 13, "rounds": [0, 0]}
    assert bob.detail == {"points": 0, "rounds": [6, 7]}
    assert "The game is over" in refused(session, end_round(Ann=0, Bob=0, Cy=0))


def test_nobody_wins_before_the_end_even_far_ahead() -> None:
    session = new_game()
    session.apply(end_round(Ann=0, Bob=12, Cy=12))  # Bob and Cy one point from the end
    assert not session.is_over
    assert [(s.player, s.rank, s.winner) for s in session.standings()] == [
        ("Ann", 1, False),
        ("Bob", 2, False),
        ("Cy", 2, False),
    ]


def test_a_round_that_leaves_two_players_at_zero_ends_the_game_and_they_share_last_place() -> None:
    session = new_game("Ann", "Bob", "Cy", "Dee")
    session.apply(end_round(Ann=0, Bob=5, Cy=5, Dee=1))
    session.apply(end_round(Ann=2, Bob=8, Cy=8, Dee=0))
    assert session.is_over
    assert [(s.player, s.score, s.rank, s.winner) for s in session.standings()] == [
        ("Dee", 12, 1, True),
        ("Ann", 11, 2, False),
        ("Bob", 0, 3, False),
        ("Cy", 0, 3, False),
    ]


def test_points_may_go_below_zero_and_are_ranked_as_they_are() -> None:
    session = new_game("Ann", "Bob", "Cy")
    session.apply(end_round(Ann=0, Bob=15, Cy=20))
    assert scores(session) == {"Ann": 13, "Bob": -2, "Cy": -7}
    assert [s.player for s in session.standings()] == ["Ann", "Bob", "Cy"]


def test_every_player_tied_on_points_wins() -> None:
    session = new_game("Ann", "Bob", "Cy")
    session.apply(end_round(Ann=4, Bob=0, Cy=4))
    session.apply(end_round(Ann=0, Bob=4, Cy=13))
    assert session.is_over
    assert [(s.player, s.score, s.rank, s.winner) for s in session.standings()] == [
        ("Ann", 9, 1, True),
        ("Bob", 9, 1, True),
        ("Cy", -4, 3, False),
    ]


def test_six_players_rotate_the_start_around_the_whole_table() -> None:
    table = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
    session = new_game(*table)
    starters = []
    for _ in range(7):
        starters.append(session.state.starter)
        session.apply(end_round(**{name: 0 for name in table}))
    assert starters == [*table, "Ann"]


@pytest.mark.parametrize("count", [1, 7])
def test_transamerica_is_for_2_to_6_players(count: int) -> None:
    with pytest.raises(RuleError, match=f"2 to 6 players, not {count}"):
        Session.new("transamerica", [f"P{n}" for n in range(count)])


def test_transamerica_has_no_options() -> None:
    with pytest.raises(RuleError, match="Unknown option 'target' for TransAmerica"):
        Session.new("transamerica", ["Ann", "Bob"], options={"target": 40})


def test_the_table_stops_after_two_rounds_and_the_points_left_decide() -> None:
    session = new_game()
    session.apply(end_round(Ann=0, Bob=3, Cy=5))
    session.apply(end_round(Ann=4, Bob=0, Cy=0))
    sentence = session.apply({"type": "end_game", "note": "the train home leaves at ten"})
    assert str(sentence) == "The game was stopped: the train home leaves at ten"
    assert session.is_over and session.stopped_note == "the train home leaves at ten"
    assert [(s.player, s.score, s.winner) for s in session.standings()] == [
        ("Bob", 10, True),
        ("Ann", 9, False),
        ("Cy", 8, False),
    ]
    assert session.state.round_number == 3
    assert "The game is over" in refused(session, end_round(Ann=0, Bob=0, Cy=0))
    session.undo()
    assert not session.is_over and session.state.starter == "Cy"


# --- a past round corrected -----------------------------------------------------------------


def amend(number: int, **missing: Any) -> dict[str, Any]:
    return {"type": "amend_round", "round": number, "missing": missing}


def three_rounds() -> Session:
    session = new_game()
    session.apply(end_round(Ann=0, Bob=4, Cy=2))
    session.apply(end_round(Ann=3, Bob=0, Cy=1))
    session.apply(end_round(Ann=2, Bob=2, Cy=0))
    return session


def test_round_2_corrected_in_place_counts_the_points_again_and_keeps_the_later_rounds() -> None:
    session = three_rounds()
    assert scores(session) == {"Ann": 8, "Bob": 7, "Cy": 10}
    sentence = session.apply(amend(2, Ann=1, Bob=0, Cy=1))
    assert str(sentence) == "Round 2 corrected: Ann missed 1, not 3"
    assert session.state.rounds == ((0, 4, 2), (1, 0, 1), (2, 2, 0))
    assert scores(session) == {"Ann": 10, "Bob": 7, "Cy": 10}
    assert (session.state.round_number, session.state.starter) == (4, "Ann")  # still round 4, Ann starts
    assert [step.values for step in session.game.score_steps([session.state])] == [
        (13, 13, 13),
        (13, 9, 11),
        (12, 9, 10),
        (10, 7, 10),
    ]


def test_a_corrected_round_names_every_player_whose_count_changed() -> None:
    session = three_rounds()
    sentence = session.apply(amend(1, Ann=0, Bob=3, Cy=0))
    assert str(sentence) == "Round 1 corrected: Bob missed 3, not 4, Cy missed 0, not 2"


def test_a_correction_is_undone_and_redone_like_any_event() -> None:
    session = three_rounds()
    session.apply(amend(2, Ann=1, Bob=0, Cy=1))
    assert str(session.undo()) == "Round 2 corrected: Ann missed 1, not 3"
    assert scores(session) == {"Ann": 8, "Bob": 7, "Cy": 10}
    assert session.state.rounds[1] == (3, 0, 1)
    session.redo()
    assert scores(session) == {"Ann": 10, "Bob": 7, "Cy": 10}


def test_a_correction_survives_saving_and_replays_in_place() -> None:
    session = three_rounds()
    session.apply(amend(2, Ann=1, Bob=0, Cy=1))
    session.apply(end_round(Ann=0, Bob=1, Cy=1))
    again = Session.from_dict(session.to_dict())
    assert again.state == session.state
    assert scores(again) == {"Ann": 10, "Bob": 6, "Cy": 9}


def test_a_round_nobody_finished_cannot_be_corrected_in_either() -> None:
    session = three_rounds()
    message = refused(session, amend(2, Ann=1, Bob=1, Cy=1))
    assert "Someone must have 0 segments missing" in message


def test_only_a_round_already_played_can_be_corrected() -> None:
    assert refused(three_rounds(), amend(4, Ann=0, Bob=1, Cy=1)) == (
        "There is no round 4 to correct: 3 rounds were played."
    )
    assert refused(new_game(), amend(1, Ann=0, Bob=1, Cy=1)) == (
        "There is no round 1 to correct: 0 rounds were played."
    )


def test_a_correction_that_changes_nothing_is_refused() -> None:
    assert refused(three_rounds(), amend(2, Ann=3, Bob=0, Cy=1)) == ("Round 2 already reads so: nothing to correct.")


def test_a_correction_that_would_have_ended_the_game_before_later_rounds_is_refused() -> None:
    session = three_rounds()
    assert refused(session, amend(1, Ann=0, Bob=13, Cy=2)) == (
        "Round 1 so corrected would have left Bob at 0 or below and ended the game after round 1, "
        "but the table played on: correct a later round instead, or undo back."
    )
    # The same loss moved to the last round ends the game there, as the table would have.
    session.apply(amend(3, Ann=2, Bob=9, Cy=0))
    assert session.is_over
    assert scores(session) == {"Ann": 8, "Bob": 0, "Cy": 10}


def test_nothing_is_corrected_once_the_game_is_over() -> None:
    session = new_game("Ann", "Bob")
    session.apply(end_round(Ann=0, Bob=13))
    assert session.is_over
    assert refused(session, amend(1, Ann=0, Bob=3))

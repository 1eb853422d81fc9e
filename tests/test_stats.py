"""Statistics over an archive whose answers are known, and the score of a game over time."""

from __future__ import annotations

import pytest
from rules_helpers import to_scoring
from store_helpers import put

from companion.aftergame.stats import (
    ScoreSeries,
    Step,
    player_key,
    read_aliases,
    rename_player,
    score_series,
    statistics,
    statistics_by_game,
)
from companion.session import Session
from companion.store import SessionSummary, Store
from companion.store.storage import MemoryFolder

DAY = 86_400.0
START = 1_700_000_000.0


def transamerica(store: Store, day: int, winner: str, second: str, last: str) -> None:
    """`winner` connects twice (13), `second` loses 2 twice (9), `last` loses 6 then 7 (0)."""
    session = Session.new("transamerica", [winner, second, last])
    session.apply({"type": "end_round", "missing": {winner: 0, second: 2, last: 6}})
    session.apply({"type": "end_round", "missing": {winner: 0, second: 2, last: 7}})
    put(store, session, created=START + day * DAY, updated=START + day * DAY + 3600)


def great_plains(store: Store, day: int, players: list[str], zones: list[tuple[int, int]]) -> None:
    """Every token placed, then the zones (tokens of the first player, of the second) on 10 spaces + 2 water."""
    session = Session.new("great_plains", players)
    to_scoring(session)
    for first, second in zones:
        session.apply({"type": "zone", "spaces": 10, "water": 2, "tokens": {players[0]: first, players[1]: second}})
    session.apply({"type": "scoring_done"})
    put(store, session, created=START + day * DAY, updated=START + day * DAY + 1800)


@pytest.fixture
def archive() -> tuple[Store, list[SessionSummary]]:
    """Ann wins days 0, 1, 3, 4, 5 (three in a row), Bob day 2, Cy day 6; Great Plains on days 7 and 8.

    Names are written as the table typed them: "ann", "ANN" and "Ann" with a zero-width
    space are Ann.
    """
    store = Store.in_memory()
    transamerica(store, 0, "Ann", "Bob", "Cy")
    transamerica(store, 1, "ann", "Cy", "Bob")
    transamerica(store, 2, "Bob", "Ann", "Cy")
    transamerica(store, 3, "ANN", "Bob", "Cy")
    transamerica(store, 4, "Ann\u200b", "Bob", "Cy")
    transamerica(store, 5, "Ann", "Cy", "Bob")
    transamerica(store, 6, "Cy", "Bob", "Ann")
    great_plains(store, 7, ["Ann", "Dee"], [(5, 3), (2, 4), (1, 1)])  # 12 each: a tie, spirits tied too
    great_plains(store, 8, ["Dee", "Ann"], [(6, 2), (6, 2)])  # Dee 24, Ann 0
    store.new("transamerica", ["Ann", "Bob"])  # unfinished: not counted
    return store, store.finished()


def test_each_player_has_plays_wins_win_rate_scores_and_longest_streak(archive: tuple[Store, list]) -> None:
    _, finished = archive
    stats = statistics(finished, game="transamerica")
    assert stats.plays == 7 and stats.average_length == 2
    ann, bob, cy = stats.player("ann"), stats.player("Bob"), stats.player("cy")
    assert ann is not None and bob is not None and cy is not None
    assert (ann.plays, ann.wins, ann.longest_streak, ann.best_score) == (7, 5, 3, 13)
    assert ann.win_rate == pytest.approx(5 / 7)
    assert ann.average_score == pytest.approx((13 * 5 + 9 + 0) / 7)
    assert (bob.plays, bob.wins, bob.longest_streak, bob.best_score) == (7, 1, 1, 13)
    assert bob.average_score == pytest.approx((9 * 4 + 13 + 0 * 2) / 7)  # second on days 0, 3, 4, 6
    assert [player.name for player in stats.players] == ["Ann", "Bob", "Cy"]  # most wins first


def test_head_to_head_counts_who_finished_ahead_of_whom(archive: tuple[Store, list]) -> None:
    _, finished = archive
    stats = statistics(finished, game="transamerica")
    # Ann is ahead of Bob on days 0, 1, 3, 4, 5; Bob of Ann on days 2 and 6.
    assert stats.head_to_head["Ann"]["Bob"] == 5 and stats.head_to_head["Bob"]["Ann"] == 2
    assert stats.head_to_head["Ann"]["Cy"] == 6 and stats.head_to_head["Cy"]["Ann"] == 1


def test_a_tie_wins_for_both_and_counts_ahead_for_neither(archive: tuple[Store, list]) -> None:
    _, finished = archive
    stats = statistics(finished, game="great_plains")
    ann, dee = stats.player("Ann"), stats.player("Dee")
    assert ann is not None and dee is not None
    assert (ann.plays, ann.wins, ann.best_score, ann.average_score) == (2, 1, 12, 6)
    assert (dee.plays, dee.wins, dee.best_score, dee.average_score) == (2, 2, 24, 18)
    assert stats.head_to_head == {"Dee": {"Ann": 1}}
    assert stats.average_length == pytest.approx(2.5)  # zones


def test_overall_counts_every_game_without_mixing_their_scores(archive: tuple[Store, list]) -> None:
    _, finished = archive
    stats = statistics(finished)
    ann = stats.player("Ann")
    assert ann is not None
    assert stats.plays == 9 and stats.average_length is None
    assert (ann.plays, ann.wins, ann.average_score, ann.best_score) == (9, 6, None, None)
    assert ann.longest_streak == 3
    assert set(statistics_by_game(finished)) == {"transamerica", "great_plains"}


def test_a_date_range_keeps_the_games_started_in_it(archive: tuple[Store, list]) -> None:
    _, finished = archive
    stats = statistics(finished, since=START + 2 * DAY, until=START + 5 * DAY)
    ann = stats.player("Ann")
    assert stats.plays == 3 and ann is not None and (ann.plays, ann.wins, ann.longest_streak) == (3, 2, 2)


def test_renaming_a_player_carries_their_history_and_renaming_back_undoes_it() -> None:
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    transamerica(store, 0, "Bob", "Ann", "Cy")
    transamerica(store, 1, "Robert", "Ann", "Cy")
    rename_player(folder, "bob", "Robert")
    stats = statistics(store.finished(), aliases=read_aliases(folder))
    robert = stats.player("Robert")
    assert robert is not None and (robert.plays, robert.wins, robert.longest_streak) == (2, 2, 2)
    assert stats.player("Bob") is None or stats.player("Bob") == robert
    assert [player.name for player in stats.players] == ["Robert", "Ann", "Cy"]
    rename_player(folder, "Robert", "Rob")  # Bob's games follow
    assert statistics(store.finished(), aliases=read_aliases(folder)).players[0].name == "Rob"
    rename_player(folder, "Rob", "Bob")
    names = [player.name for player in statistics(store.finished(), aliases=read_aliases(folder)).players]
    assert names[0] == "Bob" and len(names) == 3


def test_names_are_one_player_whatever_their_case_form_or_invisible_marks() -> None:
    assert player_key("Zoë") == player_key("ZOE\u0308") == player_key("zoë\u200b")
    assert player_key("Zoë") != player_key("Zoe")


def test_an_unreadable_alias_file_leaves_the_names_as_played() -> None:
    folder = MemoryFolder()
    folder.write("players.json", b"{broken")
    assert read_aliases(folder) == {}


# --- score over time -------------------------------------------------------------------


def test_transamerica_counts_down_from_13_round_by_round() -> None:
    session = Session.new("transamerica", ["Ann", "Bob"])
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 5}})
    session.apply({"type": "end_round", "missing": {"Ann": 3, "Bob": 0}})
    assert score_series(session) == ScoreSeries(
        ("Ann", "Bob"), "points", [Step("start", 0, (13, 13)), Step("round", 1, (13, 8)), Step("round", 2, (10, 8))]
    )


def test_great_plains_adds_each_zone_to_its_winner() -> None:
    session = Session.new("great_plains", ["Zoë", "Łukasz"])
    to_scoring(session)
    session.apply({"type": "zone", "spaces": 10, "water": 2, "tokens": {"Zoë": 5, "Łukasz": 3}})
    session.apply({"type": "zone", "spaces": 8, "water": 0, "tokens": {"Zoë": 2, "Łukasz": 2}})
    session.apply({"type": "zone", "spaces": 9, "water": 1, "tokens": {"Zoë": 1, "Łukasz": 4}})
    series = score_series(session)
    assert series.of("Zoë") == [0, 12, 12, 12] and series.of("Łukasz") == [0, 0, 0, 10]
    assert [step.kind for step in series.steps] == ["start", "zone", "zone", "zone"]


def heartland_turn(session: Session, player: str, earned: int = 0) -> None:
    session.apply({"type": "move", "player": player, "spaces": 1, "pay": "fuel"})
    session.apply({"type": "load", "player": player, "good": "pigs", "cubes": 1})
    if earned:
        session.apply({"type": "adjust", "player": player, "amount": earned, "note": "sold"})
    session.apply({"type": "end_turn", "player": player})


def test_heartland_money_by_round_then_the_cargo_penalty_as_its_own_step() -> None:
    session = Session.new("heartland", ["Ann", "Bob", "Cy"], {"target": 20})
    heartland_turn(session, "Ann", 3)
    heartland_turn(session, "Bob")
    heartland_turn(session, "Cy", 1)
    heartland_turn(session, "Ann")
    heartland_turn(session, "Bob", 20)  # Bob reaches $25: Cy and Ann play once more
    assert score_series(session).of("Bob")[-1] == 25  # the round in progress is shown
    heartland_turn(session, "Cy")
    heartland_turn(session, "Ann")
    assert session.is_over
    series = score_series(session)
    assert series.unit == "money"
    assert [(step.kind, step.number) for step in series.steps] == [
        ("start", 0),
        ("round", 1),
        ("round", 2),
        ("round", 3),
        ("penalty", 3),
    ]
    assert series.of("Ann") == [5, 8, 8, 8, 2]  # three pigs on the truck: $6
    assert series.of("Bob") == [5, 5, 25, 25, 21]
    assert series.of("Cy") == [5, 6, 6, 6, 2]


def test_a_heartland_game_stopped_early_with_empty_trucks_has_no_cargo_step() -> None:
    session = Session.new("heartland", ["Ann", "Bob"], {"target": 20})
    session.apply({"type": "move", "player": "Ann", "spaces": 1, "pay": "fuel"})
    session.apply({"type": "end_game", "note": "rain"})
    assert session.is_over
    assert [step.kind for step in score_series(session).steps] == ["start", "round"]


def test_a_heartland_game_stopped_early_with_cargo_still_shows_its_penalty() -> None:
    session = Session.new("heartland", ["Ann", "Bob"], {"target": 20})
    heartland_turn(session, "Ann")  # a pig on Ann's truck
    session.apply({"type": "end_game", "note": "rain"})
    series = score_series(session)
    assert series.steps[-1].kind == "penalty" and series.of("Ann")[-1] < series.of("Ann")[-2]

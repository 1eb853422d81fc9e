"""A player's page, stopped games and games left out, on a hand-built archive whose every
figure is worked out by hand below."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from clock_helpers import played_between
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import to_scoring
from store_helpers import put

from companion.aftergame.stats import (
    COUNTED,
    GameRecord,
    Rival,
    duration_of,
    is_counted,
    player_page,
    read_counted,
    set_counted,
    statistics,
)
from companion.session import Session
from companion.store import SessionSummary, Store
from companion.store.results import FinalResult
from companion.store.storage import MemoryFolder

DAY = 86_400.0
START = 1_700_000_000.0
MINUTE = 60.0


def transamerica(store: Store, day: int, players: list[str], minutes: int, stop: bool = False) -> str:
    """The first player connects twice (13), the second loses 2 twice (9), a third 6 then 7 (0);
    with two players the second loses 6 then 7 (0).

    Stopped: after one round in which the second connected and the first missed 5 (8, 13, 12).
    """
    started, ended = START + day * DAY, START + day * DAY + minutes * MINUTE
    with played_between(started, ended):  # the table clock runs from the set-up to the last change
        session = Session.new("transamerica", players)
        if stop:
            session.apply({"type": "end_round", "missing": dict(zip(players, [5, 0, 1], strict=False))})
            session.apply({"type": "end_game", "note": "pizza"})
        else:
            for third in (6, 7):
                missing = [0, 2, third] if len(players) == 3 else [0, third]
                session.apply({"type": "end_round", "missing": dict(zip(players, missing, strict=True))})
    return put(store, session, created=started, updated=ended)


def great_plains(store: Store, day: int, players: list[str], zones: list[tuple[int, int]], minutes: int) -> str:
    """Each zone of 10 spaces + 2 water (12 points) goes to whoever has more tokens there."""
    started, ended = START + day * DAY, START + day * DAY + minutes * MINUTE
    with played_between(started, ended):
        session = Session.new("great_plains", players)
        to_scoring(session)
        for first, second in zones:
            session.apply({"type": "zone", "spaces": 10, "water": 2, "tokens": {players[0]: first, players[1]: second}})
        session.apply({"type": "scoring_done"})
    return put(store, session, created=started, updated=ended)


@pytest.fixture
def table() -> tuple[Store, dict[str, str]]:
    """Ann's games, day by day (W won, L lost):

    day 0 TransAmerica Ann 13 · Bob 9 · Cy 0        W  60 min
    day 1 TransAmerica Bob 13 · Ann 9 · Cy 0        L  60 min
    day 2 Great Plains Dee 24 · Ann 0               L  90 min
    day 3 TransAmerica Ann 13 · Dee 0               W  45 min
    day 4 TransAmerica Ann 13 · Bob 0               W  30 min
    day 5 TransAmerica stopped: Ann 8 · Bob 13 · Cy 12 (not counted by default)
    day 6 TransAmerica Ann 13 · Bob 9 · Cy 0        (left out by the table)
    day 7 Great Plains Dee 24 · Ann 12              L  90 min
    day 8 TransAmerica Ann 13 · Cy 9 · Bob 0        W  60 min
    """
    store = Store.in_memory(MemoryFolder())
    ids = {
        "d0": transamerica(store, 0, ["Ann", "Bob", "Cy"], 60),
        "d1": transamerica(store, 1, ["Bob", "Ann", "Cy"], 60),
        "d2": great_plains(store, 2, ["Dee", "Ann"], [(6, 2), (6, 2)], 90),
        "d3": transamerica(store, 3, ["Ann", "Dee"], 45),
        "d4": transamerica(store, 4, ["Ann", "Bob"], 30),
        "d5": transamerica(store, 5, ["Ann", "Bob", "Cy"], 20, stop=True),
        "d6": transamerica(store, 6, ["Ann", "Bob", "Cy"], 60),
        "d7": great_plains(store, 7, ["Dee", "Ann"], [(6, 2), (2, 6), (6, 2)], 90),
        "d8": transamerica(store, 8, ["Ann", "Cy", "Bob"], 60),
    }
    by_id = {summary.id: summary for summary in store.finished()}
    set_counted(store.folder, by_id[ids["d6"]], False)
    return store, ids


def test_ann_s_page_adds_up_as_worked_out_by_hand(table: tuple[Store, dict[str, str]]) -> None:
    store, _ = table
    page = player_page(store.finished(), "ann", counted=read_counted(store.folder))
    assert page is not None
    assert page.name == "Ann"
    # Counted: days 0 1 2 3 4 7 8 = W L L W W L W.
    assert (page.plays, page.wins) == (7, 4)
    assert page.win_rate == pytest.approx(4 / 7)
    assert (page.current_streak, page.longest_streak) == (1, 2)
    assert page.games == [
        GameRecord("transamerica", plays=5, wins=4, best=13, average=(13 + 9 + 13 + 13 + 13) / 5, worst=9),
        GameRecord("great_plains", plays=2, wins=0, best=12, average=6, worst=0),
    ]
    assert page.time_played == (60 + 60 + 90 + 45 + 30 + 90 + 60) * MINUTE and page.timed == 7
    assert page.most_met == Rival(("Bob",), 4)  # days 0 1 4 8 (Cy 3, Dee 3)
    assert page.beaten_by == Rival(("Dee",), 2)  # days 2 and 7 (Bob once, day 1)
    assert page.by_count == {2: (4, 2), 3: (3, 2)}


def test_a_stopped_game_is_left_out_unless_the_table_counts_it(table: tuple[Store, dict[str, str]]) -> None:
    store, ids = table
    finished = {summary.id: summary for summary in store.finished()}
    stopped = finished[ids["d5"]]
    assert stopped.result is not None and stopped.result.stopped
    overall = statistics(finished.values(), counted=read_counted(store.folder))
    assert (overall.plays, overall.stopped, overall.left_out) == (7, 1, 1)
    bob = overall.player("Bob")
    assert bob is not None and (bob.plays, bob.wins) == (4, 1)  # the stopped "win" is not one

    set_counted(store.folder, stopped, True)
    counted = read_counted(store.folder)
    overall = statistics(finished.values(), counted=counted)
    assert (overall.plays, overall.stopped, overall.left_out) == (8, 0, 1)
    bob = overall.player("Bob")
    assert bob is not None and (bob.plays, bob.wins) == (5, 2)
    page = player_page(finished.values(), "Ann", counted=counted)
    assert page is not None and (page.plays, page.wins) == (8, 4)  # W L L W W L(stopped) L W
    assert (page.current_streak, page.longest_streak) == (1, 2)

    set_counted(store.folder, stopped, False)  # taken back: as it was, and no trace kept
    assert read_counted(store.folder) == {ids["d6"]: False}
    assert statistics(finished.values(), counted=read_counted(store.folder)).plays == 7


def test_a_game_left_out_comes_back_when_counted_again(table: tuple[Store, dict[str, str]]) -> None:
    store, ids = table
    finished = {summary.id: summary for summary in store.finished()}
    assert not is_counted(finished[ids["d6"]], read_counted(store.folder))
    set_counted(store.folder, finished[ids["d6"]], True)
    assert read_counted(store.folder) == {}
    page = player_page(finished.values(), "Ann", counted=read_counted(store.folder))
    assert page is not None and (page.plays, page.wins, page.current_streak) == (8, 5, 1)


def test_the_filters_narrow_the_page(table: tuple[Store, dict[str, str]]) -> None:
    store, _ = table
    counted = read_counted(store.folder)
    plains = player_page(store.finished(), "Ann", game="great_plains", counted=counted)
    assert plains is not None and (plains.plays, plains.wins, plains.most_met) == (2, 0, Rival(("Dee",), 2))
    late = player_page(store.finished(), "Ann", since=START + 3 * DAY, counted=counted)
    assert late is not None and (late.plays, late.wins, late.longest_streak) == (4, 3, 2)  # days 3 4 7 8
    assert player_page(store.finished(), "Zed", counted=counted) is None


def test_durations_come_from_the_game_s_times(table: tuple[Store, dict[str, str]]) -> None:
    store, ids = table
    summary = next(summary for summary in store.finished() if summary.id == ids["d3"])
    assert duration_of(summary) == 45 * MINUTE
    unfinished: SessionSummary = summary._replace(is_over=False)
    assert duration_of(unfinished) is None


def test_an_unreadable_choices_file_counts_every_game_as_by_default() -> None:
    folder = MemoryFolder()
    folder.write(COUNTED, b"{not json")
    assert read_counted(folder) == {}
    folder.write(COUNTED, b'{"counted": {"abc": "no", "def": false}}')
    assert read_counted(folder) == {"def": False}


def test_the_choice_survives_a_restarted_process(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        session_id = transamerica(store, 0, ["Ann", "Bob"], 30)
        (summary,) = store.finished()
        set_counted(store.folder, summary, False)
    script = (
        "import sys; from companion.store import Store\n"
        "from companion.aftergame.stats import statistics, read_counted\n"
        "with Store(sys.argv[1]) as store:\n"
        "    print(statistics(store.finished(), counted=read_counted(store.folder)).left_out,"
        " read_counted(store.folder))"
    )
    ran = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == f"1 {{'{session_id}': False}}"


NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


@st.composite
def archives(draw: st.DrawFn) -> tuple[list[SessionSummary], dict[str, bool]]:
    """Finished games of 2–6 of six players (any scores, ties included), some stopped, some left out or counted."""
    games = []
    for number in range(draw(st.integers(0, 12))):
        players = tuple(draw(st.permutations(NAMES))[: draw(st.integers(2, 6))])
        scores = tuple(draw(st.lists(st.integers(-5, 20), min_size=len(players), max_size=len(players))))
        ranks = tuple(1 + sum(other > score for other in scores) for score in scores)
        winners = tuple(player for player, rank in zip(players, ranks, strict=True) if rank == 1)
        result = FinalResult(scores, ranks, draw(st.integers(1, 9)), stopped=draw(st.booleans()))
        created = START + number * DAY
        games.append(
            SessionSummary(
                f"g{number:02d}",
                draw(st.sampled_from(["transamerica", "heartland"])),
                players,
                created,
                created + draw(st.integers(0, 7200)),
                True,
                winners,
                "",
                "",
                result,
            )
        )
    counted = draw(st.dictionaries(st.sampled_from([game.id for game in games] or ["none"]), st.booleans()))
    return games, counted


@given(archives())
@settings(max_examples=150, deadline=None)
def test_a_player_s_page_agrees_with_itself_and_with_the_statistics(archive: tuple[list[SessionSummary], dict]) -> None:
    games, counted = archive
    overall = statistics(games, counted=counted)
    assert overall.plays + overall.stopped + overall.left_out == len(games)
    for name in NAMES:
        page = player_page(games, name, counted=counted)
        card = overall.player(name)
        if page is None:
            assert card is None
            continue
        assert card is not None
        assert (page.plays, page.wins, page.longest_streak, page.current_streak) == (
            card.plays,
            card.wins,
            card.longest_streak,
            card.current_streak,
        )
        assert sum(record.plays for record in page.games) == page.plays == sum(p for p, _ in page.by_count.values())
        assert sum(record.wins for record in page.games) == page.wins == sum(w for _, w in page.by_count.values())
        assert page.current_streak <= page.longest_streak <= page.wins
        assert all(record.worst <= record.average <= record.best for record in page.games)

        def together(other: str, name: str = name) -> int:
            return sum(1 for game in games if is_counted(game, counted) and {name, other} <= set(game.players))

        def ahead_of(first: str, second: str) -> int:
            return overall.head_to_head.get(first, {}).get(second, 0)

        others = [other for other in NAMES if other != name]
        assert page.most_met is not None and page.most_met.count == max(map(together, others))
        # Every opponent tied for most is named, and only they.
        assert set(page.most_met.names) == {other for other in others if together(other) == page.most_met.count}
        most_ahead = max(ahead_of(other, name) for other in others)
        if page.beaten_by is None:
            assert most_ahead == 0
        else:
            assert page.beaten_by.count == most_ahead > 0
            assert set(page.beaten_by.names) == {other for other in others if ahead_of(other, name) == most_ahead}
        for other in others:
            assert ahead_of(name, other) + ahead_of(other, name) <= together(other)

"""After the game, on screen: a finished game's date, start, length, first player and
variants; leaving a game out of statistics (and taking it back, across a restart); stopped
games left out; a player's page; the head-to-head table; Home's line with its date."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from app_helpers import app_screen, memory_app, notice, table
from clock_helpers import played_between
from flet_harness import Screen
from rules_helpers import to_scoring
from store_helpers import put
from test_stats_player import great_plains, transamerica

from companion.app.data import AppData
from companion.session import Session
from companion.store import Store
from companion.store.storage import MemoryFolder

EVENING = datetime(2024, 3, 12, 20, 45).timestamp()  # local time, as the table lived it
MINUTE = 60.0


def stopped_heartland(data: AppData) -> str:
    """Heartland with the blog's target and Short Haul, stopped by the table before anyone moved."""
    with played_between(EVENING, EVENING + 77 * MINUTE):  # the table clock ran 77 minutes
        session = Session.new("heartland", ["Ann", "Bob", "Cy", "Dee"], {"target": "blog", "short_haul": True})
        session.apply({"type": "end_game", "note": "pizza"})
    return put(data.store, session, created=EVENING, updated=EVENING + 77 * MINUTE)


def plains_with_fox(data: AppData) -> str:
    """Great Plains, Bob the Fox and Ann placing first; Ann takes both zones."""
    with played_between(EVENING, EVENING + 2 * 3600 + 5 * MINUTE):
        session = Session.new("great_plains", ["Bob", "Ann"], {"fox": "Bob", "first": "Ann"})
        to_scoring(session)
        for _ in range(2):
            session.apply({"type": "zone", "spaces": 10, "water": 2, "tokens": {"Bob": 1, "Ann": 5}})
        session.apply({"type": "scoring_done"})
    return put(data.store, session, created=EVENING, updated=EVENING + 2 * 3600 + 5 * MINUTE)


async def open_detail(screen: Screen, session_id: str) -> None:
    await screen.tap(f"session-{session_id}")
    assert screen.exists("detail-when")


@table
async def test_the_detail_says_when_how_long_who_began_and_the_variants() -> None:
    data = memory_app()
    heartland, plains = stopped_heartland(data), plains_with_fox(data)
    async with app_screen(data) as screen:
        await open_detail(screen, heartland)
        assert screen.text_of("detail-when") == "March 12, 2024 · started at 20:45 · 1 h 17 min"
        assert screen.text_of("detail-first") == "First player: Ann"
        assert screen.text_of("detail-variants") == "Variants: money target $30 (blog) · Short Haul (trucks carry 6)"
        assert screen.text_of("detail-counted") == "Stopped early: left out of statistics"
        await screen.tap("back")
        await open_detail(screen, plains)
        assert screen.text_of("detail-when") == "March 12, 2024 · started at 20:45 · 2 h 5 min"
        assert screen.text_of("detail-first") == "First player: Ann"
        assert screen.text_of("detail-variants") == "Variants: Bob is Fox"
        assert screen.text_of("detail-counted") == "Counted in statistics"


@table
async def test_the_detail_in_french_and_spanish() -> None:
    for language, when, counted in (
        ("fr", "12 mars 2024 · commencée à 20:45 · 1 h 17 min", "Arrêtée avant la fin : hors statistiques"),
        (
            "es",
            "12 de marzo de 2024 · empezó a las 20:45 · 1 h 17 min",
            "Detenida antes del final: fuera de las estadísticas",
        ),
    ):
        data = memory_app()
        heartland = stopped_heartland(data)
        async with app_screen(data) as screen:
            await screen.tap("settings")
            await screen.tap(f"language-{language}")
            await screen.tap("back")
            await open_detail(screen, heartland)
            assert screen.text_of("detail-when") == when
            assert screen.text_of("detail-counted") == counted


@table
async def test_leaving_a_game_out_changes_the_statistics_survives_a_restart_and_can_be_taken_back() -> None:
    folder = MemoryFolder()
    data = AppData(Store.in_memory(folder))
    first = transamerica(data.store, 0, ["Ann", "Bob", "Cy"], 60)  # Ann wins
    transamerica(data.store, 1, ["Bob", "Ann", "Cy"], 60)  # Bob wins
    async with app_screen(data) as screen:
        await open_detail(screen, first)
        assert screen.text_of("detail-counted") == "Counted in statistics"
        assert screen.find("detail-count").content == "Leave out of statistics"
        await screen.tap("detail-count")
        assert notice(screen) == "This game is left out of statistics. Count it again with the same button."
        assert screen.text_of("detail-counted") == "Left out of statistics"
        assert screen.find("detail-count").content == "Count in statistics"
    # Another process on the same data folder: back where it was, and the choice is there.
    again = AppData(Store.in_memory(folder))
    async with app_screen(again) as screen:
        assert screen.text_of("detail-counted") == "Left out of statistics"
        await screen.tap("back")
        await screen.tap("stats")
        assert screen.text_of("stats-overview") == "1 game played"
        assert screen.text_of("stats-not-counted") == "Not counted: 1 game left out"
        assert screen.text_of("stats-record-ann") == "1 played · 0 won (0%)"
        await screen.tap("back")
        await open_detail(screen, first)
        await screen.tap("detail-count")
        assert notice(screen) == "This game counts in statistics again."
        assert screen.text_of("detail-counted") == "Counted in statistics"
        await screen.tap("back")
        await screen.tap("stats")
        assert screen.text_of("stats-overview") == "2 games played"
        assert not screen.exists("stats-not-counted")
        assert screen.text_of("stats-record-ann") == "2 played · 1 won (50%)"


@table
async def test_a_stopped_game_is_shown_stopped_and_counted_only_when_the_table_says() -> None:
    data = memory_app()
    transamerica(data.store, 0, ["Ann", "Bob", "Cy"], 60)
    stopped = transamerica(data.store, 1, ["Ann", "Bob", "Cy"], 20, stop=True)  # Bob ahead when stopped
    async with app_screen(data) as screen:
        assert screen.text_of(f"status-{stopped}") == "Stopped early · Bob won with 13 points"
        await screen.tap("stats")
        assert screen.text_of("stats-overview") == "1 game played"
        assert screen.text_of("stats-not-counted") == "Not counted: 1 stopped game"
        assert screen.text_of("stats-record-bob") == "1 played · 0 won (0%)"
        await screen.tap("back")
        await open_detail(screen, stopped)
        assert screen.text_of("stopped") == "Stopped early: pizza"
        assert screen.text_of("detail-counted") == "Stopped early: left out of statistics"
        await screen.tap("detail-count")
        assert screen.text_of("detail-counted") == "Stopped early, counted in statistics"
        await screen.tap("back")
        await screen.tap("stats")
        assert screen.text_of("stats-overview") == "2 games played"
        assert screen.text_of("stats-record-bob") == "2 played · 1 won (50%)"


def ann_s_table(data: AppData) -> None:
    """The archive of test_stats_player, worked out by hand there (Ann: 7 counted, 4 won)."""
    store = data.store
    ids = [
        transamerica(store, 0, ["Ann", "Bob", "Cy"], 60),
        transamerica(store, 1, ["Bob", "Ann", "Cy"], 60),
        great_plains(store, 2, ["Dee", "Ann"], [(6, 2), (6, 2)], 90),
        transamerica(store, 3, ["Ann", "Dee"], 45),
        transamerica(store, 4, ["Ann", "Bob"], 30),
        transamerica(store, 5, ["Ann", "Bob", "Cy"], 20, stop=True),
        transamerica(store, 6, ["Ann", "Bob", "Cy"], 60),
        great_plains(store, 7, ["Dee", "Ann"], [(6, 2), (2, 6), (6, 2)], 90),
        transamerica(store, 8, ["Ann", "Cy", "Bob"], 60),
    ]
    summary = data.finished_summary(ids[6])
    assert summary is not None
    data.set_counted(summary, False)


@table
async def test_a_player_s_page_from_the_statistics() -> None:
    data = memory_app()
    ann_s_table(data)
    async with app_screen(data) as screen:
        await screen.tap("stats")
        await screen.tap("page-ann")
        assert screen.text_of("player-name") == "Ann"
        assert screen.text_of("player-filters") == "All games · All time"
        assert screen.text_of("player-record") == "7 played · 4 won (57%)"
        assert screen.text_of("player-streaks") == "Winning streak now: 1 · longest: 2"
        assert screen.text_of("player-time") == "Time played: 7 h 15 min over 7 games"
        assert screen.text_of("player-most-met") == "Played most with: Bob (4 games)"
        assert screen.text_of("player-beaten-by") == "Finished behind most often: Dee (2 times)"
        assert screen.text_of("player-game-transamerica") == "5 played · 4 won (80%)"
        assert screen.text_of("player-scores-transamerica") == "Best 13 · average 12.2 · worst 9"
        assert screen.text_of("player-game-great_plains") == "2 played · 0 won (0%)"
        assert screen.text_of("player-scores-great_plains") == "Best 12 · average 6 · worst 0"
        assert screen.text_of("player-count-2") == "2 players: 4 played · 2 won (50%)"
        assert screen.text_of("player-count-3") == "3 players: 3 played · 2 won (67%)"
        await screen.tap("back")
        assert screen.exists("stats-screen")
        await screen.tap("stats-game-great_plains")
        await screen.tap("page-ann")
        assert screen.text_of("player-filters") == "Great Plains · All time"
        assert screen.text_of("player-record") == "2 played · 0 won (0%)"
        await screen.tap("back")
        assert screen.exists("stats-game-great_plains")  # the filters kept


@table
async def test_the_head_to_head_is_a_table_of_who_finished_ahead_of_whom() -> None:
    data = memory_app()
    ann_s_table(data)
    async with app_screen(data) as screen:
        await screen.tap("stats")
        await screen.tap("stats-game-transamerica")
        # Counted: days 0 1 3 4 8. Ann ahead of Bob on days 0 4 8, behind on day 1.
        assert screen.text_of("h2h-ann-bob") == "3"
        assert screen.text_of("h2h-bob-ann") == "1"
        assert screen.text_of("h2h-ann-cy") == "3"  # days 0 1 8
        assert screen.text_of("h2h-cy-ann") == "0"
        assert screen.text_of("h2h-bob-cy") == "2"  # days 0 1 (Cy ahead on day 8)
        assert screen.text_of("h2h-cy-bob") == "1"
        assert screen.text_of("h2h-bob-dee") == "–"  # they never met
        assert screen.text_of("h2h-ann-dee") == "1"
        assert screen.text_of("h2h-head-ann") == "Ann"


@table
async def test_home_says_the_day_a_game_was_last_played() -> None:
    data = memory_app()
    heartland = stopped_heartland(data)
    async with app_screen(data) as screen:
        when = screen.text_of(f"when-{heartland}")
        assert when.startswith("last played March 12, 2024 (") and when.endswith(" days ago)")


def test_the_data_folder_keeps_the_choice_as_a_file_of_its_own(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        data = AppData(store)
        session_id = transamerica(store, 0, ["Ann", "Bob"], 30)
        summary = data.finished_summary(session_id)
        assert summary is not None
        data.set_counted(summary, False)
    assert (tmp_path / "counted.json").exists()
    with Store(tmp_path) as store:
        assert AppData(store).statistics().left_out == 1


@table
async def test_a_restart_reopens_the_player_s_page_with_its_filters() -> None:
    data = memory_app()
    ann_s_table(data)
    async with app_screen(data) as screen:
        await screen.tap("stats")
        await screen.tap("stats-game-transamerica")
        await screen.tap("page-bob")
        assert screen.text_of("player-record") == "4 played · 1 won (25%)"  # days 0 1 4 8, won day 1
    async with app_screen(data) as screen:
        assert screen.text_of("player-name") == "Bob"
        assert screen.text_of("player-filters") == "TransAmerica · All time"
        await screen.tap("back")
        assert screen.exists("stats-screen")

"""The statistics screen: who played and won how often, by how much, who beat whom, per game
and by date; renaming a remembered player brings their games along."""

from __future__ import annotations

import json
import time

import flet as ft
from app_helpers import app_screen, memory_app, notice, table
from flet_harness import Screen
from rules_helpers import to_scoring
from store_helpers import put

from companion.app.data import AppData
from companion.app.screens.stats import decimal, period_range
from companion.session import Session

NBSP = "\u00a0"  # French and Spanish keep a number and its % together


def play_transamerica(data: AppData, players: list[str], *rounds: dict[str, int]) -> str:
    """A finished game, round by round: what each player still missed when the round ended."""
    session = data.new("transamerica", players, {})
    for missing in rounds:
        session.apply({"type": "end_round", "missing": missing})
    assert session.id is not None and session.is_over
    data.close_session(session.id)
    return session.id


async def open_stats(screen: Screen) -> None:
    await screen.tap("stats")
    assert screen.exists("stats-screen")


@table
async def test_plays_wins_scores_streaks_and_head_to_head_per_player() -> None:
    data = memory_app()
    two_rounds = ({"Ann": 3, "Bob": 0}, {"Ann": 0, "Bob": 13})
    play_transamerica(data, ["Ann", "Bob"], *two_rounds)  # Ann 10, Bob 0
    play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})  # Ann 13, Bob 0
    play_transamerica(data, ["Ann", "Bob", "Cy"], {"Ann": 13, "Bob": 1, "Cy": 0})  # Cy 13, Bob 12, Ann 0
    async with app_screen(data) as screen:
        await open_stats(screen)
        assert screen.text_of("stats-overview") == "3 games played"
        assert screen.text_of("stats-record-ann") == "3 played · 2 won (67%)"
        assert screen.text_of("stats-streak-ann") == "Winning streak now: 0 · longest: 2"
        assert screen.text_of("stats-record-cy") == "1 played · 1 won (100%)"
        assert screen.text_of("stats-record-bob") == "3 played · 0 won (0%)"
        assert (screen.text_of("h2h-ann-bob"), screen.text_of("h2h-bob-ann")) == ("2", "1")

        await screen.tap("stats-game-transamerica")
        assert screen.text_of("stats-overview") == "3 games played · rounds per game: 1.3"
        assert screen.text_of("stats-scores-ann") == "Average score 7.7 · best 13"


@table
async def test_the_head_to_head_tells_only_tied_from_never_met_and_names_every_rival_tied_for_most() -> None:
    data = memory_app()
    play_transamerica(data, ["Ann", "Bob", "Fay"], {"Ann": 0, "Bob": 0, "Fay": 13})  # Ann and Bob tie
    play_transamerica(data, ["Ann", "Cy"], {"Ann": 13, "Cy": 0})  # Cy ahead of Ann
    play_transamerica(data, ["Ann", "Dee"], {"Ann": 13, "Dee": 0})  # Dee ahead of Ann
    play_transamerica(data, ["Ann", "Eve"], {"Ann": 13, "Eve": 0})  # Eve ahead of Ann
    async with app_screen(data) as screen:
        await open_stats(screen)
        assert (screen.text_of("h2h-ann-bob"), screen.text_of("h2h-bob-ann")) == ("0", "0")  # met, only tied
        assert (screen.text_of("h2h-bob-cy"), screen.text_of("h2h-cy-dee")) == ("–", "–")  # never at one table
        assert (screen.text_of("h2h-cy-ann"), screen.text_of("h2h-ann-cy")) == ("1", "0")
        assert screen.text_of("h2h-caption").endswith("(–: never at the same table).")
        await screen.tap("page-ann")
        assert screen.text_of("player-beaten-by") == "Finished behind most often: Cy, Dee and Eve (1 time each)"
        assert screen.text_of("player-most-met") == "Played most with: Bob, Cy, Dee, Eve and Fay (1 game each)"


@table
async def test_a_game_counted_in_zones_says_zones_per_game() -> None:
    data = memory_app()
    session = Session.new("great_plains", ["Ann", "Dee"])
    to_scoring(session)
    for first, second in ((5, 3), (2, 4), (1, 0)):
        session.apply({"type": "zone", "spaces": 10, "water": 2, "tokens": {"Ann": first, "Dee": second}})
    session.apply({"type": "scoring_done"})
    put(data.store, session, created=time.time() - 3600)
    async with app_screen(data) as screen:
        await open_stats(screen)
        await screen.tap("stats-game-great_plains")
        assert screen.text_of("stats-overview") == "1 game played · zones per game: 3"


@table
async def test_a_game_never_finished_and_a_period_with_no_games_say_so() -> None:
    data = memory_app()
    play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    async with app_screen(data) as screen:
        await open_stats(screen)
        await screen.tap("stats-game-heartland")
        assert screen.text_of("stats-none") == "No finished game here yet."
        await screen.tap("stats-game-all")
        await screen.tap("stats-period-last_year")  # the game was played today
        assert screen.text_of("stats-none") == "No finished game here yet."
        await screen.tap("stats-period-year")
        assert screen.text_of("stats-overview") == "1 game played"


@table
async def test_renaming_a_player_carries_their_history() -> None:
    data = memory_app()
    play_transamerica(data, ["Bob", "Ann"], {"Bob": 0, "Ann": 13})
    play_transamerica(data, ["Robert", "Ann"], {"Robert": 0, "Ann": 13})
    async with app_screen(data) as screen:
        await open_stats(screen)
        assert screen.text_of("stats-record-bob") == "1 played · 1 won (100%)"
        await screen.tap("rename-bob")
        await screen.type("rename-name", "Robert")
        await screen.tap("rename-confirm")
        assert notice(screen) == "Bob is now Robert; their games came along."
        assert not screen.exists("stats-record-bob")
        assert screen.text_of("stats-record-robert") == "2 played · 2 won (100%)"
        assert screen.text_of("stats-streak-robert") == "Winning streak now: 2 · longest: 2"


@table
async def test_a_rename_to_no_name_is_refused_in_words_and_changes_nothing() -> None:
    data = memory_app()
    play_transamerica(data, ["Bob", "Ann"], {"Bob": 0, "Ann": 13})
    async with app_screen(data) as screen:
        await open_stats(screen)
        await screen.tap("rename-bob")
        await screen.type("rename-name", "   ")
        await screen.tap("rename-confirm")
        assert notice(screen), "the sheet says why"
        assert screen.exists("rename-panel")
        await screen.tap("panel-close")
        assert screen.text_of("stats-record-bob") == "1 played · 1 won (100%)"


@table
async def test_statistics_in_french() -> None:
    data = memory_app()
    play_transamerica(data, ["Ann", "Bob"], {"Ann": 3, "Bob": 0}, {"Ann": 0, "Bob": 13})
    play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    async with app_screen(data) as screen:
        await screen.tap("settings")
        await screen.tap("language-fr")
        await screen.tap("back")
        await open_stats(screen)
        await screen.tap("stats-game-transamerica")
        assert screen.text_of("stats-record-ann") == f"2 jouées · 2 gagnées (100{NBSP}%)"
        assert screen.text_of("stats-scores-ann") == "Score moyen 11,5 · meilleur 13"


def test_periods_are_calendar_years_and_the_last_thirty_days() -> None:
    now = time.mktime((2026, 6, 15, 12, 0, 0, 0, 0, -1))
    since, until = period_range("last_year", now)
    assert (time.localtime(since)[:3], time.localtime(until)[:3]) == ((2025, 1, 1), (2026, 1, 1))
    assert period_range("year", now)[1] is None and time.localtime(period_range("year", now)[0])[:3] == (2026, 1, 1)
    assert period_range("month", now) == (now - 30 * 86400, None)
    assert period_range("all", now) == (None, None)
    assert (decimal(7.0, "en"), decimal(7.25, "fr")) == ("7", "7,3")  # a half away from zero (test_numbers)


@table
async def test_each_earlier_year_with_games_is_a_filter_of_its_own() -> None:
    data = memory_app()
    game_id = play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    _, archive = data.export("json")
    document = json.loads(archive)
    entry = document["sessions"][0]
    entry["created"] = time.mktime((2023, 7, 1, 20, 0, 0, 0, 0, -1))
    entry["updated"] = entry["finished"] = entry["created"] + 3600
    data.delete(game_id)
    assert data.import_archive(json.dumps(document).encode()).imported
    play_transamerica(data, ["Ann", "Cy"], {"Ann": 13, "Cy": 0})  # today
    async with app_screen(data) as screen:
        await open_stats(screen)
        assert screen.text_of("stats-overview") == "2 games played"
        await screen.tap("stats-period-2023")
        assert screen.text_of("stats-overview") == "1 game played"
        assert screen.text_of("stats-record-ann") == "1 played · 1 won (100%)"
        assert not screen.exists("stats-period-2024"), "no game was played in 2024"


def played_on(data: AppData, day: tuple[int, int, int], players: list[str], missing: dict[str, int]) -> None:
    """A finished TransAmerica game started at 20:00 on `day` (local time), through an import."""
    game_id = play_transamerica(data, players, missing)
    _, archive = data.export("json", [game_id])
    document = json.loads(archive)
    entry = document["sessions"][0]
    entry["created"] = time.mktime((*day, 20, 0, 0, 0, 0, -1))
    entry["updated"] = entry["finished"] = entry["created"] + 3600
    data.delete(game_id)
    assert data.import_archive(json.dumps(document).encode()).imported


async def pick_day(screen: Screen, end: str, day: str) -> None:
    """Tap From or to, and confirm `day` on the calendar that opens."""
    await screen.tap(f"stats-{end}")
    assert [type(dialog) for dialog in screen.dialogs] == [ft.DatePicker]
    await screen.event("stats-date-picker", "change", day, props={"value": f"{day}T00:00:00.000"})
    await screen.dismiss_dialog("stats-date-picker")  # confirming closes the calendar
    await screen.settle()


@table
async def test_a_date_range_from_one_day_to_another_counts_the_games_of_those_days() -> None:
    data = memory_app()
    played_on(data, (2023, 7, 1), ["Ann", "Bob"], {"Ann": 0, "Bob": 13})  # Ann wins
    played_on(data, (2023, 7, 3), ["Ann", "Cy"], {"Ann": 13, "Cy": 0})  # Cy wins, late on the last day
    play_transamerica(data, ["Ann", "Bob"], {"Ann": 13, "Bob": 0})  # today: Bob wins
    async with app_screen(data) as screen:
        await open_stats(screen)
        assert screen.text_of("stats-overview") == "3 games played"
        await pick_day(screen, "from", "2023-07-01")
        await pick_day(screen, "to", "2023-07-01")
        assert screen.text_of("stats-from") == "From 2023-07-01" and screen.text_of("stats-to") == "to 2023-07-01"
        assert screen.text_of("stats-overview") == "1 game played"
        assert screen.text_of("stats-record-ann") == "1 played · 1 won (100%)"
        assert not screen.exists("stats-record-cy")

        await pick_day(screen, "to", "2023-07-03")  # the last day is counted whole
        assert screen.text_of("stats-overview") == "2 games played"
        assert screen.text_of("stats-record-ann") == "2 played · 1 won (50%)"
        assert screen.text_of("stats-record-cy") == "1 played · 1 won (100%)"

        await pick_day(screen, "to", "2023-06-30")  # before the first day: refused in words
        assert notice(screen) == (
            "The last day, 2023-06-30, is before the first, 2023-07-01: pick a day on or after 2023-07-01."
        )
        assert screen.text_of("stats-to") == "to 2023-07-03"
        assert screen.text_of("stats-overview") == "2 games played"

        await screen.tap("stats-period-all")  # a preset period replaces the range
        assert screen.text_of("stats-overview") == "3 games played"
        assert screen.text_of("stats-from") == "From …"

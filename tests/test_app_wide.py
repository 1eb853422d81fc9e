"""A wide window (a desktop, a tablet): Home, New game, the statistics, a player's page and
a finished game's detail stand in columns side by side, and a sheet is a centred dialog of
its own width. Which layout a page gets depends on its width alone (the phone's below
`WIDE`), and a window resized across that line keeps what was shown and typed."""

from __future__ import annotations

import flet as ft
from app_helpers import add_players, make_main, memory_app, start_game, table
from flet_harness import Screen
from test_app_home import finish_transamerica
from test_app_stats import play_transamerica

from companion.app.data import AppData
from companion.app.widgets import WIDE

PHONE = (412, 915)
DESKTOP = (1280, 800)


def inside(screen: Screen, key: str, column: str) -> bool:
    """Whether the control `key` is drawn in the column `column` (and that column is one of the row's)."""
    row = screen.find("columns")
    found = screen.find(column)
    return found in row.controls and screen._inside(screen.find(key), found)  # noqa: SLF001


def columns(screen: Screen) -> list[str]:
    """The keys of the wide row's columns, left to right; none on a phone."""
    return [str(part.key) for part in screen.find("columns").controls] if screen.exists("columns") else []


def two_games(data: AppData) -> str:
    """One TransAmerica finished, one Great Plains in progress; the finished one's id."""
    finished = play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    data.close_session(data.new("great_plains", ["Léa", "Tom"], {}).id or "")
    return finished


@table
async def test_home_puts_games_in_progress_beside_finished_ones_from_the_wide_width_on() -> None:
    data = memory_app()
    finished = two_games(data)
    (going,) = [summary.id for summary in data.sessions() if summary.id != finished]
    async with Screen(make_main(data), width=WIDE, height=800) as screen:
        assert columns(screen) == ["home-in-progress", "home-finished"]
        assert inside(screen, f"session-{going}", "home-in-progress")
        assert inside(screen, f"session-{finished}", "home-finished")
        assert screen.exists("new-game")
        await screen.resize(WIDE - 1, 800)  # a phone's layout just below the line: one list
        assert columns(screen) == []
        assert screen.exists(f"session-{going}") and screen.exists(f"session-{finished}")
        assert screen.exists("body")


@table
async def test_home_keeps_each_list_on_its_side_when_a_search_empties_one() -> None:
    data = memory_app()
    play_transamerica(data, ["Kim", "Lou"], {"Kim": 0, "Lou": 13})
    for _ in range(5):  # enough games for the search field
        play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    data.close_session(data.new("great_plains", ["Léa", "Tom"], {}).id or "")
    async with Screen(make_main(data), width=1920, height=1080) as screen:
        assert columns(screen) == ["home-in-progress", "home-finished"]
        field = screen.find("search")._i  # noqa: SLF001  (the control the client draws, kept across redraws)
        await screen.type("search", "Kim")  # only a finished game matches
        assert columns(screen) == ["home-in-progress", "home-finished"]
        assert screen.text_of("home-in-progress") == "In progress"
        assert "Kim and Lou" in screen.text_of("home-finished")
        assert screen.find("search")._i == field, "the field typed in is the same control, where it was"  # noqa: SLF001
        await screen.type("search", "Zed")  # nothing matches
        assert columns(screen) == ["home-in-progress", "home-finished"]
        assert screen.exists("no-match")


@table
async def test_new_game_puts_the_players_beside_the_options_and_a_resize_keeps_the_draft() -> None:
    data = memory_app()
    async with Screen(make_main(data), width=DESKTOP[0], height=DESKTOP[1]) as screen:
        await screen.tap("new-game")
        await screen.tap("game-heartland")
        await add_players(screen, ["Ann", "Bob"])
        await screen.type("player-name", "Cy")  # typed, not added yet
        assert columns(screen) == ["body", "new-options"]
        assert inside(screen, "player-ann", "body") and inside(screen, "game-heartland", "body")
        assert inside(screen, "target-rulebook", "new-options")
        await screen.resize(*PHONE)
        assert columns(screen) == []
        assert screen.find("player-name").value == "Cy"
        assert screen.exists("player-ann") and screen.exists("player-bob")
        await screen.resize(1920, 1080)
        assert columns(screen) == ["body", "new-options"]
        assert screen.find("player-name").value == "Cy"
        await screen.tap("add-player")
        await screen.tap("start")
        assert [summary.players for summary in data.sessions()] == [("Ann", "Bob", "Cy")]


@table
async def test_statistics_and_a_players_page_stand_in_columns() -> None:
    data = memory_app()
    play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    async with Screen(make_main(data), width=DESKTOP[0], height=DESKTOP[1]) as screen:
        await screen.tap("stats")
        assert columns(screen) == ["body", "stats-cards"]
        assert inside(screen, "stats-games", "body") and inside(screen, "stats-overview", "body")
        assert inside(screen, "stats-record-ann", "stats-cards")
        await screen.tap("page-ann")
        assert columns(screen) == ["body", "player-games"]
        assert inside(screen, "player-record", "body")
        assert inside(screen, "player-block-transamerica", "player-games")
        await screen.resize(*PHONE)
        assert columns(screen) == []
        assert screen.exists("player-record") and screen.exists("player-block-transamerica")


@table
async def test_a_finished_games_result_chart_and_log_stand_side_by_side() -> None:
    data = memory_app()
    async with Screen(make_main(data), width=1920, height=1080) as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob"])
        await finish_transamerica(screen, "Bob")
        await screen.tap("back")
        (game_id,) = [summary.id for summary in data.finished()]
        await screen.tap(f"session-{game_id}")
        assert columns(screen) == ["body", "detail-chart-column", "detail-log"]
        assert inside(screen, "winner", "body")
        assert inside(screen, "chart-box", "detail-chart-column")
        assert inside(screen, "bgstats", "detail-chart-column")
        assert inside(screen, "detail-log-1", "detail-log")


@table
async def test_a_sheet_is_a_centred_dialog_of_its_own_width_in_a_wide_window() -> None:
    async with Screen(make_main(memory_app()), width=1920, height=1080) as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob"])
        await screen.tap("end-round")
        (dialog,) = screen.dialogs
        assert dialog.alignment == ft.Alignment.CENTER
        assert dialog.content.width == 600
        assert dialog.content.height <= 560  # a dialog, not a wall down the whole window
        await screen.type("missing-bob-typed", "5")
        await screen.resize(*PHONE)  # the sheet as a phone has it, with what was typed
        (dialog,) = screen.dialogs
        assert dialog.alignment == ft.Alignment.TOP_CENTER
        assert dialog.content.width == PHONE[0] - 2 * 8 - 2 * 16
        assert screen.find("missing-bob-typed").value == "5"

"""A phone set to a large text size (or a browser whose font size was raised): the page measures
it (an invisible line in the overlay, shell.text_probe) and every box that holds words grows with
it, so a line at 200 % is not cut by a box sized for 100 %. (Chromium at 200 %:
tests/e2e/test_text_size_e2e.py.)"""

from __future__ import annotations

import flet as ft
from app_helpers import app_screen, start_game, table
from flet_harness import Screen

from companion.app.widgets import BUTTON_HEIGHT, NOTICE_HEIGHT, STRIP_HEIGHT, TARGET


async def measured(screen: Screen, scale: float) -> None:
    """The probe's line (100 px at 100 %) laid out at `scale` times its size, as Flutter reports it."""
    await screen.event("probe", "size_change", {"w": 87.5 * scale, "h": 100.0 * scale})  # as the client sends it


def heights(screen: Screen) -> dict[str, float]:
    return {key: screen.find(key).height for key in ("end-round", "notice-slot", "undo-strip", "turn-line", "top-bar")}


AT_100 = {
    "end-round": BUTTON_HEIGHT,
    "notice-slot": NOTICE_HEIGHT,
    "undo-strip": STRIP_HEIGHT,
    "turn-line": TARGET,
    "top-bar": TARGET,
}


@table
async def test_at_200_percent_text_the_boxes_that_hold_words_are_twice_as_tall_and_come_back() -> None:
    async with app_screen() as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob"])
        assert heights(screen) == AT_100
        assert screen.find("subtitle").max_lines == 1
        assert screen.find("last-act").max_lines == 3 and not screen.exists("last-act-scroll")
        await measured(screen, 2.0)
        assert heights(screen) == {
            "end-round": 2 * BUTTON_HEIGHT,
            "notice-slot": 2 * NOTICE_HEIGHT,
            "undo-strip": 2 * STRIP_HEIGHT,
            "turn-line": 3 * TARGET,  # whose turn in up to three lines beside the clock
            "top-bar": 2 * TARGET,
        }
        assert screen.find("subtitle").max_lines == 3
        # The last act whole, scrolling inside its strip (three lines held half a sentence).
        assert screen.find("last-act").max_lines is None and screen.exists("last-act-scroll")
        assert screen.find("clock").height == 2 * 48
        await screen.tap("end-round")  # a sheet: its buttons and its refusal slot grow too
        assert screen.find("panel-close").height == 2 * TARGET
        assert screen.find("sheet-notice").height == 2 * 60
        await screen.tap("panel-close")
        await measured(screen, 1.0)  # the text size set back
        assert heights(screen) == AT_100


@table
async def test_a_smaller_text_keeps_the_designed_sizes_and_a_wobble_changes_nothing() -> None:
    async with app_screen() as screen:
        await start_game(screen, "great_plains", ["Ann", "Bob"])
        await measured(screen, 0.85)  # a phone set to small text: the 48 px targets stay
        assert screen.find("turn-area").height == 160
        await measured(screen, 1.5)
        assert screen.find("turn-area").height == 240
        await measured(screen, 1.52)  # a sub-pixel difference (a font loading): the same size, nothing moves
        assert screen.find("turn-area").height == 240


@table
async def test_nobody_sees_or_hears_the_probe_and_home_keeps_its_name_on_one_line() -> None:
    async with app_screen() as screen:
        await measured(screen, 2.0)
        assert "M" not in screen.texts()
        assert screen.texts()[0] == "Companion"
        (title,) = [text for text in screen.find_all(type=ft.Text) if text.value == "Companion"]
        assert title.size == 17  # 24 at 100 %: it broke as "Companio / n" at 200 %


@table
async def test_at_200_percent_a_heartland_card_gives_its_lines_room_and_its_money_grows_less() -> None:
    async with app_screen() as screen:
        await start_game(screen, "heartland", ["Bernadette", "Maximilian"])
        assert (screen.find("card-bernadette").height, screen.find("money-bernadette").size) == (64, 36)
        assert screen.find("target").max_lines == 1
        await measured(screen, 2.0)
        # Half as tall again as twice: the cargo and the cubes a line each, "playing now" under the name.
        assert screen.find("card-bernadette").height == 64 * 2 * 1.5
        assert screen.find("money-bernadette").size == 25  # 36 / √2: "$999" leaves the name its room
        assert screen.find("card-money-bernadette").width == 136  # 96 · √2
        assert screen.find("target").max_lines == 2


@table
async def test_at_200_percent_the_great_plains_panels_take_two_lines_a_line() -> None:
    async with app_screen() as screen:
        await start_game(screen, "great_plains", ["Ann", "Bob"])
        lines = [text.max_lines for text in screen.find("tribe-fox").content.controls[:2]]
        assert lines == [1, 1]
        await measured(screen, 2.0)
        lines = [text.max_lines for text in screen.find("tribe-fox").content.controls[:2]]
        assert lines == [2, 2]  # "Playing: Fox" and the player's name, whole

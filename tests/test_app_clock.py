"""The table clock on the game screen: it shows the playing time, one tap pauses it ("pizza"),
the pause is still there after a restart, and Undo after the pause takes back the last move."""

from __future__ import annotations

from pathlib import Path

from app_helpers import app_screen, start_game, table
from clock_helpers import SetClock, clock_set
from test_app_transamerica import end_round

from companion.app.clock_chip import chip_words
from companion.app.data import AppData
from companion.store import Store

MINUTE = 60.0


@table
async def test_the_clock_shows_the_playing_time_pauses_and_stays_paused_after_a_restart(tmp_path: Path) -> None:
    with clock_set(SetClock()) as now:
        async with app_screen(AppData(Store(tmp_path))) as screen:
            await start_game(screen, "transamerica", ["Ann", "Bob"])
            assert screen.text_of("clock") == "0 min" and "Tap to pause" in screen.find("clock").tooltip
            now.wait(17 * MINUTE)
            await end_round(screen, {"Bob": 4})  # any redraw shows the time so far
            assert screen.text_of("clock") == "17 min"
            await screen.tap("clock")  # pizza
            assert screen.find("clock").tooltip.startswith("The clock is paused at 0 h 17 min")
            assert "The clock is paused" in screen.text_of("last-act")
            now.wait(45 * MINUTE)
        # The server restarts during the pizza: the game comes back paused at 0:17.
        async with app_screen(AppData(Store(tmp_path))) as screen:
            assert screen.text_of("clock") == "17 min" and screen.find("clock").tooltip.startswith(
                "The clock is paused"
            )
            undo_tip = screen.find("undo").tooltip
            await screen.tap("undo")  # the last move, not the pause, is taken back
            assert "Round 1" in undo_tip and screen.text_of("clock") == "17 min"
            assert "The clock is paused" in screen.text_of("last-act")
            await screen.tap("clock")
            now.wait(3 * MINUTE)
            await screen.tap("redo")
            assert screen.text_of("clock") == "20 min" and "Tap to pause" in screen.find("clock").tooltip


@table
async def test_the_clock_reads_minutes_then_hours_the_same_on_every_game_screen_and_language() -> None:
    # "0:01" read as one second: the chip says "1 min", and past the hour "1 h 05".
    for game, players in (
        ("heartland", ["Ann", "Bob"]),
        ("transamerica", ["Ann", "Bob"]),
        ("great_plains", ["Ann", "Bob"]),
    ):
        with clock_set(SetClock()) as now:
            async with app_screen() as screen:
                await start_game(screen, game, players)
                now.wait(1 * MINUTE)
                await screen.tap("clock")  # paused: the chip is drawn with the time so far
                assert screen.text_of("clock") == "1 min", game
                await screen.tap("clock")
                now.wait(64 * MINUTE)
                await screen.tap("clock")
                assert screen.text_of("clock") == "1 h 05", game
                assert screen.find("clock").tooltip.startswith("The clock is paused at 1 h 5 min")


def test_the_chip_says_the_same_in_french_and_spanish() -> None:
    assert [chip_words(seconds, "fr") for seconds in (0, 60, 3900, 36_000 + 59 * 60)] == [
        "0 min",
        "1 min",
        "1 h 05",
        "10 h 59",
    ]
    # Rounded as every screen rounds (test_numbers): 29 s is 0 min, 30 s already 1.
    assert [chip_words(seconds, "es") for seconds in (29, 30, 60, 3900)] == ["0 min", "1 min", "1 min", "1 h 05"]

"""The table clock on the game screen: it shows the playing time, one tap pauses it ("pizza"),
the pause is still there after a restart, and Undo after the pause takes back the last move."""

from __future__ import annotations

from pathlib import Path

from app_helpers import app_screen, start_game, table
from clock_helpers import SetClock, clock_set
from test_app_transamerica import end_round

from companion.app.data import AppData
from companion.store import Store

MINUTE = 60.0


@table
async def test_the_clock_shows_the_playing_time_pauses_and_stays_paused_after_a_restart(tmp_path: Path) -> None:
    with clock_set(SetClock()) as now:
        async with app_screen(AppData(Store(tmp_path))) as screen:
            await start_game(screen, "transamerica", ["Ann", "Bob"])
            assert screen.text_of("clock") == "0:00" and "Tap to pause" in screen.find("clock").tooltip
            now.wait(17 * MINUTE)
            await end_round(screen, {"Bob": 4})  # any redraw shows the time so far
            assert screen.text_of("clock") == "0:17"
            await screen.tap("clock")  # pizza
            assert screen.find("clock").tooltip.startswith("The clock is paused at 0 h 17 min")
            assert "The clock is paused" in screen.text_of("last-act")
            now.wait(45 * MINUTE)
        # The server restarts during the pizza: the game comes back paused at 0:17.
        async with app_screen(AppData(Store(tmp_path))) as screen:
            assert screen.text_of("clock") == "0:17" and screen.find("clock").tooltip.startswith(
                "The clock is paused")
            undo_tip = screen.find("undo").tooltip
            await screen.tap("undo")  # the last move, not the pause, is taken back
            assert "Round 1" in undo_tip and screen.text_of("clock") == "0:17"
            assert "The clock is paused" in screen.text_of("last-act")
            await screen.tap("clock")
            now.wait(3 * MINUTE)
            await screen.tap("redo")
            assert screen.text_of("clock") == "0:20" and "Tap to pause" in screen.find("clock").tooltip

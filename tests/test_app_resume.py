"""Every tap is on disk before the screen changes: a restart (or a kill) lands on the same
screen with the same state, the same undo and redo."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path
from typing import Any

import flet as ft
from app_helpers import app_screen, exported, memory_app, notice, start_game, table
from flet.messaging.protocol import Message, MessageAction
from flet.pubsub.pubsub_hub import PubSubHub
from flet_harness import Screen, wait_for
from store_helpers import copy_as_killed

from companion.app.data import AppData
from companion.app.main import make_main
from companion.store import Store


def view(screen: Screen) -> dict[str, Any]:
    """What a player sees, and whether Undo/Redo can be tapped (and what they would undo)."""
    seen: dict[str, Any] = {"texts": screen.texts()}
    if screen.exists("undo"):
        seen["undo"] = (screen.is_disabled("undo"), screen.find("undo").tooltip)
        seen["redo"] = (screen.is_disabled("redo"), screen.find("redo").tooltip)
    return seen


def reopen(directory: Path) -> AppData:
    return AppData(Store(directory))


_kills = itertools.count()


async def view_after_kill(directory: Path, scratch: Path) -> dict[str, Any]:
    """Copy the data folder as it is on disk right now (a process killed at this instant
    leaves exactly that) and start a fresh app on the copy."""
    copy = scratch / f"killed-{next(_kills)}"
    copy_as_killed(directory, copy)
    async with app_screen(reopen(copy)) as screen:
        return view(screen)


async def tap_killed_as_the_screen_changes(screen: Screen, key: str, directory: Path, scratch: Path) -> Path:
    """Tap, and copy the data folder at the instant the first patch of the new screen is
    sent: what a kill right then would leave on disk."""
    copy = scratch / f"killed-{next(_kills)}"
    send = screen.conn.send_message

    def send_and_copy(message: Message) -> None:
        if message.action == MessageAction.PATCH_CONTROL and not copy.exists():
            copy_as_killed(directory, copy)
        send(message)

    screen.conn.send_message = send_and_copy  # type: ignore[method-assign]
    try:
        await screen.tap(key)
    finally:
        del screen.conn.send_message
    assert copy.exists(), f"tapping {key!r} sent no patch"
    return copy


@table
async def test_reopening_lands_on_the_same_game_with_the_same_undo_and_redo(tmp_path: Path) -> None:
    async with app_screen(reopen(tmp_path)) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob", "Cy"])
        await screen.tap("move-cash-2")
        await screen.tap("load")
        await screen.tap("load-cattle-3")
        await screen.tap("undo")
        before = view(screen)
        assert before["undo"] == (False, "Undo: Ann moved 2 spaces for $2")
        assert before["redo"] == (False, "Redo: Ann loaded 3 cattle")

    async with app_screen(reopen(tmp_path)) as screen:
        assert view(screen) == before
        await screen.tap("redo")
        assert screen.text_of("cargo-ann") == "3 cattle"
        await screen.tap("end-turn")
        assert screen.text_of("subtitle") == "Round 1 · Bob's turn"

    async with app_screen(reopen(tmp_path)) as screen:
        assert screen.text_of("subtitle") == "Round 1 · Bob's turn"
        assert screen.text_of("last-act") == "Last: Ann ended the turn; Bob plays"
        assert screen.is_disabled("redo")


@table
async def test_every_tap_is_on_disk_before_the_screen_changes(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    async with app_screen(reopen(data_dir)) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        for key in ("move-cash-2", "undo", "redo", "discard", "end-turn", "tow", "undo-last"):
            copy = await tap_killed_as_the_screen_changes(screen, key, data_dir, tmp_path)
            async with app_screen(reopen(copy)) as restarted:
                assert view(restarted) == view(screen), key


@table
async def test_a_kill_after_any_tap_loses_nothing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    async with app_screen(reopen(data_dir)) as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob", "Eve"])
        assert await view_after_kill(data_dir, tmp_path) == view(screen)
        await screen.tap("end-round")
        await screen.tap("missing-bob-2")
        await screen.tap("save-round")
        assert await view_after_kill(data_dir, tmp_path) == view(screen)
        await screen.tap("undo")
        assert await view_after_kill(data_dir, tmp_path) == view(screen)
        await screen.tap("redo")
        assert await view_after_kill(data_dir, tmp_path) == view(screen)

        await screen.tap("back")
        await start_game(screen, "great_plains", ["Léa", "Tom"])
        for key in ("place-cave", "place-cave", "undo", "place-cave"):
            await screen.tap(key)
            assert await view_after_kill(data_dir, tmp_path) == view(screen), key


@table
async def test_a_refusal_is_not_kept_and_the_open_sheet_reopens(tmp_path: Path) -> None:
    async with app_screen(reopen(tmp_path)) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("move-cash-1")
        await screen.tap("move-cash-1")  # refused: already moved
        assert notice(screen) == "Ann has already moved this turn."
        await screen.tap("load")
        saved = view(screen)
    async with app_screen(reopen(tmp_path)) as screen:
        # Same game, same state, the same sheet open; the refusal is not kept.
        assert notice(screen) is None and screen.text_of("panel-title") == "Load · Ann"
        assert screen.text_of("money-ann") == "$4"
        assert (view(screen)["undo"], view(screen)["redo"]) == (saved["undo"], saved["redo"])


@table
async def test_a_finished_game_reopens_finished(tmp_path: Path) -> None:
    async with app_screen(reopen(tmp_path)) as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob"])
        await screen.tap("end-round")
        await screen.type("missing-bob-typed", "14")
        await screen.tap("save-round")
        before = view(screen)
    async with app_screen(reopen(tmp_path)) as screen:
        assert view(screen) == before
        assert screen.text_of("winner") == "Ann wins with 13 points"


@table
async def test_going_home_then_restarting_lands_on_home(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    async with app_screen(reopen(data_dir)) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("move-fuel-1")
        await screen.tap("back")
        assert await view_after_kill(data_dir, tmp_path) == view(screen)
    async with app_screen(reopen(data_dir)) as screen:
        assert screen.exists("new-game") and not screen.exists("subtitle")
        (summary,) = reopen_summaries(data_dir)
        assert screen.text_of(f"status-{summary.id}") == "Ann's turn · $5 / $50"
        await screen.tap(f"session-{summary.id}")
        assert screen.text_of("last-act") == "Last: Ann moved 1 space with fuel"


def reopen_summaries(directory: Path) -> list[Any]:
    return list(Store(directory).sessions())


@table
async def test_delete_with_confirmation_survives_a_restart(tmp_path: Path) -> None:
    async with app_screen(reopen(tmp_path)) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("back")
        await start_game(screen, "great_plains", ["Léa", "Tom"])
        await screen.tap("back")
        ids = {summary.game: summary.id for summary in reopen_summaries(tmp_path)}
        await screen.tap(f"delete-{ids['heartland']}")
        await screen.tap(f"keep-{ids['heartland']}")
        await screen.tap(f"delete-{ids['great_plains']}")
        await screen.tap(f"confirm-delete-{ids['great_plains']}")
        assert notice(screen) == "The game was deleted."
    async with app_screen(reopen(tmp_path)) as screen:
        assert screen.exists(f"session-{ids['heartland']}")
        assert not screen.exists(f"session-{ids['great_plains']}")


@table
async def test_the_last_game_deleted_elsewhere_lands_on_home(tmp_path: Path) -> None:
    async with app_screen(reopen(tmp_path)) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
    (summary,) = reopen_summaries(tmp_path)
    with Store(tmp_path) as other:
        other.delete(summary.id)
    async with app_screen(reopen(tmp_path)) as screen:
        assert screen.exists("empty")


@table
async def test_a_last_game_damaged_since_lands_on_home_saying_so(tmp_path: Path) -> None:
    async with app_screen(reopen(tmp_path)) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("move-fuel-1")
    (summary,) = reopen_summaries(tmp_path)
    (tmp_path / "sessions" / f"{summary.id}.json").write_bytes(b'{"session": {"1": {"events": [')
    async with app_screen(reopen(tmp_path)) as screen:
        assert screen.exists("new-game")
        assert screen.text_of("quarantined").startswith("1 saved game file could not be read and was set aside")
        assert not screen.exists(f"session-{summary.id}")


@table
async def test_a_last_game_open_in_another_window_lands_on_home_saying_so(tmp_path: Path) -> None:
    async with app_screen(reopen(tmp_path)) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
    (summary,) = reopen_summaries(tmp_path)
    with Store(tmp_path) as other:
        other.open(summary.id)
        async with app_screen(reopen(tmp_path)) as screen:
            assert notice(screen) == "This game is open in another window. Close it there first."
            assert screen.exists(f"session-{summary.id}")


@table
async def test_two_tabs_on_one_game_both_follow_every_tap() -> None:
    hub = PubSubHub(loop=asyncio.get_running_loop())
    data = memory_app()
    session = data.new("heartland", ["Ann", "Bob"], {})
    data.close_session(session.id or "")
    async with Screen(make_main(data), pubsub=hub) as first, Screen(make_main(data), pubsub=hub) as second:
        for tab in (first, second):
            await tab.tap(f"session-{session.id}")
        before = len(second.conn.messages)
        await first.tap("move-cash-2")
        await wait_for(lambda: second.text_of("money-ann") == "$3")
        # The second tab's redraw goes out on its own connection, not the tapping tab's.
        assert any(m.action == MessageAction.PATCH_CONTROL for m in second.conn.messages[before:])
        assert second.text_of("last-act") == "Last: Ann moved 2 spaces for $2"
        await second.settle()  # the browser has answered since the redraw: the new screen counts as seen
        await second.tap("undo")
        await wait_for(lambda: first.text_of("money-ann") == "$5")


# --- after the game: a sleeping phone comes back to the detail, the statistics, the Your-games sheet ----


def finished_game(directory: Path, *rounds: dict[str, int]) -> str:
    """A TransAmerica game Ann and Bob finished, saved in `directory` (Bob missed all 13 by default)."""
    from test_app_stats import play_transamerica

    return play_transamerica(reopen(directory), ["Ann", "Bob"], *(rounds or ({"Ann": 0, "Bob": 13},)))


@table
async def test_a_restart_on_a_finished_games_detail_comes_back_to_it(tmp_path: Path) -> None:
    game_id = finished_game(tmp_path, {"Ann": 3, "Bob": 0}, {"Ann": 0, "Bob": 13})
    async with app_screen(reopen(tmp_path)) as screen:
        await screen.tap(f"session-{game_id}")
        assert screen.exists("detail-actions")
        before = screen.texts()

    async with app_screen(reopen(tmp_path)) as screen:
        assert screen.exists("detail-actions") and screen.exists("detail-log-1")
        assert screen.texts() == before
        await screen.tap("back")
    async with app_screen(reopen(tmp_path)) as screen:  # Back to Home is where it stays
        assert not screen.exists("detail-actions") and screen.exists(f"session-{game_id}")


@table
async def test_a_restart_on_a_deleted_games_detail_lands_on_home(tmp_path: Path) -> None:
    game_id = finished_game(tmp_path)
    data = reopen(tmp_path)
    async with app_screen(data) as screen:
        await screen.tap(f"session-{game_id}")
    data.delete(game_id)
    async with app_screen(reopen(tmp_path)) as screen:
        assert not screen.exists("detail-actions") and not screen.exists(f"session-{game_id}")


@contextlib.asynccontextmanager
async def restarted_after(directory: Path, *keys: str) -> AsyncIterator[tuple[Screen, list[str]]]:
    """A finished game; Home, these taps, then a restart: the new screen, and the texts seen before it."""
    finished_game(directory)
    async with app_screen(reopen(directory)) as screen:
        for key in keys:
            await (exported(screen, key) if key.startswith("export-") else screen.tap(key))
        before = screen.texts()
    async with app_screen(reopen(directory)) as screen:
        yield screen, before


@table
async def test_a_restart_on_the_statistics_keeps_the_chosen_filters(tmp_path: Path) -> None:
    async with restarted_after(tmp_path, "stats", "stats-game-transamerica", "stats-period-year") as (screen, before):
        assert screen.exists("stats-screen")
        assert screen.texts() == before
        assert screen.find("stats-game-transamerica").icon == ft.Icons.CHECK_CIRCLE  # ticked: the chosen filter
        assert screen.find("stats-game-all").icon == ft.Icons.RADIO_BUTTON_UNCHECKED  # a ring: not chosen
        assert screen.find("stats-period-year").icon == ft.Icons.CHECK_CIRCLE


@table
async def test_a_restart_with_the_your_games_sheet_open_shows_it_as_it_was(tmp_path: Path) -> None:
    async with restarted_after(tmp_path, "archive", "export-json") as (screen, before):
        assert screen.exists("archive-panel")
        assert screen.text_of("export-saved").startswith("Saved in ") and screen.text_of("export-saved") in before
        await screen.tap("panel-close")
    async with app_screen(reopen(tmp_path)) as screen:
        assert not screen.exists("archive-panel")


def test_a_ui_state_file_from_before_screens_were_kept_reads_as_it_did() -> None:
    import json as json_module

    from companion.app.ui_state import UI_STATE_FILE, UiStateFile
    from companion.store.storage import MemoryFolder

    folder = MemoryFolder()
    folder.write(
        UI_STATE_FILE,
        json_module.dumps(
            {"open_session": None, "panel": "archive", "draft": {"a": 1}, "habits": {"corn": 3}}
        ).encode(),
    )
    state = UiStateFile(folder)
    assert state.last_view() == (None, None, {})  # a sheet with no game and no screen: home, as before
    assert state.last_screen() == {} and state.habits() == {"corn": 3}
    assert state.remember_view(None, "archive", {"saved": "x"}, {"name": "stats", "game": None})
    assert state.last_view() == (None, "archive", {"saved": "x"})
    assert state.last_screen() == {"name": "stats", "game": None} and state.habits() == {"corn": 3}
    assert state.remember_view("abc", "log", {}, {"name": "stats"})  # an open game wins over a screen
    assert state.last_screen() == {} and state.last_view() == ("abc", "log", {})


@table
async def test_a_restart_keeps_the_date_range_picked(tmp_path: Path) -> None:
    from test_app_stats import pick_day

    finished_game(tmp_path)
    today = date.today().isoformat()
    async with app_screen(reopen(tmp_path)) as screen:
        await screen.tap("stats")
        await pick_day(screen, "from", today)
        await pick_day(screen, "to", today)
        before = screen.texts()
    async with app_screen(reopen(tmp_path)) as screen:
        assert screen.texts() == before
        assert screen.text_of("stats-from") == f"From {today}" and screen.text_of("stats-overview") == "1 game played"

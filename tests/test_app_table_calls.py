"""What the table decides: record anyway, stop a game, fix the cargo, draw the first player."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest
from app_helpers import app_screen, last_act, memory_app, notice, playing, set_up, table

from companion.app.inputs import is_filled
from companion.app.screens import great_plains

AGAINST = " — recorded against the rule: "


@table
async def test_record_anyway_is_one_more_tap_beside_the_reason_and_never_the_default() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        assert not screen.is_visible("record-anyway")
        await screen.tap("move-fuel-1")
        await screen.tap("end-turn")  # no action this turn: the table's call
        assert (notice(screen) or "").startswith("Ann has not loaded, unloaded or discarded this turn")
        anyway = screen.find("record-anyway")
        assert screen.is_visible("record-anyway") and isinstance(anyway, ft.OutlinedButton)
        assert anyway.parent is screen.find("notice").parent.parent  # in the notice's row, next to its reason
        assert last_act(screen) == "Last: Ann moved 1 space with fuel"  # nothing recorded yet
        await screen.tap("record-anyway")
        assert last_act(screen).startswith("Last: Ann ended the turn; Bob plays" + AGAINST)
        assert notice(screen) is None and not screen.is_visible("record-anyway")


@table
async def test_a_fact_is_refused_without_record_anyway() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        await screen.tap("move-cash-3")
        await screen.tap("discard")
        await screen.tap("end-turn")
        await screen.tap("move-fuel-1")
        await screen.tap("end-turn")
        await screen.tap("record-anyway")
        await screen.tap("move-cash-3")  # Ann has $1: money is a fact, not the table's call
        assert notice(screen) == "Ann has $1 and cannot pay $3 to move 3 spaces; pay with fuel, or be towed."
        assert not screen.is_visible("record-anyway")


@table
async def test_the_table_stops_a_game_from_the_log_and_undo_reopens_it() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        await screen.tap("move-cash-2")
        await screen.tap("log")
        await screen.tap("stop-game")
        assert screen.text_of("panel-title") == "Stop the game?"
        await screen.type("stop-note", "the pizza came")
        await screen.tap("stop-confirm")
        assert screen.text_of("subtitle") == "Game over"
        assert screen.text_of("stopped") == "Stopped early: the pizza came"
        assert screen.text_of("rank-bob") == "1st Bob — winner" and screen.text_of("final-ann") == "$3"
        assert last_act(screen) == "Last: The game was stopped: the pizza came"
        assert screen.exists("play-again")
        await screen.tap("undo")
        assert screen.text_of("subtitle") == "Round 1 · Ann's turn" and not screen.exists("stopped")


@table
async def test_a_stopped_transamerica_game_ranks_the_points_left() -> None:
    async with playing("transamerica", ["Ann", "Bob", "Cy"]) as screen:
        await screen.tap("end-round")
        await screen.tap("missing-bob-5")
        await screen.tap("save-round")
        await screen.tap("log")
        await screen.tap("stop-game")
        await screen.tap("stop-confirm")
        assert screen.text_of("stopped") == "Stopped early: stopped by the table"
        ranks = [c.value for c in screen.find_all(where=lambda c: str(c.key or "").startswith("rank-"))]
        assert ranks == ["1st Ann", "1st Cy", "3rd Bob"]
        assert [screen.text_of(f"points-{p}") for p in ("ann", "cy", "bob")] == ["13", "13", "8"]


@table
async def test_a_missed_load_is_fixed_in_three_taps_without_undoing_what_came_after() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        await screen.tap("move-fuel-1")
        await screen.tap("discard")
        taps = 0
        for key in ("correct-cargo-ann", "cargo-corn-3", "cargo-save"):
            await screen.tap(key)
            taps += 1
        assert taps == 3
        assert screen.text_of("cargo-ann") == "3 corn"
        assert last_act(screen) == "Last: Ann +3 corn on the truck (correction), now 3 corn"
        assert screen.text_of("money-ann") == "$4"  # the discard before it still stands


@table
async def test_a_cargo_correction_over_capacity_is_the_tables_call() -> None:
    async with playing("heartland", ["Ann", "Bob"], switches=["short_haul"]) as screen:
        await screen.tap("correct-cargo-ann")
        await screen.tap("cargo-pigs-4")
        await screen.tap("cargo-save")
        await screen.tap("correct-cargo-ann")
        await screen.tap("cargo-corn-3")
        await screen.tap("cargo-save")
        assert "6" in (notice(screen) or "") and screen.exists("cargo-panel")  # said in the sheet
        (said,) = [c for c in screen.find_all("notice") if c.value]  # the sheet's: whole, scrolling in its slot
        assert said.max_lines is None and said.parent.scroll is not None
        await screen.tap("record-anyway")
        assert screen.text_of("cubes-ann") == "7/6 cubes"
        assert AGAINST in last_act(screen)


@table
async def test_great_plains_first_player_drawn_at_random_apart_from_the_fox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(great_plains.random, "choice", lambda players: players[-1])  # the draw falls on Tom
    async with app_screen() as screen:
        await set_up(screen, "great_plains", ["Léa", "Tom"])
        assert is_filled(screen.find("first-léa"))  # the first listed, until drawn
        await screen.tap("first-random")
        assert is_filled(screen.find("first-tom"))
        await screen.tap("start")
        assert screen.text_of("subtitle") == "Snake's turn (Tom) · cave"
        assert "Léa" in screen.text_of("tribe-fox")  # still the Fox


@table
async def test_home_lists_a_game_being_scored_as_scoring() -> None:
    data = memory_app()
    plains = data.new("great_plains", ["Léa", "Tom"], {})
    events: list[dict[str, Any]] = [{"type": "place_cave", "player": p} for _ in range(3) for p in ("Léa", "Tom")]
    events += [{"type": "place_token", "player": p} for _ in range(20) for p in ("Léa", "Tom")]
    events.append({"type": "zone", "spaces": 6, "water": 1, "tokens": {"Léa": 3, "Tom": 2}})
    for event in events:
        plains.apply(event)
    data.close_session(plains.id or "")
    data.remember_screen(None)
    async with app_screen(data) as screen:
        assert screen.text_of(f"status-{plains.id}") == "Scoring the prairies · Léa 7 · Tom 0"
        assert "In progress" in screen.texts()

"""The TransAmerica screen: the 13-point countdown and the end-of-round sheet."""

from __future__ import annotations

import asyncio

import pytest
from app_helpers import last_act, log_lines, notice, pick_count, playing, redo_tip, refused, table, undo_tip
from flet_harness import Screen

from companion.app.inputs import is_filled

PLAYERS = ["Ann", "Bob", "Eve"]


async def end_round(screen: Screen, missing: dict[str, int]) -> int:
    """Open the sheet, tap each player's missing count (typed past 12), save; the taps it took."""
    taps = 1
    await screen.tap("end-round")
    for player, count in missing.items():
        if count:
            taps += await pick_count(screen, f"missing-{player.lower()}", count)
    await screen.tap("save-round")
    assert notice(screen) is None, notice(screen)
    return taps + 1


def standings(screen: Screen) -> list[tuple[str, str]]:
    """The end screen's rows: each player's rank and points, best first."""
    ranks = [c for c in screen.find_all(where=lambda c: str(c.key or "").startswith("rank-"))]
    return [(rank.value, screen.text_of(f"points-{str(rank.key)[5:]}")) for rank in ranks]


@table
async def test_the_countdown_before_any_round() -> None:
    async with playing("transamerica", PLAYERS) as screen:
        assert screen.text_of("subtitle") == "Round 1 · Ann starts"
        assert screen.text_of("starter") == "Round 1 starts with Ann."
        assert "No round played yet." in screen.texts()
        for player in ("ann", "bob", "eve"):
            assert screen.text_of(f"points-{player}") == "13"
            assert screen.text_of(f"warn-{player}") == ""
        assert screen.text_of("end-round") == "End round 1"
        assert last_act(screen) == "Nothing recorded yet."


@table
async def test_end_round_sheet_chips_a_typed_count_and_connected_all() -> None:
    async with playing("transamerica", PLAYERS) as screen:
        await screen.tap("end-round")
        assert screen.text_of("panel-title") == "End of round 1"
        assert screen.in_top_dialog("end-round-panel")  # a sheet over the screen
        assert screen.text_of("after-bob") == "13 to 13"
        assert is_filled(screen.find("missing-bob-0"))  # nothing missing until told

        await screen.tap("missing-bob-3")  # one tap for the count (a hard segment counts 2)
        assert is_filled(screen.find("missing-bob-3"))
        assert screen.find("missing-bob-typed").value == "3"
        assert screen.text_of("after-bob") == "13 to 10"
        await screen.tap("missing-bob-12")  # the chips reach 12
        assert screen.text_of("after-bob") == "13 to 1"
        await screen.type("missing-bob-typed", "14")  # further off still: typed on the number pad
        assert screen.text_of("after-bob") == "13 to -1"
        await screen.tap("missing-bob-2")
        assert screen.text_of("after-bob") == "13 to 11"
        await screen.tap("missing-ann-1")
        await screen.tap("missing-eve-4")
        assert screen.text_of("after-eve") == "13 to 9"

        why = "Someone must have 0 segments missing: a round ends when a player's cities are all connected."
        assert await refused(screen, "save-round") == why
        assert screen.exists("end-round-panel")  # the entries are kept to fix

        await screen.tap("missing-ann-0")
        assert screen.find("missing-ann-typed").value == "0"
        assert screen.text_of("after-ann") == "13 to 13"
        await screen.tap("save-round")
        assert not screen.exists("end-round-panel")
        assert last_act(screen) == "Last: Round 1 ended: Ann connected all cities; Bob -2, Eve -4"
        assert undo_tip(screen) == "Undo: Round 1 ended: Ann connected all cities; Bob -2, Eve -4"
        assert [screen.text_of(f"points-{p}") for p in ("ann", "bob", "eve")] == ["13", "11", "9"]
        assert screen.text_of("subtitle") == "Round 2 · Bob starts"
        assert screen.text_of("starter") == "Round 2 starts with Bob."
        assert screen.text_of("end-round") == "End round 2"
        table_text = screen.text_of("round-table")
        assert "R1" in table_text and "-4" in table_text


@table
async def test_closing_the_sheet_records_nothing_and_a_round_without_losses() -> None:
    async with playing("transamerica", PLAYERS) as screen:
        await screen.tap("end-round")
        await screen.tap("missing-bob-1")
        await screen.tap("panel-close")
        assert not screen.exists("end-round-panel")
        assert last_act(screen) == "Nothing recorded yet."
        await screen.tap("end-round")
        assert is_filled(screen.find("missing-bob-0"))  # a fresh sheet
        await screen.tap("save-round")
        assert last_act(screen) == ("Last: Round 1 ended: Ann, Bob and Eve connected all cities; nobody lost points")


@table
async def test_close_to_zero_warning_then_game_over_with_one_winner() -> None:
    async with playing("transamerica", PLAYERS) as screen:
        await end_round(screen, {"Bob": 4, "Eve": 10})
        assert screen.text_of("points-eve") == "3"
        assert screen.text_of("warn-eve") == "close to 0!"
        assert screen.text_of("warn-bob") == ""

        await screen.tap("end-round")
        await screen.tap("missing-ann-2")
        await screen.tap("missing-eve-4")
        assert screen.text_of("after-eve") == "3 to -1"
        assert screen.text_of("ends-game") == "This ends the game: Eve at 0 or below."
        await screen.tap("save-round")

        assert screen.text_of("subtitle") == "Game over after 2 rounds"
        assert screen.text_of("winner") == "Ann wins with 11 points"
        assert standings(screen) == [("1st Ann", "11"), ("2nd Bob", "9"), ("3rd Eve", "-1")]
        assert screen.text_of("points-eve") == "-1"
        assert not screen.exists("end-round") and not screen.exists("starter")
        # Only the result: ranked best first, no more warnings or countdown rows.
        assert not screen.exists("warn-eve") and not screen.exists("row-eve")
        ranks = [c.value for c in screen.find_all(where=lambda c: str(c.key or "").startswith("rank-"))]
        assert ranks == ["1st Ann", "2nd Bob", "3rd Eve"]
        assert screen.exists("play-again")

        await screen.tap("undo")
        assert screen.text_of("subtitle") == "Round 2 · Bob starts"
        assert redo_tip(screen) == "Redo: Round 2 ended: Bob connected all cities; Ann -2, Eve -4"
        await screen.tap("redo")
        assert screen.exists("winner")
        await screen.tap("log")
        assert log_lines(screen)[0].startswith("2. Round 2 ended")


@table
async def test_a_tie_on_points_is_shared() -> None:
    async with playing("transamerica", ["Ann", "Bob", "Eve", "Kim"]) as screen:
        await end_round(screen, {"Ann": 2, "Bob": 2, "Eve": 13})
        assert screen.text_of("winner") == "Kim wins with 13 points"
        await screen.tap("undo")
        await end_round(screen, {"Ann": 0, "Bob": 0, "Eve": 13, "Kim": 4})
        assert screen.text_of("winner") == "Ann and Bob share the victory with 13 points each"
        assert standings(screen) == [("1st Ann", "13"), ("1st Bob", "13"), ("3rd Kim", "9"), ("4th Eve", "0")]


@table
async def test_back_home_shows_the_round_and_the_lowest_player() -> None:
    async with playing("transamerica", PLAYERS) as screen:
        await end_round(screen, {"Ann": 1, "Eve": 5})
        await screen.tap("back")
        assert "TransAmerica · Ann, Bob and Eve" in screen.texts()
        assert "Round 2 · lowest: Eve 8" in screen.texts()


@table
async def test_the_log_says_which_round_each_line_closed() -> None:
    async with playing("transamerica", ["Ann", "Bob"]) as screen:
        await end_round(screen, {"Ann": 0, "Bob": 2})
        await end_round(screen, {"Ann": 1, "Bob": 0})
        await screen.tap("log")
        assert log_lines(screen) == [
            "2. Round 2 ended: Bob connected all cities; Ann -1 · round 2",
            "1. Round 1 ended: Ann connected all cities; Bob -2 · round 1",
        ]


@table
async def test_a_tap_on_a_past_round_opens_its_figures_and_saves_a_correction_in_place() -> None:
    async with playing("transamerica", PLAYERS) as screen:
        await end_round(screen, {"Bob": 4, "Eve": 2})
        await end_round(screen, {"Ann": 3, "Eve": 1})
        assert [screen.text_of(f"points-{p}") for p in ("ann", "bob", "eve")] == ["10", "9", "10"]

        assert screen.text_of("amend-hint") == "Tap a round's heading to correct it."
        await screen.tap("amend-round-1")  # the round table's "R1"
        assert screen.text_of("panel-title") == "Correct round 1"
        assert is_filled(screen.find("missing-bob-4")) and is_filled(screen.find("missing-eve-2"))
        assert screen.text_of("after-bob") == "13 to 9"  # counted from the points before round 1
        await screen.tap("missing-bob-3")
        assert screen.text_of("save-round") == "Save round 1 corrected"
        await screen.tap("save-round")  # three taps: the round, the count, Save

        assert not screen.exists("end-round-panel")
        assert last_act(screen) == "Last: Round 1 corrected: Bob missed 3, not 4"
        assert [screen.text_of(f"points-{p}") for p in ("ann", "bob", "eve")] == ["10", "10", "10"]
        assert screen.text_of("subtitle") == "Round 3 · Eve starts"  # the later round stays where it was
        assert "-3" in screen.text_of("round-table")

        await screen.tap("undo")
        assert screen.text_of("points-bob") == "9"
        await screen.tap("redo")
        assert screen.text_of("points-bob") == "10"
        await screen.tap("log")
        assert log_lines(screen)[0] == "3. Round 1 corrected: Bob missed 3, not 4 · round 3"


@table
async def test_a_correction_that_would_have_ended_the_game_early_is_refused_with_its_reason() -> None:
    async with playing("transamerica", PLAYERS) as screen:
        await end_round(screen, {"Bob": 4, "Eve": 2})
        await end_round(screen, {"Ann": 3, "Eve": 1})
        await screen.tap("amend-round-1")
        await screen.type("missing-bob-typed", "13")
        assert screen.text_of("ends-game") == "This ends the game: Bob at 0 or below."
        resting = screen.find("save-round").icon
        assert resting is not None  # an icon at rest: the refusal's mark takes its place, not more room
        why = (
            "Round 1 so corrected would have left Bob at 0 or below and ended the game after round 1, "
            "but the table played on: correct a later round instead, or undo back."
        )
        assert await refused(screen, "save-round") == why
        assert screen.find("save-round").icon is not None
        await screen.tap("missing-bob-4")
        assert not screen.exists("ends-game")
        assert await refused(screen, "save-round") == "Round 1 already reads so: nothing to correct."
        await screen.tap("missing-eve-12")  # Eve 13 to 1 in round 1, and round 2 takes her 1 more...
        assert screen.text_of("ends-game") == "This ends the game: Eve at 0 or below."  # ...to 0 after round 2
        await screen.tap("panel-close")
        assert [screen.text_of(f"points-{p}") for p in ("ann", "bob", "eve")] == ["10", "9", "10"]


@table
async def test_the_end_screen_shows_each_figure_once_and_every_round() -> None:
    async with playing("transamerica", PLAYERS) as screen:
        await end_round(screen, {"Bob": 4, "Eve": 10})
        await end_round(screen, {"Ann": 2, "Eve": 4})
        assert standings(screen) == [("1st Ann", "11"), ("2nd Bob", "9"), ("3rd Eve", "-1")]
        assert not screen.exists("ranking")  # no second list of the same standings
        table_text = screen.text_of("round-table")
        assert "Left" not in table_text and "-10" in table_text and "R2" in table_text
        assert not screen.exists("amend-round-1")  # a finished game is not corrected
        assert screen.texts().count("11") == 1


@pytest.mark.parametrize("flet_version", ["1.0.5", "1.1.0"])
@table
async def test_taps_arriving_together_are_acted_on_in_order_each_on_what_the_one_before_drew(
    monkeypatch: pytest.MonkeyPatch, flet_version: str
) -> None:
    """Flet's web server hands each tap to a task of its own as it arrives: two counts and Save
    arriving together (a quick finger on a busy server) record both counts. On a Flet the app
    does not know, taps go as Flet hands them (flet_private.taps_in_order changes nothing)."""
    import flet.version

    monkeypatch.setattr(flet.version, "flet_version", flet_version)
    async with playing("transamerica", PLAYERS) as screen:
        await screen.tap("end-round")
        taps = [screen.find(key) for key in ("missing-bob-4", "missing-eve-6", "save-round")]
        arriving = [asyncio.create_task(screen.session.dispatch_event(tap._i, "click", None)) for tap in taps]
        await asyncio.gather(*arriving)
        await screen.settle()
        saved = "Round 1 ended: Ann connected all cities; Bob -4, Eve -6"
        assert (last_act(screen) == f"Last: {saved}") == (flet_version == "1.0.5"), last_act(screen)

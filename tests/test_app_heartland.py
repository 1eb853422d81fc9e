"""The Heartland screen, tap by tap: what the table sees after each button."""

from __future__ import annotations

from unittest import mock

import flet as ft
from app_helpers import (
    app_screen,
    last_act,
    log_blocks,
    log_line,
    log_lines,
    memory_app,
    notice,
    playing,
    redo_tip,
    refused,
    start_game,
    table,
    undo_tip,
)
from flet.components.component import Component
from flet_harness import Screen

TRIO = ["Ann", "Bob", "Cy"]


async def pass_turn(screen: Screen) -> None:
    """A quiet turn: move with fuel, end the turn with no action (the table's call)."""
    await screen.tap("move-fuel-1")
    await end_turn_anyway(screen)


async def end_turn_anyway(screen: Screen) -> None:
    """End a turn that had no action: refused, then recorded anyway with one more tap."""
    await screen.tap("end-turn")
    assert (notice(screen) or "").endswith(
        "a player who cannot act is towed and discards (a forced discard, free with $0)."
    ), notice(screen)
    await screen.tap("record-anyway")
    assert notice(screen) is None


def playing_now(screen: Screen, player: str) -> bool:
    return "playing now" in screen.text_of(f"card-{player.lower()}")


@table
async def test_the_first_turn_screen_shows_money_cargo_and_every_action() -> None:
    async with playing("heartland", TRIO) as screen:
        assert screen.text_of("subtitle") == "Round 1 · Ann's turn"
        assert screen.text_of("target") == "Target $40 (rulebook) · leader Ann $5"
        assert playing_now(screen, "Ann") and not playing_now(screen, "Bob")
        assert screen.text_of("money-ann") == "$5"
        assert screen.text_of("cargo-ann") == "empty truck"
        assert screen.text_of("cubes-ann") == "0/8 cubes"
        assert screen.text_of("cargo-bob") == "empty truck" and screen.text_of("cubes-bob") == "0/8 cubes"
        shown = screen.texts()
        for label in (
            "1 · $1",
            "2 · $2",
            "3 · $3",
            "Fuel 1",
            "Fuel 2",
            "Fuel 3",
            "Tow",
            "Load",
            "Unload",
            "Discard $1",
            "End Ann's turn (Bob next)",
        ):
            assert label in shown
        # Without the variants there is no road row and no upgrade to buy.
        assert not screen.exists("toll") and not screen.exists("weigh") and not screen.exists("upgrade")
        assert last_act(screen) == "Nothing recorded yet."
        assert screen.is_disabled("undo") and screen.is_disabled("redo")
        assert undo_tip(screen) == "Nothing to undo" and redo_tip(screen) == "Nothing to redo"


@table
async def test_cash_move_then_undo_and_redo_name_the_act() -> None:
    async with playing("heartland", TRIO) as screen:
        await screen.tap("move-cash-2")
        assert screen.text_of("money-ann") == "$3"
        assert last_act(screen) == "Last: Ann moved 2 spaces for $2"
        assert undo_tip(screen) == "Undo: Ann moved 2 spaces for $2"
        assert screen.text_of("target") == "Target $40 (rulebook) · leader Bob $5"

        assert await refused(screen, "move-cash-1") == "Ann has already moved this turn."
        assert await refused(screen, "move-fuel-2") == "Ann has already moved this turn."
        await screen.tap("notice-close")
        assert notice(screen) is None

        await screen.tap("undo")
        assert screen.text_of("money-ann") == "$5"
        assert last_act(screen) == "Nothing recorded yet."
        assert screen.is_disabled("undo") and not screen.is_disabled("redo")
        assert redo_tip(screen) == "Redo: Ann moved 2 spaces for $2"

        await screen.tap("redo")
        assert screen.text_of("money-ann") == "$3"
        assert screen.is_disabled("redo")

        # The Undo next to the last act does the same in one tap.
        await screen.tap("undo-last")
        assert screen.text_of("money-ann") == "$5"
        await screen.tap("move-cash-3")
        assert screen.text_of("money-ann") == "$2"
        # A new act drops what could have been redone.
        assert screen.is_disabled("redo")


@table
async def test_fuel_moves_cost_nothing_and_end_turn_passes_to_the_next_seat() -> None:
    async with playing("heartland", TRIO) as screen:
        for spaces in (1, 2, 3):
            await screen.tap(f"move-fuel-{spaces}")
            assert screen.text_of("money-ann") == "$5"
            assert last_act(screen).startswith(f"Last: Ann moved {spaces} ")
            assert last_act(screen).endswith(" with fuel")
            await screen.tap("undo")
        await screen.tap("move-fuel-3")
        await end_turn_anyway(screen)
        assert last_act(screen).startswith("Last: Ann ended the turn; Bob plays — recorded against the rule: ")
        assert screen.text_of("subtitle") == "Round 1 · Bob's turn"
        assert playing_now(screen, "Bob") and not playing_now(screen, "Ann")
        assert screen.text_of("end-turn") == "End Bob's turn (Cy next)"
        await pass_turn(screen)
        assert screen.text_of("end-turn") == "End Cy's turn (Ann next)"
        # Undoing the end of a turn gives the turn back.
        await screen.tap("undo")
        assert screen.text_of("subtitle") == "Round 1 · Bob's turn"


@table
async def test_a_player_short_of_cash_is_refused_and_discards_free_at_zero() -> None:
    async with playing("heartland", TRIO) as screen:
        await screen.tap("move-cash-3")
        await screen.tap("discard")
        assert last_act(screen) == "Last: Ann discarded for $1"
        assert screen.text_of("money-ann") == "$1"
        assert await refused(screen, "discard") == (
            "Ann has already chosen to discard this turn; only one action per turn."
        )
        await screen.tap("end-turn")
        await pass_turn(screen)
        await pass_turn(screen)

        assert screen.text_of("subtitle") == "Round 2 · Ann's turn"
        why = "Ann has $1 and cannot pay $2 to move 2 spaces; pay with fuel, or be towed."
        assert screen.find("move-cash-2").tooltip == why  # the muted button says why on long-press too
        # Not by colour alone: its words are struck through on a grey tint (theme roles, so the
        # same in light and dark), which the buttons for now do not have.
        muted, ready = screen.find("move-cash-2").style, screen.find("move-cash-1").style
        assert muted.text_style.decoration == ft.TextDecoration.LINE_THROUGH and muted.bgcolor is not None
        assert ready.text_style.decoration is None and ready.bgcolor is None
        assert ready.text_style.size == muted.text_style.size  # the same size either way
        assert await refused(screen, "move-cash-2") == why
        await screen.tap("move-cash-1")
        assert screen.text_of("money-ann") == "$0"
        assert screen.text_of("discard") == "Discard free"
        await screen.tap("discard")
        assert last_act(screen) == "Last: Ann discarded for free (forced, with $0)"
        assert screen.text_of("money-ann") == "$0"
        await screen.tap("end-turn")
        await pass_turn(screen)
        await pass_turn(screen)
        assert await refused(screen, "move-cash-1") == (
            "Ann has $0 and cannot pay $1 to move 1 space; pay with fuel, or be towed."
        )


@table
async def test_tow_then_the_forced_discard() -> None:
    async with playing("heartland", TRIO) as screen:
        await screen.tap("tow")
        assert last_act(screen) == "Last: Ann was towed to the Distribution Center"
        assert screen.text_of("discard") == "Discard $1 (forced)"
        assert await refused(screen, "load") == "Ann was towed this turn and must take the discard action."
        assert await refused(screen, "unload") == "Ann carries nothing to unload."
        assert await refused(screen, "move-fuel-1") == "Ann has already moved this turn."
        await screen.tap("discard")
        assert last_act(screen) == "Last: Ann discarded for $1"
        assert screen.text_of("money-ann") == "$4"
        assert undo_tip(screen) == "Undo: Ann discarded for $1"
        await screen.tap("end-turn")

        # Towed with $0: the forced discard is free.
        await screen.tap("move-cash-3")
        await screen.tap("discard")
        await screen.tap("end-turn")
        await pass_turn(screen)
        await end_turn_anyway(screen)  # Ann: nothing this turn
        await screen.tap("move-cash-1")
        assert screen.text_of("money-bob") == "$0"
        await end_turn_anyway(screen)
        await pass_turn(screen)
        await pass_turn(screen)
        await screen.tap("tow")
        assert screen.text_of("discard") == "Discard free"
        await screen.tap("discard")
        assert last_act(screen) == "Last: Bob discarded for free (forced, with $0)"


@table
async def test_load_sheet_then_unload_with_a_price_tap_and_the_remembered_price() -> None:
    async with playing("heartland", TRIO) as screen:
        await screen.tap("move-fuel-1")
        await screen.tap("load")
        assert screen.text_of("panel-title") == "Load · Ann"
        sheet = screen.text_of("load-panel")
        assert "Ann has room for 8 cubes." in sheet
        assert screen.exists("load-pigs-8") and not screen.exists("load-pigs-9")
        await screen.tap("panel-close")
        assert not screen.exists("load-panel")
        await screen.tap("load")
        await screen.tap("load-corn-3")
        assert not screen.exists("load-panel")
        assert last_act(screen) == "Last: Ann loaded 3 corn"
        assert screen.text_of("cargo-ann") == "3 corn"
        assert screen.text_of("cubes-ann") == "3/8 cubes"
        assert await refused(screen, "load") == "Ann has already chosen to load this turn; only one action per turn."
        await screen.tap("end-turn")
        assert screen.text_of("cargo-ann") == "3 corn" and not playing_now(screen, "Ann")
        await pass_turn(screen)
        await pass_turn(screen)

        await screen.tap("move-fuel-2")
        await screen.tap("unload")
        assert screen.text_of("panel-title") == "Unload · Ann"
        assert screen.text_of("price-corn") == "corn: tap a price first"
        assert not screen.exists("price-pigs")  # only the goods on the truck
        assert screen.text_of("unload-corn-2") == "2"
        assert await refused(screen, "unload-corn-2") == "Tap the price paid for corn first."
        assert screen.find("unload-corn-2").icon == ft.Icons.ERROR_OUTLINE  # marked where the finger is
        await screen.tap("price-5")
        await screen.tap("price-4")  # a slip of the finger is one more tap
        assert screen.text_of("price-corn") == "corn: at $4"
        assert screen.text_of("unload-corn-1") == "1 (+$4)"
        assert screen.text_of("unload-corn-3") == "3 (+$12)"
        await screen.tap("unload-corn-2")
        assert last_act(screen) == "Last: Ann unloaded 2 corn at $4 (+$8)"
        assert screen.text_of("money-ann") == "$13"
        assert screen.text_of("cargo-ann") == "1 corn"
        assert screen.text_of("target") == "Target $40 (rulebook) · leader Ann $13"
        assert await refused(screen, "unload") == (
            "Ann has already chosen to unload this turn; only one action per turn."
        )
        await screen.tap("end-turn")
        await pass_turn(screen)
        await pass_turn(screen)

        # Next time the table's last price for corn is already set.
        await screen.tap("move-fuel-1")
        await screen.tap("unload")
        assert screen.text_of("price-corn") == "corn: at $4 (last paid)"
        assert screen.find("price-4").style.side.width == 3  # a suggestion, not a choice
        assert screen.text_of("unload-corn-1") == "1 (+$4)"
        assert not screen.exists("unload-corn-2")
        await screen.tap("unload-corn-1")
        assert screen.text_of("money-ann") == "$17"
        assert screen.text_of("cargo-ann") == "empty truck"


@table
async def test_a_full_truck_cannot_load_short_haul() -> None:
    async with playing("heartland", ["Ann", "Bob"], switches=["short_haul"]) as screen:
        assert screen.text_of("cubes-ann") == "0/6 cubes"
        await screen.tap("move-fuel-1")
        await screen.tap("load")
        assert screen.exists("load-cattle-6") and not screen.exists("load-cattle-7")
        await screen.tap("load-cattle-6")
        await screen.tap("end-turn")
        await pass_turn(screen)
        await screen.tap("move-fuel-1")
        assert await refused(screen, "load") == "Ann's truck holds 6 of 6 cubes and cannot load 1 more."


@table
async def test_toll_and_weigh_station_with_alternate_routes() -> None:
    async with playing("heartland", TRIO, switches=["alternate_routes"]) as screen:
        assert screen.text_of("toll") == "Toll $1"
        assert screen.text_of("weigh") == "Weigh station $0"
        assert await refused(screen, "toll") == "Record Ann's move before the toll."
        assert await refused(screen, "weigh") == "Record Ann's move before the weigh station."
        await screen.tap("move-fuel-2")
        await screen.tap("toll")
        assert last_act(screen) == "Last: Ann paid a $1 toll"
        assert screen.text_of("money-ann") == "$4"
        await screen.tap("weigh")
        assert last_act(screen) == "Last: Ann crossed a weigh station with 0 cubes ($0)"
        assert screen.text_of("money-ann") == "$4"
        await screen.tap("load")
        await screen.tap("load-soybeans-7")
        assert await refused(screen, "toll") == "Ann has already chosen to load; a toll is paid while moving."
        await screen.tap("end-turn")
        await pass_turn(screen)
        await pass_turn(screen)

        assert screen.text_of("weigh") == "Weigh station $3"
        await screen.tap("move-fuel-1")
        await screen.tap("weigh")
        assert last_act(screen) == "Last: Ann crossed a weigh station with 7 cubes ($3)"
        assert screen.text_of("money-ann") == "$1"
        assert await refused(screen, "weigh") == ("Ann carries 7 cubes and has $1: the weigh station costs $3.")
        await screen.tap("toll")
        assert await refused(screen, "toll") == "Ann has $0 and cannot pay the $1 toll."
        await end_turn_anyway(screen)

        await screen.tap("tow")
        assert await refused(screen, "toll") == "Bob was towed this turn and passed no toll."


@table
async def test_buying_an_upgrade_with_truck_stops() -> None:
    async with playing("heartland", TRIO, switches=["truck_stops"]) as screen:
        assert await refused(screen, "upgrade") == (
            "Ann buys an upgrade at the truck stop where a move ends: record the move first."
        )
        await screen.tap("move-fuel-1")
        await screen.tap("upgrade")
        assert screen.text_of("panel-title") == "Buy upgrade · Ann"
        assert screen.text_of("upgrade-buy") == "Buy for $0"
        assert await refused(screen, "upgrade-buy") == "Type the upgrade's name first; it is printed on the card."
        await screen.type("upgrade-name", "Refrigerated")
        await screen.tap("upgrade-cost-4")
        await screen.type("upgrade-cost-typed", "5")  # a printed cost typed, as well as one tapped
        assert screen.text_of("upgrade-buy") == "Buy for $5"
        assert screen.find("upgrade-name").value == "Refrigerated"  # the typed name survives the rebuilds
        await screen.tap("upgrade-cost-6")
        assert await refused(screen, "upgrade-buy") == "Ann has $5 and cannot pay $6 for Refrigerated."
        await screen.tap("upgrade-cost-5")
        await screen.tap("upgrade-buy")
        assert last_act(screen) == "Last: Ann bought the Refrigerated upgrade for $5"
        assert screen.text_of("money-ann") == "$0"
        assert screen.text_of("cubes-ann") == "0/8 cubes · Refrigerated"
        assert not screen.exists("upgrade")  # one upgrade per player per game
        await end_turn_anyway(screen)
        assert screen.text_of("cubes-ann") == "0/8 cubes · Refrigerated"  # the card says it, whoever plays

        await screen.tap("move-fuel-1")
        await screen.tap("upgrade")
        await screen.type("upgrade-name", "refrigerated")
        assert await refused(screen, "upgrade-buy") == "Ann already owns the refrigerated upgrade."
        await screen.type("upgrade-name", "Sleeper Cab")
        await screen.tap("upgrade-buy")
        assert last_act(screen) == "Last: Bob bought the Sleeper Cab upgrade for $0"


@table
async def test_correct_money_from_either_card() -> None:
    async with playing("heartland", TRIO) as screen:
        await screen.tap("adjust-ann")
        assert screen.text_of("panel-title") == "Correct Ann's money"
        assert "Ann has $5." in screen.text_of("adjust-panel")
        assert screen.text_of("adjust-save") == "Save: Ann +$0, now $5"
        assert await refused(screen, "adjust-save") == "A correction of $0 changes nothing."
        await screen.tap("adjust-6")
        assert screen.text_of("adjust-save") == "Save: Ann +$6, now $11"
        await screen.type("adjust-note", "bank payout missed")
        await screen.tap("adjust-save")
        assert not screen.exists("adjust-panel")
        assert last_act(screen) == "Last: Ann +$6 (bank payout missed), now $11"
        assert screen.text_of("money-ann") == "$11"

        # Another player's compact card opens the same sheet for them.
        await screen.tap("card-money-bob")
        assert screen.text_of("panel-title") == "Correct Bob's money"
        assert not screen.exists("adjust--6")  # no chip takes Bob below $0
        await screen.type("adjust-typed", "-6")
        assert screen.find("adjust-typed").error == "From -5 to 999."  # nor does a typed amount
        await screen.type("adjust-typed", "-5")
        assert screen.text_of("adjust-save") == "Save: Bob -$5, now $0"
        await screen.tap("adjust-save")
        assert last_act(screen) == "Last: Bob -$5 (correction), now $0"
        assert screen.text_of("money-bob") == "$0"
        assert undo_tip(screen) == "Undo: Bob -$5 (correction), now $0"
        await screen.tap("undo")
        assert screen.text_of("money-bob") == "$5"


@table
async def test_the_log_reads_newest_first_and_closes() -> None:
    async with playing("heartland", TRIO) as screen:
        await screen.tap("log")
        assert "Nothing recorded yet." in screen.text_of("log-panel")
        await screen.dismiss_dialog()  # the system's Back closes it
        assert not screen.exists("log-panel")
        await screen.tap("move-cash-1")
        await screen.tap("discard")
        await screen.tap("end-turn")
        await screen.tap("log")
        assert screen.text_of("panel-title") == "Session log"
        assert log_lines(screen) == [
            "3. Ann ended the turn; Bob plays · round 1",
            "2. Ann discarded for $1 · round 1",
            "1. Ann moved 1 space for $1 · round 1",
        ]
        await screen.tap("panel-close")
        assert not screen.exists("log-panel")


@table
async def test_final_round_banner_then_end_screen_with_penalties_and_tie_break() -> None:
    async with playing("heartland", TRIO) as screen:
        # Ann fills up with corn; Bob takes cattle; Cy pays cash and takes a pig.
        await screen.tap("move-fuel-1")
        await screen.tap("load")
        await screen.tap("load-corn-8")
        await screen.tap("end-turn")
        await screen.tap("move-fuel-1")
        await screen.tap("load")
        await screen.tap("load-cattle-2")
        await screen.tap("end-turn")
        await screen.tap("move-cash-2")
        await screen.tap("load")
        await screen.tap("load-pigs-1")
        await screen.tap("end-turn")

        # Ann sells 7 corn at $5: $40, the target, during her own turn.
        await screen.tap("move-fuel-1")
        await screen.tap("unload")
        await screen.tap("price-5")
        await screen.tap("unload-corn-7")
        assert screen.text_of("money-ann") == "$40"
        assert screen.text_of("final-round") == "Final round — Bob and Cy still play"
        assert "Ann reached the $40 target." in screen.texts()
        assert not screen.exists("target")
        await screen.tap("end-turn")
        assert screen.text_of("final-round") == "Final round — Bob and Cy still play"
        await pass_turn(screen)
        assert screen.text_of("final-round") == "Final round — Cy plays"
        assert screen.text_of("end-turn") == "End Cy's turn: last turn of the game"
        await screen.tap("move-fuel-1")
        await end_turn_anyway(screen)

        assert last_act(screen).startswith("Last: Cy ended the last turn; the game is over")
        assert screen.text_of("subtitle") == "Game over"
        assert screen.text_of("final-standings") == "Final standings"
        assert screen.text_of("rank-ann") == "1st Ann — winner"
        assert screen.text_of("final-ann") == "$39"
        assert screen.text_of("rank-cy") == "2nd Cy"
        assert screen.text_of("final-cy") == "$1"
        assert screen.text_of("rank-bob") == "3rd Bob"
        assert screen.text_of("final-bob") == "$1"
        shown = screen.texts()
        for line in (
            "Money $40",
            "corn: 1 cube × $1 = -$1",
            "Money $3",
            "pigs: 1 cube × $2 = -$2",
            "Money $5",
            "cattle: 2 cubes × $2 = -$4",
        ):
            assert line in shown
        assert screen.text_of("tie-break") == (
            "Cy and Bob tie on $1; fewer cubes on the truck decides: Cy 1 cube, Bob 2 cubes."
        )
        # Nothing left to play, but a mistake can still be undone.
        for key in ("end-turn", "move-fuel-1", "load", "discard"):
            assert not screen.exists(key)
        await screen.tap("undo")
        assert screen.text_of("final-round") == "Final round — Cy plays"
        await screen.tap("redo")
        assert screen.text_of("subtitle") == "Game over"


@table
async def test_a_tie_with_equal_cargo_is_a_shared_victory() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        assert screen.text_of("target") == "Target $50 (rulebook) · leader Ann $5"
        for player in ("ann", "bob"):
            await screen.tap(f"adjust-{player}")
            await screen.type("adjust-typed", "45")
            await screen.tap("adjust-save")
            assert screen.text_of(f"money-{player}") == "$50"
            await end_turn_anyway(screen)
        assert screen.text_of("rank-ann") == "1st Ann — winner"
        assert screen.text_of("rank-bob") == "1st Bob — winner"
        assert screen.texts().count("No cargo left: no penalty") == 2
        assert screen.text_of("tie-break") == (
            "Ann and Bob tie on $50 and on fewer cubes on the truck (0 cubes and 0 cubes): they share the victory."
        )


@table
async def test_back_goes_home_with_the_game_listed_in_progress() -> None:
    async with playing("heartland", TRIO) as screen:
        await screen.tap("move-cash-1")
        await screen.tap("back")
        assert "In progress" in screen.texts()
        assert "Heartland · Ann, Bob and Cy" in screen.texts()
        assert "Ann's turn · $4 / $40" in screen.texts()


@table
async def test_a_long_log_shows_the_newest_hundred_then_the_older_lines_on_request() -> None:
    data = memory_app()
    session = data.new("heartland", TRIO, {})
    while len(session.events) < 105:
        player = session.state.current_player
        session.apply({"type": "move", "player": player, "spaces": 1, "pay": "fuel"})
        session.apply({"type": "end_turn", "player": player, "override": True})
    assert session.id is not None
    data.remember_screen(session.id)
    async with app_screen(data) as screen:
        await screen.tap("log")
        lines = log_lines(screen)
        assert lines[0].startswith("106. ") and lines[-1].startswith("7. ")
        assert [line.split(".")[0] for line in lines] == [str(n) for n in range(106, 6, -1)]  # newest first
        assert len(log_blocks(screen)) == 3  # lines 101-106, 51-100, 7-50: a few controls, not one per line
        assert screen.text_of("log-older") == "Show the 6 older lines"
        await screen.tap("log-older")
        assert log_line(screen, 1) == "1. Ann moved 1 space with fuel · round 1"
        assert len(log_lines(screen)) == 106
        assert not screen.exists("log-older")
        await screen.tap("panel-close")
        await screen.tap("log")
        assert log_line(screen, 1) is None  # a fresh look starts with the newest again


@table
async def test_the_log_says_which_turn_each_line_belongs_to() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        await screen.tap("move-fuel-2")
        await screen.tap("discard")
        await screen.tap("end-turn")
        await screen.tap("move-cash-1")
        await screen.tap("log")
        assert log_lines(screen) == [
            "4. Bob moved 1 space for $1 · round 1",
            "3. Ann ended the turn; Bob plays · round 1",
            "2. Ann discarded for $1 · round 1",
            "1. Ann moved 2 spaces with fuel · round 1",
        ]


@table
async def test_a_penalty_below_zero_reads_as_minus_dollars() -> None:
    data = memory_app()
    session = data.new("heartland", ["Ann", "Bob"], {"target": 6})
    for event in (
        {"type": "move", "player": "Ann", "spaces": 1, "pay": "fuel"},
        {"type": "adjust", "player": "Ann", "amount": 1, "note": "found a dollar"},
        {"type": "end_turn", "player": "Ann", "override": True},
        {"type": "move", "player": "Bob", "spaces": 3, "pay": "cash"},
        {"type": "load", "player": "Bob", "good": "pigs", "cubes": 2},
        {"type": "end_turn", "player": "Bob"},
    ):
        session.apply(event)
    data.close_session(session.id or "")
    async with app_screen(data) as screen:
        assert screen.text_of(f"status-{session.id}") == "Ann won ($6)"
        await screen.tap(f"session-{session.id}")
        assert screen.text_of("final-bob") == "-$2"
        assert "pigs: 2 cubes × $2 = -$4" in screen.texts()


@table
async def test_every_action_button_says_what_it_will_record() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        assert screen.find("move-cash-2").tooltip == "Ann moved 2 spaces for $2"
        await screen.tap("load")
        assert screen.find("load-corn-3").tooltip == "Ann loaded 3 corn"
        await screen.tap("load-corn-3")
        assert screen.find("end-turn").tooltip == "Ann ended the turn; Bob plays"


@table
async def test_the_next_game_at_this_table_starts_from_the_price_paid_last_time() -> None:
    data = memory_app()
    async with app_screen(data) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("move-fuel-1")
        await screen.tap("load")
        await screen.tap("load-corn-2")
        await screen.tap("end-turn")
        await pass_turn(screen)
        await screen.tap("move-fuel-1")
        await screen.tap("unload")
        await screen.tap("price-4")
        await screen.tap("unload-corn-2")
        await screen.tap("back")
        await start_game(screen, "heartland", ["Cy", "Dee"])
        await screen.tap("move-fuel-1")
        await screen.tap("load")
        await screen.tap("load-corn-1")
        await screen.tap("end-turn")
        await pass_turn(screen)
        await screen.tap("move-fuel-1")
        await screen.tap("unload")
        assert screen.text_of("price-corn") == "corn: at $4 (last paid)"
        assert screen.text_of("unload-corn-1") == "1 (+$4)"


@table
async def test_a_tap_draws_the_page_once_and_a_new_language_draws_it_from_its_root() -> None:
    # The root used to follow the page's state too and drew the whole body again after each
    # tap (half the tap's time, on every phone following the game).
    drawn: list[str] = []
    update = Component.update

    def counted(component: Component) -> None:
        drawn.append(getattr(component.fn, "__name__", "?"))
        update(component)

    with mock.patch.object(Component, "update", counted):
        async with playing("heartland", TRIO) as screen:
            await screen.settle()
            drawn.clear()
            await screen.tap("move-fuel-1")
            await screen.settle()
            assert last_act(screen) == "Last: Ann moved 1 space with fuel"
            assert drawn.count("PageBody") == 1 and "Root" not in drawn, drawn
            await screen.tap("back")
            await screen.tap("settings")
            drawn.clear()
            await screen.tap("language-fr")
            await screen.settle()
            assert "Root" in drawn, drawn
            await screen.tap("back")
            assert screen.text_of("new-game") == "+ Nouvelle partie"


@table
async def test_any_players_cargo_is_corrected_from_their_card_in_three_taps() -> None:
    async with playing("heartland", TRIO) as screen:
        assert playing_now(screen, "Ann")
        await screen.tap("card-cargo-bob")  # Bob's name and cargo, while Ann plays
        assert screen.text_of("panel-title") == "Correct Bob's cargo"
        await screen.tap("cargo-pigs-2")
        await screen.tap("cargo-save")
        assert last_act(screen).startswith("Last: Bob")
        assert screen.text_of("cargo-bob") == "2 pigs" and screen.text_of("cubes-bob") == "2/8 cubes"
        assert screen.text_of("cargo-ann") == "empty truck"
        assert playing_now(screen, "Ann")  # a correction is not a turn
        await screen.tap("card-money-cy")  # the money beside it corrects money, as before
        assert screen.text_of("panel-title") == "Correct Cy's money"


@table
async def test_the_trigger_players_forgotten_cube_in_the_final_round_changes_the_winner() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        await screen.tap("adjust-ann")
        await screen.type("adjust-typed", "45")
        await screen.tap("adjust-save")
        await end_turn_anyway(screen)  # Ann reached $50: Bob plays the final round, Ann never again
        assert screen.text_of("final-round") == "Final round — Bob plays"
        await screen.tap("adjust-bob")
        await screen.type("adjust-typed", "44")
        await screen.tap("adjust-save")
        assert screen.text_of("money-bob") == "$49"

        # The table sees a cattle cube still on Ann's truck that nobody entered.
        await screen.tap("card-cargo-ann")
        await screen.tap("cargo-cattle-1")
        await screen.tap("cargo-save")
        assert screen.text_of("cargo-ann") == "1 cattle"
        assert screen.text_of("final-round") == "Final round — Bob plays"  # still Bob's last turn
        await end_turn_anyway(screen)

        assert screen.text_of("subtitle") == "Game over"
        assert screen.text_of("rank-bob") == "1st Bob — winner"
        assert screen.text_of("rank-ann") == "2nd Ann"
        assert screen.text_of("final-ann") == "$48"  # $50 less the $2 cattle cube

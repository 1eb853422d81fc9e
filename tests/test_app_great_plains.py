"""The Great Plains screen: caves, tokens and spirits, then prairie zones and the result."""

from __future__ import annotations

import flet as ft
from app_helpers import last_act, log_line, notice, pick_count, playing, redo_tip, refused, table, undo_tip
from flet_harness import Screen

from companion.app.inputs import is_filled

PLAYERS = ["Léa", "Tom"]  # Léa plays Fox (the first player, by default)


async def place_caves(screen: Screen) -> None:
    for _ in range(6):
        await screen.tap("place-cave")


async def place_tokens(screen: Screen, count: int) -> None:
    for _ in range(count):
        await screen.tap("place-token")


def totals(screen: Screen) -> str:
    """The points on the two panels, Fox first."""
    return f"Fox {screen.text_of('total-fox')} · Snake {screen.text_of('total-snake')}"


async def add_zone(screen: Screen, spaces: int, water: int, fox: int, snake: int) -> int:
    """Open the zone sheet, tap (or type) each count, save; the taps it took."""
    taps = 1
    await screen.tap("add-zone")
    for key, count, default in (
        ("zone-spaces", spaces, 1),
        ("zone-water", water, 0),
        ("zone-fox", fox, 0),
        ("zone-snake", snake, 0),
    ):
        if count != default:
            taps += await pick_count(screen, key, count)
    await screen.tap("zone-save")
    assert notice(screen) is None, notice(screen)
    return taps + 1


@table
async def test_caves_alternate_then_tokens() -> None:
    async with playing("great_plains", PLAYERS) as screen:
        assert screen.text_of("subtitle") == "Fox's turn (Léa) · cave"
        assert "Playing: Fox" in screen.text_of("tribe-fox")
        assert "Léa" in screen.text_of("tribe-fox") and "Tom" in screen.text_of("tribe-snake")
        assert screen.text_of("tokens-left-fox") == "20"
        assert screen.text_of("caves-fox") == "caves 0/3"
        assert screen.text_of("place-cave") == "Place cave (1 of 6) · Léa"
        assert not screen.exists("place-token")  # caves come first

        await screen.tap("place-cave")
        assert last_act(screen) == "Last: Léa placed a cave (1 of 3)"
        assert screen.text_of("caves-fox") == "caves 1/3"
        assert screen.text_of("subtitle") == "Snake's turn (Tom) · cave"
        assert screen.text_of("place-cave") == "Place cave (2 of 6) · Tom"
        await screen.tap("undo")
        assert screen.text_of("caves-fox") == "caves 0/3"
        assert redo_tip(screen) == "Redo: Léa placed a cave (1 of 3)"
        await screen.tap("redo")
        for _ in range(5):
            await screen.tap("place-cave")
        assert screen.text_of("caves-snake") == "caves 3/3"
        assert not screen.exists("place-cave")

        assert screen.text_of("subtitle") == "Fox's turn (Léa) · token"
        assert screen.text_of("place-token") == "Place token · Léa"
        await screen.tap("place-token")
        assert last_act(screen) == "Last: Léa placed a token (1 of 20)"
        assert screen.text_of("tokens-left-fox") == "19"
        assert "placed 1/20" in screen.text_of("tribe-fox")
        assert screen.text_of("place-token") == "Place token · Tom"


@table
async def test_tokens_on_spirits_and_using_a_spirit_later() -> None:
    async with playing("great_plains", PLAYERS) as screen:
        await place_caves(screen)
        assert screen.text_of("supply") == "Spirits in the supply: Horse 3, Eagle 3, Bear 3"
        assert screen.text_of("spirit-horse-fox") == "Horse 0"
        await screen.tap("token-horse")
        assert last_act(screen) == "Last: Léa placed a token (1 of 20) and took a horse spirit"
        assert screen.text_of("supply") == "Spirits in the supply: Horse 2, Eagle 3, Bear 3"
        # Not Léa's turn now: her horse shows, but cannot be used.
        assert screen.text_of("spirit-horse-fox") == "Horse 1"
        assert not screen.exists("use-horse-fox")
        await screen.tap("token-eagle")
        assert screen.text_of("spirit-eagle-snake") == "Eagle 1"

        assert screen.text_of("use-horse-fox") == "Use Horse 1"
        await screen.tap("use-horse-fox")
        assert last_act(screen) == "Last: Léa used a horse spirit to place two spaces away"
        assert undo_tip(screen) == "Undo: Léa used a horse spirit to place two spaces away"
        assert screen.text_of("spirit-horse-fox") == "Horse 0"
        assert screen.text_of("supply") == "Spirits in the supply: Horse 3, Eagle 2, Bear 3"
        assert screen.text_of("place-token") == "Place token · Léa"  # using a spirit is not the placement
        await screen.tap("token-bear")
        await screen.tap("use-eagle-snake")
        assert last_act(screen) == "Last: Tom used an eagle spirit to cross a mountain"


@table
async def test_a_spirit_none_is_left_of_is_not_taken() -> None:
    async with playing("great_plains", PLAYERS) as screen:
        await place_caves(screen)
        for _ in range(3):
            await screen.tap("token-bear")
        assert screen.text_of("token-bear") == "+ Bear (none left)"
        await screen.tap("token-bear")
        assert last_act(screen) == "Last: Tom placed a token (2 of 20) on a bear; none was left to take"
        assert screen.text_of("spirit-bear-snake") == "Bear 1"
        assert screen.text_of("use-bear-fox") == "Use Bear 2"
        await screen.tap("use-bear-fox")
        assert last_act(screen) == "Last: Léa used a bear spirit to push a token back"
        assert screen.text_of("token-bear") == "+ Bear"


@table
async def test_zones_with_live_preview_and_refusals() -> None:
    async with playing("great_plains", PLAYERS) as screen:
        await place_caves(screen)
        await place_tokens(screen, 40)  # prairies are scored once every token is down
        # Each tribe's points once, on its panel (no totals line repeating them while counting).
        assert totals(screen) == "Fox 0 · Snake 0" and not screen.exists("totals")
        await screen.tap("add-zone")
        assert screen.text_of("panel-title") == "Add a prairie zone"
        assert screen.in_top_dialog("zone-panel")
        assert screen.text_of("zone-preview") == "Tied 0–0: nobody scores this zone."
        await screen.tap("zone-spaces-6")
        await screen.tap("zone-water-1")
        await screen.tap("zone-fox-1")
        assert screen.text_of("zone-preview") == "Fox (Léa) scores 7."
        await screen.tap("zone-snake-1")
        assert screen.text_of("zone-preview") == "Tied 1–1: nobody scores this zone."
        await screen.tap("zone-snake-2")
        assert screen.text_of("zone-preview") == "Snake (Tom) scores 7."
        await screen.tap("zone-snake-1")
        await screen.tap("zone-fox-3")
        assert is_filled(screen.find("zone-fox-3"))  # the chosen count, filled
        assert screen.text_of("zone-preview") == "Fox (Léa) scores 7."
        await screen.type("zone-spaces-typed", "17")  # a zone beyond the chips, typed on the number pad
        assert screen.text_of("zone-preview") == "Fox (Léa) scores 18."
        await screen.type("zone-spaces-typed", "999")  # out of range: said, and not kept
        assert screen.find("zone-spaces-typed").error == "From 1 to 200."
        assert screen.text_of("zone-preview") == "Fox (Léa) scores 18."
        await screen.tap("zone-spaces-6")  # a chip again: the field forgets what was typed
        assert screen.find("zone-spaces-typed").value == "6" and screen.find("zone-spaces-typed").error is None
        await screen.tap("zone-save")
        assert not screen.exists("zone-panel")
        assert screen.text_of("zone-1") == "Zone 1: 6 spaces +1 water · 3–1 · Fox +7"
        assert totals(screen) == "Fox 7 · Snake 0"
        assert screen.text_of("zones-won-fox") == "1 zone won" and screen.text_of("kept-fox") == "0 spirits kept"
        assert last_act(screen) == "Last: Zone 1: 6 spaces + 1 water, 3–1: Léa +7"

        await screen.tap("add-zone")
        await screen.tap("zone-fox-1")
        await screen.tap("zone-snake-1")
        assert await refused(screen, "zone-save") == "A zone of 1 space cannot hold 2 tokens."
        await screen.tap("panel-close")
        assert screen.exists("add-zone")

        await add_zone(screen, 4, 0, 2, 2)
        assert screen.text_of("zone-2") == "Zone 2: 4 spaces · 2–2 · tie, nobody scores"
        assert totals(screen) == "Fox 7 · Snake 0"


@table
async def test_the_result_after_all_tokens_with_the_spirit_tie_break() -> None:
    async with playing("great_plains", PLAYERS) as screen:
        await place_caves(screen)
        await screen.tap("token-horse")  # Léa keeps a horse to the end
        await place_tokens(screen, 39)
        assert screen.text_of("subtitle") == "Scoring the prairies"
        # Every token is down: the big number on each tribe is its points now, not "0 left".
        assert screen.text_of("total-fox") == "0" and screen.text_of("total-snake") == "0"
        assert not screen.exists("tokens-left-fox") and not screen.exists("tokens-left-snake")
        assert not screen.exists("place-token") and not screen.exists("use-horse-fox")

        assert await add_zone(screen, 6, 1, 4, 2) <= 6  # the common zone: a tap a number, open and save
        assert await add_zone(screen, 12, 3, 0, 6) <= 6  # the chips' largest
        await screen.tap("undo")
        assert screen.text_of("total-fox") == "7" and screen.text_of("total-snake") == "0"
        assert not screen.exists("winner")  # nobody has won while the table is still counting
        await add_zone(screen, 7, 0, 1, 3)
        assert totals(screen) == "Fox 7 · Snake 7"
        await screen.tap("scoring-done")
        assert screen.text_of("subtitle") == "Game over"
        assert screen.text_of("winner") == "Léa (Fox) wins 7–7"
        assert screen.text_of("tie-break") == (
            "Léa and Tom tie on 7 points; more spirits kept decides: Léa 1 spirit, Tom 0 spirits."
        )
        assert not screen.exists("add-zone") and screen.exists("play-again")
        # Each figure once on a phone: the result, not the panels above it repeating the scores.
        assert not screen.exists("tribe-fox") and not screen.exists("points-fox") and not screen.exists("total-fox")
        assert screen.text_of("totals") == "Fox 7 · Snake 7"

        # Undo the scoring, the zones and the last token: the game is back on.
        for _ in range(4):
            await screen.tap("undo")
        assert screen.text_of("place-token") == "Place token · Tom"
        assert not screen.exists("winner")


@table
async def test_scoring_done_with_no_zone_counted_asks_first_and_the_table_may_end_it_0_0() -> None:
    async with playing("great_plains", PLAYERS) as screen:
        await place_caves(screen)
        await place_tokens(screen, 40)
        await screen.tap("scoring-done")  # one tap used to end the game 0-0
        assert notice(screen) == (
            "No prairie zone counted yet: add each one with + Zone. Record anyway to end the game 0–0."
        )
        assert screen.text_of("subtitle") == "Scoring the prairies" and not screen.exists("winner")
        await screen.tap("record-anyway")
        assert screen.text_of("subtitle") == "Game over" and screen.text_of("winner") == "Léa and Tom share the victory"
        await screen.tap("undo")
        await add_zone(screen, 3, 0, 2, 1)  # with a zone counted, one tap ends it
        await screen.tap("scoring-done")
        assert notice(screen) is None and screen.text_of("winner") == "Léa (Fox) wins 3–0"


@table
async def test_equal_points_and_spirits_share_the_victory_and_snake_can_lead_the_order() -> None:
    async with playing("great_plains", PLAYERS, fox="Tom") as screen:
        assert screen.text_of("subtitle") == "Snake's turn (Léa) · cave"
        assert "Scoring (prairie zones; tokens Snake – Fox)" in screen.texts()
        await place_caves(screen)
        await place_tokens(screen, 40)
        await add_zone(screen, 3, 0, 2, 1)
        await add_zone(screen, 3, 0, 0, 2)
        await screen.tap("scoring-done")
        assert screen.text_of("totals") == "Snake 3 · Fox 3"
        assert screen.text_of("winner") == "Léa and Tom share the victory"
        assert screen.text_of("tie-break") == (
            "Léa and Tom tie on 3 points and on more spirits kept (0 spirits and 0 spirits): they share the victory."
        )


@table
async def test_the_log_and_back_home() -> None:
    async with playing("great_plains", PLAYERS) as screen:
        await place_caves(screen)
        await screen.tap("token-eagle")
        await screen.tap("log")
        assert screen.text_of("panel-title") == "Session log"
        assert log_line(screen, 7) == "7. Léa placed a token (1 of 20) and took an eagle spirit"
        assert log_line(screen, 1) == "1. Léa placed a cave (1 of 3)"
        await screen.tap("panel-close")
        assert not screen.exists("log-panel")
        await screen.tap("back")
        assert "Great Plains · Léa and Tom" in screen.texts()
        assert "Tom's turn · tokens 1/40" in screen.texts()


@table
async def test_zone_2_of_5_is_corrected_from_its_line_without_undoing_the_later_zones() -> None:
    async with playing("great_plains", PLAYERS) as screen:
        await place_caves(screen)
        await place_tokens(screen, 40)
        for spaces, fox, snake in ((8, 3, 1), (10, 5, 1), (6, 2, 2), (4, 0, 2), (7, 1, 3)):
            await add_zone(screen, spaces, 1, fox, snake)
        assert totals(screen) == "Fox 20 · Snake 13"
        assert screen.text_of("zone-2") == "Zone 2: 10 spaces +1 water · 5–1 · Fox +11"
        assert screen.find("zone-2").tooltip == "Correct zone 2"

        await screen.tap("zone-2")  # its own figures, ready to change
        assert screen.text_of("panel-title") == "Correct zone 2"
        assert is_filled(screen.find("zone-spaces-10")) and is_filled(screen.find("zone-fox-5"))
        assert screen.text_of("zone-save") == "Save zone 2 corrected"
        assert await refused(screen, "zone-save") == "Zone 2 already reads so: nothing to correct."
        await pick_count(screen, "zone-spaces", 9)
        await pick_count(screen, "zone-fox", 1)
        await pick_count(screen, "zone-snake", 4)
        assert screen.text_of("zone-preview") == "Snake (Tom) scores 10."
        await screen.tap("zone-save")
        assert not screen.exists("zone-panel")
        assert last_act(screen) == (
            "Last: Zone 2 corrected: 9 spaces + 1 water, 1–4: Tom +10, not 10 spaces + 1 water, 5–1: Léa +11"
        )
        assert screen.text_of("zone-2") == "Zone 2: 9 spaces +1 water · 1–4 · Snake +10"
        assert screen.text_of("zone-5") == "Zone 5: 7 spaces +1 water · 1–3 · Snake +8"  # the later ones kept
        assert totals(screen) == "Fox 9 · Snake 23"

        await screen.tap("zone-1")  # too many Fox tokens for what Léa placed: said, nothing changed
        await screen.type("zone-spaces-typed", "30")
        await screen.type("zone-fox-typed", "17")
        assert await refused(screen, "zone-save") == "Léa has placed 20 tokens, but the zones count 21."
        await screen.tap("panel-close")
        await screen.tap("undo")  # the correction undone like any act
        assert screen.text_of("zone-2") == "Zone 2: 10 spaces +1 water · 5–1 · Fox +11"
        assert totals(screen) == "Fox 20 · Snake 13"

        await screen.tap("scoring-done")  # the end screen lists the zones, with no correction
        assert screen.text_of("zone-2") == "Zone 2: 10 spaces +1 water · 5–1 · Fox +11"
        assert isinstance(screen.find("zone-2"), ft.Text) and not screen.exists("amend-hint")

"""The New game screen: the game, the players in seat order, the options, and why a set-up
cannot start yet."""

from __future__ import annotations

import flet as ft
from app_helpers import add_players, app_screen, memory_app, notice, start_game, table
from flet_harness import Screen

from companion.app.inputs import is_filled


def seats(screen: Screen) -> list[str]:
    found = []
    number = 1
    while screen.exists(f"seat-{number}"):
        found.append(screen.text_of(f"seat-{number}"))
        number += 1
    return found


def chosen(screen: Screen, key: str) -> bool:
    """A choice is told by a tick, not by colour alone."""
    return bool(screen.find(key).icon == ft.Icons.CHECK)


@table
async def test_the_empty_set_up_explains_why_it_cannot_start() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        assert "New game" in screen.texts()
        assert chosen(screen, "game-heartland") and not chosen(screen, "game-transamerica")
        assert screen.text_of("game-heartland") == "The Great Heartland Hauling Co. · 2–4 players"
        assert screen.text_of("game-great_plains") == "Great Plains · 2 players"
        why = "The Great Heartland Hauling Co. is for 2 to 4 players, not 0."
        assert screen.text_of("setup-problem") == why
        await screen.tap("start")
        assert notice(screen) == why
        assert "New game" in screen.texts()  # still here: nothing was created
        await screen.tap("back")
        assert screen.exists("empty")


@table
async def test_adding_removing_and_reordering_players() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        await add_players(screen, ["Ann", "Bob"])
        await screen.type("player-name", "  Cy  ", submit=True)  # Enter adds too; spaces are trimmed
        assert seats(screen) == ["1. Ann", "2. Bob", "3. Cy"]
        assert screen.find("player-name").value == ""
        assert screen.is_disabled("up-ann") and screen.is_disabled("down-cy")

        await screen.tap("up-bob")
        assert seats(screen) == ["1. Bob", "2. Ann", "3. Cy"]
        await screen.tap("down-ann")
        assert seats(screen) == ["1. Bob", "2. Cy", "3. Ann"]
        await screen.tap("remove-cy")
        assert seats(screen) == ["1. Bob", "2. Ann"]

        await screen.tap("add-player")
        assert notice(screen) == "Type a name first."
        await screen.type("player-name", "ann")
        await screen.tap("add-player")
        assert notice(screen) == "ann is already playing; each name must be different."
        assert seats(screen) == ["1. Bob", "2. Ann"]
        await screen.type("player-name", "X" * 31)
        await screen.tap("add-player")
        assert notice(screen) == f"The name '{'X' * 31}' is longer than 30 characters."
        await screen.tap("notice-close")
        assert notice(screen) is None

        await screen.tap("start")
        assert screen.text_of("subtitle") == "Round 1 · Bob's turn"  # the first seat plays first


@table
async def test_known_names_come_back_as_chips() -> None:
    data = memory_app()
    async with app_screen(data) as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob", "Eve"])
        await screen.tap("back")
        await screen.tap("new-game")
        assert "Played before:" in screen.texts()
        assert screen.text_of("known-eve") == "Eve" and screen.find("known-eve").tooltip == "Add Eve"
        await screen.tap("known-eve")
        await screen.tap("known-ann")
        assert seats(screen) == ["1. Eve", "2. Ann"]
        # Ann's chip stays where it was, marked as playing: another tap says so and adds nothing.
        assert not is_filled(screen.find("known-bob")) and chosen(screen, "known-ann")
        # Picked or not, a chip carries one icon (+ or a tick): picking one never widens it.
        assert screen.find("known-bob").icon == ft.Icons.ADD
        await screen.tap("known-ann")
        assert notice(screen) == "Ann is already playing; each name must be different."
        assert seats(screen) == ["1. Eve", "2. Ann"]
        await screen.type("player-name", "Zoé")
        await screen.tap("add-player")
        assert seats(screen) == ["1. Eve", "2. Ann", "3. Zoé"]


@table
async def test_heartland_targets_show_their_value_for_the_player_count() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        assert screen.text_of("target-rulebook") == "Rulebook by player count"
        assert chosen(screen, "target-rulebook")
        await add_players(screen, ["Ann", "Bob"])
        assert (screen.text_of("target-rulebook"), screen.text_of("target-blog")) == ("Rulebook $50", "Blog $50")
        await add_players(screen, ["Cy"])
        assert (screen.text_of("target-rulebook"), screen.text_of("target-blog")) == ("Rulebook $40", "Blog $40")
        await add_players(screen, ["Dee"])
        assert (screen.text_of("target-rulebook"), screen.text_of("target-blog")) == ("Rulebook $40", "Blog $30")
        await add_players(screen, ["Eve"])
        assert screen.text_of("target-rulebook") == "Rulebook by player count"
        why = "The Great Heartland Hauling Co. is for 2 to 4 players, not 5."
        assert screen.text_of("setup-problem") == why
        await screen.tap("start")
        assert notice(screen) == why
        await screen.tap("remove-eve")
        await screen.tap("target-custom")
        await screen.tap("target-rulebook")
        assert chosen(screen, "target-rulebook") and not screen.exists("custom-target")
        await screen.tap("target-blog")
        assert chosen(screen, "target-blog") and not chosen(screen, "target-rulebook")
        await screen.tap("start")
        assert screen.text_of("target") == "Target $30 (blog) · leader Ann $5"


@table
async def test_a_custom_target_tapped_or_typed_and_the_variant_switches() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        await add_players(screen, ["Ann", "Bob"])
        assert not screen.exists("custom-target-typed")
        await screen.tap("target-custom")
        assert is_filled(screen.find("custom-target-40"))
        await screen.tap("custom-target-25")  # a round amount: one tap
        assert screen.text_of("target-custom") == "Custom $25"
        await screen.type("custom-target-typed", "44")  # any other: typed on the number pad
        assert screen.text_of("target-custom") == "Custom $44"
        await screen.type("custom-target-typed", "0")
        assert screen.find("custom-target-typed").error == "From 1 to 999."
        assert screen.text_of("target-custom") == "Custom $44"  # not kept
        await screen.type("custom-target-typed", "44")
        for name in ("short_haul", "alternate_routes", "truck_stops"):
            assert screen.find(f"option-{name}").height == 48  # a switch is as tall as any other target
            await screen.toggle(f"option-{name}", True)
        await screen.toggle("option-truck_stops", False)
        assert screen.find("option-short_haul").value is True
        await screen.tap("start")
        assert screen.text_of("target") == "Target $44 (custom) · leader Ann $5"
        assert screen.text_of("cubes-ann") == "0/6 cubes"  # Short Haul
        assert screen.exists("toll") and screen.exists("weigh")  # Alternate Routes
        assert not screen.exists("upgrade")  # Truck Stops switched back off


@table
async def test_transamerica_takes_two_to_six() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        await screen.tap("game-transamerica")
        assert chosen(screen, "game-transamerica") and not chosen(screen, "game-heartland")
        assert "Everyone starts with 13 points; the start player moves one seat each round." in screen.texts()
        assert not screen.exists("target-rulebook")
        await add_players(screen, ["A1", "A2", "A3", "A4", "A5", "A6", "A7"])
        assert screen.text_of("setup-problem") == "TransAmerica is for 2 to 6 players, not 7."
        await screen.tap("remove-a7")
        assert not screen.exists("setup-problem")
        await screen.tap("start")
        assert screen.text_of("subtitle") == "Round 1 · A1 starts"
        assert screen.text_of("points-a6") == "13"


@table
async def test_great_plains_needs_exactly_two_and_a_fox() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        await add_players(screen, ["Ann", "Bob", "Cy"])  # players are kept when the game changes
        await screen.tap("game-great_plains")
        why = "Great Plains is for exactly 2 players, not 3."
        assert screen.text_of("setup-problem") == why
        assert screen.find("start").tooltip == why
        await screen.tap("start")
        assert notice(screen) == why
        assert "New game" in screen.texts()

        await screen.tap("remove-ann")
        assert not screen.exists("setup-problem")
        assert screen.text_of("fox-bob") == "Bob is Fox" and chosen(screen, "fox-bob")
        await screen.tap("fox-cy")
        assert chosen(screen, "fox-cy") and not chosen(screen, "fox-bob")
        await screen.tap("start")
        assert "Fox" in screen.text_of("tribe-fox") and "Cy" in screen.text_of("tribe-fox")
        assert screen.text_of("subtitle") == "Snake's turn (Bob) · cave"


@table
async def test_great_plains_without_players_asks_for_them() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        await screen.tap("game-great_plains")
        assert "Add the two players, then choose who plays Fox (orange)." in screen.texts()
        assert screen.text_of("setup-problem") == "Great Plains is for exactly 2 players, not 0."


@table
async def test_enter_adds_the_name_and_keeps_the_keyboard_in_the_field() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        await screen.type("player-name", "Ann", submit=True)
        await screen.settle()
        assert seats(screen) == ["1. Ann"] and screen.find("player-name").value == ""
        focused = [control for control, method, _ in screen.method_calls if method == "focus"]
        assert focused and focused[-1] is screen.find("player-name")  # ready for the next name
        await screen.type("player-name", "Bob", submit=True)
        assert seats(screen) == ["1. Ann", "2. Bob"]


@table
async def test_the_options_below_are_named_above_start_and_a_tap_scrolls_to_them() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        assert screen.text_of("options-hint") == "Target by player count · variants on: 0 of 3"
        await add_players(screen, ["Ann", "Bob", "Cy"])
        await screen.toggle("option-short_haul", True)
        assert screen.text_of("options-hint") == "Target $40 · variants on: 1 of 3"
        await screen.tap("options-hint")
        await screen.settle()
        scrolled = [args for _, method, args in screen.method_calls if method == "scroll_to"]
        assert scrolled and str(scrolled[-1]["scroll_key"]) == "setup-options"
        await screen.tap("game-transamerica")
        assert screen.text_of("options-hint") == "Options below"


@table
async def test_a_random_first_player_turns_the_seats_and_the_log_says_who_was_drawn() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        await screen.tap("game-transamerica")
        await add_players(screen, ["Ann", "Bob", "Cy", "Dee"])
        colours = [screen.find(f"colour-{name}").icon_color for name in ("ann", "bob", "cy", "dee")]
        for _ in range(4):
            await screen.tap("random-first")
            # Nobody's colour changes with their seat.
            assert [screen.find(f"colour-{name}").icon_color for name in ("ann", "bob", "cy", "dee")] == colours
            first = seats(screen)[0][3:]
            order = ["Ann", "Bob", "Cy", "Dee"]
            start = order.index(first)
            # The order round the table is kept: the drawn player sits first, the others follow.
            assert seats(screen) == [
                f"{seat}. {name}" for seat, name in enumerate(order[start:] + order[:start], start=1)
            ]
            assert screen.text_of("drawn") == f"Drawn at random: {first} plays first."
        await screen.tap("start")
        assert screen.text_of("subtitle") == f"Round 1 · {first} starts"
        await screen.tap("log")
        assert f"{first} was drawn at random to play first." in screen.texts()


@table
async def test_moving_a_seat_after_the_draw_forgets_it() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        await add_players(screen, ["Ann", "Bob"])
        await screen.tap("random-first")
        first, second = (seat[3:] for seat in seats(screen))
        await screen.tap(f"down-{first.lower()}")
        assert not screen.exists("drawn")
        await screen.tap("start")
        await screen.tap("log")
        assert not any("drawn at random" in text for text in screen.texts())


@table
async def test_great_plains_draw_is_said_in_the_log_and_offers_no_second_draw() -> None:
    async with app_screen() as screen:
        await screen.tap("new-game")
        await screen.tap("game-great_plains")
        await add_players(screen, ["Ann", "Bob"])
        assert not screen.exists("random-first")
        await screen.tap("first-random")
        first = next(name for name in ("Ann", "Bob") if chosen(screen, f"first-{name.lower()}"))
        await screen.tap("start")
        await screen.tap("log")
        assert f"{first} was drawn at random to play first." in screen.texts()


@table
async def test_each_player_picks_a_colour_no_two_alike_and_keeps_it_in_the_game() -> None:
    data = memory_app()
    async with app_screen(data) as screen:
        await screen.tap("new-game")
        await screen.tap("game-transamerica")
        await add_players(screen, ["Ann", "Bob", "Eve"])
        # By seat at first: red, blue, green; the colour is said in words, not by colour alone.
        assert screen.find("colour-eve").tooltip == "Eve's colour: green. Tap for the next free colour"
        await screen.tap("colour-eve")
        assert screen.find("colour-eve").tooltip.startswith("Eve's colour: purple.")
        await screen.tap("colour-ann")  # red -> blue is Bob's: green, the next free one
        assert screen.find("colour-ann").tooltip.startswith("Ann's colour: green.")
        eve = screen.find("colour-eve").icon_color
        await screen.tap("up-eve")  # a seat moved keeps its player's colour
        assert screen.find("colour-eve").icon_color == eve
        await screen.tap("start")
        names = screen.find_all(where=lambda control: isinstance(control, ft.Text) and control.value == "Eve")
        assert names and all(name.color == eve for name in names)  # the game draws Eve in the colour she picked
        (summary,) = data.sessions()
        assert data.open(summary.id).options["colours"] == {"Ann": "green", "Eve": "purple", "Bob": "blue"}


@table
async def test_play_again_keeps_the_colours_but_not_the_draw() -> None:
    data = memory_app()
    async with app_screen(data) as screen:
        await screen.tap("new-game")
        await screen.tap("game-transamerica")
        await add_players(screen, ["Ann", "Bob"])
        await screen.tap("colour-bob")  # blue -> green
        await screen.tap("random-first")
        await screen.tap("start")
        await screen.tap("log")
        await screen.tap("stop-game")
        await screen.tap("stop-confirm")
        await screen.tap("play-again")
        await screen.tap("log")
        assert not any("drawn at random" in text for text in screen.texts())
        (newest,) = [summary for summary in data.sessions() if summary.finished is None]
        assert data.open(newest.id).options == {"colours": {"Ann": "red", "Bob": "green"}}

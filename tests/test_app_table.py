"""At a real table: a tap moves nothing under the finger, a sleeping phone loses nothing, a
stale screen records nothing, and the usual acts cost few taps."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import flet as ft
from app_helpers import app_screen, last_act, log_line, memory_app, notice, playing, start_game, table
from flet.pubsub.pubsub_hub import PubSubHub
from flet_harness import Screen, wait_for

from companion.app.data import AppData
from companion.app.main import make_main
from companion.app.widgets import NOTICE_HEIGHT

STALE = "This game changed on another screen; nothing was recorded."
FOUR = ["Ann", "Bob", "Cy", "Dee"]


def ids(screen: Screen, *keys: str) -> dict[str, int]:
    return {key: screen.find(key)._i for key in keys}


@table
async def test_a_tap_patches_only_what_changed_and_keeps_the_controls_under_the_finger() -> None:
    async with playing("heartland", FOUR) as screen:
        kept = ("body", "top-bar", "undo", "move-fuel-1", "move-cash-2", "discard", "end-turn", "money-ann", "card-bob")
        before = ids(screen, *kept)
        whole_page = screen.dispatches[-1].bytes_sent  # the tap that drew the game screen from scratch
        tap = await screen.tap("move-fuel-1")
        assert ids(screen, *kept) == before
        assert last_act(screen) == "Last: Ann moved 1 space with fuel"
        assert 0 < tap.bytes_sent < whole_page / 4, (tap.bytes_sent, whole_page)


@table
async def test_a_sheet_opens_over_the_page_and_closing_it_leaves_the_page_as_it_was() -> None:
    async with playing("transamerica", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]) as screen:
        before = ids(screen, "body", "end-round", "row-fay", "points-fay")
        await screen.tap("end-round")
        assert screen.in_top_dialog("end-round-panel")
        first = screen.find("missing-fay-2")._i
        await screen.tap("missing-fay-2")
        await screen.tap("missing-fay-2")  # the same button, at the same place, means the same
        assert screen.find("missing-fay-2")._i == first
        assert screen.find("missing-fay-typed").value == "2" and screen.find("missing-eve-typed").value == "0"
        await screen.tap("panel-close")
        assert screen.modal_barrier() is None
        assert ids(screen, "body", "end-round", "row-fay", "points-fay") == before


@table
async def test_a_notice_has_a_slot_of_its_own_and_the_refused_button_is_marked() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        await screen.tap("move-cash-2")
        tree = ids(screen, "body", "move-cash-1", "end-turn", "undo-strip")
        await screen.tap("move-cash-1")
        assert notice(screen) == "Ann has already moved this turn."
        assert ids(screen, "body", "move-cash-1", "end-turn", "undo-strip") == tree
        # Between the body and End turn, always there and always as tall: it covers nothing and moves nothing.
        slot = screen.find("notice-slot")
        column = slot.parent.controls
        assert column.index(slot) == column.index(screen.find("body")) + 1
        assert column.index(screen.find("end-turn")) == column.index(slot) + 1
        assert slot.height == NOTICE_HEIGHT
        assert screen.find("move-cash-1").icon == ft.Icons.ERROR_OUTLINE  # next to the finger
        assert screen.find("end-turn").icon is None
        await screen.tap("notice-close")
        assert notice(screen) is None and screen.find("move-cash-1").icon is None


# --- a sleeping phone ----------------------------------------------------------------------


@table
async def test_a_dropped_socket_keeps_the_game_the_sheet_and_the_wake_lock() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        await screen.tap("move-fuel-1")
        await screen.tap("load")
        locks = [call for call in screen.method_calls if call[1] == "enable"]
        await screen.reconnect()
        assert [call for call in screen.method_calls if call[1] == "enable"] != locks  # taken again
        assert screen.text_of("panel-title") == "Load · Ann"
        await screen.tap("load-corn-2")
        assert last_act(screen) == "Last: Ann loaded 2 corn"
        await screen.reconnect()
        await screen.tap("end-turn")
        assert last_act(screen) == "Last: Ann ended the turn; Bob plays"
        await screen.tap("log")
        assert (log_line(screen, 3) or "").startswith("3. Ann ended the turn")
        assert log_line(screen, 4) is None  # each tap recorded once


@contextlib.asynccontextmanager
async def two_tabs(
    data: AppData, session_id: str, hub: PubSubHub | None = None
) -> AsyncIterator[tuple[Screen, Screen]]:
    """Two tabs on one game, closed afterwards. With `hub` they hear of each other's taps, as
    the tabs of one server do; without it they do not (as at the instant both tap)."""
    first, second = Screen(make_main(data), pubsub=hub), Screen(make_main(data), pubsub=hub)
    try:
        for tab in (first, second):
            await tab.start()
            if tab.exists(f"session-{session_id}"):  # else it reopened the game already
                await tab.tap(f"session-{session_id}")
        yield first, second
    finally:
        await first.close()
        await second.close()


@table
async def test_a_phone_that_slept_through_another_tabs_tap_wakes_to_it() -> None:
    hub = PubSubHub(loop=asyncio.get_running_loop())
    data = memory_app()
    game = data.new("heartland", ["Ann", "Bob"], {})
    assert game.id is not None
    data.close_session(game.id)
    async with two_tabs(data, game.id, hub) as (first, second):
        await second.drop()
        await first.tap("move-cash-2")
        await second.come_back()
        assert second.text_of("money-ann") == "$3" and second.text_of("last-act") == "Last: Ann moved 2 spaces for $2"
        await second.tap("discard")
        assert notice(second) is None and first.text_of("money-ann") == "$2"


@table
async def test_a_restart_reopens_the_same_game_and_the_same_sheet_with_its_inputs() -> None:
    data = memory_app()
    async with playing("transamerica", ["Ann", "Bob", "Cy"], data) as screen:
        await screen.tap("end-round")
        await screen.tap("missing-bob-4")
    async with app_screen(data) as screen:
        assert screen.text_of("panel-title") == "End of round 1"
        assert screen.find("missing-bob-typed").value == "4"
        await screen.tap("missing-cy-2")
        await screen.tap("save-round")
        assert last_act(screen) == "Last: Round 1 ended: Ann connected all cities; Bob -4, Cy -2"


# --- a stale screen ----------------------------------------------------------------------


@table
async def test_apply_undo_and_redo_on_a_stale_screen_record_nothing_and_say_so() -> None:
    data = memory_app()
    game = data.new("heartland", ["Ann", "Bob"], {})
    assert game.id is not None
    data.close_session(game.id)
    async with two_tabs(data, game.id) as (first, second):
        shared = data.open(game.id)

        await first.tap("move-cash-2")
        await second.tap("move-fuel-1")  # drawn before Ann's cash move
        assert notice(second) == STALE
        assert [event["pay"] for event in shared.events] == ["cash"]
        assert second.text_of("money-ann") == "$3"  # the screen shows what is true now

        await first.tap("discard")
        await second.tap("undo")
        assert notice(second) == STALE
        assert [event["type"] for event in shared.events] == ["move", "discard"] and shared.can_redo is False

        await first.tap("undo")
        await second.tap("log")  # any tap draws the second screen again, Redo included
        await second.tap("panel-close")
        await first.tap("redo")
        await second.tap("redo")  # drawn before the first tab's redo
        assert notice(second) == STALE
        assert [event["type"] for event in shared.events] == ["move", "discard"] and not shared.can_redo

        await second.tap("undo")  # now drawn from the latest version: it acts
        assert notice(second) is None and [event["type"] for event in shared.events] == ["move"]
        data.close_session(game.id)


@table
async def test_a_tap_sent_before_the_browser_showed_another_tabs_change_is_refused() -> None:
    """Both tabs tap Undo at once: the second tab is redrawn on the server first, but its
    browser had not shown that yet when it sent the tap. It answers a question sent after
    the redraw only once it has applied it; until then its taps act on what it showed."""
    hub = PubSubHub(loop=asyncio.get_running_loop())
    data = memory_app()
    game = data.new("heartland", ["Ann", "Bob"], {})
    assert game.id is not None
    game.apply({"type": "move", "player": "Ann", "spaces": 1, "pay": "fuel"})
    game.apply({"type": "discard", "player": "Ann", "forced": False})
    data.close_session(game.id)
    async with two_tabs(data, game.id, hub) as (first, second):
        assert second.session is not None
        answer = second.session.handle_invoke_method_results
        held: list[tuple[Any, ...]] = []
        second.session.handle_invoke_method_results = lambda *reply: held.append(reply)  # type: ignore[method-assign]
        shared = data.open(game.id)
        await first.tap("undo")
        await wait_for(lambda: second.text_of("last-act") == "Last: Ann moved 1 space with fuel")
        await second.tap("undo")  # the browser still showed "Undo: Ann discarded for $1"
        assert notice(second) == STALE
        assert shared.cursor == 1
        for reply in held:  # the browser answers: it shows the redraw now
            answer(*reply)
        await second.settle()
        await second.tap("undo")
        assert notice(second) is None and shared.cursor == 0
        data.close_session(game.id)


@table
async def test_a_stale_sheet_closes_with_nothing_recorded() -> None:
    data = memory_app()
    game = data.new("transamerica", ["Ann", "Bob"], {})
    assert game.id is not None
    data.close_session(game.id)
    async with two_tabs(data, game.id) as (first, second):
        await second.tap("end-round")
        await second.tap("missing-bob-3")
        await first.tap("end-round")
        await first.tap("missing-bob-2")
        await first.tap("save-round")
        await second.tap("save-round")
        assert notice(second) == STALE
        assert second.modal_barrier() is None
        assert second.text_of("points-bob") == "11"  # one round, Bob -2


# --- tap budgets -------------------------------------------------------------------------


class Taps:
    """Counts the taps of a path, the way a player's thumb would."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.count = 0

    async def __call__(self, *keys: str) -> None:
        for key in keys:
            await self.screen.tap(key)
            self.count += 1


async def heartland_with_cargo(screen: Screen, **options: Any) -> None:
    await start_game(screen, "heartland", ["Ann", "Bob"], **options)
    await screen.tap("move-fuel-1")
    await screen.tap("load")
    await screen.tap("load-cattle-5")
    await screen.tap("end-turn")
    await screen.tap("move-fuel-1")
    await screen.tap("discard")
    await screen.tap("end-turn")
    await screen.tap("move-fuel-1")


@table
async def test_an_unload_at_any_printed_price_takes_three_taps_and_the_last_price_two() -> None:
    async with app_screen() as screen:
        await heartland_with_cargo(screen)
        taps = Taps(screen)
        await taps("unload", "price-17", "unload-cattle-2")
        assert last_act(screen) == "Last: Ann unloaded 2 cattle at $17 (+$34)"
        assert taps.count == 3
        await screen.tap("end-turn")
        await screen.tap("move-fuel-1")
        await screen.tap("discard")
        await screen.tap("end-turn")
        await screen.tap("move-fuel-1")
        taps = Taps(screen)
        await taps("unload", "unload-cattle-3")  # $17 stands until another price is tapped
        assert last_act(screen) == "Last: Ann unloaded 3 cattle at $17 (+$51)"
        assert taps.count == 2


@table
async def test_a_money_correction_of_one_to_ten_either_way_takes_three_taps() -> None:
    async with playing("heartland", ["Ann", "Bob"]) as screen:
        for amount, money in ((3, "$8"), (10, "$18"), (-7, "$11"), (-1, "$10")):
            taps = Taps(screen)
            await taps("adjust-ann", f"adjust-{amount}", "adjust-save")
            assert screen.text_of("money-ann") == money
            assert taps.count == 3


@table
async def test_a_transamerica_round_costs_at_most_one_tap_per_player_plus_one() -> None:
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    async with playing("transamerica", players) as screen:
        missing = {"Ann": 0, "Bob": 6, "Cy": 3, "Dee": 1, "Eve": 2, "Fay": 5}
        taps = Taps(screen)
        await taps("end-round", *(f"missing-{p.lower()}-{n}" for p, n in missing.items() if n), "save-round")
        assert taps.count <= 1 + len(players)
        assert [screen.text_of(f"points-{p.lower()}") for p in players] == ["13", "7", "10", "12", "11", "8"]


# --- targets and the home screen ---------------------------------------------------------


def small_targets(screen: Screen) -> list[str]:
    """Tappable controls on screen whose declared size is under 48×48 dp."""
    small = []
    for control in screen.walk(visible_only=True):
        if isinstance(control, ft.IconButton):
            size = (control.width or 40, control.height or 40)
        elif isinstance(control, (ft.Button, ft.TextButton, ft.OutlinedButton, ft.FilledButton)):
            size = (control.width or 64, control.height or 40)
        else:
            continue
        if min(size) < 48:
            small.append(f"{control.key or type(control).__name__}: {size}")
    return small


@table
async def test_every_button_is_at_least_48_by_48() -> None:
    async with playing("heartland", ["Ann", "Bob"], switches=["alternate_routes", "truck_stops"]) as screen:
        assert small_targets(screen) == []
        await screen.tap("move-fuel-1")
        for sheet in ("load", "adjust-ann", "upgrade", "log"):
            await screen.tap(sheet)
            assert small_targets(screen) == [], sheet
            await screen.tap("panel-close")
        await screen.tap("back")
        assert small_targets(screen) == []
        await screen.tap("new-game")
        await screen.tap("game-transamerica")
        assert small_targets(screen) == []


@table
async def test_delete_is_red_labelled_and_the_card_is_named_by_its_game() -> None:
    data = memory_app()
    async with app_screen(data) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("back")
        (summary,) = data.sessions()
        card = screen.find(f"session-{summary.id}")
        assert screen.text_of(f"session-{summary.id}").startswith("Heartland · Ann and Bob")
        assert card.tooltip is None  # a screen reader reads the card's own words, the game first
        bin_words = screen.find(f"delete-{summary.id}").content
        assert bin_words.value == "Delete"  # the bin says what it does
        assert bin_words.semantics_label == "Delete Heartland · Ann and Bob"  # and to a screen reader, to what
        await screen.tap(f"delete-{summary.id}")
        confirm = screen.find(f"confirm-delete-{summary.id}")
        assert confirm.style.bgcolor == ft.Colors.ERROR and confirm.style.color == ft.Colors.ON_ERROR


# --- end screens -------------------------------------------------------------------------


@table
async def test_play_again_starts_a_new_game_with_the_same_players_and_options() -> None:
    data = memory_app()
    async with playing("heartland", ["Ann", "Bob"], data, target="blog", switches=["short_haul"]) as screen:
        await screen.tap("adjust-ann")
        await screen.type("adjust-typed", "55")
        await screen.tap("adjust-save")
        await screen.tap("move-fuel-1")
        await screen.tap("discard")
        await screen.tap("end-turn")
        await screen.tap("move-fuel-1")
        await screen.tap("discard")
        await screen.tap("end-turn")
        assert screen.text_of("subtitle") == "Game over"
        assert not screen.exists("target")  # the result only: no pre-penalty leader bar
        await screen.tap("play-again")
        assert screen.text_of("subtitle") == "Round 1 · Ann's turn"
        assert screen.text_of("cubes-ann") == "0/6 cubes"
        finished, fresh = sorted(data.sessions(), key=lambda summary: summary.is_over, reverse=True)
        assert finished.is_over and not fresh.is_over
        assert fresh.players == finished.players == ("Ann", "Bob")

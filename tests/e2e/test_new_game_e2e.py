"""New game at the table, in Chromium at 412×915: the names played before, the keyboard
kept after Enter, every target 48 px or more, the options below the fold named above Start,
a random first player, a colour each; and the table clock in words on the game screen.

Taps go through the position recorder (`finger.Finger`): nothing may move under the finger
but a list growing below the tap.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from clock_helpers import SetClock, clock_set
from finger import Finger
from harness import Browsers, FlutterPage, serve_app
from seeds import nothing, seed
from test_app_e2e import see, tap_icon, type_text
from test_nothing_moves import still
from watch import find, in_view, open_from_home, open_watched, settle, view

from companion.app.data import AppData
from companion.store import Store

APP = "companion.app.main:main"

# Every control a finger can tap, with its box: buttons, switches, text fields.
_TARGETS_JS = """() => Array.from(document.querySelectorAll(
        "flt-semantics[role=button], flt-semantics[role=switch], flt-semantics[role=checkbox]"))
    .map((e) => { const box = e.getBoundingClientRect(); const tip = e.parentElement.getAttribute("aria-label");
                  return {label: e.textContent.trim() || tip || e.getAttribute("aria-label") || e.getAttribute("role"),
                          width: box.width, height: box.height}; })"""


def open_app(browsers: Browsers, data_dir: Path) -> Iterator[FlutterPage]:
    with serve_app(APP, data_dir=data_dir) as server:
        page = open_watched(browsers, server.url)
        try:
            yield page
        finally:
            page.page.context.close()


@pytest.fixture
def known_names(browsers: Browsers, tmp_path: Path) -> Iterator[FlutterPage]:
    """The app on a data folder where Ann, Bob, Cid and Dee played a TransAmerica game."""
    data_dir = tmp_path / "data"
    seed(data_dir, [("transamerica", 4, {}, nothing)])
    yield from open_app(browsers, data_dir)


def small_targets(ui: FlutterPage) -> list[str]:
    """Targets under 48 px either way, each measured at its largest over the page scrolled from
    top to bottom (a target at the edge of the scrolling body is drawn cut)."""
    largest: dict[str, tuple[float, float]] = {}
    ui.page.mouse.move(206, 400)
    for _ in range(8):
        for target in ui.page.evaluate(_TARGETS_JS):
            width, height = largest.get(target["label"], (0.0, 0.0))
            largest[target["label"]] = (max(width, target["width"]), max(height, target["height"]))
        ui.page.mouse.wheel(0, 150)
        settle(ui, None)
    ui.page.mouse.wheel(0, -2000)
    settle(ui, None)
    return [
        f"{label!r}: {width:.0f}×{height:.0f}"
        for label, (width, height) in largest.items()
        if min(width, height) < 47.5
    ]


def focused_input(ui: FlutterPage) -> bool:
    return bool(ui.page.evaluate("() => document.activeElement && document.activeElement.tagName === 'INPUT'"))


def test_played_before_chips_stay_put_and_every_target_is_48_px(known_names: FlutterPage) -> None:
    ui = known_names
    finger = Finger(ui, watch_moves=True, names=("Ann", "Bob", "Cid", "Dee"))
    see(ui, "Companion")
    finger.tap("+ New game")
    see(ui, "Played before:")

    def chip_widths() -> dict[str, float]:
        return {
            button.label: round(button.width)
            for button in view(ui).buttons
            if button.label in ("Ann", "Bob", "Cid", "Dee")
        }

    before = chip_widths()
    # Picked, a chip keeps its width (its + becomes a tick): the chips after it stay put.
    finger.tap("Bob")
    see(ui, "1. Bob")
    finger.tap("Ann")
    see(ui, "2. Ann")
    still(finger, "Played before")
    assert chip_widths() == before and len(before) == 4
    ui.screenshot("new-game-01-played-before")
    # Every target of Heartland's set-up, its variant switches included, is 48 px both ways.
    assert small_targets(ui) == []
    ui.page.get_by_role("switch", name=re.compile(r"^Alternate Routes")).click()
    see(ui, "Target $50 · variants on: 1 of 3")
    assert small_targets(ui) == []


def test_enter_adds_the_name_and_the_next_one_is_typed_straight_away(known_names: FlutterPage) -> None:
    ui = known_names
    see(ui, "Companion")
    Finger(ui).tap("+ New game")
    type_text(ui, "Player name", "Eve")
    ui.page.keyboard.press("Enter")
    see(ui, "1. Eve")
    ui.page.wait_for_function("() => document.activeElement && document.activeElement.tagName === 'INPUT'")
    # No tap on the field: the keyboard is still there for the next name.
    ui.page.keyboard.type("Fay")
    ui.page.keyboard.press("Enter")
    see(ui, "2. Fay")
    assert focused_input(ui)
    assert ui.text_input("Player name").input_value() == ""


def test_the_variants_below_the_fold_are_named_above_start_and_one_tap_shows_them(known_names: FlutterPage) -> None:
    ui = known_names
    finger = Finger(ui)
    see(ui, "Companion")
    finger.tap("+ New game")
    for name in ("Ann", "Bob", "Cid", "Dee"):
        finger.tap(name)
    see(ui, "4. Dee")
    truck_stops = re.compile(r"^Truck Stops")

    def switch_in_view() -> bool:
        boxes = ui.page.evaluate("""() => Array.from(document.querySelectorAll("flt-semantics[role=switch]"))
            .filter((e) => (e.getAttribute("aria-label") || "").startsWith("Truck Stops"))
            .map((e) => { const b = e.getBoundingClientRect(); return [b.top, b.bottom]; })""")
        return bool(boxes) and boxes[0][0] >= 0 and boxes[0][1] <= hint.y  # above the line and Start

    hint = find(view(ui).buttons, "Target $40 · variants on: 0 of 3")
    assert hint is not None and in_view(hint)
    assert not switch_in_view()
    ui.screenshot("new-game-02-variants-below")
    ui.page.mouse.click(hint.x + hint.width / 2, hint.y + hint.height / 2)  # it scrolls the page: on purpose
    settle(ui, None)
    ui.page.wait_for_timeout(500)  # the scroll is animated
    assert switch_in_view()
    ui.screenshot("new-game-03-variants-shown")
    ui.page.get_by_role("switch", name=truck_stops).click()  # reachable now: the line says so
    see(ui, "Target $40 · variants on: 1 of 3")


def test_a_random_first_player_and_a_colour_each_reach_the_game(known_names: FlutterPage) -> None:
    ui = known_names
    names = ("Ann", "Bob", "Cid")
    finger = Finger(ui, watch_moves=True, names=names)
    see(ui, "Companion")
    finger.tap("+ New game")
    finger.tap("TransAmerica · 2–6 players")
    for name in names:
        finger.tap(name)
    see(ui, "3. Cid")
    # The draw turns the seats (that is what it does, as Up and Down do): the rows change places,
    # the Random button under the finger does not move.
    draw = finger.button("Random first player")
    finger.watch_moves = False
    finger.press(draw)
    finger.watch_moves = True
    drawn_at = finger.button("Random first player")
    assert (drawn_at.x, drawn_at.y, drawn_at.width, drawn_at.height) == (draw.x, draw.y, draw.width, draw.height)
    drawn = re.search(r"Drawn at random: (\w+) plays first\.", " ".join(view(ui).texts))
    assert drawn is not None
    first = drawn.group(1)
    see(ui, f"1. {first}")
    # Cid (green by seat) taps her colour: the next one nobody has.
    finger.tap("Cid's colour: green. Tap for the next free colour")
    see_tip(ui, "Cid's colour: purple. Tap for the next free colour")
    still(finger, "Draw and colours")
    ui.screenshot("new-game-04-drawn-and-colours")
    finger.tap("Start game")
    see(ui, f"Round 1 · {first} starts")
    tap_icon(ui, "Session log")
    see(ui, f"{first} was drawn at random to play first.")


def see_tip(ui: FlutterPage, tip: str) -> None:
    ui.page.get_by_label(tip, exact=True).wait_for(state="attached", timeout=ui.timeout_ms)


def test_the_table_clock_reads_minutes_and_hours_in_words(browsers: Browsers, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with clock_set(SetClock()) as now:  # a game that ran 1 h 05 and was paused for the pizza
        data = AppData(Store(data_dir))
        session = data.new("transamerica", ["Ann", "Bob"], {})
        now.wait(65 * 60)
        session.apply({"type": "clock", "mark": "pause"})
        assert session.id is not None
        data.close_session(session.id)
        data.remember_screen(None)
    for ui in open_app(browsers, data_dir):
        open_from_home(ui, "TransAmerica · Ann and Bob")
        chip = ui.page.get_by_role("button", name="1 h 05", exact=True)
        chip.wait_for(state="attached", timeout=ui.timeout_ms)
        box = chip.bounding_box()
        assert box is not None and box["height"] >= 48
        ui.screenshot("clock-01-one-hour-five")

"""Tap budgets, driven and counted in Chromium at 412×915: every tap is a real click on the
page (the page's own count of pointer-downs must agree with the finger's), every typed
number one entry.

- a Great Plains zone of up to 12 spaces, 3 water sources and 6 tokens a tribe: ≤ 6 taps,
  "+ Zone" and "Add zone" included (each number one tap on a chip);
- a TransAmerica round where players miss up to 12 segments: ≤ 1 + the number of players,
  "End round" and "Save round" included (whoever connected everything stays at 0: no tap);
- a Heartland unload at any price: ≤ 3 (Unload, the price, the count);
- a money or cargo correction: ≤ 3 (Correct…, the amount, Save);
- a number typed — a custom money target, a price, a correction — in a number field: it
  keeps the digits and refuses a letter. (Whether it opens a phone's number pad cannot be
  seen here: Flutter web sets `inputmode` only on Android and iOS, and its semantics layer
  removes it again from a text field; the screen's `keyboard_type` is for in-process tests.)

A number is found under its heading as the user reads it ("Spaces", "Fox tokens", a
player's name): the chip labelled with the bare number that follows the heading, else the
number field after the heading (see `finger.Finger.pick`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from finger import Finger
from harness import FlutterPage, open_browsers, require_browser, serve_app
from seeds import great_plains_scoring, heartland_hauling, nothing, seed
from test_app_e2e import see, see_card, type_text
from watch import open_from_home, open_watched

APP = "companion.app.main:main"
# The typed fields, by words of their label or of the heading they follow (the exact words
# are the screen's choice): "Custom target" + "Other", "Price", "Amount" + "Other".
TARGET_FIELD = re.compile("target", re.IGNORECASE)
PRICE_FIELD = re.compile("price", re.IGNORECASE)
AMOUNT_FIELD = re.compile("amount", re.IGNORECASE)


@pytest.fixture(scope="module")
def ui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlutterPage]:
    require_browser()
    data_dir = tmp_path_factory.mktemp("budgets") / "data"
    seed(
        data_dir,
        [
            ("great_plains", 2, {}, great_plains_scoring),
            ("transamerica", 4, {}, nothing),
            ("heartland", 2, {}, heartland_hauling),
        ],
    )
    with serve_app(APP, data_dir=data_dir) as server, open_browsers() as browsers:
        yield open_watched(browsers, server.url)


def real_taps(ui: FlutterPage) -> int:
    return int(ui.page.evaluate("() => window.__watch.taps"))


class Counted:
    """A finger whose count starts now, checked against the pointer-downs the page saw."""

    def __init__(self, ui: FlutterPage) -> None:
        self.finger = Finger(ui)
        self.ui = ui
        self.start()

    def start(self) -> None:
        self.finger.reset()
        self.seen = real_taps(self.ui)

    def total(self) -> int:
        clicked = real_taps(self.ui) - self.seen
        assert clicked == self.finger.taps, f"the page saw {clicked} taps, the finger made {self.finger.taps}"
        return self.finger.count


def undo(ui: FlutterPage) -> None:
    """Back to where the game was (not counted: it is not part of the task)."""
    Finger(ui).tap(re.compile(r"^Undo: "))


def number_field(ui: FlutterPage, label: re.Pattern[str], heading: re.Pattern[str] | None = None) -> Any:
    """The text field whose label says `label`, else the first one after the text `heading`, or None."""
    labels: list[str] = ui.page.evaluate(
        "() => Array.from(document.querySelectorAll('input[aria-label], textarea[aria-label]'))"
        ".map((e) => e.getAttribute('aria-label'))"
    )
    found = next((text for text in labels if label.search(text)), None)
    if found is not None:
        return ui.text_input(found).first
    return Finger(ui).field_after(heading) if heading else None


def type_into(counted: Counted, label: re.Pattern[str], heading: re.Pattern[str] | None, value: int, what: str) -> None:
    """Type `value` into the number field for `what`: it must keep the digits and refuse a letter."""
    field_ = number_field(counted.ui, label, heading)
    assert field_ is not None, f"no number field for {what} (a text field labelled /{label.pattern}/" + (
        f", or one after words matching /{heading.pattern}/)" if heading else ")"
    )
    counted.finger.type_number(field_, value)
    counted.ui.page.keyboard.type("x")  # not a number: the field keeps what it had
    assert field_.input_value() == str(value), f"the field for {what} shows {field_.input_value()!r}, not {value}"


ZONES = [  # spaces, water, Fox tokens, Snake tokens, the line the zone gets
    (12, 3, 6, 5, "Zone 1: 12 spaces +3 water · 6–5 · Fox +15"),
    (7, 0, 2, 4, "Zone 2: 7 spaces · 2–4 · Snake +7"),
    (1, 1, 0, 1, "Zone 3: 1 space +1 water · 0–1 · Snake +2"),
]


def test_a_great_plains_zone_takes_six_taps_at_most(ui: FlutterPage) -> None:
    open_from_home(ui, "Great Plains · Ann and Bob")
    see(ui, "Scoring the prairies")
    counted = Counted(ui)
    spent = []
    for spaces, water, fox, snake, line in ZONES:
        counted.start()
        counted.finger.tap("+ Zone")
        for heading, value in (
            ("Spaces", spaces),
            ("Water sources", water),
            ("Fox tokens", fox),
            ("Snake tokens", snake),
        ):
            counted.finger.pick(heading, value)
        counted.finger.tap("Add zone")
        see(ui, line)
        spent.append(f"{line}: {counted.total()} taps")
    print("\n".join(spent))
    over = [entry for entry in spent if int(entry.rsplit(": ", 1)[1].split()[0]) > 6]
    assert not over, f"a zone takes more than 6 taps: {over}"


def test_a_transamerica_round_takes_one_tap_more_than_the_players(ui: FlutterPage) -> None:
    open_from_home(ui, "TransAmerica · Ann, Bob, Cid and Dee")
    counted = Counted(ui)
    counted.finger.tap("End round 1")
    for player, missing in (("Bob", 12), ("Cid", 9), ("Dee", 5)):  # Ann connected everything: 0, no tap
        counted.finger.pick(player, missing)
    see(ui, "13 to 13", "13 to 1", "13 to 4", "13 to 8")
    counted.finger.tap("Save round 1")
    see(ui, "Round 2 · Bob starts")
    taps = counted.total()
    print(f"a round missing 0, 12, 9 and 5 segments: {taps} taps")
    assert taps <= 1 + 4, f"a round of 4 players took {taps} taps (budget 5)"


def test_unload_at_any_price_takes_three_taps(ui: FlutterPage) -> None:
    open_from_home(ui, "Heartland · Ann and Bob")
    counted = Counted(ui)
    spent = {}
    for price in (17, 3, 20):
        counted.start()
        counted.finger.tap("Unload")
        counted.finger.tap(f"${price}")
        counted.finger.tap(f"2 (+${2 * price})")
        see(ui, f"Last: Ann unloaded 2 corn at ${price} (+${2 * price})")
        spent[price] = counted.total()
        undo(ui)
    print(f"unload by price: {spent}")
    assert all(taps <= 3 for taps in spent.values()), f"taps by price (budget 3): {spent}"


def test_a_correction_takes_three_taps(ui: FlutterPage) -> None:
    open_from_home(ui, "Heartland · Ann and Bob")
    counted = Counted(ui)
    spent = {}
    for amount in ("+8", "-3"):
        counted.start()
        counted.finger.tap("Correct money")
        counted.finger.tap(amount)
        counted.finger.tap(re.compile(r"^Save: Ann "))
        see(ui, f"Last: Ann {amount[0]}${amount[1:]} (correction), now ${5 + int(amount)}")
        spent[f"money {amount}"] = counted.total()
        undo(ui)
    counted.start()
    counted.finger.tap("Correct cargo")
    counted.finger.tap("-2")  # corn: the first row
    counted.finger.tap("Save: Ann -2 corn")
    see_card(ui, "Ann", "4 corn · 4/8", "$5")
    spent["cargo -2 corn"] = counted.total()
    undo(ui)
    print(f"corrections: {spent}")
    assert all(taps <= 3 for taps in spent.values()), f"taps by correction (budget 3): {spent}"


def test_a_price_and_a_correction_can_be_typed(ui: FlutterPage) -> None:
    open_from_home(ui, "Heartland · Ann and Bob")
    counted = Counted(ui)
    counted.finger.tap("Unload")
    type_into(counted, PRICE_FIELD, None, 18, "a price")
    counted.finger.tap("2 (+$36)")
    see(ui, "Last: Ann unloaded 2 corn at $18 (+$36)")
    unloaded = counted.total()
    undo(ui)

    counted.start()
    counted.finger.tap("Correct money")
    type_into(counted, AMOUNT_FIELD, AMOUNT_FIELD, 25, "a correction")
    counted.finger.tap("Save: Ann +$25, now $30")
    see(ui, "Last: Ann +$25 (correction), now $30")
    corrected = counted.total()
    undo(ui)
    print(f"typed: unload at $18 in {unloaded}, a +$25 correction in {corrected} (taps and typed entries)")
    assert unloaded <= 4 and corrected <= 4, (unloaded, corrected)  # open, the field, the number, confirm


def test_a_custom_target_is_typed(ui: FlutterPage) -> None:
    finger = Finger(ui)
    open_from_home(ui, "Heartland · Ann and Bob")
    finger.tap("Back to all games")
    finger.tap("+ New game")
    for seat, name in enumerate(("Ann", "Bob"), start=1):
        type_text(ui, "Player name", name)
        finger.tap("Add")
        see(ui, f"{seat}. {name}")
    counted = Counted(ui)
    counted.finger.tap(re.compile(r"^Custom "))
    type_into(counted, TARGET_FIELD, TARGET_FIELD, 25, "the custom target")
    see(ui, "Custom $25")
    taps = counted.total()
    counted.finger.tap("Start game")
    see(ui, "Target $25 (custom) · leader Ann $5")
    print(f"a custom target of $25: {taps} taps and typed entries")
    assert taps <= 3, f"a custom target of $25 took {taps} (budget 3: Custom, the field, the number)"

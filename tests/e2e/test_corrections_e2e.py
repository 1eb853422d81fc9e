"""Corrections at the table, in Chromium at 412×915 with every button's box read before and
after every tap (`finger.Finger`): another Heartland player's cargo corrected from their card
(in the final round, the player who triggered the end, which changes the winner), a past
TransAmerica round corrected from the round table, a refused Save that keeps its size, and
TransAmerica's end screen with every figure once and the round table in view."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from finger import Finger
from harness import FlutterPage, open_browsers, require_browser, serve_app
from seeds import seed
from test_app_e2e import see
from test_nothing_moves import still
from watch import open_from_home, open_watched

from companion.session import Session

APP = "companion.app.main:main"


def heartland_final_round(session: Session) -> None:
    """Ann reached $50 and ended her turn: Bob, at $49, plays the final round; both trucks empty."""
    session.apply({"type": "adjust", "player": "Ann", "amount": 45, "note": "set-up"})
    session.apply({"type": "end_turn", "player": "Ann", "override": True})
    session.apply({"type": "adjust", "player": "Bob", "amount": 44, "note": "set-up"})


def transamerica_three_rounds(session: Session) -> None:
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 4, "Cid": 2}})
    session.apply({"type": "end_round", "missing": {"Ann": 3, "Bob": 0, "Cid": 1}})
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 2, "Cid": 1}})


@pytest.fixture(scope="module")
def ui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlutterPage]:
    require_browser()
    data_dir = tmp_path_factory.mktemp("corrections") / "data"
    seed(data_dir, [("heartland", 2, {}, heartland_final_round), ("transamerica", 3, {}, transamerica_three_rounds)])
    with serve_app(APP, data_dir=data_dir) as server, open_browsers() as browsers:
        yield open_watched(browsers, server.url)


def test_the_trigger_players_forgotten_cube_is_added_from_their_card_and_changes_the_winner(ui: FlutterPage) -> None:
    open_from_home(ui, "Heartland · Ann and Bob")
    see(ui, "Final round — Bob plays")
    ui.screenshot("heartland-cards-correct-any-player")
    finger = Finger(ui, watch_moves=True, names=("Ann", "Bob"))
    finger.tap(re.compile(r"Correct Ann's cargo"))  # Ann's card, while Bob plays his last turn
    see(ui, "Correct Ann's cargo")
    chip = finger.after_heading("cattle: 0 on the truck", "+1")
    assert chip is not None, "no +1 chip under cattle"
    finger.press(chip)
    finger.tap(re.compile(r"^Save: Ann \+1 cattle"))
    assert finger.count == 3  # the card, the count, Save
    see(ui, "Final round — Bob plays")
    finger.button(re.compile(r"^Correct Ann's cargo\nAnn\n1 cattle\n1/8 cubes$"))  # her card says it
    finger.tap("End Bob's turn: last turn of the game")
    finger.tap("Record anyway")  # Bob's last turn had no action: the table's call
    see(ui, "Game over", "1st Bob — winner", "$48")
    still(finger, "Heartland: Ann's cargo corrected in the final round")


def test_a_past_transamerica_round_is_corrected_from_the_round_table(ui: FlutterPage) -> None:
    open_from_home(ui, "TransAmerica · Ann, Bob and Cid")
    see(ui, "Round 4 · Ann starts")
    ui.screenshot("transamerica-round-table-to-correct")
    finger = Finger(ui, watch_moves=True, names=("Ann", "Bob", "Cid"))
    finger.tap(re.compile(r"^R1"))
    see(ui, "Correct round 1", "13 to 9")
    finger.pick("Cid", 12)  # far too many: Cid would have reached 0 after round 2
    finger.tap("Save round 1 corrected")
    see(
        ui,
        "Round 1 so corrected would have left Cid at 0 or below and ended the game after round 2, "
        "but the table played on: correct a later round instead, or undo back.",
    )
    finger.tap("Save round 1 corrected")  # refused again: the button stays exactly where and as big as it was
    finger.pick("Cid", 2)
    finger.pick("Bob", 3)
    finger.tap("Save round 1 corrected")
    see(ui, "Last: Round 1 corrected: Bob missed 3, not 4", "Round 4 · Ann starts")
    still(finger, "TransAmerica: round 1 corrected")


def test_transamericas_end_screen_shows_each_figure_once_with_the_rounds_in_view(ui: FlutterPage) -> None:
    open_from_home(ui, "TransAmerica · Ann, Bob and Cid")
    finger = Finger(ui, watch_moves=True, names=("Ann", "Bob", "Cid"))
    finger.tap("End round 4")
    finger.pick("Ann", 1)
    finger.pick("Bob", 1)
    finger.pick("Cid", 12)
    finger.tap("Save round 4")  # nobody at 0: refused, and Save neither moves nor grows for saying so
    see(ui, "Someone must have 0 segments missing: a round ends when a player's cities are all connected.")
    finger.pick("Ann", 0)
    finger.tap("Save round 4")
    see(ui, "Game over after 4 rounds", "Ann wins with 10 points")
    still(finger, "TransAmerica: the last round")
    assert not ui.has_text(re.compile(r"1st Ann 10 ·"))  # the standings are not listed a second time
    assert not ui.has_text(re.compile(r"^Left$"))  # the points left stand once, beside each name
    table = ui.page.get_by_role("columnheader", name="R4", exact=True)
    box = table.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 915, box  # the round table in view, no scrolling
    ui.screenshot("transamerica-end-screen")

"""Nothing moves under the finger: a whole game of each title in Chromium at 412×915, and one
title in each desktop window (Great Plains at 1280×800, Heartland at 1920×1080: every title's
screen stands in the same columns there, `layout.screen`), from Home to the end screen
(Great Plains: caves, tokens, a spirit used, a refusal shown and dismissed, zones picked chip
by chip, one corrected), with every button's box read before and after every tap
(`finger.Finger`, which also defines the one movement allowed: a list growing below the
tap). Every movement of more than 2 px is collected, printed, and fails the test, grouped by
the tap that caused it."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

import pytest
from finger import Finger, Move
from harness import Browsers, FlutterPage, serve_app
from test_app_e2e import exact, see, type_text
from watch import open_watched

APP = "companion.app.main:main"


# A phone, a laptop, a desktop monitor: the wide layouts have columns of their own.
PHONE, LAPTOP, DESKTOP = {"width": 412, "height": 915}, {"width": 1280, "height": 800}, {"width": 1920, "height": 1080}


def sizes(*wide: dict[str, int]) -> pytest.MarkDecorator:
    """At the phone's size, and in these windows."""
    played = [PHONE, *wide]
    return pytest.mark.parametrize(
        "ui", played, ids=[f"{size['width']}x{size['height']}" for size in played], indirect=True
    )


@pytest.fixture
def ui(
    browsers: Browsers, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[FlutterPage]:
    with serve_app(APP, data_dir=tmp_path_factory.mktemp("moves") / "data") as server:
        page = open_watched(browsers, server.url, viewport=request.param)
        try:
            yield page
        finally:
            page.page.context.close()


def report(moves: list[Move]) -> str:
    """The movements, one line per kind of tap: how many times it moved things, and what moved how."""
    by_tap: dict[str, dict[str, None]] = defaultdict(dict)
    events: dict[str, set[int]] = defaultdict(set)
    for move in moves:
        by_tap[move.tap][f"{move.control} {move.how()}"] = None
        events[move.tap].add(move.event)
    lines = []
    for tap, moved in by_tap.items():
        times = f" (×{len(events[tap])})" if len(events[tap]) > 1 else ""
        shown = list(moved)
        more = f" and {len(shown) - 8} more" if len(shown) > 8 else ""
        lines.append(f"- {tap}{times}: {'; '.join(shown[:8])}{more}")
    return "\n".join(lines)


def still(finger: Finger, game: str) -> None:
    print(f"\n{game}: {finger.taps} taps, {len(finger.moves)} movements")
    for move in finger.moves:
        print(f"  tap {move.event}: {move}")
    if finger.moves:
        pytest.fail(f"{game}: controls moved under the finger\n{report(finger.moves)}", pytrace=False)


def new_game(finger: Finger, game_button: str | None, *players: str) -> None:
    see(finger.ui, "Companion")
    finger.tap("+ New game")
    see(finger.ui, "New game")
    if game_button:
        finger.tap(game_button)
    for seat, name in enumerate(players, start=1):
        type_text(finger.ui, "Player name", name)
        finger.tap("Add")
        see(finger.ui, f"{seat}. {name}")


@sizes(DESKTOP)
def test_a_whole_heartland_game(ui: FlutterPage) -> None:
    finger = Finger(ui, watch_moves=True, names=("Ann", "Bob"))
    new_game(finger, None, "Ann", "Bob")
    finger.tap("Custom $40")
    finger.tap("Start game")
    see(ui, "Round 1 · Ann's turn")

    finger.tap("2 · $2")  # the first act of the game
    see(ui, "Last: Ann moved 2 spaces for $2")
    finger.tap("Load")
    finger.tap("5", nth=0)  # corn
    see(ui, "Last: Ann loaded 5 corn")
    finger.tap("End Ann's turn (Bob next)")

    finger.tap("Fuel 1")
    finger.tap("Load")
    finger.tap("2", nth=2)  # cattle
    see(ui, "Last: Bob loaded 2 cattle")
    finger.tap("Unload")  # refused: one action a turn
    see(ui, "Bob has already chosen to load this turn; only one action per turn.")
    finger.tap("End Bob's turn (Ann next)")

    finger.tap("Correct money")
    finger.tap("+8")
    finger.tap("Save: Ann +$8, now $11")
    see(ui, "Last: Ann +$8 (correction), now $11")
    finger.tap("Fuel 2")
    finger.tap("Unload")
    finger.tap("$15")  # the price, then the count
    finger.tap("2 (+$30)")  # the counts of 5 cubes wrap to two rows once their earnings show
    see(ui, "Final round — Bob plays")  # $41 reaches the $40 target
    finger.tap("End Ann's turn (Bob next)")

    finger.tap("Fuel 1")
    finger.tap("Discard $1")
    finger.tap("End Bob's turn: last turn of the game")
    see(ui, "Game over", "1st Ann — winner")
    still(finger, "Heartland")


@sizes()
def test_a_whole_transamerica_game(ui: FlutterPage) -> None:
    finger = Finger(ui, watch_moves=True, names=("Ann", "Bob", "Cid"))
    new_game(finger, "TransAmerica · 2–6 players", "Ann", "Bob", "Cid")
    finger.tap("Start game")
    see(ui, "Round 1 · Ann starts")

    finger.tap("End round 1")
    finger.pick("Bob", 4)
    finger.pick("Cid", 6)
    finger.tap("Save round 1")
    see(ui, "Round 2 · Bob starts")

    finger.tap("End round 2")
    finger.pick("Ann", 3)
    finger.pick("Cid", 7)
    finger.tap("Save round 2")  # Cid reaches 0
    see(ui, "Game over after 2 rounds")
    still(finger, "TransAmerica")


@sizes(LAPTOP)
def test_a_whole_great_plains_game(ui: FlutterPage) -> None:
    """Also the Great Plains game of test_app_e2e (what each step shows, in words), and its
    screenshots at the phone's size."""
    phone = ui.page.viewport_size == PHONE
    finger = Finger(ui, watch_moves=True, names=("Ann", "Bob"))
    new_game(finger, "Great Plains · 2 players", "Ann", "Bob")
    see(ui, "Ann is Fox", "Bob is Fox")
    finger.tap("Start game")
    see(ui, "Great Plains", "Fox's turn (Ann) · cave")
    for cave in range(6):
        finger.tap(f"Place cave ({cave + 1} of 6) · {('Ann', 'Bob')[cave % 2]}")
    see(ui, "Fox's turn (Ann) · token", "Last: Bob placed a cave (3 of 3)")
    assert ui.page.get_by_text(exact("caves 3/3")).count() == 2

    # Tokens: a few on spirit symbols, then a spirit used; 40 tokens in all.
    finger.tap("+ Horse")  # Ann holds a spirit from now on
    see(ui, "Last: Ann placed a token (1 of 20) and took a horse spirit")
    finger.tap("+ Bear")
    see(
        ui,
        "Last: Bob placed a token (1 of 20) and took a bear spirit",
        "Spirits in the supply: Horse 2, Eagle 3, Bear 2",
    )
    finger.tap("Use Horse 1")
    see(ui, "Last: Ann used a horse spirit to place two spaces away", "Horse 0")
    finger.tap("Place token · Ann")
    see(ui, "Snake's turn (Bob) · token", "Last: Ann placed a token (2 of 20)")
    if phone:
        ui.screenshot("10-great-plains-tribes")
    for placed in range(3, 40):  # 3 tokens are down; Bob places the 4th
        finger.tap(f"Place token · {('Ann', 'Bob')[placed % 2]}")
    see(ui, "Scoring the prairies", "Last: Bob placed a token (20 of 20)")
    # Every token down: each tribe's big number is its points now, not "0 tokens left".
    assert ui.page.get_by_text(exact("points (every token placed)")).count() == 2
    assert not ui.has_text(exact("tokens left (placed 20/20)"))
    assert not ui.has_text(re.compile(r" wins "))  # nobody has won while the prairies are counted
    finger.tap("Scoring done")  # before any zone: refused, the table may record it anyway
    see(ui, "No prairie zone counted yet: add each one with + Zone. Record anyway to end the game 0–0.")
    finger.tap("Dismiss")  # the refusal cleared

    # Zones, counted on the board at the end, a count a chip (Spaces, Water, Fox and Snake tokens).
    for spaces, water, fox, snake in ((6, 1, 3, 1), (4, 0, 0, 2)):
        finger.tap("+ Zone")
        see(ui, "Add a prairie zone", "Tied 0–0: nobody scores this zone.")
        finger.pick("Spaces", spaces)
        if water:
            finger.pick("Water sources", water)
        if fox:
            finger.pick("Fox tokens", fox)
        if snake:
            finger.pick("Snake tokens", snake)
        if fox > snake:
            see(ui, "Fox (Ann) scores 7.")
            if phone:
                ui.screenshot("11-great-plains-zone-sheet")
        else:
            see(ui, "Snake (Bob) scores 4.")
        finger.tap("Add zone")
        if fox > snake:
            see(ui, "Zone 1: 6 spaces +1 water · 3–1 · Fox +7", "1 zone won", "0 zones won")
    see(ui, "Zone 2: 4 spaces · 0–2 · Snake +4")
    assert ui.page.get_by_text(exact("1 zone won")).count() == 2
    # Zone 1 corrected from its line (a Fox token more), zone 2 left as it was.
    finger.tap("Zone 1: 6 spaces +1 water · 3–1 · Fox +7")
    finger.pick("Fox tokens", 4)
    finger.tap("Save zone 1 corrected")
    see(ui, "Zone 1: 6 spaces +1 water · 4–1 · Fox +7", "Zone 2: 4 spaces · 0–2 · Snake +4")
    finger.tap("Scoring done")
    see(ui, "Game over", "Ann (Fox) wins 7–4")
    if phone:
        ui.screenshot("12-great-plains-result")
    still(finger, "Great Plains")

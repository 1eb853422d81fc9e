"""A desktop window, 1280×800: a screenshot of Home and of each game screen in
test-artifacts/screenshots/desktop-*.png (for a person to look at), and on the game screens
the two marks of a phone stretched across a desktop: a button wider than half the window,
and a number farther from the name it belongs to than a phone is wide."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from harness import SCREENSHOTS_DIR, FlutterPage, open_browsers, require_browser, serve_app
from pixels import Shot, still_screenshot
from seeds import great_plains_spirits, nothing, seed
from test_app_e2e import see
from watch import SCREEN, open_from_home, open_watched, view

APP = "companion.app.main:main"
DESKTOP = {"width": 1280, "height": 800}
WIDEST_BUTTON = DESKTOP["width"] / 2
NUMBER_NEAR_NAME_PX = 412  # a phone's width: on a phone the whole row fits in that
GAMES = [
    ("Heartland · Ann, Bob and Cid", "heartland", "Round 1 · Ann's turn"),
    ("TransAmerica · Ann, Bob and Cid", "transamerica", "Round 1 · Ann starts"),
    ("Great Plains · Ann and Bob", "great-plains", "Fox's turn (Ann) · token"),
]

# The box of every text the page shows, by its words.
_TEXT_BOXES_JS = """() => Array.from(document.querySelectorAll("flt-semantics > span")).map((span) => {
    const box = span.parentElement.getBoundingClientRect();
    return {text: span.textContent.trim(), x: box.x, y: box.y, width: box.width, height: box.height};
})"""


@pytest.fixture(scope="module")
def desktop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlutterPage]:
    require_browser()
    data_dir = tmp_path_factory.mktemp("desktop") / "data"
    seed(
        data_dir,
        [
            ("heartland", 3, {}, nothing),
            ("transamerica", 3, {}, nothing),
            ("great_plains", 2, {}, great_plains_spirits),
        ],
    )
    with serve_app(APP, data_dir=data_dir) as server, open_browsers(viewport=DESKTOP) as browsers:
        yield open_watched(browsers, server.url)


def shoot(ui: FlutterPage, name: str, before: Shot | None = None) -> Shot:
    """Save test-artifacts/screenshots/desktop-<name>.png once it is painted (unlike `before`)."""
    SCREENSHOTS_DIR.mkdir(parents=True, exist_ok=True)
    ui.page.mouse.move(1, 1)
    shot = still_screenshot(ui.page, unlike=before)
    (SCREENSHOTS_DIR / f"desktop-{name}.png").write_bytes(shot.png)
    return shot


def stretched(ui: FlutterPage, screen: str) -> list[str]:
    return [
        f"{screen}: {button.name()} is {button.width:.0f} px wide"
        for button in view(ui).layer(SCREEN)
        if button.width > WIDEST_BUTTON
    ]


def far_numbers(ui: FlutterPage, names: tuple[str, ...]) -> list[str]:
    """TransAmerica: each player's points, the big number on the name's row, and how far from the name."""
    boxes = ui.page.evaluate(_TEXT_BOXES_JS)
    far = []
    for name in names:
        label = next(box for box in boxes if box["text"] == name)
        middle = label["y"] + label["height"] / 2
        numbers = [
            box
            for box in boxes
            if box["text"].isdigit() and box["x"] > label["x"] and box["y"] <= middle <= box["y"] + box["height"]
        ]
        gap = min(box["x"] for box in numbers) - (label["x"] + label["width"])
        if gap > NUMBER_NEAR_NAME_PX:
            far.append(f"TransAmerica: {name}'s points are {gap:.0f} px from the name")
    return far


def test_each_game_screen_at_1280_by_800(desktop: FlutterPage) -> None:
    see(desktop, "Companion")
    shown = shoot(desktop, "home")
    problems = []
    for card, name, subtitle in GAMES:
        open_from_home(desktop, card)
        see(desktop, subtitle)
        shown = shoot(desktop, name, shown)
        problems += stretched(desktop, card)
        if name == "transamerica":
            problems += far_numbers(desktop, ("Ann", "Bob", "Cid"))
    assert not problems, "a phone stretched across the window:\n" + "\n".join(problems)

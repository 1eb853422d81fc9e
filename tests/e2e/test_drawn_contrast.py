"""Every text that can be tapped reads at 4.5:1 or more against what the page really draws
behind it, in the light and the dark theme (Chromium's prefers-color-scheme, which the app
follows), measured from screenshot pixels (`pixels.py`) — muted buttons that still explain
themselves when tapped (End turn before an action, Unload with nothing to unload, a count
before its price) included. Disabled buttons are not tappable and are left out; so are
icons (they have no text).

Screens: Home, New game, a Heartland turn (before and after moving) and its Load, Unload
(before a price) and Correct money sheets, a TransAmerica round and its sheet, a Great
Plains turn and its zone sheet: every kind of button, muted or not, in each theme."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from finger import Finger
from harness import FlutterPage, open_browsers, require_browser, serve_app
from pixels import Contrast, Shot, measure, still_screenshot
from seeds import great_plains_spirits, heartland_hauling, nothing, seed
from test_app_e2e import see, see_card
from watch import in_view, open_from_home, open_watched, settle, view

APP = "companion.app.main:main"
SCALE = 2
LEAST = 4.5
THEMES = ("light", "dark")


@dataclass
class Drawn:
    ui: FlutterPage
    analyser: Any  # a blank page that counts the pixels
    found: list[tuple[str, str, Contrast]]  # (theme, screen, measure)
    theme: str = "light"  # the theme the page shows now
    drawn: Shot | None = None  # the last screenshot: the next one must show the change

    def look(self, screen: str) -> None:
        """Measure every tappable text of what is shown now, in the theme shown, then in the other."""
        page = self.ui.page
        for theme in (self.theme, *(other for other in THEMES if other != self.theme)):
            if theme != self.theme:
                page.emulate_media(color_scheme=theme)
                self.theme = theme
                settle(self.ui, None, quiet_ms=200)
            page.mouse.move(1, 1)  # no hover tint on the last button tapped
            self.drawn = still_screenshot(page, unlike=self.drawn)
            shown = view(self.ui)
            layer = shown.title if shown.title is not None else ""
            tappable = [b for b in shown.layer(layer) if b.text and not b.disabled and in_view(b)]
            assert tappable, f"{screen}: no button to measure"
            measured = measure(self.analyser, self.drawn.png, tappable, SCALE)
            if any(contrast.ratio < LEAST for contrast in measured):
                # Two equal shots 150 ms apart can still be mid-fade when a loaded machine
                # skips frames; what is judged is what the page draws at rest.
                page.wait_for_timeout(1000)
                self.drawn = still_screenshot(page)
                measured = measure(self.analyser, self.drawn.png, tappable, SCALE)
            self.found += [(theme, screen, contrast) for contrast in measured]


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Drawn]:
    require_browser()
    data_dir = tmp_path_factory.mktemp("contrast") / "data"
    seed(
        data_dir,
        [
            ("heartland", 2, {}, nothing),
            ("heartland", 3, {}, heartland_hauling),
            ("transamerica", 3, {}, nothing),
            ("great_plains", 2, {}, great_plains_spirits),
        ],
    )
    with serve_app(APP, data_dir=data_dir) as server, open_browsers() as browsers:
        yield Drawn(
            open_watched(browsers, server.url, device_scale_factor=SCALE, color_scheme="light"),
            browsers.browser.new_page(),
            [],
        )


def visit(drawn: Drawn, card: str, steps: list[tuple[str, Callable[[Finger], object]]]) -> None:
    """Open the game from Home, then after each step measure the screen it leads to."""
    open_from_home(drawn.ui, card)
    finger = Finger(drawn.ui)
    for screen, go in steps:
        go(finger)
        drawn.look(screen)


def closing_then(label: str) -> Callable[[Finger], None]:
    def go(finger: Finger) -> None:
        finger.tap("Close")
        finger.tap(label)

    return go


def test_every_tappable_text_reads_at_4_5_to_1_as_drawn(drawn: Drawn) -> None:
    ui = drawn.ui
    see(ui, "Companion")
    drawn.look("Home")
    finger = Finger(ui)
    finger.tap("+ New game")
    see(ui, "New game")
    drawn.look("New game")
    finger.tap("Back to all games")

    visit(
        drawn,
        "Heartland · Ann and Bob",
        [
            ("Heartland turn (nothing done yet)", lambda f: see(ui, "Round 1 · Ann's turn")),
            ("Heartland Load sheet", lambda f: f.tap("Load")),
            ("Heartland Correct money sheet", closing_then("Correct money")),
        ],
    )
    visit(
        drawn,
        "Heartland · Ann, Bob and Cid",
        [
            ("Heartland turn (moved, carrying corn)", lambda f: see_card(ui, "Ann", "6 corn · 6/8", "$5")),
            ("Heartland Unload sheet (no price yet)", lambda f: f.tap("Unload")),
        ],
    )
    visit(
        drawn,
        "TransAmerica · Ann, Bob and Cid",
        [
            ("TransAmerica round", lambda f: see(ui, "Round 1 · Ann starts")),
            ("TransAmerica End of round sheet", lambda f: f.tap("End round 1")),
        ],
    )
    visit(
        drawn,
        "Great Plains · Ann and Bob",
        [
            ("Great Plains turn (a spirit held)", lambda f: see(ui, "Fox's turn (Ann) · token")),
            ("Great Plains zone sheet", lambda f: f.tap("+ Zone")),
        ],
    )

    for theme in THEMES:
        worst = sorted((c for t, _, c in drawn.found if t == theme), key=lambda c: c.ratio)[:3]
        print(
            f"{theme}: {sum(1 for t, _, _ in drawn.found if t == theme)} labels measured; "
            f"lowest {', '.join(map(str, worst))}"
        )
    failing = [f"[{theme}] {screen}: {contrast}" for theme, screen, contrast in drawn.found if contrast.ratio < LEAST]
    assert not failing, f"{len(failing)} tappable texts read below {LEAST}:1 as drawn:\n" + "\n".join(failing)

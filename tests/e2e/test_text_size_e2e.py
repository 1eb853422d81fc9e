"""Chromium at 200 % text, at 412x915: the page's font size doubled, as a browser's font size
setting (or the phone build on a phone set to large text) doubles every text Flutter draws.

Tried by a table at that size: every box had kept its 100 % height, so words were cut in half
by their buttons ("Use Horse 1" showed its top line), the whose-turn line read "Round 1 · B…",
TransAmerica's 13 broke into "1" over "3" and Home's name into "Companio" over "n". Now the page
measures the text size (shell.text_probe) and what holds words grows with it. Here: the size is
measured (a button twice as tall), every button of each game screen, of one of its sheets and
of a finished game's page stands inside the window and lies over no other button and no
words, and a sheet's buttons with words grew. The screenshots (``text-200-*``) are there to
be looked at: a line Flutter cuts with an ellipsis keeps its whole words in the semantics
tree, so no test here can see it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import Browsers, FlutterPage, serve_cli
from watch import SCREEN, WATCH_JS, Button, buttons, find, press, reveal, settle, view

from companion.app.data import AppData
from companion.store import Store

PHONE = {"width": 412, "height": 915}
DOUBLED = "document.addEventListener('DOMContentLoaded', () => { document.documentElement.style.fontSize = '32px'; });"

# Each game: its card's first words, a button with words (twice as tall once the size is
# measured; Great Plains' showed half its words), and the button whose sheet is opened.
CASES = [
    ("TransAmerica · Bernadette", "End round 2", "End round 2"),
    ("Great Plains · Ann", "Use Horse 1", "+ Zone"),
    ("Heartland · Bernadette", "Load", "Load"),
    ("TransAmerica · Kim", "Leave out of statistics", None),  # a finished game's page
]


def seeded(data_dir: Path) -> None:
    store = Store(data_dir)
    data = AppData(store)
    names = ["Bernadette", "Maximilian", "Fatima"]

    def play(game: str, players: list[str], events: list[dict[str, Any]]) -> None:
        session = data.new(game, players, {})
        for event in events:
            session.apply(event)
        assert session.id is not None
        data.close_session(session.id)

    play("transamerica", ["Kim", "Lou"], [{"type": "end_round", "missing": {"Kim": 0, "Lou": 13}}])
    play("transamerica", names, [{"type": "end_round", "missing": {"Bernadette": 11, "Maximilian": 0, "Fatima": 12}}])
    play(
        "great_plains",
        ["Ann", "Bob"],
        [{"type": "place_cave", "player": ("Ann", "Bob")[cave % 2]} for cave in range(6)]
        + [{"type": "place_token", "player": "Ann", "spirit": "horse"}, {"type": "place_token", "player": "Bob"}],
    )
    play(
        "heartland",
        names,
        [
            {"type": "correct_cargo", "player": "Bernadette", "good": "soybeans", "cubes": 6, "note": "set-up"},
            {"type": "move", "player": "Bernadette", "spaces": 1, "pay": "fuel"},
        ],
    )
    data.remember_screen(None)
    store.close()


@pytest.fixture
def large_text(browsers: Browsers, tmp_path: Path) -> Iterator[FlutterPage]:
    data_dir = tmp_path / "data"
    seeded(data_dir)
    with serve_cli([], data_dir=data_dir) as server:
        server.wait_for_log(r"serving at")
        context = browsers.browser.new_context(viewport=PHONE)
        context.add_init_script(WATCH_JS)
        context.add_init_script(DOUBLED)
        page = context.new_page()
        page.set_default_timeout(browsers.timeout_ms)
        try:
            yield FlutterPage(page, server.url, browsers.timeout_ms).load()
        finally:
            context.close()


def overlaps(shown: list[Button]) -> list[str]:
    """Pairs of buttons whose boxes cross (by more than a hairline)."""
    found = []
    for number, first in enumerate(shown):
        for second in shown[number + 1 :]:
            across = min(first.x + first.width, second.x + second.width) - max(first.x, second.x)
            down = min(first.bottom, second.bottom) - max(first.y, second.y)
            if across > 1 and down > 1:
                found.append(f"{first.name()} and {second.name()}")
    return found


# The boxes of words that are not a button's own (a heading, a result line, a card's lines).
TEXT_BOXES_JS = """() => {
    const dialog = document.querySelector("flt-semantics[role=alertdialog], flt-semantics[role=dialog]");
    const root = dialog || document;
    const shownOf = (e) => {  // the part of the window its scrolling lists (all of them) show
        let top = 0, bottom = window.innerHeight;
        for (let up = e.parentElement; up; up = up.parentElement) {
            const style = up.getAttribute && (up.getAttribute("style") || "");
            if (up.getAttribute && up.getAttribute("role") === "group" && style.includes("scrollbar-width")) {
                const box = up.getBoundingClientRect();
                top = Math.max(top, box.top);
                bottom = Math.min(bottom, box.bottom);
            }
        }
        return {top, bottom};
    };
    // Words are a node's own span, or a node's label where Flutter merged a few (a result and
    // its standings); a tooltip's node around a button is the button's.
    const spans = Array.from(root.querySelectorAll("flt-semantics > span"))
        .filter((s) => s.textContent.trim()).map((s) => [s.parentElement, s.textContent.trim()]);
    const labelled = Array.from(root.querySelectorAll("flt-semantics[aria-label]"))
        .filter((e) => e.getAttribute("role") !== "button" && !e.querySelector("[role=button]"))
        .map((e) => [e, e.getAttribute("aria-label").trim()]);
    return spans.concat(labelled)
        .filter(([e, words]) => words && !e.closest("[role=button]"))
        .map(([e, words]) => {
            const r = e.getBoundingClientRect();
            const shown = shownOf(e);
            // What of it shows: words scrolled out of their list lie under nothing.
            const top = Math.max(r.y, shown.top), bottom = Math.min(r.y + r.height, shown.bottom);
            return {text: words, x: r.x, y: top, width: r.width, height: bottom - top};
        })
        .filter((box) => box.height > 0);
}"""


def covered(ui: FlutterPage, seen: list[Button]) -> list[str]:
    """Words a button lies over (a box that grew while the one around it did not)."""
    found = []
    for box in ui.page.evaluate(TEXT_BOXES_JS):
        for button in seen:
            across = min(box["x"] + box["width"], button.x + button.width) - max(box["x"], button.x)
            down = min(box["y"] + box["height"], button.bottom) - max(box["y"], button.y)
            if across > 1 and down > 1:
                found.append(f"{box['text'][:40]!r} under {button.name()}")
    return found


def laid_out(ui: FlutterPage, layer: str) -> list[Button]:
    """The layer's buttons in view, each inside the window; none over another."""
    shown = [button for button in buttons(ui) if button.layer == layer and button.bottom > button.y]
    # Seen whole: a button at the edge of its scrolling list is reported clipped to what shows.
    seen = [
        b
        for b in shown
        if b.y > b.shown_top + 0.5 and b.bottom < b.shown_bottom - 0.5 or (b.scroller is None and b.height > 24)
    ]
    outside = [b.name() for b in seen if b.x < -0.5 or b.x + b.width > PHONE["width"] + 0.5]
    assert outside == [], f"out of the window at 200 %: {outside}"
    assert overlaps(seen) == [], f"over one another at 200 %: {overlaps(seen)}"
    assert covered(ui, seen) == [], f"over words at 200 %: {covered(ui, seen)}"
    return seen


def home(ui: FlutterPage) -> None:
    for _ in range(20):  # a sheet closing may still take the first tap
        shown = buttons(ui)
        if find(shown, "+ New game") is not None:
            return
        back = find(shown, "Back to all games")
        if back is not None:
            press(ui, back)
        settle(ui, None, quiet_ms=300)
    raise AssertionError(f"Home did not come back: {[b.label for b in buttons(ui)]}")


def open_card(ui: FlutterPage, card: str) -> None:
    for _ in range(50):
        found = next((b for b in buttons(ui) if b.layer == SCREEN and b.label.startswith(card)), None)
        if found is not None:
            press(ui, reveal(ui, found))
            return
        # Home builds the cards near the window only: further down the list, scrolled to.
        ui.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        ui.page.mouse.wheel(0, 300)
        settle(ui, None, quiet_ms=200)
    raise AssertionError(f"no card {card!r} on Home: {[b.label for b in buttons(ui)]}")


def test_at_200_percent_text_each_game_screen_and_sheet_holds_its_words(large_text: FlutterPage) -> None:
    ui = large_text
    settle(ui, None, quiet_ms=500)
    assert ui.page.evaluate("getComputedStyle(document.documentElement).fontSize") == "32px"
    ui.screenshot("text-200-home")
    assert ui.page.get_by_text("M", exact=True).count() == 0  # the probe's line: read by no screen reader
    for card, big, opens in CASES:
        home(ui)
        open_card(ui, card)
        button = None
        for _ in range(50):  # the first frame may come before the page has measured its text
            button = find(buttons(ui), big)
            if button is not None and button.height >= 2 * 48 - 2:
                break
            ui.page.wait_for_timeout(100)
        assert button is not None and button.height >= 2 * 48 - 2, (big, button)
        settle(ui, None, quiet_ms=300)
        laid_out(ui, SCREEN)
        slug = card.lower().replace(" · ", "-").replace(" ", "-")
        ui.screenshot(f"text-200-{slug}")
        if opens is None:
            continue
        opener = find(buttons(ui), opens)
        assert opener is not None, opens
        press(ui, reveal(ui, opener))
        title = view(ui).title
        assert title is not None, f"{opens!r} opened no sheet"
        for shown in laid_out(ui, title):
            if shown.text:  # words, not an icon: a box that grew with them
                assert shown.height >= 2 * 48 - 2, f"{shown.name()} kept its 100 % height"
        ui.screenshot(f"text-200-{slug}-sheet")
        close = find(buttons(ui), "Close")
        assert close is not None
        press(ui, close)

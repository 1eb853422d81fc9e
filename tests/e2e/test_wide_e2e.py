"""Home, New game, the statistics, a player's page, a finished game's detail and a sheet in a
desktop window, 1280×800 and 1920×1080, in Chromium: the screen's parts stand side by side
(what each column holds is left of or right of the other's), no two words overlap, nothing
is outside the window, every button is at least 48 px both ways, and at 1920×1080 the lower
half of the window shows something. A sheet is a dialog in the middle of the window, no
wider than a dialog. Screenshots in test-artifacts/screenshots/wide-<size>-<screen>.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from harness import SCREENSHOTS_DIR, FlutterPage, open_browsers, require_browser, serve_app
from pixels import still_screenshot
from seeds import heartland_hauling, seed
from test_app_e2e import see, type_text
from watch import SCREEN, find, in_view, open_from_home, open_watched, press, settle, view

from companion.session import Session

APP = "companion.app.main:main"
SIZES = [{"width": 1280, "height": 800}, {"width": 1920, "height": 1080}]
DIALOG_MOST = 720  # a sheet's box: a dialog's width, not the window's
FOOTER_ROOM = 120  # the window's last pixels: a screen's main button, never cut
SHEET_TOLERANCE = 24  # its words and buttons sit within its padding, a little off its own middle

# The box of every text the page (or the open sheet) shows, by its words; a text scrolled out
# of its list (a wide table scrolling sideways, a long list) is not shown and not counted.
_TEXT_BOXES_JS = """() => {
    const scrolled = (e) => {
        const box = e.getBoundingClientRect();
        for (let up = e.parentElement; up; up = up.parentElement) {
            const style = (up.getAttribute && up.getAttribute("style")) || "";
            if (!style.includes("scrollbar-width")) continue;
            const list = up.getBoundingClientRect();
            if (box.left < list.left - 0.5 || box.right > list.right + 0.5 || box.top < list.top - 0.5
                || box.bottom > list.bottom + 0.5) return true;
        }
        return false;
    };
    return Array.from(document.querySelectorAll("flt-semantics > span")).map((span) => {
        const box = span.parentElement.getBoundingClientRect();
        return {text: span.textContent.trim(), x: box.x, y: box.y, width: box.width, height: box.height,
                hidden: scrolled(span.parentElement)};
    }).filter((box) => box.text && box.width > 0 && box.height > 0 && !box.hidden);
}"""
# The box around what the open sheet shows (its words and buttons): the dialog as the eye
# sees it (the dialog's own node spans the window, its barrier included).
_DIALOG_JS = """() => {
    const dialog = document.querySelector("flt-semantics[role=alertdialog], flt-semantics[role=dialog]");
    if (!dialog) return null;
    const parts = Array.from(dialog.querySelectorAll("flt-semantics[role=button], flt-semantics > span"))
        .map((e) => (e.tagName === "SPAN" ? e.parentElement : e).getBoundingClientRect())
        .filter((box) => box.width > 0 && box.height > 0);
    const left = Math.min(...parts.map((b) => b.left)), right = Math.max(...parts.map((b) => b.right));
    const top = Math.min(...parts.map((b) => b.top)), bottom = Math.max(...parts.map((b) => b.bottom));
    return {x: left, y: top, width: right - left, height: bottom - top};
}"""


def long_transamerica(session: Session) -> None:
    """Thirty rounds nobody missed anything, then one that ends it: a log longer than a window."""
    for _ in range(30):
        session.apply({"type": "end_round", "missing": dict.fromkeys(session.players, 0)})
    session.apply(
        {"type": "end_round", "missing": {player: 13 if seat else 0 for seat, player in enumerate(session.players)}}
    )


def short_transamerica(session: Session) -> None:
    session.apply(
        {"type": "end_round", "missing": {player: 13 if seat else 0 for seat, player in enumerate(session.players)}}
    )


def in_progress(session: Session) -> None:
    pass


@pytest.fixture(scope="module", params=SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def desktop(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlutterPage]:
    require_browser()
    data_dir = tmp_path_factory.mktemp("wide") / "data"
    games: list[Any] = [("transamerica", 2 + number % 2, {}, short_transamerica) for number in range(11)]
    games += [("transamerica", 4, {}, long_transamerica)]  # the newest finished: on top of its list
    games += [
        ("heartland", 3, {}, heartland_hauling),
        ("great_plains", 2, {}, in_progress),
        ("transamerica", 3, {}, in_progress),
    ]
    seed(data_dir, games)
    with serve_app(APP, data_dir=data_dir) as server, open_browsers(viewport=request.param) as browsers:
        ui = open_watched(browsers, server.url)
        ui.size = request.param  # type: ignore[attr-defined]
        yield ui


def size_of(ui: FlutterPage) -> dict[str, int]:
    return ui.size  # type: ignore[attr-defined,no-any-return]


def shoot(ui: FlutterPage, name: str) -> None:
    SCREENSHOTS_DIR.mkdir(parents=True, exist_ok=True)
    ui.page.mouse.move(1, 1)
    size = size_of(ui)
    shot = still_screenshot(ui.page)
    (SCREENSHOTS_DIR / f"wide-{size['width']}x{size['height']}-{name}.png").write_bytes(shot.png)


def boxes(ui: FlutterPage) -> list[dict[str, Any]]:
    return list(ui.page.evaluate(_TEXT_BOXES_JS))


def box_of(found: list[dict[str, Any]], words: str | re.Pattern[str]) -> dict[str, Any]:
    matches = [
        box for box in found if (words.search(box["text"]) if isinstance(words, re.Pattern) else box["text"] == words)
    ]
    assert matches, f"{words!r} is not shown; shown: {[box['text'] for box in found]}"
    return matches[0]


def contains(outer: dict[str, Any], inner: dict[str, Any]) -> bool:
    return (
        outer["x"] <= inner["x"] + 0.5
        and outer["y"] <= inner["y"] + 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )


def problems(ui: FlutterPage, screen: str, pairs: list[tuple[Any, Any]], *, lower_half: bool = True) -> list[str]:
    """What is wrong with the screen as drawn: parts not side by side, words overlapping or
    outside the window, small buttons, an empty lower half (at 1920×1080)."""
    size = size_of(ui)
    found = boxes(ui)
    wrong = []
    for left_words, right_words in pairs:
        left, right = box_of(found, left_words), box_of(found, right_words)
        if left["x"] + left["width"] > right["x"] + 0.5:
            wrong.append(f"{screen}: {left['text']!r} is not left of {right['text']!r}")
    shown = [box for box in found if box["y"] < size["height"] and box["y"] + box["height"] > 0]
    for box in shown:
        if box["x"] < -0.5 or box["x"] + box["width"] > size["width"] + 0.5:
            wrong.append(f"{screen}: {box['text']!r} runs outside the window ({box['x']:.0f}+{box['width']:.0f})")
    for index, one in enumerate(shown):
        for other in shown[index + 1 :]:
            across = min(one["x"] + one["width"], other["x"] + other["width"]) - max(one["x"], other["x"])
            down = min(one["y"] + one["height"], other["y"] + other["height"]) - max(one["y"], other["y"])
            inside = any(contains(a, b) for a, b in ((one, other), (other, one)))
            if across > 1 and down > 1 and not inside:  # a label within its button's box is one thing
                wrong.append(f"{screen}: {one['text']!r} overlaps {other['text']!r}")
    for button in view(ui).layer(SCREEN):
        # A list cuts the box of a card it shows in part at its lower edge: those are not measured.
        cut = button.y + 48 > size["height"] * 0.75 and button.y < size["height"] - FOOTER_ROOM
        if in_view(button) and not cut and (button.width < 47.5 or button.height < 47.5):
            wrong.append(f"{screen}: {button.name()} is {button.width:.0f}×{button.height:.0f}")
    below = [box["y"] for box in shown] + [
        button.y for button in view(ui).layer(SCREEN) if in_view(button) and button.y + FOOTER_ROOM < size["height"]
    ]
    if lower_half and size["height"] >= 1000 and not any(y > size["height"] / 2 for y in below):
        wrong.append(f"{screen}: nothing in the lower half of the window")
    return wrong


def tap(ui: FlutterPage, label: str | re.Pattern[str]) -> None:
    button = find(view(ui).layer(SCREEN), label)
    assert button is not None, f"no button {label!r}: {[b.label for b in view(ui).layer(SCREEN)]}"
    press(ui, button)


def test_each_screen_stands_in_columns_that_fill_the_window(desktop: FlutterPage) -> None:
    ui = desktop
    see(ui, "In progress", "Finished")
    settle(ui, None, quiet_ms=400)
    shoot(ui, "home")
    wrong = problems(ui, "Home", [("In progress", "Finished")])

    tap(ui, "+ New game")
    see(ui, "Players, in seat order (the first plays first)")
    shoot(ui, "new-game")
    wrong += problems(
        ui, "New game", [("Players, in seat order (the first plays first)", "Money target")], lower_half=False
    )
    tap(ui, "Back to all games")

    tap(ui, "Statistics")
    see(ui, "Ann")
    shoot(ui, "statistics")
    wrong += problems(ui, "Statistics", [(re.compile("games played"), re.compile("^Average score"))], lower_half=False)
    tap(ui, re.compile("^Details"))
    see(ui, "By game")
    shoot(ui, "player")
    wrong += problems(ui, "Player", [(re.compile("Winning streak now"), "By game")], lower_half=False)
    tap(ui, "Back to the statistics")
    tap(ui, "Back to all games")

    card = next(b for b in view(ui).layer(SCREEN) if b.label.startswith("TransAmerica · Ann, Bob, Cid and Dee"))
    press(ui, card)
    see(ui, "Session log")
    settle(ui, None, quiet_ms=400)
    shoot(ui, "detail")
    wrong += problems(
        ui,
        "Detail",
        [(re.compile("^First player"), re.compile("^Points left")), (re.compile("^Points left"), "Session log")],
    )
    tap(ui, "Back to all games")
    assert not wrong, "\n".join(wrong)


def test_a_sheet_is_a_dialog_in_the_middle_of_the_window(desktop: FlutterPage) -> None:
    ui = desktop
    see(ui, "In progress")
    tap(ui, "Your games: export, import, backups")
    settle(ui, None, quiet_ms=400)
    shoot(ui, "sheet")
    wrong = centred_sheet(ui, "Your games")
    open_from_home(ui, "Heartland · Ann, Bob and Cid")
    tap(ui, "Unload")
    see(ui, "Unload · Ann")
    settle(ui, None, quiet_ms=400)
    shoot(ui, "game-sheet")
    wrong += centred_sheet(ui, "Unload")
    settle(ui, None, quiet_ms=600)  # the sheet's closing animation hides the page's buttons a moment
    ui.page.get_by_label("Back to all games", exact=True).click()
    see(ui, "In progress")
    assert not wrong, "\n".join(wrong)


def centred_sheet(ui: FlutterPage, name: str) -> list[str]:
    """What is wrong with the open sheet's place (it is closed after): a dialog in the middle
    of the window, no wider than a dialog, with about as much room above it as below."""
    size = size_of(ui)
    dialog = ui.page.evaluate(_DIALOG_JS)
    close = find(view(ui).layer(view(ui).title or ""), "Close")
    assert dialog is not None and close is not None, f"no sheet {name!r} opened"
    press(ui, close)
    wrong = []
    middle = dialog["x"] + dialog["width"] / 2
    if abs(middle - size["width"] / 2) >= SHEET_TOLERANCE:
        wrong.append(f"{name}: the sheet's middle is at {middle:.0f}")
    if dialog["width"] > DIALOG_MOST:
        wrong.append(f"{name}: the sheet is {dialog['width']:.0f} px wide")
    if dialog["y"] < 0 or dialog["y"] + dialog["height"] > size["height"]:
        wrong.append(f"{name}: the sheet runs outside the window: {dialog}")
    above, below = dialog["y"], size["height"] - dialog["y"] - dialog["height"]
    if abs(above - below) >= 2 * SHEET_TOLERANCE:
        wrong.append(f"{name}: {above:.0f} px above the sheet, {below:.0f} below")
    return wrong


def test_a_draft_survives_the_window_narrowed_to_a_phone_and_widened_again(desktop: FlutterPage) -> None:
    ui = desktop
    size = size_of(ui)
    if size["width"] != 1280:
        pytest.skip("once is enough")
    see(ui, "In progress")
    tap(ui, "+ New game")
    type_text(ui, "Player name", "Zoé")  # typed, not added yet: a draft
    settle(ui, None, quiet_ms=400)
    ui.page.set_viewport_size({"width": 412, "height": 915})
    settle(ui, None, quiet_ms=600)
    shoot(ui, "new-game-narrowed")
    found = boxes(ui)
    players, target = box_of(found, "Players, in seat order (the first plays first)"), box_of(found, "Money target")
    assert target["y"] > players["y"] and target["x"] == players["x"], "a phone's one column"
    ui.page.set_viewport_size(size)
    settle(ui, None, quiet_ms=600)
    tap(ui, "Add")
    see(ui, "1. Zoé")

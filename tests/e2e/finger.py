"""A finger on the phone: taps buttons by their label as a user finds them, types numbers,
counts every tap and typed entry, and (when asked) notes every control that moved.

    finger = Finger(ui, watch_moves=True)
    finger.tap("Fuel 1")
    finger.pick("Spaces", 12)        # a number under its heading: its chip, or the number field
    assert finger.count == 2
    assert finger.moves == []

A tap is a mouse click at the middle of the button as drawn, once it is in view (scrolled to
with the wheel, as a thumb would swipe); after it the finger waits for the server's answer
and for the page to stop moving (`watch.settle`).

**Movement.** Before and after every tap every button's box is read, each known by its
Semantics identifier if it has one, else by its layer (the open sheet), its label with the
players' names left out ("End Ann's turn (Bob next)" is the End turn button at every turn)
and which of that label it is in screen order. (A label shown more or fewer times after the
tap than before is not compared: its occurrences cannot be told apart.) A control in view
before the tap whose box moved or changed size by more than `TOLERANCE_PX` afterwards has
moved under the finger, with one exception: a list growing below the tap — a control in
the same scrolling list as the tapped one, whose top was below the tapped control's
bottom, may move straight down. A sheet hides the page; when it closes, the page's buttons
are compared with the page as it was when the sheet opened (the "tap" then being the one
that opened it): what the sheet recorded must not push the page around either.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from harness import FlutterPage
from watch import SCREEN, Button, View, find, frames, in_view, reveal, settle, view

TOLERANCE_PX = 2.0
FIND_TIMEOUT_S = 5.0
CHIP_WAIT_S = 1.5

# Which of the page's inputs comes first after a text matching the pattern, in document order (-1: none).
_FIELD_AFTER_JS = """([pattern, flags]) => {
    const heading = new RegExp(pattern, flags);
    const inputs = Array.from(document.querySelectorAll("input"));
    let seen = false;
    for (const node of document.querySelectorAll("flt-semantics > span, input")) {
        if (node.tagName === "INPUT") { if (seen) return inputs.indexOf(node); }
        else if (heading.test(node.textContent.trim())) seen = true;
    }
    return -1;
}"""


@dataclass(frozen=True)
class Move:
    control: str  # the control that moved, as a user would name it
    tap: str  # the tap after which it moved
    event: int  # which tap of the game that was (1, 2...)
    dx: float
    dy: float
    dw: float
    dh: float

    @property
    def px(self) -> float:
        return max(abs(self.dx), abs(self.dy), abs(self.dw), abs(self.dh))

    def how(self) -> str:
        parts = []
        if abs(self.dy) > TOLERANCE_PX:
            parts.append(f"{abs(self.dy):.0f} px {'down' if self.dy > 0 else 'up'}")
        if abs(self.dx) > TOLERANCE_PX:
            parts.append(f"{abs(self.dx):.0f} px {'right' if self.dx > 0 else 'left'}")
        if abs(self.dw) > TOLERANCE_PX or abs(self.dh) > TOLERANCE_PX:
            parts.append(f"resized {self.dw:+.0f}×{self.dh:+.0f} px")
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.control} moved {self.how()} after {self.tap}"


def grows_below(tapped: Button, before: Button, after: Button) -> bool:
    """The one allowed movement: in the tapped control's scrolling list, below it, straight down."""
    return (
        tapped.scroller is not None
        and before.scroller == tapped.scroller
        and before.y >= tapped.bottom - 0.5
        and after.y > before.y
        and abs(after.x - before.x) <= TOLERANCE_PX
        and abs(after.width - before.width) <= TOLERANCE_PX
        and abs(after.height - before.height) <= TOLERANCE_PX
    )


def keyed(shown: View, names: tuple[str, ...]) -> dict[tuple[str, str, int], Button]:
    """The buttons by what makes them the same control from one moment to the next: a Semantics
    identifier, else the layer and label with the players' names left out ("End Ann's turn (Bob
    next)" is the End turn button at every turn) and which of that label it is."""
    if not names:
        return {button.key: button for button in shown.buttons}
    anyone = re.compile("|".join(re.escape(name) for name in sorted(names, key=len, reverse=True)))
    counted: dict[tuple[str, str], int] = {}
    found = {}
    for button in shown.buttons:
        if button.identifier:
            found[button.key] = button
            continue
        layer, label = anyone.sub("…", button.layer), anyone.sub("…", button.label)
        nth = counted.get((layer, label), 0)
        counted[(layer, label)] = nth + 1
        found[(layer, label, nth)] = button
    return found


def moves_between(
    before: View, after: View, tapped: Button, tap: str, event: int, names: tuple[str, ...] = ()
) -> list[Move]:
    """The controls in view in `before` that moved in `after` (see the module's doc). A label
    shown more or fewer times after the tap than before is left out: which of them is which
    cannot be told ("Horse 0" in both tribes' panels, then in one)."""
    was, now = keyed(before, names), keyed(after, names)
    times_before = Counter(key[:2] for key in was)
    times_after = Counter(key[:2] for key in now)
    found = []
    for key, button in was.items():
        later = now.get(key)
        if later is None or not in_view(button) or times_before[key[:2]] != times_after[key[:2]]:
            continue
        move = Move(
            button.name(),
            tap,
            event,
            later.x - button.x,
            later.y - button.y,
            later.width - button.width,
            later.height - button.height,
        )
        if move.px > TOLERANCE_PX and not grows_below(tapped, button, later):
            found.append(move)
    return found


@dataclass
class Finger:
    ui: FlutterPage
    watch_moves: bool = False
    names: tuple[str, ...] = ()  # the players' names, left out of labels to follow a control from turn to turn
    taps: int = 0  # buttons and fields tapped
    typed: int = 0  # entries typed (a number, a name: one sequence of keys each)
    moves: list[Move] = field(default_factory=list)
    _under_sheet: tuple[View, Button, str] | None = None  # the page as a sheet opened over it, by which tap

    @property
    def count(self) -> int:
        """Every tap and typed entry so far: what a user did."""
        return self.taps + self.typed

    def reset(self) -> None:
        self.taps = self.typed = 0

    # --- finding ------------------------------------------------------------------------

    def top(self, shown: View) -> str:
        """The layer the user can reach: the open sheet, else the page."""
        return shown.title if shown.title is not None else SCREEN

    def button(self, label: str | re.Pattern[str], nth: int = 0) -> Button:
        """The `nth` button labelled `label` on the reachable layer, once it is shown."""
        deadline = time.monotonic() + FIND_TIMEOUT_S
        while True:
            shown = view(self.ui)
            button = find(shown.layer(self.top(shown)), label, nth)
            if button is not None:
                return button
            if time.monotonic() > deadline:
                labels = [b.label.splitlines()[0] if b.label else "" for b in shown.layer(self.top(shown))]
                raise AssertionError(f"no button {label!r} (#{nth + 1}) to tap; shown: {labels}")
            self.ui.page.wait_for_timeout(100)

    def after_heading(self, heading: str, label: str) -> Button | None:
        """The first button labelled `label` after the text `heading` (a chip of that row), or None."""
        locator = self.ui.page.locator(
            f"xpath=//flt-semantics[span[normalize-space(.)={_xpath_text(heading)}]]"
            f"/following::flt-semantics[@role='button'][normalize-space(text())={_xpath_text(label)}][1]"
        )
        if not locator.count():
            return None
        node = locator.first.get_attribute("id")
        shown = view(self.ui)
        return next((b for b in shown.layer(self.top(shown)) if b.node == node), None)

    # --- tapping and typing ---------------------------------------------------------------

    def tap(self, label: str | re.Pattern[str], nth: int = 0) -> None:
        """Tap the `nth` button labelled `label` (an icon by its tooltip) where the user can reach."""
        self.press(self.button(label, nth))

    def press(self, button: Button) -> None:
        button = reveal(self.ui, button)
        before = view(self.ui)
        button = find(before.layer(button.layer), button.label, button.nth) or button
        what = f"tapping {button.name()}"
        mark = frames(self.ui)
        self.ui.page.mouse.click(button.x + button.width / 2, button.y + button.height / 2)
        self.taps += 1
        settle(self.ui, mark)
        if self.watch_moves:
            self._compare(before, view(self.ui), button, what)

    def _compare(self, before: View, after: View, button: Button, what: str) -> None:
        self.moves += moves_between(before, after, button, what, self.taps, self.names)
        if before.title is None and after.title is not None:
            self._under_sheet = (before, button, what)
        elif before.title is not None and after.title is None and self._under_sheet is not None:
            page, opener, opened = self._under_sheet
            self._under_sheet = None
            self.moves += moves_between(
                page, after, opener, f"{what} (closing {before.title!r}; {opened} opened it)", self.taps, self.names
            )

    def field_after(self, heading: str | re.Pattern[str]) -> Any:
        """The first text field after the text `heading` (the words, or a pattern they match):
        the "Other" field of a row of chips. None when there is none."""
        if isinstance(heading, re.Pattern):
            pattern, flags = heading.pattern, "i" if heading.flags & re.IGNORECASE else ""
        else:
            pattern, flags = f"^{re.escape(heading)}$", ""
        index = self.ui.page.evaluate(_FIELD_AFTER_JS, [pattern, flags])
        return self.ui.page.locator("input").nth(index) if index >= 0 else None

    def type_number(self, field_: Any, value: int) -> None:
        """Tap the text field (a Playwright locator) and type `value` over what it holds: a tap and one typed entry."""
        box = field_.bounding_box()
        assert box is not None, "the number field is not drawn"
        self.ui.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.taps += 1
        self.ui.page.wait_for_function("() => document.activeElement && document.activeElement.tagName === 'INPUT'")
        # Flutter sets a focused field's text and selection a moment later: a digit typed before
        # that was lost now and then ("5" for 25). A finger takes that long between tap and key.
        settle(self.ui, None)
        self.ui.page.keyboard.press("Control+A")  # what the field held (a default) goes with the typing
        mark = frames(self.ui)
        self.ui.page.keyboard.type(str(value))
        self.typed += 1
        settle(self.ui, mark)

    def pick(self, heading: str, value: int) -> None:
        """Set the number under `heading` to `value`: its chip (one tap), else the number field
        after the heading (a tap and the digits). A chip of a later row with that number would
        be tapped instead if the row has none: what the sheet then says tells it."""
        deadline = time.monotonic() + CHIP_WAIT_S  # a sheet just opened may still be adding its rows
        while (chip := self.after_heading(heading, str(value))) is None and time.monotonic() < deadline:
            self.ui.page.wait_for_timeout(100)
        if chip is not None:
            self.press(chip)
            return
        typed = self.field_after(heading)
        assert typed is not None, f"no chip {value} and no number field under {heading!r}"
        self.type_number(typed, value)


def _xpath_text(text: str) -> str:
    """`text` as an XPath string literal (names may hold either quote)."""
    if "'" not in text:
        return f"'{text}'"
    if '"' not in text:
        return f'"{text}"'
    return "concat(" + ', "\'", '.join(f"'{part}'" for part in text.split("'")) + ")"

"""Watching the Flutter page as a user's eyes and fingers would: when the page has settled
after a tap, which buttons it shows and where, which sheet is open, and how many taps and
typed entries a task took.

``open_watched`` opens a page with ``WATCH_JS`` installed before the app loads: it counts
the frames the server sends on the page's socket, notes the last change of the DOM (Flutter
moves semantics nodes while anything animates) and counts pointer-downs and typed keys,
so that ``settle`` waits for "the server answered and nothing moved for a moment" instead
of sleeping.

A sheet is the open ``role=alertdialog`` (a modal dialog hides the page's own semantics);
its title is its first text. A button is a ``role=button`` node; its label is its own text,
or for an icon button the tooltip on the node around it.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import Browsers, FlutterPage

from companion.store.file_format import single_of

SCREEN = ""  # the layer of a button on the page itself, not in a sheet
UI_STATE = "ui-state.json"

WATCH_JS = """(() => {
    if (window.__watch) return;
    const watch = window.__watch = {frames: 0, lastFrame: 0, lastChange: 0, taps: 0, keys: 0};
    const Native = window.WebSocket;
    class Watched extends Native {
        constructor(...args) {
            super(...args);
            this.addEventListener("message", () => { watch.frames++; watch.lastFrame = performance.now(); });
        }
    }
    window.WebSocket = Watched;
    const observe = () => new MutationObserver(() => { watch.lastChange = performance.now(); })
        .observe(document.documentElement, {subtree: true, childList: true, attributes: true, characterData: true});
    if (document.documentElement) observe(); else document.addEventListener("DOMContentLoaded", observe);
    document.addEventListener("pointerdown", () => { watch.taps++; }, {capture: true});
    document.addEventListener("keydown", () => { watch.keys++; }, {capture: true});
})();"""

# Every button: label, layer (the open sheet's title, or "" on the page), box, whether it is
# disabled, its Semantics identifier, and the scrolling list (if any) it sits in.
_BUTTONS_JS = """() => {
    const own = (e) => Array.from(e.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent)
        .join("").trim();
    const dialog = document.querySelector("flt-semantics[role=alertdialog], flt-semantics[role=dialog]");
    const firstText = (root) => {
        for (const span of root.querySelectorAll("flt-semantics > span")) {
            const words = span.textContent.trim();
            if (words) return words;
        }
        return "";
    };
    const layer = dialog ? firstText(dialog) || "(untitled sheet)" : "";
    const scroller = (e) => {
        for (let up = e.parentElement; up; up = up.parentElement) {
            const style = up.getAttribute && (up.getAttribute("style") || "");
            if (up.getAttribute && up.getAttribute("role") === "group" && style.includes("scrollbar-width")) return up;
        }
        return null;
    };
    return Array.from(document.querySelectorAll("flt-semantics[role=button]")).map((e) => {
        const box = e.getBoundingClientRect();
        const parent = e.parentElement;
        const tip = parent && parent.getAttribute("aria-label");
        const list = scroller(e);
        const shown = list ? list.getBoundingClientRect() : {top: 0, bottom: window.innerHeight};
        return {
            node: e.id, label: own(e) || tip || e.getAttribute("aria-label") || "(unlabelled)",
            text: own(e), tip: tip || null, layer,
            x: box.x, y: box.y, width: box.width, height: box.height,
            disabled: e.getAttribute("aria-disabled") === "true",
            identifier: e.getAttribute("flt-semantics-identifier"),
            scroller: list ? list.id : null, shown_top: Math.max(0, shown.top),
            shown_bottom: Math.min(window.innerHeight, shown.bottom),
        };
    });
}"""

_TEXTS_JS = """() => {
    const dialog = document.querySelector("flt-semantics[role=alertdialog], flt-semantics[role=dialog]");
    const root = dialog || document;
    return {sheet: !!dialog, texts: Array.from(root.querySelectorAll("flt-semantics > span"))
        .map((s) => s.textContent.trim()).filter((t) => t)};
}"""
_VIEW_JS = f"() => ({{buttons: ({_BUTTONS_JS})(), shown: ({_TEXTS_JS})()}})"


@dataclass(frozen=True)
class Button:
    node: str  # its semantics node's id in the page (kept while Flutter keeps the node)
    label: str  # its words, or an icon's tooltip
    text: str  # its own words ("" for an icon)
    tip: str | None  # the tooltip around it (a sentence it would record, or why it is refused)
    layer: str  # the open sheet's title, or SCREEN
    x: float
    y: float
    width: float
    height: float
    disabled: bool
    identifier: str | None
    scroller: str | None  # the scrolling list it sits in, if any
    shown_top: float  # the part of the page where it can be seen: its list's (or the window's) top…
    shown_bottom: float  # …and bottom
    nth: int = 0  # which of the buttons with this label in this layer, in screen order

    @property
    def key(self) -> tuple[str, str, int]:
        """What tells this control apart from the others: its Semantics identifier if it has
        one, else its label and occurrence, within its layer."""
        if self.identifier:
            return (self.layer, f"#{self.identifier}", 0)
        return (self.layer, self.label, self.nth)

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def name(self) -> str:
        where = f" in {self.layer!r}" if self.layer else ""
        which = f" (#{self.nth + 1})" if self.nth else ""
        return f"{self.label.splitlines()[0]!r}{which}{where}"


def open_watched(browsers: Browsers, url: str, **context_options: Any) -> FlutterPage:
    """A page on ``url`` with ``WATCH_JS`` running from the start; ``context_options`` go to
    Playwright's ``new_context`` (``color_scheme="dark"``, ``device_scale_factor=2``...)."""
    options = {"viewport": browsers.viewport, **context_options}
    context = browsers.browser.new_context(**options)
    context.add_init_script(WATCH_JS)
    console: list[str] = []
    page = context.new_page()
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.set_default_timeout(browsers.timeout_ms)
    return FlutterPage(page, url, browsers.timeout_ms, console=console).load()


def frames(ui: FlutterPage) -> int:
    """How many messages the server has sent this page so far (a mark for ``settle``)."""
    return int(ui.page.evaluate("() => window.__watch.frames"))


def settle(ui: FlutterPage, since: int | None, *, quiet_ms: int = 120, timeout_ms: int = 5000) -> bool:
    """Wait until the server has answered since the mark ``since`` (None: no answer needed) and
    the page has not changed for ``quiet_ms``. False when that did not happen in time."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        ui.page.wait_for_function(
            """([since, quiet]) => {
                const watch = window.__watch, now = performance.now();
                return (since === null || watch.frames > since)
                    && now - Math.max(watch.lastFrame, watch.lastChange) >= quiet;
            }""",
            arg=[since, quiet_ms],
            timeout=timeout_ms,
            polling=50,
        )
    except PlaywrightTimeoutError:
        return False
    return True


def buttons(ui: FlutterPage) -> list[Button]:
    """Every button the page shows now, in screen (DOM) order, numbered per label and layer."""
    return _numbered(ui.page.evaluate(_BUTTONS_JS))


def _numbered(raw_buttons: list[dict[str, Any]]) -> list[Button]:
    seen: dict[tuple[str, str], int] = {}
    found = []
    for raw in raw_buttons:
        nth = seen.get((raw["layer"], raw["label"]), 0)
        seen[(raw["layer"], raw["label"])] = nth + 1
        found.append(Button(**raw, nth=nth))
    return found


@dataclass(frozen=True)
class View:
    """What the page shows at one moment: its buttons, the open sheet's title (None: no sheet),
    and the words of the sheet (or of the page when no sheet is open)."""

    buttons: list[Button]
    title: str | None
    texts: list[str]

    def layer(self, layer: str) -> list[Button]:
        return [button for button in self.buttons if button.layer == layer]


def view(ui: FlutterPage) -> View:
    """Everything ``buttons``, ``sheet_title`` and ``texts`` read, in one look."""
    raw = ui.page.evaluate(_VIEW_JS)
    shown = raw["shown"]
    title = (str(shown["texts"][0]) if shown["texts"] else "") if shown["sheet"] else None
    return View(_numbered(raw["buttons"]), title, list(shown["texts"]))


def sheet_title(ui: FlutterPage) -> str | None:
    """The open sheet's title, or None when no sheet is open."""
    shown = ui.page.evaluate(_TEXTS_JS)
    if not shown["sheet"]:
        return None
    return str(shown["texts"][0]) if shown["texts"] else ""


def texts(ui: FlutterPage) -> list[str]:
    """The words of the open sheet, or of the page when none is open."""
    return list(ui.page.evaluate(_TEXTS_JS)["texts"])


def in_view(button: Button) -> bool:
    """Whether the whole button can be seen (not scrolled away in its list, nor off the window)."""
    return button.y >= button.shown_top - 0.5 and button.bottom <= button.shown_bottom + 0.5


def reveal(ui: FlutterPage, button: Button, *, tries: int = 6) -> Button:
    """Scroll the button's list with the mouse wheel until the button is in view; the button as it is then."""
    for _ in range(tries):
        if in_view(button):
            return button
        middle = (button.shown_top + button.shown_bottom) / 2
        ui.page.mouse.move(button.x + button.width / 2, middle)
        ui.page.mouse.wheel(0, button.y + button.height / 2 - middle)
        settle(ui, None)
        again = find([b for b in buttons(ui) if b.layer == button.layer], button.label, button.nth)
        if again is None:
            break
        button = again
    if not in_view(button):
        raise AssertionError(f"{button.name()} cannot be scrolled into view")
    return button


def server_view(data_dir: Path) -> tuple[str | None, dict[str, Any]]:
    """The sheet the server means to show (ui-state.json's panel) and its draft."""
    try:
        state = single_of(json.loads((data_dir / UI_STATE).read_text()), "state")  # a TinyDB file
    except (OSError, ValueError):
        return None, {}
    return state.get("panel"), state.get("draft") or {}


def find(shown: Iterable[Button], label: str | re.Pattern[str], nth: int = 0) -> Button | None:
    """The ``nth`` button whose label is ``label`` (or matches it), or None."""
    matching = [b for b in shown if (b.label == label if isinstance(label, str) else label.search(b.label))]
    return matching[nth] if nth < len(matching) else None


def press(ui: FlutterPage, button: Button) -> None:
    """Click the middle of the button and wait for the answer (no checks: see ``finger``)."""
    mark = frames(ui)
    ui.page.mouse.click(button.x + button.width / 2, button.y + button.height / 2)
    settle(ui, mark)


def open_from_home(ui: FlutterPage, card: str, timeout_s: float = 30) -> None:
    """Home (closing whatever sheet the app came back with), then the game whose card's words
    begin with `card`, until its screen shows with no sheet over it."""
    undo = re.compile(r"^(Undo: .*|Nothing to undo)$")
    settle(ui, None, quiet_ms=400)  # a page just opened may still be coming back to where the app was
    opened = False
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        shown = view(ui)
        screen = shown.layer(SCREEN)
        if shown.title is not None:  # the app came back with a sheet (after the card was tapped, too)
            opened = False
            close = find(shown.layer(shown.title), "Close")
            if close is not None:
                press(ui, close)
            continue
        if opened and find(screen, undo) is not None:
            return
        back = find(screen, "Back to all games")
        card_button = next((b for b in screen if b.label.startswith(f"{card}\n")), None)
        if back is not None and not opened:
            press(ui, back)
        elif card_button is not None:
            press(ui, card_button)
            opened = True
        else:
            ui.page.wait_for_timeout(200)  # the page is still loading
    raise AssertionError(f"could not open {card!r} from Home; shown: {[b.label for b in view(ui).buttons]}")

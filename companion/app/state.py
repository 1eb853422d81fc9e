"""What one page shows: its screen, open sheet and inputs, the game it has open, its language.

One `PageState` per page (a browser tab, a phone, the desktop window), observable: the
page's root component is drawn again whenever it changes. Only `intents.Intents` changes
it; screens read it through `view.View`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any

import flet as ft

from companion.session import Session

sheet_numbers = itertools.count(1)
NO_NOTICE: dict[str, Any] = {"notice": None, "refused": None, "override": None}  # a notice taken down


def with_value(draft: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """A copy of `draft` with `value` at `path` (e.g. ("missing", "Ann")); the dicts on the way are copies."""
    copy = dict(draft)
    node = copy
    for name in path[:-1]:
        inner = node.get(name)
        node[name] = dict(inner) if isinstance(inner, dict) else {}
        node = node[name]
    node[path[-1]] = value
    return copy


@dataclass(frozen=True)
class UiState:
    """What the page shows, as one value: a change is a new `UiState` set on the page's
    state (`PageState.show`), which draws the page again by itself. One change is made in
    place: what is being typed, kept in the open sheet's draft without drawing the page again
    (a redraw would fight the cursor), so that the sheet's buttons, drawn with that draft,
    read it when tapped."""

    screen: str = "home"  # "home", "new", "settings", "game", or "stopped" (a phone whose share ended)
    panel: str | None = None  # the open sheet: "log", "load", "end_round", ...
    draft: dict[str, Any] = field(default_factory=dict)  # the open sheet's (or screen's) inputs
    notice: str | None = None  # the last refusal or warning, in words
    notice_is_error: bool = True
    refused: str | None = None  # the key of the control whose tap was refused, marked where it is
    override: dict[str, Any] | None = None  # the refused event the table may record anyway (its call)
    sheet_number: int = 0  # tells a sheet apart from the next one opened under the same name
    where: dict[str, Any] = field(default_factory=dict)  # a screen's place: the game a detail shows, the filters


@ft.observable
@dataclass
class PageState:
    ui: UiState = field(default_factory=UiState)
    session: Session | None = None
    language: str = "en"
    connected: bool = True  # False while the page's socket is gone; it is drawn again when it comes back
    # A finished game looked back on: (its id, the game as read, or why it could not be read).
    reading: tuple[str, Session | None, str | None] | None = None

    def changed(self) -> None:
        """The game (or what the data holds: a progress bar, the look) changed inside: draw again."""
        self.notify()  # type: ignore[attr-defined]  # from ft.observable

    def show(self, **changes: Any) -> None:
        """The page's screens and sheets changed (`UiState` fields): drawn again by the observable."""
        self.ui = replace(self.ui, **changes)


@ft.observable
@dataclass
class Look:
    """What the page's root gives everything under it: the language and the theme.

    Apart from `PageState` so that a tap draws the page once: the root, subscribed to the
    page's state, drew the whole body a second time after the body had drawn itself (half
    of every tap's time). Only a new language, theme or text size changes it."""

    language: str = "en"
    dark: bool = False
    # The device's text size (1.0: as designed; 2.0: a phone set to 200 %, or a browser's font
    # size doubled), as the page measures it (shell.py): what holds text grows with it.
    text_scale: float = 1.0

"""A page of the app: its state, the intents that change it, and the component that draws it.

`PageApp` puts one page together (state, the stale-screen guard, the language, the share
glue, the intents) and mounts `Root`. `Root` provides the page's language and theme to
everything under it by context; `PageBody` draws the screen and the open sheet from them
as a `View`. The page is drawn again whenever its `PageState` changes, and Flet diffs the
new tree against the old one: nothing a tap did not change is sent again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import flet_private
from companion.app.intents import Intents
from companion.app.language import LanguageChoice
from companion.app.share import Sharing
from companion.app.share_glue import VIEWER_REFUSAL, ShareGlue
from companion.app.stale import StaleGuard
from companion.app.state import Look, PageState
from companion.app.view import View

if TYPE_CHECKING:
    from companion.app.data import AppData

__all__ = ["LANGUAGE", "SHEET_SLOT", "THEME", "VIEWER_REFUSAL", "PageApp", "Root"]

LANGUAGE = ft.create_context("en")  # the page's language
THEME = ft.create_context(False)  # whether the page shows the dark theme (it follows the system's setting)

# Every sheet is the same dialog to Flet, whatever it shows: the key names the slot, not the
# sheet. Flet 1.0.5's `use_dialog` diffs a redrawn dialog against the one shown; when their
# keys differ (Load -> Rules, Log -> Stop game) the diff replaces the whole dialog and sends
# that patch to the *new* dialog's id, which the client was never sent: Flutter drops it,
# the browser keeps the old sheet, and the server no longer knows the buttons on it
# (flet/components/hooks/use_dialog.py with object_patch's `keys_match`). With one key, a
# sheet that leads to another is patched in place, so the client always shows the open one.
SHEET_SLOT = "sheet"

Draw = Callable[[View], ft.Control]
DrawSheet = Callable[[View], ft.DialogControl | None]


@ft.component
def Root(look: Look, act: Intents, screen: Draw, sheet: DrawSheet) -> ft.Control:
    """The whole page, with its language and theme given to everything under it.

    It takes the page's state only through `act` (not as an argument of its own): drawn
    again only when the look changes, while the body follows the state."""
    return LANGUAGE(look.language, lambda: THEME(look.dark, lambda: PageBody(act.state, act, screen, sheet)))


@ft.component
def PageBody(state: PageState, act: Intents, screen: Draw, sheet: DrawSheet) -> ft.Control:
    """The screen, and the open sheet as a dialog on top of it."""
    view = View.of(
        state,
        act,
        ft.use_context(LANGUAGE),
        ft.use_context(THEME),
        float(act.page.width or 412),
        float(act.page.height or 915),
        act.look.text_scale,
    )
    drawn = act.stale.drawing(state.session)
    shown = screen(view)
    dialog = sheet(view)
    if dialog is not None:
        dialog.key = SHEET_SLOT  # one dialog slot, whichever sheet is in it
    ft.use_dialog(dialog)
    ft.use_effect(lambda: act.stale.shown(drawn), [drawn])  # effects run once the patch is sent
    return shown


class PageApp:
    """One page (a tab, a phone, the window) of the app, on the process's shared `AppData`."""

    def __init__(
        self,
        page: ft.Page,
        data: AppData,
        screen: Draw,
        sheet: DrawSheet,
        *,
        sharing: Sharing | None = None,
        guest: str | None = None,
        language: str | None = None,
        run_started: float | None = None,
        glue: type[ShareGlue] = ShareGlue,
    ) -> None:
        self.page = page
        flet_private.taps_in_order(page)
        self.state = PageState()
        self.screen, self.sheet = screen, sheet
        share = glue(page, self.state, sharing, guest)
        self.language = LanguageChoice(page, data, language, lambda chosen: self.act.use_language(chosen), run_started)
        self.act = Intents(page, self.state, data, share=share, stale=StaleGuard(page), language=self.language)
        self.state.language = self.language.pick()
        share.listen(self.act)

    def mount(self, follow: Callable[[PageApp], bool] | None = None) -> None:
        """Draw the page; with `follow` (`Mirror.follow`: mirror.py builds on this module, not the
        reverse), a phone on the shared game shows the drawing it shares with phones alike."""
        if self.act.share.guest is not None:  # before the first draw: a phone's first frame is the shared game
            self.act.follow_shared_game()
            self.act.keep_guest_on_its_screens()
        self.language.localise_page(self.state.language)
        self.act.look_again()
        if follow is None or self.act.share.guest is None or not follow(self):
            self.render_own()
        # After the first screen (a phone's first frame is its game): measured, it draws again if it must.
        self.page.overlay.append(text_probe(self.act.text_scale_seen))

    def render_own(self) -> None:
        self.page.render(Root, self.act.look, self.act, self.screen, self.sheet)


PROBE_PX = 100  # a line of this size is as many pixels high at 100 % text (line height 1)


def text_probe(seen: Callable[[float], None]) -> ft.Control:
    """An invisible line whose height tells the device's text size: Flet does not say it, and
    the browser or the phone scales every text by it (a box sized for 100 % cuts its text)."""

    def sized(event: ft.LayoutSizeChangeEvent[Any]) -> None:
        if event.height > 0:
            seen(event.height / PROBE_PX)

    line = ft.Text("M", size=PROBE_PX, style=ft.TextStyle(height=1.0), opacity=0, on_size_change=sized, key="probe")
    # Laid out off the screen: under no finger, and read by no screen reader (opacity 0).
    return ft.Container(line, left=-4 * PROBE_PX, top=-4 * PROBE_PX, key="text-probe")

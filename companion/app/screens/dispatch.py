"""Which screen shows what: home, new game, settings, one screen module per game, and after the
game a finished game's detail and the statistics (with export, import and backups).

A module of its own, not the package's `__init__`: the screens import each other through the
package, which would then import them back."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from companion.app import sheets
from companion.app.screens import archive_sheet, detail, generic, home, new_game, player, rules, settings, share, stats
from companion.app.screens.registry import GAME_SCREENS, game_screen

if TYPE_CHECKING:
    from companion.app.view import View

__all__ = ["build", "sheet"]


def component(build: Callable[[View], ft.Control]) -> Callable[[View], ft.Control]:
    """A screen as a component of its view (the page's state, language, theme and intents)."""
    return ft.component(build)


SCREENS = {
    name: component(module.build)
    for name, module in (
        ("new", new_game),
        ("settings", settings),
        ("detail", detail),
        ("stats", stats),
        ("player", player),
        ("home", home),
    )
}
GAMES = {game_id: component(screen.build) for game_id, screen in (*GAME_SCREENS.items(), ("", generic.SCREEN))}
STOPPED = component(share.stopped)


def build(view: View) -> ft.Control:
    ui, session = view.ui, view.session
    on_game = ui.screen == "game" and session is not None
    # A phone that joined is drawn the shared game or "sharing stopped", never the host's screens.
    if ui.screen == "stopped" or (view.guest is not None and not on_game):
        return STOPPED(view)
    if on_game:
        assert session is not None
        return GAMES.get(session.game.id, GAMES[""])(view)
    return SCREENS.get(ui.screen, SCREENS["home"])(view)


def sheet(view: View) -> ft.DialogControl | None:
    """The open input sheet as a dialog over the screen, or None."""
    if view.ui.screen == "game" and view.session is not None and view.ui.panel == "stop":
        return sheets.stop_panel(view)
    if view.ui.screen == "game" and view.session is not None and view.ui.panel == "share":
        return share.sheet(view)
    if view.ui.screen == "game" and view.session is not None and view.ui.panel == "rules":
        return rules.sheet(view)
    if view.ui.screen == "game" and view.session is not None and view.ui.panel is not None:
        return game_screen(view.session.game.id).sheet(view)
    if view.ui.screen in ("home", "stats") and view.ui.panel == "archive":
        return archive_sheet.archive_sheet(view)
    if view.ui.screen == "stats":
        return stats.sheet(view)
    if view.ui.screen == "detail":
        return detail.sheet(view)
    return None

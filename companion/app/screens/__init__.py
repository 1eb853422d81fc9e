"""Which screen shows what: home, new game, settings, one screen module per game, and after the
game a finished game's detail and the statistics (with export, import and backups)."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

import flet as ft

from companion.app import widgets as w
from companion.app.screens import (
    detail,
    generic,
    great_plains,
    heartland,
    home,
    new_game,
    rules,
    settings,
    share,
    stats,
    transamerica,
)

if TYPE_CHECKING:
    from companion.app.shell import Shell

# A game without its own screen still gets the generic one (standings, log, undo).
GAME_SCREENS: dict[str, ModuleType] = {
    "heartland": heartland,
    "transamerica": transamerica,
    "great_plains": great_plains,
}


def game_screen(game_id: str) -> ModuleType:
    return GAME_SCREENS.get(game_id, generic)


def build(shell: Shell) -> ft.Control:
    if shell.ui.screen == "stopped":
        return share.stopped(shell)
    if shell.ui.screen == "game" and shell.session is not None:
        return game_screen(shell.session.game.id).build(shell)  # type: ignore[no-any-return]
    if shell.ui.screen == "new":
        return new_game.build(shell)
    if shell.ui.screen == "settings":
        return settings.build(shell)
    if shell.ui.screen == "detail":
        return detail.build(shell)
    if shell.ui.screen == "stats":
        return stats.build(shell)
    return home.build(shell)


def sheet(shell: Shell) -> ft.DialogControl | None:
    """The open input sheet as a dialog over the screen, or None."""
    if shell.ui.screen == "game" and shell.session is not None and shell.ui.panel == "stop":
        return w.stop_panel(shell)
    if shell.ui.screen == "game" and shell.session is not None and shell.ui.panel == "share":
        return share.sheet(shell)
    if shell.ui.screen == "game" and shell.session is not None and shell.ui.panel == "rules":
        return rules.sheet(shell)
    if shell.ui.screen == "game" and shell.session is not None and shell.ui.panel is not None:
        return game_screen(shell.session.game.id).sheet(shell)  # type: ignore[no-any-return]
    if shell.ui.screen in ("home", "stats") and shell.ui.panel == "archive":
        return stats.archive_sheet(shell)
    if shell.ui.screen == "stats":
        return stats.sheet(shell)
    if shell.ui.screen == "detail":
        return detail.sheet(shell)
    return None

"""A plain screen for a game that has no screen of its own yet: standings, log, undo."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import widgets as w
from companion.app.ties import ordinal
from companion.i18n import t
from companion.rules.base import Standing

if TYPE_CHECKING:
    from companion.app.shell import Shell


def status_line(state: Any, language: str = "en") -> str:
    return t("ui.in_progress", language)  # a game without a screen of its own has no words for its state yet


def build(shell: Shell) -> ft.Control:
    session = shell.session
    assert session is not None
    body: list[ft.Control] = [
        w.text(ranked(shell, s), 18) for s in session.standings()
    ]
    body.extend(w.log_lines(shell))
    header = [w.top_bar(shell, session.game.title)]
    return w.screen(shell, header, body, [w.undo_strip(shell)], key=f"game-{session.id}")


def ranked(shell: Shell, standing: Standing) -> str:
    line = w.t(shell, "ui.rank", ordinal=ordinal(standing.rank, shell.language), player=standing.player)
    line = f"{line}: {standing.score}"
    return w.t(shell, "ui.winner_mark", line=line) if standing.winner else line


def sheet(shell: Shell) -> ft.DialogControl | None:
    return w.log_panel(shell) if shell.ui.panel == "log" else None

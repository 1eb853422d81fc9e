"""A plain screen for a game that has no screen of its own yet: standings, log, undo."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import widgets as w
from companion.app.ties import ordinal
from companion.i18n import t
from companion.rules.base import Standing

if TYPE_CHECKING:
    from companion.app.view import View


def status_line(state: Any, language: str = "en") -> str:
    return t("ui.in_progress", language)  # a game without a screen of its own has no words for its state yet


def build(view: View) -> ft.Control:
    session = view.session
    assert session is not None
    body: list[ft.Control] = [
        w.text(ranked(view, s), 18) for s in session.standings()
    ]
    body.extend(w.log_lines(view))
    header = [w.top_bar(view, session.game.title)]
    return w.screen(view, header, body, [w.undo_strip(view)], key=f"game-{session.id}")


def ranked(view: View, standing: Standing) -> str:
    line = w.t(view, "ui.rank", ordinal=ordinal(standing.rank, view.language), player=standing.player)
    line = f"{line}: {standing.score}"
    return w.t(view, "ui.winner_mark", line=line) if standing.winner else line


def sheet(view: View) -> ft.DialogControl | None:
    return w.log_panel(view) if view.ui.panel == "log" else None


def result(view: View) -> ft.Control:
    """The standings, best first (a finished game's detail)."""
    assert view.session is not None
    return ft.Column([w.text(ranked(view, s), 18, key=f"rank-{w.slug(s.player)}") for s in view.session.standings()],
                     spacing=6, key="result")

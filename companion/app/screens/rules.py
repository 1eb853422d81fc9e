"""The rules reference as a sheet: one section at a time, opened at the part that matters
where the table is (the Load sheet at loading, an end screen at the winner), every other
section one tap away, and back to the sheet it was opened from."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import sheets
from companion.app import widgets as w
from companion.text import reference

if TYPE_CHECKING:
    from companion.app.view import View


def sheet(view: View) -> ft.DialogControl | None:
    session = view.session
    assert session is not None
    game_id = session.game.id
    if game_id not in reference.SECTIONS:
        return None
    draft = view.ui.draft
    section_id = draft.get("section")
    if section_id not in reference.SECTIONS[game_id]:
        section_id = reference.SECTIONS[game_id][0]
    shown = reference.section(game_id, section_id, view.language)
    body: list[ft.Control] = [w.text(shown.title, 18, bold=True, key="rules-section")]
    for number, lines in enumerate(shown.lists(), start=1):
        for line_number, line in enumerate(lines, start=1):
            words = "– " + line[2:] if line.startswith("- ") else line  # the web font has no bullet
            body.append(ft.Text(words, size=15, key=f"rules-text-{number}-{line_number}"))
    others = [section for section in reference.sections(game_id, view.language) if section.id != shown.id]
    body.append(
        ft.Row(
            [
                ft.TextButton(
                    section.title,
                    key=f"rules-{section.id}",
                    height=view.grown(w.TARGET),
                    on_click=lambda _, section_id=section.id: view.act.set_draft(section=section_id),
                )
                for section in others
            ],
            wrap=True,
            spacing=0,
            run_spacing=0,
            key="rules-sections",
        )
    )
    footer: list[ft.Control] = []
    came_from: dict[str, Any] | None = draft.get("came_from")
    if came_from:
        footer.append(
            ft.FilledButton(
                w.t(view, "ui.rules.back"),
                key="rules-back",
                height=view.grown(w.TARGET),
                on_click=lambda _: view.act.open_panel(came_from["panel"], **came_from["draft"]),
            )
        )
    return sheets.sheet(
        view, w.t(view, "ui.rules.open", title=session.game.title), body, key="rules-panel", footer=footer
    )

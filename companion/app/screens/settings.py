"""Settings: the language Companion speaks, kept for the next start."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import flet as ft

from companion.app import widgets as w
from companion.text.i18n import NAMES
from companion.text.messages import LANGUAGES

if TYPE_CHECKING:
    from companion.app.view import View


def build(view: View) -> ft.Control:
    back = w.icon_button(ft.Icons.ARROW_BACK, w.t(view, "ui.back_home"), view.act.go_home, key="back")
    header: list[ft.Control] = [ft.Row([back, w.text(w.t(view, "ui.settings"), 20, bold=True)])]
    chosen = view.chosen_language
    choices: list[ft.Control] = [w.text(w.t(view, "ui.settings.language"), 15, bold=True)]
    device = w.t(view, "ui.settings.device", name=NAMES[view.device_language])
    for code, label in ((None, device), *((language, NAMES[language]) for language in LANGUAGES)):
        choices.append(w.action(label, functools.partial(view.act.set_language, code),
                                key=f"language-{code or 'device'}", chosen=chosen == code,
                                describe=w.t(view, "ui.settings.language.tip", name=label) if code else None))
    note = view.data.storage_note()  # the phone build: whether the browser may clear the games
    if note is not None:
        choices += [w.text(w.t(view, "ui.settings.storage"), 15, bold=True),
                    w.text(w.t(view, note[0], **note[1]), 14, key="storage-note")]
    return w.screen(view, header, choices, key="settings-screen")

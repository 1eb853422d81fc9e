"""Settings: the language Companion speaks, kept for the next start."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import flet as ft

from companion.app import widgets as w
from companion.i18n import NAMES
from companion.messages import LANGUAGES

if TYPE_CHECKING:
    from companion.app.shell import Shell


def build(shell: Shell) -> ft.Control:
    back = w.icon_button(ft.Icons.ARROW_BACK, w.t(shell, "ui.back_home"), shell.go_home, key="back")
    header: list[ft.Control] = [ft.Row([back, w.text(w.t(shell, "ui.settings"), 20, bold=True)])]
    chosen = shell.chosen_language
    choices: list[ft.Control] = [w.text(w.t(shell, "ui.settings.language"), 15, bold=True)]
    device = w.t(shell, "ui.settings.device", name=NAMES[shell.device_language])
    for code, label in ((None, device), *((language, NAMES[language]) for language in LANGUAGES)):
        choices.append(w.action(label, functools.partial(shell.set_language, code), key=f"language-{code or 'device'}",
                                chosen=chosen == code,
                                describe=w.t(shell, "ui.settings.language.tip", name=label) if code else None))
    return w.screen(shell, header, choices, key="settings-screen")

"""Settings: the language Companion speaks, kept for the next start; sync with a CouchDB server."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import dates, layout
from companion.app import widgets as w
from companion.app.after_intents import message_of
from companion.app.intents import REOPEN
from companion.sync.settings import read_settings, setup_link
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
        choices.append(
            w.action(
                label,
                functools.partial(view.act.set_language, code),
                key=f"language-{code or 'device'}",
                chosen=chosen == code,
                describe=w.t(view, "ui.settings.language.tip", name=label) if code else None,
                view=view,
            )
        )
    note = view.data.storage_note()  # the phone build: whether the browser may clear the games
    if note is not None:
        choices += [
            w.text(w.t(view, "ui.settings.storage"), 15, bold=True),
            w.text(w.t(view, note[0], **note[1]), 14, key="storage-note"),
        ]
    choices += sync_section(view)
    return layout.screen(view, header, choices, key="settings-screen")


def reopen(act: Any, place: dict[str, Any]) -> bool:
    """After a restart: Settings again (the phone build starts again once a sync server is set up)."""
    act.go("settings", {})
    return True


REOPEN["settings"] = reopen


def sync_section(view: View) -> list[ft.Control]:
    """Sync: set up (address, database, user, password; Test, Turn on), or on (its status, Sync now, Turn off)."""
    body: list[ft.Control] = [w.text(w.t(view, "ui.settings.sync"), 15, bold=True)]
    status = view.data.sync.status
    draft = view.ui.draft
    if status.on:
        body.append(w.text(status_words(view, status), 14, key="sync-status"))
        if status.progress is not None:
            stage, done, total = status.progress
            body.append(ft.ProgressBar(value=done / total if total else None, key="sync-progress-bar"))
            body.append(
                w.text(w.t(view, f"ui.settings.sync.progress.{stage}", done=done, total=total), 14, key="sync-progress")
            )
        if status.fault is not None:
            body.append(
                w.text(
                    w.t(view, "ui.settings.sync.fault", reason=status.fault.text(view.language)),
                    14,
                    colour=ft.Colors.ERROR,
                    key="sync-fault",
                )
            )
        if not status.encrypted:
            body.append(w.text(w.t(view, "ui.settings.sync.not_encrypted"), 14, key="sync-not-encrypted"))
        body.append(
            side_by_side(
                view,
                ("ui.settings.sync.now", view.act.sync.sync_now, "sync-now"),
                ("ui.settings.sync.off", view.act.sync.turn_off, "sync-off"),
            )
        )
        settings = read_settings(view.data.store.folder)
        if settings is not None:
            body += [
                w.text(w.t(view, "ui.settings.sync.link"), 14),
                ft.Text(setup_link(settings), size=13, selectable=True, key="sync-link"),
            ]
    else:
        body.append(w.text(w.t(view, "ui.settings.sync.about"), 14, key="sync-about"))
        body += [
            field(view, "sync_url", "ui.settings.sync.url", hint=w.t(view, "ui.settings.sync.url.hint")),
            field(view, "sync_database", "ui.settings.sync.database", hint="companion"),
            field(view, "sync_user", "ui.settings.sync.user"),
            ft.TextField(
                label=w.t(view, "ui.settings.sync.password"),
                password=True,
                key="sync-password",
                on_change=lambda event: view.act.sync.typed_password(event.control.value or ""),
            ),
            side_by_side(
                view,
                ("ui.settings.sync.test", view.act.sync.start_test, "sync-test"),
                ("ui.settings.sync.on", view.act.sync.start_turn_on, "sync-on"),
                primary_second=True,
            ),
        ]
    said = draft.get("sync_said")
    if draft.get("sync_busy"):
        body.append(ft.ProgressBar(key="sync-testing"))
    elif isinstance(said, dict):
        body.append(
            w.text(
                message_of(said).text(view.language),
                14,
                key="sync-said",
                colour=None if draft.get("sync_ok") else ft.Colors.ERROR,
            )
        )
    return body


def field(view: View, name: str, label: str, hint: str | None = None) -> ft.Control:
    return ft.TextField(
        label=w.t(view, label),
        value=str(view.ui.draft.get(name, "")),
        hint_text=hint,
        key=name.replace("_", "-"),
        on_change=lambda event: view.act.sync.typed(**{name: event.control.value or ""}),
    )


def status_words(view: View, status: Any) -> str:
    if status.busy:
        return w.t(view, "ui.settings.sync.status.busy", server=status.server)
    if status.last_ok is None:
        return w.t(view, "ui.settings.sync.status.never", server=status.server)
    when = f"{dates.day(status.last_ok, view.language)} {dates.at_time_of_day(status.last_ok, view.language)}"
    return w.t(view, "ui.settings.sync.status.ok", server=status.server, when=when)


def side_by_side(
    view: View,
    first: tuple[str, Callable[[], None], str],
    second: tuple[str, Callable[[], None], str],
    *,
    primary_second: bool = False,
) -> ft.Control:
    """Two buttons sharing a row: (words, what a tap does, key) each."""
    return ft.Row(
        [
            w.action(w.t(view, words), on_tap, key=key, expand=True, primary=primary_second and number == 1, view=view)
            for number, (words, on_tap, key) in enumerate((first, second))
        ]
    )

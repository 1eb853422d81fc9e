"""Sheets: the modal dialogs that take a turn's inputs (their fixed size, so nothing on
them moves), and the log and Stop game sheets."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import layout
from companion.app import widgets as w

if TYPE_CHECKING:
    from companion.app.view import View


SHEET_INSET = 8  # a sheet leaves this much of the page visible at each side
SHEET_PADDING = 16
SHEET_WIDE_WIDTH = 600.0  # a sheet's inputs in a wide window: a dialog, not a phone's width or the window's
SHEET_WIDE_HEIGHT = 560.0  # and at most this tall there, so a tall window shows a dialog, not a wall
NOTICE_SLOT_HEIGHT = 60  # a sheet keeps this room for a refusal, so it never pushes its buttons


def log_panel(view: View, context: Callable[[int], str] | None = None) -> ft.DialogControl:
    """The log, and from there the rare "Stop game" (kept off the game screen, away from the thumb)."""
    assert view.session is not None
    footer: list[ft.Control] = []
    if not view.session.is_over:
        footer.append(
            ft.OutlinedButton(
                w.t(view, "ui.stop"),
                key="stop-game",
                height=view.grown(w.TARGET),
                on_click=lambda _: view.act.open_panel("stop", note=""),
                tooltip=w.t(view, "ui.stop.tip"),
            )
        )
    return sheet(view, w.t(view, "ui.log"), layout.log_lines(view, context), key="log-panel", footer=footer)


def stop_panel(view: View) -> ft.DialogControl:
    """Stop the game early (the pizza came, someone left): the standings as they stand are final."""
    note_field = ft.TextField(
        label=w.t(view, "ui.stop.why"),
        value=view.ui.draft.get("note", ""),
        key="stop-note",
        max_length=60,
        on_change=lambda e: view.act.set_draft(quiet=True, note=e.control.value),
    )

    def stop() -> None:
        note = " ".join(str(view.ui.draft.get("note", "")).split()) or w.t(view, "ui.stop.default_note")
        view.act.apply({"type": "end_game", "note": note}, tapped="stop-confirm")

    confirm = ft.FilledButton(
        w.t(view, "ui.stop.confirm"),
        key="stop-confirm",
        height=view.grown(w.TARGET),
        on_click=lambda _: stop(),
        style=ft.ButtonStyle(bgcolor=ft.Colors.ERROR, color=ft.Colors.ON_ERROR),
    )
    body: list[ft.Control] = [
        w.text(w.t(view, "ui.stop.hint"), 15),
        note_field,
    ]
    return sheet(view, w.t(view, "ui.stop.title"), body, key="stop-panel", footer=[confirm])


def sheet_width(view: View) -> float:
    """The content width of a sheet on this page: the page less the sheet's margins; in a
    wide window a dialog's width (its chips in longer rows), not the window's."""
    if w.is_wide(view):
        return SHEET_WIDE_WIDTH
    page_width = view.width or 412
    return min(480.0, float(page_width) - 2 * SHEET_INSET - 2 * SHEET_PADDING)


SHEET_FRAME = 236  # the page's height a sheet's inputs leave: its margins, title, notice slot and buttons


def sheet_height(view: View) -> float:
    """The height of a sheet's inputs: the page less the sheet's frame, whatever they hold, so
    the sheet never grows under the finger and its buttons stay where they are."""
    tall = max(160.0, float(view.height or 915) - view.grown(SHEET_FRAME))
    return min(tall, SHEET_WIDE_HEIGHT) if w.is_wide(view) else tall


class Sheet(ft.AlertDialog):
    """An AlertDialog that is never frozen. Flet marks controls it reached through a redrawn
    component as frozen, and one page patch can reach an open dialog that way; closing a
    frozen dialog then fails inside Flet ("Frozen controls cannot be updated"). A sheet is
    redrawn whole on every change anyway, and only its `open` and `on_dismiss` are ever set
    after it is built."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "_frozen":
            super().__setattr__(name, value)


def sheet(
    view: View, title: str, body: list[ft.Control], *, key: str, footer: list[ft.Control] | None = None
) -> ft.DialogControl:
    """An input sheet as a modal dialog: the title on top, the inputs scrolling below it,
    Close and the confirm button pinned at the bottom (always in view, within thumb reach),
    with a fixed slot above them for a refusal, so a refusal never moves them."""
    number = view.ui.sheet_number
    slot = ft.Container(
        ft.Row(
            [
                # Whole, scrolling inside the fixed slot (as the page's notice does): cut at three
                # lines, the rest of the reason was only in a tooltip, which a phone has not.
                ft.Column(
                    [
                        ft.Text(
                            view.ui.notice or "",
                            size=14,
                            key="notice" if view.ui.notice else "sheet-notice-empty",
                            color=ft.Colors.ERROR if view.ui.notice_is_error else None,
                        )
                    ],
                    scroll=ft.ScrollMode.AUTO,
                    expand=True,
                    alignment=ft.MainAxisAlignment.CENTER,
                ),
                w.record_anyway(view),
            ]
        ),
        height=view.grown(NOTICE_SLOT_HEIGHT),
        alignment=ft.Alignment.CENTER_LEFT,
        key="sheet-notice",
    )
    close = ft.OutlinedButton(
        w.t(view, "ui.close"),
        key="panel-close",
        height=view.grown(w.TARGET),
        on_click=lambda _: view.act.close_panel(),
        tooltip=w.t(view, "ui.close.tip"),
    )
    bottom: list[ft.Control] = [
        slot,
        ft.Row([close, *(footer or [])], wrap=True, alignment=ft.MainAxisAlignment.END, spacing=8, run_spacing=8),
    ]
    width = sheet_width(view)
    return Sheet(
        title=ft.Text(title, size=18, weight=ft.FontWeight.BOLD, key="panel-title"),
        # Inputs of one height that scroll within it, the title above and the buttons pinned
        # below: nothing on a sheet moves when what it holds grows (a price tapped, a count
        # that ends the game).
        content=ft.Column(body, spacing=8, width=width, height=sheet_height(view), scroll=ft.ScrollMode.AUTO, key=key),
        actions=[ft.Column(bottom, spacing=4, width=width, tight=True)],
        modal=True,  # a stray tap beside a half-filled sheet must not throw its inputs away
        # Anchored at the top: a centred dialog moved every chip up when the sheet grew (a price tapped).
        # A wide window: a dialog of its own size in the middle (its height is fixed too, so it never moves).
        alignment=ft.Alignment.CENTER if w.is_wide(view) else ft.Alignment.TOP_CENTER,
        inset_padding=ft.Padding.symmetric(horizontal=SHEET_INSET, vertical=16),
        title_padding=ft.Padding.only(left=SHEET_PADDING, right=SHEET_PADDING, top=16, bottom=4),
        content_padding=ft.Padding.symmetric(horizontal=SHEET_PADDING, vertical=4),
        actions_padding=ft.Padding.only(left=SHEET_PADDING, right=SHEET_PADDING, bottom=12),
        on_dismiss=lambda _: view.act.sheet_dismissed(number),
    )

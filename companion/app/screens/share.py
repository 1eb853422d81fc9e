"""Sharing the game with the table: the host's sheet (QR code, address, code, who joined)
and what a phone shows once the host stopped sharing."""

from __future__ import annotations

import functools
import io
from typing import TYPE_CHECKING

import flet as ft
import segno

from companion.app import sheets
from companion.app import widgets as w
from companion.app.share import SCOREKEEPER, VIEWER, Guest, Share, display_code

if TYPE_CHECKING:
    from companion.app.view import View

QR_SIZE = 240


@functools.lru_cache(maxsize=4)
def qr_png(link: str) -> bytes:
    """The link as a QR code image, made here (nothing asked of the internet)."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="png", scale=8, border=2, dark="#000000", light="#ffffff")
    return out.getvalue()


def sheet(view: View) -> ft.DialogControl:
    share = view.shared
    if share is None:
        return ask(view)
    body: list[ft.Control] = [
        w.text(w.t(view, "ui.share.stays"), 14, bold=True, key="share-stays"),
        w.text(w.t(view, "ui.share.hint"), 14),
        ft.Container(
            ft.Image(src=qr_png(share.link), width=QR_SIZE, height=QR_SIZE, key="share-qr"),
            alignment=ft.Alignment.CENTER,
        ),
        ft.Text(share.url, size=18, weight=ft.FontWeight.BOLD, key="share-url"),
        ft.Row(
            [
                w.text(w.t(view, "ui.share.code"), 16),
                ft.Text(display_code(share.code), size=w.BIG, weight=ft.FontWeight.BOLD, key="share-code"),
            ],
            spacing=12,
        ),
        w.text(w.t(view, "ui.share.connected"), 16, bold=True),
        *guests(view, share),
    ]
    stop = ft.FilledButton(
        w.t(view, "ui.share.stop"),
        key="share-stop",
        height=view.grown(w.TARGET),
        on_click=lambda _: view.act.stop_sharing(),
        tooltip=w.t(view, "ui.share.stop.tip"),
    )
    return sheets.sheet(view, w.t(view, "ui.share"), body, key="share-sheet", footer=[stop])


def ask(view: View) -> ft.DialogControl:
    """Before anything listens: what sharing does, and a start that is not the default (outlined)."""
    body: list[ft.Control] = [
        w.text(w.t(view, "ui.share.off"), 16, bold=True, key="share-off"),
        w.text(w.t(view, "ui.share.ask"), 15, key="share-ask"),
    ]
    start = ft.OutlinedButton(
        w.t(view, "ui.share.start"),
        key="share-start",
        height=view.grown(w.TARGET),
        icon=ft.Icons.WIFI_TETHERING,
        on_click=lambda _: view.act.start_sharing(),
        tooltip=w.t(view, "ui.share.start.tip"),
    )
    return sheets.sheet(view, w.t(view, "ui.share"), body, key="share-sheet", footer=[start])


def guests(view: View, share: Share) -> list[ft.Control]:
    connected = share.connected()
    if not connected:
        return [w.text(w.t(view, "ui.share.nobody"), 14, colour=w.QUIET, key="share-nobody")]
    return [guest_row(view, guest) for guest in connected]


def guest_row(view: View, guest: Guest) -> ft.Control:
    key = f"guest-{w.slug(guest.name)}"
    keeper = guest.role == SCOREKEEPER
    role = w.t(view, "ui.share.keeps_score" if keeper else "ui.share.follows")
    label = w.t(view, "ui.share.stop_keeping" if keeper else "ui.share.let_keep", name=guest.name)
    button = ft.OutlinedButton(
        label,
        key=f"{key}-role",
        height=view.grown(w.TARGET),
        on_click=lambda _: view.act.set_guest_role(guest.id, VIEWER if keeper else SCOREKEEPER),
        tooltip=w.t(view, "ui.share.then_follows" if keeper else "ui.share.then_records", name=guest.name),
    )
    return ft.Row(
        [
            ft.Column([w.text(guest.name, 16, bold=True), w.text(role, 13, colour=w.QUIET)], spacing=0, expand=True),
            button,
        ],
        key=key,
    )


def stopped(view: View) -> ft.Control:
    """A phone's page once the host stopped sharing (or left the game)."""
    column = ft.Column(
        [
            w.text(w.t(view, "ui.share.stopped"), 22, bold=True, key="share-stopped"),
            w.text(w.t(view, "ui.share.ask_again"), 16),
        ],
        spacing=12,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        alignment=ft.MainAxisAlignment.CENTER,
        expand=True,
    )
    return ft.SafeArea(ft.Container(column, padding=24, expand=True), expand=True, key="stopped")

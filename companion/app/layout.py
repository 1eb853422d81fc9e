"""A screen's frame: the header, the scrolling body, the notice slot and the footer; in a wide
window the game's parts side by side with its log. And the log's lines."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import widgets as w

if TYPE_CHECKING:
    from companion.app.view import View


LOG_LINES = 100  # the newest lines shown at first; older ones on request
LOG_BLOCK = 50  # lines per Text: Flet diffs a handful of controls instead of one per line


def log_lines(view: View, context: Callable[[int], str] | None = None, *, prefix: str = "log") -> list[ft.Control]:
    """The session's events as sentences, newest first, and the newest `LOG_LINES` until asked for more.

    One Text per block of `LOG_BLOCK` lines, a sentence a line: one Text per line made
    thousands of controls to build and diff once the whole log was shown. Blocks hold
    fixed line numbers (1-50, 51-100, ...) so a new event changes only the newest.
    """
    session = view.session
    assert session is not None
    total = session.cursor
    shown = total if view.ui.draft.get("log_all") else min(total, LOG_LINES)
    oldest = total - shown + 1
    rows: list[ft.Control] = []
    for block in range((total - 1) // LOG_BLOCK, (oldest - 1) // LOG_BLOCK - 1, -1):
        first = max(block * LOG_BLOCK + 1, oldest)
        last = min(block * LOG_BLOCK + LOG_BLOCK, total)
        lines = []
        for number in range(last, first - 1, -1):
            where = f" · {context(number)}" if context else ""
            lines.append(f"{number}. {session.sentence(number).text(view.language)}{where}")
        rows.append(ft.Text("\n".join(lines), size=15, key=f"{prefix}-block-{block}"))
    drawn = session.game.setup_sentence(session.options)
    if drawn is not None and oldest == 1:  # the set-up, below the first event
        rows.append(ft.Text(drawn.text(view.language), size=15, key=f"{prefix}-setup"))
    if shown < total:
        rows.append(
            ft.TextButton(
                w.t(view, "ui.log.older", count=total - shown),
                key=f"{prefix}-older",
                height=view.grown(w.TARGET),
                on_click=lambda _: view.act.set_draft(log_all=True),
            )
        )
    if not rows:
        rows.append(w.text(w.t(view, "ui.log.nothing"), 15))
    return rows


def round_context(view: View, round_of: Callable[[Any], int], message_id: str) -> Callable[[int], str]:
    """Line `number` of the log -> "round 3": the round of the state before its event.

    `round_of` reads a state's round; its values are kept by the session (`state_fact`), so
    the whole log is not replayed each time it is shown, and the words are made once per
    round, not once per line.
    """
    session = view.session
    assert session is not None
    words: dict[int, str] = {}

    def context(number: int) -> str:
        round_number = session.state_fact(round_of, number - 1)
        said = words.get(round_number)
        if said is None:
            said = words[round_number] = w.t(view, message_id, number=round_number)
        return said

    return context


def screen(
    view: View,
    header: list[ft.Control],
    body: list[ft.Control],
    footer: list[ft.Control] | None = None,
    *,
    key: str,
    beside: list[ft.Control] | None = None,
    log: Callable[[int], str] | None = None,
) -> ft.Control:
    """Header fixed on top, scrolling body, a slot for notices, and the footer within thumb
    reach. `key` names the screen, so redrawing the same screen diffs it in place.

    A game's screen passes `beside` (its actions): on a phone they follow the body in one
    scrolling column; in a wide window the body (the players), the actions with the notice
    and footer under them, and the log (`log` gives each line its round) stand side by side."""
    muted = view.read_only() is not None  # a phone that only follows sees every button muted
    ends = footer_of(footer or [], muted)
    banner = w.present(w.guest_banner(view))
    if beside is not None and w.is_wide(view):
        middle = ft.Column(
            [scrolling(beside, key="beside", muted=muted), w.notice_box(view), *ends],
            expand=3,
            spacing=8,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        )
        columns = ft.Row(
            [ft.Column([scrolling(body, key="body", muted=muted)], expand=3), middle, log_pane(view, log)],
            expand=True,
            spacing=16,
            vertical_alignment=ft.CrossAxisAlignment.STRETCH,
            key="columns",
        )
        parts: list[ft.Control] = [*header, *banner, columns]
        return frame(view, parts, key, full_width=True)
    parts = [*header, *banner, scrolling([*body, *(beside or [])], key="body", muted=muted), w.notice_box(view), *ends]
    return frame(view, parts, key)


def scrolling(controls: list[ft.Control], *, key: str, muted: bool = False) -> ft.Control:
    return ft.Column(
        controls,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
        key=key,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        disabled=muted,
    )


def footer_of(footer: list[ft.Control], muted: bool) -> list[ft.Control]:
    if footer and muted:
        return [
            ft.Column(
                footer,
                spacing=8,
                disabled=True,
                opacity=0.5,
                key="footer",
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            )
        ]
    return footer


def frame(view: View, parts: list[ft.Control], key: str, *, full_width: bool = False) -> ft.Control:
    """The screen's column on the page; in a wide window a screen of lists and forms keeps a
    readable width in the middle instead of stretching its lines across it."""
    column = ft.Column(parts, expand=True, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    narrow = full_width or not w.is_wide(view)
    # One shape at every width (only the width changes), so a window resized keeps every control.
    centred = ft.Row(
        [ft.Container(column, padding=8, expand=narrow or None, width=None if narrow else w.WIDE_CONTENT)],
        alignment=ft.MainAxisAlignment.CENTER,
        vertical_alignment=ft.CrossAxisAlignment.STRETCH,
        expand=True,
    )
    return ft.SafeArea(centred, expand=True, key=key)


def log_pane(view: View, context: Callable[[int], str] | None) -> ft.Control:
    """The log beside the game in a wide window, newest first (the sheet stays for Stop game)."""
    lines = log_lines(view, context, prefix="pane")
    return ft.Column(
        [w.text(w.t(view, "ui.log"), 15, bold=True), *lines],
        scroll=ft.ScrollMode.AUTO,
        expand=2,
        spacing=6,
        key="log-pane",
    )

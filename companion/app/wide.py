"""The wide window's layouts of the screens that are not a game: Home, New game, the
statistics, a player's page and a finished game's detail.

From `widgets.WIDE` (a desktop window, a tablet) a screen's parts stand side by side as
columns, each scrolling on its own and as tall as the window, instead of the phone's one
column centred in the middle with the lower half of the window empty. The phone's layout is
the screens' own and is not drawn here. Which layout a page gets depends on its width
alone, like the game screens' (the live table's mirror groups phones by it), and everything
a screen shows is drawn from the page's state: a window resized across the line draws the
same state and drafts in the other layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import flet as ft

from companion.app import layout
from companion.app import widgets as w

if TYPE_CHECKING:
    from companion.app.view import View

FOOTER_WIDTH = 420  # a main button in a wide window: a phone's width, at the right under the columns
COLUMN_SPACING = 16


def column(
    controls: Sequence[ft.Control], *, key: str, expand: int = 1, listed: bool = False, muted: bool = False
) -> ft.Control:
    """One column of a wide screen: as tall as the window, scrolling on its own. `listed`
    builds only what is in view (a long list of games or log lines)."""
    if listed:
        return ft.ListView(list(controls), expand=expand, spacing=10, key=key)
    return ft.Column(
        list(controls),
        scroll=ft.ScrollMode.AUTO,
        expand=expand,
        spacing=10,
        key=key,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        disabled=muted,
    )


def screen(
    view: View,
    header: list[ft.Control],
    columns: Sequence[ft.Control],
    footer: list[ft.Control] | None = None,
    *,
    key: str,
    top: list[ft.Control] | None = None,
) -> ft.Control:
    """A wide screen: the header and `top` across the window, the columns side by side
    under them filling its height, then the notice and the footer (its main button at the
    right, a phone's width, not stretched across the window)."""
    row = ft.Row(
        list(columns),
        expand=True,
        spacing=COLUMN_SPACING,
        key="columns",
        vertical_alignment=ft.CrossAxisAlignment.STRETCH,
    )
    parts: list[ft.Control] = [*header, *(top or []), row, w.notice_box(view)]
    if footer:
        parts.append(
            ft.Row(
                [
                    ft.Column(
                        footer,
                        width=FOOTER_WIDTH,
                        spacing=8,
                        key="wide-footer",
                        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                    )
                ],
                alignment=ft.MainAxisAlignment.END,
            )
        )
    return layout.frame(view, parts, key, full_width=True)

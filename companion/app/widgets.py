"""Small building blocks shared by every screen: bars, buttons, numbers, the log."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.messages import join_names
from companion.rules.base import Standing

if TYPE_CHECKING:
    from companion.app.shell import Shell

BIG = 36  # scores and money: readable across a table
BUTTON_HEIGHT = 48
COMPACT_WIDTH = 42
PLAYER_COLOURS = (
    ft.Colors.RED_700,
    ft.Colors.BLUE_700,
    ft.Colors.GREEN_700,
    ft.Colors.PURPLE_700,
    ft.Colors.ORANGE_800,
    ft.Colors.TEAL_700,
)
MUTED = ft.Colors.with_opacity(0.45, ft.Colors.ON_SURFACE)
ERROR_BG = ft.Colors.ERROR_CONTAINER
INFO_BG = ft.Colors.SECONDARY_CONTAINER


def player_colour(players: Sequence[str], player: str) -> str:
    return PLAYER_COLOURS[list(players).index(player) % len(PLAYER_COLOURS)]


def slug(text: str) -> str:
    """A control key from a player's name; distinct names (ignoring case) give distinct keys."""
    return "".join(char if char.isalnum() else f"-{ord(char):x}" for char in text.casefold())


def dollars(amount: int) -> str:
    """$5, or -$3 for a final score the cargo penalty took below zero."""
    return f"-${-amount}" if amount < 0 else f"${amount}"


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def result_line(standings: Sequence[Standing], score: str) -> str:
    """'Ann won ($44)' or 'Ann and Cy shared the win ($40)', for the home screen."""
    winners = [standing.player for standing in standings if standing.winner]
    verb = "won" if len(winners) == 1 else "shared the win"
    return f"{names(winners)} {verb} {score}"


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def names(items: Sequence[str]) -> str:
    return join_names(list(items))


def text(value: str, size: float = 16, *, bold: bool = False, colour: str | None = None,
         key: str | None = None) -> ft.Text:
    return ft.Text(value, size=size, weight=ft.FontWeight.BOLD if bold else None, color=colour, key=key)


def big_number(value: str, *, key: str | None = None) -> ft.Text:
    return ft.Text(value, size=BIG, weight=ft.FontWeight.BOLD, key=key)


def action(
    label: str,
    on_tap: Callable[[], None],
    *,
    key: str,
    refusal: str | None = None,
    shell: Shell | None = None,
    primary: bool = False,
    expand: bool | int = False,
    describe: str | None = None,
    compact: bool = False,
) -> ft.Control:
    """A big button. When the rules refuse it right now it stays tappable but muted, and a
    tap explains why instead of recording anything. `describe` (what it does, in words) is
    its tooltip, which screen readers announce too. `compact` buttons (a count) are narrow
    enough for a row of eight on a phone, and still 48 px tall."""

    def tapped(_: ft.Event[Any]) -> None:
        if refusal is not None and shell is not None:
            shell.show_notice(refusal)
        else:
            on_tap()

    style = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=0 if compact else 12, vertical=8))
    button_type = ft.FilledButton if primary and refusal is None else ft.OutlinedButton
    button = button_type(
        content=label,
        on_click=tapped,
        key=key,
        height=BUTTON_HEIGHT,
        width=COMPACT_WIDTH if compact else None,
        style=style,
        expand=expand or None,  # an explicit expand=False breaks layout inside a wrapping Row
        opacity=0.5 if refusal is not None else 1.0,
        tooltip=refusal or describe,
    )
    return button


def event_button(
    shell: Shell,
    label: str,
    event: dict[str, Any],
    *,
    key: str,
    primary: bool = False,
    expand: bool | int = False,
    after: Callable[[], None] | None = None,
    compact: bool = False,
) -> ft.Control:
    """A button that records one event; the rules are asked first whether it is allowed,
    and the sentence it would log becomes its tooltip. `after` runs once it is recorded."""
    sentence, refusal = shell.preview(event)

    def record() -> None:
        if shell.apply(event) and after is not None:
            after()

    return action(
        label,
        record,
        key=key,
        refusal=refusal,
        describe=sentence,
        shell=shell,
        primary=primary,
        expand=expand,
        compact=compact,
    )


def top_bar(shell: Shell, title: str, subtitle: str | None = None) -> ft.Control:
    session = shell.session
    assert session is not None
    undo_label = f"Undo: {session.undo_sentence}" if session.undo_sentence else "Nothing to undo"
    redo_label = f"Redo: {session.redo_sentence}" if session.redo_sentence else "Nothing to redo"
    heading: list[ft.Control] = [text(title, 18, bold=True)]
    if subtitle:
        heading.append(text(subtitle, 13, key="subtitle"))
    return ft.Row(
        [
            ft.IconButton(ft.Icons.ARROW_BACK, tooltip="Back to all games", on_click=lambda _: shell.go_home(),
                          key="back"),
            ft.Column(heading, spacing=0, expand=True),
            ft.IconButton(ft.Icons.UNDO, tooltip=undo_label, on_click=lambda _: shell.undo(),
                          disabled=not session.can_undo, key="undo"),
            ft.IconButton(ft.Icons.REDO, tooltip=redo_label, on_click=lambda _: shell.redo(),
                          disabled=not session.can_redo, key="redo"),
            ft.IconButton(ft.Icons.MENU, tooltip="Session log", key="log", on_click=lambda _: toggle_log(shell)),
        ],
        spacing=0,
    )


def toggle_log(shell: Shell) -> None:
    if shell.ui.panel == "log":
        shell.close_panel()
    else:
        shell.open_panel("log")


def undo_strip(shell: Shell) -> ft.Control:
    """The last recorded act in words, so a mis-tap is seen and undone in one tap."""
    session = shell.session
    assert session is not None
    if session.undo_sentence is None:
        return text("Nothing recorded yet.", 13, colour=MUTED, key="last-act")
    return ft.Row(
        [
            text(f"Last: {session.undo_sentence}", 13, key="last-act"),
            ft.TextButton("Undo", on_click=lambda _: shell.undo(), key="undo-last"),
        ],
        alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        wrap=True,
    )


def notice(shell: Shell) -> ft.Control | None:
    if not shell.ui.notice:
        return None
    return ft.Container(
        ft.Row(
            [
                ft.Icon(ft.Icons.ERROR_OUTLINE if shell.ui.notice_is_error else ft.Icons.INFO_OUTLINE),
                ft.Text(shell.ui.notice, expand=True, key="notice"),
                ft.IconButton(ft.Icons.CLOSE, tooltip="Dismiss", on_click=lambda _: shell.clear_notice(),
                              key="notice-close"),
            ]
        ),
        bgcolor=ERROR_BG if shell.ui.notice_is_error else INFO_BG,
        border_radius=8,
        padding=ft.Padding.only(left=12, right=4, top=4, bottom=4),
    )


LOG_LINES = 100  # the newest lines shown at first; older ones on request


def log_panel(shell: Shell, context: Callable[[int], str] | None = None) -> ft.Control:
    """The session's events as sentences, newest first.

    One Text per line, and the newest `LOG_LINES` until asked for more: the open log is
    rebuilt, diffed and sent on every tap, and each control costs time there.
    """
    session = shell.session
    assert session is not None
    total = len(session.sentences)
    shown = total if shell.ui.draft.get("log_all") else min(total, LOG_LINES)
    rows: list[ft.Control] = []
    for number in range(total, total - shown, -1):
        where = f" · {context(number)}" if context else ""
        rows.append(ft.Text(f"{number}. {session.sentences[number - 1]}{where}", size=15, key=f"log-{number}"))
    if shown < total:
        rows.append(ft.TextButton(f"Show the {total - shown} older lines", key="log-older",
                                  on_click=lambda _: shell.set_draft(log_all=True)))
    if not rows:
        rows.append(text("Nothing recorded yet.", 15))
    return sheet(shell, "Session log", rows, key="log-panel")


def sheet(shell: Shell, title: str, body: list[ft.Control], *, key: str,
          footer: list[ft.Control] | None = None) -> ft.Control:
    header = ft.Row(
        [text(title, 18, bold=True, key="panel-title"),
         ft.IconButton(ft.Icons.CLOSE, tooltip="Close", on_click=lambda _: shell.close_panel(), key="panel-close")],
        alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
    )
    controls: list[ft.Control] = [header, *body]
    if footer:
        controls.append(ft.Row(footer, wrap=True))
    return ft.Container(
        ft.Column(controls, spacing=8),
        key=key,
        padding=12,
        border=ft.Border.all(2, ft.Colors.PRIMARY),
        border_radius=12,
    )


def stepper(shell: Shell, label: str, path: tuple[str, ...], default: int, *, key: str, low: int = 0,
            high: int = 99, steps: Sequence[int] = (1,)) -> ft.Control:
    """A number of the open sheet's draft with - and + buttons (and +N steps, e.g. +2 for a
    hard segment). A tap reads the live draft, so quick taps before a redraw all count."""
    value = int(shell.draft_get(path, default))

    def change(delta: int) -> None:
        current = int(shell.draft_get(path, default))
        shell.draft_set(path, max(low, min(high, current + delta)))

    buttons: list[ft.Control] = [
        ft.IconButton(ft.Icons.REMOVE, tooltip=f"{label} minus one", key=f"{key}-minus",
                      disabled=value <= low, on_click=lambda _: change(-1)),
        ft.Container(text(str(value), 24, bold=True, key=f"{key}-value"), width=44,
                     alignment=ft.Alignment.CENTER),
    ]
    for step in steps:
        buttons.append(
            ft.OutlinedButton(
                f"+{step}", key=f"{key}-plus{step}" if step != 1 else f"{key}-plus", disabled=value + step > high,
                on_click=lambda _, step=step: change(step), height=BUTTON_HEIGHT, tooltip=f"{label} plus {step}",
            )
        )
    return ft.Row([ft.Text(label, size=16, expand=True), *buttons], key=key)


def two_columns(left: list[ft.Control], right: list[ft.Control]) -> ft.Control:
    """Side by side in a wide window (desktop, tablet, landscape); stacked on a phone."""
    return ft.ResponsiveRow([
        ft.Column(left, col={"xs": 12, "md": 6}, spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        ft.Column(right, col={"xs": 12, "md": 6}, spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
    ], spacing=12, run_spacing=10)


def screen(header: list[ft.Control], body: list[ft.Control], footer: list[ft.Control] | None = None) -> ft.Control:
    """Header fixed on top, scrolling body, optional footer within thumb reach."""
    parts: list[ft.Control] = [*header, ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=10,
                                               horizontal_alignment=ft.CrossAxisAlignment.STRETCH)]
    if footer:
        parts.extend(footer)
    column = ft.Column(parts, expand=True, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    return ft.SafeArea(ft.Container(column, padding=8, expand=True), expand=True)


def present(*controls: ft.Control | None) -> list[ft.Control]:
    return [control for control in controls if control is not None]

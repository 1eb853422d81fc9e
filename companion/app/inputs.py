"""What a sheet's inputs are made of: chips of one-tap values, options, and typed numbers."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import widgets as w

if TYPE_CHECKING:
    from companion.app.view import View


def chips(
    view: View,
    values: Sequence[int],
    chosen: int | None,
    on_pick: Callable[[int], None],
    *,
    key: str,
    label: Callable[[int], str] = str,
    describe: Callable[[int], str] | None = None,
    suggested: int | None = None,
) -> ft.Control:
    """A wrapping row of one-tap values, 48 px square. The chosen one is filled, a suggestion
    has a thick outline; the screen also says both in words (e.g. "corn: at $4 (last paid)"),
    so neither is told by colour alone. (No tick or star: the bundled web font lacks them.)"""
    buttons = []
    for value in values:
        button = w.action(
            label(value),
            functools.partial(on_pick, value),
            key=f"{key}-{value}",
            compact=True,
            chosen=value == chosen,
            view=view,
            describe=describe(value) if describe else None,
        )
        if value == suggested and value != chosen and isinstance(button, ft.OutlinedButton) and button.style:
            button.style.side = ft.BorderSide(3, ft.Colors.PRIMARY)
        buttons.append(button)
    return ft.Row(buttons, wrap=True, spacing=w.CHIP_SPACING, run_spacing=w.CHIP_SPACING, key=f"{key}-chips")


def is_filled(button: ft.Control) -> bool:
    """Whether a button made here is drawn filled (the main action, or the chosen value)."""
    style = getattr(button, "style", None)
    return style is not None and style.bgcolor == ft.Colors.PRIMARY


def choice(
    label: str, chosen: bool, on_tap: Callable[[], None], *, key: str, expand: bool = False, view: View | None = None
) -> ft.Control:
    """One of a few options (a game, a target, a language): filled with a tick when chosen.
    `expand` shares a row's width among its options, so a tick or a label changing moves none."""
    return w.action(label, on_tap, key=key, chosen=chosen, expand=expand, view=view)


def number_field(
    view: View,
    label: str,
    path: tuple[str, ...],
    *,
    key: str,
    low: int,
    high: int,
    width: float = 96,
    on_number: Callable[[int], None] | None = None,
    spoken: str | None = None,
) -> ft.Control:
    """A number typed on the phone's number pad, for what the chips beside it do not reach.

    Each keystroke is kept and the sheet drawn again, so what a button beside it would
    record is always what the field shows. The field is drawn with exactly the text the
    browser sent, so the redraw changes nothing in it and never moves the cursor. A value
    out of `low`..`high` is not kept, and the field says which values it takes. `on_number`
    keeps a typed number some other way than at `path`."""
    typed_key = "/".join(path)
    raw = view.draft_get(("typed", typed_key), None)
    value = view.draft_get(path, None)
    shown = str(raw) if raw is not None else (str(value) if isinstance(value, int) else "")

    def typed(event: ft.Event[Any]) -> None:
        text = str(event.control.value or "")
        view.act.draft_set(("typed", typed_key), text, quiet=True)
        number = parse_number(text)
        if number is not None and low <= number <= high:
            if on_number is not None:
                on_number(number)
            else:
                view.act.draft_set(path, number, quiet=True)
        view.act.set_draft()

    number = parse_number(shown)
    wrong = shown.strip() not in ("", "-") and (number is None or not low <= number <= high)
    # A screen reader reads the field by `spoken` (what it is the number of: "Spaces, another
    # number"), where the eye has the heading beside it and reads "Other".
    return ft.TextField(
        label=ft.Text(label, semantics_label=spoken) if spoken else label,
        value=shown,
        key=key,
        width=width,
        dense=True,
        keyboard_type=ft.KeyboardType.NUMBER,
        input_filter=ft.InputFilter(regex_string=r"^-?[0-9]{0,4}$" if low < 0 else r"^[0-9]{0,4}$"),
        error=w.t(view, "ui.number.range", low=low, high=high) if wrong else None,
        on_change=typed,
    )


def pick_number(view: View, path: tuple[str, ...], value: int) -> None:
    """A chip tapped: its value, and the typed one beside it forgotten."""
    typed = view.ui.draft.get("typed")
    if isinstance(typed, dict):
        typed.pop("/".join(path), None)
    view.act.draft_set(path, value)


def parse_number(raw: str) -> int | None:
    text = raw.strip()
    if not text or text == "-":
        return None
    try:
        return int(text)
    except ValueError:
        return None


def count_picker(
    view: View,
    label: str,
    path: tuple[str, ...],
    values: Sequence[int],
    *,
    key: str,
    low: int,
    high: int,
    default: int | None = None,
    chip_label: Callable[[int], str] = str,
    describe: Callable[[int], str] | None = None,
    colour: str | None = None,
) -> ft.Control:
    """A number of the open sheet's draft: one tap on a chip for the usual values, or typed
    in the field beside the label for any other. The chips read the live draft."""
    chosen = view.draft_get(path, default)
    heading = ft.Row(
        [
            ft.Text(label, size=16, weight=ft.FontWeight.BOLD, color=colour, expand=True),
            number_field(
                view,
                w.t(view, "ui.number.other"),
                path,
                key=f"{key}-typed",
                low=low,
                high=high,
                spoken=w.t(view, "ui.number.other_for", what=label),
            ),
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    if describe is None:  # a chip reads "6"; a screen reader moving from chip to chip needs "Spaces: 6"
        describe = lambda value: w.t(view, "ui.number.chip", what=label, value=chip_label(value))  # noqa: E731
    picker = chips(
        view, values, chosen, functools.partial(pick_number, view, path), key=key, label=chip_label, describe=describe
    )
    return ft.Column([heading, picker], spacing=4, key=f"{key}-picker")

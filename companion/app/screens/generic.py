"""A plain screen for a game that has no screen of its own yet: standings, a button per kind
of event, log, undo. Each button opens a form built from the event kind's own description
(its fields: a player, a number, yes or no, one of a few choices, a few words, a number per
player), so a fourth game is played from the screen with its rules module alone."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import inputs, layout, sheets
from companion.app import widgets as w
from companion.app.screens.offer import GameScreen
from companion.app.ties import ordinal
from companion.rules.base import (
    BoolField,
    ChoiceField,
    EventKind,
    FieldCheck,
    IntField,
    PerPlayerField,
    PlayerField,
    Standing,
    TextField,
)
from companion.text.i18n import t
from companion.text.messages import term

if TYPE_CHECKING:
    from companion.app.view import View

CHIPS = 6  # numbers offered as one-tap chips from a field's lowest; any other is typed
NO_HIGH = 9999  # what a number field takes when its rules set no highest value


def status_line(state: Any, language: str = "en") -> str:
    return t("ui.in_progress", language)  # a game without a screen of its own has no words for its state yet


def build(view: View) -> ft.Control:
    session = view.session
    assert session is not None
    body: list[ft.Control] = [w.text(ranked(view, s), 18) for s in session.standings()]
    if not session.is_over:
        body.append(
            ft.Row(
                [
                    w.action(
                        session.game.event_label(kind).text(view.language),
                        functools.partial(
                            view.act.open_panel,
                            "event",
                            kind=kind,
                            values=defaults(session.game.events[kind], session.players),
                        ),
                        key=f"record-{kind}",
                        view=view,
                    )
                    for kind in session.game.events
                ],
                wrap=True,
                key="record-row",
            )
        )
    body.extend(layout.log_lines(view))
    header = [w.top_bar(view, session.game.home_title)]
    return layout.screen(view, header, body, [w.undo_strip(view)], key=f"game-{session.id}")


def ranked(view: View, standing: Standing) -> str:
    line = w.t(view, "ui.rank", ordinal=ordinal(standing.rank, view.language), player=standing.player)
    line = f"{line}: {standing.score}"
    return w.t(view, "ui.winner_mark", line=line) if standing.winner else line


def sheet(view: View) -> ft.DialogControl | None:
    if view.ui.panel == "log":
        return sheets.log_panel(view)
    if view.ui.panel == "event":
        return event_form(view)
    return None


def defaults(kind: EventKind[Any], players: tuple[str, ...]) -> dict[str, Any]:
    """What a form holds when it opens: the first player, the lowest number, no, the first choice."""
    values: dict[str, Any] = {}
    for name, field in kind.fields.items():
        if isinstance(field, PlayerField):
            values[name] = players[0]
        elif isinstance(field, IntField):
            values[name] = field.low
        elif isinstance(field, BoolField):
            values[name] = False
        elif isinstance(field, ChoiceField):
            values[name] = field.choices[0]
        elif isinstance(field, PerPlayerField):
            values[name] = {player: field.each.low for player in players}
        elif isinstance(field, TextField):
            values[name] = ""
    return values


def event_form(view: View) -> ft.DialogControl:
    session = view.session
    assert session is not None
    kind_name = str(view.ui.draft.get("kind", ""))
    kind = session.game.events.get(kind_name)
    values = view.ui.draft.get("values")
    if kind is None or not isinstance(values, dict):  # a draft no form of this game wrote: nothing to offer
        return sheets.sheet(view, w.t(view, "ui.generic.unknown"), [], key="event-panel")
    rows: list[ft.Control] = []
    for name, field in kind.fields.items():
        label = session.game.field_label(kind_name, name).text(view.language)
        rows.append(field_input(view, label, name, field, session.players))
    event = {
        "type": kind_name,
        **{name: value for name, value in values.items() if not (name in kind.optional and value in ("", None))},
    }
    title = session.game.event_label(kind_name).text(view.language)
    return sheets.sheet(
        view,
        title,
        rows,
        key="event-panel",
        footer=[w.event_button(view, w.t(view, "ui.generic.save"), event, key="event-save", primary=True)],
    )


def field_input(view: View, label: str, name: str, field: FieldCheck, players: tuple[str, ...]) -> ft.Control:
    path = ("values", name)
    key = f"field-{name}"
    if isinstance(field, PlayerField):
        return options(view, label, path, [(player, player) for player in players], key)
    if isinstance(field, IntField):
        return number(view, label, path, field, key)
    if isinstance(field, BoolField):
        return options(
            view, label, path, [(True, w.t(view, "ui.generic.yes")), (False, w.t(view, "ui.generic.no"))], key
        )
    if isinstance(field, ChoiceField):
        return options(
            view, label, path, [(choice, term(name, choice, view.language)) for choice in field.choices], key
        )
    if isinstance(field, PerPlayerField):
        return ft.Column(
            [
                w.text(label, 16, bold=True),
                *(number(view, player, (*path, player), field.each, f"{key}-{w.slug(player)}") for player in players),
            ],
            spacing=4,
            key=key,
        )
    if isinstance(field, TextField):
        # Each keystroke kept and the form drawn again (with exactly the text sent: the cursor
        # stays), so Record always says what the rules make of the words shown.
        return ft.TextField(
            label=label,
            value=str(view.draft_get(path, "")),
            max_length=field.high,
            key=key,
            on_change=lambda e: view.act.draft_set(path, e.control.value),
        )
    return w.text(label, 16, key=key)  # a kind of field forms do not know yet: the rules say what is missing


def options(view: View, label: str, path: tuple[str, ...], choices: list[tuple[Any, str]], key: str) -> ft.Control:
    chosen = view.draft_get(path, None)
    buttons = [
        inputs.choice(
            words,
            value == chosen,
            functools.partial(view.act.draft_set, path, value),
            key=f"{key}-{w.slug(str(value))}",
            view=view,
        )
        for value, words in choices
    ]
    return ft.Column([w.text(label, 16, bold=True), ft.Row(buttons, wrap=True)], spacing=4, key=key)


def number(view: View, label: str, path: tuple[str, ...], field: IntField, key: str) -> ft.Control:
    high = field.high if field.high is not None else NO_HIGH
    values = list(range(field.low, min(high, field.low + CHIPS - 1) + 1))
    return inputs.count_picker(view, label, path, values, key=key, low=field.low, high=high, default=field.low)


def result(view: View) -> ft.Control:
    """The standings, best first (a finished game's detail)."""
    assert view.session is not None
    return ft.Column(
        [w.text(ranked(view, s), 18, key=f"rank-{w.slug(s.player)}") for s in view.session.standings()],
        spacing=6,
        key="result",
    )


SCREEN = GameScreen(
    build=build,
    sheet=sheet,
    result=result,
)

"""TransAmerica: the 13-point countdown, round by round."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import inputs, layout, sheets
from companion.app import widgets as w
from companion.app.screens import transamerica_words  # noqa: F401  (registers the words shown here)
from companion.app.screens.offer import GameScreen
from companion.app.ties import ordinal
from companion.rules.transamerica import GAME, STARTING_POINTS, TransAmericaState, points_after
from companion.text.i18n import t

if TYPE_CHECKING:
    from companion.app.view import View

CHART_CAPTION = "ui.chart.caption.countdown"  # what its score chart counts
DANGER = 3  # points at or below which a player is close to ending the game


def subtitle(state: TransAmericaState, language: str = "en") -> str:
    if state.over:
        return t("ui.transamerica.game_over", language, count=len(state.rounds))
    return t("ui.transamerica.subtitle", language, number=state.round_number, player=state.starter)


def status_line(state: TransAmericaState, language: str = "en") -> str:
    return GAME.status_line(state).text(language)


def build(view: View) -> ft.Control:
    session = view.session
    assert session is not None
    state: TransAmericaState = session.state
    header = [w.top_bar(view, GAME.home_title, subtitle(state, view.language), rules="end" if state.over else "game")]
    context = log_context(view)
    if state.over:  # only the result: the ranking, best first, and why
        body: list[ft.Control] = [winners(view, state)]
        ended = w.present(w.play_again(view), w.details_button(view), w.undo_strip(view))
        return layout.screen(view, header, body, ended, key=f"game-{session.id}", beside=[], log=context)
    body = [countdown_row(view, state, player) for player in state.players]
    body.append(
        w.text(w.t(view, "ui.transamerica.starter", number=state.round_number, player=state.starter), 16, key="starter")
    )
    footer: list[ft.Control] = [
        w.action(
            w.t(view, "ui.transamerica.end_round", number=state.round_number),
            lambda: open_end_round(view, state),
            key="end-round",
            primary=True,
            view=view,
        ),
        w.undo_strip(view),
    ]
    beside = [round_table(view, state)]
    if state.rounds:
        beside.append(w.text(w.t(view, "ui.transamerica.amend_hint"), 13, colour=w.QUIET, key="amend-hint"))
    return layout.screen(view, header, body, footer, key=f"game-{session.id}", beside=beside, log=context)


def sheet(view: View) -> ft.DialogControl | None:
    session = view.session
    assert session is not None
    state: TransAmericaState = session.state
    if view.ui.panel == "log":
        return sheets.log_panel(view, log_context(view))
    if view.ui.panel == "end_round" and not state.over:
        return end_round_panel(view, state)
    if (
        view.ui.panel == "amend_round"
        and not state.over
        and 1 <= int(view.ui.draft.get("round", 0)) <= len(state.rounds)
    ):
        return end_round_panel(view, state, amending=int(view.ui.draft["round"]))
    return None


def round_of(state: TransAmericaState) -> int:
    return state.round_number


def log_context(view: View) -> Callable[[int], str]:
    """Line `number` of the log -> "round 3"."""
    return layout.round_context(view, round_of, "ui.transamerica.log_round")


def pips(points: int, colour: str) -> ft.Control:
    """The 13-point track: a filled pip per point left."""
    left = max(0, min(STARTING_POINTS, points))
    return ft.Row(
        [
            ft.Container(
                width=12,
                height=12,
                border_radius=6,
                bgcolor=colour if index < left else None,
                border=ft.Border.all(1.5, colour),
            )
            for index in range(STARTING_POINTS)
        ],
        spacing=3,
    )


def countdown_row(view: View, state: TransAmericaState, player: str) -> ft.Control:
    points = state.points_of(player)
    colour = w.player_colour(view, state.players, player)
    warning = points <= DANGER
    key = w.slug(player)
    # The number right after the track, not across the screen from the name in a wide window.
    return ft.Container(
        ft.Row(
            [
                ft.Column([w.text(player, 17, bold=True, colour=colour), pips(points, colour)], spacing=4),
                ft.Container(
                    w.big_number(str(points), key=f"points-{key}", view=view),
                    width=view.grown_less(64),
                    alignment=ft.Alignment.CENTER_RIGHT,
                ),
                w.text(w.t(view, "ui.transamerica.close_to_zero") if warning else "", 13, bold=True, key=f"warn-{key}"),
            ],
            spacing=12,
            wrap=view.text_scale >= 1.5,  # at a large text size the warning goes under the name, not off the screen
        ),
        padding=ft.Padding.symmetric(horizontal=8, vertical=4),
        border_radius=8,
        key=f"row-{key}",
        border=ft.Border.all(2, ft.Colors.ERROR) if warning else None,
    )


def round_table(view: View, state: TransAmericaState, *, left: bool = True) -> ft.Control:
    """Every round's losses by player, and (`left`) the points left, which the end screen
    already shows beside each name."""
    if not state.rounds:
        return w.text(w.t(view, "ui.transamerica.no_round"), 14, colour=w.QUIET)
    columns = (
        [ft.DataColumn(label=ft.Text(w.t(view, "ui.transamerica.player")))]
        + [
            ft.DataColumn(label=round_heading(view, state, number), numeric=True)
            for number in range(1, len(state.rounds) + 1)
        ]
        + ([ft.DataColumn(label=ft.Text(w.t(view, "ui.transamerica.left")), numeric=True)] if left else [])
    )
    rows = [
        ft.DataRow(
            [ft.DataCell(ft.Text(player))]
            + [ft.DataCell(ft.Text(f"-{losses[seat]}" if losses[seat] else "0")) for losses in state.rounds]
            + ([ft.DataCell(ft.Text(str(state.points[seat])))] if left else [])
        )
        for seat, player in enumerate(state.players)
    ]
    return ft.Row(
        [ft.DataTable(columns=columns, rows=rows, column_spacing=14, key="round-table")], scroll=ft.ScrollMode.AUTO
    )


def round_heading(view: View, state: TransAmericaState, number: int) -> ft.Control:
    """A round's column heading; while the game goes on, a tap opens that round's figures to correct."""
    label = w.t(view, "ui.transamerica.round_column", number=number)
    if state.over:
        return ft.Text(label)
    return ft.TextButton(
        label,
        key=f"amend-round-{number}",
        height=view.grown(w.TARGET),
        width=view.grown(w.TARGET),
        style=ft.ButtonStyle(padding=0),
        tooltip=w.t(view, "ui.transamerica.amend_tip", number=number),
        on_click=lambda _: open_amend_round(view, state, number),
    )


def open_end_round(view: View, state: TransAmericaState) -> None:
    view.act.open_panel("end_round", missing={player: 0 for player in state.players})


def open_amend_round(view: View, state: TransAmericaState, number: int) -> None:
    losses = state.rounds[number - 1]
    view.act.open_panel("amend_round", round=number, missing=dict(zip(state.players, losses, strict=True)))


MISSING_CHIPS = range(0, 13)  # one tap for any count a round leaves (a hard segment counts 2)
MAX_MISSING = 99  # typed, for a player very far off


def misses(view: View, player: str, count: int) -> str:
    return w.t(view, "ui.transamerica.misses", player=player, count=count)


def end_round_panel(view: View, state: TransAmericaState, amending: int | None = None) -> ft.DialogControl:
    """One row per player: a tap on how many segments they miss (0 stays 0, the default),
    so a round costs one tap per player who missed something, plus Save. `amending` a past
    round, the same sheet holds that round's figures and saves a correction in place."""
    missing = {player: int(view.draft_get(("missing", player), 0)) for player in state.players}
    number = amending or state.round_number
    start = points_after(state.players, state.rounds)[number - 1]

    rows: list[ft.Control] = [w.text(w.t(view, "ui.transamerica.missing_hint"), 14)]
    for player in state.players:
        key = w.slug(player)
        before = start[state.players.index(player)]
        after = before - missing[player]
        rows.append(
            ft.Row(
                [
                    w.text(player, 17, bold=True, colour=w.player_colour(view, state.players, player), expand=True),
                    w.text(
                        w.t(view, "ui.transamerica.before_after", before=before, after=after),
                        15,
                        bold=after <= 0,
                        key=f"after-{key}",
                    ),
                    inputs.number_field(
                        view,
                        w.t(view, "ui.number.other"),
                        ("missing", player),
                        key=f"missing-{key}-typed",
                        low=0,
                        high=MAX_MISSING,
                        spoken=w.t(
                            view, "ui.number.other_for", what=w.t(view, "ui.transamerica.missed_by", player=player)
                        ),
                    ),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
        rows.append(
            inputs.chips(
                view,
                MISSING_CHIPS,
                missing[player],
                functools.partial(inputs.pick_number, view, ("missing", player)),
                key=f"missing-{key}",
                describe=functools.partial(misses, view, player),
            )
        )
    ends = [
        player for player, left in zip(state.players, points_left(state, number, missing), strict=True) if left <= 0
    ]
    if ends:
        rows.append(
            w.text(w.t(view, "ui.transamerica.ends_game", players=w.names(view, ends)), 15, bold=True, key="ends-game")
        )
    if amending:
        event = {"type": "amend_round", "round": amending, "missing": missing}
        label, title = "ui.transamerica.save_amend", "ui.transamerica.amend_title"
    else:
        event = {"type": "end_round", "missing": missing}
        label, title = "ui.transamerica.save_round", "ui.transamerica.round_title"
    # A resting icon: a refusal swaps it for its mark and the button keeps its size.
    save = w.event_button(
        view, w.t(view, label, number=number), event, key="save-round", primary=True, icon=ft.Icons.CHECK
    )
    return sheets.sheet(
        view,
        w.t(view, title, number=number),
        rows,
        key="end-round-panel",
        footer=[w.rules_button(view, "end_round", key="rules-end-round"), save],
    )


def points_left(state: TransAmericaState, number: int, missing: dict[str, int]) -> tuple[int, ...]:
    """Everyone's points once round `number` is saved with these figures (a past round
    corrected reaches the points left through every round after it)."""
    losses = tuple(missing[player] for player in state.players)
    rounds = (*state.rounds[: number - 1], losses, *state.rounds[number:])
    return points_after(state.players, rounds)[-1]


def result(view: View) -> ft.Control:
    """The end screen again (a finished game's detail): the ranking and every round."""
    assert view.session is not None
    return winners(view, view.session.state)


def winners(view: View, state: TransAmericaState) -> ft.Control:
    """Each player's rank and points once, then the rounds that led there, in view on a phone."""
    assert view.session is not None
    standings = view.session.standings()
    names = [standing.player for standing in standings if standing.winner]
    best = standings[0].score
    headline = (
        w.t(view, "ui.transamerica.wins", player=names[0], count=best)
        if len(names) == 1
        else w.t(view, "ui.transamerica.share", players=w.names(view, names), count=best)
    )
    rows: list[ft.Control] = w.present(w.text(headline, 20, bold=True, key="winner"), w.stopped_line(view))
    for standing in standings:
        slug = w.slug(standing.player)
        rows.append(
            ft.Row(
                [
                    w.text(
                        w.t(view, "ui.rank", ordinal=ordinal(standing.rank, view.language), player=standing.player),
                        18,
                        bold=standing.winner,
                        colour=w.player_colour(view, state.players, standing.player),
                        key=f"rank-{slug}",
                    ),
                    w.big_number(str(standing.score), key=f"points-{slug}", view=view),
                ],
                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            )
        )
    for score in sorted({standing.score for standing in standings}, reverse=True):
        tied = [standing for standing in standings if standing.score == score]
        if len(tied) > 1:
            rows.append(
                w.text(
                    w.t(
                        view,
                        "ui.transamerica.tie",
                        players=w.names(view, [s.player for s in tied]),
                        score=w.t(view, "ui.points", count=score),
                        ordinal=ordinal(tied[0].rank, view.language),
                    ),
                    15,
                    key="tie-break",
                )
            )
    rows.append(round_table(view, state, left=False))
    rows.append(w.text(w.t(view, "ui.transamerica.about"), 13, colour=w.QUIET))
    rows.append(w.rules_button(view, "end", key="rules-end"))
    return ft.Column(rows, spacing=6, key="result")


def setup(view: View, draft: dict[str, Any]) -> list[ft.Control]:
    """New game: nothing to choose; what changes with 2 or 3 players is said."""
    return [w.text(w.t(view, "ui.new.transamerica.about"), 14)]


SCREEN = GameScreen(
    build=build,
    sheet=sheet,
    result=result,
    setup=setup,
    chart_caption=CHART_CAPTION,
)

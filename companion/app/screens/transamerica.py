"""TransAmerica: the 13-point countdown, round by round."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app import widgets as w
from companion.app.ties import ordinal
from companion.rules.transamerica import STARTING_POINTS, TransAmericaState, standings

if TYPE_CHECKING:
    from companion.app.shell import Shell

TITLE = "TransAmerica"
DANGER = 3  # points at or below which a player is close to ending the game


def subtitle(state: TransAmericaState) -> str:
    if state.over:
        return f"Game over after {len(state.rounds)} rounds"
    return f"Round {state.round_number} · {state.starter} starts"


def status_line(state: TransAmericaState) -> str:
    if state.over:
        final = standings(state)
        return w.result_line(final, f"with {w.plural(final[0].score, 'point')}")
    lowest = min(state.players, key=state.points_of)
    return f"Round {state.round_number} · lowest: {lowest} {state.points_of(lowest)}"


def build(shell: Shell) -> ft.Control:
    session = shell.session
    assert session is not None
    state: TransAmericaState = session.state
    left: list[ft.Control] = [winners(shell, state)] if state.over else []
    left.extend(countdown_row(state, player) for player in state.players)
    if not state.over:
        left.append(w.text(f"Round {state.round_number} starts with {state.starter}.", 16, key="starter"))
    right = [round_table(state)]
    if shell.ui.panel == "log":
        right.append(w.log_panel(shell, lambda number: f"round {session.state_at(number - 1).round_number}"))
    elif shell.ui.panel == "end_round" and not state.over:
        right.append(end_round_panel(shell, state))
    body: list[ft.Control] = [w.two_columns(left, right)]
    header = w.present(w.top_bar(shell, TITLE, subtitle(state)), w.notice(shell))
    footer: list[ft.Control] = [w.undo_strip(shell)]
    if not state.over and shell.ui.panel != "end_round":
        footer.append(w.action(f"End round {state.round_number}", lambda: open_end_round(shell, state),
                               key="end-round", primary=True))
    return w.screen(header, body, footer)


def pips(points: int, colour: str) -> ft.Control:
    """The 13-point track: a filled pip per point left."""
    left = max(0, min(STARTING_POINTS, points))
    return ft.Row(
        [ft.Container(width=12, height=12, border_radius=6, bgcolor=colour if index < left else None,
                      border=ft.Border.all(1.5, colour)) for index in range(STARTING_POINTS)],
        spacing=3,
    )


def countdown_row(state: TransAmericaState, player: str) -> ft.Control:
    points = state.points_of(player)
    colour = w.player_colour(state.players, player)
    warning = points <= DANGER
    key = w.slug(player)
    return ft.Container(
        ft.Row([
            ft.Column([w.text(player, 17, bold=True, colour=colour), pips(points, colour)], spacing=4, expand=True),
            w.text("close to 0!" if warning and not state.over else "", 13, bold=True, key=f"warn-{key}"),
            w.big_number(str(points), key=f"points-{key}"),
        ]),
        padding=ft.Padding.symmetric(horizontal=8, vertical=4), border_radius=8,
        bgcolor=ft.Colors.ERROR_CONTAINER if warning else None,
    )


def round_table(state: TransAmericaState) -> ft.Control:
    if not state.rounds:
        return w.text("No round played yet.", 14, colour=w.MUTED)
    columns = [ft.DataColumn(ft.Text("Player"))] + [
        ft.DataColumn(ft.Text(f"R{number}"), numeric=True) for number in range(1, len(state.rounds) + 1)
    ] + [ft.DataColumn(ft.Text("Left"), numeric=True)]
    rows = [
        ft.DataRow([ft.DataCell(ft.Text(player))]
                   + [ft.DataCell(ft.Text(f"-{losses[seat]}" if losses[seat] else "0")) for losses in state.rounds]
                   + [ft.DataCell(ft.Text(str(state.points[seat])))])
        for seat, player in enumerate(state.players)
    ]
    return ft.Row([ft.DataTable(columns=columns, rows=rows, column_spacing=14, key="round-table")],
                  scroll=ft.ScrollMode.AUTO)


def open_end_round(shell: Shell, state: TransAmericaState) -> None:
    shell.open_panel("end_round", missing={player: 0 for player in state.players})


def end_round_panel(shell: Shell, state: TransAmericaState) -> ft.Control:
    missing = {player: int(shell.draft_get(("missing", player), 0)) for player in state.players}

    rows: list[ft.Control] = [w.text("Segments each player still misses (hard ones count 2). "
                                     "Whoever connected all cities stays at 0.", 14)]
    for player in state.players:
        key = w.slug(player)
        before = state.points_of(player)
        after = before - missing[player]
        rows.append(w.stepper(shell, player, ("missing", player), 0, key=f"missing-{key}", high=99, steps=(1, 2)))
        rows.append(ft.Row([
            w.text(f"{before} to {after}", 15, bold=after <= 0, key=f"after-{key}"),
            ft.TextButton("Connected all (0)", key=f"finished-{key}",
                          on_click=lambda _, player=player: shell.draft_set(("missing", player), 0)),
        ], alignment=ft.MainAxisAlignment.SPACE_BETWEEN))
    event = {"type": "end_round", "missing": missing}
    ends = [player for player in state.players if state.points_of(player) - missing[player] <= 0]
    if ends:
        rows.append(w.text(f"This ends the game: {w.names(ends)} at 0 or below.", 15, bold=True, key="ends-game"))
    save = w.event_button(shell, f"Save round {state.round_number}", event, key="save-round", primary=True)
    return w.sheet(shell, f"End of round {state.round_number}", rows, key="end-round-panel", footer=[save])


def winners(shell: Shell, state: TransAmericaState) -> ft.Control:
    assert shell.session is not None
    standings = shell.session.standings()
    names = [standing.player for standing in standings if standing.winner]
    best = standings[0].score
    headline = (f"{names[0]} wins with {best} points" if len(names) == 1
                else f"{w.names(names)} share the victory with {best} points each")
    order = " · ".join(f"{ordinal(s.rank)} {s.player} {s.score}" for s in standings)
    return ft.Container(
        ft.Column([w.text(headline, 20, bold=True, key="winner"), w.text(order, 14, key="ranking")], spacing=4),
        bgcolor=ft.Colors.TERTIARY_CONTAINER, padding=12, border_radius=10,
    )

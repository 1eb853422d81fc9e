"""Home: games in progress first (one tap resumes), then finished ones, then New game."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import widgets as w
from companion.rules import GAMES

if TYPE_CHECKING:
    from companion.app.shell import Shell


FINISHED_SHOWN = 10  # each finished game's result line reads its file once; the rest wait for a tap


def ago(timestamp: float, now: float | None = None) -> str:
    seconds = max(0, (now or time.time()) - timestamp)
    if seconds < 60:
        return "just now"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"


def build(shell: Shell) -> ft.Control:
    listing = shell.store.sessions()
    in_progress = [summary for summary in listing if not summary.is_over]
    finished = [summary for summary in listing if summary.is_over]
    body: list[ft.Control] = []
    quarantined = getattr(listing, "quarantined", 0)
    if quarantined:
        files, verb = ("files", "were") if quarantined != 1 else ("file", "was")
        body.append(ft.Container(
            w.text(f"{quarantined} saved game {files} could not be read and {verb} set aside in the quarantine "
                   "folder; every other game is here.", 14, key="quarantined", colour=ft.Colors.ON_ERROR_CONTAINER),
            bgcolor=w.ERROR_BG, padding=10, border_radius=8))
    newer = len(getattr(listing, "newer", ()))
    if newer:
        body.append(ft.Container(
            w.text(f"{w.plural(newer, 'saved game')} {'was' if newer == 1 else 'were'} made by a newer version of "
                   f"Companion: update the app to see {'it' if newer == 1 else 'them'}. Nothing was changed.", 14,
                   key="newer", colour=ft.Colors.ON_SECONDARY_CONTAINER),
            bgcolor=w.INFO_BG, padding=10, border_radius=8))
    if in_progress:
        body.append(w.text("In progress", 15, bold=True))
        body.extend(session_card(shell, summary) for summary in in_progress)
    if finished:
        body.append(w.text("Finished", 15, bold=True))
        shown = finished if shell.ui.draft.get("all_finished") else finished[:FINISHED_SHOWN]
        body.extend(session_card(shell, summary) for summary in shown)
        if len(shown) < len(finished):
            body.append(ft.TextButton(f"Show {len(finished) - len(shown)} older finished games", key="more-finished",
                                      on_click=lambda _: shell.set_draft(all_finished=True)))
    if not listing:
        body.append(w.text("No games yet. Start one below; every tap is saved as you play.", 16, key="empty"))
    header: list[ft.Control] = [w.text("Companion", 24, bold=True)]
    footer = [w.action("+ New game", shell.go_new_game, key="new-game", primary=True)]
    return w.screen(shell, header, body, footer, key="home")


def title_of(summary: Any) -> str:
    game = GAMES.get(summary.game)
    short = {"heartland": "Heartland"}.get(summary.game, game.title if game else summary.game)
    return summary.title or f"{short} · {w.names(list(summary.players))}"


def session_card(shell: Shell, summary: Any) -> ft.Control:
    key = summary.id
    if shell.ui.draft.get("confirm_delete") == summary.id:
        return ft.Container(
            ft.Column([
                w.text(f"Delete {title_of(summary)}? This cannot be undone.", 15, bold=True,
                       colour=ft.Colors.ON_ERROR_CONTAINER),
                ft.Row([
                    # Destructive, so in the error colours and never the green of a main action.
                    ft.FilledButton("Delete", key=f"confirm-delete-{key}", height=w.BUTTON_HEIGHT,
                                    icon=ft.Icons.DELETE_OUTLINE,
                                    style=ft.ButtonStyle(bgcolor=ft.Colors.ERROR, color=ft.Colors.ON_ERROR),
                                    on_click=lambda _: shell.delete_session(summary.id)),
                    ft.OutlinedButton("Keep", key=f"keep-{key}", height=w.BUTTON_HEIGHT,
                                      on_click=lambda _: shell.set_draft(confirm_delete=None)),
                ]),
            ]),
            bgcolor=w.ERROR_BG, padding=10, border_radius=10, key=f"card-{key}",
        )
    line = shell.store.status_line(summary)
    # The card and its bin are separate targets, so a screen reader names the game first.
    card = ft.Container(
        ft.Column([
            w.text(title_of(summary), 17, bold=True),
            w.text(line, 14, key=f"status-{key}"),
            w.text(f"last played {ago(summary.updated)}", 12, colour=w.QUIET),
        ], spacing=2),
        expand=True, ink=True, border_radius=10, padding=10,
        on_click=lambda _: shell.open_session(summary.id), key=f"session-{key}",
    )
    delete = ft.Container(
        ft.Column([ft.Icon(ft.Icons.DELETE_OUTLINE), w.text("Delete", 12)], spacing=0, tight=True,
                  horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        width=64, height=64, alignment=ft.Alignment.CENTER, ink=True, border_radius=10,
        on_click=lambda _: shell.set_draft(confirm_delete=summary.id), key=f"delete-{key}",
        tooltip=f"Delete {title_of(summary)}",
    )
    return ft.Container(ft.Row([card, delete], spacing=0), border=ft.Border.all(1, ft.Colors.OUTLINE),
                        border_radius=10, key=f"card-{key}")

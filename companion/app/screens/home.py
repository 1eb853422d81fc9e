"""Home: games in progress first (one tap resumes), then finished ones, then New game.

The list is drawn a page at a time from the store's summaries (`AppData.home`), status
lines included, so drawing it costs the same at 10 games as at 10,000 and no game is read;
its cards sit in a `ListView`, which builds only those on screen. A search field, shown
once there are a few games, keeps the games whose name, players or title hold its words.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import widgets as w
from companion.app.screens import detail, stats
from companion.i18n import number, t
from companion.messages import join_names
from companion.rules import GAMES

if TYPE_CHECKING:
    from companion.app.shell import Shell


IN_PROGRESS_SHOWN = 10  # cards drawn at first in each part (a card is about 1 KB to send); "Show more" adds a page
FINISHED_SHOWN = 10
MORE = 10
SEARCH_FROM = 6  # games on the list before a search field is worth its room


def ago(timestamp: float, now: float | None = None, language: str = "en") -> str:
    seconds = max(0, (now or time.time()) - timestamp)
    for size, unit in ((86400, "days"), (3600, "hours"), (60, "minutes")):
        if seconds >= size:
            return t(f"ui.ago.{unit}", language, count=int(seconds // size))
    return t("ui.ago.now", language)


def build(shell: Shell) -> ft.Control:
    draft = shell.ui.draft
    search = str(draft.get("search", ""))
    home = shell.store.home(search, int(draft.get("in_progress_shown", IN_PROGRESS_SHOWN)),
                            int(draft.get("finished_shown", FINISHED_SHOWN)))
    listing = home.listing
    body: list[ft.Control] = [*notes(shell, listing)]
    if len(listing) >= SEARCH_FROM or search:
        body.append(ft.TextField(value=search, label=w.t(shell, "ui.home.search"), key="search", dense=True,
                                 prefix_icon=ft.Icons.SEARCH,
                                 on_change=lambda event: shell.set_draft(
                                     search=event.control.value or "", in_progress_shown=IN_PROGRESS_SHOWN,
                                     finished_shown=FINISHED_SHOWN)))
    if home.in_progress:
        body.append(w.text(w.t(shell, "ui.home.in_progress"), 15, bold=True))
        body.extend(session_card(shell, summary) for summary in home.in_progress)
        body.extend(more(shell, home.more_in_progress, "in_progress_shown", len(home.in_progress),
                         "more-in-progress", ("ui.home.more_in_progress", "ui.home.more_in_progress_of")))
    if home.finished:
        body.append(w.text(w.t(shell, "ui.home.finished"), 15, bold=True))
        body.extend(session_card(shell, summary) for summary in home.finished)
        body.extend(more(shell, home.more_finished, "finished_shown", len(home.finished), "more-finished",
                         ("ui.home.more_finished", "ui.home.more_finished_of")))
    if not listing:
        body.append(w.text(w.t(shell, "ui.home.empty"), 16, key="empty"))
    elif not (home.in_progress or home.finished):
        body.append(w.text(w.t(shell, "ui.home.no_match", search=search.strip()), 16, key="no-match"))
    header: list[ft.Control] = [ft.Row([
        ft.Container(w.text(w.t(shell, "ui.app.title"), 24, bold=True), expand=True),
        w.icon_button(ft.Icons.INSIGHTS, w.t(shell, "ui.stats"), lambda: stats.open_stats(shell), key="stats"),
        w.icon_button(ft.Icons.IMPORT_EXPORT, w.t(shell, "ui.archive"), lambda: stats.open_archive(shell),
                      key="archive"),
        w.icon_button(ft.Icons.SETTINGS_OUTLINED, w.t(shell, "ui.settings"), shell.go_settings, key="settings"),
    ])]
    footer = [w.action(w.t(shell, "ui.home.new_game"), shell.go_new_game, key="new-game", primary=True)]
    return lazy_screen(shell, header, body, footer)


def lazy_screen(shell: Shell, header: list[ft.Control], items: list[ft.Control],
                footer: list[ft.Control]) -> ft.Control:
    """`widgets.screen` with a `ListView` for a body: Flutter builds only the cards in view."""
    listed = ft.ListView(items, expand=True, spacing=10, key="body")
    return w.frame(shell, [*header, listed, w.notice_box(shell), *footer], "home")


def more(shell: Shell, left: int, setting: str, shown: int, key: str, words: tuple[str, str]) -> list[ft.Control]:
    """A "Show more" button under a part of the list, while some of it is not drawn: `words`
    says "Show 3 more" and "Show 10 of the 1,234 more"."""
    if not left:
        return []
    step = min(left, MORE)
    if step == left:
        label = w.t(shell, words[0], count=step)
    else:
        label = w.t(shell, words[1], count=step, total=number(left, shell.language))
    return [ft.TextButton(label, key=key, on_click=lambda _: shell.set_draft(**{setting: shown + step}))]


def notes(shell: Shell, listing: Any) -> list[ft.Control]:
    """What could not be listed: files set aside, games of a newer version."""
    found: list[ft.Control] = []
    quarantined = getattr(listing, "quarantined", 0)
    if quarantined:
        found.append(ft.Container(
            w.text(w.t(shell, "ui.home.quarantined", count=quarantined), 14, key="quarantined",
                   colour=ft.Colors.ON_ERROR_CONTAINER),
            bgcolor=w.ERROR_BG, padding=10, border_radius=8))
    found.extend(loss(shell, listing, note) for note in getattr(listing, "losses", ()))
    newer = len(getattr(listing, "newer", ()))
    if newer:
        found.append(ft.Container(
            w.text(w.t(shell, "ui.home.newer", count=newer), 14, key="newer", colour=ft.Colors.ON_SECONDARY_CONTAINER),
            bgcolor=w.INFO_BG, padding=10, border_radius=8))
    return found


def loss(shell: Shell, listing: Any, note: Any) -> ft.Control:
    """Which game lost what when its damaged file was opened, and where the file as it was is kept."""
    summary = next((summary for summary in listing if summary.id == note.session), None)
    game = title_of(summary, shell.language) if summary is not None else note.session
    kept = note.moved_to if shell.store.store.directory is None else str(shell.store.store.directory / note.moved_to)
    line = w.t(shell, f"ui.home.lost_{note.kind}", game=game, count=note.lost, path=kept)
    return ft.Container(w.text(line, 14, key=f"lost-{note.session}", colour=ft.Colors.ON_ERROR_CONTAINER),
                        bgcolor=w.ERROR_BG, padding=10, border_radius=8)


def title_of(summary: Any, language: str = "en") -> str:
    game = GAMES.get(summary.game)
    short = {"heartland": "Heartland"}.get(summary.game, game.title if game else summary.game)
    return summary.title or f"{short} · {join_names(list(summary.players), language)}"


def session_card(shell: Shell, summary: Any) -> ft.Control:
    """A game's card, drawn again only when what it shows changed (see `SessionCard`)."""
    confirming = shell.ui.draft.get("confirm_delete") == summary.id
    line = "" if confirming else shell.store.status_line(summary, shell.language)
    return _memo_card(shell, summary, shell.language, line, ago(summary.updated, language=shell.language),
                      confirming, key=f"memo-{summary.id}")


@ft.component
def SessionCard(shell: Shell, summary: Any, language: str, line: str, when: str, confirming: bool) -> ft.Control:
    """A card is a memoized component of everything it shows: a tap on Home (show more, a
    keystroke in the search, the bin) redraws and diffs only the cards that changed, not
    every card on the list."""
    return card_controls(shell, summary, language, line, when, confirming)


_memo_card = ft.memo(SessionCard)


def card_controls(shell: Shell, summary: Any, language: str, line: str, when: str, confirming: bool) -> ft.Control:
    key = summary.id
    if confirming:
        return ft.Container(
            ft.Column([
                w.text(w.t(shell, "ui.home.delete.confirm", title=title_of(summary, shell.language)), 15, bold=True,
                       colour=ft.Colors.ON_ERROR_CONTAINER),
                ft.Row([
                    # Destructive, so in the error colours and never the green of a main action.
                    ft.FilledButton(w.t(shell, "ui.home.delete"), key=f"confirm-delete-{key}", height=w.BUTTON_HEIGHT,
                                    icon=ft.Icons.DELETE_OUTLINE,
                                    style=ft.ButtonStyle(bgcolor=ft.Colors.ERROR, color=ft.Colors.ON_ERROR),
                                    on_click=lambda _: shell.delete_session(summary.id)),
                    ft.OutlinedButton(w.t(shell, "ui.home.keep"), key=f"keep-{key}", height=w.BUTTON_HEIGHT,
                                      on_click=lambda _: shell.set_draft(confirm_delete=None)),
                ]),
            ]),
            bgcolor=w.ERROR_BG, padding=10, border_radius=10, key=f"card-{key}",
        )
    # The card and its bin are separate targets, so a screen reader names the game first.
    # A list tile: a keystroke in the search replaces up to 20 cards and Flet's cost is per
    # control and field, about half that of a container, row and columns drawing the same.
    return ft.ListTile(
        title=w.text(title_of(summary, language), 17, bold=True),
        subtitle=ft.Column([
            w.text(line, 14, key=f"status-{key}"),
            w.text(w.t(shell, "ui.home.last_played", ago=when), 12, colour=w.QUIET),
        ], spacing=2, tight=True),
        # The bin's words name the game for a screen reader (a tooltip's would be read as the card's).
        trailing=ft.TextButton(
            content=ft.Text(w.t(shell, "ui.home.delete"),
                            semantics_label=w.t(shell, "ui.home.delete.tip", title=title_of(summary, language))),
            icon=ft.Icons.DELETE_OUTLINE, height=w.BUTTON_HEIGHT, key=f"delete-{key}",
            style=ft.ButtonStyle(color=w.QUIET),  # not the green of a main action
            on_click=lambda _: shell.set_draft(confirm_delete=summary.id)),
        # A finished game opens on its result, chart and log (read, not opened for play).
        on_click=lambda _: detail.open_detail(shell, summary.id) if summary.is_over else shell.open_session(summary.id),
        shape=ft.RoundedRectangleBorder(radius=10, side=ft.BorderSide(1, ft.Colors.OUTLINE)),
        content_padding=ft.Padding.only(left=10, right=4), key=f"session-{key}",
    )

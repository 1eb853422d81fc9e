"""Home: games in progress first (one tap resumes), then finished ones, then New game.

The list is drawn a page at a time from the store's summaries (`AppData.home`), status
lines included, so drawing it costs the same at 10 games as at 10,000 and no game is read;
its cards sit in a `ListView`, which builds only those on screen. A search field, shown
once there are a few games, keeps the games whose name, players or title hold its words.
"""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.aftergame import stats as stats_of
from companion.app import dates, layout, wide
from companion.app import widgets as w
from companion.app.screens import archive_sheet, stats
from companion.rules import GAMES
from companion.text.i18n import number, t
from companion.text.messages import SOURCE_LANGUAGE, join_names, register

if TYPE_CHECKING:
    from companion.app.view import View


IN_PROGRESS_SHOWN = 10  # cards drawn at first in each part (a card is about 1 KB to send); "Show more" adds a page
FINISHED_SHOWN = 10
MORE = 10
SEARCH_FROM = 6  # games on the list before a search field is worth its room

register(SOURCE_LANGUAGE, {"ui.home.stopped": "Stopped early · {line}"})


def ago(timestamp: float, now: float | None = None, language: str = "en") -> str:
    seconds = max(0, (now or time.time()) - timestamp)
    for size, unit in ((86400, "days"), (3600, "hours"), (60, "minutes")):
        if seconds >= size:
            return t(f"ui.ago.{unit}", language, count=int(seconds // size))
    return t("ui.ago.now", language)


def build(view: View) -> ft.Control:
    draft = view.ui.draft
    search = str(draft.get("search", ""))
    home = view.data.home(
        search, int(draft.get("in_progress_shown", IN_PROGRESS_SHOWN)), int(draft.get("finished_shown", FINISHED_SHOWN))
    )
    listing = home.listing
    body: list[ft.Control] = [*notes(view, listing)]
    if len(listing) >= SEARCH_FROM or search:
        body.append(
            ft.TextField(
                value=search,
                label=w.t(view, "ui.home.search"),
                key="search",
                dense=True,
                prefix_icon=ft.Icons.SEARCH,
                on_change=lambda event: view.act.set_draft(
                    search=event.control.value or "", in_progress_shown=IN_PROGRESS_SHOWN, finished_shown=FINISHED_SHOWN
                ),
            )
        )
    going: list[ft.Control] = []
    if home.in_progress:
        going.append(w.text(w.t(view, "ui.home.in_progress"), 15, bold=True))
        going.extend(session_card(view, summary) for summary in home.in_progress)
        going.extend(
            more(
                view,
                home.more_in_progress,
                "in_progress_shown",
                len(home.in_progress),
                "more-in-progress",
                ("ui.home.more_in_progress", "ui.home.more_in_progress_of"),
            )
        )
    done: list[ft.Control] = []
    if home.finished:
        done.append(w.text(w.t(view, "ui.home.finished"), 15, bold=True))
        done.extend(session_card(view, summary) for summary in home.finished)
        done.extend(
            more(
                view,
                home.more_finished,
                "finished_shown",
                len(home.finished),
                "more-finished",
                ("ui.home.more_finished", "ui.home.more_finished_of"),
            )
        )
    tail: list[ft.Control] = []
    if not listing:
        tail.append(w.text(w.t(view, "ui.home.empty"), 16, key="empty"))
    elif not (home.in_progress or home.finished):
        tail.append(w.text(w.t(view, "ui.home.no_match", search=search.strip()), 16, key="no-match"))
    header: list[ft.Control] = [
        ft.Row(
            [
                # The app's name grows less than the text it heads: at 200 % it broke as "Companio / n".
                ft.Container(
                    w.text(w.t(view, "ui.app.title"), round(24 / view.text_scale**0.5), bold=True), expand=True
                ),
                w.icon_button(
                    ft.Icons.INSIGHTS, w.t(view, "ui.stats"), lambda: stats.open_stats(view.act), key="stats"
                ),
                w.icon_button(
                    ft.Icons.IMPORT_EXPORT,
                    w.t(view, "ui.archive"),
                    lambda: view.act.open_panel("archive"),
                    key="archive",
                ),
                w.icon_button(
                    ft.Icons.SETTINGS_OUTLINED, w.t(view, "ui.settings"), view.act.go_settings, key="settings"
                ),
            ]
        )
    ]
    footer = [w.action(w.t(view, "ui.home.new_game"), view.act.go_new_game, key="new-game", primary=True, view=view)]
    if w.is_wide(view) and listing:
        # Games in progress beside finished ones, each list as tall as the window. Each keeps
        # its side and its heading when it is empty (a search left none of it), so a keystroke
        # in the search above never moves a list or the field.
        columns = [
            wide.column(part or [w.text(w.t(view, heading), 15, bold=True)], key=key, listed=True)
            for part, heading, key in (
                (going, "ui.home.in_progress", "home-in-progress"),
                (done, "ui.home.finished", "home-finished"),
            )
        ]
        return wide.screen(view, header, columns, footer, key="home", top=[*body, *tail])
    return lazy_screen(view, header, [*body, *going, *done, *tail], footer)


def lazy_screen(view: View, header: list[ft.Control], items: list[ft.Control], footer: list[ft.Control]) -> ft.Control:
    """`layout.screen` with a `ListView` for a body: Flutter builds only the cards in view."""
    listed = ft.ListView(items, expand=True, spacing=10, key="body")
    return layout.frame(view, [*header, listed, w.notice_box(view), *footer], "home")


def more(view: View, left: int, setting: str, shown: int, key: str, words: tuple[str, str]) -> list[ft.Control]:
    """A "Show more" button under a part of the list, while some of it is not drawn: `words`
    says "Show 3 more" and "Show 10 of the 1,234 more"."""
    if not left:
        return []
    step = min(left, MORE)
    if step == left:
        label = w.t(view, words[0], count=step)
    else:
        label = w.t(view, words[1], count=step, total=number(left, view.language))
    return [ft.TextButton(label, key=key, on_click=lambda _: view.act.draft_set((setting,), shown + step))]


def notes(view: View, listing: Any) -> list[ft.Control]:
    """What could not be listed or kept: files set aside, the day's backup, games of a newer version."""
    found: list[ft.Control] = []
    quarantined = getattr(listing, "quarantined", 0)
    if quarantined:
        found.append(
            ft.Container(
                w.text(
                    w.t(view, "ui.home.quarantined", count=quarantined),
                    14,
                    key="quarantined",
                    colour=ft.Colors.ON_ERROR_CONTAINER,
                ),
                bgcolor=w.ERROR_BG,
                padding=10,
                border_radius=8,
            )
        )
    found.extend(loss(view, listing, note) for note in getattr(listing, "losses", ()))
    found.extend(side_loss(view, note) for note in getattr(listing, "side_losses", ()))
    failure = view.data.backup_failure
    if failure is not None:  # the day's backup: said, never in the way
        found.append(
            ft.Container(
                w.text(failure.text(view.language), 14, key="backup-failed", colour=ft.Colors.ON_SECONDARY_CONTAINER),
                bgcolor=w.INFO_BG,
                padding=10,
                border_radius=8,
            )
        )
    newer = len(getattr(listing, "newer", ()))
    if newer:
        found.append(
            ft.Container(
                w.text(
                    w.t(view, "ui.home.newer", count=newer), 14, key="newer", colour=ft.Colors.ON_SECONDARY_CONTAINER
                ),
                bgcolor=w.INFO_BG,
                padding=10,
                border_radius=8,
            )
        )
    return found


def loss(view: View, listing: Any, note: Any) -> ft.Control:
    """Which game lost what when its damaged file was opened, and where the file as it was is kept."""
    summary = next((summary for summary in listing if summary.id == note.session), None)
    game = title_of(summary, view.language) if summary is not None else note.session
    kept = note.moved_to if view.data.store.directory is None else str(view.data.store.directory / note.moved_to)
    line = w.t(view, f"ui.home.lost_{note.kind}", game=game, count=note.lost, path=kept)
    return ft.Container(
        w.text(line, 14, key=f"lost-{note.session}", colour=ft.Colors.ON_ERROR_CONTAINER),
        bgcolor=w.ERROR_BG,
        padding=10,
        border_radius=8,
    )


def side_loss(view: View, note: Any) -> ft.Control:
    """Which side file read damaged, what statistics lost with it, and where the file as it was is kept."""
    label = archive_sheet.SIDE_FILES.get(note.file, "players")
    kept = note.moved_to if view.data.store.directory is None else str(view.data.store.directory / note.moved_to)
    line = w.t(view, f"ui.home.side.{label}.{note.kind}", count=note.lost, path=kept)
    return ft.Container(
        w.text(line, 14, key=f"side-lost-{label}", colour=ft.Colors.ON_ERROR_CONTAINER),
        bgcolor=w.ERROR_BG,
        padding=10,
        border_radius=8,
    )


def title_of(summary: Any, language: str = "en") -> str:
    game = GAMES.get(summary.game)
    # The name its screens show ("Heartland"; the game's short title, else its published one).
    short = game.home_title if game else summary.game
    return summary.title or f"{short} · {join_names(list(summary.players), language)}"


def session_card(view: View, summary: Any) -> ft.Control:
    """A game's card, drawn again only when what it shows changed (see `SessionCard`)."""
    confirming = view.ui.draft.get("confirm_delete") == summary.id
    line = "" if confirming else view.data.status_line(summary, view.language)
    if line and stats_of.is_stopped(summary):  # its standings are as they stood: not a result
        line = w.t(view, "ui.home.stopped", line=line)
    when = last_played(summary.updated, view.language, ago(summary.updated, language=view.language))
    card: ft.Control = _memo_card(view, summary, view.language, line, when, confirming, key=f"memo-{summary.id}")
    return card


@functools.lru_cache(maxsize=1024)
def last_played(updated: float, language: str, ago_words: str) -> str:
    """A card's "last played" line, kept: every redraw of Home asks it of each card shown,
    and its date took three of the four sentences a card's words cost."""
    return t("ui.home.last_played", language, date=dates.day(updated, language), ago=ago_words)


@ft.component
def SessionCard(view: View, summary: Any, language: str, line: str, when: str, confirming: bool) -> ft.Control:
    """A card is a memoized component of everything it shows: a tap on Home (show more, a
    keystroke in the search, the bin) redraws and diffs only the cards that changed, not
    every card on the list."""
    return card_controls(view, summary, language, line, when, confirming)


_memo_card = ft.memo(SessionCard)  # type: ignore[no-untyped-call]  # Flet leaves memo untyped


def card_controls(view: View, summary: Any, language: str, line: str, when: str, confirming: bool) -> ft.Control:
    key = summary.id
    if confirming:
        return ft.Container(
            ft.Column(
                [
                    w.text(
                        w.t(view, "ui.home.delete.confirm", title=title_of(summary, view.language)),
                        15,
                        bold=True,
                        colour=ft.Colors.ON_ERROR_CONTAINER,
                    ),
                    ft.Row(
                        [
                            # Destructive, so in the error colours and never the green of a main action.
                            ft.FilledButton(
                                w.t(view, "ui.home.delete"),
                                key=f"confirm-delete-{key}",
                                height=view.grown(w.BUTTON_HEIGHT),
                                icon=ft.Icons.DELETE_OUTLINE,
                                style=ft.ButtonStyle(bgcolor=ft.Colors.ERROR, color=ft.Colors.ON_ERROR),
                                on_click=lambda _: view.act.delete_session(summary.id),
                            ),
                            ft.OutlinedButton(
                                w.t(view, "ui.home.keep"),
                                key=f"keep-{key}",
                                height=view.grown(w.BUTTON_HEIGHT),
                                on_click=lambda _: view.act.set_draft(confirm_delete=None),
                            ),
                        ]
                    ),
                ]
            ),
            bgcolor=w.ERROR_BG,
            padding=10,
            border_radius=10,
            key=f"card-{key}",
        )
    # The card and its bin are separate targets, so a screen reader names the game first.
    # A list tile: a keystroke in the search replaces up to 20 cards and Flet's cost is per
    # control and field, about half that of a container, row and columns drawing the same.
    return ft.ListTile(
        title=w.text(title_of(summary, language), 17, bold=True),
        subtitle=ft.Column(
            [
                w.text(line, 14, key=f"status-{key}"),
                w.text(when, 12, colour=w.QUIET, key=f"when-{key}"),
            ],
            spacing=2,
            tight=True,
        ),
        # The bin's words name the game for a screen reader (a tooltip's would be read as the card's).
        trailing=ft.TextButton(
            content=ft.Text(
                w.t(view, "ui.home.delete"),
                semantics_label=w.t(view, "ui.home.delete.tip", title=title_of(summary, language)),
            ),
            icon=ft.Icons.DELETE_OUTLINE,
            height=view.grown(w.BUTTON_HEIGHT),
            key=f"delete-{key}",
            style=ft.ButtonStyle(color=w.QUIET),  # not the green of a main action
            on_click=lambda _: view.act.set_draft(confirm_delete=summary.id),
        ),
        # A finished game opens on its result, chart and log (read, not opened for play).
        on_click=lambda _: (
            view.act.after.open_detail(summary.id) if summary.is_over else view.act.open_session(summary.id)
        ),
        shape=ft.RoundedRectangleBorder(radius=10, side=ft.BorderSide(1, ft.Colors.OUTLINE)),
        content_padding=ft.Padding.only(left=10, right=4),
        key=f"session-{key}",
    )

"""A finished game, looked back on: its end screen again, its score over the game as a
chart, the whole log in sentences, and "Send to BG Stats".

The game is read (`Store.peek`, by `AfterGame.open_detail`), never opened: looking at last
week's game takes no lock, so it never keeps another window from playing it, and nothing
here can change it. Its end screen is the game screen's own, drawn from a view in which
that game is the session. The log sits in a `ListView`, which builds only the lines in view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.aftergame import stats
from companion.app import dates, layout, wide
from companion.app import widgets as w
from companion.app.intents import REOPEN, Intents
from companion.app.screens import home, rules
from companion.app.screens.registry import game_screen
from companion.session import Session
from companion.text.messages import SOURCE_LANGUAGE, register

if TYPE_CHECKING:
    from companion.app.view import View
    from companion.store import SessionSummary  # what statistics count a game by


def reopen(act: Intents, place: dict[str, Any]) -> bool:
    """After a restart: the game last looked back on, while it is still there."""
    session_id = place.get("session")
    if not isinstance(session_id, str) or not act.data.exists(session_id):
        return False
    act.after.open_detail(session_id)
    return True


REOPEN["detail"] = reopen
COUNTING_HEIGHT = 22 + 4 + w.TARGET  # its line and its button, whatever they say

register(
    SOURCE_LANGUAGE,
    {
        "ui.detail.when": "{date} · started {at_time} · {duration}",
        "ui.detail.when.untimed": "{date} · started {at_time}",
        "ui.detail.first": "First player: {player}",
        "ui.detail.variants": "Variants: {variants}",
        "ui.detail.variants.none": "Variants: none",
        "ui.detail.counted": "Counted in statistics",
        "ui.detail.left_out": "Left out of statistics",
        "ui.detail.stopped_out": "Stopped early: left out of statistics",
        "ui.detail.stopped_in": "Stopped early, counted in statistics",
        "ui.detail.leave_out": "Leave out of statistics",
        "ui.detail.leave_out.tip": "Its result no longer counts in wins, streaks and scores; you can count it again",
        "ui.detail.count": "Count in statistics",
        "ui.detail.count.tip": "Its result counts in wins, streaks and scores again",
        "ui.detail.now_left_out": "This game is left out of statistics. Count it again with the same button.",
        "ui.detail.now_counted": "This game counts in statistics again.",
    },
)


def shown_session(view: View) -> tuple[str, Session | None, str | None]:
    return view.state.reading or ("", None, view.t("ui.closed"))


def build(view: View) -> ft.Control:
    session_id, session, problem = shown_session(view)
    back = w.icon_button(ft.Icons.ARROW_BACK, w.t(view, "ui.back_home"), view.act.go_home, key="back")
    header: list[ft.Control]
    if session is None:
        header = [ft.Row([back, w.text(w.t(view, "ui.detail.title"), 20, bold=True)])]
        return layout.screen(view, header, [w.text(problem or "", 16, key="detail-problem")], key="detail-screen")
    summary = next((s for s in view.data.finished() if s.id == session_id), None)
    title = home.title_of(summary, view.language) if summary is not None else session.game.title
    header = [
        ft.Row(
            [
                back,
                ft.Container(
                    ft.Text(title, size=18, weight=ft.FontWeight.BOLD, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS),
                    expand=True,
                ),
            ],
            spacing=0,
        )
    ]
    reading = view.reading(session)
    about = [*facts(view, summary, session), result(reading)]
    drawn = chart(reading, session, session.game.id)
    log = [w.text(w.t(view, "ui.log"), 17, bold=True, key="detail-log-title"), *log_lines(view, session)]
    if w.is_wide(view):
        # The result, the chart (with what to do next under it) and the log side by side.
        return wide.screen(
            view,
            header,
            [
                wide.column(about, key="body"),
                wide.column([drawn, actions(view, session_id)], key="detail-chart-column"),
                wide.column(log, key="detail-log", listed=True),
            ],
            key="detail-screen",
        )
    return home.lazy_screen(view, header, [*about, drawn, actions(view, session_id), *log], [])


def facts(view: View, summary: SessionSummary | None, session: Session) -> list[ft.Control]:
    """When it was played and for how long, who began, the variants, and whether statistics count it."""
    found: list[ft.Control] = []
    if summary is not None:
        started = stats.started_at(summary)
        took = stats.duration_of(summary)
        when = {"date": dates.day(started, view.language), "at_time": dates.at_time_of_day(started, view.language)}
        line = (
            w.t(view, "ui.detail.when", **when, duration=dates.duration(took, view.language))
            if took is not None
            else w.t(view, "ui.detail.when.untimed", **when)
        )
        found.append(w.text(line, 15, key="detail-when"))
    found.append(w.text(w.t(view, "ui.detail.first", player=stats.first_player(session)), 15, key="detail-first"))
    chosen = variants(view, session)
    found.append(
        w.text(
            w.t(view, "ui.detail.variants", variants=" · ".join(chosen))
            if chosen
            else w.t(view, "ui.detail.variants.none"),
            15,
            key="detail-variants",
        )
    )
    if summary is not None and summary.result is not None:
        found.append(counting(view, summary))
    return found


def variants(view: View, session: Session) -> list[str]:
    """The options the game was set up with, as its screen tells them (`describe_options`); none else."""
    describe = game_screen(session.game.id).describe_options
    return describe(view, session) if describe is not None else []


def counting(view: View, summary: SessionSummary) -> ft.Control:
    """Whether statistics count the game, and the button that changes it (the same button takes it back).

    One row of one height whatever it says, so nothing below moves when it is tapped."""
    counted = stats.is_counted(summary, view.data.counted())
    stopped = stats.is_stopped(summary)
    if stopped:
        said = "ui.detail.stopped_in" if counted else "ui.detail.stopped_out"
    else:
        said = "ui.detail.counted" if counted else "ui.detail.left_out"
    verb = "leave_out" if counted else "count"
    # As wide as the screen whatever its words, so the button stays where the finger was.
    button = ft.OutlinedButton(
        w.t(view, f"ui.detail.{verb}"),
        key="detail-count",
        height=view.grown(w.TARGET),
        expand=True,
        icon=ft.Icons.REMOVE_CIRCLE_OUTLINE if counted else ft.Icons.ADD_CIRCLE_OUTLINE,
        tooltip=w.t(view, f"ui.detail.{verb}.tip"),
        on_click=lambda _: view.act.after.count_in_statistics(summary.id, not counted),
    )
    line = ft.Text(
        w.t(view, said), size=14, color=w.QUIET, key="detail-counted", max_lines=1, overflow=ft.TextOverflow.ELLIPSIS
    )
    return ft.Container(
        ft.Column([line, ft.Row([button])], spacing=4), height=view.grown(COUNTING_HEIGHT), key="detail-counting"
    )


def result(reading: View) -> ft.Control:
    """The end screen the table saw: the ranking, and why a tie went the way it did."""
    assert reading.session is not None
    return game_screen(reading.session.game.id).result(reading)


def chart(view: View, session: Session, game: str) -> ft.Control:
    series = view.data.series_of(session)  # the game read when the detail opened: nothing read from disk here
    # Imported on the first chart drawn: flet_charts is a tenth of a second of every start otherwise.
    from companion.app import charts

    return charts.score_chart(view, series, game_screen(game).chart_caption or charts.CAPTION)


def actions(view: View, session_id: str) -> ft.Control:
    """Send the play to BG Stats; open the game itself (to undo its last act or play again)."""
    send = ft.OutlinedButton(
        w.t(view, "ui.detail.bgstats"),
        icon=ft.Icons.OPEN_IN_NEW,
        key="bgstats",
        height=view.grown(w.TARGET),
        tooltip=w.t(view, "ui.detail.bgstats.tip"),
        on_click=lambda _: view.act.page.run_task(view.act.after.send_to_bgstats, session_id),
    )
    reopen = ft.OutlinedButton(
        w.t(view, "ui.detail.open_game"),
        icon=ft.Icons.PLAY_ARROW,
        key="open-game",
        height=view.grown(w.TARGET),
        tooltip=w.t(view, "ui.detail.open_game.tip"),
        on_click=lambda _: view.act.open_session(session_id),
    )
    return ft.Row([send, reopen], wrap=True, spacing=8, run_spacing=8, key="detail-actions")


def log_lines(view: View, session: Session) -> list[ft.Control]:
    """Every recorded act as a sentence, in the order it happened."""
    if not session.cursor:
        return [w.text(w.t(view, "ui.log.nothing"), 15)]
    return [
        ft.Text(f"{number}. {session.sentence(number).text(view.language)}", size=15, key=f"detail-log-{number}")
        for number in range(1, session.cursor + 1)
    ]


def sheet(view: View) -> ft.DialogControl | None:
    """The rules reference, opened from the end screen's Rules button."""
    _, session, _ = shown_session(view)
    if session is None or view.ui.panel != "rules":
        return None
    return rules.sheet(view.reading(session))

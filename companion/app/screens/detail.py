"""A finished game, looked back on: its end screen again, its score over the game as a
chart, the whole log in sentences, and "Send to BG Stats".

The game is read (`Store.peek`), never opened: looking at last week's game takes no lock,
so it never keeps another window from playing it, and nothing here can change it. Its
end screen is the game screen's own, drawn through `Reading`, a view of the shell in which
that game is the session. The log sits in a `ListView`, which builds only the lines in view.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import widgets as w
from companion.app.screens import great_plains, heartland, home, rules, transamerica
from companion.app.shell import REOPEN, UiState
from companion.app.ties import ordinal
from companion.session import Session
from companion.store import StoreError

if TYPE_CHECKING:
    from companion.app.shell import Shell

# The game each page shows, read once when it is opened (a Session per page, dropped with it).
_shown: weakref.WeakKeyDictionary[Any, tuple[str, Session | None, str | None]] = weakref.WeakKeyDictionary()


class Reading:
    """The shell as an end screen sees it: the finished game read from disk is the session."""

    def __init__(self, shell: Shell, session: Session) -> None:
        self._shell = shell
        self.session = session

    def __getattr__(self, name: str) -> Any:
        return getattr(self._shell, name)


def open_detail(shell: Shell, session_id: str) -> None:
    """Show a finished game without opening it for play."""
    if shell.session is not None:
        shell.go_home()  # an end screen left for its detail lets its game go, as Back does
    try:
        session: Session | None = shell.store.peek(session_id)
        problem = None
    except StoreError as error:  # damaged, gone, or of a newer version: said in words
        session, problem = None, shell.say(error)
    _shown[shell] = (session_id, session, problem)
    shell.ui = UiState(screen="detail", where={"session": session_id})
    shell.remember()
    shell.render()


def reopen(shell: Shell, place: dict[str, Any]) -> bool:
    """After a restart: the game last looked back on, while it is still there."""
    session_id = place.get("session")
    if not isinstance(session_id, str) or not shell.store.exists(session_id):
        return False
    open_detail(shell, session_id)
    return True


REOPEN["detail"] = reopen


def shown_session(shell: Shell) -> tuple[str, Session | None, str | None]:
    return _shown.get(shell, ("", None, shell.t("ui.closed")))


def build(shell: Shell) -> ft.Control:
    session_id, session, problem = shown_session(shell)
    back = w.icon_button(ft.Icons.ARROW_BACK, w.t(shell, "ui.back_home"), shell.go_home, key="back")
    header: list[ft.Control]
    if session is None:
        header = [ft.Row([back, w.text(w.t(shell, "ui.detail.title"), 20, bold=True)])]
        return w.screen(shell, header, [w.text(problem or "", 16, key="detail-problem")], key="detail-screen")
    summary = next((s for s in shell.store.finished() if s.id == session_id), None)
    title = home.title_of(summary, shell.language) if summary is not None else session.game.title
    header = [ft.Row([back, ft.Container(ft.Text(title, size=18, weight=ft.FontWeight.BOLD, max_lines=2,
                                                 overflow=ft.TextOverflow.ELLIPSIS), expand=True)], spacing=0)]
    reading = Reading(shell, session)
    items: list[ft.Control] = [result(reading), chart(reading, session_id, session.game.id),
                               actions(shell, session_id)]
    items.append(w.text(w.t(shell, "ui.log"), 17, bold=True, key="detail-log-title"))
    items.extend(log_lines(shell, session))
    return home.lazy_screen(shell, header, items, [])


def result(reading: Any) -> ft.Control:
    """The end screen the table saw: the ranking, and why a tie went the way it did."""
    state = reading.session.state
    game = reading.session.game.id
    if game == "heartland":
        return heartland.end_screen(reading, state)
    if game == "transamerica":
        return ft.Column([transamerica.winners(reading, state), transamerica.round_table(reading, state)], spacing=10)
    if game == "great_plains":
        return great_plains.scoring(reading, state)
    lines: list[ft.Control] = []
    for standing in reading.session.standings():
        line = w.t(reading, "ui.rank", ordinal=ordinal(standing.rank, reading.language), player=standing.player)
        line = w.t(reading, "ui.winner_mark", line=line) if standing.winner else line
        lines.append(w.text(f"{line}: {standing.score}", 18, key=f"rank-{w.slug(standing.player)}"))
    return ft.Column(lines, spacing=6, key="result")


def chart(shell: Shell, session_id: str, game: str) -> ft.Control:
    try:
        series = shell.store.score_series(session_id)
    except StoreError as error:
        return w.text(shell.say(error), 15, key="chart-problem")
    # Imported on the first chart drawn: flet_charts is a tenth of a second of every start otherwise.
    from companion.app import charts

    return charts.score_chart(shell, series, game)


def actions(shell: Shell, session_id: str) -> ft.Control:
    """Send the play to BG Stats; open the game itself (to undo its last act or play again)."""
    send = ft.OutlinedButton(w.t(shell, "ui.detail.bgstats"), icon=ft.Icons.OPEN_IN_NEW, key="bgstats",
                             height=w.TARGET, tooltip=w.t(shell, "ui.detail.bgstats.tip"),
                             on_click=lambda _: shell.page.run_task(send_to_bgstats, shell, session_id))
    reopen = ft.OutlinedButton(w.t(shell, "ui.detail.open_game"), icon=ft.Icons.PLAY_ARROW, key="open-game",
                               height=w.TARGET, tooltip=w.t(shell, "ui.detail.open_game.tip"),
                               on_click=lambda _: shell.open_session(session_id))
    return ft.Row([send, reopen], wrap=True, spacing=8, run_spacing=8, key="detail-actions")


async def send_to_bgstats(shell: Shell, session_id: str) -> None:
    try:
        url = shell.store.bgstats_url(session_id)
    except StoreError as error:
        shell.show_notice(shell.say(error))
        return
    launcher = next((s for s in shell.page.services if isinstance(s, ft.UrlLauncher)), None)
    if launcher is None:
        launcher = ft.UrlLauncher()
        shell.page.services.append(launcher)
        shell.page.update()  # a service answers calls once the page has it
    try:
        await launcher.launch_url(url)
    except Exception:  # no browser to open it in (a test client, a locked-down device): say so, with the link
        shell.show_notice(shell.t("ui.detail.bgstats.failed", url=url))


def log_lines(shell: Shell, session: Session) -> list[ft.Control]:
    """Every recorded act as a sentence, in the order it happened."""
    if not session.cursor:
        return [w.text(w.t(shell, "ui.log.nothing"), 15)]
    return [ft.Text(f"{number}. {session.sentence(number).text(shell.language)}", size=15, key=f"detail-log-{number}")
            for number in range(1, session.cursor + 1)]


def sheet(shell: Shell) -> ft.DialogControl | None:
    """The rules reference, opened from the end screen's Rules button."""
    _, session, _ = shown_session(shell)
    if session is None or shell.ui.panel != "rules":
        return None
    return rules.sheet(Reading(shell, session))  # type: ignore[arg-type]

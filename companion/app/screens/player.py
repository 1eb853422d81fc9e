"""One player's page: their record, streaks, scores game by game, time played, who they meet
and who beats them most, and how they fare by the number at the table; over the games the
statistics' filters count (the page keeps those filters, and Back returns to them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.aftergame.stats import GameRecord, PlayerPage, Rival
from companion.app import dates, layout, wide
from companion.app import widgets as w
from companion.app.intents import REOPEN, Intents
from companion.app.screens import stats
from companion.rules import GAMES
from companion.text.messages import SOURCE_LANGUAGE, register
from companion.text.numbers import whole

if TYPE_CHECKING:
    from companion.app.view import View

register(
    SOURCE_LANGUAGE,
    {
        "ui.player.back": "Back to the statistics",
        "ui.player.none": "{player} has no game counted here.",
        "ui.player.time": "Time played: {duration} over {count} {count:game|games}",
        "ui.player.most_met": "Played most with: {player} ({count} {count:game|games})",
        "ui.player.most_met_tied": "Played most with: {players} ({count} {count:game|games} each)",
        "ui.player.beaten_by": "Finished behind most often: {player} ({count} {count:time|times})",
        "ui.player.beaten_by_tied": "Finished behind most often: {players} ({count} {count:time|times} each)",
        "ui.player.never_behind": "Never finished behind anyone here",
        "ui.player.by_game": "By game",
        "ui.player.game_scores": "Best {best} · average {average} · worst {worst}",
        "ui.player.by_count": "By number of players",
        "ui.player.count": "{count} players: {record}",
    },
)


def reopen(act: Intents, place: dict[str, Any]) -> bool:
    """After a restart: the same player's page with the same filters."""
    if not isinstance(place.get("player"), str):
        return False
    act.go("player", {**stats.checked_filters(place), "player": place["player"]})
    return True


REOPEN["player"] = reopen


def build(view: View) -> ft.Control:
    chosen = stats.filters(view)
    name = str(chosen.get("player", ""))
    since, until = stats.span(chosen)
    page = view.data.player_page(name, chosen["game"], since, until)
    back = w.icon_button(ft.Icons.ARROW_BACK, w.t(view, "ui.player.back"), lambda: back_to_stats(view), key="back")
    title = ft.Container(
        ft.Text(
            page.name if page else name,
            size=20,
            weight=ft.FontWeight.BOLD,
            max_lines=1,
            overflow=ft.TextOverflow.ELLIPSIS,
            key="player-name",
        ),
        expand=True,
    )
    header: list[ft.Control] = [ft.Row([back, title], spacing=0)]
    body: list[ft.Control] = [w.text(shown_filters(view, chosen), 14, colour=w.QUIET, key="player-filters")]
    if page is None:
        body.append(w.text(w.t(view, "ui.player.none", player=name), 16, key="player-none"))
    else:
        if w.is_wide(view):
            # The record and its figures beside the games one by one.
            summary, by_game, by_count = parts(view, page)
            return wide.screen(
                view,
                header,
                [wide.column([*body, *summary, *by_count], key="body"), wide.column(by_game, key="player-games")],
                key="player-screen",
            )
        body.extend(figures(view, page))
    return layout.screen(view, header, body, key="player-screen")


def back_to_stats(view: View) -> None:
    chosen = {key: value for key, value in stats.filters(view).items() if key != "player"}
    stats.open_stats(view.act, chosen)


def shown_filters(view: View, chosen: dict[str, Any]) -> str:
    game = GAMES.get(chosen["game"] or "")
    period = chosen["period"]
    if period == stats.RANGE:
        when = " ".join(w.t(view, f"ui.stats.{end}", day=chosen[end]) for end in ("from", "to") if chosen.get(end))
    elif period in stats.PERIODS:
        when = w.t(view, f"ui.stats.period.{period}")
    else:
        when = str(period)
    return f"{game.title if game else w.t(view, 'ui.stats.all_games')} · {when}"


def figures(view: View, page: PlayerPage) -> list[ft.Control]:
    summary, by_game, by_count = parts(view, page)
    return [*summary, *by_game, *by_count]


def parts(view: View, page: PlayerPage) -> tuple[list[ft.Control], list[ft.Control], list[ft.Control]]:
    """The page's figures in three parts: the record and who they meet, game by game, by the number at the table."""
    found: list[ft.Control] = [
        w.text(
            w.t(view, "ui.stats.record", plays=page.plays, wins=page.wins, percent=whole(page.win_rate * 100)),
            16,
            bold=True,
            key="player-record",
        ),
        w.text(
            w.t(view, "ui.stats.current_streak", count=page.current_streak, longest=page.longest_streak),
            15,
            key="player-streaks",
        ),
    ]
    if page.timed:
        found.append(
            w.text(
                w.t(view, "ui.player.time", duration=dates.duration(page.time_played, view.language), count=page.timed),
                15,
                key="player-time",
            )
        )
    if page.most_met is not None:
        found.append(
            w.text(
                rivals(view, "ui.player.most_met", "ui.player.most_met_tied", page.most_met), 15, key="player-most-met"
            )
        )
        beaten = (
            rivals(view, "ui.player.beaten_by", "ui.player.beaten_by_tied", page.beaten_by)
            if page.beaten_by is not None
            else w.t(view, "ui.player.never_behind")
        )
        found.append(w.text(beaten, 15, key="player-beaten-by"))
    by_game: list[ft.Control] = [w.text(w.t(view, "ui.player.by_game"), 17, bold=True)]
    by_game.extend(game_block(view, record) for record in page.games)
    by_count: list[ft.Control] = [w.text(w.t(view, "ui.player.by_count"), 17, bold=True)]
    for count, (plays, wins) in page.by_count.items():
        record = w.t(view, "ui.stats.record", plays=plays, wins=wins, percent=whole(100 * wins / plays))
        by_count.append(
            w.text(w.t(view, "ui.player.count", count=count, record=record), 15, key=f"player-count-{count}")
        )
    return found, by_game, by_count


def rivals(view: View, one: str, tied: str, rival: Rival) -> str:
    """ "Bob (3 games)", or every one tied for most: "Bob, Cy and Dee (2 times each)"."""
    if len(rival.names) == 1:
        return w.t(view, one, player=rival.names[0], count=rival.count)
    return w.t(view, tied, players=w.names(view, rival.names), count=rival.count)


def game_block(view: View, record: GameRecord) -> ft.Control:
    game = GAMES.get(record.game)
    scores = w.t(
        view,
        "ui.player.game_scores",
        best=stats.game_score(view, record.game, record.best),
        average=stats.game_score(view, record.game, record.average),
        worst=stats.game_score(view, record.game, record.worst),
    )
    return ft.Container(
        ft.Column(
            [
                w.text(game.title if game else record.game, 16, bold=True),
                w.text(
                    w.t(
                        view,
                        "ui.stats.record",
                        plays=record.plays,
                        wins=record.wins,
                        percent=whole(100 * record.wins / record.plays),
                    ),
                    15,
                    key=f"player-game-{record.game}",
                ),
                w.text(scores, 15, key=f"player-scores-{record.game}"),
            ],
            spacing=2,
        ),
        border=ft.Border.all(1, ft.Colors.OUTLINE),
        border_radius=10,
        padding=ft.Padding.only(left=10, right=4, top=6, bottom=8),
        key=f"player-block-{record.game}",
    )

"""Statistics: who plays, who wins, by how much, and who beats whom, per game or over all
of them, for all time or a stretch of it; and renaming a remembered player (their games
come along).

Everything comes from the finished games' kept results (`AppData.statistics`): no game is
replayed, so the screen costs one pass over the list whatever the archive's size.
"""

from __future__ import annotations

import os
import time
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import widgets as w
from companion.app.shell import REOPEN, UiState
from companion.archive import MAX_IMPORT_BYTES, ImportReport
from companion.messages import Described, Message, RuleError
from companion.rules import GAMES
from companion.stats import PlayerStats, Statistics
from companion.store import StoreError

if TYPE_CHECKING:
    from companion.app.shell import Shell

PERIODS = ("all", "month", "year", "last_year")
RANGE = "range"  # the days picked in From … to …
DAY_S = 86400


def open_stats(shell: Shell, chosen: dict[str, Any] | None = None) -> None:
    # The filters are the screen's place (remembered, kept apart from the rename sheet's draft).
    shell.ui = UiState(screen="stats", where={"game": None, "period": "all", **(chosen or {})})
    shell.remember()
    shell.render()


def reopen(shell: Shell, place: dict[str, Any]) -> bool:
    """After a restart: the statistics with the filters last chosen (any that no longer fit dropped)."""
    chosen = {"game": place.get("game") if place.get("game") in GAMES else None,
              "period": place["period"] if _known_period(place.get("period")) else "all"}
    for end in ("from", "to"):
        if chosen["period"] == RANGE and _day(place.get(end)) is not None:
            chosen[end] = place[end]
    shell.ui = UiState(screen="stats", where=chosen)
    return True


def _known_period(period: Any) -> bool:
    return isinstance(period, str) and (period in (*PERIODS, RANGE)
                                        or (period.isdigit() and 1900 < int(period) < 10000))


def _day(value: Any) -> date | None:
    """A day kept as "2026-03-05", or None."""
    try:
        return date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def filters(shell: Shell) -> dict[str, Any]:
    where = shell.ui.where
    where.setdefault("game", None)
    where.setdefault("period", "all")
    return where


def choose(shell: Shell, **chosen: Any) -> None:
    filters(shell).update(chosen)
    shell.remember()
    shell.render()


def day_range(first: date | None, last: date | None) -> tuple[float | None, float | None]:
    """[since, until) of the days from `first` to `last`, both included (None: open on that side), local time."""
    since = datetime.combine(first, datetime.min.time()).timestamp() if first else None
    until = datetime.combine(last + timedelta(days=1), datetime.min.time()).timestamp() if last else None
    return since, until


def period_range(period: str, now: float | None = None) -> tuple[float | None, float | None]:
    """[since, until) of a period ("2024" is that calendar year), in seconds since the epoch (local time)."""
    moment = time.time() if now is None else now
    if period.isdigit():
        return datetime(int(period), 1, 1).timestamp(), datetime(int(period) + 1, 1, 1).timestamp()
    this_year = datetime(date.fromtimestamp(moment).year, 1, 1).timestamp()
    if period == "month":
        return moment - 30 * DAY_S, None
    if period == "year":
        return this_year, None
    if period == "last_year":
        return datetime(date.fromtimestamp(moment).year - 1, 1, 1).timestamp(), this_year
    return None, None


def decimal(value: float, language: str) -> str:
    """12.5, or 12,5 where the table writes a decimal comma."""
    shown = f"{value:.1f}".removesuffix(".0")
    return shown if language == "en" else shown.replace(".", ",")


def build(shell: Shell) -> ft.Control:
    chosen = filters(shell)
    if chosen["period"] == RANGE:
        since, until = day_range(_day(chosen.get("from")), _day(chosen.get("to")))
    else:
        since, until = period_range(chosen["period"])
    statistics = shell.store.statistics(chosen["game"], since, until)
    back = w.icon_button(ft.Icons.ARROW_BACK, w.t(shell, "ui.back_home"), shell.go_home, key="back")
    header: list[ft.Control] = [ft.Row([back, w.text(w.t(shell, "ui.stats"), 20, bold=True)])]
    body: list[ft.Control] = [game_filter(shell, chosen["game"]), period_filter(shell, chosen["period"]),
                              range_filter(shell, chosen)]
    if not statistics.plays:
        body.append(w.text(w.t(shell, "ui.stats.none"), 16, key="stats-none"))
        return w.screen(shell, header, body, key="stats-screen")
    body.append(w.text(overview(shell, statistics), 16, bold=True, key="stats-overview"))
    # Two cards a row in a wide window, one on a phone.
    body.append(ft.ResponsiveRow([ft.Container(player_card(shell, statistics, player), col={"xs": 12, "md": 6})
                                  for player in statistics.players], spacing=10, run_spacing=10, key="stats-players"))
    body.extend(head_to_head(shell, statistics))
    return w.screen(shell, header, body, key="stats-screen")


def game_filter(shell: Shell, game: str | None) -> ft.Control:
    choices: list[tuple[str | None, str]] = [(None, w.t(shell, "ui.stats.all_games"))]
    choices.extend((game_id, GAMES[game_id].title) for game_id in ("heartland", "transamerica", "great_plains"))
    return ft.Row([filter_button(shell, label, game == game_id, f"stats-game-{game_id or 'all'}",
                                 lambda game_id=game_id: choose(shell, game=game_id))
                   for game_id, label in choices], wrap=True, spacing=6, run_spacing=6, key="stats-games")


def period_filter(shell: Shell, period: str) -> ft.Control:
    """All time, the last 30 days, this year, last year, then each earlier year games were played in."""
    choices = [(name, w.t(shell, f"ui.stats.period.{name}")) for name in PERIODS]
    choices.extend((str(year), str(year)) for year in earlier_years(shell))
    return ft.Row([filter_button(shell, label, period == name, f"stats-period-{name}",
                                 lambda name=name: choose(shell, period=name, **{"from": None, "to": None}))
                   for name, label in choices], wrap=True, spacing=6, run_spacing=6, key="stats-periods")


def range_filter(shell: Shell, chosen: dict[str, Any]) -> ft.Control:
    """From … to …: two days picked on a calendar, both included."""
    buttons = []
    for end in ("from", "to"):
        day = _day(chosen.get(end)) if chosen["period"] == RANGE else None
        label = w.t(shell, f"ui.stats.{end}", day=day.isoformat()) if day else w.t(shell, f"ui.stats.{end}.none")
        kind = ft.FilledButton if day else ft.OutlinedButton
        buttons.append(kind(label, key=f"stats-{end}", height=w.TARGET, icon=ft.Icons.CALENDAR_MONTH,
                            tooltip=w.t(shell, f"ui.stats.{end}.tip"),
                            on_click=lambda _, end=end, day=day: pick_day(shell, end, day)))
    return ft.Row(buttons, wrap=True, spacing=6, run_spacing=6, key="stats-range")


def pick_day(shell: Shell, end: str, shown: date | None) -> None:
    """Open the platform's calendar for one end of the range."""
    today = date.today()
    picker = ft.DatePicker(key="stats-date-picker", value=shown or today,
                           first_date=date(1970, 1, 1), last_date=date(today.year + 1, 12, 31),
                           on_change=lambda event: picked_day(shell, end, event.control.value))
    shell.page.show_dialog(picker)


def picked_day(shell: Shell, end: str, value: Any) -> None:
    """Keep the day picked for `end` ("from" or "to"); an end before the start is refused in words."""
    day = value.date() if isinstance(value, datetime) else value if isinstance(value, date) else _day(str(value)[:10])
    if day is None:
        return
    chosen = filters(shell)
    ends = {name: _day(chosen.get(name)) if chosen["period"] == RANGE else None for name in ("from", "to")}
    ends[end] = day
    if ends["from"] is not None and ends["to"] is not None and ends["to"] < ends["from"]:
        shell.show_notice(shell.t("ui.stats.range.reversed", start=ends["from"].isoformat(),
                                  end=ends["to"].isoformat()))
        return
    choose(shell, period=RANGE, **{name: day.isoformat() if day else None for name, day in ends.items()})


def earlier_years(shell: Shell) -> list[int]:
    """The years before last year in which a finished game was started, newest first."""
    before = date.today().year - 1
    years = {date.fromtimestamp(summary.created).year for summary in shell.store.finished()}
    return sorted((year for year in years if year < before), reverse=True)


def filter_button(shell: Shell, label: str, picked: bool, key: str, on_tap: Any) -> ft.Control:
    """A filter: the chosen one filled and ticked (not told by colour alone)."""
    return w.choice(label, picked, on_tap, key=key)


def overview(shell: Shell, statistics: Statistics) -> str:
    played = w.t(shell, "ui.stats.plays", count=statistics.plays)
    if statistics.average_length is None or statistics.game is None:  # rounds and zones do not add up
        return played
    unit = "ui.stats.length.zones" if statistics.game == "great_plains" else "ui.stats.length.rounds"
    return w.t(shell, "ui.stats.overview", plays=played,
               length=w.t(shell, unit, length=decimal(statistics.average_length, shell.language)))


def score(shell: Shell, statistics: Statistics, value: float) -> str:
    if statistics.game == "heartland":
        return w.money(shell, round(value))
    return decimal(value, shell.language)


def player_card(shell: Shell, statistics: Statistics, player: PlayerStats) -> ft.Control:
    slug = w.slug(player.name)
    lines: list[ft.Control] = [
        ft.Row([
            ft.Container(w.text(player.name, 18, bold=True, key=f"stats-name-{slug}"), expand=True),
            ft.TextButton(w.t(shell, "ui.stats.rename"), key=f"rename-{slug}", height=w.TARGET,
                          tooltip=w.t(shell, "ui.stats.rename.tip", player=player.name),
                          on_click=lambda _: shell.open_panel("rename", player=player.name, name=player.name)),
        ]),
        w.text(w.t(shell, "ui.stats.record", plays=player.plays, wins=player.wins,
                   percent=round(player.win_rate * 100)), 15, key=f"stats-record-{slug}"),
    ]
    if player.average_score is not None and player.best_score is not None:
        lines.append(w.text(w.t(shell, "ui.stats.scores", average=score(shell, statistics, player.average_score),
                                best=score(shell, statistics, player.best_score)), 15, key=f"stats-scores-{slug}"))
    lines.append(w.text(w.t(shell, "ui.stats.streak", count=player.longest_streak), 15, key=f"stats-streak-{slug}"))
    return ft.Container(ft.Column(lines, spacing=2), border=ft.Border.all(1, ft.Colors.OUTLINE), border_radius=10,
                        padding=ft.Padding.only(left=10, right=4, top=4, bottom=8), key=f"stats-player-{slug}")


def head_to_head(shell: Shell, statistics: Statistics) -> list[ft.Control]:
    """Each pair that met once: how often each finished ahead of the other."""
    names = [player.name for player in statistics.players]
    beaten = statistics.head_to_head
    rows: list[ft.Control] = []
    for number, first in enumerate(names):
        for second in names[number + 1:]:
            ahead, behind = beaten.get(first, {}).get(second, 0), beaten.get(second, {}).get(first, 0)
            if ahead or behind:
                rows.append(w.text(w.t(shell, "ui.stats.versus", player=first, other=second, ahead=ahead,
                                       behind=behind), 15, key=f"versus-{w.slug(first)}-{w.slug(second)}"))
    if not rows:
        return []
    return [w.text(w.t(shell, "ui.stats.head_to_head"), 17, bold=True, key="head-to-head"), *rows]


def sheet(shell: Shell) -> ft.DialogControl | None:
    """Rename a remembered player: their games are counted under the new name from now on."""
    if shell.ui.panel != "rename":
        return None
    old = str(shell.ui.draft.get("player", ""))
    field = ft.TextField(label=w.t(shell, "ui.stats.rename.new"), value=str(shell.ui.draft.get("name", old)),
                         key="rename-name", max_length=30,
                         on_change=lambda event: shell.set_draft(quiet=True, name=event.control.value or ""),
                         on_submit=lambda _: rename(shell))
    confirm = ft.FilledButton(w.t(shell, "ui.stats.rename"), key="rename-confirm", height=w.TARGET,
                              on_click=lambda _: rename(shell))
    body: list[ft.Control] = [w.text(w.t(shell, "ui.stats.rename.hint", player=old), 15), field]
    return w.sheet(shell, w.t(shell, "ui.stats.rename.title", player=old), body, key="rename-panel", footer=[confirm])


def rename(shell: Shell) -> None:
    old, new = str(shell.ui.draft.get("player", "")), str(shell.ui.draft.get("name", ""))
    try:
        shell.store.rename_player(old, new)
    except (RuleError, StoreError) as error:  # not a name, or the data folder refused the file
        shell.show_notice(shell.say(error))
        return
    shell.close_panel()
    shell.show_notice(shell.t("ui.stats.renamed", old=old, new=" ".join(new.split())), error=False)


# --- your games: export, import, backups ---------------------------------------------------


def open_archive(shell: Shell) -> None:
    shell.open_panel("archive")


REOPEN["stats"] = reopen
REOPEN["home"] = lambda shell, place: True  # home is where a page starts: the sheet over it comes back


def archive_sheet(shell: Shell) -> ft.DialogControl | None:
    """Export every game (JSON) or the results (CSV), import an archive, restore a backup."""
    if shell.ui.panel != "archive":
        return None
    draft = shell.ui.draft
    body: list[ft.Control] = [w.text(w.t(shell, "ui.archive.export"), 16, bold=True)]
    body.append(ft.Row([
        ft.OutlinedButton(w.t(shell, "ui.archive.export_json"), key="export-json", height=w.TARGET,
                          icon=ft.Icons.SAVE_ALT, on_click=lambda _: export(shell, "json")),
        ft.OutlinedButton(w.t(shell, "ui.archive.export_csv"), key="export-csv", height=w.TARGET,
                          icon=ft.Icons.TABLE_CHART_OUTLINED, on_click=lambda _: export(shell, "csv")),
    ], wrap=True, spacing=8, run_spacing=8))
    if draft.get("saved"):
        body.append(w.text(w.t(shell, "ui.archive.saved", path=draft["saved"]), 15, key="export-saved"))
        body.append(ft.TextButton(w.t(shell, "ui.archive.save_copy"), key="export-copy", height=w.TARGET,
                                  icon=ft.Icons.DOWNLOAD,
                                  on_click=lambda _: shell.page.run_task(save_copy, shell, draft["kind"])))
    body.append(w.text(w.t(shell, "ui.archive.import"), 16, bold=True))
    body.append(ft.OutlinedButton(w.t(shell, "ui.archive.pick"), key="import-pick", height=w.TARGET,
                                  icon=ft.Icons.FILE_OPEN_OUTLINED,
                                  on_click=lambda _: shell.page.run_task(pick_and_import, shell)))
    for name in exported_archives(shell):
        body.append(ft.Row([
            ft.Container(w.text(name, 14), expand=True),
            ft.TextButton(w.t(shell, "ui.archive.import"), key=f"import-file-{name}", height=w.TARGET,
                          tooltip=w.t(shell, "ui.archive.import_this.tip", name=name),
                          on_click=lambda _, name=name: import_export(shell, name)),
        ]))
    if draft.get("report"):
        body.extend(report_lines(shell, draft["report"]))
    body.append(w.text(w.t(shell, "ui.archive.backups"), 16, bold=True))
    found = shell.store.backups()
    if not found:
        body.append(w.text(w.t(shell, "ui.archive.no_backups"), 14, colour=w.QUIET, key="no-backups"))
    for backup in found:
        day = backup.day.isoformat()
        body.append(ft.Row([
            ft.Container(w.text(day, 15, key=f"backup-{backup.name}"), expand=True),
            ft.TextButton(w.t(shell, "ui.archive.restore"), key=f"restore-{backup.name}", height=w.TARGET,
                          tooltip=w.t(shell, "ui.archive.restore.tip", day=day),
                          on_click=lambda _, name=backup.name: show_report(shell, shell.store.restore_backup(name))),
        ]))
    return w.sheet(shell, w.t(shell, "ui.archive"), body, key="archive-panel")


def export(shell: Shell, kind: str) -> None:
    """Write the export into the data folder's exports/ (every platform has one) and say where."""
    try:
        path = shell.store.save_export(kind)
    except StoreError as error:
        shell.show_notice(shell.say(error))
        return
    shell.set_draft(saved=path, kind=kind, report=None)


async def save_copy(shell: Shell, kind: str) -> None:
    """The platform's save dialog (a download in a browser) for a copy wherever the player wants it."""
    try:
        saved = shell.ui.draft.get("saved")
        if isinstance(saved, str) and shell.ui.draft.get("kind") == kind:  # a copy of the file just saved
            name = os.path.basename(saved)
            data = shell.store.read_export(name)
        else:
            name, data = shell.store.export(kind)
        await file_picker(shell).save_file(file_name=name, src_bytes=data)
    except Exception:  # no dialog on this platform, or it failed: the copy in exports/ stands
        shell.show_notice(shell.t("ui.archive.no_dialog"))


async def pick_and_import(shell: Shell) -> None:
    try:
        files = await file_picker(shell).pick_files(file_type=ft.FilePickerFileType.CUSTOM,
                                                    allowed_extensions=["json"], with_data=True)
    except Exception:  # no file picker here: the exports/ folder is the way in
        shell.show_notice(shell.t("ui.archive.no_dialog"))
        return
    if not files:  # the player closed the dialog
        return
    picked = files[0]
    data = picked.bytes
    if data is None and picked.path:
        try:
            with open(picked.path, "rb") as file:  # a desktop picker gives a path
                data = file.read(MAX_IMPORT_BYTES + 1)  # more is refused as too big
        except OSError as error:
            shell.show_notice(shell.t("ui.archive.unreadable", name=picked.name, reason=error.strerror or error))
            return
    show_report(shell, shell.store.import_archive(data or b""))


def file_picker(shell: Shell) -> ft.FilePicker:
    picker = next((service for service in shell.page.services if isinstance(service, ft.FilePicker)), None)
    if picker is None:
        picker = ft.FilePicker()
        shell.page.services.append(picker)
        shell.page.update()  # a service answers calls once the page has it
    return picker


def exported_archives(shell: Shell) -> list[str]:
    """The JSON files in the data folder's exports/: a way in where no file picker is."""
    return shell.store.exports()


def import_export(shell: Shell, name: str) -> None:
    try:
        data = shell.store.read_export(name)
    except OSError as error:
        shell.show_notice(shell.t("ui.archive.unreadable", name=name, reason=error.strerror or error))
        return
    show_report(shell, shell.store.import_archive(data))


def show_report(shell: Shell, report: ImportReport) -> None:
    """Keep the report in the sheet's draft as plain words' data (the draft is saved as JSON)."""
    shell.set_draft(report={"imported": len(report.imported), "duplicates": len(report.duplicates),
                            "refused": [[message_data(refusal.named) if refusal.named else refusal.session,
                                         message_data(refusal.why)] for refusal in report.refused]},
                    saved=None)


def report_lines(shell: Shell, report: dict[str, Any]) -> list[ft.Control]:
    refused = report.get("refused") or []
    lines: list[ft.Control] = [
        w.text(w.t(shell, "ui.archive.report", imported=report.get("imported", 0),
                   duplicates=report.get("duplicates", 0), refused=len(refused)), 15, bold=True,
               key="import-report"),
    ]
    lines.extend(w.text(w.t(shell, "ui.archive.refused", session=said(shell, session), reason=said(shell, reason)), 14,
                        colour=ft.Colors.ERROR, key=f"refused-{number}")
                 for number, (session, reason) in enumerate(refused, start=1))
    return lines


def message_data(message: Message) -> dict[str, Any]:
    """A message as JSON's shapes (the draft is saved as JSON), sentences within it kept as messages."""
    return {"id": message.id, "params": {key: _param_data(value) for key, value in message.params.items()}}


def _param_data(value: Any) -> Any:
    if isinstance(value, Described):
        value = value.message
    if isinstance(value, Message):
        return {"message": message_data(value)}
    if isinstance(value, (list, tuple)):
        return [_param_data(item) for item in value]
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


def message_of(data: dict[str, Any]) -> Message:
    params = data.get("params")
    return Message(str(data.get("id", "")), {str(key): _param_of(value)
                                              for key, value in (params.items() if isinstance(params, dict) else ())})


def _param_of(value: Any) -> Any:
    if isinstance(value, dict) and isinstance(value.get("message"), dict):
        return message_of(value["message"])
    if isinstance(value, list):
        return [_param_of(item) for item in value]
    return value


def said(shell: Shell, kept: Any) -> str:
    """A kept id or message in the page's language (a report kept by an earlier version holds plain words)."""
    return message_of(kept).text(shell.language) if isinstance(kept, dict) else str(kept)

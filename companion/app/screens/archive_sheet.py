"""The Your games sheet: export every game (JSON) or the results (CSV, Excel, BG Stats),
import an archive (picked, or from the data folder's exports/), restore a day's backup, and
the report of what an import or a restore did. Its lists of exports/ and backups/ are the
ones `AppData.look_at_archive_folders` last read: drawing it reads nothing from the disk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.aftergame.archive import megabytes
from companion.app import sheets
from companion.app import widgets as w
from companion.app.after_intents import REPORT_CASES, TITLE_CASES, message_of

if TYPE_CHECKING:
    from companion.app.view import View


# What the archive exports to: (kind, its button's words, icon, tooltip or None).
EXPORTS = (
    ("json", "ui.archive.export_json", ft.Icons.SAVE_ALT, None),
    ("csv", "ui.archive.export_csv", ft.Icons.TABLE_CHART_OUTLINED, None),
    ("xlsx", "ui.archive.export_xlsx", ft.Icons.GRID_ON, None),
    ("bgsplay", "bgstats.export", ft.Icons.OPEN_IN_NEW, "bgstats.export.tip"),
)


def archive_sheet(view: View) -> ft.DialogControl | None:
    """Export every game (JSON) or the results (CSV), import an archive, restore a backup."""
    if view.ui.panel != "archive":
        return None
    draft = view.ui.draft
    body: list[ft.Control] = [w.text(w.t(view, "ui.archive.export"), 16, bold=True)]
    body.append(
        ft.Row(
            [
                ft.OutlinedButton(
                    w.t(view, label),
                    key=f"export-{kind}",
                    height=view.grown(w.TARGET),
                    tooltip=w.t(view, tip) if tip else None,
                    icon=icon,
                    on_click=lambda _, kind=kind: export(view, kind),
                )
                for kind, label, icon, tip in EXPORTS
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        )
    )
    if "export" in view.data.progress:
        body.append(progress_line(view, "export"))
    if draft.get("saved"):
        body.append(w.text(w.t(view, "ui.archive.saved", path=draft["saved"]), 15, key="export-saved"))
        body.append(
            ft.TextButton(
                w.t(view, "ui.archive.save_copy"),
                key="export-copy",
                height=view.grown(w.TARGET),
                icon=ft.Icons.DOWNLOAD,
                on_click=lambda _: view.act.page.run_task(view.act.after.save_copy, draft["kind"]),
            )
        )
    body.append(w.text(w.t(view, "ui.archive.import"), 16, bold=True))
    body.append(
        ft.OutlinedButton(
            w.t(view, "ui.archive.pick"),
            key="import-pick",
            height=view.grown(w.TARGET),
            icon=ft.Icons.FILE_OPEN_OUTLINED,
            on_click=lambda _: view.act.page.run_task(view.act.after.pick_and_import),
        )
    )
    for name in exported_archives(view):
        body.append(
            ft.Row(
                [
                    ft.Container(w.text(name, 14), expand=True),
                    ft.TextButton(
                        w.t(view, "ui.archive.import"),
                        key=f"import-file-{name}",
                        height=view.grown(w.TARGET),
                        tooltip=w.t(view, "ui.archive.import_this.tip", name=name),
                        on_click=lambda _, name=name: view.act.page.run_task(view.act.after.import_export, name),
                    ),
                ]
            )
        )
    importing = draft.get("importing")
    if isinstance(importing, list) and len(importing) == 2 and view.data.importing:  # (a reload's draft: gone)
        body.append(
            w.text(w.t(view, "ui.archive.importing", name=importing[0], size=importing[1]), 15, key="import-busy")
        )
    if "import" in view.data.progress:
        body.append(progress_line(view, "import"))
    if draft.get("report"):
        body.extend(report_lines(view, draft["report"]))
    body.append(w.text(w.t(view, "ui.archive.backups"), 16, bold=True))
    found = view.data.backups()
    if not found:
        body.append(w.text(w.t(view, "ui.archive.no_backups"), 14, colour=w.QUIET, key="no-backups"))
    for backup in found:
        day = backup.day.isoformat()
        body.append(
            ft.Row(
                [
                    ft.Container(w.text(day, 15, key=f"backup-{backup.name}"), expand=True),
                    ft.TextButton(
                        w.t(view, "ui.archive.restore"),
                        key=f"restore-{backup.name}",
                        height=view.grown(w.TARGET),
                        tooltip=w.t(view, "ui.archive.restore.tip", day=day),
                        on_click=lambda _, name=backup.name: view.act.after.restore_backup(name),
                    ),
                ]
            )
        )
    return sheets.sheet(view, w.t(view, "ui.archive"), body, key="archive-panel")


def export(view: View, kind: str) -> None:
    view.act.page.run_task(view.act.after.export, kind)  # off the page: a big export takes a while


def progress_line(view: View, work: str) -> ft.Control:
    """How far an export or import is: a bar and its counts (bytes received, games replayed or
    written); a bar that runs without counts while the games are saved in one write."""
    stage, done, total = view.data.progress[work]
    if stage == "receiving":
        words = w.t(view, "ui.archive.progress.receiving", done=megabytes(done), total=megabytes(total))
    elif not total:  # started, not counted yet (a CSV or Excel export is counted in no games)
        words = w.t(view, f"ui.archive.progress.{stage}_start")
    else:
        words = w.t(view, f"ui.archive.progress.{stage}", done=done, total=total)
    exact = total > 0 and stage != "saving"
    return ft.Column(
        [
            ft.ProgressBar(value=done / total if exact else None, key=f"progress-bar-{work}"),
            w.text(words, 14, key=f"progress-{work}"),
        ],
        spacing=4,
        key=f"progress-{work}-line",
    )


def exported_archives(view: View) -> list[str]:
    """The JSON files in the data folder's exports/: a way in where no file picker is."""
    return view.data.exports()


# The side files by the word their sentences are kept under (Home's note, a restore's report).
SIDE_FILES = {"players.json": "players", "counted.json": "counted", "copies.json": "copies", "titles.json": "titles"}


def report_lines(view: View, report: dict[str, Any]) -> list[ft.Control]:
    refused = report.get("refused") or []
    lines: list[ft.Control] = [
        w.text(
            w.t(
                view,
                "ui.archive.report",
                imported=report.get("imported", 0),
                duplicates=report.get("duplicates", 0),
                refused=len(refused),
            ),
            15,
            bold=True,
            key="import-report",
        ),
    ]
    for case in REPORT_CASES:  # each game here that the file's differed from, by what became of it
        lines.extend(
            w.text(w.t(view, f"ui.archive.{case}", game=said(view, game)), 14, key=f"{case}-{number}")
            for number, game in enumerate(report.get(case) or [], start=1)
        )
    for case in TITLE_CASES:
        lines.extend(
            w.text(w.t(view, f"ui.archive.{case}", game=said(view, game), title=other), 14, key=f"{case}-{number}")
            for number, (game, other) in enumerate(report.get(case) or [], start=1)
        )
    for number, (player, here, there) in enumerate(report.get("names_kept") or [], start=1):
        lines.append(
            w.text(
                w.t(view, "ui.archive.name_kept", player=player, here=here, file=there), 14, key=f"name-kept-{number}"
            )
        )
    for case, words in (("side", "side_restored"), ("taken", "side_taken")):
        for name, count in report.get(case) or []:  # a restore: what a damaged side file lost; an import: what came
            label = SIDE_FILES.get(name)
            if label is not None:
                lines.append(
                    w.text(
                        w.t(view, f"ui.archive.{words}.{label}", count=count),
                        14,
                        key=f"{words.replace('_', '-')}-{label}",
                    )
                )
    lines.extend(
        w.text(
            w.t(view, "ui.archive.refused", session=said(view, session), reason=said(view, reason)),
            14,
            colour=ft.Colors.ERROR,
            key=f"refused-{number}",
        )
        for number, (session, reason) in enumerate(refused, start=1)
    )
    return lines


def said(view: View, kept: Any) -> str:
    """A kept id or message in the page's language (a report kept by an earlier version holds plain words)."""
    return message_of(kept).text(view.language) if isinstance(kept, dict) else str(kept)

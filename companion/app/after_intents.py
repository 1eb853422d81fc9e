"""What a player means after the game: look back on a finished game, send it to BG Stats,
rename a player, export, import and restore. Each reads or writes the saved games through
`AppData` and says the outcome in the page's state (a notice, or the archive sheet's report).

Reports and notices are kept in the sheet's draft as plain JSON shapes (`message_data`), so
a page that comes back after a restart says them again in its language.
"""

from __future__ import annotations

import os
from datetime import date
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.archive import MAX_IMPORT_BYTES, ImportReport
from companion.messages import Described, Message, RuleError
from companion.session import Session
from companion.store import StoreError

if TYPE_CHECKING:
    from collections.abc import Callable

    from companion.app.intents import Intents


class AfterGame:
    def __init__(self, act: Intents) -> None:
        self.act = act

    # --- a finished game looked back on -----------------------------------------------------

    def open_detail(self, session_id: str) -> None:
        """Show a finished game without opening it for play: it is read (`peek`), no lock taken."""
        act = self.act
        if act.state.session is not None:
            act.go_home()  # an end screen left for its detail lets its game go, as Back does
        try:
            session: Session | None = act.data.peek(session_id)
            problem = None
        except StoreError as error:  # damaged, gone, or of a newer version: said in words
            session, problem = None, act.say(error)
        act.state.reading = (session_id, session, problem)
        act.go("detail", {"session": session_id})

    async def send_to_bgstats(self, session_id: str) -> None:
        act = self.act
        try:
            url = act.data.bgstats_url(session_id)
        except StoreError as error:
            act.show_notice(act.say(error))
            return
        try:
            await service(act.page, ft.UrlLauncher).launch_url(url)
        except Exception:  # no browser to open it in (a test client, a locked-down device): say so, with the link
            act.show_notice(act.t("ui.detail.bgstats.failed", url=url))

    # --- statistics -------------------------------------------------------------------------

    def rename_player(self, old: str, new: str) -> None:
        act = self.act
        try:
            act.data.rename_player(old, new)
        except (RuleError, StoreError) as error:  # not a name, or the data folder refused the file
            act.show_notice(act.say(error))
            return
        act.close_panel()
        act.show_notice(act.t("ui.stats.renamed", old=old, new=" ".join(new.split())), error=False)

    def count_in_statistics(self, session_id: str, counted: bool) -> None:
        """Count a finished game in statistics, or leave it out (the same call takes it back)."""
        act = self.act
        summary = act.data.finished_summary(session_id)
        if summary is None:
            return
        try:
            act.data.set_counted(summary, counted)
        except StoreError as error:  # the data folder refused the file
            act.show_notice(act.say(error))
            return
        act.show_notice(act.t("ui.detail.now_counted" if counted else "ui.detail.now_left_out"), error=False)

    def pick_day(self, shown: date | None, on_pick: Callable[[Any], None]) -> None:
        """Open the platform's calendar; `on_pick` gets the day picked."""
        today = date.today()
        picker = ft.DatePicker(key="stats-date-picker", value=shown or today,
                               first_date=date(1970, 1, 1), last_date=date(today.year + 1, 12, 31),
                               on_change=lambda event: on_pick(event.control.value))
        self.act.page.show_dialog(picker)

    # --- your games: export, import, backups ----------------------------------------------

    def export(self, kind: str) -> None:
        """Write the export into the data folder's exports/ (every platform has one) and say where."""
        act = self.act
        try:
            path = act.data.save_export(kind)
        except StoreError as error:
            act.show_notice(act.say(error))
            return
        act.set_draft(saved=path, kind=kind, report=None)

    async def save_copy(self, kind: str) -> None:
        """The platform's save dialog (a download in a browser) for a copy wherever the player wants it."""
        act = self.act
        draft = act.state.ui.draft
        try:
            saved = draft.get("saved")
            if isinstance(saved, str) and draft.get("kind") == kind:  # a copy of the file just saved
                name = os.path.basename(saved)
                data = act.data.read_export(name)
            else:
                name, data = act.data.export(kind)
            await service(act.page, ft.FilePicker).save_file(file_name=name, src_bytes=data)
        except Exception:  # no dialog on this platform, or it failed: the copy in exports/ stands
            act.show_notice(act.t("ui.archive.no_dialog"))

    async def pick_and_import(self) -> None:
        act = self.act
        try:
            files = await service(act.page, ft.FilePicker).pick_files(
                file_type=ft.FilePickerFileType.CUSTOM, allowed_extensions=["json"], with_data=True)
        except Exception:  # no file picker here: the exports/ folder is the way in
            act.show_notice(act.t("ui.archive.no_dialog"))
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
                act.show_notice(act.t("ui.archive.unreadable", name=picked.name, reason=error.strerror or error))
                return
        self.report(act.data.import_archive(data or b""))

    def import_export(self, name: str) -> None:
        """Import an archive kept in the data folder's exports/ (where no file picker is)."""
        act = self.act
        try:
            data = act.data.read_export(name)
        except OSError as error:
            act.show_notice(act.t("ui.archive.unreadable", name=name, reason=error.strerror or error))
            return
        self.report(act.data.import_archive(data))

    def restore_backup(self, name: str) -> None:
        self.report(self.act.data.restore_backup(name))

    def report(self, report: ImportReport) -> None:
        """Keep the report in the sheet's draft as plain words' data (the draft is saved as JSON)."""
        self.act.set_draft(report={"imported": len(report.imported), "duplicates": len(report.duplicates),
                                   "refused": [[message_data(refusal.named) if refusal.named else refusal.session,
                                                message_data(refusal.why)] for refusal in report.refused]},
                           saved=None)


def service(page: ft.Page, kind: type[Any]) -> Any:
    """The page's service of this kind (a file picker, a URL launcher), added on first use."""
    found = next((existing for existing in page.services if isinstance(existing, kind)), None)
    if found is None:
        found = kind()
        page.services.append(found)
        page.update()  # a service answers calls once the page has it
    return found


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


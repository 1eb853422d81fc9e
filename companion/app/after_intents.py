"""What a player means after the game: look back on a finished game, send it to BG Stats,
rename a player, export, import and restore. Each reads or writes the saved games through
`AppData` and says the outcome in the page's state (a notice, or the archive sheet's report).

Reports and notices are kept in the sheet's draft as plain JSON shapes (`message_data`), so
a page that comes back after a restart says them again in its language.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import sys
import time
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import flet as ft

from companion.aftergame.archive import MAX_IMPORT_BYTES, THE_FILE, ImportReport, Progress, Refusal, megabytes, too_big
from companion.app import incoming
from companion.session import Session
from companion.store import StoreError
from companion.text.messages import Described, Message, RuleError

if TYPE_CHECKING:
    from collections.abc import Callable

    from companion.app.data import AppData
    from companion.app.state import PageState

T = TypeVar("T")
log = logging.getLogger(__name__)


class PageActs(Protocol):
    """What after the game builds on: the page's intents (`intents.Intents`, which make an
    `AfterGame` of themselves), named here so that this module need not import them."""

    page: ft.Page
    state: PageState
    data: AppData

    def t(self, message_id: str, **params: Any) -> str: ...

    def say(self, error: Exception) -> str: ...

    def show_notice(
        self, text: str, *, error: bool = True, tapped: str | None = None, override: dict[str, Any] | None = None
    ) -> None: ...

    def set_draft(self, *, quiet: bool = False, **values: Any) -> None: ...

    def forget_draft(self, *path: str) -> None: ...

    def go(self, screen: str, where: dict[str, Any]) -> None: ...

    def go_home(self) -> None: ...

    def close_panel(self) -> None: ...


class AfterGame:
    def __init__(self, act: PageActs) -> None:
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
        picker = ft.DatePicker(
            key="stats-date-picker",
            value=shown or today,
            first_date=date(1970, 1, 1),
            last_date=date(today.year + 1, 12, 31),
            on_change=lambda event: on_pick(event.control.value),
        )
        self.act.page.show_dialog(picker)

    # --- your games: export, import, backups ----------------------------------------------

    async def export(self, kind: str) -> None:
        """Write the export into the data folder's exports/ (every platform has one) and say where.
        Off the page (10,000 games take 20 s), the sheet showing how far it is meanwhile."""
        act = self.act
        if "export" in act.data.progress:
            act.show_notice(act.t("ui.archive.busy_export"))
            return
        act.data.progress["export"] = ["exporting", 0, 0]
        act.state.changed()
        try:
            path = await off_the_page(act.data.save_export, kind, None, self._progress("export"))
        except StoreError as error:
            act.show_notice(act.say(error))
            return
        finally:
            act.data.progress.pop("export", None)
            act.state.changed()
        act.set_draft(saved=path, kind=kind, report=None)

    def _progress(self, work: str) -> Progress:
        """How far `work` ("import", "export") is, from whichever thread does it, shown on this
        page at most every `PROGRESS_EVERY_S` (each showing redraws the sheet): the latest step
        told, a moment later if one was just shown, and its start and end at once."""
        act = self.act
        loop = asyncio.get_running_loop()
        shown_at = 0.0
        latest: tuple[str, int, int] = ("", 0, 0)
        pending = False

        def show() -> None:
            nonlocal shown_at, pending
            pending, shown_at = False, time.monotonic()
            if work in act.data.progress:  # not after the work is over (a late step from its thread)
                act.data.progress[work] = list(latest)
                act.state.changed()

        def told(stage: str, done: int, total: int) -> None:
            nonlocal latest, pending
            latest = (stage, done, total)
            if pending:  # a showing is due: it shows this step
                return
            wait = 0.0 if done in (0, total) else max(0.0, shown_at + PROGRESS_EVERY_S - time.monotonic())
            if sys.platform == "emscripten":  # the work runs on the page's own thread there: no timers meanwhile
                if not wait:
                    show()
                return
            pending = True
            loop.call_soon_threadsafe(loop.call_later, wait, show)

        return told

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
        if act.data.importing:  # one import at a time: the second would wait behind the first's lock unsaid
            act.show_notice(act.t("ui.archive.busy_import"))
            return
        act.data.importing += 1  # from the tap on: the pick, the reading and the import
        try:
            await self._pick_and_import()
        finally:
            act.data.importing -= 1
            act.data.progress.pop("import", None)
            act.state.changed()

    async def _pick_and_import(self) -> None:
        act = self.act
        # A browser served by this process sends the file as an upload (see companion.app.incoming).
        name = f"{secrets.token_hex(12)}.json"
        upload = upload_url(act.page, name)
        try:
            picker = service(act.page, ft.FilePicker)
            files = await picker.pick_files(
                file_type=ft.FilePickerFileType.CUSTOM, allowed_extensions=["json"], with_data=upload is None
            )
        except Exception:  # no file picker here: the exports/ folder is the way in
            act.show_notice(act.t("ui.archive.no_dialog"))
            return
        if not files:  # the player closed the dialog
            return
        picked = files[0]
        if picked.size > MAX_IMPORT_BYTES:  # said at once, before anything is read
            self.report(ImportReport(refused=[Refusal.of(THE_FILE, too_big(picked.size))]))
            return
        data = picked.bytes
        if data is None and upload is not None:
            data = await self._uploaded(picker, picked, name, upload)
            if data is None:
                return
        elif data is None and picked.path:
            try:
                with open(picked.path, "rb") as file:  # a desktop picker gives a path
                    data = file.read(MAX_IMPORT_BYTES + 1)  # more is refused as too big
            except OSError as error:
                act.show_notice(act.t("ui.archive.unreadable", name=picked.name, reason=error.strerror or error))
                return
        await self._import(picked.name, data or b"")

    async def _uploaded(self, picker: ft.FilePicker, picked: ft.FilePickerFile, name: str, url: str) -> bytes | None:
        """The picked file's bytes, sent by the browser as one signed PUT (to `url`) into this
        process's upload folder as `name` (deleted once read); None when it could not come (said
        in the notice)."""
        act = self.act
        act.set_draft(importing=[picked.name, megabytes(picked.size)], report=None, saved=None)
        loop = asyncio.get_running_loop()
        done: asyncio.Future[str | None] = loop.create_future()

        told = self._progress("import")
        act.data.progress["import"] = ["receiving", 0, picked.size]

        def on_upload(event: ft.FilePickerUploadEvent) -> None:  # from whichever thread Flet calls it on
            if event.error:
                loop.call_soon_threadsafe(_settle, done, str(event.error))
            elif event.progress is not None and event.progress >= 1:
                loop.call_soon_threadsafe(_settle, done, None)
            elif event.progress is not None:  # the bytes the browser has sent so far
                told("receiving", int(event.progress * picked.size), picked.size)

        picker.on_upload = on_upload
        picker.update()  # the client reports an upload's progress only to a picker that listens
        path = os.path.join(incoming.folder(), name)
        try:
            await picker.upload([ft.FilePickerUploadFile(upload_url=url, id=picked.id, name=picked.name)])
            failed = await asyncio.wait_for(done, UPLOAD_TTL_S)
            if failed is None:
                with open(path, "rb") as file:
                    return file.read(MAX_IMPORT_BYTES + 1)
            log.warning("an upload failed: %s", failed)  # the client's words are English: the page says its own
            reason: Any = act.t("ui.archive.not_received")
        except (OSError, TimeoutError) as error:
            reason = getattr(error, "strerror", None) or act.t("ui.archive.upload_timeout")
        finally:
            picker.on_upload = None
            with contextlib.suppress(OSError):
                os.remove(path)
        act.forget_draft("importing")
        act.show_notice(act.t("ui.archive.unreadable", name=picked.name, reason=reason))
        return None

    async def import_export(self, name: str) -> None:
        """Import an archive kept in the data folder's exports/ (where no file picker is)."""
        act = self.act
        if act.data.importing:
            act.show_notice(act.t("ui.archive.busy_import"))
            return
        act.data.importing += 1
        try:
            try:
                data = act.data.read_export(name)
            except OSError as error:
                act.show_notice(act.t("ui.archive.unreadable", name=name, reason=error.strerror or error))
                return
            await self._import(name, data)
        finally:
            act.data.importing -= 1
            act.data.progress.pop("import", None)
            act.state.changed()

    async def _import(self, name: str, data: bytes) -> None:
        """Import off the page's thread (30 MB of games take a while to replay), the sheet saying
        what is being imported meanwhile; then the report."""
        act = self.act
        act.set_draft(importing=[name, megabytes(len(data))], report=None, saved=None)  # the size as shown
        act.data.progress["import"] = ["replaying", 0, 0]
        try:
            report = await off_the_page(act.data.import_archive, data, act.state.language, self._progress("import"))
        finally:
            act.forget_draft("importing")
        self.report(report)

    def restore_backup(self, name: str) -> None:
        self.report(self.act.data.restore_backup(name))

    def report(self, report: ImportReport) -> None:
        """Keep the report in the sheet's draft as plain words' data (the draft is saved as JSON):
        the counts, each game brought up to date, kept, copied or left as it is, and each refusal."""
        named = {case: [message_data(game.named) for game in getattr(report, case)] for case in REPORT_CASES}
        self.act.set_draft(
            report={
                "imported": len(report.imported),
                "duplicates": report.already_here,
                **named,
                "refused": [
                    [message_data(refusal.named) if refusal.named else refusal.session, message_data(refusal.why)]
                    for refusal in report.refused
                ],
                "side": [list(back) for back in report.side],
                "taken": [list(taken) for taken in report.taken],
                **{
                    case: [[message_data(game.named), game.other] for game in getattr(report, case)]
                    for case in TITLE_CASES
                },
                "names_kept": [list(kept) for kept in report.names_kept],
            },
            saved=None,
        )


REPORT_CASES = ("updated", "kept", "copies", "changed")  # what the report names game by game, in this order
TITLE_CASES = ("retitled", "titles_kept")  # a game whose title differed: named with the other title


UPLOAD_TTL_S = 600  # how long a picked file may take to reach the server
PROGRESS_EVERY_S = 0.25  # long work's progress shown at most this often: a phone's socket is not flooded


def upload_url(page: ft.Page, name: str) -> str | None:
    """Where this page's browser may upload a picked file as `name`, signed and short-lived;
    None where files come with the pick (a desktop window, the browser build, a server that
    takes no uploads)."""
    if not page.web or sys.platform == "emscripten":
        return None
    try:
        return page.get_upload_url(name, UPLOAD_TTL_S)
    except (NotImplementedError, RuntimeError):  # no upload endpoint on this connection
        return None


def _settle(done: asyncio.Future[str | None], value: str | None) -> None:
    if not done.done():
        done.set_result(value)


async def off_the_page(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` in a thread, so the page keeps answering; inline where there are no threads (the browser build)."""
    if sys.platform == "emscripten":
        return work(*args)
    return await asyncio.to_thread(work, *args)


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
    return Message(
        str(data.get("id", "")),
        {str(key): _param_of(value) for key, value in (params.items() if isinstance(params, dict) else ())},
    )


def _param_of(value: Any) -> Any:
    if isinstance(value, dict) and isinstance(value.get("message"), dict):
        return message_of(value["message"])
    if isinstance(value, list):
        return [_param_of(item) for item in value]
    return value

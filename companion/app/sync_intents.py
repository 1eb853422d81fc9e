"""Settings → Sync: test a server, turn sync on or off, sync now. The server's address, database
and user are inputs like any other; the password is held by the page only until sync is
turned on (then in sync-secret.json), never in the page's remembered state nor on the screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app.after_intents import message_data, off_the_page, service
from companion.sync.couch import SyncError
from companion.sync.settings import DEFAULT_DATABASE, LINK_PREFIX, SyncSettings, read_setup_link
from companion.text.messages import Message

if TYPE_CHECKING:
    from companion.app.after_intents import PageActs


class SyncIntents:
    def __init__(self, act: PageActs) -> None:
        self.act = act
        self.password = ""  # typed, not yet kept: never in the draft (which is saved with the page's state)

    def typed(self, **values: str) -> None:
        self.act.set_draft(quiet=True, **values)

    def typed_password(self, value: str) -> None:
        self.password = value

    def settings(self) -> SyncSettings:
        """What the inputs say; a setup link pasted as the address fills in the rest."""
        draft = self.act.state.ui.draft
        url = str(draft.get("sync_url", "")).strip()
        if url.startswith(LINK_PREFIX):
            return read_setup_link(url)
        return SyncSettings(
            url,
            str(draft.get("sync_database", "")).strip() or DEFAULT_DATABASE,
            str(draft.get("sync_user", "")).strip(),
        ).checked()

    def start_test(self) -> None:
        self.act.page.run_task(self.test)  # off the page: a server may take 30 s not to answer

    def start_turn_on(self) -> None:
        self.act.page.run_task(self.turn_on)

    async def test(self) -> None:
        await self._try(False)

    async def turn_on(self) -> None:
        await self._try(True)

    async def _try(self, keep: bool) -> None:
        act = self.act
        service = act.data.sync
        act.set_draft(sync_said=None, sync_ok=None, sync_busy=True)
        try:
            settings = self.settings()
            if service.needs_restart(settings):  # the phone build: a server its worker may not reach yet
                await self._restart_for(settings, keep)
                return
            said = await off_the_page(service.turn_on if keep else service.test, settings, self.password)
        except SyncError as error:
            act.set_draft(sync_said=message_data(error.message), sync_ok=False, sync_busy=False)
            return
        if keep:
            self.password = ""
            if not service.status.on:  # turned off again meanwhile: that is what the table sees
                act.set_draft(sync_busy=False)
                return
        act.set_draft(sync_said=message_data(said), sync_ok=True, sync_busy=False)

    async def _restart_for(self, settings: SyncSettings, keep: bool) -> None:
        act = self.act
        if not keep:
            act.set_draft(
                sync_said=message_data(Message("sync.test_after_restart", {})), sync_ok=False, sync_busy=False
            )
            return
        await act.data.sync.keep_for_restart(settings, self.password)
        self.password = ""
        act.set_draft(sync_said=message_data(Message("sync.restarting", {})), sync_ok=True, sync_busy=False)
        launcher = service(act.page, ft.UrlLauncher)
        await launcher.launch_url(act.page.url or "./", web_only_window_name="_self")

    def sync_now(self) -> None:
        self.act.data.sync.poke()

    def turn_off(self) -> None:
        self.act.data.sync.turn_off()
        self.act.set_draft(sync_said=message_data(Message("sync.turned_off", {})), sync_ok=True)

"""The shared table in-process: the host's page and the phones' pages on one game.

A phone's page is the app's `main` run with the guest id the web door hands it
(`share.current_guest`); the local-network listener is a stand-in, so no socket is opened.
Taps are sent as a Flutter client sends them, including taps on buttons a viewer sees
muted (`force=True`): whatever a phone's socket sends, only a scorekeeper's taps count.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import flet as ft
from app_helpers import memory_app, notice, table
from flet.pubsub.pubsub_hub import PubSubHub
from flet_harness import Screen, wait_for

from companion.app import share
from companion.app.data import AppData
from companion.app.inputs import is_filled
from companion.app.main import make_main
from companion.app.share import SCOREKEEPER, Guest, Sharing
from companion.app.shell import VIEWER_REFUSAL

STALE = "This game changed on another screen; nothing was recorded."
STOPPED = "The host stopped sharing this game."


class Listener:
    def __init__(self) -> None:
        self.open_calls: list[str] = []
        self.closed = 0

    def open(self, host: str) -> str:
        self.open_calls.append(host)
        return f"http://{host}:8550/"

    def close(self) -> None:
        self.closed += 1


class Table:
    """One app (one data folder, one share) and the pages open on it."""

    def __init__(self) -> None:
        self.data: AppData = memory_app()
        self.sharing = Sharing(Listener(), "127.0.0.2")
        self.main = make_main(self.data, self.sharing)
        self.hub = PubSubHub(loop=asyncio.get_running_loop())
        self.pages: list[Screen] = []

    async def page(self, guest: Guest | None = None) -> Screen:
        token = share.current_guest.set(guest.id if guest is not None else None)
        try:
            screen = await Screen(self.main, pubsub=self.hub).start()
        finally:
            share.current_guest.reset(token)
        self.pages.append(screen)
        return screen

    async def close(self) -> None:
        for page in self.pages:
            await page.close()


@contextlib.asynccontextmanager
async def shared_heartland(
    game_id: str = "heartland", players: tuple[str, ...] = ("Ann", "Bob")
) -> AsyncIterator[tuple[Table, Screen, share.Share]]:
    """Ann and Bob's Heartland game (unless told) open on the host's page, shared from its top bar."""
    table_ = Table()
    game = table_.data.new(game_id, list(players), {})
    assert game.id is not None
    table_.data.remember_screen(game.id)
    table_.data.close_session(game.id)
    try:
        host = await table_.page()
        await host.tap("share")
        await host.tap("share-start")
        shared = table_.sharing.current
        assert shared is not None and shared.session_id == game.id
        yield table_, host, shared
    finally:
        await table_.close()


async def keeping(table_: Table, shared: share.Share, *names: str) -> list[Screen]:
    """Phones joined and made scorekeepers before their page opens."""
    phones = []
    for name in names:
        guest = shared.join_by_code(shared.code, name)
        table_.sharing.set_role(guest.id, SCOREKEEPER)
        phones.append(await table_.page(guest))
    return phones


def events_of(table_: Table, shared: share.Share) -> list[str]:
    session = table_.data.open(shared.session_id)
    table_.data.close_session(shared.session_id)
    return [event["type"] for event in session.events[: session.cursor]]


@table
async def test_the_host_shares_from_the_game_screen_and_sees_who_joined() -> None:
    async with shared_heartland() as (table_, host, shared):
        assert host.is_visible("share-qr") and host.find("share-qr").src[:4] == b"\x89PNG"
        assert host.text_of("share-url") == "http://127.0.0.2:8550/"
        assert host.text_of("share-code") == share.display_code(shared.code)
        assert host.is_visible("share-nobody")
        vera = shared.join_by_link(shared.link_token, "Vera")
        await table_.page(vera)
        await wait_for(lambda: host.exists("guest-vera"))
        await host.settle()
        assert host.text_of("guest-vera") == "Vera follows Let Vera keep score"


@table
async def test_a_phone_sees_only_the_shared_game_and_a_viewer_records_nothing() -> None:
    async with shared_heartland() as (table_, host, shared):
        vera = shared.join_by_code(shared.code, "Vera")
        phone = await table_.page(vera)
        assert phone.exists("money-ann") and not phone.exists("back") and not phone.exists("share")
        assert phone.text_of("guest-role") == VIEWER_REFUSAL
        assert phone.is_disabled("move-fuel-1") and phone.is_disabled("undo")
        # Its socket sends the taps anyway: nothing is recorded, and it is told why.
        await phone.tap("move-fuel-1", force=True)
        assert notice(phone) == VIEWER_REFUSAL
        await phone.tap("undo", force=True)
        assert events_of(table_, shared) == []
        # The host's tap reaches the phone.
        await host.tap("panel-close")
        await host.tap("move-fuel-1")
        await wait_for(lambda: "move" in events_of(table_, shared))
        await phone.settle()
        assert phone.text_of("undo-strip") == host.text_of("undo-strip")


@table
async def test_a_scorekeeper_records_until_the_host_revokes_it() -> None:
    async with shared_heartland() as (table_, host, shared):
        sam = shared.join_by_code(shared.code, "Sam")
        phone = await table_.page(sam)
        await wait_for(lambda: host.exists("guest-sam-role"))
        await host.settle()
        await host.tap("guest-sam-role")
        assert sam.role == SCOREKEEPER
        await phone.settle()
        assert phone.text_of("guest-role") == "You keep score with the host."
        await phone.tap("move-fuel-1")
        assert notice(phone) is None and events_of(table_, shared) == ["move"]
        await host.settle()
        await host.tap("guest-sam-role")  # revoked
        await phone.settle()
        assert phone.text_of("guest-role") == VIEWER_REFUSAL
        await phone.tap("undo", force=True)
        assert notice(phone) == VIEWER_REFUSAL and events_of(table_, shared) == ["move"]


@table
async def test_two_scorekeepers_tapping_at_once_record_once_and_the_other_is_told() -> None:
    async with shared_heartland() as (table_, host, shared):
        phones = await keeping(table_, shared, "Sam", "Tess")
        await asyncio.gather(*(phone.tap("move-fuel-1") for phone in phones))
        assert events_of(table_, shared) == ["move"]
        assert sorted(str(notice(phone)) for phone in phones) == sorted([STALE, "None"])
        # Both undo at once: one undo, not two.
        await host.tap("panel-close")
        await host.tap("discard")
        for phone in phones:
            await wait_for(lambda phone=phone: "discard" in phone.text_of("undo-strip").casefold())
            await phone.settle()
        await asyncio.gather(*(phone.tap("undo") for phone in phones))
        assert events_of(table_, shared) == ["move"]
        assert sorted(str(notice(phone)) for phone in phones) == sorted([STALE, "None"])


@table
async def test_stop_sharing_tells_every_phone_and_forgets_the_codes() -> None:
    async with shared_heartland() as (table_, host, shared):
        phones = [await table_.page(shared.join_by_code(shared.code, name)) for name in ("Vera", "Sam")]
        await host.settle()
        await host.tap("share-stop")
        for phone in phones:
            await wait_for(lambda phone=phone: phone.exists("share-stopped"))
            await phone.settle()
            assert phone.text_of("share-stopped") == STOPPED and not phone.exists("money-ann")
        assert table_.sharing.current is None and shared.stopped
        listener = table_.sharing.listener
        assert isinstance(listener, Listener) and listener.closed == 1
        await host.settle()
        assert not host.exists("share-stop") and host.exists("money-ann")  # the host carries on


@table
async def test_leaving_the_game_screen_stops_sharing() -> None:
    async with shared_heartland() as (table_, host, shared):
        phone = await table_.page(shared.join_by_code(shared.code, "Vera"))
        await host.tap("panel-close")
        await host.tap("back")
        assert table_.sharing.current is None
        await wait_for(lambda: phone.exists("share-stopped"))


@table
async def test_share_asks_before_listening_and_close_says_it_still_listens() -> None:
    table_ = Table()
    game = table_.data.new("heartland", ["Ann", "Bob"], {})
    assert game.id is not None
    table_.data.remember_screen(game.id)
    table_.data.close_session(game.id)
    try:
        host = await table_.page()
        listener = table_.sharing.listener
        await host.tap("share")
        # One tap on Share opens nothing to the network: the sheet says what sharing does first.
        assert host.exists("share-ask") and listener.open_calls == [] and table_.sharing.current is None
        start = host.find("share-start")
        assert isinstance(start, ft.OutlinedButton) and not is_filled(start)  # the confirm is not the default
        await host.tap("panel-close")
        assert listener.open_calls == [] and notice(host) is None  # closed unasked: nothing listens, nothing said

        await host.tap("share")
        await host.tap("share-start")
        shared = table_.sharing.current
        assert shared is not None and len(listener.open_calls) == 1
        assert host.exists("share-qr") and "even with this sheet closed" in host.text_of("share-stays")
        await host.tap("panel-close")
        # Closed, still listening, and said so, with the way to stop it.
        assert notice(host) == (
            f"Still shared on the local network (code {share.display_code(shared.code)}): "
            "phones can join. The share button at the top shows the code again and stops sharing."
        )
        assert table_.sharing.current is shared and listener.closed == 0
        await host.tap("share")
        await host.tap("share-stop")
        assert table_.sharing.current is None and listener.closed == 1
        assert notice(host) is None
    finally:
        await table_.close()

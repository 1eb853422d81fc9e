"""Settings → Sync in the app: a test of the server in one sentence, sync turned on, the rounds in
the background (a game played on one device reaches the other's Home), the password kept on
the device only and never in the page's remembered state, sync turned off."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

from app_helpers import table
from couch_helpers import CouchServer
from flet_harness import Screen, wait_for
from test_app_stats import play_transamerica

from companion.app.data import AppData
from companion.app.main import make_main
from companion.store import Store
from companion.sync import settings as sync_settings


async def set_up_sync(screen: Screen, url: str, database: str, password: str = "", user: str = "ann") -> None:
    await screen.tap("settings")
    await screen.type("sync-url", url)
    await screen.type("sync-database", database)
    await screen.type("sync-user", user)
    await screen.type("sync-password", password)


@table
async def test_an_address_beyond_the_local_network_without_https_is_refused_in_words(tmp_path: Path) -> None:
    data = AppData(Store(tmp_path / "data"))
    async with Screen(make_main(data)) as screen:
        await set_up_sync(screen, "http://couch.example.org:5984", "games")
        await screen.tap("sync-test")
        await wait_for(lambda: screen.exists("sync-said"))
        assert screen.text_of("sync-said") == (
            "couch.example.org:5984 is not encrypted: use an https:// address "
            "(http:// is only for this device and the local network)."
        )
    assert not data.sync.status.on and not (tmp_path / "data" / "sync.json").exists()


@table
async def test_sync_turned_on_carries_a_game_to_the_other_device_s_home(
    couch_server: CouchServer, database: str, tmp_path: Path
) -> None:
    couch_server.add_user("ann", "s3cret-pass")
    couch_server.call("PUT", f"/{database}")  # PouchDB Server stops on a database created by a user: made ahead
    here, there = AppData(Store(tmp_path / "here")), AppData(Store(tmp_path / "there"))
    play_transamerica(here, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    try:
        async with Screen(make_main(here)) as screen:
            await set_up_sync(screen, couch_server.url, database, "s3cret-pass")
            await screen.tap("sync-test")
            await wait_for(lambda: screen.exists("sync-said"), timeout=20)
            assert screen.text_of("sync-said") == (
                f"The server 127.0.0.1:{couch_server.port} answered, took the user name and password, and the "
                f"database {database} is ready."
            )
            await screen.tap("sync-on")
            await wait_for(
                lambda: screen.exists("sync-status") and "last synced" in screen.text_of("sync-status"), timeout=20
            )  # drawn by the page when the background round ends
            assert screen.text_of("sync-status").startswith(
                f"Syncing with 127.0.0.1:{couch_server.port}/{database}: last synced "
            )
            link = screen.text_of("sync-link")
            assert link.startswith("companion-sync:?") and "s3cret" not in link
        folder = tmp_path / "here"
        secret = folder / sync_settings.SECRET
        assert json.loads(secret.read_text())["secret"] == {"1": {"password": "s3cret-pass"}}  # a TinyDB file
        assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
        here.store.close()
        for path in folder.rglob("*"):  # the password is in its own file only: not in a backup, nor the page's state
            if path.is_file() and path.name != sync_settings.SECRET:
                assert b"s3cret" not in path.read_bytes(), path
        async with Screen(make_main(there)) as other:  # the other device pastes the link
            await other.tap("settings")
            await other.type("sync-url", link)
            await other.type("sync-password", "s3cret-pass")
            await other.tap("sync-on")
            await wait_for(lambda: there.sync.status.last_ok is not None, timeout=20)
            await other.tap("back")
            await wait_for(
                lambda: other.exists(key=lambda key: str(key).startswith("game-")) or "TransAmerica" in other.text(),
                timeout=20,
            )
            assert len(there.store.sessions()) == 1
            started = time.monotonic()
            play_transamerica(here, ["Cy", "Dee"], {"Cy": 13, "Dee": 0})  # a game played on the first device
            here.sync.poke()
            await wait_for(lambda: len(there.store.sessions()) == 2, timeout=30)
            print(f"a game played here reached the other device after {time.monotonic() - started:.1f} s")
            await other.settle()
            assert "Cy" in other.text() or len(there.home().finished) == 2
    finally:
        here.sync.stop()
        there.sync.stop()


@table
async def test_sync_turned_off_forgets_the_server_and_the_password(
    couch_server: CouchServer, database: str, tmp_path: Path
) -> None:
    couch_server.add_user("bob", "pw")
    couch_server.call("PUT", f"/{database}")
    data = AppData(Store(tmp_path / "data"))
    try:
        async with Screen(make_main(data)) as screen:
            await set_up_sync(screen, couch_server.url, database, "pw", user="bob")
            await screen.tap("sync-on")
            await wait_for(lambda: screen.exists("sync-off") and screen.exists("sync-said"), timeout=20)
            await screen.tap("sync-off")
            await wait_for(lambda: screen.exists("sync-url"))
            assert screen.text_of("sync-said") == (
                "Sync is off: nothing more is sent; the games stay here and on the server."
            )
        assert not (tmp_path / "data" / sync_settings.SETTINGS).exists()
        assert not (tmp_path / "data" / sync_settings.SECRET).exists()
    finally:
        data.sync.stop()


@table
async def test_a_phone_coming_back_to_the_app_asks_for_a_round(tmp_path: Path) -> None:
    from companion.sync.service import SyncStatus

    data = AppData(Store(tmp_path / "data"))
    async with Screen(make_main(data)) as screen:
        data.sync.status = SyncStatus(on=True)  # set up (its rounds not started here)
        assert not data.sync._wake.is_set()
        screen.page.on_app_lifecycle_state_change(None)  # the app shown again
        assert data.sync._wake.is_set()

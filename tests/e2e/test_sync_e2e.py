"""Sync in Chromium: Settings → Sync set up on the served app, the games of another device's
data folder arrive on Home, a game played there later appears without a tap, and a reload
finds sync still on."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import CompanionApp
from couch_helpers import CouchServer
from harness import FlutterPage
from test_app_e2e import see, tap, tap_icon

from companion.store import Store
from companion.sync.couch import Couch
from companion.sync.engine import sync_round


def play_elsewhere(folder: Path, players: list[str]) -> None:
    with Store(folder) as store:
        session = store.new("transamerica", players)
        session.apply({"type": "end_round", "missing": {players[0]: 0, players[1]: 13}})


def fill(ui: FlutterPage, label: str, text: str) -> None:
    """Type into the field whose name starts with `label` (a hint is read after it), again if Flutter wiped it."""
    field = ui.page.locator(f'input[aria-label^="{label}"]')
    for _ in range(5):
        field.click(timeout=ui.timeout_ms)
        field.fill(text, timeout=ui.timeout_ms)
        ui.page.wait_for_timeout(100)
        if field.input_value() == text:
            return
    raise AssertionError(f"the {label!r} field does not keep {text!r}")


def card(ui: FlutterPage, players: str) -> None:
    ui.page.get_by_role("button", name=re.compile(rf"^TransAmerica · {players}\s")).first.wait_for(
        state="attached", timeout=30_000
    )


def test_games_of_another_device_arrive_on_home_and_keep_arriving(
    app: CompanionApp, couch_server: CouchServer, database: str, tmp_path: Path
) -> None:
    other = tmp_path / "other-device"
    play_elsewhere(other, ["Kim", "Lou"])
    with Store(other) as store:
        sync_round(store, Couch(couch_server.url, database))

    ui = app.open()
    tap_icon(ui, "Settings")
    see(
        ui,
        "Keep your games on every device through your own CouchDB server. Nothing is sent anywhere until you "
        "turn sync on.",
    )
    fill(ui, "Server address", couch_server.url)
    fill(ui, "Database", database)
    tap(ui, "Test")
    see(
        ui,
        f"The server 127.0.0.1:{couch_server.port} answered, took the user name and password, and the database "
        f"{database} is ready.",
    )
    tap(ui, "Turn sync on")
    ui.wait_for_text(
        re.compile(rf"^Syncing with 127\.0\.0\.1:{couch_server.port}/{database}: last synced "), timeout_ms=30_000
    )
    ui.wait_for_text("This address is not encrypted: use it only on this device or your own network.")
    ui.screenshot("70-sync-on")

    tap_icon(ui, "Back to all games")
    card(ui, "Kim and Lou")  # taken from the server
    play_elsewhere(other, ["Max", "Ned"])  # the other device plays on, and syncs
    with Store(other) as store:
        sync_round(store, Couch(couch_server.url, database))
    card(ui, "Max and Ned")  # arrives without a tap: the changes feed woke the rounds, the page redrew
    ui.screenshot("71-sync-arrived")

    ui = app.restart()  # the server restarted: sync is still on, and the games are here
    card(ui, "Max and Ned")
    tap_icon(ui, "Settings")
    ui.wait_for_text(re.compile(rf"^Syncing with 127\.0\.0\.1:{couch_server.port}/{database}: "), timeout_ms=30_000)
    with Store(other) as store:  # the game played here went to the other device too
        sync_round(store, Couch(couch_server.url, database))
        assert len(store.sessions()) == 2

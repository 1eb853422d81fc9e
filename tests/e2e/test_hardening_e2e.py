"""Hardening in Chromium: what a joined phone's socket carries, and an import of values no
clock or encoder takes.

A phone joins a shared game (`companion --web --share --share-host 127.0.0.2`, 127.0.0.2
standing in for the local network) on a host that keeps other games too; every WebSocket
frame the phone receives, through a reload, is scanned for those games' ids, titles and
players. Then an archive holding `created` = 10**400, a name with half of a UTF-16 pair
and NaN is imported through the file chooser: each game is refused in one sentence and the
page goes on.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from conftest import CompanionApp
from harness import open_browsers, require_browser, serve_cli
from test_app_e2e import see, tap, tap_icon
from test_share_e2e import LAN_HOST, join

from companion.aftergame import archive
from companion.app.data import AppData
from companion.store import Store


def host_with_other_games(data_dir: Path) -> list[bytes]:
    """TransAmerica of Ann, Bob and Cid left open (to be shared), and three games that are
    none of a phone's business: what of them must never reach one."""
    data = AppData(Store(data_dir))
    secret = data.new("heartland", ["Zelda", "Quentin"], {})
    secret.apply({"type": "adjust", "player": "Zelda", "amount": 13, "note": "Quentin's birthday"})
    data.store.rename(secret.id or "", "Secret cup")
    finished = data.new("transamerica", ["Xavier", "Yolanda"], {})
    finished.apply({"type": "end_round", "missing": {"Xavier": 0, "Yolanda": 13}})
    plains = data.new("great_plains", ["Ulrich", "Ophelia"], {})
    shared = data.new("transamerica", ["Ann", "Bob", "Cid"], {})
    for game in (secret, finished, plains, shared):
        data.close_session(game.id or "")
    data.remember_screen(shared.id)
    words = ["Zelda", "Quentin", "Secret cup", "birthday", "Xavier", "Yolanda", "Ulrich", "Ophelia"]
    return [word.encode() for word in words] + [str(game.id).encode() for game in (secret, finished, plains)]


def test_a_joined_phone_receives_nothing_of_the_host_s_other_games(tmp_path: Path) -> None:
    require_browser()
    data_dir = tmp_path / "data"
    secrets = host_with_other_games(data_dir)
    with serve_cli(["--share", "--share-host", LAN_HOST], data_dir=data_dir) as server, open_browsers() as browsers:
        code = server.wait_for_log(r"\(code ([A-Z0-9]{4}-[A-Z0-9]{4})\)").group(1)
        lan_url = f"http://{LAN_HOST}:{server.port}/"
        try:
            host = browsers.new_page(server.url)
            see(host, "Round 1 · Ann starts")
            phone = browsers.new_page(lan_url, load=False)
            frames: list[bytes] = []

            def record(socket: Any) -> None:
                socket.on(
                    "framereceived",
                    lambda payload: frames.append(payload if isinstance(payload, bytes) else payload.encode()),
                )

            phone.page.on("websocket", record)
            join(phone, lan_url, name="Vera", code=code)
            see(phone, "Round 1 · Ann starts")
            tap(host, "End round 1")  # the host plays on; the phone follows
            tap(host, "0", nth=0)
            tap(host, "Save round 1")
            see(phone, "Round 2 · Bob starts")
            phone.reload()
            see(phone, "Round 2 · Bob starts")
            received = sum(map(len, frames))
            print(f"frames the phone received: {len(frames)}, {received} bytes")
            assert b"Cid" in b"".join(frames)  # the scan reads what was sent: its own game is there
            leaked = sorted({secret.decode() for frame in frames for secret in secrets if secret in frame})
            assert leaked == []
            phone.screenshot("hardening-00-phone-follows-only-its-game")
        except BaseException:
            print(f"--- server log ---\n{server.log()}")
            raise


def test_an_import_of_values_no_clock_or_encoder_takes_is_refused_in_words(app: CompanionApp, tmp_path: Path) -> None:
    with Store(tmp_path / "elsewhere") as elsewhere:
        for players in (["Kim", "Lou"], ["Max", "Ned"], ["Oda", "Pia"]):
            game = elsewhere.new("heartland", players, title=f"{players[0]}'s")
            game.apply({"type": "adjust", "player": players[0], "amount": 1, "note": "found a coin"})
        document = json.loads(archive.export_json(elsewhere))
    first, second, third = document["sessions"]
    first["created"] = 10**400
    second["players"][1] = "N\ud800d"
    third["events"][0]["amount"] = float("nan")
    chosen = tmp_path / "bad-values.json"
    chosen.write_bytes(json.dumps(document, ensure_ascii=True, allow_nan=True).encode())

    ui = app.open()
    see(ui, "+ New game")
    tap_icon(ui, "Your games: export, import, backups")
    with ui.page.expect_file_chooser() as chooser:
        tap(ui, "Choose a file")
    chooser.value.set_files(str(chosen))
    see(ui, "0 imported · 0 already here · 3 refused")
    for said in (
        "Its creation time is not a time.",
        "It holds a broken character (half of a pair) that no file can keep.",
        "not nan",
    ):
        ui.wait_for_text(re.compile(re.escape(said)))
    ui.screenshot("hardening-01-import-refused-in-words")
    tap(ui, "Close")
    see(ui, "+ New game")  # the page goes on: no crash screen
    assert not ui.has_text(re.compile("Traceback|Error"))
    assert not (app.data_dir / "sessions").exists() or list((app.data_dir / "sessions").glob("*.json")) == []

"""A 30 MB archive imported in Chromium, through the web build's file chooser: the
file travels as one signed upload, not on the page's socket (which uvicorn closed past
16 MiB without a word); the sheet says what is being imported and how far it is (the
games replayed, counted), and the report counts every game. A file over the limit is refused at once in
a sentence giving it; an upload that fails is said in words."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from conftest import APP_TARGET, CompanionApp
from harness import open_browser, require_browser, serve_app
from test_app_e2e import exact, see, tap, tap_icon

from companion.aftergame.archive import MAX_IMPORT_BYTES
from companion.session import Session
from companion.store.listing import new_session_id

PLAYERS = ["Ann", "Bob", "Cy"]


def long_game() -> Session:
    """A Heartland evening of 1,000 corrections with their notes: 120 KB as an archive holds it."""
    session = Session.new("heartland", PLAYERS, {"target": 999})
    for number in range(1000):
        session.apply(
            {
                "type": "adjust",
                "player": PLAYERS[number % 3],
                "amount": 1 if number % 2 == 0 else -1,
                "note": f"correction {number:04d} " + "x" * 44,
            }
        )
    return session


def archive_of_size(path: Path, megabytes: int) -> int:
    """An archive of whole games under fresh ids, just over `megabytes` MB; returns how many games."""
    game = long_game().to_dict()
    one = len(json.dumps(game))
    count = megabytes * 2**20 // one + 1
    sessions = [
        {
            "id": new_session_id(),
            "title": f"Evening {number}",
            "created": 1.7e9 + number * 86_400,
            "updated": 1.7e9 + number * 86_400 + 5_400,
            "finished": None,
            **game,
        }
        for number in range(count)
    ]
    path.write_bytes(json.dumps({"format": "companion-archive", "version": 1, "sessions": sessions}).encode())
    return count


def test_a_30_mb_archive_imports_in_the_browser(app: CompanionApp, tmp_path: Path) -> None:
    chosen = tmp_path / "thirty.json"
    count = archive_of_size(chosen, 30)
    size = chosen.stat().st_size
    assert 30 * 2**20 <= size <= MAX_IMPORT_BYTES

    ui = app.open()
    see(ui, "+ New game")
    tap_icon(ui, "Your games: export, import, backups")
    with ui.page.expect_file_chooser() as chooser:
        tap(ui, "Choose a file")
    started = time.monotonic()
    chooser.value.set_files(str(chosen))
    ui.wait_for_text(re.compile(r"^Importing thirty\.json \(30\.\d MB\): every game is replayed"), timeout_ms=60_000)
    shown = time.monotonic() - started
    # How far it is, in counts (the games replayed; the bytes before, while the file travels).
    ui.wait_for_text(re.compile(rf"^Replaying by the rules: \d+ of {count} games$"), timeout_ms=120_000)
    ui.screenshot("big-archive-01-importing")
    ui.wait_for_text(exact(f"{count} imported · 0 already here · 0 refused"), timeout_ms=300_000)
    print(
        f"\n{size / 2**20:.1f} MB, {count} games: 'Importing' shown after {shown:.1f} s, "
        f"the report after {time.monotonic() - started:.1f} s"
    )
    ui.screenshot("big-archive-02-imported")
    assert len(list((app.data_dir / "sessions").glob("*.json"))) == count

    # The same file again: every game is here already, nothing is duplicated.
    with ui.page.expect_file_chooser() as chooser:
        tap(ui, "Choose a file")
    chooser.value.set_files(str(chosen))
    ui.wait_for_text(exact(f"0 imported · {count} already here · 0 refused"), timeout_ms=300_000)
    assert len(list((app.data_dir / "sessions").glob("*.json"))) == count


def test_a_file_over_the_limit_is_refused_in_a_sentence_giving_the_limit(app: CompanionApp, tmp_path: Path) -> None:
    chosen = tmp_path / "too-big.json"
    chosen.write_bytes(b'{"format": "companion-archive", "version": 1, "sessions": []}' + b" " * (60 * 2**20))
    ui = app.open()
    see(ui, "+ New game")
    tap_icon(ui, "Your games: export, import, backups")
    with ui.page.expect_file_chooser() as chooser:
        tap(ui, "Choose a file")
    started = time.monotonic()
    chooser.value.set_files(str(chosen))
    ui.wait_for_text(exact("Refused, the file: It is 60.0 MB; an archive may hold at most 50 MB."), timeout_ms=120_000)
    print(f"\n60 MB refused after {time.monotonic() - started:.1f} s")
    ui.screenshot("big-archive-03-too-big")
    see(ui, "0 imported · 0 already here · 1 refused")


def test_a_file_the_browser_could_not_send_is_said_in_words(tmp_path: Path) -> None:
    require_browser()
    chosen = tmp_path / "games.json"
    chosen.write_bytes(b'{"format": "companion-archive", "version": 1, "sessions": []}')
    # Flet's upload endpoint refuses anything over 10 bytes here: the upload fails in the browser.
    with (
        serve_app(APP_TARGET, data_dir=tmp_path / "data", env={"FLET_MAX_UPLOAD_SIZE": "10"}) as server,
        open_browser(server.url) as ui,
    ):
        see(ui, "+ New game")
        tap_icon(ui, "Your games: export, import, backups")
        with ui.page.expect_file_chooser() as chooser:
            tap(ui, "Choose a file")
        chooser.value.set_files(str(chosen))
        see(ui, "games.json could not be read: the browser could not send it to the app")
        assert not ui.has_text(re.compile("^Importing"))

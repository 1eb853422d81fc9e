"""After the game, in Chromium: finish a short TransAmerica, open it from Home to see its
result, its chart (flet-charts, drawn by the web client) and its log, then export every
game into the data folder."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from conftest import CompanionApp
from harness import FlutterPage
from test_app_e2e import new_game, see, tap, tap_icon, type_number


def still_at(ui: FlutterPage, label: str, quiet_ms: int = 400) -> None:
    """Wait until the control labelled `label` has kept its box for `quiet_ms`."""
    control = ui.page.get_by_label(label, exact=True)
    last, since = None, time.monotonic()
    deadline = since + 10
    while (time.monotonic() - since < quiet_ms / 1000 or last is None) and time.monotonic() < deadline:
        box = control.bounding_box()
        if box != last:
            last, since = box, time.monotonic()
        ui.page.wait_for_timeout(50)


def test_finish_a_game_open_its_chart_and_export(app: CompanionApp) -> None:
    ui = app.open()
    new_game(ui, "TransAmerica · 2–6 players", "Ann", "Bob")
    tap(ui, "Start game")
    tap(ui, "End round 1")
    tap(ui, "0", nth=0)  # Ann connected all her cities
    type_number(ui, "13", nth=1)  # Bob missed all 13: beyond the chips, typed
    tap(ui, "Save round 1")
    see(ui, "Ann wins with 13 points")

    tap_icon(ui, "Back to all games")
    # A game's card is a button named by its words (title, status line, when last played).
    ui.page.get_by_role("button", name=re.compile(r"^TransAmerica · Ann and Bob\s")).first.click()
    # The chart's caption, labels and legend read as one node: the words are looked for inside it.
    for words in ("Score over the game", "Start", "R1", "Ann: 13", "Bob: 0"):
        ui.wait_for_text(re.compile(rf"(^|\n){re.escape(words)}($|\n)"))
    ui.page.get_by_role("button", name="Send to BG Stats", exact=True).wait_for(state="attached")
    ui.screenshot("30-finished-game-detail-chart")
    ui.page.set_viewport_size({"width": 1200, "height": 800})
    ui.wait_for_text(re.compile(r"(^|\n)Score over the game($|\n)"))
    ui.screenshot("31-finished-game-detail-chart-wide")
    ui.page.set_viewport_size({"width": 412, "height": 915})
    # The semantics boxes follow the new width a few frames late: a tap before that lands
    # where the button was (CI once tapped nothing here).
    still_at(ui, "Back to all games")

    tap_icon(ui, "Back to all games")
    tap_icon(ui, "Your games: export, import, backups")
    tap(ui, "Every game (JSON)")
    exports = app.data_dir / "exports"
    ui.wait_for_text(re.compile(rf"^Saved in {re.escape(str(exports))}/companion-.*\.json$"))
    ui.screenshot("32-export-saved")
    (exported,) = exports.glob("*.json")
    sessions = json.loads(exported.read_bytes())["sessions"]
    assert [session["players"] for session in sessions] == [["Ann", "Bob"]]

    # In a browser the save dialog is a download of the same file.
    with ui.page.expect_download() as download:
        tap(ui, "Save a copy elsewhere")
    assert download.value.suggested_filename == exported.name
    assert Path(download.value.path()).read_bytes() == exported.read_bytes()

    # Importing it back: the browser's file chooser hands the file's bytes to the app.
    with ui.page.expect_file_chooser() as chooser:
        tap(ui, "Choose a file")
    chooser.value.set_files(str(exported))
    see(ui, "0 imported · 1 already here · 0 refused")
    ui.screenshot("33-import-report")

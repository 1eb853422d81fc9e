"""Self-test of the real-browser harness: serve sample_app, click, type, screenshot, reload."""

from __future__ import annotations

from pathlib import Path

from harness import SCREENSHOTS_DIR, open_browser, require_browser, serve_app


def test_sample_app_in_chromium(tmp_path: Path) -> None:
    require_browser()  # skip early (or fail on CI) before starting a server
    with serve_app("tests/e2e/sample_app.py:main", data_dir=tmp_path) as server, open_browser(server.url) as ui:
        ui.wait_for_text("Count: 0")
        ui.wait_for_text("Data dir set: yes")
        ui.click_button("Add one")
        ui.wait_for_text("Count: 1")
        ui.fill("Name", "Ann")
        ui.wait_for_text("Hello Ann")
        shot = ui.screenshot("e2e-sample-counter")
        assert shot.parent == SCREENSHOTS_DIR and shot.stat().st_size > 1000

        ui.reload()  # same Flet session: the state survives a plain reload
        ui.wait_for_text("Count: 1")
        ui.reload(new_session=True)  # a fresh session runs main again
        ui.wait_for_text("Count: 0")
        assert not ui.has_text("Count: 1")
    assert server.proc is None  # stopped at teardown

"""Fixtures for the real-browser tests of the companion app.

``app`` serves ``companion.app.main:main`` through the web door, as ``companion --web``
does, on a fresh data folder (one per test: the app resumes the last open game, so tests
sharing a folder would land in each other's games) and opens Chromium on it. A failing
test leaves a ``FAILED-<test>.png`` screenshot and prints the server's log.

What they cover: the web build in Chromium, served exactly as `companion --web` serves it,
driven through Flutter's semantics tree at 412×915: a full game of each title, reload,
dropped socket and server restart mid-game, two tabs tapping Undo at once, every sheet's
confirm button in view, a whole game making no request outside the served origin, foreign
Origin/Host sockets refused, names in many scripts, a shared table with a host, a viewer and
a scorekeeper in three browser contexts, every WebSocket frame a joined phone receives
scanned for the host's other games, and an import of values no clock or encoder takes. A
crawler opens every sheet of every game screen and every way on from each (Rules, Back,
Close, Stop game, Share, Record anyway…), comparing the sheet the browser shows with the one
the server means (`ui-state.json`); whole games are played with every button's box compared
before and after each tap (nothing may move more than 2 px, but a list growing below the
tap); tap budgets are counted in real clicks; label contrast is measured from screenshot
pixels in both themes; and each game screen is photographed at 1280×800. The phone build
(test_phone_e2e.py): the site is built once per run by `companion publish`, served from
127.0.0.1 by a plain static server with every other address refused; a short game of each
title, statistics, the day's backup, a reload, Chromium SIGKILLed right after a tap is shown
and reopened on its profile with the server stopped (the app comes from its cache, the tap
is there and in IndexedDB), a new build updating the app (only what changed is downloaded;
the games stay), export and import between two profiles, and names in many scripts drawn
offline. Screenshots land in `test-artifacts/screenshots/`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import AppServer, Browsers, FlutterPage, open_browser, open_browsers, require_browser, serve_app

APP_TARGET = "companion.app.main:main"
_FAILED = pytest.StashKey[bool]()
_HERE = Path(__file__).parent


def pytest_itemcollected(item: pytest.Item) -> None:
    """Every test in this folder drives Chromium: marked `e2e`, so `-m "not e2e"` leaves them out
    (and `pytest -n 2` runs them on one worker, one after the other: see tests/conftest.py)."""
    if _HERE in item.path.parents:
        item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    report: pytest.TestReport = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


@pytest.fixture(scope="module")
def browsers() -> Iterator[Browsers]:
    """One Chromium for a module's tests, each in a context of its own."""
    require_browser()
    with open_browsers() as opened:
        yield opened


class CompanionApp:
    """The app served on one data folder, with a browser on it; ``restart`` keeps the folder."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.server: AppServer | None = None
        self.ui: FlutterPage | None = None
        self._stack = contextlib.ExitStack()

    def open(self) -> FlutterPage:
        self.server = self._stack.enter_context(serve_app(APP_TARGET, data_dir=self.data_dir))
        self.ui = self._stack.enter_context(open_browser(self.server.url))
        return self.ui

    def restart(self) -> FlutterPage:
        """Close the browser, stop the server process, then serve the same data folder again."""
        self.close()
        return self.open()

    def close(self) -> None:
        stack, self._stack = self._stack, contextlib.ExitStack()
        stack.close()  # the browser first, then the server
        self.server = self.ui = None


@pytest.fixture
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[CompanionApp]:
    require_browser()  # skip early (or fail on CI) before starting a server
    app = CompanionApp(tmp_path / "data")
    try:
        yield app
    finally:
        if request.node.stash.get(_FAILED, False):
            if app.ui is not None:
                with contextlib.suppress(Exception):
                    app.ui.screenshot(f"FAILED-{request.node.name}", settle_s=0.2)
            if app.server is not None:
                print(f"--- app server log ---\n{app.server.log()}")
        app.close()

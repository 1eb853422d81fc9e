"""How the suite is shared out with `pytest -n 2` (the README's command): the browser tests
(tests/e2e) on one worker, one after the other (they watch what is drawn and wait for it to
settle: one Chromium drawing the app at a time), every other test on whichever worker is
free. The phone build's tests and the big import are the exception: they draw little, wait
on their own server or file, and took a fifth of that worker's time, so each file goes to
whichever worker is free, as a whole (a file's fixtures are set up once).

What the suite holds: `tests/test_*.py`, rules scenarios for each game, one conformance suite
run by hypothesis over every registered game (overrides, corrections, stopping, scoring
included), the table clock (across a restart, with a property test of the playing time), the
BG Stats link and `.bgsplay` file field by field, saved sessions and data folders of every
earlier format kept as fixtures (tests/fixtures/), the store (on disk and in memory) with
SIGKILL tests, a saved game cut at every byte of its last records and with each of their bits
flipped, and one test per disk fault, the web door and sharing (in-process and on a real
uvicorn on loopback), screen tests that tap through every screen in-process (stale taps,
reconnects, tap budgets, 48 dp targets, colour contrast in both themes), and the house itself
(test_layers.py: each layer imports only its own and those below, the rules core imports
nothing impure, a screen writes nothing but through `view.act`); tests/e2e/, the browser
tests (see tests/e2e/conftest.py); tests/bench/, scripts that print figures, never asserted
(tests/bench/README.md)."""

from __future__ import annotations

from typing import Any

from couch_helpers import couch_server, database  # noqa: F401 - the sync tests' server and database, for any file
from xdist.scheduler import LoadScopeScheduling

BROWSER_TESTS = "tests/e2e/"
ON_THEIR_OWN = ("tests/e2e/test_phone_e2e.py", "tests/e2e/test_big_archive_e2e.py")


class BrowserTestsTogether(LoadScopeScheduling):
    """A test's scope is itself, but for the browser tests, which share one (but `ON_THEIR_OWN`, a file each)."""

    def _split_scope(self, nodeid: str) -> str:
        own = next((name for name in ON_THEIR_OWN if nodeid.startswith(name + "::")), None)
        if own is not None:
            return own
        return BROWSER_TESTS if nodeid.startswith(BROWSER_TESTS) else nodeid


def pytest_xdist_make_scheduler(config: Any, log: Any) -> BrowserTestsTogether:
    return BrowserTestsTogether(config, log)

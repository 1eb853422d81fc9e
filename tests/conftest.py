"""How the suite is shared out with `pytest -n 2` (the README's command): every browser test
(tests/e2e) on one worker, one after the other (one Chromium at a time: they measure what is
drawn and how fast it settles), every other test on whichever worker is free."""

from __future__ import annotations

from typing import Any

from xdist.scheduler import LoadScopeScheduling

BROWSER_TESTS = "tests/e2e/"


class BrowserTestsTogether(LoadScopeScheduling):
    """A test's scope is itself, but for the browser tests, which share one."""

    def _split_scope(self, nodeid: str) -> str:
        return BROWSER_TESTS if nodeid.startswith(BROWSER_TESTS) else nodeid


def pytest_xdist_make_scheduler(config: Any, log: Any) -> BrowserTestsTogether:
    return BrowserTestsTogether(config, log)

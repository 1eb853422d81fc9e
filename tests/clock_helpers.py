"""A clock a test sets: the table clock's marks take their times from it (`companion.clock.now`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from unittest import mock

from companion import clock


class SetClock:
    """Seconds since the epoch, moved by hand: `at(t)`, `wait(seconds)`."""

    def __init__(self, moment: float = 1_764_612_000.0) -> None:  # 2025-12-01 18:00 UTC
        self.moment = moment

    def __call__(self) -> float:
        return self.moment

    def at(self, moment: float) -> None:
        self.moment = moment

    def wait(self, seconds: float) -> None:
        self.moment += seconds


@contextlib.contextmanager
def clock_set(test_clock: SetClock) -> Iterator[SetClock]:
    with mock.patch.object(clock, "now", test_clock):
        yield test_clock


@contextlib.contextmanager
def played_between(start: float, end: float) -> Iterator[None]:
    """A game set up at `start` whose every change is recorded at `end` (a game played elsewhere)."""
    moments = iter([start])
    with mock.patch.object(clock, "now", lambda: next(moments, end)):
        yield

"""The table clock: when a game started, ran, was paused and ended, as marks in its log.

A session keeps its clock as a list of marks beside its events, each `{"mark": kind, "at":
seconds since the epoch (UTC)}`, appended and never changed, outside the undo cursor: an
undo takes back the table's last act, never the time that went by. The kinds:

    start    the game was set up (its start time)
    open     a screen opened it for play: its time runs from here, unless paused or over
    close    no screen has it any more (or, written when it is opened again, the last change
             of a run that ended without saying so: an app killed, a power cut)
    pause    the table paused it ("pizza"); a game act or `resume` runs it again
    resume   the table ran it again
    end      a change ended it (finished by its rules, scored, or stopped): the time stops
    reopen   an undo took its end back: the time runs again from here
    taken    the times of a game saved before the clock was kept (start and, as `at`, its
             last change or end), taken once from what that version kept and kept from then on

Everything here is a pure function of the marks: the playing time is the sum of the spans
between a mark that runs the clock and the next one that stops it, so pauses never count.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.text.messages import Message, RuleError, register
from companion.text.numbers import whole

MARK = "mark"
AT = "at"
SINCE = "since"  # a `taken` mark's start time
KINDS = ("start", "open", "close", "pause", "resume", "end", "reopen", "taken")
TABLE_KINDS = ("pause", "resume")  # what a table asks for; the session and the store write the others
# The latest time a mark may hold (3000-01-01 UTC), as a saved file's own times.
LATEST_TIME = 32_503_680_000.0

Mark = Mapping[str, Any]

register(
    "en",
    {
        "clock.log.pause": "Clock paused",
        "clock.log.resume": "Clock running again",
        "clock.log.open": "Clock running",
        "clock.log.close": "Clock stopped",
        "clock.over": "The game is over: its clock has stopped.",
        "clock.already_paused": "The clock is already paused.",
        "clock.not_paused": "The clock is not paused.",
        "clock.not_asked": "A table pauses or runs the clock; {mark} is not one of those.",
        "clock.bad_marks": "its clock is not a list of marks",
        "clock.bad_mark": "mark {number} of its clock is not a known mark with a time",
        "clock.bad_last": "the time of its last change is not a time",
    },
)


def now() -> float:
    """The time a mark records (a module function, so a test can set the clock)."""
    return time.time()


def is_time(value: Any) -> bool:
    """Seconds since 1970 up to `LATEST_TIME`: never a bool, NaN, an infinity or a huge integer."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return 0 <= value <= LATEST_TIME


def mark(kind: str, at: float, **extra: float) -> dict[str, Any]:
    return {MARK: kind, AT: at, **extra}


@dataclass(frozen=True)
class Reading:
    """What the marks say: when it started, how long it ran, and where the clock is now."""

    started: float | None  # None: no start known (a clock with no start or taken mark)
    played: float  # seconds of play up to the last mark (pauses, and the time after the end, left out)
    running_since: float | None  # the clock runs from this time (not yet counted in `played`)
    paused: bool
    ended: float | None  # when the game ended, while it is over

    def played_at(self, moment: float) -> float:
        """Seconds of play at `moment` (the clock running from `running_since` counts up to it)."""
        if self.running_since is None:
            return self.played
        return self.played + max(0.0, moment - self.running_since)


def read(marks: Sequence[Mark]) -> Reading:
    """The clock after `marks`, oldest first (checked marks: see `check_marks`)."""
    started: float | None = None
    played = 0.0
    since: float | None = None
    paused = False
    ended: float | None = None

    def stop(at: float) -> None:
        nonlocal played, since
        if since is not None:
            played += max(0.0, at - since)
            since = None

    for item in marks:
        kind, at = item[MARK], float(item[AT])
        if kind == "taken":
            started = float(item[SINCE])
            played, since, paused, ended = max(0.0, at - started), None, False, None
        elif kind == "start":
            started = at if started is None else started
            since = None if paused or ended is not None else at
        elif kind == "open":
            if since is None and not paused and ended is None:
                since = at
        elif kind == "close":
            stop(at)
        elif kind == "pause":
            stop(at)
            paused = True
        elif kind == "resume":
            paused = False
            if ended is None and since is None:
                since = at
        elif kind == "end":
            stop(at)
            ended, paused = at, False
        elif kind == "reopen":
            ended = None
            if not paused and since is None:
                since = at
    return Reading(started, played, since, paused, ended)


def taken(started: float, last: float, *, over: bool) -> list[dict[str, Any]]:
    """The clock of a game saved before clocks were kept: its start, and its end (or last change)."""
    last = max(last, started)
    return [mark("taken", last, since=started), *([mark("end", last)] if over else [mark("close", last)])]


def check_marks(marks: Any) -> list[dict[str, Any]]:
    """The marks of a saved clock, or RuleError("session.bad_data") saying what is wrong."""
    if not isinstance(marks, list):
        raise RuleError("session.bad_data", reason=_reason("clock.bad_marks"))
    for number, item in enumerate(marks, start=1):
        if not (
            isinstance(item, dict)
            and item.get(MARK) in KINDS
            and is_time(item.get(AT))
            and set(item) == ({MARK, AT, SINCE} if item[MARK] == "taken" else {MARK, AT})
            and (item[MARK] != "taken" or is_time(item.get(SINCE)))
        ):
            raise RuleError("session.bad_data", reason=_reason("clock.bad_mark", number=number))
    return marks


def check_last(last: Any) -> float | None:
    if last is not None and not is_time(last):
        raise RuleError("session.bad_data", reason=_reason("clock.bad_last"))
    return None if last is None else float(last)


def minutes(seconds: float | None) -> int | None:
    """Whole minutes of play, at least 1 for any game that ran (None when unknown)."""
    if seconds is None or not math.isfinite(seconds):
        return None
    return max(1, whole(seconds / 60))


def _reason(message_id: str, **params: Any) -> Message:
    return Message(message_id, params)

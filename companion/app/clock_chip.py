"""The table clock on a game screen: the playing time so far, and one tap to pause or run it.

It sits on the turn line under the title bar, the same width whatever it shows (a tap never
moves what is beside it). The time comes from the session's clock marks (companion/clock.py)
and is drawn again every `TICK_SECONDS` while the clock runs, by the component alone:
nothing else on the page is redrawn or sent. Pausing and running it again go through
`session.apply`, like every other change, so another screen or a restart sees the pause.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from companion import clock
from companion.text import i18n
from companion.text.messages import register
from companion.text.numbers import whole

if TYPE_CHECKING:
    from companion.app.view import View

TICK_SECONDS = 15.0  # the time shows minutes: a quarter of one is the most it lags
WIDTH = 112  # "10 h 59" and its icon; fixed, so a tap never moves the turn line beside it

register(
    "en",
    {
        # Words, not "0:01", which read as one second: minutes alone for the first hour, then "1 h 05".
        "ui.clock.minutes": "{minutes} min",
        "ui.clock.hours": "{hours} h {minutes}",
        "ui.clock.pause": "Playing time {hours} h {minutes} min. Tap to pause the clock",
        "ui.clock.run": "The clock is paused at {hours} h {minutes} min. Tap to run it again",
        "ui.clock.stopped": "Played for {hours} h {minutes} min; the clock stopped at the end",
        "ui.clock.paused_note": "The clock is paused: nothing counts until you run it again or record a move.",
    },
)


def hours_minutes(seconds: float) -> tuple[int, int]:
    """Rounded to the minute as every other screen rounds (18 min 50 s is 19 min there and here)."""
    minutes = whole(seconds / 60)
    return minutes // 60, minutes % 60


def chip_words(seconds: float, language: str) -> str:
    """The chip's playing time: "0 min", "59 min", "1 h 05"."""
    hours, minutes = hours_minutes(seconds)
    if hours == 0:
        return i18n.t("ui.clock.minutes", language, minutes=minutes)
    return i18n.t("ui.clock.hours", language, hours=hours, minutes=f"{minutes:02d}")


def clock_chip(view: View) -> ft.Control | None:
    """The chip for the game on screen; None for a game with no clock kept (read, not opened for play)."""
    session = view.session
    assert session is not None
    if session.played() is None:
        return None
    reading = session.clock
    over = session.is_over
    return TableClock(
        reading.played,
        reading.running_since,
        reading.paused,
        over,
        over or view.read_only() is not None,
        view.language,
        lambda: view.act.apply(
            {"type": "clock", "mark": "resume" if reading.paused else "pause"}, close_panel=False, tapped="clock"
        ),
        view.text_scale,
    )


@ft.component
def TableClock(
    played: float,
    since: float | None,
    paused: bool,
    over: bool,
    disabled: bool,
    language: str,
    on_tap: Callable[[], object],
    text_scale: float = 1.0,  # its words grow with the device's text: so does the chip
) -> ft.Control:
    _, set_moment = ft.use_state(0.0)

    async def tick() -> None:
        while since is not None:
            await asyncio.sleep(TICK_SECONDS)
            set_moment(clock.now())

    # Cleanup given, so that Flet cancels the ticking when the chip goes (or the clock stops).
    ft.use_effect(tick, [since], cleanup=lambda: None)
    seconds = played if since is None else played + max(0.0, clock.now() - since)
    hours, minutes = hours_minutes(seconds)
    words = chip_words(seconds, language)
    tip_id = "ui.clock.stopped" if over else "ui.clock.run" if paused else "ui.clock.pause"
    icon = ft.Icons.TIMER_OUTLINED if over else ft.Icons.PLAY_ARROW if paused else ft.Icons.PAUSE
    return ft.TextButton(
        words,
        icon=icon,
        key="clock",
        width=round(WIDTH * text_scale),
        height=round(48 * text_scale),
        disabled=disabled,
        tooltip=i18n.t(tip_id, language, hours=hours, minutes=minutes),
        on_click=lambda _: on_tap(),
    )

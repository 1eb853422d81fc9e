"""Dates, times of day and lengths of time as a table reads them, in its language."""

from __future__ import annotations

from datetime import datetime

from companion.text.i18n import t
from companion.text.messages import SOURCE_LANGUAGE, register
from companion.text.numbers import whole

register(
    SOURCE_LANGUAGE,
    {
        "ui.date": "{month} {day}, {year}",
        "ui.date.month.1": "January",
        "ui.date.month.2": "February",
        "ui.date.month.3": "March",
        "ui.date.month.4": "April",
        "ui.date.month.5": "May",
        "ui.date.month.6": "June",
        "ui.date.month.7": "July",
        "ui.date.month.8": "August",
        "ui.date.month.9": "September",
        "ui.date.month.10": "October",
        "ui.date.month.11": "November",
        "ui.date.month.12": "December",
        "ui.date.time": "{hour}:{minute}",
        # "at 1:40": Spanish says "a la 1:40" but "a las 2:40", by the hour's number.
        "ui.date.at_time": "at {hour}:{minute}",
        "ui.duration.minutes": "{minutes} min",
        "ui.duration.hours": "{hours} h {minutes} min",
        "ui.duration.whole_hours": "{hours} h",
    },
)


def day(moment: float, language: str) -> str:
    """ "March 5, 2026" (5 mars 2026, 5 de marzo de 2026), local time."""
    when = datetime.fromtimestamp(moment)
    return t("ui.date", language, day=when.day, year=when.year, month=t(f"ui.date.month.{when.month}", language))


def time_of_day(moment: float, language: str) -> str:
    """ "20:45", local time: the 24-hour clock, read alike in the three languages."""
    when = datetime.fromtimestamp(moment)
    return t("ui.date.time", language, hour=when.hour, minute=f"{when.minute:02d}")


def at_time_of_day(moment: float, language: str) -> str:
    """ "at 20:45" (à 20:45, a las 20:45, a la 1:40), local time."""
    when = datetime.fromtimestamp(moment)
    return t("ui.date.at_time", language, hour=when.hour, minute=f"{when.minute:02d}")


def duration(seconds: float, language: str) -> str:
    """ "45 min", "1 h 17 min", "2 h": rounded to the minute (a game shorter than one counts one)."""
    minutes = max(1, whole(seconds / 60))
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return t("ui.duration.minutes", language, minutes=minutes)
    if not minutes:
        return t("ui.duration.whole_hours", language, hours=hours)
    return t("ui.duration.hours", language, hours=hours, minutes=minutes)

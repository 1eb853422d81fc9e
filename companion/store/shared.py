"""One copy of each text and list of names that the summaries of the session list repeat.

A table's games repeat a few names, lists of players, titles and status lines thousands
of times; the store keeps each once (`Shared`, for one reading of the index) and the game
ids and names once in the process (`sys.intern`). Kept for what it buys, measured with and
without, interleaved (archives as `tests/archive_helpers.py` builds them, finished games
with their results): what a store keeps of the index, 0.49 MB instead of 1.36 MB at 1,000
games and 4.75 MB instead of 13.45 MB at 10,000 (tracemalloc), so the app's memory after
Home (+2.0 MB instead of +2.9 MB at 1,000 games, +8.6 MB instead of +18.0 MB at 10,000);
and a search keystroke on Home (`data.Search`, whose texts are found by these lists),
0.26 ms instead of 0.38 ms at 1,000 games, 2.0 ms instead of 5.2 ms at 10,000.
"""

from __future__ import annotations

import sys
from typing import Any, TypeVar

T = TypeVar("T")


class Shared:
    """Equal values handed out once: `one(value)` is the first value equal to it seen here."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: dict[Any, Any] = {}

    def one(self, value: T) -> T:
        kept: T = self._seen.setdefault(value, value)
        return kept


def text(value: Any) -> str:
    """A text held once in the process; TypeError for anything else."""
    if not isinstance(value, str):
        raise TypeError("not text")
    return sys.intern(value)


def names(value: Any) -> tuple[str, ...]:
    """A list of names as a tuple of texts each held once in the process; TypeError for anything else."""
    if not isinstance(value, list):
        raise TypeError("not a list")
    return tuple(map(sys.intern, value))  # TypeError for anything but text

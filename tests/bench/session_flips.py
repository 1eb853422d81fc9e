"""Every bit of every byte of a saved game's file flipped in turn (tests/test_store_damage.py
flips each bit of its last record and one bit of each byte of a sample): prints what became
of the game each time, each checked as the test checks it (a note, the file as it was kept
aside, a game that opens shows exactly what came before the damage). A flip that turns a
format number into a newer one is counted apart: the game is refused as saved by a newer
version (in a sentence), so there is nothing to compare.

    .venv/bin/python tests/bench/session_flips.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1])]

from test_store_damage import TAPS, Saved, opened_after_flip  # noqa: E402

from companion.store import NewerFormat  # noqa: E402


def main() -> None:
    saved = Saved()
    seen: dict[str, int] = {}
    started = time.perf_counter()
    for at in range(len(saved.raw)):
        for bit in range(8):
            try:
                outcome = opened_after_flip(saved, at, bit)
            except NewerFormat:
                outcome = "refused as newer"
            seen[outcome] = seen.get(outcome, 0) + 1
    took = time.perf_counter() - started
    print(f"{len(saved.raw)}-byte file of {TAPS} changes, {sum(seen.values())} single-bit flips: {seen}; {took:.0f} s")


if __name__ == "__main__":
    main()

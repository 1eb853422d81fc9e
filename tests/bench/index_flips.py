"""Every bit of every byte of a small index flipped in turn (tests/test_index_damage.py samples
one bit in twelve bytes): prints how many listed right at once, how many were said, and that
none stayed wrong once the app opened again.

A flip that turns the format number in the index's header into a newer one is counted
apart: the app refuses the data folder as saved by a newer version (it says so), so there
is no list to compare.

    .venv/bin/python tests/bench/index_flips.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1])]

from test_index_damage import Table  # noqa: E402

from companion.store import NewerFormat  # noqa: E402


def main() -> None:
    table = Table(Path(tempfile.mkdtemp()))
    seen: dict[str, int] = {}
    for at in range(len(table.raw)):
        for bit in range(8):
            try:
                outcome = table.after_flip(at, bit)  # asserts: never wrong unsaid, right once reopened
            except NewerFormat:
                outcome = "refused as newer"
            seen[outcome] = seen.get(outcome, 0) + 1
    print(f"index of {len(table.raw)} bytes, {sum(seen.values())} single-bit flips: {seen}; none wrong after reopening")


if __name__ == "__main__":
    main()

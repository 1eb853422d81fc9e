"""Every cut and every flipped bit of each side file (players.json, counted.json, copies.json),
read and then written again by the table's next choice (tests/test_side_files.py sweeps every
cut and a sample of the flips). Prints, per file: how many read exactly right with nothing
said, how many were said on Home with the damaged file kept in quarantine/, how many were
wrong and unsaid, and how many lost entries at the next write (what could still be read, and
what the table had chosen), and of those how many for good (no copy kept aside).

    .venv/bin/python tests/bench/side_files.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from side_helpers import SIDE_FILES, SideTable, cuts, flipped  # noqa: E402


def main() -> None:
    table = SideTable()
    begun = time.perf_counter()
    for name in SIDE_FILES:
        raw = table.raw[name]
        damaged = [raw[:cut] for cut in cuts(raw)]
        damaged += [flipped(raw, at, bit) for at in range(len(raw)) for bit in range(8)]
        counts = {
            "right, unsaid": 0,
            "said on Home, kept aside": 0,
            "wrong, unsaid": 0,
            "read lost by the next write": 0,
            "choices lost by the next write": 0,
            "choices lost for good": 0,
        }
        for bytes_ in damaged:
            outcome = table.after_damage(name, bytes_)
            if outcome.noted and outcome.kept:
                counts["said on Home, kept aside"] += 1
            elif outcome.right:
                counts["right, unsaid"] += 1
            else:
                counts["wrong, unsaid"] += 1
            counts["read lost by the next write"] += outcome.lost_by_write > 0
            counts["choices lost by the next write"] += outcome.chosen_lost > 0
            counts["choices lost for good"] += outcome.chosen_lost > 0 and not outcome.kept
        print(f"{name}: {len(raw)} bytes, {len(raw)} cuts and {8 * len(raw)} flipped bits: {counts}")
    print(f"({time.perf_counter() - begun:.1f} s)")


if __name__ == "__main__":
    main()

"""Every bit of every byte of a small index flipped in turn (tests/test_index_damage.py samples
one bit in four bytes): prints how many listed right at once, how many were said, and that
none stayed wrong once the app opened again.

    .venv/bin/python tests/bench/index_flips.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from test_index_damage import Table  # noqa: E402


def main() -> None:
    table = Table(Path(tempfile.mkdtemp()))
    seen: dict[str, int] = {}
    for at in range(len(table.raw)):
        for bit in range(8):
            outcome = table.after_flip(at, bit)  # asserts: never wrong unsaid, right once reopened
            seen[outcome] = seen.get(outcome, 0) + 1
    print(f"index of {len(table.raw)} bytes, {sum(seen.values())} single-bit flips: {seen}; none wrong after reopening")


if __name__ == "__main__":
    main()

"""The door under a crowd of guessers: how long the table's phones wait to join by code.

    python tests/bench/door.py

A real server shares one game on 127.0.0.2; 40, then 200 addresses (127.1.x.y) post wrong
codes as fast as it answers for 6 s, while three phones type the right code (retrying when
told to wait). Printed: each joiner's wait, and how many wrong tries the server answered.
Goal (issue "nothing lost quietly", fourth round): every joiner in within 5 s.
Figures, not assertions; they swing with the machine's load.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from crowd_helpers import joiners_waits  # noqa: E402


def run() -> None:
    for guessers in (40, 200):
        waits, answered = joiners_waits(guessers)
        print(
            f"{guessers:>3} guessing addresses, {answered} wrong tries answered: joiners waited "
            + ", ".join(f"{wait:.2f} s" for wait in waits)
        )


if __name__ == "__main__":
    run()

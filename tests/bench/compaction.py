"""What would rewriting files in the background buy? (A benchmark, not a test.)

    python tests/bench/compaction.py                   # 500 and 10,000 events; 1,000 and 10,000 games
    python tests/bench/compaction.py --lengths 500 --sizes 1000

A file takes appended records until it holds `COMPACT_EVERY` (128 for a game, 1,024 for
the index), then the write after them rewrites it whole. A background compactor once
rewrote a file as soon as its game paused (`companion/store/compactor.py` until commit
d07b819). This measures what the records it spared cost
where a goal looks: opening a session of N events whose last 127 changes are appended
records, against the same session compacted (goal: a 10,000-event game opens in <= 150 ms),
and listing an archive cold whose index holds 1,023 appended entries, against the same
index compacted (goal: Home after a cold start <= 2 s). The two copies alternate, median
of 7 each. Recording itself is measured in store.py (its median never waits for a rewrite).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

for path in (Path(__file__).resolve().parents[2], Path(__file__).resolve().parents[1], Path(__file__).parent):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from archive_helpers import build  # noqa: E402
from store import NOTE, PLAYERS, play, session_file  # noqa: E402

from companion.store import Store  # noqa: E402
from companion.store.listing import new_session_id  # noqa: E402
from companion.store.storage import DiskFolder  # noqa: E402

RUNS = 7


def alternating(piled: Path, compacted: Path, measure: Callable[[Path], float]) -> tuple[float, float]:
    times: dict[Path, list[float]] = {piled: [], compacted: []}
    for _ in range(RUNS):
        for directory in (piled, compacted):
            times[directory].append(measure(directory))
    return statistics.median(times[piled]) * 1000, statistics.median(times[compacted]) * 1000


def opening(base: Path, length: int) -> tuple[float, float]:
    piled, compacted = base / f"open-{length}-piled", base / f"open-{length}-compacted"
    (piled / "sessions").mkdir(parents=True)
    session_id = new_session_id()
    DiskFolder(piled).write(f"sessions/{session_id}.json", session_file(play(length - 128, length), time.time()))
    store = Store(piled)
    game = store.open(session_id)
    for number in range(128):  # the first change writes the file whole, the others append
        amount = 1 if number % 2 == 0 else -1
        game.apply({"type": "adjust", "player": game.current_player or PLAYERS[0], "amount": amount, "note": NOTE})
    store.close()
    shutil.copytree(piled, compacted)
    with Store(compacted) as store:
        store.compact_now()

    def open_once(directory: Path) -> float:
        store = Store(directory)
        started = time.perf_counter()
        store.open(session_id)
        elapsed = time.perf_counter() - started
        store.close()
        return elapsed

    return alternating(piled, compacted, open_once)


def listing(base: Path, size: int) -> tuple[float, float]:
    piled, compacted = base / f"list-{size}-piled", base / f"list-{size}-compacted"
    made = build(DiskFolder(piled, durable=False), size, unfinished_every=5)
    with Store(piled) as store:
        store.sessions()
        for number in range(1023):
            store.rename(made[number % len(made)][0], f"Night {number}")
    shutil.copytree(piled, compacted)
    with Store(compacted) as store:
        store.sessions()
        store.compact_now()

    def list_once(directory: Path) -> float:
        store = Store(directory)
        started = time.perf_counter()
        store.sessions()
        elapsed = time.perf_counter() - started
        store.close()
        return elapsed

    return alternating(piled, compacted, list_once)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="500,10000")
    parser.add_argument("--sizes", default="1000,10000")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        base = Path(directory)
        for length in (int(text) for text in args.lengths.split(",")):
            piled, compacted = opening(base, length)
            print(f"open a game of {length:>6} events: 127 records {piled:7.1f} ms, compacted {compacted:7.1f} ms")
        for size in (int(text) for text in args.sizes.split(",")):
            piled, compacted = listing(base, size)
            print(f"list {size:>6} games cold:   1,023 records {piled:7.1f} ms, compacted {compacted:7.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

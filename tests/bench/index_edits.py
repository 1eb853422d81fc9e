"""Does the index's table class need TinyDB's private `_update_table`? (A benchmark, not a test.)

    python tests/bench/index_edits.py                  # 1,000 and 10,000 games
    python tests/bench/index_edits.py --sizes 1000 --rounds 20

Each edit of the index (a game created, renamed, deleted) goes through TinyDB's table API.
Stock TinyDB's `Table._update_table` walks the whole table twice per call (ids to numbers
and back); `companion/store/index.py` once overrode it to skip both walks. This builds an
archive (tests/archive_helpers.py), then times each edit in the store, alternating edit by
edit between the two table classes, in CPU time (the disk's moods do not reach it) and wall
time, and prints the medians. Goal it serves: a tap on Home at 10,000 games <= 16 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

for path in (Path(__file__).resolve().parents[2], Path(__file__).resolve().parents[1]):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from archive_helpers import build  # noqa: E402
from tinydb.table import Table  # noqa: E402

from companion.store import Store, index  # noqa: E402
from companion.store.storage import DiskFolder  # noqa: E402


class _Stock(Table):
    document_id_class = str  # type: ignore[assignment]  # session ids, as the store keys its table


OVERRIDE = getattr(index, "_ByName", None)  # absent once the override is gone


def use(table_class: type[Table], store: Store) -> None:
    index._IndexDB.table_class = table_class
    store._index._db._tables.clear()  # TinyDB keeps a table object per name: made again of the class


def measure(size: int, rounds: int) -> dict[str, dict[str, tuple[float, float]]]:
    classes: dict[str, type[Table]] = {"stock TinyDB": _Stock}
    if OVERRIDE is not None:
        classes["override"] = OVERRIDE
    with tempfile.TemporaryDirectory() as directory:
        build(DiskFolder(directory, durable=False), size, unfinished_every=5)
        store = Store(directory)
        store.sessions()
        store.compact_now()
        ids = [summary.id for summary in store.listing()]
        samples: dict[str, dict[str, list[tuple[float, float]]]] = {
            name: {"new": [], "rename": [], "delete": []} for name in classes
        }

        def timed(name: str, kind: str, edit: Callable[[], Any]) -> Any:
            started, started_cpu = time.perf_counter(), time.process_time()
            result = edit()
            samples[name][kind].append((time.process_time() - started_cpu, time.perf_counter() - started))
            return result

        for number in range(rounds):
            for name, table_class in classes.items():
                use(table_class, store)
                made = timed(name, "new", lambda: store.new("transamerica", ["Ann", "Bob"]))
                store.close_session(made.id or "")
                timed(name, "rename", lambda: store.rename(ids[number], f"Night {number}"))  # noqa: B023
                timed(name, "delete", lambda: store.delete(made.id or ""))  # noqa: B023
        store.close()
    return {
        name: {
            kind: (statistics.median(cpu for cpu, _ in found), statistics.median(wall for _, wall in found))
            for kind, found in kinds.items()
        }
        for name, kinds in samples.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    print(f"{'games':>6} | {'table class':>12} | {'new CPU / wall':>18} | {'rename':>18} | {'delete':>18}")
    for size in (int(text) for text in args.sizes.split(",")):
        for name, kinds in measure(size, args.rounds).items():
            cells = " | ".join(f"{cpu * 1000:6.2f} / {wall * 1000:6.2f} ms" for cpu, wall in kinds.values())
            print(f"{size:>6} | {name:>12} | {cells}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Statistics, export and import over 1,000 and 10,000 games. (A benchmark, not a test.)

    python tests/bench/archive.py                  # 1,000 and 10,000 games, one in five unfinished
    python tests/bench/archive.py --sizes 1000     # quicker
    python tests/bench/archive.py --durable        # imports fsync every file, as the app does

For each size it builds a data folder (tests/archive_helpers.py: valid games of each kind
with index entries as an earlier version saved them, without final results), then times:

- the first `Store.finished()`: the upgrade, each finished game read once and its result kept;
- statistics as the screen asks for them (`Store.finished()` then `stats.statistics`, with
  and without a game filter), median of 7: goal <= 200 ms at 10,000 games;
- `export_json` (every game read and written) and `export_csv` (from the kept results);
- `import_json` of that export into an empty data folder (every game replayed first).

Figures are printed, never asserted; on a shared machine they are noisy.
"""

from __future__ import annotations

import argparse
import shutil
import statistics as median_of
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from archive_helpers import build  # noqa: E402

from companion.aftergame import stats  # noqa: E402
from companion.aftergame.archive import export_csv, export_json, import_json  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.store.storage import DiskFolder  # noqa: E402


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = action()
    return (time.perf_counter() - start) * 1000, result


def median_ms(action: Callable[[], Any], repeats: int = 7) -> float:
    return median_of.median(timed(action)[0] for _ in range(repeats))


def run(size: int, work: Path, durable: bool) -> None:
    folder = work / f"games-{size}"
    build(DiskFolder(folder, durable=False), size, 5)
    with Store(folder) as store:
        upgrade_ms, finished = timed(store.finished)
        overall_ms = median_ms(lambda: stats.statistics(store.finished()))
        one_game_ms = median_ms(lambda: stats.statistics(store.finished(), game="transamerica"))
        export_ms, data = timed(lambda: export_json(store))
        csv_ms, table = timed(lambda: export_csv(store))
    target = work / f"imported-{size}"
    with Store(target, durable=durable) as empty:
        import_ms, report = timed(lambda: import_json(empty, data))
    print(f"{size:>6} games ({len(finished)} finished)")
    print(f"  first finished(), results worked out and kept  {upgrade_ms:9.0f} ms")
    print(f"  statistics, every game (median of 7)           {overall_ms:9.1f} ms   goal <= 200 ms at 10,000")
    print(f"  statistics, one game (median of 7)             {one_game_ms:9.1f} ms")
    print(f"  export_json                                    {export_ms:9.0f} ms   {len(data) / 2**20:.1f} MB")
    print(f"  export_csv                                     {csv_ms:9.0f} ms   {len(table) / 2**20:.1f} MB")
    print(
        f"  import_json into an empty folder{' (durable)' if durable else ''}"
        f"{'' if durable else '            '}  {import_ms:9.0f} ms   "
        f"{len(report.imported)} imported, {len(report.refused)} refused"
    )
    shutil.rmtree(folder)
    shutil.rmtree(target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--durable", action="store_true")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        for size in (int(text) for text in options.sizes.split(",")):
            run(size, Path(work), options.durable)


if __name__ == "__main__":
    main()

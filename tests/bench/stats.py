"""A player's page and the statistics with the table's choices, over 1,000 and 10,000 games.
(A benchmark, not a test.)

    python tests/bench/stats.py                # 1,000 and 10,000 games, one in five unfinished
    python tests/bench/stats.py --sizes 1000   # quicker

For each size it builds a data folder (tests/archive_helpers.py, as tests/bench/archive.py
does), lets the first `Store.finished()` keep every result, leaves one finished game in ten
out of statistics (`counted.json`), then times, median of 7, what the screens ask:
`AppData.statistics()` (every game, the choices read from the file) and
`AppData.player_page()` for the first player. Figures are printed, never asserted.
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
from companion.app.data import AppData  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.store.file_format import encode  # noqa: E402
from companion.store.storage import DiskFolder  # noqa: E402


def median_ms(action: Callable[[], Any], repeats: int = 7) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return median_of.median(times)


def run(size: int, work: Path) -> None:
    folder = work / f"games-{size}"
    build(DiskFolder(folder, durable=False), size, 5)
    with Store(folder) as store:
        data = AppData(store)
        finished = store.finished()
        left_out = {summary.id: False for summary in finished[::10]}
        store.folder.write(stats.COUNTED, encode({"counted": left_out}))
        name = finished[0].players[0]
        overall_ms = median_ms(data.statistics)
        page_ms = median_ms(lambda: data.player_page(name))
        overall = data.statistics()
        page = data.player_page(name)
    assert page is not None
    print(f"{size:>6} games ({len(finished)} finished, {overall.left_out} left out, {overall.stopped} stopped)")
    print(f"  statistics, every game (median of 7)   {overall_ms:9.1f} ms")
    print(f"  {name}'s page (median of 7)   {page_ms:9.1f} ms   {page.plays} games counted")
    shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        for size in (int(text) for text in options.sizes.split(",")):
            run(size, Path(work))


if __name__ == "__main__":
    main()

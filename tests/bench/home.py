"""Does the home screen cost the same at 10 games as at 10,000? (A benchmark, not a test.)

    python tests/bench/home.py                      # 10 and 10,000 games, one in five unfinished
    python tests/bench/home.py --sizes 10,2000      # quicker
    python tests/bench/home.py --no-browser         # without Chromium

For each archive size it builds a data folder (tests/archive_helpers.py: valid games of
each kind, their index entries with status lines, as the app saves them), then in a fresh
process for each measurement:

- in-process (tests/flet_harness.py, no Flutter client): the first drawing of Home after a
  cold start (store opened, list read, page drawn: time and bytes sent), the process's
  resident memory before the store is opened, after Home is drawn, and after the taps and
  five renames of a game (each rewrites the index), and taps on Home:
  asking to delete the newest unfinished game and keeping it (5 times), showing more games
  (3 times in each part), typing a search (5 keystrokes), each timed from the tap to its
  last patch (median) with the bytes of its largest patch;
- in Chromium (tests/e2e/harness.py), with the browser already running: from starting
  `companion --web --data <folder>` (as a user starts it) to Home shown with the newest
  unfinished game's status line; of that, until the server answers, and from opening the
  page to Home shown.

Goals (10,000 games of which 2,000 unfinished): Home ready in Chromium <= 2 s after a
cold start; a tap on Home <= 16 ms with a patch <= 20 KB; memory after Home <= 10 MB
above the same at 10 games. Figures are printed, never asserted; on a shared machine they
are noisy: compare the rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from archive_helpers import build  # noqa: E402

from companion.store.storage import DiskFolder  # noqa: E402


def rss_mb() -> float:
    """This process's resident memory now (Linux /proc; ru_maxrss, the peak, elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def in_process(directory: str) -> dict[str, Any]:
    """Draw Home over the data folder and tap around it; the figures as a dict."""
    from flet_harness import Screen

    from companion.app.data import AppData
    from companion.app.main import make_main
    from companion.store import Store

    result: dict[str, Any] = {"rss_before": rss_mb()}
    started = time.perf_counter()
    data = AppData(Store(directory))
    async with Screen(make_main(data)) as screen:
        result["home_ms"] = (time.perf_counter() - started) * 1000
        result["home_kb"] = screen.dispatches[0].bytes_sent / 1024
        result["rss_after"] = rss_mb()
        taps: dict[str, list[tuple[float, float]]] = {}

        async def tap(kind: str, key: str, text: str | None = None) -> None:
            if not screen.exists(key):
                return
            dispatch = await (screen.type(key, text) if text is not None else screen.tap(key))
            taps.setdefault(kind, []).append((dispatch.elapsed * 1000, dispatch.bytes_sent / 1024))

        newest = data.home().in_progress[0].id
        for _ in range(5):
            await tap("ask to delete", f"delete-{newest}")
            await tap("keep it", f"keep-{newest}")
        for key in ("more-in-progress", "more-finished"):
            for _ in range(3):
                await tap(f"show more ({key})", key)
        for text in ("zo", "zoë", "", "great plains", ""):
            await tap("search (a keystroke)", "search", text)
        result["rss_taps"] = rss_mb()
        for number in range(5):  # each rewrites the index: memory the process keeps from that
            data.store.rename(newest, f"Renamed {number}")
        result["rss_edits"] = rss_mb()
    result["taps"] = {kind: (statistics.median(ms for ms, _ in samples), max(kb for _, kb in samples))
                      for kind, samples in taps.items()}
    return result


def in_chromium(directory: Path, status: str) -> dict[str, float] | None:
    """Seconds from `companion --web --data <folder>` started to Home shown with `status`.

    Chromium is launched first (a phone's browser is running before its user opens the
    app), then the command is started as a user starts it; the page is opened as soon as
    the server answers, and semantics are turned on as soon as Flutter can take them."""
    from e2e.harness import find_chromium, open_browsers, serve_cli

    if find_chromium() is None:
        return None
    with open_browsers(timeout_ms=60_000) as browsers:
        page = browsers.new_page("about:blank", load=False)
        started = time.perf_counter()
        with serve_cli(["--web"], data_dir=directory, startup_timeout=60) as server:
            served = time.perf_counter()
            page.url = server.url
            page.page.goto(server.url)
            page.enable_semantics(poll_ms=20)
            # A game's card is a button named by its words (title, status line, when last played).
            # (Playwright sends a pattern as /source/: a slash in it must be escaped.)
            named = re.compile(re.escape(status).replace("/", "\\/"))
            page.button(named).first.wait_for(timeout=60_000)
            ready = time.perf_counter()
    return {"cold_s": ready - started, "server_s": served - started, "page_s": ready - served}


def child(directory: str) -> None:
    print(json.dumps(asyncio.run(in_process(directory))))


def measure(directory: Path) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    output = subprocess.run([sys.executable, __file__, "--child", str(directory)], env=env, check=True,
                            capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return result


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,10000")
    parser.add_argument("--unfinished-every", type=int, default=5, help="one game in this many is unfinished")
    parser.add_argument("--no-browser", action="store_true")
    options = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="companion-home-bench-"))
    rows = []
    try:
        for size in (int(size) for size in options.sizes.split(",")):
            directory = base / f"archive-{size}"
            made = build(DiskFolder(directory, durable=False), size, options.unfinished_every)
            newest = next(kind for _, kind in reversed(made) if not kind.session.is_over)
            result = measure(directory)
            browser = None if options.no_browser else in_chromium(directory, newest.entry["status"])
            rows.append((size, result, browser))
            shutil.rmtree(directory, ignore_errors=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"Python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} CPUs; "
          f"one game in {options.unfinished_every} unfinished")
    header = (f"{'games':>7} | {'Home drawn':>10} {'KB':>7} | {'RSS before':>10} {'after':>8} | "
              f"{'Chromium cold':>13} {'server':>7} {'page':>7}")
    print(header)
    print("-" * len(header))
    for size, result, browser in rows:
        cold = (f"{browser['cold_s']:>11.2f} s {browser['server_s']:>5.2f} s {browser['page_s']:>5.2f} s"
                if browser else f"{'-':>13} {'-':>7} {'-':>7}")
        print(f"{size:>7} | {result['home_ms']:>7.0f} ms {result['home_kb']:>7.1f} | "
              f"{result['rss_before']:>7.1f} MB {result['rss_after']:>5.1f} MB | {cold}")
    if len(rows) > 1:
        growth = rows[-1][1]["rss_after"] - rows[0][1]["rss_after"]
        print(f"memory after Home, {rows[-1][0]} games against {rows[0][0]}: {growth:+.1f} MB (goal <= 10 MB)")
        taps = rows[-1][1]["rss_taps"] - rows[0][1]["rss_taps"]
        edits = rows[-1][1]["rss_edits"] - rows[0][1]["rss_edits"]
        print(f"  after the taps below (more cards drawn at {rows[-1][0]}): {taps:+.1f} MB; and after 5 renames "
              f"(each rewrites the index): {edits:+.1f} MB")
    print()
    print(f"{'tap on Home':<34}" + "".join(f"{size:>10} games" for size, _, _ in rows))
    kinds = sorted({kind for _, result, _ in rows for kind in result["taps"]})
    for kind in kinds:
        cells = []
        for _, result, _ in rows:
            figures = result["taps"].get(kind)
            cells.append(f"{figures[0]:>7.1f} ms {figures[1]:>5.1f} KB" if figures else f"{'-':>19}")
        print(f"{kind:<34}" + " ".join(cells))
    print("tap = median from the tap to its last patch, in-process; KB = the largest patch sent for it "
          "(goals: <= 16 ms, <= 20 KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

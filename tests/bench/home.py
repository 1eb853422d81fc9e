"""Does the home screen cost the same at 10 games as at 10,000? (A benchmark, not a test.)

    python tests/bench/home.py                      # 10 and 10,000 games, one in five unfinished
    python tests/bench/home.py --sizes 10,2000      # quicker
    python tests/bench/home.py --no-browser         # without Chromium
    python tests/bench/home.py --no-browser --sizes 10000 --cpu --rounds 5   # to compare two commits

For each archive size it builds a data folder (tests/archive_helpers.py: valid games of
each kind, their index entries with status lines, as the app saves them), then in a fresh
process for each measurement:

- in-process (tests/flet_harness.py, no Flutter client), on a later start of the day (its
  backup already made): the first drawing of Home after a
  cold start (store opened, list read, page drawn: time and bytes sent), the process's
  resident memory before the store is opened, after Home is drawn, and after the taps and
  five renames of a game (each rewrites the index), and taps on Home:
  asking to delete the newest unfinished game and keeping it (5 times), deleting a game
  (asked, then "Delete": 5 games), showing more games (3 times in each part), typing a
  search (5 keystrokes), each timed from the tap to its last patch (median) with the bytes
  of its largest patch; and the index edits behind other screens, timed as the store does
  them (median of 5): a new game, a rename, a game finished (stopped by the table);
- the day's first start (no backup yet today), in a fresh process too: Home drawn, then
  the backup running in its own thread while a search is typed (a keystroke every 50 ms):
  the keystrokes' times during it, the backup's time, resident memory sampled every 5 ms
  through it (peak above Home's) and one second after it;
- in Chromium (tests/e2e/harness.py), with the browser already running: from starting
  `companion --web --data <folder>` (as a user starts it) to Home shown with the newest
  unfinished game's status line; of that, until the server answers, and from opening the
  page to Home shown.

Goals (10,000 games of which 2,000 unfinished): Home ready in Chromium <= 2 s after a
cold start; a tap on Home (the delete too) and each index edit <= 16 ms, with a patch
<= 20 KB; memory after Home <= 10 MB above the same at 10 games; during the day's first
backup, memory within +10 MB of before and no keystroke waiting on it. Figures are
printed, never asserted; on a shared machine they are noisy: compare the rows of one run.
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

CPU = False  # --cpu: taps timed in the process's CPU time
ROUNDS = 1  # --rounds: the search keystrokes typed this many times over


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
        for gone in [summary.id for summary in data.home().finished[:5]]:
            await tap("(ask, then) delete", f"delete-{gone}")
            taps["(ask, then) delete"].pop()  # the asking is timed above
            await tap("(ask, then) delete", f"confirm-delete-{gone}")
        for key in ("more-in-progress", "more-finished"):
            for _ in range(3):
                await tap(f"show more ({key})", key)
        for _ in range(ROUNDS):
            for text in ("zo", "zoë", "", "great plains", ""):
                await tap("search (a keystroke)", "search", text)
        result["rss_taps"] = rss_mb()
        edits: dict[str, list[float]] = {"new game": [], "rename": [], "finish (stopped)": []}
        for number in range(5):  # each is an index edit: memory the process keeps from that too
            edits["rename"].append(timed(data.store.rename, newest, f"Renamed {number}"))
            started = time.perf_counter()
            made = data.store.new("heartland", ["Ann", "Bob"])
            edits["new game"].append((time.perf_counter() - started) * 1000)
            edits["finish (stopped)"].append(timed(made.apply, {"type": "end_game", "note": "bench"}))
        result["rss_edits"] = rss_mb()
        result["edits"] = {kind: statistics.median(times) for kind, times in edits.items()}
    result["taps"] = {
        kind: (statistics.median(ms for ms, _ in samples), max(kb for _, kb in samples))
        for kind, samples in taps.items()
    }
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


def timed(work: Any, *args: Any) -> float:
    started = time.perf_counter()
    work(*args)
    return (time.perf_counter() - started) * 1000


async def first_start(directory: str) -> dict[str, Any]:
    """The day's first start: Home drawn, then its backup (due: none yet today) while a search is typed."""
    import threading

    from flet_harness import Screen

    from companion.app.data import AppData
    from companion.app.main import make_main
    from companion.store import Store

    result: dict[str, Any] = {}
    started = time.perf_counter()
    data = AppData(Store(directory))
    span: list[float] = []  # when the backup's work started and ended
    backup_if_due = data.backup_if_due

    def timed_backup(*args: Any) -> Any:
        span.append(time.perf_counter())
        try:
            return backup_if_due(*args)
        finally:
            span.append(time.perf_counter())

    data.backup_if_due = timed_backup  # type: ignore[method-assign]
    async with Screen(make_main(data)) as screen:
        result["home_ms"] = (time.perf_counter() - started) * 1000
        home_rss = result["rss_home"] = rss_mb()
        peak = [home_rss]
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], rss_mb())
                time.sleep(0.005)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        keystrokes: list[float] = []
        words = "great plains"
        deadline = time.perf_counter() + 600
        typed = 0
        while len(span) < 2 and time.perf_counter() < deadline:
            typed += 1
            running = len(span) == 1
            dispatch = await screen.type("search", words[: typed % len(words) + 1])
            if running and len(span) == 1:  # the whole keystroke inside the backup's work
                keystrokes.append(dispatch.elapsed * 1000)
            await asyncio.sleep(0.05)
        done.set()
        sampler.join()
        await asyncio.sleep(1.0)
        result["rss_after"] = rss_mb()
        result["rss_peak_above_home"] = peak[0] - home_rss
        result["backup_s"] = span[1] - span[0] if len(span) == 2 else None
        result["keystrokes"] = (statistics.median(keystrokes), max(keystrokes), len(keystrokes)) if keystrokes else None
    return result


def child(directory: str, mode: str = "--child") -> None:
    if "--cpu" in sys.argv:
        from flet_harness import use_cpu_clock

        use_cpu_clock()
    print(json.dumps(asyncio.run(first_start(directory) if mode == "--first-start" else in_process(directory))))


def measure(directory: Path, mode: str = "--child") -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    extra = [*(["--cpu"] if CPU else []), f"--rounds={ROUNDS}"]
    output = subprocess.run(
        [sys.executable, __file__, mode, str(directory), *extra], env=env, check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return result


def main() -> int:
    global CPU, ROUNDS
    if len(sys.argv) > 2 and sys.argv[1] in ("--child", "--first-start"):
        ROUNDS = next((int(arg.split("=")[1]) for arg in sys.argv if arg.startswith("--rounds=")), 1)
        child(sys.argv[2], sys.argv[1])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,10000")
    parser.add_argument("--unfinished-every", type=int, default=5, help="one game in this many is unfinished")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time taps in the process's CPU time (to compare two commits on a shared machine)",
    )
    parser.add_argument("--rounds", type=int, default=1, help="times the five search keystrokes are typed")
    options = parser.parse_args()
    CPU, ROUNDS = options.cpu, options.rounds
    base = Path(tempfile.mkdtemp(prefix="companion-home-bench-"))
    rows = []
    try:
        for size in (int(size) for size in options.sizes.split(",")):
            directory = base / f"archive-{size}"
            made = build(DiskFolder(directory, durable=False), size, options.unfinished_every)
            # Anything the background would rewrite is rewritten now, so that it adds nothing
            # to the backup's memory (the helper writes the index as this version does).
            from companion.store import Store

            upgraded = Store(directory)
            upgraded.compact_now()
            upgraded.close()
            newest = next(kind for _, kind in reversed(made) if not kind.session.is_over)
            first = measure(directory, "--first-start")  # it makes today's backup: later starts find it
            result = measure(directory)
            result["first"] = first
            browser = None if options.no_browser else in_chromium(directory, newest.entry["status"])
            rows.append((size, result, browser))
            shutil.rmtree(directory, ignore_errors=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(
        f"Python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} CPUs; "
        f"one game in {options.unfinished_every} unfinished"
    )
    header = (
        f"{'games':>7} | {'Home drawn':>10} {'KB':>7} | {'RSS before':>10} {'after':>8} | "
        f"{'Chromium cold':>13} {'server':>7} {'page':>7}"
    )
    print(header)
    print("-" * len(header))
    for size, result, browser in rows:
        cold = (
            f"{browser['cold_s']:>11.2f} s {browser['server_s']:>5.2f} s {browser['page_s']:>5.2f} s"
            if browser
            else f"{'-':>13} {'-':>7} {'-':>7}"
        )
        print(
            f"{size:>7} | {result['home_ms']:>7.0f} ms {result['home_kb']:>7.1f} | "
            f"{result['rss_before']:>7.1f} MB {result['rss_after']:>5.1f} MB | {cold}"
        )
    if len(rows) > 1:
        growth = rows[-1][1]["rss_after"] - rows[0][1]["rss_after"]
        print(f"memory after Home, {rows[-1][0]} games against {rows[0][0]}: {growth:+.1f} MB (goal <= 10 MB)")
        taps = rows[-1][1]["rss_taps"] - rows[0][1]["rss_taps"]
        edits = rows[-1][1]["rss_edits"] - rows[0][1]["rss_edits"]
        print(
            f"  after the taps below (more cards drawn at {rows[-1][0]}): {taps:+.1f} MB; and after 5 renames "
            f"(each rewrites the index): {edits:+.1f} MB"
        )
    print()
    print(f"{'tap on Home':<34}" + "".join(f"{size:>10} games" for size, _, _ in rows))
    kinds = sorted({kind for _, result, _ in rows for kind in result["taps"]})
    for kind in kinds:
        cells = []
        for _, result, _ in rows:
            figures = result["taps"].get(kind)
            cells.append(f"{figures[0]:>7.1f} ms {figures[1]:>5.1f} KB" if figures else f"{'-':>19}")
        print(f"{kind:<34}" + " ".join(cells))
    print(
        "tap = median from the tap to its last patch, in-process; KB = the largest patch sent for it "
        "(goals: <= 16 ms, <= 20 KB)"
    )
    print()
    print(f"{'index edit (store)':<34}" + "".join(f"{size:>10} games" for size, _, _ in rows))
    for kind in rows[0][1]["edits"]:
        print(f"{kind:<34}" + " ".join(f"{result['edits'][kind]:>16.1f} ms" for _, result, _ in rows))
    print("median of 5 (goal <= 16 ms)")
    print()
    print("the day's first start (its backup due)")
    print(
        f"{'games':>7} | {'Home drawn':>10} | {'backup':>8} | {'RSS peak above Home':>19} {'after':>8} | "
        f"{'keystroke during it: median':>27} {'max':>8} {'n':>4}"
    )
    for size, result, _ in rows:
        first = result["first"]
        keys = first["keystrokes"]
        backup = f"{first['backup_s']:>6.2f} s" if first["backup_s"] is not None else f"{'-':>8}"
        typed = f"{keys[0]:>24.1f} ms {keys[1]:>5.1f} ms {keys[2]:>4}" if keys else f"{'-':>27} {'-':>8} {'-':>4}"
        print(
            f"{size:>7} | {first['home_ms']:>7.0f} ms | {backup} | {first['rss_peak_above_home']:>16.1f} MB "
            f"{first['rss_after'] - first['rss_home']:>+5.1f} MB | {typed}"
        )
    print(
        "RSS after = one second after the backup, against Home drawn (goals: peak within +10 MB, "
        "keystrokes as quick as without it)"
    )
    if len(rows) > 1:
        print()
        print(f"ratios, {rows[-1][0]} games against {rows[0][0]}:")
        small, big = rows[0][1], rows[-1][1]
        for kind in sorted(set(small["taps"]) & set(big["taps"])):
            print(f"  {kind:<32} {big['taps'][kind][0] / max(small['taps'][kind][0], 1e-9):>6.2f}x")
        for kind in small["edits"]:
            print(f"  {kind:<32} {big['edits'][kind] / max(small['edits'][kind], 1e-9):>6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

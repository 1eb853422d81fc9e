"""How long from a tap to the screen's patch? (A benchmark, not a test.)

    python tests/bench/ui.py                 # Heartland, 4 players, 300 events, data on disk
    python tests/bench/ui.py --turns 10      # quicker
    python tests/bench/ui.py --memory        # the store in memory (no file writes, no fsync)
    python tests/bench/ui.py --memory --cpu  # taps timed in CPU time: to compare two commits

The busiest screen: Heartland with 4 players and every variant on (tolls, weigh stations,
upgrades), a session that already holds 300 events. The app runs in-process over the
harness's recording connection (tests/flet_harness.py); each tap is timed from the event
being dispatched to the last patch sent for it (`Dispatch.elapsed`), which includes the
rules check, the durable save of the event, rebuilding the screen, the diff and its
msgpack encoding. Nothing goes over a network and no Flutter client draws anything.

It plays whole turns (move, open the sheet, load or unload, end the turn) plus undo, redo,
a refused tap, the correction sheet's amount chips, opening the log (newest 100 lines) and
showing all its 300+ lines, and prints per tap kind: count, median, p95, max and bytes sent,
then the median over all taps and the kinds whose median is over the goal (<= 16 ms median),
and the bytes sent to the page per tap over all taps (median, p95; goal <= 10 KB median):
the screen is one declarative component, so a tap sends a diff, not the page.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from flet_harness import Dispatch, Screen, use_cpu_clock  # noqa: E402

from companion.app.data import AppData  # noqa: E402
from companion.app.main import make_main  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.text.messages import RuleError  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
OPTIONS = {"target": "rulebook", "alternate_routes": True, "truck_stops": True}
LOG_EVENTS = 300
GOAL_MS = 16.0
GOAL_KB = 10.0


def fill_log(session: Session, count: int) -> None:
    """Plausible whole turns (move, toll, load or unload, end) until the log holds at least `count` events."""
    turn = 0
    while len(session.events) < count:
        player = session.state.current_player
        truck = session.state.truck(player)
        plan: list[dict[str, Any]] = [{"type": "move", "player": player, "spaces": 2, "pay": "fuel"}]
        if turn % 3 == 0:
            plan.append({"type": "toll", "player": player})
        if truck.carried("corn") >= 2 and turn % 2:
            plan.append({"type": "unload", "player": player, "good": "corn", "cubes": 2, "price": 1})
        elif truck.cubes <= 6:
            plan.append({"type": "load", "player": player, "good": "corn", "cubes": 2})
        else:
            plan.append({"type": "discard", "player": player, "forced": False})
        for event in plan:
            try:
                session.apply(event)
            except RuleError:
                continue
        end_turn = {"type": "end_turn", "player": player}
        try:
            session.apply(end_turn)
        except RuleError as error:  # the action was refused: the table ends the turn anyway
            if not error.overridable:
                raise
            session.apply({**end_turn, "override": True})
        turn += 1


async def play(screen: Screen, turns: int) -> dict[str, list[Dispatch]]:
    taps: dict[str, list[Dispatch]] = defaultdict(list)

    async def tap(kind: str, key: str) -> None:
        taps[kind].append(await screen.tap(key))

    for turn in range(turns):
        await tap("move (record)", "move-fuel-1")
        await tap("refused move (notice)", "move-cash-1")
        await tap("undo", "undo")
        await tap("redo", "redo")
        cargo = screen.text_of("cubes-" + current(screen).lower())
        cubes = int(cargo.split("/")[0])
        if cubes >= 2 and turn % 2:
            await tap("open unload sheet", "unload")
            await tap("unload (record)", "unload-corn-1")
        elif cubes <= 6:
            await tap("open load sheet", "load")
            await tap("load (record)", "load-corn-1")
        else:
            await tap("discard (record)", "discard")
        if turn % 4 == 0:
            await tap("open correction sheet", "adjust-" + current(screen).lower())
            await tap("amount chip in a sheet", "adjust-1")
            await tap("close sheet", "panel-close")
            await tap("open log (newest 100)", "log")
            await tap("log: show all 300+", "log-older")
            await tap("close log", "panel-close")
        await tap("end turn (record)", "end-turn")
    return taps


def current(screen: Screen) -> str:
    subtitle = screen.text_of("subtitle")  # "Round 3 · Ann's turn"
    return subtitle.split(" · ")[-1].split("'")[0]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def report(taps: dict[str, list[Dispatch]], where: str, events: int) -> None:
    print(f"Heartland, {len(PLAYERS)} players, all variants, {events} events in the log; store {where}")
    print("tap -> last patch sent (ms), in-process")
    print(f"{'tap kind':<26}{'n':>5}{'median':>9}{'p95':>9}{'max':>9}{'KB sent':>9}")
    everything: list[float] = []
    for kind, dispatches in taps.items():
        samples = [d.elapsed * 1000 for d in dispatches]
        everything.extend(samples)
        kilobytes = statistics.median(d.bytes_sent for d in dispatches) / 1024
        print(
            f"{kind:<26}{len(samples):>5}{statistics.median(samples):>9.2f}{percentile(samples, 0.95):>9.2f}"
            f"{max(samples):>9.2f}{kilobytes:>9.1f}"
        )
    median = statistics.median(everything)
    print(
        f"{'all taps':<26}{len(everything):>5}{median:>9.2f}{percentile(everything, 0.95):>9.2f}{max(everything):>9.2f}"
    )
    slow = [
        f"{kind} ({statistics.median(d.elapsed * 1000 for d in ds):.2f} ms)"
        for kind, ds in taps.items()
        if statistics.median(d.elapsed * 1000 for d in ds) > GOAL_MS
    ]
    verdict = "meets" if median <= GOAL_MS else "misses"
    print(
        f"goal: median <= {GOAL_MS:.0f} ms; all taps {median:.2f} ms: {verdict} it; "
        f"kinds over it: {', '.join(slow) if slow else 'none'}"
    )
    sizes = [d.bytes_sent / 1024 for dispatches in taps.values() for d in dispatches]
    size_median = statistics.median(sizes)
    verdict = "meets" if size_median <= GOAL_KB else "misses"
    print(
        f"bytes sent to the page per tap: median {size_median:.1f} KB, p95 {percentile(sizes, 0.95):.1f} KB, "
        f"max {max(sizes):.1f} KB; goal: median <= {GOAL_KB:.0f} KB: {verdict} it"
    )


async def bench(directory: Path | None, turns: int) -> None:
    store = Store.in_memory() if directory is None else Store(directory)
    data = AppData(store)
    session = data.new("heartland", PLAYERS, OPTIONS)
    fill_log(session, LOG_EVENTS)
    assert session.id is not None
    data.remember_screen(session.id)
    events = len(session.events)
    async with Screen(make_main(data)) as screen:
        assert screen.exists("end-turn"), "the app did not resume into the game"
        taps = await play(screen, turns)
    report(taps, "in memory" if directory is None else "on disk (durable writes)", events)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40, help="turns to play (default 40)")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time taps as process CPU time: steadier on a shared machine, to compare commits",
    )
    parser.add_argument("--memory", action="store_true", help="keep the store in memory")
    args = parser.parse_args()
    if args.cpu:
        use_cpu_clock()
    if args.memory:
        asyncio.run(bench(None, args.turns))
    else:
        with tempfile.TemporaryDirectory(prefix="companion-ui-bench-") as directory:
            asyncio.run(bench(Path(directory), args.turns))
    return 0


if __name__ == "__main__":
    sys.exit(main())

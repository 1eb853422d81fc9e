"""How long does the log sheet take on a long game? (A benchmark, not a test.)

    python tests/bench/log.py                        # Heartland at 500 / 2,000 / 10,000 events
    python tests/bench/log.py --events 2000 --opens 5
    python tests/bench/log.py --games transamerica --events 500 2000
    python tests/bench/log.py --profile 2000         # cProfile of "show whole log" at 2,000 events
    python tests/bench/log.py --events 2000 --cpu    # taps timed in CPU time: to compare two commits

For each game and length it builds a session of that many events in an in-memory store and
closes it; then, a few times over, it opens the app in-process over the harness's recording
connection (tests/flet_harness.py), which resumes the game (replaying its saved log), and
taps the log button (the sheet shows the newest 100 lines), "show the older lines" (the
whole log) and Close, again and again. Each tap is timed from the event being dispatched
to the last patch sent for it (`Dispatch.elapsed`): the lines' sentences and rounds,
building the sheet, the diff and its msgpack encoding.

Printed per tap kind: the median of the first such tap after each opening (the first look
at the whole log works out every line's round), the median and the fastest of the taps
after it, and the bytes sent per tap. Goal: "show whole log" <= 50 ms at 2,000 events,
growing linearly with the log.

Heartland and TransAmerica give every line its round (from the state before its event);
Great Plains' lines are sentences only. Only Heartland is played to such lengths: a
TransAmerica or Great Plains screen of thousands of rounds or zones is slow to draw
whatever the log does (TransAmerica's table has a column per round).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import pstats
import statistics
import sys
from collections.abc import Callable
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

LENGTHS = (500, 2000, 10000)
GOAL_MS = 50.0
GOAL_AT = 2000


def heartland(session: Session, events: int) -> None:
    """Whole turns (move, load or unload, end); money is taken back now and then so nobody reaches the target."""
    players = session.players
    while session.cursor < events:
        player = session.current_player or ""
        if session.state.truck(player).money > 500:
            session.apply({"type": "adjust", "player": player, "amount": -400, "note": "bench"})
            continue
        carried = session.state.truck(player).carried("corn")
        action = (
            {"type": "unload", "player": player, "good": "corn", "cubes": 1, "price": 2}
            if carried
            else {"type": "load", "player": player, "good": "corn", "cubes": 1}
        )
        for event in (
            {"type": "move", "player": player, "spaces": 1 + session.cursor % 2, "pay": "fuel"},
            action,
            {"type": "end_turn", "player": player},
        ):
            session.apply(event)
    assert session.current_player in players


def transamerica(session: Session, events: int) -> None:
    """Rounds in which everyone connected: nobody loses a point, so the game goes on."""
    while session.cursor < events:
        session.apply({"type": "end_round", "missing": dict.fromkeys(session.players, 0)})


def great_plains(session: Session, events: int) -> None:
    """Caves, all 40 tokens, then prairie zones counted until the log is long enough."""
    for kind, count in (("place_cave", 6), ("place_token", 40)):
        for _ in range(count):
            session.apply({"type": kind, "player": session.current_player})
    while session.cursor < events:
        session.apply({"type": "zone", "spaces": 3, "water": session.cursor % 2, "tokens": {}})


GAMES: dict[str, tuple[list[str], dict[str, Any], Callable[[Session, int], None]]] = {
    "heartland": (["Ann", "Bob", "Cy"], {"target": 999}, heartland),
    "transamerica": (["Ann", "Bob", "Cy", "Dee"], {}, transamerica),
    "great_plains": (["Ann", "Bob"], {}, great_plains),
}


def game_data(game_id: str, events: int) -> AppData:
    """An app whose store holds one game of `events` events, saved and closed, to be resumed on its game screen."""
    players, options, fill = GAMES[game_id]
    data = AppData(Store.in_memory())
    session = data.new(game_id, players, options)
    fill(session, events)
    assert session.cursor >= events and session.id is not None
    data.remember_screen(session.id)
    data.close_session(session.id)  # each screen opens it afresh: the first look at its log is a cold one
    return data


async def read_log(data: AppData, opens: int, repeats: int) -> dict[str, tuple[list[Dispatch], list[Dispatch]]]:
    """Per tap kind: the first tap after each opening of the game, and the taps after it."""
    taps: dict[str, tuple[list[Dispatch], list[Dispatch]]] = {
        "open log (newest 100)": ([], []),
        "show whole log": ([], []),
        "close log": ([], []),
    }
    for _ in range(opens):
        gc.collect()  # not the garbage of building the game or of the last screen
        async with Screen(make_main(data)) as screen:
            assert screen.exists("log"), "the app did not resume into the game"
            for repeat in range(repeats):
                for (first, later), key in zip(taps.values(), ("log", "log-older", "panel-close"), strict=True):
                    (later if repeat else first).append(await screen.tap(key))
    return taps


def report(game_id: str, events: int, taps: dict[str, tuple[list[Dispatch], list[Dispatch]]]) -> tuple[float, float]:
    """Print one row per tap kind; return the medians of "show whole log", first and again (ms)."""
    for kind, (first, later) in taps.items():
        cold = [d.elapsed * 1000 for d in first]
        warm = [d.elapsed * 1000 for d in later]
        kilobytes = statistics.median(d.bytes_sent for d in first + later) / 1024
        print(
            f"{game_id:<14}{events:>8}  {kind:<24}{statistics.median(cold):>9.2f}{statistics.median(warm):>9.2f}"
            f"{min(warm):>9.2f}{kilobytes:>10.1f}"
        )
    first, later = taps["show whole log"]
    return statistics.median(d.elapsed * 1000 for d in first), statistics.median(d.elapsed * 1000 for d in later)


def profile(events: int, game_id: str, opens: int) -> None:
    """cProfile of the "show whole log" tap: the first after each opening, then the ones after it."""
    data = game_data(game_id, events)
    first, again = cProfile.Profile(), cProfile.Profile()

    async def scenario() -> None:
        for _ in range(opens):
            async with Screen(make_main(data)) as screen:
                for profiler in (first, again, again, again):
                    await screen.tap("log")
                    profiler.enable()
                    await screen.tap("log-older")
                    profiler.disable()
                    await screen.tap("panel-close")

    asyncio.run(scenario())
    for title, profiler in (("first after opening", first), ("again", again)):
        print(f"--- show whole log, {title}: {game_id}, {events} events")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=["heartland"])
    parser.add_argument("--events", nargs="+", type=int, default=list(LENGTHS), help="log lengths (500 2000 10000)")
    parser.add_argument("--opens", type=int, default=3, help="times the game screen is opened per length (default 3)")
    parser.add_argument("--repeats", type=int, default=8, help="times each tap is made per opening (default 8)")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time taps as process CPU time: steadier on a shared machine, to compare commits",
    )
    parser.add_argument("--profile", type=int, metavar="EVENTS", help="profile 'show whole log' at this length")
    args = parser.parse_args()
    if args.cpu:
        use_cpu_clock()
    if args.profile:
        profile(args.profile, args.games[0], args.opens)
        return 0
    print("tap -> last patch sent (ms), in-process; store in memory")
    print(f"{'game':<14}{'events':>8}  {'tap':<24}{'first':>9}{'again':>9}{'min':>9}{'KB sent':>10}")
    for game_id in args.games:
        per_line = []
        for events in args.events:
            data = game_data(game_id, events)
            first, again = report(game_id, events, asyncio.run(read_log(data, args.opens, args.repeats)))
            per_line.append(f"{events}: {first / events * 1000:.1f} / {again / events * 1000:.1f}")
            if events == GOAL_AT:
                verdicts = [
                    f"{name} {ms:.1f} ms ({'meets' if ms <= GOAL_MS else 'misses'} it)"
                    for name, ms in (("first", first), ("again", again))
                ]
                print(f"{'':<22}goal: show whole log <= {GOAL_MS:.0f} ms at {GOAL_AT} events: {', '.join(verdicts)}")
        print(f"{'':<22}show whole log, microseconds per line, first / again (flat when linear): {', '.join(per_line)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

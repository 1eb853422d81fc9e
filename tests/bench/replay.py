"""Time to replay a 500-event session of each game, and to apply one event; then a long
Heartland game: opening it (`Session.from_dict`), reading its whole log as the log sheet
does (each line's sentence and the turn it was in), and the memory it holds.

Goals: replay <= 20 ms, one event <= 0.2 ms; opening 10,000 events <= 150 ms; the whole
log <= 50 ms at 2,000 events, growing linearly. Figures are printed, not asserted.
Run: python tests/bench/replay.py
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

from companion import Session

EVENTS = 500
REPEATS = 30


def heartland_events() -> Iterator[dict[str, Any]]:
    players = ("Ann", "Bob", "Cy")
    for number in range(EVENTS):
        player = players[(number // 4) % 3]
        step = number % 4
        if step == 0:
            yield {"type": "move", "player": player, "spaces": 1, "pay": "fuel"}
        elif step == 1 and (number // 12) % 2 == 0:
            yield {"type": "load", "player": player, "good": "corn", "cubes": 1}
        elif step == 1:
            yield {"type": "unload", "player": player, "good": "corn", "cubes": 1, "price": 1}
        elif step == 2:
            yield {"type": "adjust", "player": player, "amount": 1 if number % 8 == 2 else -1, "note": "bench"}
        else:
            yield {"type": "end_turn", "player": player}


def transamerica_events() -> Iterator[dict[str, Any]]:
    players = ("Ann", "Bob", "Cy", "Dee")
    for number in range(EVENTS):
        losing = players[number % 4] if number < 20 else None
        yield {"type": "end_round", "missing": {name: int(name == losing) for name in players}}


def great_plains_events() -> Iterator[dict[str, Any]]:
    players = ("Ann", "Bob")
    turns: list[dict[str, Any]] = [{"type": "place_cave", "player": players[n % 2]} for n in range(6)]
    for number in range(40):
        token: dict[str, Any] = {"type": "place_token", "player": players[number % 2]}
        turns.append({**token, "spirit": "horse"} if number < 4 else token)
    for number in range(EVENTS - len(turns)):
        tokens = {"Ann": 1, "Bob": 0} if number < 5 else {}
        turns.append({"type": "zone", "spaces": 3, "water": number % 2, "tokens": tokens})
    return iter(turns)


GAMES: dict[str, tuple[list[str], Callable[[], Iterator[dict[str, Any]]]]] = {
    "heartland": (["Ann", "Bob", "Cy"], heartland_events),
    "transamerica": (["Ann", "Bob", "Cy", "Dee"], transamerica_events),
    "great_plains": (["Ann", "Bob"], great_plains_events),
}


def built(game_id: str) -> Session:
    players, events = GAMES[game_id]
    session = Session.new(game_id, players, options={"target": 999} if game_id == "heartland" else {})
    for event in events():
        session.apply(event)
    assert len(session.events) == EVENTS
    return session


def milliseconds(action: Callable[[], object], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def long_heartland(events: int) -> dict[str, Any]:
    """A saved Heartland game of `events` events (whole turns: move, load or unload, end)."""
    players = ("Ann", "Bob", "Cy")
    session = Session.new("heartland", players, options={"target": 999})
    while session.cursor < events:
        for player in players:
            money = session.state.truck(player).money
            if money > 500:  # the game must go on: nobody reaches the target
                session.apply({"type": "adjust", "player": player, "amount": -400, "note": "bench"})
        player = session.current_player or ""
        carried = session.state.truck(player).carried("corn")
        action = (
            {"type": "unload", "player": player, "good": "corn", "cubes": 1, "price": 2}
            if carried
            else {"type": "load", "player": player, "good": "corn", "cubes": 1}
        )
        for event in (
            {"type": "move", "player": player, "spaces": 1, "pay": "fuel"},
            action,
            {"type": "end_turn", "player": player},
        ):
            session.apply(event)

    return session.to_dict()


def turn_of(state: Any) -> int:
    return int(state.turn.number)


def read_log(session: Session) -> None:
    """What the log sheet does with "show all": every line's sentence and its turn, newest
    first (the turn kept by the session, `state_fact`, as the screens read their rounds)."""
    for number in range(session.cursor, 0, -1):
        f"{number}. {session.sentence(number)} · turn {session.state_fact(turn_of, number - 1)}"


def long_games() -> None:
    print(f"{'Heartland events':<18}{'open (ms)':>12}{'whole log (ms)':>16}{'again (ms)':>12}{'held (MB)':>11}")
    for events in (500, 2000, 10000):
        saved = long_heartland(events)
        opened = statistics.median(milliseconds(lambda saved=saved: Session.from_dict(saved), 3))
        session = Session.from_dict(saved)
        first = milliseconds(lambda session=session: read_log(session), 1)[0]
        again = statistics.median(milliseconds(lambda session=session: read_log(session), 3))
        gc.collect()
        tracemalloc.start()
        kept = Session.from_dict(saved)
        held = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        del kept
        print(f"{events:<18}{opened:>12.1f}{first:>16.1f}{again:>12.1f}{held / 1e6:>11.2f}")
    print(
        "open = Session.from_dict (checks and replays every event); whole log = every line's sentence and turn; "
        "held = memory the open session keeps (the log, its sentences, a state every 64 events and a few blocks)"
    )


def main() -> None:
    print(f"{'game':<14}{'replay 500 (ms)':>18}{'apply one (ms)':>18}")
    for game_id in GAMES:
        saved = built(game_id).to_dict()
        replay = milliseconds(lambda saved=saved: Session.from_dict(saved), REPEATS)
        session = Session.from_dict({**saved, "cursor": EVENTS - 1})
        last = saved["events"][-1]
        applies = []
        for _ in range(REPEATS * 10):
            applies += milliseconds(lambda session=session, last=last: session.apply(last), 1)
            session.undo()
        print(f"{game_id:<14}{statistics.median(replay):>18.2f}{statistics.median(applies):>18.3f}")
    print("goals: replay <= 20 ms, apply one <= 0.2 ms (medians)")
    print()
    long_games()


if __name__ == "__main__":
    main()

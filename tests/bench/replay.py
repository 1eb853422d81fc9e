"""Time to replay a 500-event session of each game, and to apply one event.

Goals: replay <= 20 ms, one event <= 0.2 ms. Figures are printed, not asserted.
Run: python tests/bench/replay.py
"""

from __future__ import annotations

import statistics
import time
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


if __name__ == "__main__":
    main()

"""Kill a process that records a game, again and again; check that nothing acknowledged is lost.

    python tests/bench/crash.py [KILLS] [--seed N] [--dir DIR]

A child process opens one session through the store and records operations (events,
undos, redos) chosen by a seeded random generator; before each operation it prints how
many it has completed so far. The parent kills it (SIGKILL on POSIX) at a random moment,
in half of the rounds right after the child announced an undo (a write that makes the
file shrink). Then the parent checks:

- every file of the data folder parses (index and session files; stray temporary files
  of the killed write are counted but are not store files);
- the saved session equals the state after the last acknowledged operation, or after the
  one in flight (the parent replays the same seeded choices in memory to know both);
- the session list agrees with the saved session (finished or not, winners).

The next round starts from what is on disk. Exit status 1 if anything was corrupt or lost.
The test suite runs the same with ~50 kills (tests/test_store_kill.py).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.messages import RuleError  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.store.errors import DamagedFile, NewerFile  # noqa: E402
from companion.store.storage import check_document  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy"]
NOTE = "a fairly long note so that every event weighs something"


def choose(rng: random.Random, session: Session) -> tuple[str, dict[str, Any] | None]:
    """The next operation; depends only on the generator and the session's state."""
    roll = rng.random()
    if session.is_over or (roll < 0.30 and session.can_undo):
        return ("undo", None) if session.can_undo else ("stop", None)
    if roll < 0.42 and session.can_redo:
        return "redo", None
    current = session.current_player or PLAYERS[0]
    if roll < 0.62:
        event: dict[str, Any] = {"type": "end_turn", "player": current}
    else:
        event = {"type": "adjust", "player": current, "amount": rng.randint(-2, 6), "note": NOTE}
    try:
        session.check(event)
    except RuleError:
        event = {"type": "adjust", "player": current, "amount": 1, "note": NOTE}
    return "apply", event


def perform(session: Session, operation: str, event: dict[str, Any] | None) -> None:
    if operation == "undo":
        session.undo()
    elif operation == "redo":
        session.redo()
    elif operation == "apply":
        session.apply(event)


def child(directory: str, session_id: str, seed: int) -> None:
    store = Store(directory)  # kept: a session holds its store only weakly
    session = store.open(session_id)
    rng = random.Random(seed)
    done = 0
    while True:
        operation, event = choose(rng, session)
        if operation == "stop":
            print(f"{done} stop", flush=True)
            time.sleep(60)
        print(f"{done} {operation}", flush=True)
        perform(session, operation, event)
        done += 1


@dataclass
class Result:
    kills: int = 0
    operations: int = 0
    undo_kills: int = 0
    corrupt: int = 0
    lost: int = 0
    in_flight_saved: int = 0
    finished_rounds: int = 0  # rounds that ended with the game over (the index path was exercised)
    stray_temp_files: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)


def _check_files(directory: Path, result: Result) -> None:
    for path in [directory / "index.json", *sorted((directory / "sessions").iterdir())]:
        if path.name.startswith("."):
            result.stray_temp_files.add(path.name)
            continue
        try:
            check_document(path.read_bytes(), kind="index" if path.name == "index.json" else "session")
        except (DamagedFile, NewerFile, OSError) as error:
            result.corrupt += 1
            result.problems.append(f"{path.name}: {error}")
    if any((directory / "quarantine").iterdir()):
        result.corrupt += 1
        result.problems.append("something was quarantined")


def run(kills: int, directory: Path, seed: int = 0, *, max_delay: float = 0.04, log: bool = False) -> Result:
    rng = random.Random(seed)
    store = Store(directory)
    session = store.new("heartland", PLAYERS)
    session_id = session.id or ""
    store.close()
    saved = session.to_dict()
    result = Result()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for round_number in range(kills):
        child_seed = rng.randrange(2**32)
        targeted = round_number % 2 == 1
        process = subprocess.Popen(
            [sys.executable, __file__, "--child", str(directory), session_id, str(child_seed)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert process.stdout is not None
        received = [process.stdout.readline()]  # the child is running and has the session open
        if targeted:
            wanted = rng.randrange(1, 12)
            while received[-1] and not (received[-1].endswith(" undo\n") and int(received[-1].split()[0]) >= wanted):
                received.append(process.stdout.readline())
            time.sleep(rng.random() * 0.0008)  # a write takes ~0.5 ms: land somewhere inside it
        else:
            time.sleep(rng.random() * max_delay)
        process.kill()
        received.append(process.stdout.read())
        process.wait()
        lines = "".join(received).splitlines()
        acknowledged = int(lines[-1].split()[0]) if lines else 0
        in_flight = lines[-1].split()[1] if lines else "?"
        result.kills += 1
        result.operations += acknowledged
        result.undo_kills += in_flight == "undo"

        # Replay the same choices in memory: the disk must hold step n or step n + 1.
        model = Session.from_dict(saved)
        replica = random.Random(child_seed)
        for _ in range(acknowledged):
            perform(model, *choose(replica, model))
        expected = model.to_dict()
        operation, event = choose(replica, model)
        perform(model, operation, event)
        following = model.to_dict()

        _check_files(directory, result)
        store = Store(directory)
        try:
            reopened = store.open(session_id)
        except Exception as error:  # noqa: BLE001 - a report, not a crash
            result.lost += 1
            result.problems.append(f"round {round_number}: cannot open: {error}")
            break
        on_disk = reopened.to_dict()
        if on_disk == following and on_disk != expected:
            result.in_flight_saved += 1
        elif on_disk != expected:
            result.lost += 1
            result.problems.append(
                f"round {round_number}: disk has cursor {on_disk['cursor']}/{len(on_disk['events'])}, "
                f"acknowledged cursor {expected['cursor']}/{len(expected['events'])}"
            )
        summary = next(item for item in store.sessions() if item.id == session_id)
        if summary.is_over != reopened.is_over:
            result.problems.append(f"round {round_number}: the list says is_over={summary.is_over}")
            result.lost += 1
        result.finished_rounds += reopened.is_over
        saved = on_disk
        store.close()
        if log:
            print(f"kill {round_number + 1}: {acknowledged} acknowledged, killed during {in_flight}", flush=True)
    return result


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kills", nargs="?", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", help="data folder to use (default: a temporary one)")
    parser.add_argument("-v", "--verbose", action="store_true")
    options = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(options.dir or temporary)
        result = run(options.kills, directory, options.seed, log=options.verbose)
    print(
        f"{result.kills} kills ({result.undo_kills} during an undo), {result.operations} acknowledged operations, "
        f"{result.corrupt} corrupt, {result.lost} lost; in-flight operation saved {result.in_flight_saved} times; "
        f"{result.finished_rounds} rounds left the game finished; "
        f"{len(result.stray_temp_files)} temporary files of killed writes seen; {time.perf_counter() - started:.1f} s"
    )
    for problem in result.problems:
        print("  " + problem)
    return 1 if result.corrupt or result.lost else 0


if __name__ == "__main__":
    sys.exit(main())

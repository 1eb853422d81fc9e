"""Kill a process that keeps a shelf of games, again and again; check that nothing acknowledged is lost.

    python tests/bench/crash.py [KILLS] [--seed N] [--dir DIR]

A child process opens the data folder through the store and makes changes chosen by a
seeded random generator: events, undos and redos in Heartland and TransAmerica games
(a TransAmerica round that takes a player to zero *finishes* the game, which also
rewrites the index), new games, new titles and deletions. It prints `go KIND` before
each change and `ok [ID]` after it. The parent kills it (SIGKILL on POSIX) at a random
moment; in half of the rounds right after the child announced a change of a chosen kind,
a fraction of a millisecond into its writes. The kind chosen is the one interrupted least so
far (apply, undo, finish, new, rename, delete): a change that finished before the kill landed
is aimed at again, so every kind is interrupted however fast this machine makes it.
Events, undos and redos append one record to their session file; the child compacts a
file after every few records (`CHILD_COMPACT_EVERY`), so kills land in both write paths.
A kill cannot cut one write(2) of a record in two (a power cut can): the records cut at
every byte are tests/test_store_append.py's, and the count printed here is usually 0.
Then the parent checks:

- every file of the data folder parses (index and session files; stray temporary files
  of the killed write are counted but are not store files; a record cut short at the end of
  a session file is counted and ignored, as the store ignores it), and nothing was quarantined;
- the saved games equal the games after the last acknowledged change, or after the one
  in flight (the parent replays the same seeded choices in memory to know both): the
  same games, each with the same events, cursor and title, and no placeholder of a half
  created game;
- the game list agrees with the saved games: titles, finished or not, winners.

The next round starts from what is on disk. Exit status 1 if anything was corrupt or lost.
The test suite runs the same with 24 kills (tests/test_store_kill.py).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.session import CLOCK_FIELDS, Session  # noqa: E402
from companion.store import Store, storage  # noqa: E402
from companion.store.errors import DamagedFile, NewerFile  # noqa: E402
from companion.store.storage import parse_file  # noqa: E402
from companion.text.messages import RuleError  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy"]
NOTE = "a fairly long note so that every event weighs something"
TITLES = ["", "Friday", "Zoë's birthday 🎂", "Rematch", "Long evening " + "x" * 40]
MOST_GAMES = 4
TARGETS = ("apply", "undo", "finish", "new", "rename", "delete")
WAIT_AFTER = {"apply": 0.0006, "undo": 0.0006, "finish": 0.0025, "new": 0.0025, "rename": 0.003, "delete": 0.002}
CHILD_COMPACT_EVERY = 5  # small, so that kills also land in the rewrites that compact a file


@dataclass
class Game:
    """One saved game as the bench knows it: its id (None until the child said it), session and title."""

    id: str | None
    session: Session
    title: str


# An operation: (kind, index of the game in the shelf, payload). Kinds: apply, finish, undo,
# redo, new (payload: game id and title), rename (payload: title), delete.
Operation = tuple[str, int, Any]


def _heartland_change(rng: random.Random, session: Session) -> tuple[str, Any]:
    roll = rng.random()
    if session.is_over or (roll < 0.30 and session.can_undo):
        return "undo", None
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


def _transamerica_change(rng: random.Random, session: Session) -> tuple[str, Any]:
    roll = rng.random()
    if session.is_over or (roll < 0.25 and session.can_undo):
        return "undo", None
    if roll < 0.35 and session.can_redo:
        return "redo", None
    points = {standing.player: standing.score for standing in session.standings()}
    if roll < 0.55:  # someone loses every point left: the game ends with this round
        loser = rng.choice(sorted(points))
        missing = {player: points[player] if player == loser else 0 for player in points}
        return "finish", {"type": "end_round", "missing": missing}
    connected = rng.choice(sorted(points))  # a round ends when someone has connected every city
    missing = {player: 0 if player == connected else min(rng.randint(0, 2), points[player] - 1) for player in points}
    return "apply", {"type": "end_round", "missing": missing}


def choose(rng: random.Random, shelf: list[Game]) -> Operation:
    """The next change; depends only on the generator, the order of the games and their states."""
    roll = rng.random()
    if not shelf or (roll < 0.05 and len(shelf) < MOST_GAMES):
        return "new", len(shelf), (rng.choice(("heartland", "transamerica")), rng.choice(TITLES))
    index = rng.randrange(len(shelf))
    if roll < 0.09:
        return "rename", index, rng.choice(TITLES)
    if roll < 0.12 and len(shelf) > 1:
        return "delete", index, None
    session = shelf[index].session
    change = _heartland_change if session.game.id == "heartland" else _transamerica_change
    kind, event = change(rng, session)
    return kind, index, event


def perform(shelf: list[Game], operation: Operation, store: Store | None = None, made: str | None = None) -> str:
    """Make the change on the shelf (through `store` in the child, in memory in the parent); the new id if any."""
    kind, index, payload = operation
    if kind == "new":
        game, title = payload
        session = store.new(game, PLAYERS, title=title) if store else Session.new(game, PLAYERS)
        shelf.append(Game(session.id if store else made, session, " ".join(title.split())))
        return session.id or ""
    game = shelf[index]
    if kind == "rename":
        if store:
            store.rename(game.id or "", payload)
        game.title = " ".join(payload.split())
    elif kind == "delete":
        if store:
            store.delete(game.id or "")
        shelf.pop(index)
    elif kind == "undo":
        game.session.undo()
    elif kind == "redo":
        game.session.redo()
    else:
        game.session.apply(payload)
    return ""


def child(directory: str, ids: list[str], seed: int) -> None:
    storage.COMPACT_EVERY = CHILD_COMPACT_EVERY
    store = Store(directory)  # kept: a session holds its store only weakly
    titles = {summary.id: summary.title for summary in store.sessions()}
    shelf = [Game(session_id, store.open(session_id), titles[session_id]) for session_id in ids]
    rng = random.Random(seed)
    while True:
        operation = choose(rng, shelf)
        print(f"go {operation[0]}", flush=True)
        made = perform(shelf, operation, store)
        print(f"ok {made}".rstrip(), flush=True)


@dataclass
class Result:
    kills: int = 0
    operations: int = 0
    in_flight: Counter[str] = field(default_factory=Counter)  # what each kill interrupted
    in_flight_saved: int = 0
    corrupt: int = 0
    lost: int = 0
    finished_games: int = 0  # games that were over when a round was checked (the index path ran)
    games_made: int = 0
    stray_temp_files: set[str] = field(default_factory=set)
    cut_records: int = 0  # session files found ending in a record cut short by the kill
    quarantined: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    @property
    def undo_kills(self) -> int:
        return self.in_flight["undo"]


def _check_files(directory: Path, result: Result, note: str) -> None:
    # No index.json is a state of its own (nothing listed yet: a kill before the first game's
    # index write); the listing rebuilds entries from the session files, which _read_disk checks.
    index = [directory / "index.json"] if (directory / "index.json").exists() else []
    for path in [*index, *sorted((directory / "sessions").iterdir())]:
        if path.name.startswith("."):
            result.stray_temp_files.add(path.name)
            continue
        try:
            result.cut_records += parse_file(
                path.read_bytes(), kind="index" if path.name == "index.json" else "session"
            ).torn
        except (DamagedFile, NewerFile, OSError) as error:
            result.corrupt += 1
            result.problems.append(f"{note}: {path.name}: {error}")
    set_aside = {path.name for path in (directory / "quarantine").iterdir()} - result.quarantined
    if set_aside:
        result.corrupt += 1
        result.problems.append(f"{note}: quarantined: {', '.join(sorted(set_aside))}")
        result.quarantined |= set_aside


def _read_disk(directory: Path) -> tuple[list[Game], dict[str, tuple[str, bool, tuple[str, ...]]]]:
    """The saved games in creation order, and what the game list says of each (title, over, winners)."""
    with Store(directory) as store:
        listing = {summary.id: (summary.title, summary.is_over, summary.winners) for summary in store.sessions()}
        shelf = []
        for session_id in sorted(listing):  # ids sort by creation time
            session = store.open(session_id)
            shelf.append(Game(session_id, Session.from_dict(session.to_dict()), ""))
    return shelf, listing


def _matches(disk: list[Game], titles: dict[str, str], model: list[Game]) -> bool:
    """The disk holds exactly the model's games; a game the model knows no id of may have any new id."""
    if len(disk) != len(model):
        return False
    known = {game.id for game in model}
    for saved, expected in zip(disk, model, strict=True):
        if expected.id is None and saved.id in known:
            return False
        if expected.id is not None and saved.id != expected.id:
            return False
        if (game_log(saved.session), titles[saved.id or ""]) != (game_log(expected.session), expected.title):
            return False
    return True


def game_log(session: Session) -> dict[str, Any]:
    """A saved game but its clock: the replica here keeps its own times (the clock's marks are
    written in the same record as the change they go with)."""
    return {name: value for name, value in session.to_dict().items() if name not in CLOCK_FIELDS}


def _check_listing(
    disk: list[Game], listing: dict[str, tuple[str, bool, tuple[str, ...]]], note: str, result: Result
) -> None:
    for game in disk:
        _, is_over, winners = listing[game.id or ""]
        truth = tuple(standing.player for standing in game.session.standings() if standing.winner)
        if (is_over, winners) != (game.session.is_over, truth if game.session.is_over else ()):
            result.lost += 1
            result.problems.append(f"{note}: the list says over={is_over} winners={winners} for {game.id}")


def _kill_child(process: subprocess.Popen[str], rng: random.Random, target: str | None, max_delay: float) -> list[str]:
    assert process.stdout is not None
    lines = [process.stdout.readline()]  # the child is running and has its games open
    if target is not None:
        wanted = rng.randrange(1, 12)
        while lines[-1] and not (lines[-1] == f"go {target}\n" and len(lines) // 2 >= wanted) and len(lines) < 4000:
            lines.append(process.stdout.readline())
        time.sleep(rng.random() * WAIT_AFTER[target])  # land somewhere inside its writes
    else:
        time.sleep(rng.random() * max_delay)
    process.kill()
    lines.append(process.stdout.read())
    process.wait()
    return "".join(lines).splitlines()


def run(kills: int, directory: Path, seed: int = 0, *, max_delay: float = 0.04, log: bool = False) -> Result:
    rng = random.Random(seed)
    Store(directory).close()
    shelf: list[Game] = []
    result = Result()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for round_number in range(kills):
        child_seed = rng.randrange(2**32)
        aimed = min(TARGETS, key=lambda kind: result.in_flight[kind])  # the first of the least interrupted
        target = aimed if round_number % 2 == 1 else None
        ids = [game.id or "" for game in shelf]
        process = subprocess.Popen(
            [sys.executable, __file__, "--child", str(directory), str(child_seed), *ids],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        lines = _kill_child(process, rng, target, max_delay)
        made = [line[3:] for line in lines if line.startswith("ok ") and len(line) > 3]
        acknowledged = sum(line.startswith("ok") for line in lines)
        in_flight = lines[-1][3:] if lines and lines[-1].startswith("go ") else None
        result.kills += 1
        result.operations += acknowledged
        result.in_flight[in_flight or "nothing"] += 1

        # Replay the same choices in memory: the disk must hold the shelf after n or n + 1 changes.
        replica = random.Random(child_seed)
        for _ in range(acknowledged):
            operation = choose(replica, shelf)
            made_id = made.pop(0) if operation[0] == "new" else None
            perform(shelf, operation, made=made_id)
        following = [Game(game.id, Session.from_dict(game.session.to_dict()), game.title) for game in shelf]
        if in_flight is not None:
            perform(following, choose(replica, following))

        note = f"round {round_number} (killed during {in_flight or 'nothing'})"
        _check_files(directory, result, note)
        try:
            disk, listing = _read_disk(directory)
        except Exception as error:  # noqa: BLE001 - a report, not a crash
            result.lost += 1
            result.problems.append(f"{note}: cannot open: {error}")
            break
        titles = {session_id: title for session_id, (title, _, _) in listing.items()}
        if _matches(disk, titles, following) and not _matches(disk, titles, shelf):
            result.in_flight_saved += 1
        elif not _matches(disk, titles, shelf):
            result.lost += 1
            result.problems.append(
                f"{note}: the disk holds {[(game.id, game.session.cursor, titles[game.id or '']) for game in disk]}, "
                f"acknowledged {[(game.id, game.session.cursor, game.title) for game in shelf]}"
            )
        _check_listing(disk, listing, note, result)
        for game in disk:
            game.title = titles[game.id or ""]
        result.games_made += len(set(titles) - set(ids))
        result.finished_games += sum(game.session.is_over for game in disk)
        shelf = disk
        if log:
            print(f"kill {round_number + 1}: {acknowledged} acknowledged, killed during {in_flight}", flush=True)
    return result


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[4:], int(sys.argv[3]))
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
    during = ", ".join(f"{count} {kind}" for kind, count in sorted(result.in_flight.items()))
    print(
        f"{result.kills} kills (during: {during}), {result.operations} acknowledged changes, "
        f"{result.games_made} games made; {result.corrupt} corrupt, {result.lost} lost; "
        f"in-flight change saved {result.in_flight_saved} times; {result.finished_games} finished games checked; "
        f"{len(result.stray_temp_files)} temporary files of killed writes and {result.cut_records} records cut short "
        f"seen; {time.perf_counter() - started:.1f} s"
    )
    for problem in result.problems:
        print("  " + problem)
    return 1 if result.corrupt or result.lost else 0


if __name__ == "__main__":
    sys.exit(main())

"""Rounds of sync killed (SIGKILL) at random moments, then finished: what was lost or doubled
(a benchmark: it prints; tests/test_sync_processes.py kills fewer times in the suite).

    python tests/bench/sync_kills.py               # 120 kills, 200 games on one device
    python tests/bench/sync_kills.py --kills 30

Needs PouchDB Server (tests/couch_helpers.py installs it with npm).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from couch_helpers import CouchServer, pouchdb_server  # noqa: E402
from store_helpers import put  # noqa: E402

from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402


def game(number: int) -> Session:
    session = Session.new("transamerica", ["Ann", "Bob", "Cy"])
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": number % 13, "Cy": 2}})
    return session


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=120)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    command = pouchdb_server()
    if command is None:
        raise SystemExit("PouchDB Server is missing and npm cannot install it")
    with tempfile.TemporaryDirectory() as temp:
        server = CouchServer(command, Path(temp))
        server.start()
        try:
            run(server, Path(temp), args.kills, args.games)
        finally:
            server.stop()


def run(server: CouchServer, temp: Path, kills: int, games: int) -> None:
    a, b = temp / "a", temp / "b"
    with Store(a) as store:
        for number in range(games):
            put(store, game(number), created=1_700_000_000.0 + number)
    with Store(b) as store:
        put(store, game(99), created=1_700_100_000.0)
    url = f"{server.url}/games-{uuid.uuid4().hex[:8]}"
    chance = random.Random(11)
    added = 0

    def play_more(folder: Path) -> None:  # each round has work: games played since the last one
        nonlocal added
        with Store(folder) as store:
            for _ in range(3):
                added += 1
                put(store, game(added), created=1_700_200_000.0 + added)

    timed = []
    for number, folder in enumerate((a, b) * 4):  # how long a round takes, process start included (after the first)
        play_more(folder)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "companion.sync.command", url, "--data", str(folder)],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        if number >= 2:
            timed.append(time.perf_counter() - started)
    whole = sorted(timed)[len(timed) // 2]
    on_server = []
    failed: list[int] = []
    for kill in range(kills):
        folder = a if kill % 2 == 0 else b
        play_more(folder)
        process = subprocess.Popen(
            [sys.executable, "-m", "companion.sync.command", url, "--data", str(folder)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        time.sleep(chance.uniform(0.5 * whole, 1.05 * whole))  # mostly within the round's work
        finished = process.poll() is not None
        if finished and process.returncode != 0:
            failed.append(process.returncode)
        if not finished:
            os.kill(process.pid, signal.SIGKILL)
        process.wait()
        rows = server.call("GET", "/" + url.rsplit("/", 1)[1] + "/_all_docs").get("rows", [])
        on_server.append((finished, len([row for row in rows if row["id"].startswith("game:")])))
    started = time.perf_counter()
    for folder in (a, b, a, b):
        subprocess.run(
            [sys.executable, "-m", "companion.sync.command", url, "--data", str(folder)],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
    finish = time.perf_counter() - started
    found = {}
    for folder in (a, b):
        with Store(folder) as store:
            found[folder.name] = sorted(summary.id for summary in store.sessions())
    killed_mid = sum(1 for finished, _ in on_server if not finished)
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; {games} + 1 games, 3 more before each of "
        f"{kills} kills "
        f"({killed_mid} before the round ended; games on the server after each: "
        f"{min(n for _, n in on_server)}..{max(n for _, n in on_server)})"
    )
    print(f"a whole round took {whole:.2f} s; rounds that ended in a fault before the kill: {len(failed)}")
    print(
        f"after four whole rounds ({finish:.1f} s): device a {len(found['a'])} games, device b "
        f"{len(found['b'])}; the same: {found['a'] == found['b']}; "
        f"lost: {games + 1 + added - len(set(found['a']))}, doubled: {len(found['a']) - len(set(found['a']))}"
    )


if __name__ == "__main__":
    main()

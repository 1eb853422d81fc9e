"""Sync as real processes: `companion sync URL --data DIR` between data folders on disk, and a
round killed (SIGKILL) at any moment, again and again, loses and duplicates nothing."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import store_helpers
from couch_helpers import CouchServer

from companion.aftergame import archive
from companion.session import Session
from companion.store import Store

ROOT = Path(__file__).resolve().parents[1]
CREATED = 1_700_000_000.0
KILLS = 25  # tests/bench/sync_kills.py kills more (≥ 100) and prints what it saw
ROUND = [sys.executable, "-m", "companion.sync.command"]  # `companion sync` without the app's start-up


def transamerica(number: int) -> Session:
    session = Session.new("transamerica", ["Ann", "Bob", "Cy"])
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": number % 13, "Cy": 2}})
    return session


def sync(folder: Path, url: str, *extra: str, **popen: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "sync", url, "--data", str(folder), *extra],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        **popen,
    )


def logs(folder: Path) -> dict[str, tuple[str, Any]]:
    with Store(folder) as store:
        return {summary.id: (summary.title, store.peek(summary.id).to_dict()["events"]) for summary in store.sessions()}


def test_the_command_line_syncs_two_folders_and_says_what_it_did(
    couch_server: CouchServer, database: str, tmp_path: Path
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    with Store(a) as store:
        for number in range(3):
            store_helpers.put(store, transamerica(number), created=CREATED + number)
    url = f"{couch_server.url}/{database}"
    sent = sync(a, url)
    assert sent.returncode == 0, sent.stderr
    assert sent.stdout == (
        f"companion: synced with 127.0.0.1:{couch_server.port}/{database}: Sent 3, took 0, "
        "0 kept as a copy, 0 deleted here.\n"
    )
    taken = sync(b, url)
    assert "Sent 0, took 3," in taken.stdout and logs(a) == logs(b)


def test_the_command_line_says_in_one_line_when_there_is_no_server(tmp_path: Path) -> None:
    from couch_helpers import free_port

    done = sync(tmp_path / "a", f"http://127.0.0.1:{free_port()}/games")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("companion: The server 127.0.0.1:") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_a_round_killed_at_any_moment_loses_and_duplicates_nothing(
    couch_server: CouchServer, database: str, tmp_path: Path
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    expected: dict[str, Any] = {}
    with Store(a) as store:
        for number in range(40):
            store_helpers.put(store, transamerica(number), created=CREATED + number)
    with Store(b) as store:  # the other device played a game of its own, and the same game apart
        store_helpers.put(store, transamerica(99), created=CREATED + 99)
    url = f"{couch_server.url}/{database}"
    chance = random.Random(7)
    timed = []
    for folder in (a, b, a, b):  # how long a round with a little work takes, after the first
        started = time.perf_counter()
        subprocess.run(ROUND + [url, "--data", str(folder)], cwd=ROOT, check=True, capture_output=True)
        timed.append(time.perf_counter() - started)
    whole = max(timed[2:])
    for kill in range(KILLS):
        folder = a if kill % 2 == 0 else b
        with Store(folder) as store:  # each round has work: a game played since the last one
            store_helpers.put(store, transamerica(kill), created=CREATED + 1_000 + kill)
        process = subprocess.Popen(
            ROUND + [url, "--data", str(folder)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(chance.uniform(0.4 * whole, whole))  # mostly while it works
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    for folder in (a, b, a, b):
        done = sync(folder, url)
        assert done.returncode == 0, done.stderr
    expected = logs(a)
    assert logs(b) == expected and len(expected) == 41 + KILLS  # every game once: none lost, none twice
    with Store(a) as store:
        assert archive.read_copies(store) == {}
    database_docs = couch_server.call("GET", f"/{database}/_all_docs")["rows"]
    assert len([row for row in database_docs if row["id"].startswith("game:")]) == 41 + KILLS


def test_the_command_line_takes_the_password_from_the_environment(
    couch_server: CouchServer, database: str, tmp_path: Path
) -> None:
    couch_server.add_user("cli-user", "from-env")
    couch_server.call("PUT", f"/{database}")
    with Store(tmp_path / "a") as store:
        store_helpers.put(store, transamerica(1), created=CREATED)
    url = f"{couch_server.url}/{database}"
    refused = sync(tmp_path / "a", url, "--user", "cli-user", env={**os.environ, "COMPANION_SYNC_PASSWORD": "bad"})
    assert refused.returncode == 1 and "refused the user name or the password" in refused.stderr
    done = sync(tmp_path / "a", url, "--user", "cli-user", env={**os.environ, "COMPANION_SYNC_PASSWORD": "from-env"})
    assert done.returncode == 0 and "Sent 1," in done.stdout

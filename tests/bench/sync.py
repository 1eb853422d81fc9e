"""Sync's figures (a benchmark: it prints, asserts nothing):

- the first round of a device holding N games (sending them all), and of an empty device
  taking them all, through PouchDB Server on 127.0.0.1;
- one tap's delay from device A to device B's list of games, both apps' background rounds
  running (the changes feed on), measured from the change saved on A to the game listed on B.

    python tests/bench/sync.py                 # 1,000 and 10,000 games
    python tests/bench/sync.py --games 1000

Needs PouchDB Server (tests/couch_helpers.py installs it with npm).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from archive_helpers import build  # noqa: E402
from couch_helpers import CouchServer, pouchdb_server  # noqa: E402

from companion.app.data import AppData  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.store.storage import DiskFolder  # noqa: E402
from companion.sync.couch import Couch  # noqa: E402
from companion.sync.engine import sync_round  # noqa: E402
from companion.sync.service import SETTLE_S  # noqa: E402
from companion.sync.settings import SyncSettings, write_password, write_settings  # noqa: E402


def first_sync(server: CouchServer, temp: Path, games: int) -> None:
    a, b = temp / f"a{games}", temp / f"b{games}"
    build(DiskFolder(a, durable=False), games, unfinished_every=5)
    database = f"bench-{uuid.uuid4().hex[:8]}"
    with Store(a) as store:
        store.sessions()
        started = time.perf_counter()
        sent = sync_round(store, Couch(server.url, database))
        sending = time.perf_counter() - started
    with Store(b) as store:
        started = time.perf_counter()
        taken = sync_round(store, Couch(server.url, database))
        taking = time.perf_counter() - started
        listed = len(store.sessions())
    print(
        f"{games:>6} games: first round sending them {sending:6.1f} s ({sent.sent} documents); "
        f"an empty device taking them {taking:6.1f} s ({taken.taken} taken, {listed} listed)"
    )


def tap_delay(server: CouchServer, temp: Path, taps: int = 10) -> None:
    database = f"delay-{uuid.uuid4().hex[:8]}"
    apps = []
    for name in ("tap-a", "tap-b"):
        data = AppData(Store(temp / name))
        write_settings(data.store.folder, SyncSettings(server.url, database))
        write_password(data.store.folder, "")
        data.sync.start()
        apps.append(data)
    a, b = apps
    session = a.new("transamerica", ["Ann", "Bob", "Cy"], {})
    assert session.id is not None
    a.sync.poke()
    wait(lambda: b.exists(session.id or ""), 30)
    delays = []
    for number in range(taps):
        before = len(b.store.peek(session.id).to_dict()["events"]) if b.exists(session.id) else 0
        session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 1, "Cy": 1}}) if number < 6 else session.undo()
        started = time.perf_counter()
        a.sync.poke()  # as a tap does (intents._after_change)
        wait(lambda before=before: listed_events(b, session.id or "") != before, 30)  # type: ignore[misc]
        delays.append(time.perf_counter() - started)
    for data in apps:
        data.sync.stop()
    print(
        f"one tap on device A to device B's list ({taps} taps, both apps syncing in the background): "
        f"median {statistics.median(delays):.2f} s, worst {max(delays):.2f} s "
        f"(of which {SETTLE_S:.1f} s is the wait that gathers taps in a row into one round)"
    )


def listed_events(data: AppData, session_id: str) -> int:
    try:
        found = data.store.saved(session_id)
    except Exception:  # noqa: BLE001 - being written: asked again
        return -1
    return -1 if found is None else int(found[0].get("cursor", -1))


def wait(condition: object, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {condition}")
        time.sleep(0.02)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, nargs="*", default=[1000, 10000])
    args = parser.parse_args()
    command = pouchdb_server()
    if command is None:
        raise SystemExit("PouchDB Server is missing and npm cannot install it")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, PouchDB Server in memory on 127.0.0.1")
    with tempfile.TemporaryDirectory() as temp:
        server = CouchServer(command, Path(temp))
        server.start()
        try:
            tap_delay(server, Path(temp))
            for games in args.games:
                first_sync(server, Path(temp), games)
        finally:
            server.stop()


if __name__ == "__main__":
    main()

"""How fast is the store, and does the archive slow the game down? (A benchmark, not a test.)

    python tests/bench/store.py                    # archives of 10, 1,000 and 10,000 sessions
    python tests/bench/store.py --sizes 10,1000    # quicker
    python tests/bench/store.py --json             # force the standard json module (no orjson)

For each archive size (sessions of 200 events each) it prints:

- record: median and p95 time for `session.apply` to return with the event durably saved
  (atomic write + fsync of file and folder), on a session inside the archive;
- open 500: time for `store.open` of a 500-event session (read, check, replay);
- list: `store.sessions()` in a freshly started store (cold: reads the index) and again (warm);
- create: `store.new` (writes the session file and the index);
- after the end: median and p95 of recording the scoring (`zone` events) of a finished
  Great Plains game, which the rules accept after the end (printed on a line of its own);
- memory: peak Python allocation (tracemalloc) while recording 50 events ("mem rec"), while
  listing (the summaries returned, "mem list"), and the index a started store keeps ("index");

and, as reference points in the same run, the same event append through

- plain TinyDB: stock `JSONStorage`, all sessions in one file (every write rewrites it);
- SQLite: one row per event, WAL, `synchronous=FULL`, one commit per event (its appends
  alternate with the store's, so that both meet the same disk conditions).

Goals: record <= 1 ms median and <= 3 ms p95 at every size; >= 500x faster than plain
TinyDB at 1,000 sessions; within 4x of SQLite; listing 10,000 sessions <= 100 ms; memory
not growing with the archive.

Archives hold mostly finished games (5 of every 6; listing any session costs one stat of
its file, which gives its updated time). They are written directly through the store's
storage (valid sessions built once by the rules, then copied under fresh ids) so that
10,000 sessions take seconds, not hours.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tinydb import TinyDB  # noqa: E402
from tinydb.storages import JSONStorage  # noqa: E402

from companion.messages import RuleError  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import Store, storage  # noqa: E402
from companion.store.store import new_session_id  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy"]
NOTE = "a fairly long note so that every event weighs something"


def play(events: int, seed: int, finish: bool = False) -> Session:
    """A valid heartland session of `events` events (optionally finished at the end)."""
    rng = random.Random(seed)
    session = Session.new("heartland", PLAYERS)
    while session.cursor < events - (3 if finish else 0):
        current = session.current_player or PLAYERS[0]
        if rng.random() < 0.3:
            event: dict[str, Any] = {"type": "end_turn", "player": current}
        else:
            event = {"type": "adjust", "player": current, "amount": rng.choice([-1, 1]), "note": NOTE}
        try:
            session.apply(event)
        except RuleError:
            session.apply({"type": "adjust", "player": current, "amount": 1, "note": NOTE})
    if finish:
        current = session.current_player or PLAYERS[0]
        session.apply({"type": "adjust", "player": current, "amount": 60, "note": NOTE})
        while not session.is_over:
            session.apply({"type": "end_turn", "player": session.current_player or PLAYERS[0]})
    return session


def session_file(session: Session, created: float) -> bytes:
    doc = session.to_dict()
    doc.update(created=created, title="")
    return storage.encode({"_meta": {"1": {"format": 1, "kind": "session"}}, "session": {"1": doc}})


def index_entry(session: Session, created: float) -> dict[str, Any]:
    winners = [standing.player for standing in session.standings() if standing.winner] if session.is_over else []
    return {
        "game": "heartland", "players": list(session.players), "created": created, "updated": created,
        "title": "", "is_over": session.is_over, "winners": winners,
    }


def build_archive(directory: Path, count: int, templates: list[Session]) -> list[str]:
    """`count` valid 200-event sessions written straight through the storage layer."""
    folder = storage.DiskFolder(directory, durable=False)
    folder.ensure("sessions")
    blobs = [session_file(session, 0.0) for session in templates]
    entries: dict[str, Any] = {}
    ids = []
    now = time.time()
    for number in range(count):
        session_id = new_session_id()
        template = templates[number % len(templates)]
        folder.write(f"sessions/{session_id}.json", blobs[number % len(blobs)])
        entries[session_id] = index_entry(template, 0.0)
        ids.append(session_id)
    for entry in entries.values():
        entry["created"] = entry["updated"] = now
    index = {"_meta": {"1": {"format": 1, "kind": "index"}}, "sessions": entries}
    storage.DiskFolder(directory).write("index.json", storage.encode(index))
    return ids


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def record_events(session: Session, count: int, seed: int) -> list[float]:
    samples = []
    for number in range(count):
        amount = 1 if (number + seed) % 2 == 0 else -1  # alternate so that no one goes below $0
        event = {"type": "adjust", "player": session.current_player or PLAYERS[0], "amount": amount, "note": NOTE}
        samples.append(timed(lambda event=event: session.apply(event)))  # type: ignore[misc]
    return samples


def record_after_the_end(store: Store) -> tuple[float, float]:
    """Median and p95 of recording the zones of a finished Great Plains game (accepted after the end)."""
    game = store.new("great_plains", ["Ann", "Bob"])
    while not game.is_over:
        kind = "place_cave" if game.cursor < 6 else "place_token"
        game.apply({"type": kind, "player": game.current_player})
    samples = []
    for number in range(60):  # 20 zones won by Ann, 20 by Bob, then empty ones
        tokens = {"Ann": int(number < 20), "Bob": int(20 <= number < 40)}
        event = {"type": "zone", "spaces": 3, "water": 1, "tokens": tokens}
        samples.append(timed(lambda: game.apply(event)))  # noqa: B023 - called at once
    store.delete(game.id or "")
    return statistics.median(samples), percentile(samples, 0.95)


def bench_store(directory: Path, size: int, templates: list[Session], long_session: Session) -> dict[str, Any]:
    ids = build_archive(directory, size, templates)
    long_id = new_session_id()
    storage.DiskFolder(directory).write(f"sessions/{long_id}.json", session_file(long_session, time.time()))
    if hasattr(os, "sync"):
        os.sync()  # the archive was written long ago: do not make the first fsyncs flush it

    store = Store(directory)
    result: dict[str, Any] = {}
    result["list_cold"] = timed(store.sessions)  # adopts the 500-event session (one parse, one index write)
    store = Store(directory)
    result["list_cold"] = timed(store.sessions)
    result["list_warm"] = statistics.median(timed(store.sessions) for _ in range(5))
    result["listed"] = len(store.sessions())

    creates = []
    for _ in range(5):
        creates.append(timed(lambda: store.close_session(store.new("heartland", PLAYERS).id or "")))
    result["create"] = statistics.median(creates)

    # A game in progress inside the archive (200 events so far): 200 more recorded, one by one.
    session = store.open(ids[1] if size > 1 else ids[0])
    assert not session.is_over and session.cursor == 200
    # SQLite appends alternate with the store's, so that both meet the same disk conditions.
    sqlite_append, sqlite_close = sqlite_reference(directory, size, templates)
    samples, reference = [], []
    for number in range(200):
        amount = 1 if number % 2 == 0 else -1  # alternate so that no one goes below $0
        event = {"type": "adjust", "player": session.current_player or PLAYERS[0], "amount": amount, "note": NOTE}
        samples.append(timed(lambda: session.apply(event)))  # noqa: B023 - called at once
        reference.append(timed(sqlite_append))
    sqlite_close()
    result["record_median"] = statistics.median(samples)
    result["record_p95"] = percentile(samples, 0.95)
    result["sqlite_median"] = statistics.median(reference)

    opens = []
    for _ in range(5):
        opens.append(timed(lambda: store.open(long_id)))
        store.close_session(long_id)
    result["open_500"] = statistics.median(opens)

    result["zone_median"], result["zone_p95"] = record_after_the_end(store)

    gc.collect()
    tracemalloc.start()
    record_events(session, 50, seed=0)
    result["memory_record"] = tracemalloc.get_traced_memory()[1]
    before = tracemalloc.get_traced_memory()[0]
    fresh = Store(directory)  # parses the index and keeps it
    result["memory_index"] = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    fresh.sessions()
    result["memory_list"] = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
    store.close()
    return result


def bench_plain_tinydb(directory: Path, size: int, templates: list[Session], samples: int) -> list[float]:
    """All sessions in one file through stock JSONStorage; append one event to one session."""
    path = directory / "plain.json"
    docs = {str(number + 1): {"id": number, **templates[number % len(templates)].to_dict()} for number in range(size)}
    path.write_text(json.dumps({"sessions": docs}))
    del docs
    db = TinyDB(path, storage=JSONStorage)
    table = db.table("sessions")
    target = size // 2 + 1
    times = []
    for _ in range(samples):
        event = {"type": "adjust", "player": "Ann", "amount": 1, "note": NOTE}

        def append(event: dict[str, Any] = event) -> None:
            doc = table.get(doc_id=target)
            assert doc is not None
            table.update({"events": doc["events"] + [event], "cursor": doc["cursor"] + 1}, doc_ids=[target])

        times.append(timed(append))
    db.close()
    path.unlink()
    return times


def sqlite_reference(
    directory: Path, size: int, templates: list[Session]
) -> tuple[Callable[[], None], Callable[[], None]]:
    """The same archive in SQLite (one row per event); returns (append one event durably, close)."""
    path = directory / "reference.sqlite"
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=OFF")
    connection.execute("CREATE TABLE events (session INTEGER, seq INTEGER, body TEXT, PRIMARY KEY (session, seq))")
    bodies = [[json.dumps(event) for event in template.to_dict()["events"]] for template in templates]
    connection.execute("BEGIN")
    connection.executemany(
        "INSERT INTO events VALUES (?, ?, ?)",
        (
            (number, seq, body)
            for number in range(size)
            for seq, body in enumerate(bodies[number % len(bodies)])
        ),
    )
    connection.execute("COMMIT")
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.execute("PRAGMA synchronous=FULL")
    target, counter = size // 2, iter(range(1000, 10**9))
    body = json.dumps({"type": "adjust", "player": "Ann", "amount": 1, "note": NOTE})

    def append() -> None:
        connection.execute("BEGIN")
        connection.execute("INSERT INTO events VALUES (?, ?, ?)", (target, next(counter), body))
        connection.execute("COMMIT")

    return append, connection.close


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10,1000,10000")
    parser.add_argument("--json", action="store_true", help="use the standard json module even if orjson is there")
    parser.add_argument("--dir", help="where to build the archives (default: a temporary folder)")
    options = parser.parse_args()
    serialiser = storage.use_orjson(not options.json)
    sizes = [int(size) for size in options.sizes.split(",")]
    print(f"Python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} CPUs; "
          f"serialiser: {serialiser}")
    # An archive is mostly finished games: 5 of every 6 sessions are finished, 1 was abandoned.
    templates = [play(200, seed, finish=seed != 1) for seed in range(6)]
    long_session = play(500, 99)
    base = Path(options.dir or tempfile.mkdtemp(prefix="companion-bench-"))
    header = (f"{'sessions':>8} | {'record med':>11} {'p95':>11} | {'open 500':>11} | {'list cold':>11} "
              f"{'warm':>11} | {'create':>11} | {'mem rec':>8} {'mem list':>8} {'index':>8} | {'TinyDB 1 file':>13} "
              f"{'x slower':>8} | {'SQLite':>11} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    try:
        for size in sizes:
            directory = base / f"archive-{size}"
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir(parents=True)
            result = bench_store(directory, size, templates, long_session)
            plain = bench_plain_tinydb(directory, size, templates, samples=20 if size <= 1000 else 3)
            plain_median, sqlite_median = statistics.median(plain), result["sqlite_median"]
            print(
                f"{size:>8} | {ms(result['record_median'])} {ms(result['record_p95'])} | {ms(result['open_500'])} | "
                f"{ms(result['list_cold'])} {ms(result['list_warm'])} | {ms(result['create'])} | "
                f"{result['memory_record'] / 1e6:6.2f}MB {result['memory_list'] / 1e6:6.2f}MB "
                f"{result['memory_index'] / 1e6:6.2f}MB | "
                f"{plain_median * 1000:10.1f} ms {plain_median / result['record_median']:7.0f}x | "
                f"{ms(sqlite_median)} {result['record_median'] / sqlite_median:5.2f}x",
                flush=True,
            )
            print(
                f"{'':>8} | record after the end (zone events in a finished Great Plains game): "
                f"median {ms(result['zone_median']).strip()}, p95 {ms(result['zone_p95']).strip()}",
                flush=True,
            )
            shutil.rmtree(directory, ignore_errors=True)
    finally:
        if not options.dir:
            shutil.rmtree(base, ignore_errors=True)
    print("record = session.apply returning with the event durable; ratio = store record / SQLite append")
    return 0


if __name__ == "__main__":
    sys.exit(main())

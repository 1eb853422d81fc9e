"""How fast is the store, and does the archive slow the game down? (A benchmark, not a test.)

    python tests/bench/store.py                    # archives of 10, 1,000 and 10,000 sessions
    python tests/bench/store.py --sizes 10,1000 --lengths 50,2000    # quicker
    python tests/bench/store.py --json             # the archive part with the standard json module

First the machine: what one durable small write costs here (append + fdatasync, and an
atomic rewrite: temporary file + fsync + rename + folder fsync), so that a reader can scale
every figure to a phone. Then, by session length (50 to 10,000 events), recording one event
with orjson and with the standard `json` module (what phones without an orjson wheel use)
side by side, each against SQLite (WAL, `synchronous=FULL`, one row per event) in the same
run, their appends alternating. A session file takes one appended record per event and is
rewritten whole every `COMPACT_EVERY` events, so the median is an append and the p95 shows
the rewrites; the CPU median (the process's CPU time, which the disk's moods do not reach)
and the ratios of the longest session to the shortest say whether recording stays flat.

Then, for each archive size (sessions of 200 events each) it prints:

- record: median and p95 time for `session.apply` to return with the event durably saved
  (atomic write + fsync of file and folder), on a session inside the archive;
- open 500: time for `store.open` of a 500-event session (read, check, replay);
- list: `store.sessions()` in a freshly started store after the archive's files were dropped
  from the page cache (`posix_fadvise(DONTNEED)`; "cold"), again (warm: one stat per
  file), and `store.listing()` (what Home uses: no file looked at but the index's);
- create: `store.new` (writes the session file and the index);
- scoring: median and p95 of recording the scoring (`zone` events) of a Great Plains game
  whose tokens are all placed (printed on a line of its own);
- memory: peak Python allocation (tracemalloc) while recording 50 events ("mem rec"), while
  listing (the summaries returned, "mem list"), and what a started store keeps after
  listing: the index as compact summaries ("kept");

and, as reference points in the same run, the same event append through

- plain TinyDB: stock `JSONStorage`, all sessions in one file (every write rewrites it),
  one `update(fn)` per event (one parse and one write of the file);
- SQLite: one row per event, WAL, `synchronous=FULL`, one commit per event (its appends
  alternate with the store's, so that both meet the same disk conditions).

Goals: record <= 1 ms median at every session length and archive size, within 1.5x of
SQLite, with orjson and with json; listing 10,000 sessions <= 100 ms; memory not growing
with the archive. Figures from a shared machine are noisy: compare columns of one run.

Archives hold mostly finished games (5 of every 6; listing any session costs one stat of
its file, which gives its updated time). They are written directly through the store's
storage (valid sessions built once by the rules, then copied under fresh ids) so that
10,000 sessions take seconds, not hours.
"""

from __future__ import annotations

import argparse
import contextlib
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

from companion.session import Session  # noqa: E402
from companion.store import Store, storage  # noqa: E402
from companion.store.index_file import by_key  # noqa: E402
from companion.store.store import new_session_id  # noqa: E402
from companion.text.messages import RuleError  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy"]
NOTE = "a fairly long note so that every event weighs something"


def play(events: int, seed: int, finish: bool = False) -> Session:
    """A valid heartland session of exactly `events` events, or a few more when finished at the end.

    Turns of corrections, then the turn's action (a discard) and its end.
    """
    rng = random.Random(seed)
    session = Session.new("heartland", PLAYERS)
    acted = False
    while session.cursor < events:
        current = session.current_player or PLAYERS[0]
        left = events - session.cursor
        if acted and rng.random() < 0.5:
            event: dict[str, Any] = {"type": "end_turn", "player": current}
            acted = False
        elif not acted and left >= 2 and rng.random() < 0.3:
            event = {"type": "discard", "player": current, "forced": True}
            acted = True
        else:
            event = {"type": "adjust", "player": current, "amount": rng.choice([-1, 1]), "note": NOTE}
        try:
            session.apply(event)
        except RuleError:
            session.apply({"type": "adjust", "player": current, "amount": 1, "note": NOTE})
    if finish:
        session.apply({"type": "adjust", "player": session.current_player or PLAYERS[0], "amount": 60, "note": NOTE})
        while not session.is_over:
            current = session.current_player or PLAYERS[0]
            with contextlib.suppress(RuleError):  # the turn's action may be taken already
                session.apply({"type": "discard", "player": current, "forced": True})
            session.apply({"type": "end_turn", "player": current})
    return session


def session_file(session: Session, created: float) -> bytes:
    doc = session.to_dict()
    doc.update(created=created, title="")
    return storage.encode({"_meta": {"1": {"format": 1, "kind": "session"}}, "session": {"1": doc}})


def index_entry(session: Session, created: float) -> dict[str, Any]:
    winners = [standing.player for standing in session.standings() if standing.winner] if session.is_over else []
    return {
        "game": "heartland",
        "players": list(session.players),
        "created": created,
        "updated": created,
        "title": "",
        "is_over": session.is_over,
        "winners": winners,
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
    index = by_key({}, entries)  # as this version writes it
    storage.DiskFolder(directory).write("index.json", storage.encode(index))
    return ids


def drop_from_page_cache(directory: Path) -> bool:
    """Ask the kernel to forget the cached pages of every file (a cold start); False where it cannot."""
    if not hasattr(os, "posix_fadvise"):
        return False
    if hasattr(os, "sync"):
        os.sync()  # dirty pages cannot be dropped
    for path in directory.rglob("*"):
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)
    return True


def fsync_cost(directory: Path) -> tuple[float, float]:
    """Median seconds of one durable small append, and of one atomic durable rewrite of a small file."""
    folder = storage.DiskFolder(directory)
    folder.write("probe.json", b"x" * 2000)
    appends = [timed(lambda: folder.append("probe.json", b"y" * 150)) for _ in range(40)]
    rewrites = [timed(lambda: folder.write("probe.json", b"x" * 2000)) for _ in range(40)]
    folder.remove("probe.json")
    return statistics.median(appends), statistics.median(rewrites)


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
    """Median and p95 of recording the zones of a Great Plains game whose tokens are all placed (its scoring)."""
    game = store.new("great_plains", ["Ann", "Bob"])
    while game.current_player is not None:
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
    store.sessions()  # adopts the 500-event session (one parse, one index write)
    store.close()
    result["cold"] = drop_from_page_cache(directory)
    store = Store(directory)
    result["list_cold"] = timed(store.sessions)
    result["list_warm"] = statistics.median(timed(store.sessions) for _ in range(5))
    result["listing"] = statistics.median(timed(store.listing) for _ in range(5))
    result["listed"] = len(store.sessions())

    creates = []
    for _ in range(5):
        creates.append(timed(lambda: store.close_session(store.new("heartland", PLAYERS).id or "")))
    result["create"] = statistics.median(creates)

    # A game in progress inside the archive (200 events so far): 200 more recorded, one by one.
    session = store.open(ids[1] if size > 1 else ids[0])
    assert not session.is_over and session.cursor == 200
    # SQLite appends alternate with the store's, so that both meet the same disk conditions.
    bodies = [[json.dumps(event) for event in template.to_dict()["events"]] for template in templates]
    sqlite_append, sqlite_close = sqlite_reference(directory, [bodies[number % len(bodies)] for number in range(size)])
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
    fresh = Store(directory)
    tracemalloc.reset_peak()
    listed_from = tracemalloc.get_traced_memory()[0]
    listing = fresh.sessions()
    result["memory_list"] = tracemalloc.get_traced_memory()[1] - listed_from
    del listing
    result["memory_index"] = tracemalloc.get_traced_memory()[0] - before  # the index as the store keeps it
    tracemalloc.stop()
    store.close()
    return result


def bench_length(directory: Path, session: Session, serialiser: str, samples: int) -> dict[str, float]:
    """Open a session of this length and record `samples` events, alternating with SQLite appends."""
    storage.use_orjson(serialiser == "orjson")
    directory.mkdir(parents=True)
    store = Store(directory)
    session_id = new_session_id()
    storage.DiskFolder(directory).write(f"sessions/{session_id}.json", session_file(session, time.time()))
    opened = timed(lambda: store.open(session_id))
    game = store.open(session_id)
    sqlite_append, sqlite_close = sqlite_reference(directory, [[json.dumps(event) for event in game.events]])
    records, reference, cpu = [], [], []
    for number in range(samples):
        amount = 1 if number % 2 == 0 else -1  # alternate so that no one goes below $0
        event = {"type": "adjust", "player": game.current_player or PLAYERS[0], "amount": amount, "note": NOTE}
        started = time.process_time()
        records.append(timed(lambda: game.apply(event)))  # noqa: B023 - called at once
        cpu.append(time.process_time() - started)
        reference.append(timed(sqlite_append))
    sqlite_close()
    store.close()
    storage.use_orjson(True)
    return {
        "open": opened,
        "median": statistics.median(records),
        "p95": percentile(records, 0.95),
        "sqlite": statistics.median(reference),
        "cpu": statistics.median(cpu),
    }


def report_lengths(base: Path, lengths: list[int], samples: int) -> None:
    header = (
        f"{'events':>7} | {'serialiser':>10} | {'open':>11} | {'record med':>11} {'p95':>11} "
        f"{'CPU med':>11} | {'SQLite':>11} {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    results: dict[tuple[int, str], dict[str, float]] = {}
    for length in lengths:
        session = play(length, seed=length)
        for serialiser in ("orjson", "json"):
            if serialiser == "orjson" and storage.use_orjson(True) == "json":
                continue  # not installed here
            result = bench_length(base / f"length-{length}-{serialiser}", session, serialiser, samples)
            results[length, serialiser] = result
            print(
                f"{length:>7} | {serialiser:>10} | {ms(result['open'])} | {ms(result['median'])} "
                f"{ms(result['p95'])} {ms(result['cpu'])} | {ms(result['sqlite'])} "
                f"{result['median'] / result['sqlite']:5.2f}x",
                flush=True,
            )
            shutil.rmtree(base / f"length-{length}-{serialiser}", ignore_errors=True)
    for serialiser in ("orjson", "json"):
        shortest, longest = (results.get((length, serialiser)) for length in (min(lengths), max(lengths)))
        if shortest and longest and len(lengths) > 1:
            print(
                f"recording at {max(lengths):,} events against {min(lengths):,} ({serialiser}): "
                f"{longest['median'] / shortest['median']:.2f}x in time, {longest['cpu'] / shortest['cpu']:.2f}x "
                "in CPU (flat: 1.00x)"
            )
    print(
        f"record = session.apply returning with the event durable (an appended record; the file is rewritten "
        f"whole every {storage.COMPACT_EVERY} records: see p95); open = store.open (read, replay); "
        "ratio = record median / SQLite append median"
    )
    print()


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
            def change(doc: Any) -> None:
                doc["events"].append(event)
                doc["cursor"] += 1

            table.update(change, doc_ids=[target])  # one read and one write of the whole file

        times.append(timed(append))
    db.close()
    path.unlink()
    return times


def sqlite_reference(directory: Path, sessions: list[list[str]]) -> tuple[Callable[[], None], Callable[[], None]]:
    """The same sessions in SQLite (one row per event, bodies as JSON); returns (append one event durably, close)."""
    path = directory / "reference.sqlite"
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=OFF")
    connection.execute("CREATE TABLE events (session INTEGER, seq INTEGER, body TEXT, PRIMARY KEY (session, seq))")
    connection.execute("BEGIN")
    connection.executemany(
        "INSERT INTO events VALUES (?, ?, ?)",
        ((number, seq, body) for number, bodies in enumerate(sessions) for seq, body in enumerate(bodies)),
    )
    connection.execute("COMMIT")
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.execute("PRAGMA synchronous=FULL")
    target, counter = len(sessions) // 2, iter(range(10**6, 10**9))
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
    parser.add_argument("--lengths", default="50,500,2000,10000", help="session lengths for recording (events)")
    parser.add_argument("--samples", type=int, default=200, help="events recorded at each session length")
    parser.add_argument(
        "--json", action="store_true", help="the archive part with the standard json module even if orjson is there"
    )
    parser.add_argument("--dir", help="where to build the archives (default: a temporary folder)")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",") if size]
    lengths = [int(length) for length in options.lengths.split(",") if length]
    base = Path(options.dir or tempfile.mkdtemp(prefix="companion-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    append_cost, rewrite_cost = fsync_cost(base)
    print(
        f"Python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} CPUs; this disk: a durable append "
        f"of 150 bytes {append_cost * 1000:.2f} ms, an atomic durable rewrite of 2 KB {rewrite_cost * 1000:.2f} ms "
        "(scale the figures below by these to compare with another machine)"
    )
    print()
    if lengths:
        report_lengths(base, lengths, options.samples)
    serialiser = storage.use_orjson(not options.json)
    print(f"archives of 200-event sessions; serialiser: {serialiser}")
    # An archive is mostly finished games: 5 of every 6 sessions are finished, 1 was abandoned.
    templates = [play(200, seed, finish=seed != 1) for seed in range(6)]
    long_session = play(500, 99)
    header = (
        f"{'sessions':>8} | {'record med':>11} {'p95':>11} | {'open 500':>11} | {'list cold':>11} "
        f"{'warm':>11} {'listing':>11} | {'create':>11} | {'mem rec':>8} {'mem list':>8} {'kept':>8} | "
        f"{'TinyDB 1 file':>13} {'x slower':>8} | {'SQLite':>11} {'ratio':>6}"
    )
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
                f"{ms(result['list_cold'])} {ms(result['list_warm'])} {ms(result['listing'])} | "
                f"{ms(result['create'])} | "
                f"{result['memory_record'] / 1e6:6.2f}MB {result['memory_list'] / 1e6:6.2f}MB "
                f"{result['memory_index'] / 1e6:6.2f}MB | "
                f"{plain_median * 1000:10.1f} ms {plain_median / result['record_median']:7.0f}x | "
                f"{ms(sqlite_median)} {result['record_median'] / sqlite_median:5.2f}x",
                flush=True,
            )
            print(
                f"{'':>8} | recording the scoring (zone events of a Great Plains game): "
                f"median {ms(result['zone_median']).strip()}, p95 {ms(result['zone_p95']).strip()}",
                flush=True,
            )
            shutil.rmtree(directory, ignore_errors=True)
    finally:
        if not options.dir:
            shutil.rmtree(base, ignore_errors=True)
    print(
        "record = session.apply returning with the event durable; ratio = store record / SQLite append; "
        "list cold = a new store's first listing with the files out of the page cache"
        + ("" if hasattr(os, "posix_fadvise") else " (not possible here: the files stay cached)")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Does recording a tap need its own path past TinyDB's table API? (A benchmark, not a test.)

    python tests/bench/append_path.py                  # sessions of 300, 1,000 and 10,000 events
    python tests/bench/append_path.py --lengths 300,1000 --samples 200

A tap is saved by `Journal.record` with one `update` through TinyDB's table API (the whole
log given; `JournalStorage.write` finds what it kept and appends the rest). This compares
it, in the same run and alternating tap by tap, with the shortcut the store used before
(`JournalStorage.change_list`, kept here only to be measured: it appended the record
without TinyDB), with orjson and with the standard `json` module. Printed: the median wall
time of `session.apply` returning with the event durable, and its median CPU time (which
the disk's moods do not reach).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from store import NOTE, PLAYERS, ms, play, session_file  # noqa: E402

from companion.store import Store, storage  # noqa: E402
from companion.store.listing import new_session_id  # noqa: E402

SHORTCUT = [False]
_change_list = storage.JournalStorage.change_list


def change_list(self, *args, **kwargs):  # type: ignore[no-untyped-def]
    return _change_list(self, *args, **kwargs) if SHORTCUT[0] else False


storage.JournalStorage.change_list = change_list  # type: ignore[method-assign]


def measure(directory: Path, length: int, samples: int) -> dict[str, tuple[float, float]]:
    directory.mkdir(parents=True)
    store = Store(directory)
    session_id = new_session_id()
    storage.DiskFolder(directory).write(f"sessions/{session_id}.json", session_file(play(length, length), time.time()))
    game = store.open(session_id)
    wall: dict[str, list[float]] = {"table API": [], "shortcut": []}
    cpu: dict[str, list[float]] = {"table API": [], "shortcut": []}
    for number in range(samples):
        path = "shortcut" if number % 2 else "table API"
        amount = 1 if number % 4 < 2 else -1  # no one goes below $0
        event = {"type": "adjust", "player": game.current_player or PLAYERS[0], "amount": amount, "note": NOTE}
        SHORTCUT[0] = path == "shortcut"
        started, started_cpu = time.perf_counter(), time.process_time()
        game.apply(event)
        wall[path].append(time.perf_counter() - started)
        cpu[path].append(time.process_time() - started_cpu)
    SHORTCUT[0] = False
    store.close()
    return {path: (statistics.median(wall[path]), statistics.median(cpu[path])) for path in wall}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="300,1000,10000")
    parser.add_argument("--samples", type=int, default=400)
    args = parser.parse_args()
    print(f"{'events':>7} | {'serialiser':>10} | {'table API wall / CPU':>22} | {'shortcut wall / CPU':>22}")
    with tempfile.TemporaryDirectory() as base:
        for length in (int(text) for text in args.lengths.split(",")):
            for serialiser in ("orjson", "json"):
                if storage.use_orjson(serialiser == "orjson") != serialiser:
                    continue  # orjson not installed here
                result = measure(Path(base) / f"{length}-{serialiser}", length, args.samples)
                api, shortcut = result["table API"], result["shortcut"]
                figures = f"{ms(api[0])} / {ms(api[1])} | {ms(shortcut[0])} / {ms(shortcut[1])}"
                print(f"{length:>7} | {serialiser:>10} | {figures}", flush=True)
            storage.use_orjson(True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

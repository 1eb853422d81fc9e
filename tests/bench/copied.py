"""The first Home listing of a data folder copied without its file times (a benchmark, not a test).

    python tests/bench/copied.py                  # 10,000 games
    python tests/bench/copied.py --games 2000     # quicker

Builds an archive (tests/archive_helpers.py), imports it into a fresh data folder as the app
does, then copies that folder as `cp -r` does (every file a new time, set an hour later with
os.utime) and times, in a fresh process each, the first `AppData.home()` of the folder and of
its copy, with how many games the copy's listing read again (parsed and replayed).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def child(directory: str) -> None:
    from companion.app.data import AppData
    from companion.store import Store
    from companion.store.repair import Repair

    loads = [0]
    real = Repair.load

    def counted(self: Repair, session_id: str, lock: object) -> object:
        loads[0] += 1
        return real(self, session_id, lock)  # type: ignore[arg-type]

    Repair.load = counted  # type: ignore[assignment,method-assign]
    started = time.perf_counter()
    data = AppData(Store(directory))
    data.home()
    print(f"{time.perf_counter() - started:.3f} {loads[0]}")
    data.store.close()


def measure(directory: Path) -> tuple[float, int]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(directory)], check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), int(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    games = parser.parse_args().games
    from archive_helpers import build

    from companion.aftergame.archive import export_json, import_json
    from companion.app.data import status_of
    from companion.store import Store
    from companion.store.storage import DiskFolder

    base = Path(tempfile.mkdtemp(prefix="companion-copied-bench-"))
    try:
        build(DiskFolder(base / "built", durable=False), games, 5)
        with Store(base / "built") as store:
            archive = export_json(store)
        with Store(base / "data", durable=False, status=status_of) as store:  # as the app's store
            import_json(store, archive)
        original = measure(base / "data")
        shutil.copytree(base / "data", base / "copy", copy_function=shutil.copyfile)  # as `cp -r`
        later = time.time() + 3600
        for path in (base / "copy" / "sessions").iterdir():
            os.utime(path, (later, later))
        copied = measure(base / "copy")
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; {games} games imported from an archive")
        print(
            f"first Home listing: the folder {original[0] * 1000:.0f} ms ({original[1]} games read again); "
            f"its copy with new file times {copied[0] * 1000:.0f} ms ({copied[1]} games read again)"
        )
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        main()

"""How fast does the phone build start and tap, and how much does a phone download? (A benchmark, not a test.)

    python tests/bench/publish.py                  # builds the site, then 5 runs of each
    python tests/bench/publish.py --site DIR       # an existing build (companion publish DIR)
    python tests/bench/publish.py --runs 3 --taps 10
    python tests/bench/publish.py --files 3000     # as a phone with thousands of saved files

The site is served from 127.0.0.1 by a static server that counts the bytes it sends, and
opened in Chromium (tests/e2e/phone.py: nothing else reachable) at 412x915:

- first visit: a new profile; from opening the page to Home usable (its "+ New game"
  button in Flutter's semantics tree), the service worker caching the app on the way (all
  but its fallback fonts, cached once it is up: the run waits for them too); and the bytes
  the server sent for all of it;
- the snapshot: how long after Home the page has made Python's memory snapshot (in a worker
  of its own), which the cached start restores; the run waits for it, as a phone left open
  for that long;
- cached start: the browser closed and started again on that profile, the page opened to
  Home usable (every file from the service worker's cache, Python from its snapshot);
- a tap: on a Heartland turn, "2 · $2" (a move) and then its Undo, alternately, each timed in
  the page from the click to its words shown ("Last: Ann moved…" / "Nothing recorded
  yet."), which includes its copy into IndexedDB (nothing reaches the screen before it).

With `--files N`, N more files (3 KB each, in a folder of their own) are put in the
profile's IndexedDB after the first visit, as a phone that has kept thousands of games and
backups: the cached start loads them, and each tap's copy into IndexedDB is measured among
them.

Medians (and the range) of the runs. Aims on this machine: cached start <= 3 s, first
visit <= 8 s, a tap <= 50 ms, <= 40 MB downloaded. Figures are printed, never asserted;
on a shared machine they are noisy.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "tests", ROOT / "tests" / "e2e"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from harness import FlutterPage, free_port  # noqa: E402
from phone import offline_ready, phones  # noqa: E402
from test_app_e2e import new_game, see, tap  # noqa: E402

# Clicks the element and resolves with the milliseconds until `words` are shown.
TIMED_TAP_JS = """(element, words) => new Promise((resolve) => {
    const shown = () => Array.from(document.querySelectorAll("flt-semantics span, flt-semantics"))
        .some((node) => node.textContent.trim() === words);
    const started = performance.now();
    const observer = new MutationObserver(() => {
        if (shown()) { observer.disconnect(); resolve(performance.now() - started); }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    setTimeout(() => { observer.disconnect(); resolve(-1); }, 10000);
    element.click();
})"""


class CountingHandler(http.server.SimpleHTTPRequestHandler):
    sent = 0
    lock = threading.Lock()

    def log_message(self, *args: Any) -> None:
        pass

    def copyfile(self, source: Any, outputfile: Any) -> None:
        data = source.read()
        outputfile.write(data)
        with CountingHandler.lock:
            CountingHandler.sent += len(data)


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a browser closing a connection early (a page closed mid-download) is not news


def serve(folder: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    port = free_port()
    server = QuietServer(("127.0.0.1", port), functools.partial(CountingHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{port}", server


def home_usable(ui: FlutterPage) -> float:
    """Seconds from opening the page to Home's "+ New game" in the semantics tree."""
    started = time.monotonic()
    ui.page.goto(ui.url)
    ui.enable_semantics(poll_ms=50)
    ui.page.get_by_role("button", name="+ New game", exact=True).wait_for(state="attached", timeout=ui.timeout_ms)
    return time.monotonic() - started


# N files of 3 KB put in the saved games' database, as IDBFS keeps them (a record a file and
# one a folder), in a folder the app never reads.
FILL_JS = """(count) => new Promise((resolve, reject) => {
    const opened = indexedDB.open("/data");
    opened.onerror = () => reject(opened.error);
    opened.onsuccess = () => {
        const transaction = opened.result.transaction("FILE_DATA", "readwrite");
        const files = transaction.objectStore("FILE_DATA");
        files.put({ timestamp: new Date(), mode: 0o40755 }, "/data/filler");
        const contents = new TextEncoder().encode("x".repeat(3000));
        for (let number = 0; number < count; number++) {
            files.put({ timestamp: new Date(), mode: 0o100644, contents }, "/data/filler/" + number);
        }
        transaction.oncomplete = () => { opened.result.close(); resolve(count); };
        transaction.onerror = () => reject(transaction.error);
    };
})"""


def snapshot_made(ui: FlutterPage) -> float | None:
    """Seconds until the page has made Python's snapshot, which the next start restores (the
    phone left open that long after a first visit); raises if it was not made; None for a
    build from before snapshots (to compare with one)."""
    if ui.page.evaluate("() => globalThis.companionPython") is None:
        return None
    started = time.monotonic()
    while time.monotonic() - started < 60:
        made = ui.page.evaluate("() => globalThis.companionSnapshot")
        if made is not None:
            if made != "kept":
                raise AssertionError(f"no snapshot of Python: {made}")
            return time.monotonic() - started
        ui.page.wait_for_timeout(100)
    raise AssertionError("no snapshot of Python within a minute")


def figures(values: list[float], unit: str, scale: float = 1.0) -> str:
    scaled = [value * scale for value in values]
    return f"{statistics.median(scaled):.2f} {unit} (min {min(scaled):.2f}, max {max(scaled):.2f}, n={len(scaled)})"


def timed_taps(ui: FlutterPage, taps: int) -> list[float]:
    new_game(ui, None, "Ann", "Bob")
    tap(ui, "Start game")
    see(ui, "Round 1 · Ann's turn", "Nothing recorded yet.")
    times = []
    for number in range(taps):
        if number % 2 == 0:
            button = ui.page.get_by_role("button", name="2 · $2", exact=True)
            words = "Last: Ann moved 2 spaces for $2"
        else:
            button = ui.page.get_by_role("button", name="Undo", exact=True)  # the one beside the last act
            words = "Nothing recorded yet."
        button.wait_for(state="attached")
        ui.page.wait_for_timeout(300)  # the tap before is drawn and settled
        took = float(button.element_handle().evaluate(TIMED_TAP_JS, words))
        if took < 0:
            raise AssertionError(f"{words!r} not shown within 10 s of the tap")
        times.append(took)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a site built by companion publish (default: build one now)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--taps", type=int, default=20)
    parser.add_argument("--files", type=int, default=0, help="files put in IndexedDB before the cached start")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="companion-bench-publish-"))
    try:
        return measure(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(args: argparse.Namespace, work: Path) -> int:
    site = args.site
    if site is None:
        site = work / "site"
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "companion", "publish", str(site)], check=True, cwd=ROOT)
        print(f"build: {time.monotonic() - started:.1f} s")
    origin, server = serve(site)
    host_bytes = sum(file.stat().st_size for file in site.rglob("*") if file.is_file())
    first, cached, downloads, taps = [], [], [], []
    snapshots: list[float | None] = []
    offline: list[float] = []
    # A build from before (to compare with) cached its fallback fonts before it started.
    fonts_after = "companion-cache-all" in (site / "start.js").read_text(encoding="utf-8")
    with phones() as launch:
        for run in range(args.runs):
            profile = work / f"profile-{run}"
            before = CountingHandler.sent
            phone = launch(profile, origin)
            ui = FlutterPage(phone.context.pages[0], origin + "/", phone.timeout_ms, phone.requests, phone.console)
            first.append(home_usable(ui))
            print(f"run {run + 1}: first visit {first[-1]:.2f} s", file=sys.stderr, flush=True)
            snapshots.append(snapshot_made(ui))
            if fonts_after:
                offline.append(offline_ready(ui))
            ui.page.wait_for_timeout(1000)  # anything still on its way is counted too
            downloads.append(CountingHandler.sent - before)
            if args.files:
                ui.page.evaluate(FILL_JS, args.files)
            phone.close()
            phone = launch(profile, origin)
            ui = FlutterPage(phone.context.pages[0], origin + "/", phone.timeout_ms, phone.requests, phone.console)
            cached.append(home_usable(ui))
            print(f"run {run + 1}: cached start {cached[-1]:.2f} s", file=sys.stderr, flush=True)
            if run == 0:
                taps = timed_taps(ui, args.taps)
            assert not phone.refused, phone.refused
            phone.close()
    server.shutdown()
    print(f"site: {host_bytes / 1e6:.1f} MB on the host")
    print(f"first visit, page opened -> Home usable: {figures(first, 's')}")
    print(f"  downloaded from the server: {figures([float(size) for size in downloads], 'MB', 1e-6)}")
    made = [seconds for seconds in snapshots if seconds is not None]
    if made:
        print(f"  Python's snapshot kept, seconds after Home usable: {figures(made, 's')}")
    if offline:
        print(
            f"  then the fallback fonts cached (offline whatever it shows), seconds after that: {figures(offline, 's')}"
        )
    print(f"cached start (browser restarted), page opened -> Home usable: {figures(cached, 's')}")
    among = f" among {args.files} more saved files" if args.files else ""
    print(f"a tap, click -> its words shown, with its IndexedDB copy{among}: {figures(taps, 'ms')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

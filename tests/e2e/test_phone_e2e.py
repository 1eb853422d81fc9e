"""The phone alone: `companion publish DIR` builds a static site that runs the app in the
browser with no server and no network (Pyodide, IndexedDB, a service worker).

The site is built once per test run by the real command, served from 127.0.0.1 by a plain
static server, and opened in Chromium with every other address refused (see phone.py).
Each test has profiles (phones) of its own. A tap shown on screen must have reached
IndexedDB: the browser is SIGKILLed right after one and reopened with its server stopped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from couch_helpers import CouchServer
from harness import PROJECT_ROOT, FlutterPage, free_port
from phone import Phone, StaticSite, offline_ready, phones
from test_app_e2e import GOODS, new_game, see, tap, tap_icon, type_number

from companion import publish
from companion.store import Store
from companion.sync.couch import Couch
from companion.sync.engine import sync_round

NAME = "Zoë 🐻 Ωμέγα Юлия"
CJK_NAME = "李雷"


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The site, made by the command a user types, and what it printed."""
    folder = tmp_path_factory.mktemp("phone") / "site"
    done = subprocess.run(
        [sys.executable, "-m", "companion", "publish", str(folder)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    return folder, done.stdout


@pytest.fixture
def site(built: tuple[Path, str]) -> Iterator[StaticSite]:
    with StaticSite(built[0]) as served:
        yield served


def nothing_left_the_site(phone: Phone) -> None:
    assert phone.refused == [], phone.refused
    assert [line for line in phone.console if "Content Security Policy" in line] == []


# --- the build ---------------------------------------------------------------------------


def test_one_command_builds_the_site_and_says_its_size(built: tuple[Path, str]) -> None:
    folder, said = built
    last = said.strip().splitlines()[-1]
    assert re.fullmatch(
        rf"companion: published to {re.escape(str(folder))}: \d+ files, [\d.]+ MB on the host; a "
        r"first visit downloads [\d.]+ MB \([\d.]+ MB outside Chromium\) and then runs offline "
        r"\([\d.]+ MB of the client that no renderer here loads left out\)",
        last,
    ), last
    # What no renderer here loads, and Flutter's self-unregistering worker, are gone.
    for trimmed in (
        "canvaskit/wimp.wasm",
        "canvaskit/canvaskit.js.symbols",
        "flutter_service_worker.js",
        "pyodide/python.exe",
        "pyodide/micropip-0.11.1-py3-none-any.whl",
    ):
        assert not (folder / trimmed).exists(), trimmed
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "<script>" not in page and 'http-equiv="Content-Security-Policy"' in page
    assert '<script src="start.js">' in page and "flutter_bootstrap.js" not in page
    settings = (folder / "flet-config.js").read_text(encoding="utf-8")
    assert 'flet.pyodideUrl = "./pyodide/pyodide.mjs"' in settings
    assert f'flet.pythonModuleName = "{publish.START_MODULE}"' in settings
    # Nothing names the internet but the licence texts.
    for name in ("main.dart.js", "flet-config.js", "python-worker.js", "companion-worker.js", "flutter_bootstrap.js"):
        assert "cdn.jsdelivr.net" not in (folder / name).read_text(encoding="utf-8"), name
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["name"], manifest["display"], manifest["theme_color"]) == ("Companion", "standalone", "#2E7D32")
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert (folder / icon["src"]).is_file()


def service_worker_build(folder: Path) -> dict[str, Any]:
    """What the build's service worker knows of it: its version, its files (path, SHA-256,
    bytes, gzip copy, lazy) and the fallback fonts."""
    worker = (folder / publish.SERVICE_WORKER).read_text(encoding="utf-8")
    return json.loads(re.search(r"const BUILD = (\{.*?\});\n", worker).group(1))  # type: ignore[no-any-return, union-attr]


def test_the_service_worker_caches_every_file_of_the_site(built: tuple[Path, str]) -> None:
    import hashlib

    folder = built[0]
    build = service_worker_build(folder)
    listed = {path: digest for path, digest, _, _, _ in build["files"]}
    on_disk = {
        path for path, _ in publish.files_under(folder) if not (path.endswith(".gz") and (folder / path[:-3]).is_file())
    }
    assert set(listed) == on_disk - {publish.SERVICE_WORKER, publish.MARKER}
    # Flutter's two builds (a browser runs one) are cached when first asked for; the rest at once.
    later = {path for path, _, _, _, lazy in build["files"] if lazy}
    assert {"main.dart.js", "main.dart.wasm", "canvaskit/canvaskit.wasm", "canvaskit/skwasm.wasm"} <= later
    assert not later & {"index.html", "pyodide/pyodide.asm.wasm", "app.zip", "fonts/NotoColorEmoji.woff2"}
    for path, digest in listed.items():
        assert hashlib.sha256((folder / path).read_bytes()).hexdigest() == digest, path
    assert set(build["fonts"].values()) == {
        "fonts/NotoSans-Regular.woff2",
        "fonts/NotoColorEmoji.woff2",
        "fonts/NotoSansCJK-Regular-subset.woff2",
    }
    assert json.loads((folder / publish.MARKER).read_text())["version"] == build["version"]


# --- in Chromium -------------------------------------------------------------------------


def stop_the_game(ui: FlutterPage) -> None:
    """From the log sheet: the table stops the game; the standings are final."""
    tap_icon(ui, "Session log")
    tap(ui, "Stop game")
    tap(ui, "Stop the game")
    see(ui, "Stopped early: stopped by the table")


def short_heartland(ui: FlutterPage) -> None:
    new_game(ui, None, "Ann", "Bob")
    tap(ui, "Start game")
    see(ui, "Round 1 · Ann's turn")
    tap(ui, "2 · $2")
    see(ui, "Last: Ann moved 2 spaces for $2")
    tap(ui, "Load")
    tap(ui, "3", nth=GOODS.index("corn"))
    see(ui, "Last: Ann loaded 3 corn")
    tap(ui, "End Ann's turn (Bob next)")
    see(ui, "Round 1 · Bob's turn")
    stop_the_game(ui)


def short_transamerica(ui: FlutterPage, *players: str) -> None:
    new_game(ui, "TransAmerica · 2–6 players", *(players or ("Ann", "Bob")))
    tap(ui, "Start game")
    tap(ui, "End round 1")
    tap(ui, "0", nth=0)  # the first player connected all their cities
    type_number(ui, "13", nth=1)  # the second missed all 13: beyond the chips, typed
    tap(ui, "Save round 1")
    see(ui, f"{players[0] if players else 'Ann'} wins with 13 points")


def short_great_plains(ui: FlutterPage) -> None:
    new_game(ui, "Great Plains · 2 players", "Ann", "Bob")
    tap(ui, "Start game")
    for cave in range(6):
        tap(ui, f"Place cave ({cave + 1} of 6) · {('Ann', 'Bob')[cave % 2]}")
    see(ui, "Fox's turn (Ann) · token")
    tap(ui, "+ Horse")
    see(ui, "Last: Ann placed a token (1 of 20) and took a horse spirit")
    tap(ui, "Place token · Bob")
    see(ui, "Last: Bob placed a token (1 of 20)")
    stop_the_game(ui)


def home(ui: FlutterPage) -> None:
    tap_icon(ui, "Back to all games")
    see(ui, "Companion")


def finished_card(ui: FlutterPage, title: str) -> Any:
    card = ui.page.get_by_role("button", name=re.compile(rf"^{re.escape(title)} · Ann and Bob\s"))
    card.first.wait_for(state="attached", timeout=ui.timeout_ms)
    return card


def test_each_title_plays_with_no_network_and_is_there_after_a_reload(site: StaticSite, tmp_path: Path) -> None:
    with phones() as launch:
        phone = launch(tmp_path / "phone", site.origin)
        ui = phone.open()
        see(ui, "Companion", "No games yet. Start one below; every tap is saved as you play.")
        ui.screenshot("40-phone-home")
        short_heartland(ui)
        home(ui)
        short_transamerica(ui)
        ui.screenshot("41-phone-transamerica-over")
        home(ui)
        short_great_plains(ui)
        home(ui)

        # Statistics, from the finished games' results.
        tap_icon(ui, "Statistics")
        ui.page.get_by_text(re.compile(r"^\d+ games? played$")).first.wait_for(state="attached")
        tap_icon(ui, "Back to all games")

        # Settings says whether the browser may clear the games (it asked to keep them).
        tap_icon(ui, "Settings")
        see(ui, "Saved games")
        kept = (
            "Kept in this browser, which has agreed not to clear them to make room.",
            "Kept in this browser, which may clear them when the phone runs short of space. Export your games "
            "now and then (Your games, on Home).",
        )
        ui.page.get_by_text(re.compile("^(" + "|".join(map(re.escape, kept)) + ")$")).wait_for(state="attached")
        ui.screenshot("42-phone-settings")
        home(ui)  # shown, so kept: a reload before the tap is answered comes back to Settings

        # A reload starts Python afresh: the games come back from IndexedDB.
        ui.page.reload()
        ui.enable_semantics()
        see(ui, "Finished")
        for title in ("Heartland", "TransAmerica", "Great Plains"):
            finished_card(ui, title)
        # The day's backup was made in IndexedDB too.
        tap_icon(ui, "Your games: export, import, backups")
        ui.page.get_by_role("button", name="Restore", exact=True).first.wait_for(state="attached")
        tap(ui, "Close")
        # No share button in this build: a tab cannot host the table.
        finished_card(ui, "TransAmerica").first.click()  # its result, chart (flet-charts) and log
        see(ui, "First player: Ann")
        ui.page.mouse.move(206, 600)
        ui.page.mouse.wheel(0, 3000)  # the log is under the date, the result and the chart
        see(ui, "1. Round 1 ended: Ann connected all cities; Bob -13")
        ui.page.get_by_role("button", name="Send to BG Stats", exact=True).wait_for(state="attached")
        assert not ui.page.get_by_label("Share with the table", exact=True).count()
        nothing_left_the_site(phone)


def saved_games_in_indexeddb(ui: FlutterPage) -> str:
    """The saved games' files as IndexedDB holds them (Emscripten's IDBFS: one record per file)."""
    return str(
        ui.page.evaluate("""() => new Promise((resolve, reject) => {
        const opened = indexedDB.open("/data");
        opened.onerror = () => reject(opened.error);
        opened.onsuccess = () => {
            const texts = [];
            const cursor = opened.result.transaction("FILE_DATA").objectStore("FILE_DATA").openCursor();
            cursor.onsuccess = () => {
                const file = cursor.result;
                if (!file) return resolve(texts.join("\\n"));
                if (String(file.key).startsWith("/data/sessions/") && file.value.contents) {
                    texts.push(new TextDecoder().decode(file.value.contents));
                }
                file.continue();
            };
            cursor.onerror = () => reject(cursor.error);
        };
    })""")
    )


def test_a_tap_shown_survives_killing_the_browser_and_the_app_opens_with_no_server(
    site: StaticSite, tmp_path: Path
) -> None:
    with phones() as launch:
        phone = launch(tmp_path / "phone", site.origin)
        ui = phone.open()
        new_game(ui, "TransAmerica · 2–6 players", "Ann", "Bob")
        tap(ui, "Start game")
        tap(ui, "End round 1")
        tap(ui, "0", nth=0)
        tap(ui, "4", nth=1)
        tap(ui, "Save round 1")
        see(ui, "Round 2 · Bob starts")  # shown: so already in IndexedDB
        assert ui.page.evaluate(PYTHON_JS) == "fresh"
        snapshot_kept(ui)  # made once the page was up (the phone was open for that long)
        offline_ready(ui)  # and then the fallback fonts cached: every file but the lazy ones is there
        eager = {path for path, *_, lazy in service_worker_build(site.folder)["files"] if not lazy}
        assert eager <= set(ui.page.evaluate(CACHED_JS)), eager - set(ui.page.evaluate(CACHED_JS))
        phone.kill()
        nothing_left_the_site(phone)
        site.stop()

        phone = launch(tmp_path / "phone", site.origin)
        ui = phone.open()  # from the service worker's cache: nothing answers on the site's address
        see(ui, "Round 2 · Bob starts", "Last: Round 1 ended: Ann connected all cities; Bob -4")
        assert ui.page.evaluate(PYTHON_JS) == "snapshot"  # Python restored, not started afresh
        ui.screenshot("43-phone-after-kill-no-server")
        assert saved_games_in_indexeddb(ui).count('"end_round"') == 1
        # And it goes on offline; the next tap is kept as well.
        tap(ui, "End round 2")
        tap(ui, "0", nth=1)
        tap(ui, "2", nth=0)
        tap(ui, "Save round 2")
        see(ui, "Round 3 · Ann starts")
        assert saved_games_in_indexeddb(ui).count('"end_round"') == 2

        # A damaged snapshot is not used: a normal start, the game as it was, and a new snapshot.
        ui.page.evaluate(DAMAGE_SNAPSHOT_JS)
        ui.page.reload()
        ui.enable_semantics()
        see(ui, "Round 3 · Ann starts")
        assert ui.page.evaluate(PYTHON_JS) == "fresh"
        snapshot_kept(ui)
        tap(ui, "Undo")
        see(ui, "Round 2 · Bob starts")
        nothing_left_the_site(phone)


# The paths in the service worker's cache of this build.
CACHED_JS = """async () => {
  const name = (await caches.keys()).find((name) => name.startsWith("companion-"));
  const base = new URL("./", location.href).href;
  return (await (await caches.open(name)).keys()).map((request) => request.url.slice(base.length));
}"""
PYTHON_JS = "() => globalThis.companionPython"  # how Python started: "fresh" or "snapshot"
# The kept snapshot, its bytes changed and its headers (its digest among them) left.
DAMAGE_SNAPSHOT_JS = """async () => {
  const cache = await caches.open("python-snapshot");
  const [request] = await cache.keys();
  const kept = await cache.match(request);
  const bytes = new Uint8Array(await kept.arrayBuffer());
  bytes[bytes.length >> 1] ^= 0xff;
  await cache.put(request, new Response(bytes, { headers: kept.headers }));
}"""


def snapshot_kept(ui: FlutterPage) -> None:
    deadline = time.monotonic() + 60
    while (made := ui.page.evaluate("() => globalThis.companionSnapshot")) is None and time.monotonic() < deadline:
        ui.page.wait_for_timeout(200)
    assert made == "kept", made


CACHES_JS = "() => caches.keys().then((names) => names.filter((name) => name.startsWith('companion-')))"
# What the page knows of an update that did not take (the worker's reason, the workers' states).
UPDATE_JS = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  const state = (worker) => worker ? worker.state : null;
  return { failed: globalThis.companionUpdateFailed || null, caches: await caches.keys(),
           active: state(registration && registration.active), waiting: state(registration && registration.waiting),
           installing: state(registration && registration.installing) };
}"""


def test_a_new_build_updates_the_app_downloading_only_what_changed_and_keeps_the_games(
    built: tuple[Path, str], tmp_path: Path
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    shutil.copytree(built[0], first)
    shutil.copytree(built[0], second)
    # A new build where one file changed (a rebuild writes its service worker again).
    changed = second / "flet-config.js"
    changed.write_text(changed.read_text(encoding="utf-8") + "\n// the next build\n", encoding="utf-8")
    new = publish.write_service_worker(second, 0).version
    # A rebuild comes later than the build it replaces. These copies were made within a second
    # of the build, and a plain static server dates files to the second: "not modified".
    later = time.time() + 5
    for rewritten in (changed, second / "service-worker.js"):
        os.utime(rewritten, (later, later))
    port = free_port()
    with phones() as launch:
        with StaticSite(first, port) as site:
            phone = launch(tmp_path / "phone", site.origin)
            ui = phone.open()
            short_transamerica(ui)
            home(ui)
            offline_ready(ui)  # all of the first build cached (its fallback fonts once it was up)
            (old_cache,) = ui.page.evaluate(CACHES_JS)
            assert old_cache != f"companion-{new}"
        with StaticSite(second, port) as site:
            ui.page.reload()  # the browser looks for a new service worker as the app opens
            deadline = time.monotonic() + 60
            while ui.page.evaluate(CACHES_JS) != [f"companion-{new}"] and time.monotonic() < deadline:
                ui.page.wait_for_timeout(200)
            assert ui.page.evaluate(CACHES_JS) == [f"companion-{new}"], ui.page.evaluate(UPDATE_JS)
            # Only the new worker and the changed file came from the host; the rest was kept.
            assert set(site.served()) <= {"/", "/index.html", "/service-worker.js", "/flet-config.js"}, site.served()
            assert "/flet-config.js" in site.served()
            ui.page.reload()
            ui.enable_semantics()
            finished_card(ui, "TransAmerica")  # the games are kept
            assert "the next build" in ui.page.evaluate("() => fetch('flet-config.js').then((got) => got.text())")
        phone.close()
        # And the new version opens with no server.
        phone = launch(tmp_path / "phone", f"http://127.0.0.1:{port}")
        ui = phone.open()
        finished_card(ui, "TransAmerica")
        nothing_left_the_site(phone)


def test_games_move_between_two_phones_by_export_and_import(site: StaticSite, tmp_path: Path) -> None:
    with phones() as launch:
        first = launch(tmp_path / "first", site.origin)
        ui = first.open()
        short_transamerica(ui)
        home(ui)
        tap_icon(ui, "Your games: export, import, backups")
        tap(ui, "Every game (JSON)")
        with ui.page.expect_download() as download:
            tap(ui, "Save a copy elsewhere")
        exported = tmp_path / download.value.suggested_filename
        download.value.save_as(exported)
        assert [session["players"] for session in json.loads(exported.read_bytes())["sessions"]] == [["Ann", "Bob"]]
        nothing_left_the_site(first)
        first.close()

        second = launch(tmp_path / "second", site.origin)
        ui = second.open()
        see(ui, "No games yet. Start one below; every tap is saved as you play.")
        tap_icon(ui, "Your games: export, import, backups")
        with ui.page.expect_file_chooser() as chooser:
            tap(ui, "Choose a file")
        chooser.value.set_files(str(exported))
        see(ui, "1 imported · 0 already here · 0 refused")
        ui.screenshot("44-phone-imported")
        tap(ui, "Close")
        finished_card(ui, "TransAmerica")
        # Reloaded once Home is shown (a screen comes back where it was: reloaded with the sheet
        # open, the sheet would cover the card): the game was kept in this phone's IndexedDB.
        ui.page.reload()
        ui.enable_semantics()
        finished_card(ui, "TransAmerica")
        nothing_left_the_site(second)


def test_names_in_many_scripts_are_drawn_offline_with_the_shipped_fonts(site: StaticSite, tmp_path: Path) -> None:
    with phones() as launch:
        phone = launch(tmp_path / "phone", site.origin)
        ui = phone.open()
        new_game(ui, "TransAmerica · 2–6 players", NAME, CJK_NAME)
        see(ui, f"1. {NAME}", f"2. {CJK_NAME}")

        # Flutter asks for its fallback fonts by their Google Fonts paths; the service worker
        # answers each from the cache with a shipped font.
        def families() -> set[str]:
            return {
                url.split("/assets/fonts/")[1].split("/")[0]
                for url in phone.requests
                if "/assets/fonts/" in url and url.endswith(".woff2")
            }

        deadline = time.monotonic() + 30
        while not {"notocoloremoji", "notosanssc"} <= families() and time.monotonic() < deadline:
            ui.page.wait_for_timeout(200)
        assert {"notocoloremoji", "notosanssc"} <= families(), [url for url in phone.requests if "font" in url]
        ui.page.wait_for_timeout(500)
        assert [url for url, status in phone.answers if "/assets/fonts/" in url and status != 200] == []
        ui.screenshot("45-phone-names-in-many-scripts", settle_s=3)
        nothing_left_the_site(phone)


def test_the_phone_syncs_with_a_desktop_data_folder_through_couchdb(
    site: StaticSite, tmp_path: Path, couch_server: CouchServer, database: str
) -> None:
    from test_sync_e2e import fill

    couch_server.allow_origins()
    desktop = tmp_path / "desktop"
    with Store(desktop) as store:
        session = store.new("transamerica", ["Kim", "Lou"])
        session.apply({"type": "end_round", "missing": {"Kim": 0, "Lou": 13}})
        sync_round(store, Couch(couch_server.url, database))
    with phones() as launch:
        phone = launch(tmp_path / "phone", site.origin, also=(couch_server.url,))
        ui = phone.open()
        tap_icon(ui, "Settings")
        fill(ui, "Server address", couch_server.url)
        fill(ui, "Database", database)
        tap(ui, "Test")  # the worker Python runs in may not reach it yet: the page's policy names no server
        see(
            ui,
            "The app may reach this server only once it starts again: tap Turn sync on, and this page will "
            "say whether it answered.",
        )
        # Kept, and the app starts again allowed to reach it: semantics are enabled on the new page,
        # not on the old one before it goes (which left the new one without them).
        with ui.page.expect_navigation(timeout=60_000):
            tap(ui, "Turn sync on")
        ui.enable_semantics()
        ui.wait_for_text(
            re.compile(rf"^Syncing with 127\.0\.0\.1:{couch_server.port}/{database}: last synced "), timeout_ms=90_000
        )
        ui.screenshot("47-phone-sync-on")
        # The worker may reach the site and that server, and nothing else (its policy, from the service worker).
        (worker,) = [worker for worker in ui.page.workers if worker.url.endswith("companion-worker.js")][-1:]
        reach = "(url) => fetch(url).then(() => 'reached', () => 'refused')"
        assert worker.evaluate(reach, couch_server.url + "/") == "reached"
        assert worker.evaluate(reach, f"http://localhost:{couch_server.port}/") == "refused"
        home(ui)
        ui.page.get_by_role("button", name=re.compile(r"^TransAmerica · Kim and Lou\s")).first.wait_for(
            state="attached", timeout=60_000
        )  # the desktop's game, on the phone
        short_transamerica(ui)  # a game played on the phone reaches the desktop
        deadline = time.monotonic() + 60
        while True:
            with Store(desktop) as store:
                sync_round(store, Couch(couch_server.url, database))
                if len(store.sessions()) == 2:
                    assert {tuple(summary.players) for summary in store.sessions()} == {("Kim", "Lou"), ("Ann", "Bob")}
                    break
            assert time.monotonic() < deadline, "the phone's game did not reach the desktop"
            # Not time.sleep: each request of the phone waits for this process's route handler
            # (phone.py), which runs only while Playwright is called.
            ui.page.wait_for_timeout(1000)
        assert phone.refused == [], phone.refused  # the site and the sync server, nothing else

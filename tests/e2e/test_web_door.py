"""The web door in Chromium: a whole game asks nothing of any other origin, other sites'
pages cannot open the app's socket (by Origin, or by DNS rebinding), the API docs are gone,
and names in many scripts are drawn with the shipped fonts.

A short TransAmerica game is played with the helpers of test_app_e2e.py (buttons by their
labels, texts by their words); this file watches what the browser asked for meanwhile.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import test_app_e2e as played
from harness import FlutterPage, open_browser, require_browser, serve_app

if TYPE_CHECKING:
    from conftest import CompanionApp

from conftest import APP_TARGET

NAME = "Zoë 🐻 Łukasz Ödön Ωμέγα Юлия"
CJK_NAME = "李雷"

# Opens a socket to `url` and says how it ended: "open", or "closed <code>".
_TRY_SOCKET_JS = """(url) => new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.onopen = () => { resolve("open"); socket.close(); };
    socket.onclose = (event) => resolve(`closed ${event.code}`);
})"""

_ATTACKER_PAGE = "<!DOCTYPE html><html><body><p>Some other site</p></body></html>"

# Recent Chromium itself stops public pages from reaching loopback ("local network access");
# other browsers, and older ones, do not. Turned off here so the door's own refusal is tested.
NO_LOCAL_NETWORK_CHECKS = "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests"


def local(url: str, origin: str) -> bool:
    """Asked of the served origin (page, files, socket), or made inside the page (blob:, data:)."""
    socket_origin = origin.replace("http://", "ws://", 1)
    return url.startswith((f"{origin}/", f"{socket_origin}/", f"blob:{origin}/", "data:"))


def missing(ui: FlutterPage, seat: int, segments: int) -> None:
    """On the round sheet, tap the count button of the player in `seat` (the chosen one is "N✓")."""
    buttons = ui.page.get_by_role("button", name=re.compile(rf"^{segments}✓?$"))
    with played.explained(f"no count button {segments} for seat {seat}", ui):
        buttons.nth(seat).click()


def play_short_transamerica_game(ui: FlutterPage) -> None:
    """Three rounds to the end; Ann always connects her cities first."""
    played.new_game(ui, "TransAmerica · 2–6 players", "Ann", "Bob", "Cid")
    played.tap(ui, "Start game")
    played.see(ui, "TransAmerica")
    for round_number, bob, cid, shown in ((1, 6, 6, "13 to 7"), (2, 6, 6, "7 to 1"), (3, 1, 0, "1 to 0")):
        played.tap(ui, f"End round {round_number}")
        missing(ui, 1, bob)
        missing(ui, 2, cid)
        played.see(ui, shown)
        played.tap(ui, f"Save round {round_number}")
    played.see(ui, "Ann wins with 13 points")


def test_a_full_game_asks_nothing_of_any_other_origin(app: CompanionApp) -> None:
    play_short_transamerica_game(app.open())
    assert app.server is not None and app.ui is not None
    origin = app.server.url.rstrip("/")
    requests = app.ui.requests
    print(f"{len(requests)} requests in the game, {len(set(requests))} different")
    assert [url for url in requests if not local(url, origin)] == []
    # The log really holds the game: the client, its engine and the app's socket.
    assert f"{origin}/main.dart.wasm" in requests or f"{origin}/main.dart.js" in requests
    assert f"{origin.replace('http://', 'ws://')}/ws" in requests
    assert not [url for url in requests if "jsdelivr" in url or "gstatic" in url or "googleapis" in url]
    # The Content-Security-Policy blocked nothing the app needs (scripts, wasm, workers, fonts).
    assert [line for line in app.ui.console if "Content Security Policy" in line] == []


def refused_sockets(ui: FlutterPage, attacker: Any, socket_url: str) -> tuple[str, list[str]]:
    """Open a socket from the attacker's page; return how it ended and the browser's console."""
    console: list[str] = []
    attacker.on("console", lambda message: console.append(message.text))
    outcome = attacker.evaluate(_TRY_SOCKET_JS, socket_url)
    attacker.wait_for_timeout(200)  # the console message can trail the close event
    return outcome, console


def test_another_sites_page_cannot_open_the_apps_socket(tmp_path: Path) -> None:
    require_browser()
    with (
        serve_app(APP_TARGET, data_dir=tmp_path / "data") as server,
        open_browser(server.url, chromium_args=[NO_LOCAL_NETWORK_CHECKS]) as ui,
    ):
        played.see(ui, "Companion")
        socket_url = server.url.replace("http://", "ws://") + "ws"
        # The app's own page gets a socket: what follows is not a server refusing everything.
        assert ui.page.evaluate(_TRY_SOCKET_JS, socket_url) == "open"

        # A page of another site (answered by the browser itself; it reaches nothing else).
        context = ui.page.context
        context.route(
            "http://evil.example/**",
            lambda route: route.fulfill(status=200, content_type="text/html", body=_ATTACKER_PAGE),
        )
        attacker = context.new_page()
        attacker.goto("http://evil.example/")
        outcome, console = refused_sockets(ui, attacker, socket_url)
        assert outcome == "closed 1006"
        assert any("Unexpected response code: 403" in line for line in console), console  # the door said no

        # The API documentation is gone (and with it Swagger UI's CDN).
        for path in ("docs", "redoc", "openapi.json"):
            answer = attacker.goto(server.url + path)
            assert answer is not None and answer.status == 404, path


def test_a_rebound_name_reaches_neither_page_nor_socket(tmp_path: Path) -> None:
    """DNS rebinding: a site's name that now leads to 127.0.0.1. Chromium is told so."""
    require_browser()
    with serve_app(APP_TARGET, data_dir=tmp_path / "data") as server:
        port = server.port
        rules = "--host-resolver-rules=MAP rebind.example 127.0.0.1"
        with open_browser(server.url, chromium_args=[rules, NO_LOCAL_NETWORK_CHECKS]) as ui:
            played.see(ui, "Companion")
            context = ui.page.context
            visitor = context.new_page()
            answer = visitor.goto(f"http://rebind.example:{port}/")
            assert answer is not None and answer.status == 403
            assert visitor.inner_text("body") == f"This Companion server answers only at {server.url}."

            # The attacker's page, loaded before the name was re-pointed, opens a socket to
            # the same name: it reaches 127.0.0.1 with Host rebind.example and is refused.
            context.route(
                f"http://rebind.example:{port}/attack",
                lambda route: route.fulfill(status=200, content_type="text/html", body=_ATTACKER_PAGE),
            )
            attacker = context.new_page()
            attacker.goto(f"http://rebind.example:{port}/attack")
            outcome, console = refused_sockets(ui, attacker, f"ws://rebind.example:{port}/ws")
            assert outcome == "closed 1006"
            assert any("Unexpected response code: 403" in line for line in console), console


def test_names_in_many_scripts_are_drawn_with_the_shipped_fonts(app: CompanionApp) -> None:
    from playwright.sync_api import expect

    ui = app.open()
    expect(ui.page).to_have_title("Companion")  # the tab; Flutter clears it for a moment while starting
    manifest = ui.page.evaluate("() => fetch('manifest.json').then((answer) => answer.json())")
    assert manifest["name"] == manifest["short_name"] == "Companion"

    played.new_game(ui, "TransAmerica · 2–6 players", NAME, CJK_NAME)
    assert app.server is not None
    origin = app.server.url.rstrip("/")
    # Flutter asks for the fallback fonts it lacks; the door answers with the shipped files.
    wanted = {f"{origin}/fonts/NotoColorEmoji.woff2", f"{origin}/fonts/NotoSansCJK-Regular-subset.woff2"}
    deadline = time.monotonic() + 20
    while not wanted <= set(ui.requests) and time.monotonic() < deadline:
        ui.page.wait_for_timeout(200)
    assert wanted <= set(ui.requests), [url for url in ui.requests if "font" in url]
    assert [url for url in ui.requests if not local(url, origin)] == []
    assert [line for line in ui.console if "Content Security Policy" in line] == []
    played.see(ui, f"1. {NAME}", f"2. {CJK_NAME}")
    # A long name wraps: its row's buttons stay inside the phone's width.
    for label in (f"Move {NAME} down", f"Remove {NAME}"):
        box = ui.page.get_by_label(label, exact=True).bounding_box()
        assert box is not None and box["x"] + box["width"] <= 412, (label, box)
    shot = ui.screenshot("web-door-names-in-many-scripts", settle_s=3)  # fonts are drawn once decoded
    assert shot.stat().st_size > 10_000
    assert re.search("Юлия", played.on_screen(ui))

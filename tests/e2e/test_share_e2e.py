"""A shared table in Chromium: the host shares a game from the command line
(`companion --web --share --share-host 127.0.0.2`, 127.0.0.2 standing in for the local
network), one phone joins by the link in the QR code, another by typing the code, a third
never joins. Each is a browser context of its own (its own cookies), as separate phones.

The scorekeeper's taps reach every screen (the time it took is printed, not asserted); the
viewer's buttons record nothing; the phone without the code sees only the code page and
its socket is refused; Stop sharing tells both joined phones and closes the address.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable
from pathlib import Path

from harness import FlutterPage, open_browsers, require_browser, serve_cli
from test_app_e2e import see, tap, tap_icon
from test_web_door import _TRY_SOCKET_JS

from companion.app.data import AppData
from companion.store import Store

LAN_HOST = "127.0.0.2"


def game_left_open(
    data_dir: Path, game: str = "transamerica", players: tuple[str, ...] = ("Ann", "Bob", "Cid")
) -> None:
    """A game open on the host's screen when the server starts (TransAmerica unless told)."""
    data = AppData(Store(data_dir))
    session = data.new(game, list(players), {})
    assert session.id is not None
    data.remember_screen(session.id)
    data.close_session(session.id)


def join(phone: FlutterPage, url: str, *, name: str, code: str | None = None) -> None:
    """Open `url` on the phone, fill the code page (the code unless the link carries it), join."""
    phone.page.goto(url)
    phone.page.get_by_text("Join the game").wait_for()
    if code is not None:
        phone.page.get_by_label("Code").fill(code)
    phone.page.get_by_label("Your name").fill(name)
    phone.page.get_by_role("button", name="Join").click()
    phone.enable_semantics()


def lan_port_open(port: int) -> bool:
    try:
        with socket.create_connection((LAN_HOST, port), timeout=2):
            return True
    except OSError:
        return False


def lan_port_closes(port: int) -> bool:
    """Whether the shared address stops taking connections within about ten seconds."""
    for _ in range(100):
        if not lan_port_open(port):
            return True
        time.sleep(0.1)
    return False


# The moment of a tap, and the moment a text is drawn, by the browser's clock (one clock for
# every context of one Chromium): Playwright's own round trips stay out of the figure.
_NOTE_TAP_JS = """() => {
    window.__tappedAt = null;
    document.addEventListener("pointerdown", () => { window.__tappedAt ??= Date.now(); }, {capture: true});
}"""
_NOTE_SHOWN_JS = """(text) => {
    window.__shownAt = null;
    const check = () => {
        if (window.__shownAt) return;
        for (const node of document.querySelectorAll("flt-semantics, flt-semantics span")) {
            if (node.textContent.trim() === text) { window.__shownAt = Date.now(); observer.disconnect(); return; }
        }
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def tap_reaches(tapper: FlutterPage, tapping: Callable[[], None], pages: dict[str, FlutterPage], text: str) -> str:
    """Tap on `tapper`; how many milliseconds from the tap until `text` is drawn on each page."""
    tapper.page.evaluate(_NOTE_TAP_JS)
    for page in pages.values():
        page.page.evaluate(_NOTE_SHOWN_JS, text)
    tapping()
    for page in pages.values():
        see(page, text)
    tapped = tapper.page.evaluate("() => window.__tappedAt")
    return ", ".join(
        f"{name} in {page.page.evaluate('() => window.__shownAt') - tapped} ms" for name, page in pages.items()
    )


def test_the_table_follows_a_shared_game_on_its_phones(tmp_path: Path) -> None:
    require_browser()
    data_dir = tmp_path / "data"
    game_left_open(data_dir)
    with serve_cli(["--share", "--share-host", LAN_HOST], data_dir=data_dir) as server, open_browsers() as browsers:
        link = server.wait_for_log(rf"or open (http://{re.escape(LAN_HOST)}:\d+/j/\S+)").group(1)
        code = server.wait_for_log(r"\(code ([A-Z0-9]{4}-[A-Z0-9]{4})\)").group(1)
        lan_url = f"http://{LAN_HOST}:{server.port}/"
        try:
            host = browsers.new_page(server.url)
            see(host, "Round 1 · Ann starts")

            # A phone that never got the code: the code page, nothing else, and no socket.
            stranger = browsers.new_page(lan_url, load=False)
            stranger.page.goto(lan_url)
            stranger.page.get_by_text("Join the game").wait_for()
            stranger.screenshot("share-00-code-page", settle_s=0.2)
            assert stranger.page.locator("flt-semantics, flutter-view").count() == 0
            assert stranger.page.evaluate(_TRY_SOCKET_JS, f"ws://{LAN_HOST}:{server.port}/ws") != "open"
            for path in ("main.dart.js", "games", "j/not-the-link"):
                answer = stranger.page.goto(lan_url + path)
                assert answer is not None and answer.status in (401, 403), path
                assert stranger.page.get_by_text("Join the game").count() == 1

            # Vera scans the QR code (the link); Sam types the code read aloud, in lower case.
            viewer = browsers.new_page(link, load=False)
            join(viewer, link, name="Vera")
            see(viewer, "Round 1 · Ann starts")
            keeper = browsers.new_page(lan_url, load=False)
            join(keeper, lan_url, name="Sam", code=code.lower())
            see(keeper, "Round 1 · Ann starts")
            assert not keeper.has_text("+ New game") and not viewer.has_text("+ New game")

            # The viewer's buttons record nothing.
            see(viewer, "You follow this game. The host can let you keep score.")
            viewer.page.get_by_role("button", name="End round 1", exact=True).click(force=True)
            assert not viewer.has_text("End of round 1")

            # The host sees who joined and lets Sam keep score.
            tap_icon(host, "Share with the table")
            see(host, "Vera", "Sam", code)
            host.screenshot("share-01-host-sheet")
            tap(host, "Let Sam keep score")
            see(keeper, "You keep score with the host.")
            tap(host, "Close")

            # Sam ends round 1 on his phone: every screen shows round 2.
            tap(keeper, "End round 1")
            see(keeper, "End of round 1")
            tap(keeper, "0", nth=0)  # Ann connected all her cities
            tap(keeper, "4", nth=1)
            tap(keeper, "6", nth=2)
            reached = tap_reaches(
                keeper,
                lambda: tap(keeper, "Save round 1"),
                {"scorekeeper": keeper, "host": host, "viewer": viewer},
                "Round 2 · Bob starts",
            )
            print(f"a scorekeeper's tap reached: {reached}")
            keeper.screenshot("share-02-scorekeeper")
            viewer.screenshot("share-03-viewer")

            # The host's tap reaches the phones too.
            undo = "Undo: Round 1 ended: Ann connected all cities; Bob -4, Cid -6"
            reached = tap_reaches(
                host, lambda: tap_icon(host, undo), {"viewer": viewer, "scorekeeper": keeper}, "Round 1 · Ann starts"
            )
            print(f"the host's undo reached: {reached}")

            # Stop sharing: both phones are told, and the address closes.
            tap_icon(host, "Share with the table")
            tap(host, "Stop sharing")
            for phone in (viewer, keeper):
                see(phone, "The host stopped sharing this game.")
            assert lan_port_closes(server.port)
            see(host, "Round 1 · Ann starts")  # the host carries on, on this device only
            assert "sharing stopped" in server.log()
        except BaseException:
            print(f"--- server log ---\n{server.log()}")
            raise


def test_the_host_shares_from_the_game_screen_and_leaving_it_stops_sharing(tmp_path: Path) -> None:
    require_browser()
    data_dir = tmp_path / "data"
    game_left_open(data_dir)
    with serve_cli(["--share-host", LAN_HOST], data_dir=data_dir) as server, open_browsers() as browsers:
        lan_url = f"http://{LAN_HOST}:{server.port}/"
        try:
            host = browsers.new_page(server.url)
            see(host, "Round 1 · Ann starts")
            assert not lan_port_open(server.port)  # loopback only until the host shares

            # One tap on Share opens nothing yet: the sheet says what sharing does and asks.
            tap_icon(host, "Share with the table")
            see(host, "This game is not shared.")
            host.screenshot("share-03-host-asked")
            assert not lan_port_open(server.port)
            tap(host, "Start sharing")
            see(host, "Share with the table", lan_url, "No phone yet.")
            code = host.page.get_by_text(re.compile(r"^[A-Z0-9]{4}-[A-Z0-9]{4}$")).first.text_content()
            assert code is not None
            host.screenshot("share-04-host-qr-code")

            phone = browsers.new_page(lan_url, load=False)
            join(phone, lan_url, name="Bob", code=code)
            see(phone, "Round 1 · Ann starts", "You follow this game. The host can let you keep score.")
            see(host, "Bob", "follows")

            # Closed, the sheet does not leave the table listening unsaid.
            tap(host, "Close")
            see(
                host,
                f"Still shared on the local network (code {code}): phones can join. "
                "The share button at the top shows the code again and stops sharing.",
            )
            assert lan_port_open(server.port)
            tap_icon(host, "Back to all games")
            see(phone, "The host stopped sharing this game.")
            assert lan_port_closes(server.port)
        except BaseException:
            print(f"--- server log ---\n{server.log()}")
            raise

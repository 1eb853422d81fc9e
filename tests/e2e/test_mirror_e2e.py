"""Phones on the shared game share one drawing (companion.app.mirror), as Chromium shows it.

Two phones join to watch a Heartland game the host plays. The host's taps reach both, in
the same frames; a phone's own tap (the session log) is acted on in a drawing of its own
with nothing on its scrolled screen moved; a phone whose socket drops, following or drawn
as its own, comes back to the game as it is now and goes on following the host's taps; a
phone made scorekeeper shares the scorekeepers' drawing once it wakes, and its tap counts.
"""

from __future__ import annotations

import re
from pathlib import Path

from harness import FlutterPage, open_browsers, require_browser, serve_cli
from test_app_e2e import see, tap, tap_icon
from test_share_e2e import LAN_HOST, game_left_open, join
from test_table_proof import KEEP_SOCKETS, SIX, drop_socket, error_free, log_lines_matching
from watch import SCREEN, WATCH_JS, buttons, settle

# Every frame the page's sockets receive, as (length, checksum): alike phones sent one drawing's
# patches get the very same frames.
FRAMES = """(() => {
    const Native = window.WebSocket;
    window.__frames = [];
    class Counted extends Native {
        constructor(...args) {
            super(...args);
            this.addEventListener("message", (event) => {
                const data = event.data;
                if (!(data instanceof ArrayBuffer)) { window.__frames.push([data.size || data.length, null]); return; }
                const bytes = new Uint8Array(data);
                let sum = 0;
                for (const byte of bytes) sum = (sum * 31 + byte) >>> 0;
                window.__frames.push([bytes.length, sum]);
            });
        }
    }
    window.WebSocket = Counted;
})();"""


def frames_since(ui: FlutterPage, mark: int) -> list[list[int]]:
    return list(ui.page.evaluate("(mark) => window.__frames.slice(mark)", mark))


def boxes(ui: FlutterPage) -> dict[tuple[str, int], tuple[float, float, float, float]]:
    """Where each of the screen's buttons is drawn, by its label and which of that label it is."""
    found: dict[tuple[str, int], tuple[float, float, float, float]] = {}
    for button in buttons(ui):
        if button.layer == SCREEN:
            nth = sum(1 for key in found if key[0] == button.label)
            found[(button.label, nth)] = (round(button.x), round(button.y), round(button.width), round(button.height))
    return found


def moved(
    before: dict[tuple[str, int], tuple[float, float, float, float]],
    after: dict[tuple[str, int], tuple[float, float, float, float]],
) -> list[str]:
    """The buttons shown before and after whose box changed (none should)."""
    return [
        f"{key}: {before[key]} -> {after[key]}" for key in before.keys() & after.keys() if before[key] != after[key]
    ]


def test_watching_phones_follow_the_host_and_their_own_taps_move_nothing(tmp_path: Path) -> None:
    require_browser()
    data_dir = tmp_path / "data"
    game_left_open(data_dir, "heartland", SIX[:4])  # four players: the phone's screen scrolls
    with serve_cli(["--share", "--share-host", LAN_HOST], data_dir=data_dir) as server, open_browsers() as browsers:
        link = server.wait_for_log(rf"or open (http://{re.escape(LAN_HOST)}:\d+/j/\S+)").group(1)
        try:
            host = browsers.new_page(server.url)
            see(host, "Round 1 · Ann's turn")
            phones = {}
            for name in ("Vera", "Walt"):
                phone = browsers.new_page(link, load=False)
                phone.page.add_init_script(KEEP_SOCKETS)
                phone.page.add_init_script(FRAMES)
                phone.page.add_init_script(WATCH_JS)  # `settle` waits for the page to stop moving
                join(phone, link, name=name)
                see(phone, "Round 1 · Ann's turn", "You follow this game. The host can let you keep score.")
                phones[name] = phone
            vera, walt = phones["Vera"], phones["Walt"]
            shown = {name: boxes(phone) for name, phone in phones.items()}

            # The host's tap reaches both phones, in the very same frames, and moves nothing on them.
            marks = {name: len(frames_since(phone, 0)) for name, phone in phones.items()}
            tap(host, "Fuel 1")
            for name, phone in phones.items():
                see(phone, "Last: Ann moved 1 space with fuel")
                assert moved(shown[name], boxes(phone)) == [], name
            sent = [frames_since(phone, marks[name]) for name, phone in phones.items()]
            assert sent[0] and sent[0] == sent[1], sent

            # Vera scrolls down and opens the log: her own drawing from now on, and her screen,
            # scrolled as she left it, stays as it was.
            vera.page.mouse.move(206, 600)
            vera.page.mouse.wheel(0, 300)
            settle(vera, None)
            before = boxes(vera)
            assert moved(shown["Vera"], before), "the screen did not scroll"
            tap_icon(vera, "Session log")
            see(vera, "Session log", "1. Ann moved 1 space with fuel · round 1")
            tap(vera, "Close")
            vera.page.get_by_role("alertdialog").wait_for(state="detached")
            assert moved(before, boxes(vera)) == []
            tap(host, "Discard $1")
            for phone in (vera, walt):
                see(phone, "Last: Ann discarded for $1")
            assert not walt.has_text("Session log")  # Vera's sheet was hers only

            tap(host, "End Ann's turn (Bob next)")
            for phone in (vera, walt):  # every part of the screen follows, Vera's own drawing too
                see(phone, "Round 1 · Bob's turn", "Last: Ann ended the turn; Bob plays")

            # Both phones sleep and wake: the game as it is now, and the host's taps still reach them.
            for phone in (vera, walt):
                drop_socket(phone)
                see(phone, "Round 1 · Bob's turn")
            tap(host, "Fuel 2")
            for phone in (vera, walt):
                see(phone, "Last: Bob moved 2 spaces with fuel")
                error_free(phone)
            tap_icon(walt, "Session log")  # a tap after waking acts as before
            see(walt, "Session log")
            assert log_lines_matching(walt, "Ann ended the turn") == 1

            # The host lets Vera keep score; once her phone wakes it shares the scorekeepers'
            # drawing, the host's taps reach it, and her own tap is recorded on every screen.
            tap_icon(host, "Share with the table")
            tap(host, "Let Vera keep score")
            tap(host, "Close")
            see(vera, "You keep score with the host.")
            drop_socket(vera)
            see(vera, "You keep score with the host.", "Round 1 · Bob's turn")
            tap(vera, "Discard $1")  # her own drawing from this tap on
            see(host, "Last: Bob discarded for $1")
            tap(vera, "End Bob's turn (Cid next)")
            for screen in (vera, host):
                see(screen, "Round 1 · Cid's turn")

            # Walt's phone turns dark: after its next sleep it follows the dark phones' drawing.
            tap(walt, "Close")
            walt.page.emulate_media(color_scheme="dark")
            settle(walt, None)  # its redraw sent: a socket closed mid-send is flet_web's own traceback
            drop_socket(walt)
            see(walt, "Round 1 · Cid's turn")
            tap(host, "Fuel 1")
            for phone in (vera, walt):
                see(phone, "Last: Cid moved 1 space with fuel")
                error_free(phone)
            assert "Traceback" not in server.log()
        except BaseException:
            print(f"--- server log ---\n{server.log()}")
            raise

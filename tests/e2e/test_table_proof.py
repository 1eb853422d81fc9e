"""What a table does to a phone, in Chromium at 412×915: reloads, a dropped socket, a thumb
tapping twice at one spot, two phones tapping Undo together, quick taps reaching the server
together, and every input sheet's confirm button in view when the sheet opens."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness import FlutterPage
from test_app_e2e import GOODS, exact, explained, new_game, see, see_card, see_money, tap, tap_icon

from companion.app.data import AppData
from companion.session import Session
from companion.store import Store

if TYPE_CHECKING:
    from conftest import CompanionApp

VIEWPORT_HEIGHT = 915
STALE = "This game changed on another screen; nothing was recorded."
SIX = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")

# Keeps every WebSocket the page opens, so a test can close the live one as a sleeping
# phone would, and see the client open a new one.
KEEP_SOCKETS = """(() => {
    const Native = window.WebSocket;
    window.__sockets = [];
    class Kept extends Native {
        constructor(...args) { super(...args); window.__sockets.push(this); }
    }
    window.WebSocket = Kept;
})();"""


def start_heartland(ui: FlutterPage, *players: str) -> None:
    new_game(ui, None, *players)
    tap(ui, "Start game")
    see(ui, "Round 1 · Ann's turn")


def error_free(ui: FlutterPage) -> None:
    assert not ui.has_text(re.compile("Error running app|Traceback|Exception")), "the page shows an error"


# The text each semantics node carries itself (not its children's): the log sheet draws its
# lines in blocks of 50, one node per block, so lines are counted inside the blocks.
_OWN_TEXTS_JS = """() => Array.from(document.querySelectorAll("flt-semantics, flt-semantics span")).map((e) => {
    const own = Array.from(e.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join("");
    return own || e.getAttribute("aria-label") || "";
})"""


def log_lines_matching(ui: FlutterPage, pattern: str) -> int:
    line = re.compile(rf"^\d+\. {pattern}")
    texts: list[str] = ui.page.evaluate(_OWN_TEXTS_JS)
    return sum(1 for text in texts for part in text.split("\n") if line.match(part))


def test_a_reload_keeps_the_game_and_the_next_tap_is_recorded(app: CompanionApp) -> None:
    ui = app.open()
    start_heartland(ui, "Ann", "Bob")
    tap(ui, "Fuel 1")
    tap(ui, "Discard $1")
    see(ui, "Last: Ann discarded for $1")

    ui.reload()  # the same Flet session, as a browser reload does
    see(ui, "Round 1 · Ann's turn", "Last: Ann discarded for $1")
    tap(ui, "End Ann's turn (Bob next)")
    see(ui, "Round 1 · Bob's turn", "Last: Ann ended the turn; Bob plays")
    error_free(ui)

    # The app opened afresh (a new session): the same game, with the sheet that was open.
    tap(ui, "Fuel 1")
    tap(ui, "Load")
    see(ui, "Load · Bob")
    ui.reload(new_session=True)
    see(ui, "Load · Bob")
    tap(ui, "2", nth=GOODS.index("cattle"))
    see(ui, "Last: Bob loaded 2 cattle")
    error_free(ui)


def test_a_dropped_socket_reconnects_and_a_tap_is_recorded_once(app: CompanionApp) -> None:
    ui = app.open()
    ui.page.add_init_script(KEEP_SOCKETS)
    ui.reload()
    start_heartland(ui, "Ann", "Bob")
    tap(ui, "Fuel 1")
    see(ui, "Last: Ann moved 1 space with fuel")

    drop_socket(ui)  # the page reloads once the server answers again: the same session (boot.js)
    see(ui, "Last: Ann moved 1 space with fuel")
    tap(ui, "Discard $1")
    see(ui, "Last: Ann discarded for $1")
    see_money(ui, "Ann", "$4")
    tap(ui, "End Ann's turn (Bob next)")
    see(ui, "Round 1 · Bob's turn")
    tap_icon(ui, "Session log")
    see(ui, "Session log")
    assert log_lines_matching(ui, "Ann discarded for \\$1") == 1
    assert log_lines_matching(ui, "Ann ended the turn") == 1
    error_free(ui)


def drop_socket(ui: FlutterPage) -> None:
    """Close the page's socket as a sleeping phone loses it, and wait for the page to come back."""
    ui.page.evaluate("() => { window.__before_drop = true; window.__sockets.forEach((socket) => socket.close()); }")
    with explained("the page did not come back on a new socket", ui):
        ui.page.wait_for_function(
            "() => !window.__before_drop && window.__sockets && window.__sockets.length"
            " && window.__sockets.at(-1).readyState === 1",
            timeout=30_000,
        )
    ui.enable_semantics()


def test_a_sheet_open_when_the_socket_drops_comes_back_and_closes(app: CompanionApp) -> None:
    ui = app.open()
    ui.page.add_init_script(KEEP_SOCKETS)
    ui.reload()
    new_game(ui, "TransAmerica · 2–6 players", "Ann", "Bob")
    tap(ui, "Start game")
    tap(ui, "End round 1")
    tap(ui, "2", nth=1)  # Bob
    see(ui, "13 to 11")
    drop_socket(ui)
    see(ui, "End of round 1", "13 to 11")  # the sheet and what was picked in it
    tap(ui, "3", nth=1)
    see(ui, "13 to 10")
    tap(ui, "Save round 1")
    see(ui, "Round 2 · Bob starts", "Last: Round 1 ended: Ann connected all cities; Bob -3")
    assert not ui.has_text(exact("End of round 1"))  # the sheet closed, in the browser too
    tap(ui, "End round 2")  # and the next one opens
    see(ui, "End of round 2")
    tap(ui, "Close")
    see(ui, "End round 2")
    assert not ui.has_text(exact("End of round 2"))
    error_free(ui)


def test_two_taps_at_one_spot_land_on_the_same_player(app: CompanionApp) -> None:
    from playwright.sync_api import expect

    ui = app.open()
    new_game(ui, "TransAmerica · 2–6 players", *SIX)
    in_view(ui, ui.page.get_by_role("button", name="Start game", exact=True), "Start game button")
    tap(ui, "Start game")
    tap(ui, "End round 1")
    see(ui, "End of round 1")
    title = ui.page.get_by_text(exact("End of round 1")).bounding_box()
    assert title is not None
    ui.page.mouse.move(206, title["y"] + 200)
    ui.page.mouse.wheel(0, 3000)  # down to the last player, Fay
    ui.page.wait_for_timeout(800)

    fay_two = ui.page.get_by_role("button", name="2", exact=True).nth(SIX.index("Fay"))  # a chip a count
    box = fay_two.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT_HEIGHT, box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    ui.page.mouse.click(x, y)
    see(ui, "13 to 11")
    assert fay_two.bounding_box() == box  # nothing moved under the finger
    ui.page.mouse.click(x, y)  # the same spot means the same count again
    ui.page.wait_for_timeout(500)
    see(ui, "13 to 11")
    expect(ui.page.get_by_text(exact("13 to 13"))).to_have_count(len(SIX) - 1)  # nobody else was touched


class HeldSocket:
    """A page's socket, through which the test holds back what the server sends (`holding`) or
    what the page sends (`holding_taps`), then lets it go at once. Held replies: a tap is made on
    the screen shown before the server's answer to another tap arrived, as when two fingers land
    together (two Playwright taps, one after the other, cannot promise that). Held taps: they
    reach the server together, as a phone's quick taps do on a slow network or a busy server."""

    def __init__(self, page: Any) -> None:
        self.holding = self.holding_taps = False
        self.held: list[str | bytes] = []
        self.held_taps: list[str | bytes] = []
        self.sent = 0  # messages the page sent (or tried to) to the server
        page.route_web_socket(re.compile(".*"), self._route)

    def _route(self, socket: Any) -> None:
        server = socket.connect_to_server()
        self._socket, self._server = socket, server

        def to_server(message: str | bytes) -> None:
            self.sent += 1
            self.held_taps.append(message) if self.holding_taps else server.send(message)

        def to_page(message: str | bytes) -> None:
            self.held.append(message) if self.holding else socket.send(message)

        socket.on_message(to_server)
        server.on_message(to_page)

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self._socket.send(message)
        self.held.clear()

    def release_taps(self) -> None:
        self.holding_taps = False
        for message in self.held_taps:
            self._server.send(message)
        self.held_taps.clear()


def test_two_phones_tapping_undo_together_undo_one_event(app: CompanionApp) -> None:
    ui = app.open()
    start_heartland(ui, "Ann", "Bob")
    tap(ui, "Fuel 1")
    tap(ui, "Discard $1")
    see(ui, "Last: Ann discarded for $1")
    second = ui.page.context.new_page()
    socket = HeldSocket(second)
    other = FlutterPage(second, ui.url).load()  # a second phone: the last open game
    see(other, "Last: Ann discarded for $1")

    phones = (ui, other)
    undos = [phone.page.get_by_role("button", name="Undo", exact=True) for phone in phones]
    for undo in undos:
        undo.wait_for(state="attached")
    socket.holding = True
    undos[0].dispatch_event("click")
    see(ui, "Last: Ann moved 1 space with fuel")
    for _ in range(100):  # Playwright hands on the socket's messages while it waits
        if socket.held:
            break
        other.page.wait_for_timeout(50)
    assert socket.held, "the server did not tell the second phone of the first one's undo"
    # The second phone still shows "Ann discarded for $1" when its finger lands; its tap leaves
    # before the redraw (and the question the server asks after it) arrives.
    sent = socket.sent
    undos[1].dispatch_event("click")
    for _ in range(100):
        if socket.sent > sent:
            break
        other.page.wait_for_timeout(20)
    assert socket.sent > sent, "the second phone's tap did not leave it"
    socket.release()

    for phone in phones:
        see(phone, "Last: Ann moved 1 space with fuel")
    other.page.wait_for_timeout(1000)
    told = [phone.has_text(exact(STALE)) for phone in phones]
    assert told == [False, True], told  # the second phone was refused, and says so
    for phone in phones:
        assert not phone.has_text(exact("Nothing recorded yet.")), "two events were undone"
        error_free(phone)


def test_quick_taps_arriving_together_are_recorded_in_order(app: CompanionApp) -> None:
    """Two counts and Save reach the server together: Save records both counts (each tap is
    answered, its sheet drawn again, before the next one is acted on)."""
    page = app.open().page.context.new_page()  # a page whose socket the test holds
    socket = HeldSocket(page)
    ui = FlutterPage(page, app.server.url if app.server else "").load()
    new_game(ui, "TransAmerica · 2–6 players", "Ann", "Bob", "Cid")
    tap(ui, "Start game")
    tap(ui, "End round 1")
    see(ui, "End of round 1")
    socket.holding_taps = True
    tap(ui, "4", nth=1)  # Bob
    tap(ui, "6", nth=2)  # Cid
    tap(ui, "Save round 1")
    for _ in range(100):  # the three taps have left the page
        if len(socket.held_taps) >= 3:
            break
        ui.page.wait_for_timeout(20)
    socket.release_taps()
    see(ui, "Round 2 · Bob starts", "Last: Round 1 ended: Ann connected all cities; Bob -4, Cid -6")


# --- sheets ---------------------------------------------------------------------------------


def in_view(ui: FlutterPage, button: Any, what: str) -> None:
    with explained(f"no {what}", ui):
        button.wait_for(state="attached")
    ui.page.wait_for_timeout(400)  # the sheet's opening animation
    box = button.bounding_box()
    assert box is not None, what
    assert box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT_HEIGHT, (what, box)


def seed_heartland(data_dir: Path) -> None:
    """Four players, Ann's truck with two cubes of every good, on truck stops: every sheet at its largest."""
    store = Store(data_dir)
    data = AppData(store)
    session: Session = data.new("heartland", ["Ann", "Bob", "Cid", "Dee"], {"truck_stops": True})
    for good in GOODS:
        session.apply({"type": "correct_cargo", "player": "Ann", "good": good, "cubes": 2, "note": "set-up"})
    assert session.id is not None
    data.remember_screen(session.id)
    data.close_session(session.id)
    store.close()


def test_every_input_sheet_opens_with_its_confirm_button_in_view(app: CompanionApp) -> None:
    seed_heartland(app.data_dir)
    ui = app.open()
    see(ui, "Round 1 · Ann's turn")
    see_card(ui, "Ann", "2 corn, 2 soybeans, 2 cattle, 2 pigs · 8/8", "$5")

    tap(ui, "Fuel 1")
    tap(ui, "Unload")
    see(ui, "Unload · Ann")
    in_view(ui, ui.page.get_by_role("button", name="2", exact=True).nth(GOODS.index("pigs")), "pigs count")
    tap(ui, "Close")

    tap(ui, "Buy upgrade")
    in_view(ui, ui.page.get_by_role("button", name="Buy for $0", exact=True), "Buy button")
    tap(ui, "Close")

    tap(ui, "Correct money")
    in_view(ui, ui.page.get_by_role("button", name="Save: Ann +$0, now $5", exact=True), "Save button")
    tap(ui, "Close")

    tap(ui, "Correct cargo")
    see(ui, "Correct Ann's cargo")
    in_view(ui, ui.page.get_by_role("button", name="Save", exact=True), "cargo Save button")
    tap(ui, "Close")

    tap(ui, "Discard $1")
    tap(ui, "End Ann's turn (Bob next)")
    tap(ui, "Fuel 1")
    tap(ui, "Load")
    see(ui, "Load · Bob")
    in_view(ui, ui.page.get_by_role("button", name="8", exact=True).nth(GOODS.index("pigs")), "8 pigs button")
    tap(ui, "Close")

    tap_icon(ui, "Back to all games")
    new_game(ui, "TransAmerica · 2–6 players", *SIX)
    in_view(ui, ui.page.get_by_role("button", name="Start game", exact=True), "Start game button")
    tap(ui, "Start game")
    tap(ui, "End round 1")
    in_view(ui, ui.page.get_by_role("button", name="Save round 1", exact=True), "Save round button")
    tap(ui, "Close")

    tap_icon(ui, "Back to all games")
    new_game(ui, "Great Plains · 2 players", "Ann", "Bob")
    tap(ui, "Start game")
    tap(ui, "+ Zone")
    in_view(ui, ui.page.get_by_role("button", name="Add zone", exact=True), "Add zone button")


# --- targets ----------------------------------------------------------------------------------

_BUTTON_SIZES_JS = """() => Array.from(document.querySelectorAll("flt-semantics[role=button]")).map((e) => {
    const box = e.getBoundingClientRect();
    const own = Array.from(e.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join("");
    return {name: own.trim() || e.getAttribute("aria-label") || "(unnamed)", width: box.width, height: box.height};
})"""


def small_buttons(ui: FlutterPage) -> list[str]:
    ui.page.wait_for_timeout(400)
    sizes = ui.page.evaluate(_BUTTON_SIZES_JS)
    assert len(sizes) >= 3, sizes  # the buttons were found at all
    return [
        f"{size['name']!r} {size['width']:.0f}×{size['height']:.0f}"
        for size in sizes
        if min(size["width"], size["height"]) < 47.5
    ]


def test_every_button_is_at_least_48_by_48_as_drawn(app: CompanionApp) -> None:
    ui = app.open()
    start_heartland(ui, "Ann", "Bob")
    tap(ui, "Fuel 1")
    see(ui, "Last: Ann moved 1 space with fuel")  # Undo (both) enabled, a muted button or two
    assert small_buttons(ui) == []
    tap(ui, "Correct money")
    see(ui, "Correct Ann's money")
    assert small_buttons(ui) == []
    tap(ui, "Close")
    tap_icon(ui, "Back to all games")
    see(ui, "In progress")
    assert small_buttons(ui) == []

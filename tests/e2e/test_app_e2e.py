"""The companion app in Debian's Chromium, driven through Flutter's semantics tree.

Heartland and TransAmerica are played from the home screen to their end screens (Great
Plains' whole game, with what each step shows and its screenshots, is played by
test_nothing_moves.py, which also watches every button); a Heartland game is reloaded in a
fresh Flet session and served again by a new server process, and must resume; the real
command line (`python -m companion --web`) serves the home screen. Screenshots of each
screen (412×915) go to test-artifacts/screenshots/ for review.

Buttons are found by their exact label (role=button); texts by their exact words. Where
several buttons share a label (a sheet's count chips "1", "2"…), the n-th one in screen
order is used and the effect is checked in words; so are the number fields ("Other").
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from harness import PROJECT_ROOT, FlutterPage, free_port, open_browser, require_browser, stop_process_group

if TYPE_CHECKING:
    from conftest import CompanionApp

GOODS = ("corn", "soybeans", "cattle", "pigs")  # the rows of the Load sheet, in order


# --- helpers -----------------------------------------------------------------------------


def lit(text: str) -> str:
    """``text`` as a regex; "/" escaped too, as Playwright sends patterns as /source/."""
    return re.escape(text).replace("/", r"\/")


def exact(text: str) -> re.Pattern[str]:
    return re.compile(f"^{lit(text)}$")


_ON_SCREEN_JS = """() => {
    const own = (e) => Array.from(e.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join("");
    const buttons = Array.from(document.querySelectorAll("flt-semantics[role=button]"))
        .map((e) => own(e).trim() || `(icon: ${e.parentElement.getAttribute("aria-label") || "unlabelled"})`);
    const texts = Array.from(document.querySelectorAll("flt-semantics span")).map((e) => e.textContent.trim());
    return {buttons, texts};
}"""


def on_screen(ui: FlutterPage) -> str:
    """What the semantics tree shows now, for failure messages."""
    try:
        shown = ui.page.evaluate(_ON_SCREEN_JS)
    except Exception as error:  # the page may be gone
        return f"(screen unreadable: {error})"
    return f"buttons on screen: {shown['buttons']}; texts: {shown['texts']}"


@contextlib.contextmanager
def explained(what: str, ui: FlutterPage) -> Iterator[None]:
    """Turn a Playwright time-out into an assertion that says what was missing and what was shown."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        yield
    except PlaywrightTimeoutError as error:
        raise AssertionError(f"{what}; {on_screen(ui)}") from error


def tap(ui: FlutterPage, label: str, *, nth: int | None = None) -> None:
    """Click the button labelled exactly ``label`` (the ``nth`` of several with that label)."""
    buttons = ui.page.get_by_role("button", name=label, exact=True)
    which = "" if nth is None else f" (#{nth + 1} of that label)"
    with explained(f"no button {label!r}{which} to tap", ui):
        (buttons if nth is None else buttons.nth(nth)).click()


def type_number(ui: FlutterPage, text: str, *, nth: int = 0, label: str | None = None) -> None:
    """Type a number into the ``nth`` field labelled ``label``, by default a sheet's "Other" beside
    its chips (read by a screen reader as "Amount, another number"), again if Flutter wiped it
    (focusing a field sometimes resets it a moment after typing)."""
    found = (
        f'input[aria-label="{label}"]'
        if label is not None
        else 'input[aria-label="Other"], input[aria-label$=", another number"]'
    )
    field = ui.page.locator(found).nth(nth)
    for _ in range(5):
        with explained(f"no number field {label!r} (#{nth + 1})", ui):
            field.click()
            field.fill(text)
        ui.page.wait_for_timeout(150)
        if field.input_value() == text:
            return
    raise AssertionError(f"the {label!r} field #{nth + 1} does not keep {text!r}")


def tap_icon(ui: FlutterPage, tooltip: str) -> None:
    """Click an icon button: its tooltip labels a semantics node around the button."""
    with explained(f"no icon button with the tooltip {tooltip!r}", ui):
        ui.page.get_by_label(tooltip, exact=True).click()


def see(ui: FlutterPage, *texts: str) -> None:
    """Wait until each text is shown, word for word."""
    for text in texts:
        with explained(f"the text {text!r} is not shown", ui):
            ui.wait_for_text(exact(text))


def see_card(ui: FlutterPage, player: str, details: str, money: str) -> None:
    """A Heartland player's card, whoever plays: two targets whose texts make their labels, the
    name and cargo (``details``: the cargo, then the cubes of the truck's capacity, "3 corn ·
    3/8") correcting the cargo, the money correcting the money."""
    cargo, cubes = details.split(" · ")
    label = re.compile(
        rf"^Correct {lit(player)}'s? cargo\s+{lit(player)}\s+(playing now\s+)?{lit(cargo)}\s+"
        rf"{lit(cubes)} cubes$"
    )
    with explained(f"no card for {player} showing {details!r}", ui):
        ui.page.get_by_role("button", name=label).first.wait_for(state="attached", timeout=ui.timeout_ms)
    see_money(ui, player, money)


def see_money(ui: FlutterPage, player: str, money: str) -> None:
    """The money on a Heartland player's card (a target of its own: it corrects the money)."""
    label = re.compile(rf"^Correct {lit(player)}'s? money\s+{lit(money)}$")
    with explained(f"no money {money!r} on {player}'s card", ui):
        ui.page.get_by_role("button", name=label).first.wait_for(state="attached", timeout=ui.timeout_ms)


def type_text(ui: FlutterPage, label: str, text: str) -> None:
    """Fill a text field, and again if Flutter wiped it: focusing a field sometimes resets
    its value a moment after Playwright typed (seen about once in ten fills)."""
    field = ui.text_input(label)
    for _ in range(5):
        ui.fill(label, text)
        ui.page.wait_for_timeout(100)
        if field.input_value() == text:
            return
    raise AssertionError(f"the {label!r} field does not keep {text!r}")


def add_players(ui: FlutterPage, *names: str) -> None:
    for seat, name in enumerate(names, start=1):
        type_text(ui, "Player name", name)
        tap(ui, "Add")
        see(ui, f"{seat}. {name}")


def new_game(ui: FlutterPage, game_button: str | None, *players: str) -> None:
    """From the home screen to a filled-in New game screen."""
    see(ui, "Companion")
    tap(ui, "+ New game")
    see(ui, "New game")
    if game_button:
        tap(ui, game_button)
    add_players(ui, *players)


# --- The Great Heartland Hauling Co. ----------------------------------------------------------


def test_heartland_full_game(app: CompanionApp) -> None:
    ui = app.open()
    see(ui, "Companion", "No games yet. Start one below; every tap is saved as you play.")
    ui.screenshot("01-home")

    new_game(ui, None, "Ann", "Bob")  # Heartland is the default game
    see(ui, "Rulebook $50", "Blog $50")
    tap(ui, "Custom $40")
    see(ui, "Custom target", "$40")
    type_number(ui, "41")  # an amount the chips do not offer, typed
    see(ui, "Custom $41")
    ui.screenshot("02-new-game")
    tap(ui, "Start game")

    # Turn 1, Ann: pays cash to move, loads corn.
    see(ui, "Heartland", "Round 1 · Ann's turn", "Target $41 (custom) · leader Ann $5", "Nothing recorded yet.")
    tap(ui, "2 · $2")
    see(ui, "Last: Ann moved 2 spaces for $2")
    see_money(ui, "Ann", "$3")
    ui.screenshot("03-heartland-turn")
    tap(ui, "Load")
    see(ui, "Load · Ann", "Ann has room for 8 cubes. Tap a good's count:")
    ui.screenshot("04-heartland-load-sheet")
    tap(ui, "3", nth=GOODS.index("corn"))
    see(ui, "Last: Ann loaded 3 corn")
    see_card(ui, "Ann", "3 corn · 3/8", "$3")
    tap(ui, "End Ann's turn (Bob next)")

    # Turn 2, Bob: fuel, loads cattle; a second action is refused in words.
    see(ui, "Round 1 · Bob's turn")
    see_card(ui, "Ann", "3 corn · 3/8", "$3")
    tap(ui, "Fuel 1")
    see(ui, "Last: Bob moved 1 space with fuel")
    tap(ui, "Load")
    see(ui, "Load · Bob")
    tap(ui, "2", nth=GOODS.index("cattle"))
    see(ui, "Last: Bob loaded 2 cattle")
    see_card(ui, "Bob", "2 cattle · 2/8", "$5")
    tap(ui, "Unload")
    see(ui, "Bob has already chosen to load this turn; only one action per turn.")
    tap(ui, "End Bob's turn (Ann next)")

    # Turn 3, Ann: a money correction (three taps), then unloads corn at a printed price
    # (three taps) and reaches the target: the final round starts.
    see(ui, "Round 2 · Ann's turn")
    tap(ui, "Correct money")
    see(ui, "Correct Ann's money", "Ann has $3. A correction is logged and can be undone.")
    tap(ui, "+8")
    tap(ui, "Save: Ann +$8, now $11")
    see(ui, "Last: Ann +$8 (correction), now $11")
    see_money(ui, "Ann", "$11")
    tap(ui, "Fuel 2")
    see(ui, "Last: Ann moved 2 spaces with fuel")
    tap(ui, "Unload")
    see(ui, "Unload · Ann", "corn: tap a price first")
    tap(ui, "$15")
    see(ui, "corn: at $15")
    tap(ui, "2 (+$30)")
    see(ui, "Last: Ann unloaded 2 corn at $15 (+$30)")
    see_card(ui, "Ann", "1 corn · 1/8", "$41")
    see(ui, "Final round — Bob plays", "Ann reached the $41 target.")
    ui.screenshot("05-heartland-final-round")
    tap(ui, "End Ann's turn (Bob next)")

    # Turn 4, Bob: the last turn of the game.
    see(ui, "Final round · Bob's turn", "Final round — Bob plays")
    tap(ui, "Fuel 1")
    see(ui, "Last: Bob moved 1 space with fuel")
    tap(ui, "Discard $1")
    see(ui, "Last: Bob discarded for $1")
    see_money(ui, "Bob", "$4")
    tap(ui, "End Bob's turn: last turn of the game")

    # The end: money after cargo penalties.
    see(ui, "Game over", "Final standings", "Last: Bob ended the last turn; the game is over")
    see(ui, "1st Ann — winner", "$40", "Money $41", "corn: 1 cube × $1 = -$1")
    see(ui, "2nd Bob", "$0", "Money $4", "cattle: 2 cubes × $2 = -$4")
    see(ui, "Cargo penalty per cube left: corn $1, soybeans $1, cattle $2, pigs $2.")
    assert not ui.has_text("2nd Bob — winner")
    ui.screenshot("06-heartland-end")

    tap_icon(ui, "Back to all games")
    see(ui, "Finished")
    finished_card = re.compile(r"Heartland · Ann and Bob\s+Ann won \(\$40\)\s+last played")
    ui.page.get_by_role("button", name=finished_card).wait_for(state="attached")


def test_heartland_resumes_after_reload_and_restart(app: CompanionApp) -> None:
    ui = app.open()
    new_game(ui, None, "Ann", "Bob")
    tap(ui, "Start game")
    see(ui, "Round 1 · Ann's turn", "Target $50 (rulebook) · leader Ann $5")
    tap(ui, "2 · $2")
    see(ui, "Last: Ann moved 2 spaces for $2")
    tap(ui, "Load")
    see(ui, "Load · Ann")
    tap(ui, "3", nth=GOODS.index("corn"))
    see(ui, "Last: Ann loaded 3 corn")
    tap(ui, "End Ann's turn (Bob next)")
    see(ui, "Round 1 · Bob's turn")
    tap(ui, "Fuel 1")  # Bob is in the middle of his turn: moved, no action yet
    see(ui, "Last: Bob moved 1 space with fuel")

    def same_game(shot: str) -> None:
        see(
            ui,
            "Heartland",
            "Round 1 · Bob's turn",
            "Last: Bob moved 1 space with fuel",
            "Target $50 (rulebook) · leader Bob $5",
        )
        see_card(ui, "Bob", "empty truck · 0/8", "$5")
        see_card(ui, "Ann", "3 corn · 3/8", "$3")
        ui.screenshot(shot)
        tap(ui, "Fuel 2")  # the move already recorded came back too: a second one is refused
        see(ui, "Bob has already moved this turn.")

    # A fresh Flet session: main runs again and must find the game on disk.
    ui.reload(new_session=True)
    same_game("13-heartland-resumed-after-reload")

    # A new server process on the same data folder.
    ui = app.restart()
    same_game("14-heartland-resumed-after-restart")

    # And the game goes on from there.
    tap(ui, "Load")
    see(ui, "Load · Bob")
    tap(ui, "1", nth=GOODS.index("pigs"))
    see(ui, "Last: Bob loaded 1 pig")
    see_card(ui, "Bob", "1 pig · 1/8", "$5")
    tap(ui, "End Bob's turn (Ann next)")
    see(ui, "Round 2 · Ann's turn")
    tap_icon(ui, "Back to all games")
    see(ui, "Companion", "In progress")
    # A game's card is one tappable node named by its texts, the game first; the bin is apart.
    card_name = re.compile(r"^Heartland · Ann and Bob\s+Ann's turn · \$3 \/ \$50\s+last played")
    card = ui.page.get_by_role("button", name=card_name)
    card.wait_for(state="attached")
    ui.screenshot("15-home-in-progress")
    card.click()  # one tap resumes
    see(ui, "Round 2 · Ann's turn", "Last: Bob ended the turn; Ann plays")


# --- TransAmerica ---------------------------------------------------------------------------


def test_transamerica_full_game(app: CompanionApp) -> None:
    ui = app.open()
    new_game(ui, "TransAmerica · 2–6 players", "Ann", "Bob", "Cid")
    see(ui, "Everyone starts with 13 points; the start player moves one seat each round.")
    tap(ui, "Start game")
    see(ui, "TransAmerica", "Round 1 · Ann starts", "Round 1 starts with Ann.", "No round played yet.")
    assert ui.page.get_by_text(exact("13")).count() == 3
    ui.screenshot("07-transamerica-countdown")

    # Round 1. One row of counts per player, in seat order: one tap each.
    tap(ui, "End round 1")
    see(ui, "End of round 1")
    tap(ui, "1", nth=0)  # Ann
    tap(ui, "4", nth=1)  # Bob
    tap(ui, "6", nth=2)  # Cid
    see(ui, "13 to 12", "13 to 9", "13 to 7")
    tap(ui, "Save round 1")  # nobody connected everything: refused
    see(ui, "Someone must have 0 segments missing: a round ends when a player's cities are all connected.")
    tap(ui, "0", nth=0)  # Ann connected all her cities after all
    see(ui, "13 to 13")
    ui.screenshot("08-transamerica-end-round-sheet")
    tap(ui, "Save round 1")
    see(ui, "Round 2 · Bob starts", "Round 2 starts with Bob.", "9", "7", "-4", "-6")
    # A round corrects from its column heading.
    ui.page.get_by_role("button", name=re.compile(r"\bR1\b")).wait_for(state="attached")

    # Round 2: Cid reaches 0, which ends the game.
    tap(ui, "End round 2")
    see(ui, "End of round 2")
    tap(ui, "2", nth=1)  # Bob
    tap(ui, "7", nth=2)  # Cid
    see(ui, "13 to 13", "9 to 7", "7 to 0", "This ends the game: Cid at 0 or below.")
    tap(ui, "Save round 2")
    see(ui, "Game over after 2 rounds", "Ann wins with 13 points", "1st Ann", "2nd Bob", "3rd Cid")
    assert not ui.has_text(re.compile(r"^End round"))
    ui.screenshot("09-transamerica-game-over")


# --- The command line -------------------------------------------------------------------------


@contextlib.contextmanager
def cli_server(data_dir: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`python -m companion --web --port N --data DIR`; yields the address it prints."""
    port = free_port()
    env = {**os.environ, "FLET_FORCE_WEB_SERVER": "true", "PYTHONUNBUFFERED": "1"}  # no browser tab of its own
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "--web", "--port", str(port), "--data", str(data_dir)],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        assert match and int(match.group(1)) == port, f"unexpected first line: {first!r}"
        assert str(data_dir) in first
        url = match.group(0)
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, f"companion exited with {proc.returncode}: {proc.stdout.read()}"
            try:
                with urllib.request.urlopen(url, timeout=1) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            assert time.monotonic() < deadline, f"companion did not answer on {url}"
            time.sleep(0.2)
        yield url, proc
    finally:
        stop_process_group(proc)
        if proc.stdout is not None:
            proc.stdout.close()


def test_cli_serves_the_app(tmp_path: Path) -> None:
    require_browser()
    data_dir = tmp_path / "cli-data"
    with cli_server(data_dir) as (url, proc), open_browser(url) as ui:
        see(ui, "Companion", "No games yet. Start one below; every tap is saved as you play.")
        ui.screenshot("16-cli-home")
        tap(ui, "+ New game")
        see(ui, "New game", "Start game")
    assert proc.poll() is not None  # stopped at teardown

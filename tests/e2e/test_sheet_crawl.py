"""Every sheet of every game screen, opened in Chromium, and from each sheet every button
that leads to another sheet, back to the game, or on (Rules, Back, Close, Stop game, the
log's older lines, Share, Stop sharing, Record anyway, a sheet's confirm button).

The crawler finds the sheets by tapping every button of the game screen (what it records
is undone); in each sheet it taps every button but those that only pick a number (counts,
prices, steppers). After each tap it compares what the browser shows (the open sheet's
title and buttons, read from the semantics tree) with what the server means to show (the
sheet ``ui-state.json`` names, and its draft), and fails on the first difference. Every
tap on the game screen must change what it shows (a sheet, a notice, the act recorded or
undone), and the crawl ends by opening the log from the game screen: a page that stopped
listening is caught too. (Before every sheet shared one dialog slot, `shell.SHEET_SLOT`,
Log -> Stop game and Load -> Rules left the browser on the old sheet, deaf to taps.)

The app is served as ``companion --web`` serves it (with a share host, so the Share sheet
is there too) on a data folder with a game of each title left at a point where its screen
offers every sheet (``seeds.py``). Adding a sheet to the app is one line of ``SHEETS``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from harness import SCREENSHOTS_DIR, Browsers, FlutterPage, open_browsers, require_browser, serve_cli
from labels import problems
from seeds import great_plains_counted, great_plains_spirits, heartland_long, nothing, seed
from watch import SCREEN, Button, View, find, frames, open_from_home, open_watched, reveal, server_view, settle, view

from companion.text import reference


@dataclass(frozen=True)
class Sheet:
    title: str  # as shown; {game}, {current} (whose turn), {round}, or a draft field such as {player}
    buttons: tuple[str, ...] = ()  # besides Close, which every sheet has
    playing: tuple[str, ...] = ()  # and these while the game is not over


# What each sheet of a game screen shows, by the name the server gives it (ui-state.json's panel).
SHEETS: dict[str, Sheet] = {
    "log": Sheet("Session log", playing=("Stop game",)),
    "stop": Sheet("Stop the game?", ("Stop the game",)),
    "rules": Sheet("The rules of {game}"),
    # "Start sharing" before it listens, "Stop sharing" once it does: only Close is always there.
    "share": Sheet("Share with the table"),
    "load": Sheet("Load · {current}", ("Rules",)),
    "unload": Sheet("Unload · {current}", ("Rules",)),
    "adjust": Sheet("Correct {player}'s money"),
    "cargo": Sheet("Correct {player}'s cargo"),
    "upgrade": Sheet("Buy upgrade · {current}"),
    "end_round": Sheet("End of round {round}", ("Rules", "Save round {round}")),
    "amend_round": Sheet("Correct round {round}", ("Rules", "Save round {round} corrected")),
    "zone": Sheet("Add a prairie zone", ("Rules", "Add zone")),
    "amend_zone": Sheet("Correct zone {zone}", ("Rules", "Save zone {zone} corrected")),
}

# Buttons that only pick a number in a sheet: a count, a price, a correction, a stepper.
PICKS_A_NUMBER = re.compile(r"^([+\-−]?\$?\d+( \$)?|\d+ \(\+\$\d+\)|.* (minus one|plus \d+))$")
# On the game screen: buttons that leave it or walk its history rather than open anything.
NOT_CRAWLED = re.compile(r"^(Back to all games|Undo.*|Redo.*|Nothing to (undo|redo))$")
UNDO_ICON = re.compile(r"^(Undo: .*|Nothing to undo)$")
SETTLE_TIMEOUT_MS = 5000
QUIET_MS = 60  # after the server's answer: the comparison itself waits for the page to agree
AGREE_TIMEOUT_S = 4.0


@dataclass(frozen=True)
class Game:
    card: str  # how its card on Home begins
    title: str  # the game's published title
    game_id: str
    players: int
    options: dict[str, Any]
    played: Callable[..., None]
    current: str  # whose turn it is
    round: int
    sheets: frozenset[str]  # every sheet its screen must offer
    names: tuple[str, ...] = ()  # its players, when not the first of seeds.PLAYERS (a card of its own)

    @property
    def id(self) -> str:
        return f"{self.game_id}-{self.players}" + ("-" + "-".join(self.names) if self.names else "")


HEARTLAND = "The Great Heartland Hauling Co."
EVERY_GAME = frozenset({"log", "stop", "rules", "share"})
GAMES = [
    Game(
        "Heartland · Ann and Bob",
        HEARTLAND,
        "heartland",
        2,
        {"truck_stops": True},
        heartland_long,
        "Ann",
        18,
        EVERY_GAME | {"load", "unload", "adjust", "cargo", "upgrade"},
    ),
    Game(
        "Heartland · Ann, Bob and Cid",
        HEARTLAND,
        "heartland",
        3,
        {},
        nothing,
        "Ann",
        1,
        EVERY_GAME | {"load", "adjust", "cargo"},
    ),
    Game(
        "Heartland · Ann, Bob, Cid and Dee",
        HEARTLAND,
        "heartland",
        4,
        {},
        nothing,
        "Ann",
        1,
        EVERY_GAME | {"load", "adjust", "cargo"},
    ),
    Game(
        "TransAmerica · Ann, Bob and Cid",
        "TransAmerica",
        "transamerica",
        3,
        {},
        nothing,
        "Ann",
        1,
        EVERY_GAME | {"end_round"},
    ),
    Game(
        "Great Plains · Ann and Bob",
        "Great Plains",
        "great_plains",
        2,
        {},
        great_plains_spirits,
        "Ann",
        1,
        EVERY_GAME | {"zone"},
    ),
    Game(
        "Great Plains · Cid and Dee",
        "Great Plains",
        "great_plains",
        2,
        {},
        great_plains_counted,
        "Cid",
        1,
        EVERY_GAME | {"zone", "amend_zone"},
        ("Cid", "Dee"),
    ),
]


@dataclass(frozen=True)
class Node:
    """Where the crawl is: the open sheet (None: the game screen) and the sheet Rules came from."""

    panel: str | None
    came_from: str | None = None

    def __str__(self) -> str:
        if self.panel is None:
            return "the game screen"
        return f"the {self.panel!r} sheet" + (f" (opened from {self.came_from!r})" if self.came_from else "")


def node_of(panel: str | None, draft: dict[str, Any]) -> Node:
    came_from = draft.get("came_from")
    return Node(panel, came_from.get("panel") if isinstance(came_from, dict) else None)


@dataclass
class Tap:
    label: str
    nth: int
    layer: str

    def __str__(self) -> str:
        which = f" (#{self.nth + 1})" if self.nth else ""
        return f"{(self.label.splitlines() or [''])[0]!r}{which}"


@dataclass
class Memory:
    """What the crawl of a game learnt, for the next game of the same title (Heartland with 3,
    then 4 players): the game screen's buttons that open no sheet are not tapped again, and a
    sheet explored then is only opened, checked and closed (it is the same sheet; what
    differs is the screen around it, and the sheets of players new to this game)."""

    tried: set[str] = field(default_factory=set)  # game-screen buttons tapped
    opens: set[str] = field(default_factory=set)  # …and those of them that open a sheet
    stays: set[tuple[str | None, str]] = field(default_factory=set)  # (panel, label): taps that kept the sheet
    explored: set[Node] = field(default_factory=set)
    leads: dict[Node, set[str]] = field(default_factory=dict)  # the sheets each explored sheet led to


@dataclass
class Crawler:
    ui: FlutterPage
    data_dir: Path
    game: Game
    memory: Memory
    found: set[str] = field(default_factory=set)  # the sheets opened
    visited: set[Node] = field(default_factory=set)
    transitions: list[str] = field(default_factory=list)
    baseline: str = ""  # the top bar's Undo label at the start: the game as seeded
    over: bool = False  # the game screen showed the end of the game (Play again)
    broken: bool = False  # the crawl failed: the page may be stuck
    unheard: list[str] = field(default_factory=list)  # what a screen reader would get wrong, by sheet
    _seen: View | None = None  # what the page showed when last looked at, until the next tap

    # --- what is shown, what is meant --------------------------------------------------

    def look(self, *, again: bool = False) -> View:
        if again or self._seen is None:
            self._seen = view(self.ui)
        return self._seen

    def meant(self) -> tuple[Node, str | None, list[str], list[str]]:
        """(node, title, buttons, texts) the server means to show now."""
        panel, draft = server_view(self.data_dir)
        node = node_of(panel, draft)
        if panel is None:
            return node, None, [], []
        sheet = SHEETS.get(panel)
        assert sheet is not None, f"the server opened a sheet named {panel!r}, which SHEETS does not know: add it"
        words = {
            "game": self.game.title,
            "current": self.game.current,
            "round": self.game.round,
            "player": self.game.current,
            **{k: v for k, v in draft.items() if isinstance(v, str | int)},
        }
        labels = ("Close", *sheet.buttons, *(() if self.over else sheet.playing))
        wanted = [label.format(**words) for label in labels]
        wanted_texts: list[str] = []
        if panel == "rules":
            sections = reference.SECTIONS[self.game.game_id]
            section = draft.get("section") if draft.get("section") in sections else sections[0]
            wanted_texts.append(reference.section(self.game.game_id, section, "en").title)
            if node.came_from:
                wanted.append("Back")
        if panel == "log" and draft.get("log_all"):
            wanted_texts.append("1. ")  # the oldest line
        return node, sheet.title.format(**words), wanted, wanted_texts

    def disagreement(self) -> str | None:
        """Why the browser does not show what the server means to, or None."""
        node, title, wanted, wanted_texts = self.meant()
        shown = self.look(again=True)
        if title is None:
            if shown.title is not None:
                return f"the server closed the sheet, the browser still shows {shown.title!r}"
            return None if find(shown.layer(SCREEN), "Session log") else "the game screen shows none of its buttons"
        if shown.title != title:
            return f"the server shows {node} ({title!r}), the browser shows " + (
                "no sheet" if shown.title is None else repr(shown.title)
            )
        labels = {button.label for button in shown.layer(title) if not button.disabled}
        missing = [label for label in wanted if label not in labels]
        if missing:
            return f"{title!r} is shown without the buttons {missing}"
        lines = [line for text in shown.texts for line in text.split("\n")]
        absent = [text for text in wanted_texts if not any(line.startswith(text) for line in lines)]
        return f"{title!r} is shown without the text {absent}" if absent else None

    def agree(self, after: str) -> None:
        """Fail unless the browser comes to show what the server means to, within a few seconds."""
        deadline = time.monotonic() + AGREE_TIMEOUT_S
        while (why := self.disagreement()) is not None:
            if time.monotonic() > deadline:
                self.fail(f"after {after}: {why}")
            self.ui.page.wait_for_timeout(100)

    def fail(self, message: str) -> None:
        self.broken = True
        SCREENSHOTS_DIR.mkdir(parents=True, exist_ok=True)
        shot = SCREENSHOTS_DIR / f"FAILED-crawl-{self.game.id}.png"
        self.ui.page.screenshot(path=str(shot))
        shown = [f"{(b.label.splitlines() or [''])[0]!r}" for b in self.look(again=True).buttons]
        done = "\n  ".join(self.transitions[-8:])
        pytest.fail(
            f"{self.game.card}: {message}.\nButtons shown: {', '.join(shown)}\n"
            f"Last transitions checked:\n  {done}\nScreenshot: {shot.name}",
            pytrace=False,
        )

    # --- tapping ------------------------------------------------------------------------

    def tap(self, tap: Tap, where: Node) -> None:
        """Tap the button, wait for the server's answer and the page to settle, compare."""
        button = self.wait_for(tap)
        if button is None:
            self.fail(f"no button {tap} on {where} to tap")
        assert button is not None
        if tap.layer == SCREEN:
            self.over = find(self.look().buttons, "Play again") is not None
        button = reveal(self.ui, button)
        before = self.look(again=True)
        mark = frames(self.ui)
        self.ui.page.mouse.click(button.x + button.width / 2, button.y + button.height / 2)
        self._seen = None
        answered = settle(self.ui, mark, quiet_ms=QUIET_MS, timeout_ms=SETTLE_TIMEOUT_MS)
        after = f"tapping {tap} on {where}"
        if not answered:
            self.fail(f"{after}: the page got no answer from the server in {SETTLE_TIMEOUT_MS} ms")
        self.agree(after)
        if tap.layer == SCREEN and self.node().panel is None:
            self.changed(before, after)
        self.transitions.append(f"{tap} on {where} -> {self.node()}")

    def changed(self, before: View, after: str) -> None:
        """A tap on the game screen shows its effect: a notice, the act recorded (or undone)."""
        deadline = time.monotonic() + AGREE_TIMEOUT_S
        while (now := self.look()).title is None and (now.buttons, now.texts) == (before.buttons, before.texts):
            if time.monotonic() > deadline:
                self.fail(f"{after}: nothing changed on the screen")
            self.ui.page.wait_for_timeout(100)
            self.look(again=True)

    def wait_for(self, tap: Tap) -> Button | None:
        """The button to tap once it is shown (None if it is not within a few seconds)."""
        deadline = time.monotonic() + AGREE_TIMEOUT_S
        while True:
            button = find(self.look().layer(tap.layer), tap.label, tap.nth)
            if button is not None or time.monotonic() > deadline:
                return button
            self.ui.page.wait_for_timeout(100)
            self.look(again=True)

    def probe(self) -> None:
        """The game screen takes taps: the log opens (and closes) when its icon is tapped."""
        self.tap(Tap("Session log", 0, SCREEN), Node(None))
        if self.node().panel != "log":
            self.fail(f"tapping 'Session log' on the game screen opened {self.node()}")
        self.tap(Tap("Close", 0, "Session log"), Node("log"))

    def node(self) -> Node:
        return node_of(*server_view(self.data_dir))

    def undo_label(self) -> str:
        icon = next((b for b in self.look().layer(SCREEN) if UNDO_ICON.match(b.label)), None)
        if icon is None:
            self.fail("the game screen shows no Undo button")
        assert icon is not None
        return icon.label

    def back_to_the_game(self) -> None:
        """Close any sheet, then undo whatever the crawl recorded: the game as seeded."""
        node = self.node()
        if node.panel is not None:
            self.tap(Tap("Close", 0, self.look().title or ""), node)
        for _ in range(5):
            label = self.undo_label()
            if label == self.baseline:
                return
            self.tap(Tap(label, 0, SCREEN), Node(None))
            if self.undo_label() == label:
                self.fail(f"Undo ({label!r}) took no effect on the game screen")
        self.fail(f"the game did not come back to where it was ({self.baseline!r}) after five undos")

    def go(self, path: list[Tap], node: Node) -> None:
        """From wherever the crawl is to `node`, the way it was first reached."""
        if self.node() == node:
            return
        self.back_to_the_game()
        where = Node(None)
        for tap in path:
            self.tap(tap, where)
            where = self.node()
        if where != node:
            self.fail(f"tapping {' then '.join(map(str, path))} led to {where}, not to {node} as before")

    # --- the crawl ------------------------------------------------------------------------

    def crawl(self) -> None:
        """Every button of the game screen; every sheet one opens, explored."""
        self.baseline = self.undo_label()
        self.unheard += problems(self.ui, f"{self.game.id}, the game screen")
        start = [b for b in self.look().layer(SCREEN) if not b.disabled and not NOT_CRAWLED.match(b.label)]
        for button in start:
            if button.label in self.memory.tried and button.label not in self.memory.opens:
                continue
            self.memory.tried.add(button.label)
            tap = Tap(button.label, button.nth, SCREEN)
            self.back_to_the_game()
            before = {b.label for b in self.look().buttons}
            self.tap(tap, Node(None))
            node = self.node()
            if node.panel is not None:
                self.found.add(node.panel)
                self.memory.opens.add(button.label)
                if node in self.memory.explored and node not in self.visited:
                    self.found |= self.memory.leads.get(node, set())  # reached from it in the game before
                elif node not in self.visited:
                    self.explore([tap], node)
                continue
            appeared = [b for b in self.look().layer(SCREEN) if b.label not in before]
            if find(appeared, "Record anyway") is not None:  # the table's call: record it anyway (then undo it)
                recorded = self.undo_label()
                self.tap(Tap("Record anyway", 0, SCREEN), Node(None))
                if self.undo_label() == recorded:
                    self.fail(f"'Record anyway' after {tap} recorded nothing")
            elif find(appeared, "Dismiss") is not None:
                self.tap(Tap("Dismiss", 0, SCREEN), Node(None))
        self.back_to_the_game()
        self.probe()  # the last sheet closed, the game screen still takes taps
        missing = self.game.sheets - self.found
        if missing:
            self.fail(f"the game screen offers no way to open {sorted(missing)} (opened: {sorted(self.found)})")

    def explore(self, path: list[Tap], node: Node) -> None:
        """Tap every button of the sheet at `node` (reached by `path`) but those picking a number."""
        self.visited.add(node)
        self.memory.explored.add(node)
        leads = self.memory.leads.setdefault(node, set())
        title = self.look().title or ""
        self.unheard += problems(self.ui, f"{self.game.id}, {title!r}")
        pending = [Tap(b.label, b.nth, title) for b in self.sheet_buttons(title)]
        tried: set[str] = set()
        while pending:
            # Close last: every other tap is tried first without opening the sheet again.
            tap = pending.pop(next((i for i, t in enumerate(pending) if t.label != "Close"), 0))
            if tap.label in tried or (node.panel, tap.label) in self.memory.stays:
                continue
            tried.add(tap.label)
            self.go(path, node)
            title = self.look().title or ""
            tap.layer = title
            if find(self.sheet_buttons(title), tap.label, tap.nth) is None:
                continue  # shown only in another state of the sheet (the section shown has no button)
            before = {b.label for b in self.sheet_buttons(title)}
            self.tap(tap, node)
            now = self.node()
            if now == node:
                self.memory.stays.add((node.panel, tap.label))
                pending += [Tap(b.label, b.nth, title) for b in self.sheet_buttons(title) if b.label not in before]
            elif now.panel is not None:
                self.found.add(now.panel)
                leads.add(now.panel)
                if now not in self.visited:
                    self.explore([*path, tap], now)

    def sheet_buttons(self, title: str) -> list[Button]:
        return [b for b in self.look().layer(title) if not b.disabled and not PICKS_A_NUMBER.match(b.label)]


# --- the app, one browser for the module ----------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browsers, Path, str]]:
    require_browser()
    data_dir = tmp_path_factory.mktemp("crawl") / "data"
    seed(data_dir, [(game.game_id, game.players, game.options, game.played, game.names) for game in GAMES])
    with serve_cli(["--share-host", "127.0.0.2"], data_dir=data_dir) as server, open_browsers() as browsers:
        server.wait_for_log(r"serving at")
        yield browsers, data_dir, server.url


PAGES: list[FlutterPage] = []  # the page the crawls share, until one fails (it may be stuck then)
MEMORIES: dict[str, Memory] = {}  # per game id


@pytest.fixture
def page(served: tuple[Browsers, Path, str]) -> Iterator[FlutterPage]:
    browsers, _, url = served
    if not PAGES:
        PAGES.append(open_watched(browsers, url))
    yield PAGES[0]


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_every_sheet_shows_what_the_server_means(
    served: tuple[Browsers, Path, str], page: FlutterPage, game: Game
) -> None:
    browsers, data_dir, url = served
    open_from_home(page, game.card)
    crawler = Crawler(page, data_dir, game, MEMORIES.setdefault(game.game_id, Memory()))
    started = time.monotonic()
    try:
        crawler.agree(f"opening {game.card} from Home")
        crawler.crawl()
    finally:
        if crawler.broken:  # the next game gets a page of its own
            PAGES.pop().page.context.close()
    print(
        f"{game.card}: {len(crawler.transitions)} taps checked in {time.monotonic() - started:.1f}s; "
        f"sheets {sorted(crawler.found)}"
    )
    # Read as a screen reader reads them: every control of the screen and of each sheet has a
    # name with its meaning in words, no two alike.
    assert not crawler.unheard, "\n".join(dict.fromkeys(crawler.unheard))

"""After the game in Chromium at 412×915, with a finger that notes every control that moves:
a finished game's detail, leaving it out of statistics and counting it again, the
statistics, a player's page and back. Nothing may move under the finger."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from clock_helpers import played_between
from finger import Finger
from harness import Browsers, FlutterPage, serve_cli
from labels import problems
from store_helpers import put
from test_app_e2e import see
from test_nothing_moves import still
from watch import open_watched

from companion.session import Session
from companion.store import Store


def transamerica(store: Store, day: int, players: list[str], *, stop: bool = False) -> None:
    """The first player connects twice (13), the second loses 2 twice (9), the third 6 then 7 (0)."""
    start = 1_700_000_000.0 + day * 86_400
    with played_between(start, start + 3600):  # the table clock ran an hour
        session = Session.new("transamerica", players)
        if stop:
            session.apply({"type": "end_round", "missing": dict(zip(players, [5, 0, 1], strict=True))})
            session.apply({"type": "end_game", "note": "pizza"})
        else:
            for third in (6, 7):
                session.apply({"type": "end_round", "missing": dict(zip(players, [0, 2, third], strict=True))})
    put(store, session, created=start, updated=start + 3600)


@pytest.fixture
def ui(browsers: Browsers, tmp_path: Path) -> Iterator[FlutterPage]:
    data = tmp_path / "data"
    with Store(data) as store:
        transamerica(store, 0, ["Ann", "Bob", "Cid"])
        transamerica(store, 1, ["Bob", "Ann", "Cid"])
        transamerica(store, 2, ["Cid", "Ann", "Bob"], stop=True)
    with serve_cli([], data_dir=data) as server:
        page = open_watched(browsers, server.url)
        try:
            yield page
        finally:
            page.page.context.close()


def test_the_detail_the_statistics_and_a_player_s_page_stay_still(ui: FlutterPage) -> None:
    finger = Finger(ui, watch_moves=True, names=("Ann", "Bob", "Cid"))
    see(ui, "Companion")
    finger.tap(re.compile(r"^TransAmerica · Bob, Ann and Cid"))
    see(ui, "First player: Bob")
    finger.tap("Leave out of statistics")
    finger.button("Count in statistics")  # the same button, now to take it back
    ui.screenshot("after-game-left-out")
    finger.tap("Count in statistics")
    finger.button("Leave out of statistics")
    finger.tap("Back to all games")

    finger.tap(re.compile(r"^TransAmerica · Cid, Ann and Bob"))
    finger.tap("Count in statistics")  # a stopped game is left out until the table counts it
    finger.tap("Leave out of statistics")
    finger.tap("Back to all games")

    finger.tap("Statistics")
    see(ui, "2 games played", "Not counted: 1 stopped game")
    finger.tap("Details", nth=0)
    see(ui, "Time played: 2 h over 2 games")
    finger.tap("Back to the statistics")
    finger.tap("TransAmerica")
    see(ui, "2 games played · rounds per game: 2")
    still(finger, "After the game")


def test_every_screen_is_read_aloud_with_its_meaning(ui: FlutterPage) -> None:
    """Home, New game, the statistics, a player's page, a game's detail, Your games and the
    settings, each as a screen reader reads it (`labels.problems`: every control named in words,
    no two alike); the game screens and their sheets are read by the sheet crawl."""
    finger = Finger(ui)
    unheard: list[str] = []
    see(ui, "Companion")
    unheard += problems(ui, "Home")
    for opens, shows, where in (
        ("+ New game", "New game", "New game"),
        ("Statistics", "2 games played", "Statistics"),
        ("Your games: export, import, backups", "Every game (JSON)", "Your games"),
        ("Settings", "Settings", "Settings"),
    ):
        finger.tap(opens)
        see(ui, shows)
        unheard += problems(ui, where)
        if where == "Statistics":
            finger.tap("Details", nth=0)
            see(ui, "Time played: 2 h over 2 games")
            unheard += problems(ui, "a player's page")
            finger.tap("Back to the statistics")
        finger.tap(re.compile(r"^(Back to all games|Close|Back)$"))
        see(ui, "Companion")
    finger.tap(re.compile(r"^TransAmerica · Bob, Ann and Cid"))
    see(ui, "First player: Bob")
    unheard += problems(ui, "a game's detail")
    assert not unheard, "\n".join(unheard)

"""A finished game's chart in Chromium at 412×915, in English, French and Spanish, with 2
and with 6 players: screenshots (test-artifacts/screenshots/chart-<lang>-<n>p.png) to be
looked at, and in words: the round labels thinned to what fits, the legend naming every
player with their score."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import Browsers, FlutterPage, serve_cli
from store_helpers import put
from test_app_e2e import see

from companion.app.data import AppData
from companion.session import Session
from companion.store import Store

SIX = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
LEGEND = {"en": "Ann: {}", "fr": "Ann : {}", "es": "Ann: {}"}


def six_players(data: AppData) -> str:
    """TransAmerica over 12 rounds: everyone loses a point or two a round, Fay reaches 0 last."""
    session = Session.new("transamerica", SIX)
    for number in range(12):
        missing = {player: (seat + number) % 3 if player != "Fay" else 1 for seat, player in enumerate(SIX)}
        missing["Ann"] = 0 if number % 2 else 1
        session.apply({"type": "end_round", "missing": missing})
    session.apply({"type": "end_round", "missing": {player: 1 if player == "Fay" else 0 for player in SIX}})
    assert session.is_over, session.state
    return put(data.store, session, created=1_700_000_000.0, updated=1_700_004_000.0)


def two_players(data: AppData) -> str:
    """Heartland over 12 rounds, Ann and Bob never selling; stopped with full trucks, so the
    cargo penalty takes both below $0."""
    session = Session.new("heartland", ["Ann", "Bob"])
    for player in session.players:
        session.apply({"type": "correct_cargo", "player": player, "good": "corn", "cubes": 8, "note": "set-up"})
    for _ in range(12):
        for player in session.players:
            session.apply({"type": "move", "player": player, "spaces": 1, "pay": "fuel"})
            session.apply({"type": "discard", "player": player, "forced": session.state.truck(player).money == 0})
            session.apply({"type": "end_turn", "player": player})
    session.apply({"type": "end_game", "note": "late"})
    return put(data.store, session, created=1_700_000_000.0, updated=1_700_004_000.0)


def chart_page(browsers: Browsers, data_dir: Path, language: str, session_id: str) -> Iterator[FlutterPage]:
    with Store(data_dir) as store:
        AppData(store).remember_screen(None, screen={"name": "detail", "session": session_id})
    with serve_cli(["--lang", language], data_dir=data_dir) as server:
        page = browsers.new_page(server.url)
        try:
            yield page
        finally:
            page.page.context.close()


# Six players (the crowded legend) in each language; two players once (CI time: each is a
# server and a page of its own).
@pytest.mark.parametrize(("players", "language"), [(6, "en"), (6, "fr"), (6, "es"), (2, "en")])
def test_the_chart_at_412_px(browsers: Browsers, tmp_path: Path, language: str, players: int) -> None:
    data_dir = tmp_path / "data"
    with Store(data_dir) as store:
        session_id = (six_players if players == 6 else two_players)(AppData(store))
    for ui in chart_page(browsers, data_dir, language, session_id):
        see(ui, {"en": "First player: Ann", "fr": "Premier joueur : Ann", "es": "Jugador inicial: Ann"}[language])
        ui.page.mouse.move(200, 500)
        for _ in range(2 if players == 2 else 6):  # the chart under the result
            ui.page.mouse.wheel(0, 150)
            ui.page.wait_for_timeout(150)
        title = {
            "en": "Score over the game",
            "fr": "Le score au fil de la partie",
            "es": "La puntuación a lo largo de la partida",
        }[language]
        ui.wait_for_text(re.compile(re.escape(title)))  # the chart's words are one node
        ui.page.mouse.move(406, 900)  # no tooltip over the lines
        ui.screenshot(f"chart-{language}-{players}p", settle_s=1.5)

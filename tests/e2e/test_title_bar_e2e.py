"""Whose turn it is and the last act, whole on a phone, in Chromium at 412x915.

Tried by a table: beside the title bar's five icons the turn read "Round 1 · Ann's …", and the
"Last: …" line beside the clock and Undo was cut at two lines (in English too; French
sentences run longer, and a six-player round's never fits: every one is whole in the log).
Text cut with an ellipsis fills all the width it is given; whole text takes its own width
(the turn line) or fewer lines than its limit (the last act): that is what is read here,
from Flutter's own boxes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import Browsers, serve_cli
from test_app_e2e import see
from watch import find, open_watched, press, settle, view

from companion.app.data import AppData
from companion.app.screens import great_plains, heartland, transamerica
from companion.store import Store
from companion.text import i18n

PHONE = {"width": 412, "height": 915}
NAMES = ["Bernadette", "Maximilian", "Fatima"]
LINE_PX = 19  # one line of the last act's 13 px words, as Flutter lays it out

# Each title at one of its longest everyday sentences and turn lines: a delivery with its price
# in the final round, a round's missing points for three, a token that took a spirit, scoring.
GAMES: list[tuple[str, Any, list[str], list[dict[str, Any]]]] = [
    (
        "heartland",
        heartland,
        NAMES,
        [
            {"type": "correct_cargo", "player": "Bernadette", "good": "soybeans", "cubes": 6, "note": "set-up"},
            {"type": "adjust", "player": "Bernadette", "amount": 60, "note": "set-up"},
            {"type": "move", "player": "Bernadette", "spaces": 1, "pay": "fuel"},
            {"type": "unload", "player": "Bernadette", "good": "soybeans", "cubes": 6, "price": 7},
            {"type": "end_turn", "player": "Bernadette"},
        ],
    ),
    (
        "transamerica",
        transamerica,
        NAMES,
        [{"type": "end_round", "missing": {"Bernadette": 11, "Maximilian": 0, "Fatima": 12}}],
    ),
    (
        "great_plains",
        great_plains,
        NAMES[:2],
        [
            *({"type": "place_cave", "player": NAMES[cave % 2]} for cave in range(6)),
            {"type": "place_token", "player": "Bernadette", "spirit": "eagle"},
        ],
    ),
    (
        "great_plains",
        great_plains,
        NAMES[1:],
        [
            *({"type": "place_cave", "player": NAMES[1 + cave % 2]} for cave in range(6)),
            *({"type": "place_token", "player": NAMES[1 + token % 2]} for token in range(40)),
        ],
    ),
]

BOXES_JS = """(wanted) => Array.from(document.querySelectorAll("flt-semantics > span"))
    .filter((s) => s.textContent.trim() === wanted)
    .map((s) => { const r = s.parentElement.getBoundingClientRect();
                  return {x: r.x, y: r.y, width: r.width, height: r.height}; })"""


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_the_turn_and_the_last_act_are_whole_on_a_phone(browsers: Browsers, tmp_path: Path, language: str) -> None:
    data_dir = tmp_path / "data"
    store = Store(data_dir)
    data = AppData(store)
    shown: list[tuple[str, str, str]] = []  # each game's card's first words, turn line and last act
    for game, screen, players, events in GAMES:
        session = data.new(game, players, {})
        for event in events:
            session.apply(event)
        assert session.id is not None
        shown.append(
            (
                f"{session.game.home_title} · {players[0]}",
                screen.subtitle(session.state, language),
                i18n.t("ui.log.last", language, sentence=session.undo_sentence),
            )
        )
        data.close_session(session.id)
    data.remember_screen(None)
    store.close()
    home = i18n.t("ui.back_home", language)
    with serve_cli(["--lang", language], data_dir=data_dir) as server:
        server.wait_for_log(r"serving at")
        ui = open_watched(browsers, server.url, viewport=PHONE)
        try:
            for card, turn, last in shown:
                for _ in range(100):  # Home drawn
                    cards = [button for button in view(ui).buttons if button.label.startswith(card)]
                    if cards:
                        break
                    ui.page.wait_for_timeout(100)
                assert cards, [button.label for button in view(ui).buttons]
                press(ui, cards[0])
                see(ui, turn)
                settle(ui, None, quiet_ms=300)
                (line,) = ui.page.evaluate(BOXES_JS, turn)
                # Cut, it would reach what is beside it: the clock, or the title bar's icons.
                beside = [
                    button.x
                    for button in view(ui).buttons
                    if button.x > line["x"] + 1
                    and button.y < line["y"] + line["height"]
                    and line["y"] < button.y + button.height
                ]
                assert line["x"] + line["width"] < min(beside, default=PHONE["width"] - 8) - 2, (turn, line, beside)
                if language == "en":
                    (acted,) = ui.page.evaluate(BOXES_JS, last)
                    # Three lines are drawn at most; two were enough, so nothing was cut short.
                    assert acted["height"] < 2.5 * LINE_PX, (last, acted)
                back = find(view(ui).buttons, home)
                assert back is not None
                press(ui, back)
        finally:
            ui.page.context.close()

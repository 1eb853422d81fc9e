"""Each game's screen, by game id: the screen, its sheets, its set-up and its result.

A game's screen module offers them as its `SCREEN`, a `GameScreen` (`offer.py` says what
each is and which may be left out: New game's options, the chart's caption, the options
told in a finished game's detail, `describe_options`), so mypy checks every module against
what the app asks of it. Its title is the game's own (`Game.home_title`). A game without a
module of its own gets the generic one: playable from its own description (its event kinds
and fields), with standings, the log and undo, and no options told.
"""

from __future__ import annotations

from companion.app.screens import generic, great_plains, heartland, transamerica
from companion.app.screens.offer import GameScreen

GAME_SCREENS: dict[str, GameScreen] = {
    "heartland": heartland.SCREEN,
    "transamerica": transamerica.SCREEN,
    "great_plains": great_plains.SCREEN,
}


def game_screen(game_id: str) -> GameScreen:
    return GAME_SCREENS.get(game_id, generic.SCREEN)

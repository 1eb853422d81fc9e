"""Each game's screen module, by game id: the screen, its sheets, its set-up and its result.

A game without a module of its own gets the generic one: playable from its own description
(its event kinds and fields), with standings, the log and undo. A game's screen module may
define, besides `build` and `sheet` (its title is the game's own, `Game.home_title`):
`SETUP_DEFAULTS` and `setup(view, draft)` / `setup_options(draft)` (the New game screen's options),
`result(view)` (its end screen, shown again in a finished game's detail), `log_context`,
and `CHART_CAPTION` (what its score chart counts).
"""

from __future__ import annotations

from types import ModuleType

from companion.app.screens import generic, great_plains, heartland, transamerica

GAME_SCREENS: dict[str, ModuleType] = {
    "heartland": heartland,
    "transamerica": transamerica,
    "great_plains": great_plains,
}


def game_screen(game_id: str) -> ModuleType:
    return GAME_SCREENS.get(game_id, generic)

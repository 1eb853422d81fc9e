"""The registry of games: adding a game is one module and one line here.

One module per game: pure functions over frozen dataclasses, no Flet and no I/O. A fourth
game gets `end_game` and `override` from `base.py`, and a generic screen until it has its
own. The end of a game is a check over its state (`end_if`), never a flag a move sets. A
game's description (`Game`) also holds what the other layers ask of it, each with a
default: its short title and Home's status line (as messages), its length (rounds, or
zones), its chart's steps, the unit of its scores, its rules reference (its sections, where
each place opens it, and its text, kept beside it in `<game>_reference.py`), its
BoardGameGeek id. Its event kinds and their fields name and describe themselves (words,
ranges, choices, players), so a screen can build a form for any event: the generic screen
(`app/screens/generic.py`) does, so a fourth game is played from the UI before it has a
screen of its own. Statistics, results, the reference, the archive and Home's status lines
ask the registry (`GAMES`) for these facts.
"""

from companion.rules import great_plains, heartland, transamerica
from companion.rules.base import Game
from companion.text import messages, reference

GAMES: dict[str, Game] = {  # type: ignore[type-arg]
    heartland.GAME.id: heartland.GAME,
    transamerica.GAME.id: transamerica.GAME,
    great_plains.GAME.id: great_plains.GAME,
}

for _game in GAMES.values():
    messages.register("en", _game.messages)
    if _game.reference is not None:
        messages.register("en", _game.reference.text)
reference.use(GAMES)  # the reference's sections and openings are the games' own facts

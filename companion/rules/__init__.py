"""The registry of games: adding a game is one module and one line here."""

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
reference.use(GAMES)  # the reference's sections and openings are the games' own facts

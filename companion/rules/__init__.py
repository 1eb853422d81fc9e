"""The registry of games: adding a game is one module and one line here."""

from companion import messages
from companion.rules import great_plains, heartland, transamerica
from companion.rules.base import Game

GAMES: dict[str, Game] = {  # type: ignore[type-arg]
    heartland.GAME.id: heartland.GAME,
    transamerica.GAME.id: transamerica.GAME,
    great_plains.GAME.id: great_plains.GAME,
}

for _game in GAMES.values():
    messages.register("en", _game.messages)

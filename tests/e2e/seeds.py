"""Games written into a data folder before the app serves it, each at a point of play where
its screen offers every sheet it has (the browser tests then open them by tapping)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.app.data import AppData
from companion.session import Session
from companion.store import Store

PLAYERS = ("Ann", "Bob", "Cid", "Dee")


def heartland_long(session: Session) -> None:
    """Seventeen rounds of moving and discarding (102 lines: the log hides its oldest ones),
    then Ann's turn, moved, with 7 of 8 cubes on her truck: she can load (room for one),
    unload, buy an upgrade (truck stops) and correct her cargo (+2 is the table's call)."""
    for good, cubes in (("corn", 2), ("soybeans", 2), ("cattle", 2), ("pigs", 1)):
        session.apply({"type": "correct_cargo", "player": "Ann", "good": good, "cubes": cubes, "note": "set-up"})
    for _ in range(17):
        for player in session.players:
            session.apply({"type": "move", "player": player, "spaces": 1, "pay": "fuel"})
            broke = session.state.truck(player).money == 0
            session.apply({"type": "discard", "player": player, "forced": broke})
            session.apply({"type": "end_turn", "player": player})
    session.apply({"type": "move", "player": "Ann", "spaces": 1, "pay": "fuel"})


def great_plains_spirits(session: Session) -> None:
    """The caves placed, then a token each: Ann (Fox) took a horse spirit and may use it now."""
    for cave in range(6):
        session.apply({"type": "place_cave", "player": session.players[cave % 2]})
    session.apply({"type": "place_token", "player": "Ann", "spirit": "horse"})
    session.apply({"type": "place_token", "player": "Bob"})


def great_plains_scoring(session: Session) -> None:
    """Every cave and token placed: the table counts the prairies."""
    for cave in range(6):
        session.apply({"type": "place_cave", "player": session.players[cave % 2]})
    for token in range(40):
        session.apply({"type": "place_token", "player": session.players[token % 2]})


def great_plains_counted(session: Session) -> None:
    """Every cave and token placed, and one prairie zone counted: it can be corrected."""
    great_plains_scoring(session)
    first, second = session.players
    session.apply({"type": "zone", "spaces": 3, "water": 0, "tokens": {first: 2, second: 1}})


def heartland_hauling(session: Session) -> None:
    """Ann has moved and carries 6 corn: ready to unload at any price."""
    session.apply({"type": "correct_cargo", "player": "Ann", "good": "corn", "cubes": 6, "note": "set-up"})
    session.apply({"type": "move", "player": "Ann", "spaces": 1, "pay": "fuel"})


def nothing(session: Session) -> None:
    pass


def seed(data_dir: Path, games: list[tuple[Any, ...]]) -> list[str]:
    """Write the games (game id, players, options, what was played[, their names]) and land on
    Home; their ids, in order. Without names the players are the first of `PLAYERS`."""
    store = Store(data_dir)
    data = AppData(store)
    ids = []
    for game, count, options, played, *names in games:
        session = data.new(game, list(names[0] if names and names[0] else PLAYERS[:count]), options)
        played(session)
        assert session.id is not None
        ids.append(session.id)
        data.close_session(session.id)
    data.remember_screen(None)
    store.close()
    return ids

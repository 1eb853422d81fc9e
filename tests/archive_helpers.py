"""Archives of thousands of saved games, written straight into a data folder (seconds, not hours).

Valid sessions are played once by the rules, then copied under fresh ids with their index
entries (status lines included, as the app saves them); the files are written as the
store writes them, so a store opened on the folder lists and opens them like its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from companion.app.data import status_of
from companion.session import Session
from companion.store import storage
from companion.store.index_file import by_key
from companion.store.listing import new_session_id
from companion.store.storage import Folder


@dataclass(frozen=True)
class Template:
    session: Session
    file: bytes  # the session file, creation time 0
    entry: dict[str, Any]  # the index entry, times 0


def index_status(lines: dict[str, str]) -> dict[str, Any]:
    """An index entry's status fields: the English line, and the others by language."""
    others = {language: line for language, line in lines.items() if language != "en"}
    return {"status": lines["en"], "status_in": others}


def template(session: Session) -> Template:
    doc = {**session.to_dict(), "created": 0.0, "title": ""}
    file = storage.encode({"_meta": {"1": {"format": 1, "kind": "session"}}, "session": {"1": doc}})
    winners = [standing.player for standing in session.standings() if standing.winner] if session.is_over else []
    entry = {
        "game": session.game.id,
        "players": list(session.players),
        "created": 0.0,
        "updated": 0.0,
        "title": "",
        "is_over": session.is_over,
        "winners": winners,
        **index_status(status_of(session.game.id, session.state)),
    }
    return Template(session, file, entry)


def heartland(players: list[str], turns: int) -> Session:
    session = Session.new("heartland", players, {"target": 999})
    for number in range(turns):
        player = session.current_player or ""
        session.apply({"type": "move", "player": player, "spaces": 1, "pay": "fuel"})
        session.apply({"type": "adjust", "player": player, "amount": 1 + number % 3, "note": "bench"})
        session.apply({"type": "discard", "player": player, "forced": True})
        session.apply({"type": "end_turn", "player": player})
    return session


def transamerica(players: list[str], finished: bool) -> Session:
    session = Session.new("transamerica", players)
    session.apply({"type": "end_round", "missing": {name: 2 * number for number, name in enumerate(players)}})
    if finished:
        session.apply({"type": "end_round", "missing": {players[-1]: 13, **{name: 0 for name in players[:-1]}}})
    return session


def great_plains(players: list[str], tokens: int) -> Session:
    session = Session.new("great_plains", players)
    for number in range(6 + tokens):
        kind = "place_cave" if number < 6 else "place_token"
        session.apply({"type": kind, "player": session.current_player})
    return session


def templates() -> tuple[list[Template], list[Template]]:
    """(unfinished games, finished games) of every game, with players named in several scripts."""
    unfinished = [
        template(heartland(["Ann", "Bob", "Cy"], 5)),
        template(great_plains(["Zoë", "Łukasz"], 4)),
        template(transamerica(["Kim", "Lou", "Mia"], finished=False)),
    ]
    finished = [
        template(transamerica(["Ann", "Bob"], finished=True)),
        template(transamerica(["Dee", "Eve", "Zoë"], finished=True)),
    ]
    return unfinished, finished


def build(folder: Folder, count: int, unfinished_every: int) -> list[tuple[str, Template]]:
    """`count` games, one in `unfinished_every` unfinished, oldest first; their index written last."""
    unfinished, finished = templates()
    folder.ensure("sessions")
    made: list[tuple[str, Template]] = []
    entries: dict[str, Any] = {}
    start = time.time() - count
    for number in range(count):
        kind = unfinished if number % unfinished_every == 0 else finished
        chosen = kind[(number // unfinished_every) % len(kind)]
        session_id = new_session_id()
        folder.write(f"sessions/{session_id}.json", chosen.file)
        signature = folder.stat(f"sessions/{session_id}.json")
        assert signature is not None
        created = start + number
        entries[session_id] = {**chosen.entry, "created": created, "updated": max(created, signature[2] / 1e9)}
        made.append((session_id, chosen))
    index = by_key({}, entries)  # as this version writes it
    folder.write("index.json", storage.encode(index))
    return made

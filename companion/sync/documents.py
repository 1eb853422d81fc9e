"""What sync keeps, here and on the server: the documents of the database (a game as an
archive holds it with the table's choices about it; a rename; the marker), checked as an
import checks a game, and the state between rounds in the data folder's sync-state.json
(each document's revision and a fingerprint of the game here when it was last in step).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from companion.aftergame import archive, stats
from companion.store import SessionSummary, Store
from companion.store.file_format import encode, single, single_of
from companion.store.listing import SESSION_ID
from companion.store.session_file import is_time
from companion.store.store import TITLES
from companion.sync.couch import Couch
from companion.text.messages import Message, register

STATE = "sync-state.json"
STATE_FORMAT = "companion-sync-state"
DOC_FORMAT = 1
MARKER = "companion"
GAME, ALIAS = "game:", "alias:"
DELETED = "deleted"  # the fingerprint of a document deleted on both sides

register("en", {"sync.not_a_game": "The server's document {id} is not one of Companion's games."})


# --- the state kept between rounds ------------------------------------------------------


@dataclass
class State:
    server: str
    seq: Any = 0
    docs: dict[str, list[Any]] = field(default_factory=dict)  # doc id -> [revision, fingerprint | None | DELETED]
    again: list[str] = field(default_factory=list)  # documents to take again (a game that was open here)

    def encoded(self) -> bytes:
        state = {
            "format": STATE_FORMAT,
            "version": 1,
            "server": self.server,
            "seq": self.seq,
            "docs": self.docs,
            "again": self.again,
        }
        return encode(single("sync-state", "state", state))  # a TinyDB file: table "state", document 1


def read_state(store: Store, server: str) -> State:
    """The state of the last rounds with this server and database; a fresh one when there is
    none, it is damaged, or it is another server's (a round then compares every game)."""
    try:
        raw = store.folder.read(STATE)
        found = single_of(json.loads(raw), "state") if raw else None
    except (OSError, ValueError, RecursionError):
        found = None
    if not isinstance(found, dict) or found.get("format") != STATE_FORMAT or found.get("server") != server:
        return State(server)
    docs = found.get("docs")
    again = found.get("again")
    return State(
        server,
        found.get("seq", 0),
        {
            key: value
            for key, value in docs.items()
            if isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
        }
        if isinstance(docs, dict)
        else {},
        [doc_id for doc_id in again if isinstance(doc_id, str)] if isinstance(again, list) else [],
    )


def write_state(store: Store, state: State) -> None:
    store.folder.write(STATE, state.encoded())


def server_key(couch: Couch) -> str:
    return f"{couch.url}/{couch.database}"


# --- the games as documents ---------------------------------------------------------------


@dataclass
class Choices:
    """The table's choices here, read once a round."""

    counted: dict[str, bool]
    copies: dict[str, str]
    titled: dict[str, float]
    aliases: dict[str, str]

    @classmethod
    def read(cls, store: Store) -> Choices:
        return cls(
            stats.read_counted(store),
            archive.read_copies(store),
            store.side_files.read(TITLES),
            stats.read_aliases(store),
        )


def fingerprint(summary: SessionSummary, choices: Choices) -> str:
    """What changes when the game or a choice about it changes here (its file's time moves with every change)."""
    key = json.dumps(
        [
            round(summary.updated, 3),
            summary.title,
            choices.counted.get(summary.id),
            choices.copies.get(summary.id),
            choices.titled.get(summary.id),
        ]
    )
    return hashlib.sha1(key.encode()).hexdigest()[:20]


def game_doc(store: Store, summary: SessionSummary, choices: Choices) -> dict[str, Any]:
    entry = archive.stored_form(store, summary)
    entry["updated"] = round(entry["updated"], 3)
    return {
        "_id": GAME + summary.id,
        "kind": "game",
        "format": DOC_FORMAT,
        "game": entry,
        "counted": choices.counted.get(summary.id),
        "copy_of": choices.copies.get(summary.id),
        "titled": choices.titled.get(summary.id),
    }


def content(doc: dict[str, Any]) -> dict[str, Any]:
    """A document without the server's fields (to tell whether two say the same)."""
    return {key: value for key, value in doc.items() if not key.startswith("_")}


@dataclass
class Remote:
    """A game document of the server, checked as an import checks a game."""

    doc_id: str
    rev: str
    game: archive.Incoming
    counted: bool | None
    copy_of: str | None
    titled: float | None


def read_remote(doc: dict[str, Any]) -> Remote:
    """A server's game document, checked (archive.GameRefused, with the sentence, when it is not one)."""
    doc_id, rev = doc.get("_id"), doc.get("_rev")
    session_id = doc_id[len(GAME) :] if isinstance(doc_id, str) and doc_id.startswith(GAME) else ""
    if (
        not SESSION_ID.fullmatch(session_id)
        or not isinstance(rev, str)
        or doc.get("kind") != "game"
        or doc.get("format") != DOC_FORMAT
        or not isinstance(doc.get("game"), dict)
    ):
        raise archive.GameRefused(Message("sync.not_a_game", {"id": str(doc_id)[:80]}))
    counted, copy_of, titled = doc.get("counted"), doc.get("copy_of"), doc.get("titled")
    if (
        (counted is not None and type(counted) is not bool)
        or (copy_of is not None and not (isinstance(copy_of, str) and SESSION_ID.fullmatch(copy_of)))
        or (titled is not None and not is_time(titled))
    ):
        raise archive.GameRefused(Message("sync.not_a_game", {"id": str(doc_id)[:80]}))
    game = archive.read_game(doc["game"])
    if game.session_id != session_id:
        raise archive.GameRefused(Message("sync.not_a_game", {"id": str(doc_id)[:80]}))
    return Remote(str(doc_id), rev, game, counted, copy_of, None if titled is None else float(titled))

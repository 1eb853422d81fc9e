"""One session file, `sessions/<id>.json`: what it must hold to be read back as a game.

A file is *damaged* (`DamagedFile`: set aside in quarantine) when it does not hold exactly
one session the rules accept, and *newer* (`NewerFile`: left untouched) when it declares a
format this version does not know or a game it does not have.
"""

from __future__ import annotations

import math
from typing import Any

from companion.messages import RuleError
from companion.session import FORMAT_VERSION as SESSION_FORMAT
from companion.session import Session, UnknownGameError
from companion.store.errors import DamagedFile, NewerFile, StoreError

SESSIONS = "sessions"
MAX_TITLE = 60


def session_file(session_id: str) -> str:
    return f"{SESSIONS}/{session_id}.json"


def outcome(session: Session, state: Any = None) -> tuple[bool, tuple[str, ...]]:
    """(is the game over, who won) in the session's state, or in `state` when given."""
    game = session.game
    state = session.state if state is None else state
    if not game.is_over(state):
        return False, ()
    return True, tuple(standing.player for standing in game.standings(state) if standing.winner)


def check_title(title: Any) -> str:
    """A title as given by the player, spaces tidied; StoreError if it is not short text."""
    if not isinstance(title, str) or len(" ".join(title.split())) > MAX_TITLE:
        raise StoreError("store.bad_title", high=MAX_TITLE)
    return " ".join(title.split())


def loaded_title(title: Any) -> str:
    """A title read from disk, held to the same rule as a new one (cut to length, not refused)."""
    return " ".join(str(title).split())[:MAX_TITLE].rstrip()


def parse_session(data: dict[str, dict[str, Any]]) -> tuple[Session, float, str]:
    """(session, creation time, title) from a checked TinyDB document; DamagedFile or NewerFile."""
    tables = set(data) - {"_meta"}
    if tables != {"session"} or set(data["session"]) != {"1"}:
        raise DamagedFile("it does not hold exactly one session")
    doc = dict(data["session"]["1"])
    created = doc.pop("created", None)
    title = doc.pop("title", None)
    if isinstance(created, bool) or not isinstance(created, (int, float)) or not _finite(created):
        raise DamagedFile("its creation time is missing or invalid")
    if not isinstance(title, str):
        raise DamagedFile("its title is missing")
    version = doc.get("format")
    if isinstance(version, int) and not isinstance(version, bool) and version > SESSION_FORMAT:
        raise NewerFile(version, SESSION_FORMAT)
    try:
        session = Session.from_dict(doc)
    except UnknownGameError as error:  # a game added by a newer version: not damage
        raise NewerFile(version, SESSION_FORMAT, game=str(doc.get("game"))) from error
    except RuleError as error:
        raise DamagedFile(_detail(error)) from error
    except (TypeError, KeyError, AttributeError, IndexError, ValueError, ArithmeticError, RecursionError) as error:
        raise DamagedFile(str(error).rstrip(".") or type(error).__name__) from error
    return session, float(created), loaded_title(title)


def _finite(value: int | float) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        return False


def _detail(error: RuleError) -> str:
    """What the rules refused in a saved session, without their "cannot be read" preamble."""
    params = error.message.params
    if error.message.id == "session.bad_event":
        return f"event {params['number']} was refused ({params['reason']})"
    if error.message.id == "session.bad_data":
        return str(params["reason"])
    return str(error).rstrip(".")

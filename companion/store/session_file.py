"""One session file, `sessions/<id>.json`: what it must hold to be read back as a game.

A file is *damaged* (`DamagedFile`: set aside in quarantine) when it does not hold exactly
one session the rules accept, and *newer* (`NewerFile`: left untouched) when it declares a
format this version does not know or a game it does not have.
"""

from __future__ import annotations

from typing import Any

from companion.session import FORMAT_VERSION as SESSION_FORMAT
from companion.session import Session, UnknownGameError
from companion.store.errors import DamagedFile, NewerFile, StoreError
from companion.text.messages import LONE_SURROGATE, RuleError, has_lone_surrogate

SESSIONS = "sessions"
MAX_TITLE = 60
# The latest time a file may hold (3000-01-01 UTC): every platform's clock and calendar can
# show it (Windows' stops at the year 3000), and it is far past any real game.
LATEST_TIME = 32_503_680_000.0


def session_file(session_id: str) -> str:
    return f"{SESSIONS}/{session_id}.json"


def outcome(session: Session, state: Any = None) -> tuple[bool, tuple[str, ...]]:
    """(is the game over, who won) in the session's state, or in `state` when given."""
    game = session.game
    state = session.state if state is None else state
    if not game.is_over(state):
        return False, ()
    return True, tuple(standing.player for standing in game.standings(state) if standing.winner)


def is_time(value: Any) -> bool:
    """Whether a file may hold `value` as a time: seconds since 1970 up to `LATEST_TIME`; never
    a bool, NaN, an infinity or an integer too large for a clock."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return 0 <= value <= LATEST_TIME  # False for NaN; exact for any integer


def check_title(title: Any) -> str:
    """A title as given by the player, spaces tidied; StoreError if it is not short text."""
    if not isinstance(title, str) or len(" ".join(title.split())) > MAX_TITLE:
        raise StoreError("store.bad_title", high=MAX_TITLE)
    if has_lone_surrogate(title):
        raise StoreError("store.title_broken")
    return " ".join(title.split())


def loaded_title(title: Any) -> str:
    """A title read from disk, held to the same rule as a new one (cut to length, not refused;
    a lone surrogate, which no page could be sent, shown as the replacement character)."""
    return LONE_SURROGATE.sub("\ufffd", " ".join(str(title).split())[:MAX_TITLE].rstrip())


def parse_session(data: dict[str, dict[str, Any]]) -> tuple[Session, float, str]:
    """(session, creation time, title) from a checked TinyDB document; DamagedFile or NewerFile."""
    tables = set(data) - {"_meta"}
    if tables != {"session"} or set(data["session"]) != {"1"}:
        raise DamagedFile("it does not hold exactly one session")
    doc = dict(data["session"]["1"])
    created = doc.pop("created", None)
    title = doc.pop("title", None)
    if not is_time(created):
        raise DamagedFile("its creation time is missing or invalid")
    if not isinstance(title, str):
        raise DamagedFile("its title is missing")
    if has_lone_surrogate(title):  # as orjson refuses the whole file, so does the standard json module
        raise DamagedFile("its title holds a broken character (half of a UTF-16 pair)")
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


def _detail(error: RuleError) -> str:
    """What the rules refused in a saved session, without their "cannot be read" preamble."""
    params = error.message.params
    if error.message.id == "session.bad_event":
        return f"event {params['number']} was refused ({params['reason']})"
    if error.message.id == "session.bad_data":
        return str(params["reason"])
    return str(error).rstrip(".")

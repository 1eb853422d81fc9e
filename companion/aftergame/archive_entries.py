"""What a game of an archive must be: the document's shape, each game's fields checked and
replayed by the rules before anything is written, and the sentences that say why one is
refused (an import's, a restore's and a synced document's games are all read so: archive.py,
sync/engine.py). Also the table's choices an archive carries beside its games (`SIDE_KINDS`)
and the copies an import noted (`read_copies`).
"""

from __future__ import annotations

import contextlib
import json
import unicodedata
from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any, NamedTuple

from companion.aftergame import stats
from companion.rules import GAMES
from companion.rules.base import describe_value
from companion.session import CLOCK_FIELDS, Session, UnknownGameError
from companion.session import FORMATS as SESSION_FORMATS
from companion.store import Store, StoreError
from companion.store.errors import os_reason
from companion.store.file_format import holds_lone_surrogate
from companion.store.folders import Folder
from companion.store.listing import SESSION_ID
from companion.store.session_file import MAX_TITLE, is_time, loaded_title
from companion.store.side_file import SideKind
from companion.store.store import TITLES
from companion.text import messages
from companion.text.messages import Message, RuleError, quoted
from companion.text.numbers import fixed

FORMAT = "companion-archive"

VERSION = 1

MAX_IMPORT_BYTES = 50 * 2**20  # what the web server takes in one message (see app/web/serving.py)

# The deepest an archive goes: document, sessions, a session, its events, an event, a count
# per player, the count. Anything deeper is not an archive (and is refused before any replay).
MAX_DEPTH = 6

SESSION_ORDER = ("format", "game", "players", "options", "events", "cursor")  # as Session.to_dict gives them

SESSION_FIELDS = frozenset(SESSION_ORDER)

KEPT_FIELDS = frozenset({"id", "title", "created", "updated", "finished"})

COPIES = "copies.json"


COPIES_FILE = SideKind(
    COPIES,
    "copies",
    lambda key, value: isinstance(value, str) and SESSION_ID.fullmatch(key) is not None,
)

# The table's choices kept beside the games: an archive and a backup carry them (see the docstring).
SIDE_KINDS = (stats.ALIAS_FILE, stats.COUNTED_FILE, COPIES_FILE, TITLES)


messages.register(
    "en",
    {
        "archive.the_file": "the file",
        "archive.session_number": "session {number}",
        "archive.not_bytes": "It is not the content of a file.",
        "archive.too_big": "It is {size} MB; an archive may hold at most {limit} MB.",
        "archive.too_deep": "It is nested deeper than an archive is ({levels} levels).",
        "archive.not_json": "It is not a Companion archive: it is not readable JSON.",
        "archive.not_json_at": "It is not a Companion archive: it is not readable JSON (line {line}, column {column}).",
        "archive.id_twice": "It holds the game {game} twice (sessions {first} and {second}); "
        "a file holds each game once, so nothing was imported.",
        "archive.game": "{title} ({day}, {players})",
        "archive.game_undated": "{title} ({players})",
        "archive.game_day": "{title} ({day})",
        "archive.missing_fields": "It lacks fields every game has: {fields}.",
        "archive.session_format": "Its session format {format} is not supported.",
        "archive.events_not_list": "Its events are not a list.",
        "archive.bad_cursor": "Its undo position {cursor} is out of range (0 to {count}).",
        "archive.players_not_saved": "Its player names are not as a game saves them.",
        "archive.player_refused": "Its player {name} would be refused by New game: {reason}.",
        "archive.bad_event": "Its event {number} was refused: {reason}.",
        "archive.copy_title": "{title} (copy)",
        "archive.wrong_format": "It is not a Companion archive (its format is not 'companion-archive').",
        "archive.no_version": "Its version is missing or not a whole number.",
        "archive.newer": "It was written by a newer version of Companion (archive version {version}); "
        "this version reads version {known}.",
        "archive.no_sessions": "It holds no list of sessions.",
        "archive.not_fields": "It is not a set of named fields.",
        "archive.unknown_fields": "It has fields an archive does not have: {fields}.",
        "archive.broken_text": "It holds a broken character (half of a pair) that no file can keep.",
        "archive.no_id": "Its id is missing or not a session id.",
        "archive.title_not_text": "Its title is not text.",
        "archive.no_created": "Its creation time is missing.",
        "archive.bad_created": "Its creation time is not a time.",
        "archive.bad_updated": "The time of its last change is not a time.",
        "archive.bad_finished": "Its finishing time is not a time.",
        "archive.unknown_game": "Its game is not one this version knows: {reason}.",
        "archive.not_a_backup": "It is not the name of a backup.",
        "archive.not_exported": "The export could not be saved: {reason}.",
        "archive.bad_export_name": "'{name}' is not a plain file name.",
        "archive.not_backed_up": "Today's backup could not be saved: {reason}.",
        "archive.backup_unreadable": "The backup could not be read: {reason}.",
        "archive.not_imported": "It could not be saved: {reason}.",
        "archive.not_restored": "It could not be brought back: {reason}.",
        "archive.no_backup": "There is no such backup.",
    },
)


class Refusal(NamedTuple):
    """What was refused and why: in English (`session`, `reason`, `str()`) and as messages to say in any language."""

    session: str  # the session's id, or "session 3" / "the file" when it has none
    reason: str  # a sentence
    why: Message  # the reason
    named: Message | None = None  # the game in words (title, day, players), or "session 3" / "the file"

    def __str__(self) -> str:
        return f"{self.session}: {self.reason}"

    @classmethod
    def of(cls, session: str | Message, why: Message, named: Message | None = None) -> Refusal:
        if isinstance(session, Message):
            return cls(session.text(), why.text(), why, named or session)
        return cls(session, why.text(), why, named)

    def reason_text(self, language: str) -> str:
        return self.why.text(language)


class _Refused(Exception):
    def __init__(self, message_id: str | Message, **params: Any) -> None:
        self.message = message_id if isinstance(message_id, Message) else Message(message_id, params)
        super().__init__(str(self.message))


THE_FILE = Message("archive.the_file")


class _Incoming(NamedTuple):
    session: Session
    session_id: str
    title: str
    created: float
    updated: float | None

    def named(self) -> Message:
        return game_named(self.session.game.id, self.title, self.created, self.session.players)


class GameRefused(Exception):
    """A game another device sent (an archive's entry, a synced document's) that is not taken: `message` says why."""

    def __init__(self, message: Message) -> None:
        self.message = message
        super().__init__(message.text())


Incoming = _Incoming


def read_game(entry: Any) -> Incoming:
    """A game as an archive holds it, checked as an import checks it (replayed by the rules);
    GameRefused with the reason otherwise."""
    try:
        return _read_entry(entry)
    except _Refused as refusal:
        raise GameRefused(refusal.message) from None


def relation(ours: Session, theirs: Session) -> str:
    """How another device's game stands to ours: "same", "behind" (theirs extends ours), "ahead" or "apart"."""
    return _relation(ours.to_dict(), theirs.to_dict())


def _relation(ours: dict[str, Any], theirs: dict[str, Any]) -> str:
    """How the file's game stands to ours: "same" (as far as either was played), "behind" (ours is
    behind: the file's log extends ours), "ahead" (ours extends the file's) or "apart"."""
    if ours == theirs:
        return "same"
    if any(ours[name] != theirs[name] for name in ("game", "players", "options")):
        return "apart"
    played, theirs_played = ours["events"][: ours["cursor"]], theirs["events"][: theirs["cursor"]]
    if played == theirs_played:
        return "same"  # only what was undone (or the title) differs
    if theirs_played[: len(played)] == played:
        return "behind"
    if played[: len(theirs_played)] == theirs_played:
        return "ahead"
    return "apart"


def copy_title(item: _Incoming, language: str) -> str:
    """The title a copy is saved under: its own (or its game's) marked as a copy, within a title's length."""
    game = item.session.game
    base = item.title or f"{game.home_title} · {messages.join_names(list(item.session.players), language)}"
    for length in range(len(base), -1, -1):
        title = Message("archive.copy_title", {"title": base[:length].rstrip()}).text(language)
        if len(" ".join(title.split())) <= MAX_TITLE:
            return title
    return ""


def _archive_document(data: bytes) -> dict[str, Any]:
    """The archive's document, its "sessions" a list; _Refused otherwise."""
    if not isinstance(data, (bytes, bytearray)):
        raise _Refused("archive.not_bytes")
    if len(data) > MAX_IMPORT_BYTES:
        raise _Refused(too_big(len(data)))
    try:
        # The standard parser: it tells nesting too deep for it apart from broken JSON (orjson does not).
        document = json.loads(bytes(data))
    except RecursionError:
        raise _Refused("archive.too_deep", levels=MAX_DEPTH) from None
    except json.JSONDecodeError as error:  # where it breaks, in numbers: the parser's own words are English
        raise _Refused("archive.not_json_at", line=error.lineno, column=error.colno) from None
    except ValueError:  # bad UTF-8
        raise _Refused("archive.not_json") from None
    if _depth_exceeds(document, MAX_DEPTH):
        raise _Refused("archive.too_deep", levels=MAX_DEPTH)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _Refused("archive.wrong_format")
    version = document.get("version")
    if type(version) is not int or version < 1:
        raise _Refused("archive.no_version")
    if version > VERSION:
        raise _Refused("archive.newer", version=version, known=VERSION)
    if not isinstance(document.get("sessions"), list):
        raise _Refused("archive.no_sessions")
    return document


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether anything sits deeper than `limit` (the document is 0), walking one level at a time."""
    level = [value] if type(value) in (list, dict) else []
    for _ in range(limit):
        level = [
            inner
            for item in level
            for inner in (item if type(item) is list else item.values())
            if type(inner) in (list, dict)
        ]
        if not level:
            return False
    return any(level)  # a container at the limit holds something beyond it


def too_big(size: int) -> Message:
    """Why a file of `size` bytes is refused: its size and the limit, in MB."""
    return Message("archive.too_big", {"size": megabytes(size), "limit": megabytes(MAX_IMPORT_BYTES)})


def megabytes(size: int) -> str:
    """A size as the refusals say it: 20.0, 50 (MB of 2**20 bytes)."""
    shown = fixed(size / 2**20, 1)
    return shown[:-2] if shown.endswith(".0") and size % 2**20 == 0 else shown


def _check_ids_once(entries: list[Any]) -> None:
    """A file holding one game twice cannot say which is the game: the whole file is refused."""
    first_seen: dict[str, int] = {}
    for number, entry in enumerate(entries, start=1):
        session_id = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
            continue
        if session_id in first_seen:
            raise _Refused(
                "archive.id_twice",
                game=_entry_named(entries[first_seen[session_id] - 1]) or session_id,
                first=first_seen[session_id],
                second=number,
            )
        first_seen[session_id] = number


def _label(entry: Any, number: int) -> str | Message:
    session_id = entry.get("id") if isinstance(entry, dict) else None
    if isinstance(session_id, str) and SESSION_ID.fullmatch(session_id):
        return session_id
    return Message("archive.session_number", {"number": number})


def game_named(game_id: str, title: str, created: float | None, players: Iterable[str]) -> Message:
    """A game as a report names it: "Friday (2026-11-29, Ann, Bob and Cy)"; the game's title when it has none."""
    game = GAMES.get(game_id)
    shown = title or (game.home_title if game is not None else quoted(game_id))
    names = [quoted(name) for name in players]
    day = None if created is None else date.fromtimestamp(created).isoformat()
    if day is None:
        return (
            Message("archive.game_undated", {"title": shown, "players": names})
            if names
            else Message("label.named", {"name": shown})
        )
    if not names:
        return Message("archive.game_day", {"title": shown, "day": day})
    return Message("archive.game", {"title": shown, "day": day, "players": names})


def _entry_named(entry: Any) -> Message | None:
    """What can be read of a refused entry's title, day and players, in words; None when nothing can."""
    if not isinstance(entry, dict):
        return None
    title = entry.get("title")
    title = loaded_title(title) if isinstance(title, str) and not holds_lone_surrogate(title) else ""
    created = entry.get("created")
    players = entry.get("players")
    players = (
        [" ".join(player.split()) for player in players if isinstance(player, str)][:6]
        if isinstance(players, list)
        else []
    )
    game = entry.get("game")
    if not (title or players) or holds_lone_surrogate(players):
        return None
    when = float(created) if isinstance(created, (int, float)) and is_time(created) else None
    return game_named(game if isinstance(game, str) else "", title, when, players)


def _read_entry(entry: Any, suspect: bool = True) -> _Incoming:
    """The session an archive entry holds, replayed by the rules; _Refused with the reason otherwise.

    `suspect`: the archive's text may hold a lone surrogate (else that look is spared)."""
    if not isinstance(entry, dict):
        raise _Refused("archive.not_fields")
    unknown = sorted(map(str, set(entry) - SESSION_FIELDS - set(CLOCK_FIELDS) - KEPT_FIELDS))
    if unknown:
        raise _Refused("archive.unknown_fields", fields=quoted(", ".join(unknown)))
    if suspect and holds_lone_surrogate(entry):
        raise _Refused("archive.broken_text")
    session_id = entry.get("id")
    if not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id):
        raise _Refused("archive.no_id")
    title = entry.get("title", "")
    if not isinstance(title, str):
        raise _Refused("archive.title_not_text")
    created = _time(entry.get("created"), "archive.bad_created")
    if created is None:
        raise _Refused("archive.no_created")
    updated = _time(entry.get("updated"), "archive.bad_updated")
    _time(entry.get("finished"), "archive.bad_finished")
    _check_session_fields(entry)
    try:
        session = Session.from_dict(
            {
                **{name: entry.get(name) for name in SESSION_FIELDS},
                **{name: entry[name] for name in CLOCK_FIELDS if name in entry},
            }
        )
    except UnknownGameError as error:
        raise _Refused("archive.unknown_game", reason=error.message) from None
    except RuleError as error:
        raise _Refused(_rules_words(error)) from None
    return _Incoming(session, session_id, loaded_title(title), created, updated)


def _check_session_fields(entry: dict[str, Any]) -> None:
    """What `Session.from_dict` checks of a saved game's shape, said here in the table's language
    (its own sentences are for the data folder, in English)."""
    missing = [name for name in SESSION_ORDER if name not in entry]
    if missing:
        raise _Refused("archive.missing_fields", fields=quoted(", ".join(missing)))
    version = entry["format"]
    if type(version) is not int or version not in SESSION_FORMATS:
        raise _Refused("archive.session_format", format=describe_value(version))
    events, cursor = entry["events"], entry["cursor"]
    if not isinstance(events, list):
        raise _Refused("archive.events_not_list")
    if type(cursor) is not int or not 0 <= cursor <= len(events):
        raise _Refused("archive.bad_cursor", cursor=describe_value(cursor), count=len(events))
    game, players = GAMES.get(entry["game"]) if isinstance(entry["game"], str) else None, entry["players"]
    if game is not None and isinstance(players, list):  # an unknown game is said by `Session.from_dict`
        try:
            checked = game.check_saved_players(players)
        except RuleError as error:
            raise _Refused(error.message) from None
        if list(checked) != players:
            raise _Refused("archive.players_not_saved")
        _check_new_game_names(game, players)


def _check_new_game_names(game: Any, players: list[str]) -> None:
    """The names New game would take (`check_players`), each said by name when it is not."""
    for name in players:
        try:
            game.check_player_name(name)
        except RuleError as error:
            raise _Refused("archive.player_refused", name=quoted(shown_name(name)), reason=error.message) from None
    try:
        game.check_players(players)
    except RuleError as error:  # two names New game takes for the same one
        twin = str(error.message.params.get("name", ""))
        raise _Refused("archive.player_refused", name=quoted(shown_name(twin)), reason=error.message) from None


def shown_name(name: str) -> str:
    """A name with its invisible characters shown as their codes, so a sentence can point at them."""
    return "".join(
        f"<U+{ord(character):04X}>" if unicodedata.category(character) in ("Cc", "Cf") else character
        for character in name
    )


def _rules_words(error: RuleError) -> Message:
    """The rules' refusal of a saved event as a sentence of its own language (the replay's words are English)."""
    cause = error.__cause__
    if error.message.id == "session.bad_event" and isinstance(cause, RuleError):
        return Message("archive.bad_event", {"number": error.message.params.get("number"), "reason": cause.message})
    return error.message


def _time(value: Any, not_a_time: str) -> float | None:
    if value is None:
        return None
    if not is_time(value):  # checked before any clock or calendar sees it: 10**400 is no time
        raise _Refused(not_a_time)
    return float(value)


def read_copies(source: Store | Folder) -> dict[str, str]:
    """The copies an import added: {copy id: the id of the game it is a copy of}; {} when none or unreadable.

    Statistics leave the copies out (the game is counted once, as ours); Home lists them,
    their title saying they are a copy. A damaged file reads what it can and is told (stats.py)."""
    return stats.side_files(source).read(COPIES_FILE)


@contextlib.contextmanager
def _speaking(store: Store, message_id: str) -> Iterator[None]:
    """Turn an OSError into StoreError(message_id) saying in words what the disk refused."""
    try:
        yield
    except OSError as error:
        raise StoreError(message_id, reason=os_reason(error, store.directory)) from error

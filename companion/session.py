"""A session: one game being followed, as an event log with an undo cursor.

The log is the truth: the state is always what replaying the applied events gives.
Undo and redo move the cursor; a new event drops the redo tail. A journal (the store)
is told about every change *before* it takes effect in memory, so a change that cannot
be saved is not made at all.

Saved sessions carry a format number. Format 1 (the first version) had looser rules: a
Heartland turn could end with no action, Great Plains ended at its 40th token and took
zones at any time. A format-1 log is replayed under those rules: on loading, each of its
events is marked `"rules": 1`, the game modules honour the mark, and the session is
saved again as format 2 with the marks in place, so it reads exactly as it did.

Format 3 adds the table clock (companion/clock.py): `clock`, the marks saying when the game
started, ran, was paused and ended, and `last`, the time of its last change. They sit
beside the events, outside the undo cursor: undo takes back the last game act, never a
pause or the time that went by. A game act on a paused clock runs it again (the table is
playing); an undo or a redo leaves it paused (a table fixing the log over pizza is not
playing). A change that ends the game stops the clock; an undo that reopens it runs it
again. `clock` is null for a game saved by an earlier version and never opened for play
since: its times are those its listing kept (see store/listing.py).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar, overload

from companion import clock
from companion.rules import GAMES
from companion.rules.base import MAX_ITEMS, RULES, Game, Standing, check_depth, describe_value
from companion.session_states import CHECKPOINT_EVERY, KeptStates
from companion.text.messages import Message, RuleError, quoted

# The newest session format this version writes and reads; it reads every older one too.
FORMAT_VERSION = 3
FORMATS = (1, 2, 3)
SAVED_FIELDS = ("format", "game", "players", "options", "events", "cursor")
CLOCK_FIELDS = ("clock", "last")  # format 3 on
CLOCK_EVENT = "clock"  # {"type": "clock", "mark": "pause" | "resume" | ...}: see `Session.apply`


class Times(NamedTuple):
    """The clock's marks (a list never changed in place: a new mark makes a new list holding the
    same items) and the time of the last change; `marks` None: kept by no version before 3."""

    marks: list[dict[str, Any]] | None
    last: float | None


NO_TIMES = Times(None, None)  # a game saved before clocks were kept


class LogChange(NamedTuple):
    """What a change does to the log, for the journal: of the session's log as it is (`before`,
    the session's own list: read it, never keep or change it) the first `kept` events stay and
    `added` follow them. Undo, redo and a clock mark keep it all and add nothing; a game act
    adds one event at the cursor (dropping the redo tail). A journal may save only that."""

    before: list[dict[str, Any]]
    kept: int
    added: tuple[dict[str, Any], ...] = ()

    def whole(self) -> list[dict[str, Any]]:
        """The log as the change leaves it: a new list (the very same events)."""
        return [*self.before[: self.kept], *self.added]


# journal(session, change, cursor, state, times): what the change does to the log, the undo
# cursor, the state they give and the clock.
Journal = Callable[["Session", LogChange, int, Any, Times], None]


class UnknownGameError(RuleError):
    """The game is not one this version knows (perhaps a newer version's): not damage."""


def find_game(game_id: Any) -> Game[Any]:
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise UnknownGameError("game.unknown", game=describe_value(game_id), allowed=", ".join(GAMES))
    return GAMES[game_id]


__all__ = ["CHECKPOINT_EVERY"]  # how much a session keeps: session_states.py


def replay(
    game: Game[Any], players: tuple[str, ...], options: dict[str, Any], events: list[Any]
) -> tuple[list[Any], list[Message], list[dict[str, Any]]]:
    """Checkpoints (the states after 0, 64, 128, ... saved events), the log sentences and the cleaned events.

    Raises on the first refusal: every event is replayed, the redo tail included.
    """
    state = game.setup(players, options)
    checkpoints = [state]
    sentences: list[Message] = []
    cleaned: list[dict[str, Any]] = []
    for number, event in enumerate(events, start=1):
        try:
            state, sentence, clean = game.apply_event(state, players, event, saved=True)
        except RuleError as error:
            raise RuleError("session.bad_event", number=number, reason=str(error).rstrip(".")) from error
        if number % CHECKPOINT_EVERY == 0:
            checkpoints.append(state)
        sentences.append(sentence)
        cleaned.append(clean)
    return checkpoints, sentences, cleaned


T = TypeVar("T")


class Prefix(Sequence[T]):
    """The first `length` items of a list whose first items never change (it may grow): a snapshot without a copy."""

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[T], length: int) -> None:
        self._items = items
        self._length = length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return self._items[: self._length][index]
        position = index + self._length if index < 0 else index
        if not 0 <= position < self._length:
            raise IndexError("no such line in the log")
        return self._items[position]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Sequence)
            and len(other) == self._length
            and all(mine == theirs for mine, theirs in zip(self, other, strict=False))
        )

    def __repr__(self) -> str:
        return repr(self._items[: self._length])


class States(Sequence[Any]):
    """The states after 0, 1, ... `cursor` applied events of a session, worked out as they are
    read: going through them in order replays each event once (see `Session.state_at`)."""

    __slots__ = ("_session",)

    def __init__(self, session: Session) -> None:
        self._session = session

    def __len__(self) -> int:
        return self._session.cursor + 1

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[position] for position in range(len(self))[index]]
        position = index + len(self) if index < 0 else index
        if not 0 <= position < len(self):
            raise IndexError("no such state in the session")
        return self._session.state_at(position)

    def __iter__(self) -> Iterator[Any]:
        session = self._session
        for block in range(session.cursor // CHECKPOINT_EVERY + 1):
            yield from session._kept.block(
                block, min(block * CHECKPOINT_EVERY + CHECKPOINT_EVERY - 1, session.cursor), session._log
            )


class StaleError(RuleError):
    """A change asked for on a screen drawn before the game last changed (another tab, another device)."""

    def __init__(self) -> None:
        super().__init__("session.stale")


class Session:
    """A game's log and undo cursor.

    `version` counts the changes made through this object; a screen remembers the version
    it was drawn from and passes it as `at=` so a tap on a stale screen records nothing.
    """

    def __init__(
        self,
        game: Game[Any],
        players: tuple[str, ...],
        options: dict[str, Any],
        log: list[Any] | None = None,
        cursor: int | None = None,
        times: Times = NO_TIMES,
    ) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.id: str | None = None
        self.journal: Journal | None = None
        checkpoints, self._sentences, self._log = replay(game, players, options, list(log or []))
        self._kept = KeptStates(game, players, checkpoints)  # checkpoints and recent states: session_states.py
        self._cursor = len(self._log) if cursor is None else cursor
        self._state = self._state_at(self._cursor)
        self._version = 0
        # One change at a time. Flet 1.0.5 runs every page's handlers on one event loop, but
        # nothing in a session says it is only called from there (a worker thread, another
        # Flet): a second change at once must find the version the first made (stale), not a
        # log half grown.
        self._changing = threading.RLock()
        self._times = times
        # Marks known but not saved yet: a screen opened the game (`open`, `taken`). They are
        # saved with its next change, so opening a game to look at it writes nothing.
        self._pending: list[dict[str, Any]] = []

    @classmethod
    def new(cls, game_id: str, players: Any, options: Mapping[str, Any] | None = None) -> Session:
        """A game set up now: its clock starts (and runs once a screen opens it, see `apply`)."""
        game = find_game(game_id)
        names = game.check_players(players)
        started = clock.now()
        return cls(
            game,
            names,
            game.check_options(names, {} if options is None else options),
            times=Times([clock.mark("start", started)], started),
        )

    @classmethod
    def from_dict(cls, data: Any) -> Session:
        """A session saved by `to_dict` in any format this version reads (see FORMATS)."""
        if not isinstance(data, Mapping):
            raise RuleError("session.bad_data", reason="it is not a set of named fields")
        _check_saved_depth(data)
        expected = set(SAVED_FIELDS)
        version = data.get("format")
        if type(version) is int and version >= 3:
            expected |= set(CLOCK_FIELDS)
        elif type(version) is not int:  # no format this version can name: the check below says so
            expected |= set(CLOCK_FIELDS) & set(data)
        if set(data) != expected:
            missing = sorted(expected - set(data)) or sorted(map(str, set(data) - expected))
            fields = quoted(", ".join(map(str, missing)))
            raise RuleError("session.bad_data", reason=f"unexpected or missing fields {fields}")
        version = data["format"]
        if type(version) is not int or version not in FORMATS:
            raise RuleError("session.bad_data", reason=f"format {describe_value(version)} is not supported")
        game = find_game(data["game"])
        # Names are checked as the first version did, so a game saved under a name today's
        # rule refuses still opens.
        players = game.check_saved_players(data["players"])
        if list(players) != list(data["players"]):
            raise RuleError("session.bad_data", reason="the player names are not in their saved form")
        options = game.check_options(players, data["options"])
        events, cursor = data["events"], data["cursor"]
        if not isinstance(events, list):
            raise RuleError("session.bad_data", reason="the events are not a list")
        if version == 1:
            events = [_recorded_under_first_rules(event) for event in events]
        if isinstance(cursor, bool) or not isinstance(cursor, int) or not 0 <= cursor <= len(events):
            raise RuleError("session.bad_data", reason=f"the undo position {describe_value(cursor)} is out of range")
        times = NO_TIMES
        if version >= 3:
            marks = data["clock"]
            times = Times(None if marks is None else clock.check_marks(marks), clock.check_last(data["last"]))
        return cls(game, players, options, events, cursor, times)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": self.game.id,
            "players": list(self.players),
            "options": copy.deepcopy(self.options),
            "events": copy.deepcopy(self._log),
            "cursor": self._cursor,
            "clock": copy.deepcopy(self._times.marks),
            "last": self._times.last,
        }

    # --- the table clock (see companion/clock.py) --------------------------------------------

    @property
    def times(self) -> Times:
        """The clock as saved: its marks (do not change them) and the time of the last change."""
        return self._times

    @property
    def clock(self) -> clock.Reading:
        """When the game started, how long it has been played, whether its clock runs or is paused."""
        return clock.read(self._marks() or ())

    def played(self, moment: float | None = None) -> float | None:
        """Seconds of play up to `moment` (now by default), pauses left out; None when no clock was kept."""
        if self._marks() is None:
            return None
        return self.clock.played_at(clock.now() if moment is None else moment)

    def _marks(self) -> list[dict[str, Any]] | None:
        """The marks saved, then those to be saved with the next change (None: no clock at all)."""
        saved = self._times.marks
        if not self._pending:
            return saved
        return (saved or []) + self._pending

    @property
    def state(self) -> Any:
        return self._state

    def state_at(self, cursor: int) -> Any:
        """The state after the first `cursor` applied events (0 is the set-up).

        Replayed from the checkpoint before it (at most 63 events) unless its block of
        states is among the few kept: reading the log in order replays each event once.
        """
        if not 0 <= cursor <= self._cursor:
            raise IndexError(f"no state after {cursor} of {self._cursor} events")
        return self._state_at(cursor)

    def state_fact(self, fact: Callable[[Any], T], cursor: int) -> T:
        """`fact(self.state_at(cursor))`, kept: for what a log line shows of the state before it (its round).

        Reading the whole log that way replayed it block by block each time, as only one
        block of states is kept; the values are kept instead, one per event (what that buys:
        session_states.py). Pass the same function each time (a module-level one, not a new
        lambda): it names the values.
        """
        if not 0 <= cursor <= self._cursor:
            raise IndexError(f"no state after {cursor} of {self._cursor} events")
        return self._kept.fact(fact, cursor, self._log)

    def _state_at(self, number: int) -> Any:
        """The state after `number` events of the log (the redo tail included)."""
        return self._kept.at(number, self._log)

    @property
    def states(self) -> States:
        """The state after each applied event, the set-up first (for a chart of the whole game)."""
        return States(self)

    @property
    def events(self) -> list[dict[str, Any]]:
        """A copy of the applied events (all of them: prefer `last_event` to look one up)."""
        return copy.deepcopy(self._log[: self._cursor])

    def last_event(self, where: Callable[[Mapping[str, Any]], bool]) -> dict[str, Any] | None:
        """A copy of the newest applied event for which `where(event)` is true, else None."""
        for number in range(self._cursor - 1, -1, -1):
            if where(self._log[number]):
                return copy.deepcopy(self._log[number])
        return None

    @property
    def sentences(self) -> Sequence[Message]:
        """The log sentence of each applied event, oldest first (a snapshot; nothing is copied)."""
        return Prefix(self._sentences, self._cursor)

    def sentence(self, number: int) -> Message:
        """The log sentence of the `number`-th applied event (1 is the first)."""
        if not 1 <= number <= self._cursor:
            raise IndexError(f"no event {number} of {self._cursor}")
        return self._sentences[number - 1]

    @property
    def cursor(self) -> int:
        return self._cursor

    @property
    def version(self) -> int:
        """How many changes (apply, undo, redo) this session object has made; starts at 0."""
        return self._version

    def _require_version(self, at: int | None) -> None:
        if at is not None and at != self._version:
            raise StaleError()

    @property
    def can_undo(self) -> bool:
        return self._cursor > 0

    @property
    def can_redo(self) -> bool:
        return self._cursor < len(self._log)

    @property
    def logged(self) -> int:
        """How many events the log holds, undone ones included (the store's index keeps it)."""
        return len(self._log)

    @property
    def undo_sentence(self) -> Message | None:
        return self._sentences[self._cursor - 1] if self.can_undo else None

    @property
    def redo_sentence(self) -> Message | None:
        return self._sentences[self._cursor] if self.can_redo else None

    @property
    def is_over(self) -> bool:
        """True once the game has ended by its rules, been confirmed scored, or been stopped."""
        return bool(self.game.is_over(self.state))

    @property
    def stopped_note(self) -> str | None:
        """Why the table stopped the game (`end_game`), or None when it was not stopped."""
        return self.game.stopped_note(self.state)

    @property
    def current_player(self) -> str | None:
        return self.game.current_player(self.state)

    def standings(self) -> list[Standing]:
        return self.game.standings(self.state)

    def check(self, event: Any) -> Message:
        """The sentence the event would log, or RuleError (see `RuleError.overridable`); changes nothing."""
        return self.game.apply_event(self.state, self.players, event)[1]

    def apply(self, event: Any, *, at: int | None = None) -> Message:
        """Record `event` and return its log sentence, or raise RuleError and change nothing.

        Any event may carry `"override": True` to record what the table decided against a
        rule that is its call; a refusal says so with `RuleError.overridable`.
        """
        with self._changing:
            self._require_version(at)
            if isinstance(event, Mapping) and event.get("type") == CLOCK_EVENT:
                return self._apply_clock(event)
            return self._apply(event)

    def _apply(self, event: Any) -> Message:
        state, sentence, clean = self.game.apply_event(self.state, self.players, event)
        moment = clock.now()
        marks = self._marks_after(state, moment, resume=True)
        change = LogChange(self._log, self._cursor, (clean,))
        self._save(change, self._cursor + 1, state, Times(marks, moment))
        self._times, self._pending = Times(marks, moment), []
        if self._cursor == len(self._log):
            # The log only grows: in place, so a change costs the same at 10,000 events as at 50
            # (a `Prefix` of it still shows what it showed).
            self._log.append(clean)
            self._sentences.append(sentence)
        else:  # the redo tail goes: new lists, as a `Prefix` of the old ones may be on a screen
            self._log = change.whole()
            self._sentences = [*self._sentences[: self._cursor], sentence]
        self._cursor += 1
        self._kept.keep(self._cursor, state, self._log)
        self._state = state
        self._version += 1
        return sentence

    def undo(self, *, at: int | None = None) -> Message:
        with self._changing:
            return self._undo(at)

    def _undo(self, at: int | None) -> Message:
        self._require_version(at)
        if not self.can_undo:
            raise RuleError("session.nothing_to_undo")
        state = self._state_at(self._cursor - 1)
        times = self._times_after(state)
        self._save(LogChange(self._log, len(self._log)), self._cursor - 1, state, times)
        self._times, self._pending = times, []
        self._cursor -= 1
        self._state = state
        self._version += 1
        return self._sentences[self._cursor]

    def redo(self, *, at: int | None = None) -> Message:
        with self._changing:
            return self._redo(at)

    def _redo(self, at: int | None) -> Message:
        self._require_version(at)
        if not self.can_redo:
            raise RuleError("session.nothing_to_redo")
        state = self._state_at(self._cursor + 1)
        times = self._times_after(state)
        self._save(LogChange(self._log, len(self._log)), self._cursor + 1, state, times)
        self._times, self._pending = times, []
        self._cursor += 1
        self._state = state
        self._version += 1
        return self._sentences[self._cursor - 1]

    def _save(self, change: LogChange, cursor: int, state: Any, times: Times) -> None:
        if self.journal is not None:
            self.journal(self, change, cursor, state, times)

    def _times_after(self, state: Any) -> Times:
        moment = clock.now()
        return Times(self._marks_after(state, moment, resume=False), moment)

    def _marks_after(self, state: Any, moment: float, *, resume: bool) -> list[dict[str, Any]] | None:
        """The marks once the game reaches `state` at `moment`: `end` when it ends, `reopen` when
        an undo takes the end back, and (`resume`: a game act) `resume` on a paused clock first."""
        marks = self._marks()
        if marks is None:
            return None
        added = []
        was_over, is_over = bool(self.game.is_over(self.state)), bool(self.game.is_over(state))
        if resume and not was_over and self.clock.paused:
            added.append(clock.mark("resume", moment))
        if is_over != was_over:
            added.append(clock.mark("end" if is_over else "reopen", moment))
        return marks + added if added else marks

    def _apply_clock(self, event: Mapping[str, Any]) -> Message:
        """A clock mark asked for through `apply`: the table's pause and resume (saved at once), and
        what a screen opening the game says (`open`, and `taken` for a game saved before clocks
        were kept), saved with the next change (see companion/clock.py). `close` ends a run and
        is saved at once; the store never asks for it: a run that ended unsaid (the game left, the
        app closed or killed) ends at its last saved change when the game is opened again."""
        kind = event.get("mark")
        if set(event) - {"type", "mark", "since", "at"} or kind not in clock.KINDS:
            raise RuleError("clock.not_asked", mark=describe_value(kind))
        moment = clock.now()
        marks = list(self._marks() or [])
        reading = clock.read(marks)
        over = bool(self.game.is_over(self.state))
        if kind == "taken":
            since: Any = event.get("since")
            last: Any = event.get("at")
            if self._marks() is not None or not (clock.is_time(since) and clock.is_time(last)):
                raise RuleError("clock.not_asked", mark=describe_value(kind))
            self._pending = clock.taken(float(since), float(last), over=over)
            return Message("clock.log.open")
        if kind in ("pause", "resume"):
            if over:
                raise RuleError("clock.over")
            if reading.paused == (kind == "pause"):
                raise RuleError("clock.already_paused" if kind == "pause" else "clock.not_paused")
            added = [clock.mark(kind, moment)]
        elif kind == "open":
            if not (over or reading.paused):
                last = self._times.last if self._times.last is not None else moment
                ended = [] if reading.running_since is None else [clock.mark("close", max(last, reading.running_since))]
                self._pending += [*ended, clock.mark("open", moment)]
            return Message("clock.log.open")
        elif kind == "close":
            added = [clock.mark("close", moment)] if reading.running_since is not None else []
        else:
            raise RuleError("clock.not_asked", mark=describe_value(kind))
        if added:
            times = Times(marks + added, moment)
            self._save(LogChange(self._log, len(self._log)), self._cursor, self.state, times)
            self._times, self._pending = times, []
            self._version += 1
        return Message(_CLOCK_SENTENCES.get(kind, "clock.log.open"))


_CLOCK_SENTENCES = {"pause": "clock.log.pause", "resume": "clock.log.resume", "close": "clock.log.close"}


FLAT = frozenset({str, int, float, bool, type(None)})


def _check_saved_depth(data: Mapping[str, Any]) -> None:
    """What `check_depth(data, "saved session")` refuses, without walking the flat events one item at a time.

    Nearly every event is one level of plain values: those are only counted against the
    size limit; any other is walked where it sits. Opening a long game costs half as much.
    """
    events = data.get("events")
    if not isinstance(events, list):
        check_depth(data, "saved session")
        return
    nested, flat_items = [], 0
    for event in events:
        if type(event) is dict and all(map(FLAT.__contains__, map(type, event.values()))):
            flat_items += 1 + 2 * len(event)
        else:
            nested.append(event)
    check_depth({**data, "events": nested}, "saved session")
    if flat_items > MAX_ITEMS:
        raise RuleError("data.too_big", what="saved session")


def _recorded_under_first_rules(event: Any) -> Any:
    return {**event, RULES: 1} if isinstance(event, Mapping) and RULES not in event else event

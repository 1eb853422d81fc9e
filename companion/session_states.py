"""The states an open session keeps, so that the log need not be replayed from the start.

A session keeps the state after every `CHECKPOINT_EVERY`-th event (the checkpoints: what
opening a long game costs is one replay), and works out any other state from the
checkpoint before it. On top, it keeps the block of 64 states last worked out, and the
values of one fact worked out of states (`fact`: the round a log line was played in, one
value per event), which make "show the whole log" again 21 ms instead of 45 ms at 1,000
events and 40 ms instead of 130 ms at 2,000 (goal: <= 50 ms).

Keeping four blocks and four kinds of fact, as this did before, bought nothing a goal sees
(tests/bench/README.md: "show whole log" at 2,000 and 10,000 events the same within noise;
only one kind of fact is ever asked for), so one of each is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from companion.rules.base import Game

CHECKPOINT_EVERY = 64  # an open session keeps the state after every 64th event and replays the rest
_UNKNOWN = object()  # a fact not worked out yet

T = TypeVar("T")


class KeptStates:
    """The checkpoints of a session's log, its last block of states and the fact kept of them.

    `log` is the session's whole log (the redo tail included) as it is when asked; it grows in
    place, so it is read when given, never kept."""

    def __init__(self, game: Game[Any], players: tuple[str, ...], checkpoints: list[Any]) -> None:
        self.game = game
        self.players = players
        self.checkpoints = checkpoints  # the states after 0, 64, 128, ... events
        self.blocks: dict[int, list[Any]] = {}  # at most one: block k, the states after 64k .. 64k+63 events
        self.facts: dict[Callable[[Any], Any], list[Any]] = {}  # at most one: a fact's value per event

    def _next(self, state: Any, event: dict[str, Any]) -> Any:
        return self.game.apply_event(state, self.players, event, saved=True)[0]

    def at(self, number: int, log: list[dict[str, Any]]) -> Any:
        """The state after `number` events of the log (the redo tail included)."""
        block, offset = divmod(number, CHECKPOINT_EVERY)
        states = self.blocks.get(block)
        if states is None:
            self.blocks.clear()
            states = self.blocks[block] = [self.checkpoints[block]]
        while len(states) <= offset:
            done = block * CHECKPOINT_EVERY + len(states)
            states.append(self._next(states[-1], log[done - 1]))
        return states[offset]

    def block(self, block: int, last: int, log: list[dict[str, Any]]) -> Iterator[Any]:
        """The states after 64 * `block` .. `last` events (`last` in that block): those kept, then replayed.

        The same replay as `at`, without keeping what it replays: the block kept stays the
        one around the cursor.
        """
        first = block * CHECKPOINT_EVERY
        kept = self.blocks.get(block) or [self.checkpoints[block]]
        yield from kept[: last + 1 - first]
        state = kept[-1]
        for number in range(first + len(kept), last + 1):
            state = self._next(state, log[number - 1])
            yield state

    def keep(self, number: int, state: Any, log: list[dict[str, Any]]) -> None:
        """`state` follows `number` events of a log that now ends there: later states are forgotten."""
        block, offset = divmod(number, CHECKPOINT_EVERY)
        for facts in self.facts.values():
            del facts[number:]
        if offset == 0:
            del self.checkpoints[block:]
            self.checkpoints.append(state)
            self.blocks.clear()
            self.blocks[block] = [state]
        else:
            del self.checkpoints[block + 1 :]
            self.at(number - 1, log)  # the block kept is now this one
            states = self.blocks[block]
            del states[offset:]
            states.append(state)

    def fact(self, fact: Callable[[Any], T], cursor: int, log: list[dict[str, Any]]) -> T:
        """`fact(self.at(cursor))`, kept: a block's values are worked out together the first time one
        of them is asked for, and those after an event that changes are forgotten (`keep`)."""
        facts = self.facts.get(fact)
        if facts is None:
            self.facts.clear()
            facts = self.facts[fact] = []
        if cursor < len(facts) and facts[cursor] is not _UNKNOWN:
            known: T = facts[cursor]
            return known
        block = cursor // CHECKPOINT_EVERY
        first = block * CHECKPOINT_EVERY
        last = min(first + CHECKPOINT_EVERY - 1, len(log))
        if len(facts) <= last:
            facts.extend([_UNKNOWN] * (last + 1 - len(facts)))
        facts[first : last + 1] = map(fact, self.block(block, last, log))
        worked_out: T = facts[cursor]
        return worked_out

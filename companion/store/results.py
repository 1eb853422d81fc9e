"""A finished game's final result as its index entry keeps it, so statistics never replay a game.

Kept as `"result": {"scores": [...], "ranks": [...], "length": n, "stopped": bool}` beside
the entry's players (same order: by seat). `length` is the game's own count (`Game.length`:
rounds, or zones scored in Great Plains); 0 for a game with no such count. `stopped` says
the table stopped the game early (`end_game`): statistics leave such a game out unless told.
Entries saved before results were kept have none, and those saved before `stopped` was kept
are read as having none: `Store.finished()` works theirs out once and the index keeps it.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from companion.session import Session


class FinalResult(NamedTuple):
    scores: tuple[int, ...]  # by seat
    ranks: tuple[int, ...]  # by seat, 1 is first; equal scores may share a rank
    length: int
    stopped: bool = False  # the table stopped it early: its standings are as they stood


def final_result(session: Session, state: Any = None) -> FinalResult | None:
    """The result of the session (in `state`, when given) once the game is over, else None."""
    game = session.game
    state = session.state if state is None else state
    if not game.is_over(state):
        return None
    standings = {standing.player: standing for standing in game.standings(state)}
    return FinalResult(
        scores=tuple(standings[player].score for player in session.players),
        ranks=tuple(standings[player].rank for player in session.players),
        length=game.length_of(state),
        stopped=game.stopped_note(state) is not None,
    )


def result_doc(result: FinalResult) -> dict[str, Any]:
    return {
        "scores": list(result.scores),
        "ranks": list(result.ranks),
        "length": result.length,
        "stopped": result.stopped,
    }


def result_of(doc: Any, players: int) -> FinalResult | None:
    """The result an index entry keeps for `players` players, or None when it has none of that shape."""
    if not isinstance(doc, dict):
        return None
    scores, ranks, length, stopped = doc.get("scores"), doc.get("ranks"), doc.get("length"), doc.get("stopped")
    if not (_numbers(scores, players) and _numbers(ranks, players) and _numbers([length], 1)):
        return None
    if type(stopped) is not bool:  # kept by a version that did not say: worked out again, once
        return None
    return FinalResult(tuple(scores), tuple(ranks), length, stopped)  # type: ignore[arg-type]


# No game scores past this; a larger number in an entry is damage (and no page could be sent it).
LARGEST_NUMBER = 2**53


def _numbers(values: Any, count: int) -> bool:
    return (
        isinstance(values, list)
        and len(values) == count
        and all(
            (type(value) is int or (type(value) is float and math.isfinite(value))) and abs(value) < LARGEST_NUMBER
            for value in values
        )
    )

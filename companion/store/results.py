"""A finished game's final result as its index entry keeps it, so statistics never replay a game.

Kept as `"result": {"scores": [...], "ranks": [...], "length": n}` beside the entry's
players (same order: by seat). `length` is the game's own count (`Game.length`: rounds,
or zones scored in Great Plains); 0 for a game with no such count. Entries saved before
results were kept have none: `Store.finished()` works theirs out once and the index keeps it.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from companion.session import Session


class FinalResult(NamedTuple):
    scores: tuple[int, ...]  # by seat
    ranks: tuple[int, ...]  # by seat, 1 is first; equal scores may share a rank
    length: int


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
    )


def result_doc(result: FinalResult) -> dict[str, Any]:
    return {"scores": list(result.scores), "ranks": list(result.ranks), "length": result.length}


def result_of(doc: Any, players: int) -> FinalResult | None:
    """The result an index entry keeps for `players` players, or None when it has none of that shape."""
    if not isinstance(doc, dict):
        return None
    scores, ranks, length = doc.get("scores"), doc.get("ranks"), doc.get("length")
    if not (_numbers(scores, players) and _numbers(ranks, players) and _numbers([length], 1)):
        return None
    return FinalResult(tuple(scores), tuple(ranks), length)  # type: ignore[arg-type]


# No game scores past this; a larger number in an entry is damage (and no page could be sent it).
LARGEST_NUMBER = 2**53


def _numbers(values: Any, count: int) -> bool:
    return isinstance(values, list) and len(values) == count and all(
        (type(value) is int or (type(value) is float and math.isfinite(value))) and abs(value) < LARGEST_NUMBER
        for value in values)

"""Why a tie went the way it did, in words, for the end screens."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby

from companion.messages import join_names
from companion.rules.base import Standing

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(rank: int) -> str:
    return ORDINALS.get(rank, f"{rank}th")


def tie_lines(
    standings: Sequence[Standing],
    score_text: Callable[[int], str],
    decider: str,
    decider_text: Callable[[Standing], str],
) -> list[str]:
    """One sentence per group of players with the same score.

    `decider` names the tie-break ("fewer cubes on the truck"), `decider_text` gives each
    player's figure for it ("1 cube").
    """
    lines = []
    by_score = sorted(standings, key=lambda standing: -standing.score)
    for score, group_iter in groupby(by_score, key=lambda standing: standing.score):
        group = sorted(group_iter, key=lambda standing: standing.rank)
        if len(group) < 2:
            continue
        players = join_names([standing.player for standing in group])
        if len({standing.rank for standing in group}) == 1:
            figures = join_names([decider_text(standing) for standing in group])
            outcome = "share the victory" if group[0].rank == 1 and group[0].winner else (
                f"share {ordinal(group[0].rank)} place")
            lines.append(f"{players} tie on {score_text(score)} and on {decider} ({figures}): they {outcome}.")
        else:
            order = ", ".join(f"{standing.player} {decider_text(standing)}" for standing in group)
            lines.append(f"{players} tie on {score_text(score)}; {decider} decides: {order}.")
    return lines

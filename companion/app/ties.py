"""Why a tie went the way it did, in words, for the end screens."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby

from companion.rules.base import Standing
from companion.text.i18n import t
from companion.text.messages import join_names


def ordinal(rank: int, language: str = "en") -> str:
    """1st, 2nd, 3rd, 4th (1er, 2e…; 1.º, 2.º…)."""
    if rank in (1, 2, 3):
        return t(f"ui.ordinal.{rank}", language)
    return t("ui.ordinal.n", language, rank=rank)


def tie_lines(
    standings: Sequence[Standing],
    score_text: Callable[[int], str],
    decider: str,
    decider_text: Callable[[Standing], str],
    language: str = "en",
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
        players = join_names([standing.player for standing in group], language)
        shown = score_text(score)
        if len({standing.rank for standing in group}) == 1:
            figures = join_names([decider_text(standing) for standing in group], language)
            won = group[0].rank == 1 and group[0].winner
            lines.append(
                t(
                    "ui.tie.shared_win" if won else "ui.tie.shared_place",
                    language,
                    players=players,
                    score=shown,
                    decider=decider,
                    figures=figures,
                    ordinal=ordinal(group[0].rank, language),
                )
            )
        else:
            order = ", ".join(f"{standing.player} {decider_text(standing)}" for standing in group)
            lines.append(t("ui.tie.decided", language, players=players, score=shown, decider=decider, order=order))
    return lines

"""TransAmerica (2-6 players).

Players build a shared rail network to connect five secret cities each. A round ends as
soon as someone's cities are all connected; every player then loses one point per track
segment still missing for their own shortest completion (hard segments count 2). All
start at 13 points; the game ends after a round that leaves anyone at 0 or less. Most
points left wins; every tied player wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules import transamerica_reference
from companion.rules.base import (
    STOP_IN_PLACE,
    EventKind,
    Game,
    IntField,
    PerPlayerField,
    Reference,
    Standing,
    Step,
    check_option_names,
    rank_by,
    result_line,
)
from companion.text.messages import Listed, Message, RuleError

STARTING_POINTS = 13
MAX_MISSING = 99


@dataclass(frozen=True)
class TransAmericaState:
    players: tuple[str, ...]
    points: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...] = ()
    stopped: str | None = None  # why the table stopped the game early

    @property
    def round_number(self) -> int:
        """The round being played (or, once over, one past the last)."""
        return len(self.rounds) + 1

    @property
    def starter(self) -> str:
        # The start player moves one seat clockwise each round (published rules).
        return self.players[len(self.rounds) % len(self.players)]

    @property
    def over(self) -> bool:
        """The end check: a round left someone at 0 or below (or the table stopped the game)."""
        return self.stopped is not None or any(points <= 0 for points in self.points)

    def points_of(self, player: str) -> int:
        return self.points[self.players.index(player)]


def normalize_options(players: tuple[str, ...], options: Mapping[str, Any]) -> dict[str, Any]:
    check_option_names("TransAmerica", options, ())
    return {}


def setup(players: tuple[str, ...], options: dict[str, Any]) -> TransAmericaState:
    return TransAmericaState(players=players, points=(STARTING_POINTS,) * len(players))


def end_round(state: TransAmericaState, event: dict[str, Any]) -> tuple[TransAmericaState, Message]:
    missing = event["missing"]
    if all(missing[player] > 0 for player in state.players):
        raise RuleError("transamerica.nobody_finished")
    losses = tuple(missing[player] for player in state.players)
    points = tuple(before - lost for before, lost in zip(state.points, losses, strict=True))
    finished = [player for player in state.players if missing[player] == 0]
    new_state = TransAmericaState(state.players, points, (*state.rounds, losses))
    lost = Listed(
        Message("transamerica.log.loss", {"player": player, "lost": missing[player]})
        for player in state.players
        if missing[player]
    )
    message_id = "transamerica.log.end_round" if lost else "transamerica.log.end_round_all"
    return new_state, Message(message_id, {"round": state.round_number, "finished": finished, "losses": lost})


def amend_round(state: TransAmericaState, event: dict[str, Any]) -> tuple[TransAmericaState, Message]:
    """A past round's figures replaced in place (the table miscounted): the points are
    counted again from 13, and every later round stays as it was recorded."""
    number, missing = event["round"], event["missing"]
    if number > len(state.rounds):
        raise RuleError("transamerica.amend_no_round", round=number, count=len(state.rounds))
    if all(missing[player] > 0 for player in state.players):
        raise RuleError("transamerica.nobody_finished")
    was = state.rounds[number - 1]
    losses = tuple(missing[player] for player in state.players)
    if losses == was:
        raise RuleError("transamerica.amend_same", round=number)
    rounds = (*state.rounds[: number - 1], losses, *state.rounds[number:])
    points = points_after(state.players, rounds)
    # A round that leaves anyone at 0 ends the game: one before the last would undo the
    # rounds the table played after it.
    for ended_after, after in enumerate(points[number:-1], start=number):
        ended = [player for player, left in zip(state.players, after, strict=True) if left <= 0]
        if ended:
            raise RuleError("transamerica.amend_ends_early", round=number, players=ended, ended=ended_after)
    changes = Listed(
        Message("transamerica.log.amended_loss", {"player": player, "missing": now, "was": before})
        for player, now, before in zip(state.players, losses, was, strict=True)
        if now != before
    )
    new_state = TransAmericaState(state.players, points[-1], rounds, state.stopped)
    return new_state, Message("transamerica.log.amend_round", {"round": number, "changes": changes})


def points_after(players: tuple[str, ...], rounds: tuple[tuple[int, ...], ...]) -> list[tuple[int, ...]]:
    """Everyone's points at the start and after each round."""
    points = [(STARTING_POINTS,) * len(players)]
    for losses in rounds:
        points.append(tuple(before - lost for before, lost in zip(points[-1], losses, strict=True)))
    return points


def is_over(state: TransAmericaState) -> bool:
    return state.over


def current_player(state: TransAmericaState) -> str | None:
    # Turns within a round happen on the board; the app only records round ends.
    return None


def standings(state: TransAmericaState) -> list[Standing]:
    ranks = rank_by(state.players, lambda player: (state.points_of(player),))
    result = []
    for seat, player in enumerate(state.players):
        detail = {"points": state.points[seat], "rounds": [losses[seat] for losses in state.rounds]}
        rank = ranks[player]
        result.append(Standing(player, state.points[seat], rank, state.over and rank == 1, detail))
    return sorted(result, key=lambda standing: (standing.rank, state.players.index(standing.player)))


def length(state: TransAmericaState) -> int:
    return len(state.rounds)


def score_steps(states: Sequence[TransAmericaState]) -> list[Step]:
    """Points at the start and after each round."""
    state = states[-1]
    return [
        Step("round" if number else "start", number, points)
        for number, points in enumerate(points_after(state.players, state.rounds))
    ]


def status(state: TransAmericaState) -> Message:
    """Home's line: the round and who is lowest; once over, who won."""
    if state.over:
        final = standings(state)
        return result_line(final, Message("game.status.points", {"count": final[0].score}))
    lowest = min(state.players, key=state.points_of)
    return Message(
        "transamerica.status", {"number": state.round_number, "player": lowest, "points": state.points_of(lowest)}
    )


REFERENCE = Reference(
    sections=("round", "round_end", "countdown", "start_player", "end", "winner", "variants", "decisions"),
    places={"game": "countdown", "end_round": "round_end", "end": "winner", "log": "round"},
    text=transamerica_reference.TEXT,
)

EVENTS: dict[str, EventKind[TransAmericaState]] = {
    "end_round": EventKind(
        {"missing": PerPlayerField(IntField(0, MAX_MISSING), label="transamerica.field.missing")},
        end_round,
        label="transamerica.event.end_round",
    ),
    "amend_round": EventKind(
        {
            "round": IntField(1, label="transamerica.field.round"),
            "missing": PerPlayerField(IntField(0, MAX_MISSING), label="transamerica.field.missing"),
        },
        amend_round,
        label="transamerica.event.amend_round",
    ),
    "end_game": STOP_IN_PLACE,
}

MESSAGES = {
    "transamerica.nobody_finished": "Someone must have 0 segments missing: a round ends when a player's "
    "cities are all connected.",
    "transamerica.log.end_round": "Round {round} ended: {finished} connected all cities; {losses}",
    "transamerica.log.end_round_all": "Round {round} ended: {finished} connected all cities; nobody lost points",
    "transamerica.log.loss": "{player} -{lost}",
    "transamerica.amend_no_round": "There is no round {round} to correct: {count} "
    "{count:round was|rounds were} played.",
    "transamerica.amend_same": "Round {round} already reads so: nothing to correct.",
    "transamerica.amend_ends_early": "Round {round} so corrected would have left {players} at 0 or below and "
    "ended the game after round {ended}, but the table played on: correct a later round instead, or undo back.",
    "transamerica.log.amend_round": "Round {round} corrected: {changes}",
    "transamerica.log.amended_loss": "{player} missed {missing}, not {was}",
    "transamerica.status": "Round {number} · lowest: {player} {points}",
    "transamerica.event.end_round": "End round",
    "transamerica.field.missing": "Segments missing",
    "transamerica.event.amend_round": "Correct a round",
    "transamerica.field.round": "Round",
}

GAME: Game[TransAmericaState] = Game(
    id="transamerica",
    title="TransAmerica",
    bgg_id=2842,  # https://boardgamegeek.com/boardgame/2842/transamerica
    min_players=2,
    max_players=6,
    setup=setup,
    normalize_options=normalize_options,
    events=EVENTS,
    end_if=is_over,
    player_to_act=current_player,
    ranking=standings,
    messages=MESSAGES,
    length=length,
    score_steps=score_steps,
    reference=REFERENCE,
    status=status,
)

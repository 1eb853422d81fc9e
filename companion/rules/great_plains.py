"""Great Plains (exactly 2 players).

Fox (orange) and Snake (blue) each place 3 caves, then take turns placing their 20 tribe
tokens next to their caves or tokens, the first player (drawn at set-up, whoever is the
Fox) first. Landing on a spirit symbol takes a Horse, Eagle or Bear from the common
supply (3 of each), to be used on a later turn and returned. Once both have placed all
20 tokens the game is scored: each prairie zone scores its spaces plus its water sources
for the player with the strict majority of tokens in it (a tie scores nothing), and the
game ends when the table confirms the scoring is done. Highest total wins; a tie goes to
more spirits kept, then is shared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.rules import great_plains_reference
from companion.rules.base import (
    PLAYER,
    RULES,
    STOP_IN_PLACE,
    ChoiceField,
    EventKind,
    Game,
    IntField,
    PerPlayerField,
    Reference,
    Standing,
    Step,
    check_option_names,
    describe_value,
    rank_by,
    require_turn,
    result_line,
    table_call,
)
from companion.text.messages import Message, RuleError

SPIRITS = ("horse", "eagle", "bear")
CAVES = 3
TOKENS = 20
SPIRITS_PER_KIND = 3
MAX_ZONE_SPACES = 200
MAX_ZONE_WATER = 50
MAX_ZONES = 200  # far more prairies than a board has; a zone number past the scored ones is refused in words
OPTIONS = ("fox", "first")


@dataclass(frozen=True)
class Zone:
    spaces: int
    water: int
    tokens: tuple[int, ...]  # by seat

    @property
    def points(self) -> int:
        return self.spaces + self.water

    @property
    def winner_seat(self) -> int | None:
        """The seat with the strict majority, or None on a tie."""
        first, second = self.tokens
        if first == second:
            return None
        return 0 if first > second else 1


@dataclass(frozen=True)
class GreatPlainsState:
    """Caves, tokens and spirits by seat (the order of `players`), and the zones counted so far.

    `scored` is set by `scoring_done`; `ended_at_last_token` marks a game recorded by the
    first version, which ended at the last token and still took zones afterwards; `stopped`
    says why the table stopped the game early.
    """

    players: tuple[str, ...]
    fox: str
    first: str
    scored: bool = False
    ended_at_last_token: bool = False
    caves: tuple[int, ...] = (0, 0)
    tokens: tuple[int, ...] = (0, 0)
    spirits: tuple[tuple[int, ...], ...] = ((0, 0, 0), (0, 0, 0))
    zones: tuple[Zone, ...] = ()
    counted: tuple[int, ...] = (0, 0)  # tokens counted in zones so far, by seat; kept so a zone is O(1)
    stopped: str | None = None

    def tribe(self, player: str) -> str:
        return "fox" if player == self.fox else "snake"

    def seat(self, player: str) -> int:
        return self.players.index(player)

    @property
    def cave_phase(self) -> bool:
        return sum(self.caves) < CAVES * 2

    @property
    def all_placed(self) -> bool:
        return all(placed == TOKENS for placed in self.tokens)

    @property
    def scoring(self) -> bool:
        """All tokens are placed and the table is counting prairies: nobody has won yet."""
        return self.all_placed and not self.over

    @property
    def over(self) -> bool:
        """The end check: the table confirmed the scoring (or stopped the game)."""
        return self.scored or self.ended_at_last_token or self.stopped is not None

    @property
    def current_player(self) -> str | None:
        if self.all_placed or self.over:
            return None
        placed = sum(self.caves) if self.cave_phase else sum(self.tokens)
        return self.players[(self.players.index(self.first) + placed) % 2]

    @property
    def supply(self) -> tuple[int, ...]:
        return tuple(SPIRITS_PER_KIND - sum(held[kind] for held in self.spirits) for kind in range(len(SPIRITS)))

    def spirits_of(self, player: str) -> dict[str, int]:
        return dict(zip(SPIRITS, self.spirits[self.seat(player)], strict=True))

    def zone_tokens_of(self, player: str) -> int:
        return self.counted[self.seat(player)]

    def points_of(self, player: str) -> int:
        seat = self.seat(player)
        return sum(zone.points for zone in self.zones if zone.winner_seat == seat)


def normalize_options(players: tuple[str, ...], options: Mapping[str, Any]) -> dict[str, Any]:
    """`fox` names the Fox player and `first` who places first, both by default the first listed.

    `first` is kept only when chosen, so games saved before it existed keep their options.
    """
    options = check_option_names("Great Plains", options, OPTIONS)
    chosen = {}
    for name in OPTIONS:
        if name == "fox" or name in options:
            value = options.get(name, players[0])
            match = next((p for p in players if isinstance(value, str) and p.casefold() == value.casefold()), None)
            if match is None:
                raise RuleError(f"great_plains.option.{name}", value=describe_value(value), players=list(players))
            chosen[name] = match
    return chosen


def setup(players: tuple[str, ...], options: dict[str, Any]) -> GreatPlainsState:
    return GreatPlainsState(players=players, fox=options["fox"], first=options.get("first", players[0]))


def _bump(values: tuple[int, ...], index: int, change: int) -> tuple[int, ...]:
    return tuple(value + change if position == index else value for position, value in enumerate(values))


def place_cave(state: GreatPlainsState, event: dict[str, Any]) -> tuple[GreatPlainsState, Message]:
    player = event["player"]
    if not state.cave_phase:
        raise RuleError("great_plains.caves_done")
    require_turn(state.current_player, player)
    seat = state.seat(player)
    state = replace(state, caves=_bump(state.caves, seat, 1))
    sentence = Message("great_plains.log.cave", {"player": player, "placed": state.caves[seat], "of": CAVES})
    return state, sentence


def place_token(state: GreatPlainsState, event: dict[str, Any]) -> tuple[GreatPlainsState, Message]:
    player = event["player"]
    if state.cave_phase:
        raise RuleError("great_plains.caves_first", player=state.current_player, placed=sum(state.caves))
    if state.all_placed:
        raise RuleError("great_plains.tokens_done")
    require_turn(state.current_player, player)
    seat = state.seat(player)
    state = replace(state, tokens=_bump(state.tokens, seat, 1))
    if state.all_placed and event.get(RULES) == 1:
        state = replace(state, ended_at_last_token=True)
    placed = {"player": player, "placed": state.tokens[seat], "of": TOKENS}
    spirit = event.get("spirit")
    if spirit is None:
        return state, Message("great_plains.log.token", placed)
    kind = SPIRITS.index(spirit)
    if state.supply[kind] == 0:
        return state, Message("great_plains.log.token_spirit_gone", {**placed, "spirit": spirit})
    spirits = tuple(_bump(held, kind, 1) if index == seat else held for index, held in enumerate(state.spirits))
    sentence = Message(f"great_plains.log.token_{spirit}", {**placed, "spirit": spirit})
    return replace(state, spirits=spirits), sentence


def use_spirit(state: GreatPlainsState, event: dict[str, Any]) -> tuple[GreatPlainsState, Message]:
    player, spirit = event["player"], event["spirit"]
    if state.all_placed:
        table_call(event, RuleError("great_plains.spirit_after_tokens", player=player))
    else:
        require_turn(state.current_player, player)
    seat, kind = state.seat(player), SPIRITS.index(spirit)
    if state.spirits[seat][kind] == 0:
        raise RuleError("great_plains.no_spirit", player=player, spirit=spirit)
    spirits = tuple(_bump(held, kind, -1) if index == seat else held for index, held in enumerate(state.spirits))
    return replace(state, spirits=spirits), Message(f"great_plains.log.use_{spirit}", {"player": player})


def zone(state: GreatPlainsState, event: dict[str, Any]) -> tuple[GreatPlainsState, Message]:
    spaces, water, counts = event["spaces"], event["water"], event["tokens"]
    if state.over and not state.ended_at_last_token:
        raise RuleError("game.over", type="zone")
    # The first version took zones at any time; its saves replay that way.
    if not state.all_placed and event.get(RULES) != 1:
        table_call(event, RuleError("great_plains.scoring_early", placed=sum(state.tokens)))
    if sum(counts.values()) > spaces:
        raise RuleError("great_plains.zone_crowded", spaces=spaces, tokens=sum(counts.values()))
    for player in state.players:
        placed = state.tokens[state.seat(player)]
        counted = state.zone_tokens_of(player) + counts[player]
        if counted > placed:
            raise RuleError("great_plains.zone_too_many", player=player, placed=placed, counted=counted)
    new_zone = Zone(spaces, water, tuple(counts[player] for player in state.players))
    counted = tuple(before + added for before, added in zip(state.counted, new_zone.tokens, strict=True))
    state = replace(state, zones=(*state.zones, new_zone), counted=counted)
    params = {"number": len(state.zones), "spaces": spaces, "water": water, "score": _score(*new_zone.tokens)}
    if new_zone.winner_seat is None:
        return state, Message("great_plains.log.zone_tied", params)
    winner = state.players[new_zone.winner_seat]
    return state, Message("great_plains.log.zone", {**params, "winner": winner, "points": new_zone.points})


def amend_zone(state: GreatPlainsState, event: dict[str, Any]) -> tuple[GreatPlainsState, Message]:
    """A zone already scored, its figures replaced in place (the table miscounted zone 2 of
    5): the zones after it stay as they were recorded, and the tokens all zones count are
    checked again against what each player placed."""
    number, spaces, water, counts = event["zone"], event["spaces"], event["water"], event["tokens"]
    if number > len(state.zones):
        raise RuleError("great_plains.amend_no_zone", zone=number, count=len(state.zones))
    was = state.zones[number - 1]
    if sum(counts.values()) > spaces:
        raise RuleError("great_plains.zone_crowded", spaces=spaces, tokens=sum(counts.values()))
    now = Zone(spaces, water, tuple(counts.get(player, 0) for player in state.players))
    if now == was:
        raise RuleError("great_plains.amend_same", zone=number)
    counted = tuple(before - old + new for before, old, new in zip(state.counted, was.tokens, now.tokens, strict=True))
    for seat, player in enumerate(state.players):
        if counted[seat] > state.tokens[seat]:
            raise RuleError(
                "great_plains.zone_too_many", player=player, placed=state.tokens[seat], counted=counted[seat]
            )
    zones = (*state.zones[: number - 1], now, *state.zones[number:])
    return replace(state, zones=zones, counted=counted), Message(
        "great_plains.log.amend_zone", {"zone": number, "now": _zone_words(now, state), "was": _zone_words(was, state)}
    )


def _zone_words(counted: Zone, state: GreatPlainsState) -> Message:
    params = {"spaces": counted.spaces, "water": counted.water, "score": _score(*counted.tokens)}
    if counted.winner_seat is None:
        return Message("great_plains.zone_words_tied", params)
    return Message(
        "great_plains.zone_words", {**params, "winner": state.players[counted.winner_seat], "points": counted.points}
    )


def _score(first: int, second: int) -> Message:
    return Message("great_plains.score", {"first": first, "second": second})


def scoring_done(state: GreatPlainsState, event: dict[str, Any]) -> tuple[GreatPlainsState, Message]:
    if not state.all_placed:
        table_call(event, RuleError("great_plains.scoring_early", placed=sum(state.tokens)))
    return replace(state, scored=True), Message("great_plains.log.scoring_done")


def is_over(state: GreatPlainsState) -> bool:
    return state.over


def current_player(state: GreatPlainsState) -> str | None:
    return state.current_player


def standings(state: GreatPlainsState) -> list[Standing]:
    """Zone points; a tie goes to more spirits kept, then is shared."""
    kept = {player: sum(state.spirits[state.seat(player)]) for player in state.players}
    ranks = rank_by(state.players, lambda player: (state.points_of(player), kept[player]))
    result = []
    for seat, player in enumerate(state.players):
        detail = {
            "tribe": state.tribe(player),
            "zones_won": sum(1 for zone in state.zones if zone.winner_seat == seat),
            "spirits": kept[player],
            "spirits_by_kind": state.spirits_of(player),
            "tokens": state.tokens[seat],
            "caves": state.caves[seat],
        }
        rank = ranks[player]
        result.append(Standing(player, state.points_of(player), rank, state.over and rank == 1, detail))
    return sorted(result, key=lambda standing: (standing.rank, state.seat(standing.player)))


def length(state: GreatPlainsState) -> int:
    """Zones scored."""
    return len(state.zones)


def score_steps(states: Sequence[GreatPlainsState]) -> list[Step]:
    """Points at the start and after each zone scored."""
    state = states[-1]
    points = [0] * len(state.players)
    steps = [Step("start", 0, tuple(points))]
    for number, counted in enumerate(state.zones, start=1):
        if counted.winner_seat is not None:
            points[counted.winner_seat] += counted.points
        steps.append(Step("zone", number, tuple(points)))
    return steps


def status(state: GreatPlainsState) -> Message:
    """Home's line: whose turn and the tokens placed, then the prairies' totals; once over, who won."""
    if state.over:
        final = standings(state)
        return result_line(final, _score(final[0].score, final[1].score))
    if state.scoring:
        (first, second) = state.players
        return Message(
            "great_plains.status.scoring",
            {
                "first": first,
                "first_points": state.points_of(first),
                "second": second,
                "second_points": state.points_of(second),
            },
        )
    return Message(
        "great_plains.status", {"player": state.current_player or "", "placed": sum(state.tokens), "total": TOKENS * 2}
    )


REFERENCE = Reference(
    sections=("setup", "turn", "spirits", "end", "scoring", "winner", "variants", "decisions"),
    places={"game": "turn", "scoring": "scoring", "zone": "scoring", "end": "winner", "log": "turn"},
    text=great_plains_reference.TEXT,
)

SPIRIT = ChoiceField(SPIRITS, label="great_plains.field.spirit")

EVENTS: dict[str, EventKind[GreatPlainsState]] = {
    "place_cave": EventKind({"player": PLAYER}, place_cave, label="great_plains.event.place_cave"),
    "place_token": EventKind(
        {"player": PLAYER, "spirit": SPIRIT},
        place_token,
        optional=frozenset({"spirit"}),
        label="great_plains.event.place_token",
    ),
    "use_spirit": EventKind({"player": PLAYER, "spirit": SPIRIT}, use_spirit, label="great_plains.event.use_spirit"),
    "zone": EventKind(
        {
            "spaces": IntField(1, MAX_ZONE_SPACES, label="great_plains.field.spaces"),
            "water": IntField(0, MAX_ZONE_WATER, label="great_plains.field.water"),
            "tokens": PerPlayerField(IntField(0, TOKENS), every=False, label="great_plains.field.tokens"),
        },
        zone,
        label="great_plains.event.zone",
    ),
    "amend_zone": EventKind(
        {
            "zone": IntField(1, MAX_ZONES, label="great_plains.field.zone"),
            "spaces": IntField(1, MAX_ZONE_SPACES, label="great_plains.field.spaces"),
            "water": IntField(0, MAX_ZONE_WATER, label="great_plains.field.water"),
            "tokens": PerPlayerField(IntField(0, TOKENS), every=False, label="great_plains.field.tokens"),
        },
        amend_zone,
        label="great_plains.event.amend_zone",
    ),
    "scoring_done": EventKind({}, scoring_done, label="great_plains.event.scoring_done"),
    "end_game": STOP_IN_PLACE,
}

MESSAGES = {
    "great_plains.option.fox": "The Fox player must be one of {players}, not {value}.",
    "great_plains.option.first": "The first player must be one of {players}, not {value}.",
    "great_plains.tokens_done": "All 40 tokens are placed; the prairies are being scored.",
    "great_plains.spirit_after_tokens": "All 40 tokens are placed: {player}'s spirits are kept for the tie-break.",
    "great_plains.scoring_early": "{placed} of 40 tokens are placed; the prairies are scored once all are down.",
    "great_plains.caves_done": "All 6 caves are placed; now the players place tribe tokens.",
    "great_plains.caves_first": "{placed} of 6 caves are placed: {player} places a cave next.",
    "great_plains.no_spirit": "{player} holds no {spirit} spirit.",
    "great_plains.zone_crowded": "A zone of {spaces} {spaces:space|spaces} cannot hold {tokens} tokens.",
    "great_plains.zone_too_many": "{player} has placed {placed} {placed:token|tokens}, but the zones count {counted}.",
    "great_plains.log.cave": "{player} placed a cave ({placed} of {of})",
    "great_plains.log.token": "{player} placed a token ({placed} of {of})",
    "great_plains.log.token_horse": "{player} placed a token ({placed} of {of}) and took a horse spirit",
    "great_plains.log.token_eagle": "{player} placed a token ({placed} of {of}) and took an eagle spirit",
    "great_plains.log.token_bear": "{player} placed a token ({placed} of {of}) and took a bear spirit",
    "great_plains.log.token_spirit_gone": "{player} placed a token ({placed} of {of}) on a {spirit}; "
    "none was left to take",
    "great_plains.log.use_horse": "{player} used a horse spirit to place two spaces away",
    "great_plains.log.use_eagle": "{player} used an eagle spirit to cross a mountain",
    "great_plains.log.use_bear": "{player} used a bear spirit to push a token back",
    "great_plains.log.zone": "Zone {number}: {spaces} {spaces:space|spaces} + {water} water, {score}: "
    "{winner} +{points}",
    "great_plains.log.scoring_done": "Scoring done; the game is over",
    "great_plains.log.zone_tied": "Zone {number}: {spaces} {spaces:space|spaces} + {water} water, {score}: "
    "tied, nobody scores",
    "great_plains.score": "{first}–{second}",
    "great_plains.amend_no_zone": "There is no zone {zone} to correct: {count} {count:zone is|zones are} scored.",
    "great_plains.amend_same": "Zone {zone} already reads so: nothing to correct.",
    "great_plains.log.amend_zone": "Zone {zone} corrected: {now}, not {was}",
    "great_plains.zone_words": "{spaces} {spaces:space|spaces} + {water} water, {score}: {winner} +{points}",
    "great_plains.zone_words_tied": "{spaces} {spaces:space|spaces} + {water} water, {score}: tied",
    "great_plains.event.amend_zone": "Correct a zone",
    "great_plains.field.zone": "Zone",
    "great_plains.status": "{player}'s turn · tokens {placed}/{total}",
    "great_plains.status.scoring": "Scoring the prairies · {first} {first_points} · {second} {second_points}",
    "great_plains.event.place_cave": "Place cave",
    "great_plains.event.place_token": "Place token",
    "great_plains.event.use_spirit": "Use a spirit",
    "great_plains.event.zone": "Zone",
    "great_plains.event.scoring_done": "Scoring done",
    "great_plains.field.spirit": "Spirit",
    "great_plains.field.spaces": "Spaces",
    "great_plains.field.water": "Water sources",
    "great_plains.field.tokens": "Tokens",
    # Words that fill a sentence's {spirit}, translated with it.
    "term.spirit.horse": "horse",
    "term.spirit.eagle": "eagle",
    "term.spirit.bear": "bear",
}

GAME: Game[GreatPlainsState] = Game(
    id="great_plains",
    title="Great Plains",
    bgg_id=330036,  # https://boardgamegeek.com/boardgame/330036/great-plains
    min_players=2,
    max_players=2,
    setup=setup,
    normalize_options=normalize_options,
    events=EVENTS,
    end_if=is_over,
    player_to_act=current_player,
    ranking=standings,
    messages=MESSAGES,
    accepted_after_end=frozenset({"zone"}),
    length=length,
    length_unit="zones",
    score_steps=score_steps,
    reference=REFERENCE,
    status=status,
)

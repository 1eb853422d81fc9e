"""The Great Heartland Hauling Co. (2-4 players).

Truckers haul corn, soybeans, cattle and pigs around a board of Location cards. The app
keeps each player's money and the cubes on their truck; the cards stay on the table.
A turn is a Move (fuel or $1 a space, or a tow), one Action (load, unload or discard) and
a refuel the app ignores; a player who moved and then cannot act is towed, and a towed
player's discard is forced (free with $0). Turns are counted in rounds of one turn per
player. Reaching the money target during one's own turn starts the final round: every
other player takes exactly one more turn. Cubes still on a truck at the end cost $1
(corn, soybeans) or $2 (cattle, pigs). Most money wins; a tie goes to fewer cubes, then
the victory is shared. What the table may decide against these rules is raised through
`table_call`; the rest are facts.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.rules import heartland_reference
from companion.rules.base import (
    NOTE,
    PLAYER,
    RULES,
    STOP_IN_PLACE,
    BoolField,
    ChoiceField,
    EventKind,
    Game,
    IntField,
    Reference,
    Standing,
    Step,
    TextField,
    check_option_names,
    describe_value,
    rank_by,
    require_turn,
    result_line,
    table_call,
)
from companion.text.messages import Message, Money, RuleError

GOODS = ("corn", "soybeans", "cattle", "pigs")
PENALTY_PER_CUBE = {"corn": 1, "soybeans": 1, "cattle": 2, "pigs": 2}
STARTING_MONEY = 5
CAPACITY = 8
SHORT_HAUL_CAPACITY = 6
WEIGH_STATION_FREE_CUBES = 4
MAX_PRICE = 20
CUBES_PER_GOOD = 15  # in the box
# The rulebook (es-rules) and the how-to blog (fr-blog) disagree for 4 players.
TARGETS = {
    "rulebook": {2: 50, 3: 40, 4: 40},
    "blog": {2: 50, 3: 40, 4: 30},
}
OPTIONS = ("target", "short_haul", "alternate_routes", "truck_stops")
BGG_ID = 111417  # https://boardgamegeek.com/boardgame/111417/great-heartland-hauling-co


_D = TypeVar("_D")


def _replace(value: _D, **changes: Any) -> _D:
    """`dataclasses.replace` for these plain frozen dataclasses (every field set through
    `__init__`, no `__post_init__`), without its per-field introspection: replaying a long
    game calls it a few times per event."""
    return type(value)(**{**vars(value), **changes})


@dataclass(frozen=True)
class Truck:
    player: str
    money: int = STARTING_MONEY
    cargo: tuple[int, ...] = (0, 0, 0, 0)
    upgrade: str | None = None

    def carried(self, good: str) -> int:
        return self.cargo[GOODS.index(good)]

    @property
    def cubes(self) -> int:
        return sum(self.cargo)

    @property
    def penalty(self) -> int:
        return sum(count * PENALTY_PER_CUBE[good] for good, count in zip(GOODS, self.cargo, strict=True))

    def with_cargo(self, good: str, change: int) -> Truck:
        cargo = list(self.cargo)
        cargo[GOODS.index(good)] += change
        return _replace(self, cargo=tuple(cargo))


@dataclass(frozen=True)
class Turn:
    """What the current player has recorded so far this turn; `number` counts turns since the start."""

    number: int = 1
    seat: int = 0
    move: str | None = None  # "move" or "tow"
    action: str | None = None  # "load", "unload" or "discard"


@dataclass(frozen=True)
class HeartlandState:
    players: tuple[str, ...]
    trucks: tuple[Truck, ...]
    target: int
    target_rule: str
    capacity: int
    alternate_routes: bool
    truck_stops: bool
    turn: Turn = Turn()
    triggered_by: str | None = None
    final_round_players: tuple[str, ...] = ()
    stopped: str | None = None  # why the table stopped the game early

    def truck(self, player: str) -> Truck:
        return self.trucks[self.players.index(player)]

    @property
    def over(self) -> bool:
        """The end check: the final round has been played out (or the table stopped the game)."""
        return self.stopped is not None or (self.triggered_by is not None and not self.final_round_players)

    @property
    def current_player(self) -> str | None:
        return None if self.over else self.players[self.turn.seat]

    @property
    def round(self) -> int:
        """The round being played, from 1: a round is one turn for each player, first seat first."""
        return (self.turn.number - 1) // len(self.players) + 1

    @property
    def final_round(self) -> bool:
        """Someone reached the target: `final_round_players` are those still to take their last turn."""
        return self.triggered_by is not None

    @property
    def last_turn(self) -> bool:
        """The turn being played is the last one of the game."""
        return self.final_round and self.final_round_players == (self.current_player,)


# --- options and set-up -------------------------------------------------------------


def normalize_options(players: tuple[str, ...], options: Mapping[str, Any]) -> dict[str, Any]:
    options = check_option_names("Heartland", options, OPTIONS)
    target = options.get("target", "rulebook")
    named = isinstance(target, str) and target in TARGETS
    custom = isinstance(target, int) and not isinstance(target, bool) and 1 <= target <= 999
    if not (named or custom):
        raise RuleError("heartland.option.target", value=describe_value(target))
    flags = {}
    for name in OPTIONS[1:]:
        flags[name] = BoolField().check(name, options.get(name, False), players)
    return {"target": target, **flags}


def target_for(rule: str | int, player_count: int) -> int:
    return rule if isinstance(rule, int) else TARGETS[rule][player_count]


def setup(players: tuple[str, ...], options: dict[str, Any]) -> HeartlandState:
    rule = options["target"]
    return HeartlandState(
        players=players,
        trucks=tuple(Truck(player) for player in players),
        target=target_for(rule, len(players)),
        target_rule=rule if isinstance(rule, str) else "custom",
        capacity=SHORT_HAUL_CAPACITY if options["short_haul"] else CAPACITY,
        alternate_routes=options["alternate_routes"],
        truck_stops=options["truck_stops"],
    )


# --- helpers ------------------------------------------------------------------------


def _with_truck(state: HeartlandState, truck: Truck) -> HeartlandState:
    trucks = tuple(truck if old.player == truck.player else old for old in state.trucks)
    return _check_target(_replace(state, trucks=trucks))


def _check_target(state: HeartlandState) -> HeartlandState:
    """Reaching the target during one's own turn starts the final round (once)."""
    player = state.current_player
    if state.final_round or player is None or state.truck(player).money < state.target:
        return state
    seat = state.turn.seat
    others = state.players[seat + 1 :] + state.players[:seat]
    return _replace(state, triggered_by=player, final_round_players=others)


def _pay(truck: Truck, cost: int, reason_id: str, **params: Any) -> Truck:
    if truck.money < cost:
        raise RuleError(reason_id, player=truck.player, money=truck.money, cost=cost, **params)
    return _replace(truck, money=truck.money - cost)


def _start_turn(state: HeartlandState, event: dict[str, Any]) -> Truck:
    require_turn(state.current_player, event["player"])
    return state.truck(event["player"])


def _require_move_phase(state: HeartlandState, event: dict[str, Any], what: str) -> None:
    """Tolls and weigh stations are paid while moving: after a move, before the action (the table's call)."""
    player = event["player"]
    if state.turn.move == "tow":
        table_call(event, RuleError("heartland.towed_no_road", player=player, what=what))
    if state.turn.move is None:
        table_call(event, RuleError("heartland.move_first", player=player, what=what))
    if state.turn.action is not None:
        table_call(event, RuleError("heartland.road_after_action", player=player, what=what, action=state.turn.action))


def _require_action_free(state: HeartlandState, event: dict[str, Any]) -> None:
    if state.turn.action is not None:
        table_call(event, RuleError("heartland.one_action", player=event["player"], action=state.turn.action))


def _require_no_move_yet(state: HeartlandState, event: dict[str, Any]) -> None:
    player = event["player"]
    if state.turn.move is not None:
        table_call(event, RuleError("heartland.already_moved", player=player))
    if state.turn.action is not None:
        table_call(event, RuleError("heartland.move_before_action", player=player, action=state.turn.action))


def _require_not_towed(state: HeartlandState, player: str) -> None:
    if state.turn.move == "tow":
        raise RuleError("heartland.towed_must_discard", player=player)


# --- events -------------------------------------------------------------------------


def move(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    truck = _start_turn(state, event)
    player, spaces = event["player"], event["spaces"]
    _require_no_move_yet(state, event)
    if event["pay"] == "cash":
        truck = _pay(truck, spaces, "heartland.cannot_pay_move", spaces=spaces)
        sentence = Message("heartland.log.move_cash", {"player": player, "spaces": spaces, "cost": spaces})
    else:
        sentence = Message("heartland.log.move_fuel", {"player": player, "spaces": spaces})
    state = _replace(state, turn=_replace(state.turn, move="move"))
    return _with_truck(state, truck), sentence


def tow(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    """A player who cannot move, or moved and then cannot load, unload or pay, is towed
    ("remorqué … gratuitement"); a move already recorded stays paid."""
    _start_turn(state, event)
    player = event["player"]
    if state.turn.move == "tow":
        table_call(event, RuleError("heartland.already_towed", player=player))
    if state.turn.action is not None:
        table_call(event, RuleError("heartland.move_before_action", player=player, action=state.turn.action))
    state = _replace(state, turn=_replace(state.turn, move="tow"))
    return state, Message("heartland.log.tow", {"player": player})


def load(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    truck = _start_turn(state, event)
    player, good, cubes = event["player"], event["good"], event["cubes"]
    _require_not_towed(state, player)
    _require_action_free(state, event)
    if truck.cubes + cubes > state.capacity:
        table_call(
            event,
            RuleError("heartland.truck_full", player=player, cubes=truck.cubes, capacity=state.capacity, wanted=cubes),
        )
    state = _replace(state, turn=_replace(state.turn, action="load"))
    sentence = Message("heartland.log.load", {"player": player, "cubes": cubes, "good": good})
    return _with_truck(state, truck.with_cargo(good, cubes)), sentence


def unload(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    truck = _start_turn(state, event)
    player, good, cubes, price = event["player"], event["good"], event["cubes"], event["price"]
    _require_not_towed(state, player)
    _require_action_free(state, event)
    if truck.carried(good) < cubes:
        raise RuleError("heartland.not_carried", player=player, carried=truck.carried(good), good=good, wanted=cubes)
    earned = cubes * price
    truck = _replace(truck.with_cargo(good, -cubes), money=truck.money + earned)
    state = _replace(state, turn=_replace(state.turn, action="unload"))
    sentence = Message(
        "heartland.log.unload", {"player": player, "cubes": cubes, "good": good, "price": price, "earned": earned}
    )
    return _with_truck(state, truck), sentence


def discard_cost(state: HeartlandState, player: str, forced: bool) -> int:
    """$1, except a forced discard by a player with $0, which is free."""
    return 0 if forced and state.truck(player).money == 0 else 1


def discard(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    truck = _start_turn(state, event)
    player, forced = event["player"], event["forced"]
    _require_action_free(state, event)
    if state.turn.move == "tow" and not forced:
        raise RuleError("heartland.towed_discard_forced", player=player)
    cost = discard_cost(state, player, forced)
    truck = _pay(truck, cost, "heartland.cannot_pay_discard")
    state = _replace(state, turn=_replace(state.turn, action="discard"))
    message_id = "heartland.log.discard_free" if cost == 0 else "heartland.log.discard"
    return _with_truck(state, truck), Message(message_id, {"player": player, "cost": cost})


def toll(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    truck = _start_turn(state, event)
    player = event["player"]
    if not state.alternate_routes:
        raise RuleError("heartland.needs_alternate_routes", what="toll road")
    _require_move_phase(state, event, "toll")
    truck = _pay(truck, 1, "heartland.cannot_pay_toll")
    return _with_truck(state, truck), Message("heartland.log.toll", {"player": player})


def weigh_station_cost(truck: Truck) -> int:
    return max(0, truck.cubes - WEIGH_STATION_FREE_CUBES)


def weigh_station(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    truck = _start_turn(state, event)
    player = event["player"]
    if not state.alternate_routes:
        raise RuleError("heartland.needs_alternate_routes", what="weigh station")
    _require_move_phase(state, event, "weigh station")
    cost = weigh_station_cost(truck)
    truck = _pay(truck, cost, "heartland.cannot_pay_weigh", cubes=truck.cubes)
    sentence = Message("heartland.log.weigh_station", {"player": player, "cubes": truck.cubes, "cost": cost})
    return _with_truck(state, truck), sentence


def buy_upgrade(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    truck = _start_turn(state, event)
    player, name, cost = event["player"], event["name"], event["cost"]
    if not state.truck_stops:
        raise RuleError("heartland.needs_truck_stops")
    if truck.upgrade is not None:
        raise RuleError("heartland.one_upgrade", player=player, upgrade=truck.upgrade)
    owner = next((t.player for t in state.trucks if (t.upgrade or "").casefold() == name.casefold()), None)
    if owner is not None:
        raise RuleError("heartland.upgrade_taken", name=name, owner=owner)
    if state.turn.move == "tow":
        table_call(event, RuleError("heartland.towed_no_upgrade", player=player))
    elif state.turn.move != "move":
        table_call(event, RuleError("heartland.upgrade_after_move", player=player))
    truck = _pay(truck, cost, "heartland.cannot_pay_upgrade", name=name)
    truck = _replace(truck, upgrade=name)
    sentence = Message("heartland.log.buy_upgrade", {"player": player, "name": name, "cost": cost})
    return _with_truck(state, truck), sentence


def adjust(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    player, amount, note = event["player"], event["amount"], event["note"]
    truck = state.truck(player)
    if amount == 0:
        raise RuleError("heartland.adjust_zero")
    if truck.money + amount < 0:
        raise RuleError("heartland.adjust_negative", player=player, money=truck.money, amount=-amount)
    truck = _replace(truck, money=truck.money + amount)
    message_id = "heartland.log.adjust_up" if amount > 0 else "heartland.log.adjust_down"
    sentence = Message(message_id, {"player": player, "amount": abs(amount), "note": note, "money": truck.money})
    return _with_truck(state, truck), sentence


def correct_cargo(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    """A load or unload recorded wrong (or not at all), fixed without undoing what came after."""
    player, good, cubes, note = event["player"], event["good"], event["cubes"], event["note"]
    truck = state.truck(player)
    if cubes == 0:
        raise RuleError("heartland.correct_zero")
    if truck.carried(good) + cubes < 0:
        raise RuleError(
            "heartland.correct_negative", player=player, carried=truck.carried(good), good=good, wanted=-cubes
        )
    if cubes > 0 and truck.cubes + cubes > state.capacity:
        table_call(
            event,
            RuleError(
                "heartland.correct_full", player=player, cubes=truck.cubes, capacity=state.capacity, wanted=cubes
            ),
        )
    truck = truck.with_cargo(good, cubes)
    message_id = "heartland.log.correct_cargo_up" if cubes > 0 else "heartland.log.correct_cargo_down"
    sentence = Message(
        message_id, {"player": player, "cubes": abs(cubes), "good": good, "note": note, "carried": truck.carried(good)}
    )
    return _with_truck(state, truck), sentence


def end_turn(state: HeartlandState, event: dict[str, Any]) -> tuple[HeartlandState, Message]:
    _start_turn(state, event)
    player = event["player"]
    # The first version let a turn end with no action; its saves replay that way.
    if state.turn.action is None and event.get(RULES) != 1:
        table_call(event, RuleError("heartland.no_action", player=player))
    remaining = tuple(name for name in state.final_round_players if name != player)
    seat = (state.turn.seat + 1) % len(state.players)
    state = _replace(state, turn=Turn(number=state.turn.number + 1, seat=seat), final_round_players=remaining)
    if state.over:
        return state, Message("heartland.log.end_turn_last", {"player": player})
    return _check_target(state), Message("heartland.log.end_turn", {"player": player, "next": state.players[seat]})


# --- end and standings -----------------------------------------------------------------


def is_over(state: HeartlandState) -> bool:
    return state.over


def current_player(state: HeartlandState) -> str | None:
    return state.current_player


def penalty_lines(truck: Truck) -> list[dict[str, Any]]:
    return [
        {"good": good, "cubes": count, "each": PENALTY_PER_CUBE[good], "total": count * PENALTY_PER_CUBE[good]}
        for good, count in zip(GOODS, truck.cargo, strict=True)
        if count
    ]


def standings(state: HeartlandState) -> list[Standing]:
    """Money after cargo penalties; a tie goes to fewer cubes, then is shared."""
    final = {truck.player: truck.money - truck.penalty for truck in state.trucks}
    cubes = {truck.player: truck.cubes for truck in state.trucks}
    ranks = rank_by(state.players, lambda player: (final[player], -cubes[player]))
    result = []
    for truck in state.trucks:
        detail = {
            "money": truck.money,
            "penalty": truck.penalty,
            "penalty_lines": penalty_lines(truck),
            "cubes": truck.cubes,
            "upgrade": truck.upgrade,
        }
        rank = ranks[truck.player]
        result.append(Standing(truck.player, final[truck.player], rank, state.over and rank == 1, detail))
    return sorted(result, key=lambda standing: (standing.rank, state.players.index(standing.player)))


# --- what the other layers show -----------------------------------------------------------


def length(state: HeartlandState) -> int:
    """Rounds played; a stopped game counts the turn it stopped in."""
    turns = state.turn.number - (0 if state.stopped is not None else 1)
    return max(1, -(-turns // len(state.players)))


def _money(state: HeartlandState) -> tuple[int, ...]:
    return tuple(truck.money for truck in state.trucks)


def score_steps(states: Sequence[HeartlandState]) -> list[Step]:
    """Money at the end of each round, then (once the game is over) after the cargo penalty."""
    state = states[0]
    steps = [Step("start", 0, _money(state))]
    counted = 0
    for state in itertools.islice(states, 1, None):
        if state.round - 1 > counted:  # a round just ended
            counted = state.round - 1
            steps.append(Step("round", counted, _money(state)))
    turn = state.turn
    if (turn.number, turn.move, turn.action) != (counted * len(state.players) + 1, None, None):
        # the round in progress, or a final round that ended before every seat had played again
        counted += 1
        steps.append(Step("round", counted, _money(state)))
    penalties = tuple(truck.penalty for truck in state.trucks)
    # A game stopped early with empty trucks has no cargo to pay for: a flat step would read as one.
    if state.over and (any(penalties) or state.stopped is None):
        steps.append(
            Step(
                "penalty",
                counted,
                tuple(truck.money - penalty for truck, penalty in zip(state.trucks, penalties, strict=True)),
            )
        )
    return steps


def status(state: HeartlandState) -> Message:
    """Home's line: whose turn it is and their money against the target; once over, who won."""
    if state.over:
        final = standings(state)
        return result_line(final, Message("game.status.money", {"money": Money(final[0].score)}))
    current = state.truck(state.current_player or state.players[0])
    return Message(
        "heartland.status", {"player": current.player, "money": Money(current.money), "target": Money(state.target)}
    )


REFERENCE = Reference(
    sections=(
        "turn",
        "moving",
        "loading",
        "unloading",
        "discarding",
        "money",
        "target",
        "final_round",
        "penalties",
        "winner",
        "variants",
        "decisions",
    ),
    places={
        "game": "turn",
        "final_round": "final_round",
        "load": "loading",
        "unload": "unloading",
        "adjust": "decisions",
        "upgrade": "variants",
        "end": "winner",
        "log": "turn",
    },
    text=heartland_reference.TEXT,
)

GOOD = ChoiceField(GOODS, label="heartland.field.good")
CUBES = IntField(1, CAPACITY, label="heartland.field.cubes")

EVENTS: dict[str, EventKind[HeartlandState]] = {
    "move": EventKind(
        {
            "player": PLAYER,
            "spaces": IntField(1, 3, label="heartland.field.spaces"),
            "pay": ChoiceField(("fuel", "cash"), label="heartland.field.pay"),
        },
        move,
        label="heartland.event.move",
    ),
    "tow": EventKind({"player": PLAYER}, tow, label="heartland.event.tow"),
    "load": EventKind({"player": PLAYER, "good": GOOD, "cubes": CUBES}, load, label="heartland.event.load"),
    "unload": EventKind(
        {
            "player": PLAYER,
            "good": GOOD,
            "cubes": CUBES,
            "price": IntField(1, MAX_PRICE, label="heartland.field.price"),
        },
        unload,
        label="heartland.event.unload",
    ),
    "discard": EventKind(
        {"player": PLAYER, "forced": BoolField(label="heartland.field.forced")},
        discard,
        label="heartland.event.discard",
    ),
    "toll": EventKind({"player": PLAYER}, toll, label="heartland.event.toll"),
    "weigh_station": EventKind({"player": PLAYER}, weigh_station, label="heartland.event.weigh_station"),
    "buy_upgrade": EventKind(
        {
            "player": PLAYER,
            "name": TextField(30, label="heartland.field.upgrade"),
            "cost": IntField(0, 99, label="heartland.field.cost"),
        },
        buy_upgrade,
        label="heartland.event.buy_upgrade",
    ),
    "adjust": EventKind(
        {"player": PLAYER, "amount": IntField(-999, 999, label="heartland.field.amount"), "note": NOTE},
        adjust,
        label="heartland.event.adjust",
    ),
    "correct_cargo": EventKind(
        {
            "player": PLAYER,
            "good": GOOD,
            "cubes": IntField(-CUBES_PER_GOOD, CUBES_PER_GOOD, label="heartland.field.cubes"),
            "note": NOTE,
        },
        correct_cargo,
        label="heartland.event.correct_cargo",
    ),
    "end_turn": EventKind({"player": PLAYER}, end_turn, label="heartland.event.end_turn"),
    "end_game": STOP_IN_PLACE,
}

MESSAGES = {
    "heartland.option.target": "The money target must be 'rulebook', 'blog' or a whole number of dollars "
    "from 1 to 999, not {value}.",
    "heartland.already_moved": "{player} has already moved this turn.",
    "heartland.already_towed": "{player} has already been towed this turn.",
    "heartland.no_action": "{player} has not loaded, unloaded or discarded this turn; a player who cannot act "
    "is towed and discards (a forced discard, free with $0).",
    "heartland.move_before_action": "{player} has already chosen to {action} this turn; the move comes first.",
    "heartland.cannot_pay_move": "{player} has ${money} and cannot pay ${cost} to move {spaces} {spaces:space|spaces}; "
    "pay with fuel, or be towed.",
    "heartland.towed_must_discard": "{player} was towed this turn and must take the discard action.",
    "heartland.towed_discard_forced": "{player} was towed this turn: the discard is a forced one.",
    "heartland.towed_no_road": "{player} was towed this turn and passed no {what}.",
    "heartland.move_first": "Record {player}'s move before the {what}.",
    "heartland.road_after_action": "{player} has already chosen to {action}; a {what} is paid while moving.",
    "heartland.one_action": "{player} has already chosen to {action} this turn; only one action per turn.",
    "heartland.truck_full": "{player}'s truck holds {cubes} of {capacity} cubes and cannot load {wanted} more.",
    "heartland.not_carried": "{player} carries {carried} {good:#carried} and cannot unload {wanted}.",
    "heartland.cannot_pay_discard": "{player} has ${money} and cannot pay ${cost} to discard; "
    "a forced discard with $0 is free.",
    "heartland.needs_alternate_routes": "There is no {what} without the Alternate Routes variant.",
    "heartland.cannot_pay_toll": "{player} has ${money} and cannot pay the ${cost} toll.",
    "heartland.cannot_pay_weigh": "{player} carries {cubes} {cubes:cube|cubes} and has ${money}: "
    "the weigh station costs ${cost}.",
    "heartland.needs_truck_stops": "There are no upgrades to buy without the Truck Stops expansion.",
    "heartland.one_upgrade": "{player} already owns the {upgrade} upgrade; one upgrade per player.",
    "heartland.upgrade_taken": "{owner} already owns the {name} upgrade.",
    "heartland.upgrade_after_move": "{player} buys an upgrade at the truck stop where a move ends: "
    "record the move first.",
    "heartland.towed_no_upgrade": "{player} was towed to the Distribution Center this turn, "
    "where there is no truck stop.",
    "heartland.cannot_pay_upgrade": "{player} has ${money} and cannot pay ${cost} for {name}.",
    "heartland.adjust_zero": "A correction of $0 changes nothing.",
    "heartland.adjust_negative": "{player} has ${money}; taking ${amount} would go below $0.",
    "heartland.correct_zero": "A correction of 0 cubes changes nothing.",
    "heartland.correct_negative": "{player} carries {carried} {good:#carried} and cannot give back {wanted}.",
    "heartland.correct_full": "{player}'s truck holds {cubes} of {capacity} cubes and cannot carry {wanted} more.",
    "heartland.log.move_cash": "{player} moved {spaces} {spaces:space|spaces} for ${cost}",
    "heartland.log.move_fuel": "{player} moved {spaces} {spaces:space|spaces} with fuel",
    "heartland.log.tow": "{player} was towed to the Distribution Center",
    "heartland.log.load": "{player} loaded {cubes} {good:#cubes}",
    "heartland.log.unload": "{player} unloaded {cubes} {good:#cubes} at ${price} (+${earned})",
    "heartland.log.discard": "{player} discarded for ${cost}",
    "heartland.log.discard_free": "{player} discarded for free (forced, with $0)",
    "heartland.log.toll": "{player} paid a $1 toll",
    "heartland.log.weigh_station": "{player} crossed a weigh station with {cubes} {cubes:cube|cubes} (${cost})",
    "heartland.log.buy_upgrade": "{player} bought the {name} upgrade for ${cost}",
    "heartland.log.adjust_up": "{player} +${amount} ({note}), now ${money}",
    "heartland.log.adjust_down": "{player} -${amount} ({note}), now ${money}",
    "heartland.log.correct_cargo_up": "{player} +{cubes} {good:#cubes} on the truck ({note}), now {carried} "
    "{good:#carried}",
    "heartland.log.correct_cargo_down": "{player} -{cubes} {good:#cubes} on the truck ({note}), now {carried} "
    "{good:#carried}",
    "heartland.log.end_turn": "{player} ended the turn; {next} plays",
    "heartland.log.end_turn_last": "{player} ended the last turn; the game is over",
    "heartland.status": "{player}'s turn · {money} / {target}",
    "heartland.event.move": "Move",
    "heartland.event.tow": "Tow",
    "heartland.event.load": "Load",
    "heartland.event.unload": "Unload",
    "heartland.event.discard": "Discard",
    "heartland.event.toll": "Toll",
    "heartland.event.weigh_station": "Weigh station",
    "heartland.event.buy_upgrade": "Buy upgrade",
    "heartland.event.adjust": "Correct money",
    "heartland.event.correct_cargo": "Correct cargo",
    "heartland.event.end_turn": "End turn",
    "heartland.field.spaces": "Spaces",
    "heartland.field.pay": "Paid with",
    "heartland.field.good": "Good",
    "heartland.field.cubes": "Cubes",
    "heartland.field.price": "Price per cube",
    "heartland.field.forced": "Forced",
    "heartland.field.upgrade": "Upgrade",
    "heartland.field.cost": "Cost",
    "heartland.field.amount": "Amount",
    # Words that fill a sentence's {good}, {action} or {what}, translated with it.
    "term.good.corn": "corn|corn",
    "term.good.soybeans": "soybean|soybeans",
    "term.good.cattle": "cattle|cattle",
    "term.good.pigs": "pig|pigs",
    "term.action.load": "load",
    "term.action.unload": "unload",
    "term.action.discard": "discard",
    "term.what.toll": "toll",
    "term.what.toll_road": "toll road",
    "term.what.weigh_station": "weigh station",
}

GAME: Game[HeartlandState] = Game(
    id="heartland",
    title="The Great Heartland Hauling Co.",
    min_players=2,
    max_players=4,
    setup=setup,
    normalize_options=normalize_options,
    events=EVENTS,
    end_if=is_over,
    player_to_act=current_player,
    ranking=standings,
    messages=MESSAGES,
    short_title="Heartland",
    unit="money",
    bgg_id=BGG_ID,
    length=length,
    score_steps=score_steps,
    reference=REFERENCE,
    status=status,
)

"""What every game module provides, and the checks every event goes through.

A game is one plain description (`Game`): how to set up, which events exist with their
fields, how each event changes the state, when the game is over, who stands where.
Nothing here imports Flet or touches storage.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from companion.messages import Message, RuleError, join_names

State = TypeVar("State")
Event = Mapping[str, Any]

MAX_NAME_LENGTH = 30


def describe_value(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'" if value else "an empty text"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


@dataclass(frozen=True)
class IntField:
    low: int
    high: int | None = None

    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._error(name, value)
        if value < self.low or (self.high is not None and value > self.high):
            raise self._error(name, value)
        return value

    def _error(self, name: str, value: Any) -> RuleError:
        if self.high is None:
            return RuleError("field.int_min", field=name, low=self.low, value=describe_value(value))
        return RuleError("field.int", field=name, low=self.low, high=self.high, value=describe_value(value))


@dataclass(frozen=True)
class BoolField:
    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, bool):
            raise RuleError("field.bool", field=name, value=describe_value(value))
        return value


@dataclass(frozen=True)
class ChoiceField:
    choices: tuple[str, ...]

    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, str) or value not in self.choices:
            raise RuleError(
                "field.choice", field=name, allowed=", ".join(self.choices), value=describe_value(value)
            )
        return value


@dataclass(frozen=True)
class TextField:
    high: int = 60

    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, str) or not value.strip() or len(value.strip()) > self.high:
            raise RuleError("field.text", field=name, high=self.high, value=describe_value(value))
        return value.strip()


@dataclass(frozen=True)
class PlayerField:
    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, str) or value not in players:
            raise RuleError(
                "field.player", field=name, allowed=join_names(list(players)), value=describe_value(value)
            )
        return value


@dataclass(frozen=True)
class PerPlayerField:
    """A number per player: for every player (TransAmerica's missing segments), or with
    `every=False` for some of them, the absent ones counting 0 (tokens in a zone)."""

    each: IntField
    every: bool = True

    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, Mapping):
            raise RuleError("field.per_player", field=name, allowed=join_names(list(players)))
        for key in value:
            if key not in players:
                raise RuleError("field.per_player_extra", field=name, value=describe_value(key))
        if self.every and set(value) != set(players):
            raise RuleError("field.per_player", field=name, allowed=join_names(list(players)))
        return {
            player: self.each.check(f"{name} of {player}", value.get(player, 0), players) for player in players
        }


FieldCheck = IntField | BoolField | ChoiceField | TextField | PlayerField | PerPlayerField


@dataclass(frozen=True)
class EventKind(Generic[State]):
    """One kind of event: its fields and the pure function that applies it.

    `apply(state, event)` returns the new state and the log sentence, or raises RuleError.
    """

    fields: Mapping[str, FieldCheck]
    apply: Callable[[State, dict[str, Any]], tuple[State, Message]]
    optional: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Standing:
    player: str
    score: int
    rank: int
    winner: bool
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Game(Generic[State]):
    id: str
    title: str
    min_players: int
    max_players: int
    setup: Callable[[tuple[str, ...], dict[str, Any]], State]
    normalize_options: Callable[[tuple[str, ...], Mapping[str, Any]], dict[str, Any]]
    events: Mapping[str, EventKind[State]]
    is_over: Callable[[State], bool]
    current_player: Callable[[State], str | None]
    standings: Callable[[State], list[Standing]]
    messages: Mapping[str, str]
    accepted_after_end: frozenset[str] = frozenset()

    def check_players(self, players: Any) -> tuple[str, ...]:
        if not isinstance(players, (list, tuple)):
            raise RuleError("players.not_a_list")
        names = tuple(_clean_name(name) for name in players)
        if not self.min_players <= len(names) <= self.max_players:
            if self.min_players == self.max_players:
                raise RuleError("players.count_exact", title=self.title, low=self.min_players, count=len(names))
            raise RuleError(
                "players.count", title=self.title, low=self.min_players, high=self.max_players, count=len(names)
            )
        seen: set[str] = set()
        for name in names:
            if name.casefold() in seen:
                raise RuleError("players.duplicate", name=name)
            seen.add(name.casefold())
        return names

    def check_event(self, state: State, players: Sequence[str], event: Any) -> tuple[EventKind[State], dict[str, Any]]:
        if not isinstance(event, Mapping):
            raise RuleError("event.not_a_dict", value=describe_value(event))
        allowed = ", ".join(self.events)
        if "type" not in event:
            raise RuleError("event.no_type", allowed=allowed)
        kind_name = event["type"]
        if not isinstance(kind_name, str) or kind_name not in self.events:
            raise RuleError("event.unknown_type", type=describe_value(kind_name).strip("'"), allowed=allowed)
        if self.is_over(state) and kind_name not in self.accepted_after_end:
            raise RuleError("game.over", type=kind_name)
        kind = self.events[kind_name]
        clean: dict[str, Any] = {"type": kind_name}
        for name in event:
            if name != "type" and name not in kind.fields:
                raise RuleError("event.extra_field", type=kind_name, field=describe_value(name).strip("'"))
        for name, check in kind.fields.items():
            if name not in event:
                if name in kind.optional:
                    continue
                raise RuleError("event.missing_field", type=kind_name, field=name)
            clean[name] = check.check(name, event[name], players)
        return kind, clean


def _clean_name(raw: Any) -> str:
    if not isinstance(raw, str):
        raise RuleError("players.name_type", value=describe_value(raw))
    name = " ".join(raw.split())
    if not name:
        raise RuleError("players.name_empty")
    if len(name) > MAX_NAME_LENGTH:
        raise RuleError("players.name_long", name=name, high=MAX_NAME_LENGTH)
    return name


def check_option_names(title: str, options: Any, allowed: Sequence[str]) -> Mapping[str, Any]:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise RuleError("options.not_a_dict")
    for name in options:
        if name not in allowed:
            raise RuleError("options.unknown", option=describe_value(name).strip("'"), title=title,
                            allowed=", ".join(allowed))
    return options


def require_turn(current: str | None, player: str) -> None:
    if current != player:
        raise RuleError("turn.not_yours", current=current, player=player)


def rank_by(players: Sequence[str], key: Callable[[str], tuple[Any, ...]]) -> dict[str, int]:
    """Competition ranking (1, 1, 3): players with equal keys share a rank; higher key is better."""
    ordered = sorted(players, key=key, reverse=True)
    ranks: dict[str, int] = {}
    for position, player in enumerate(ordered, start=1):
        previous = ordered[position - 2] if position > 1 else None
        if previous is not None and key(previous) == key(player):
            ranks[player] = ranks[previous]
        else:
            ranks[player] = position
    return ranks

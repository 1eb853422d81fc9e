"""Player-facing text as a message id plus parameters, rendered per language.

Errors and log sentences are built as `Message(id, params)` so that a French or Spanish
catalogue can be added without touching the rules. Each game module brings its own
English templates; `register` merges them here.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CATALOGS: dict[str, dict[str, str]] = {"en": {}}


def register(language: str, templates: Mapping[str, str]) -> None:
    catalog = CATALOGS.setdefault(language, {})
    for message_id, template in templates.items():
        if catalog.get(message_id, template) != template:
            raise ValueError(f"message id {message_id!r} registered twice with different text")
        catalog[message_id] = template


def render(message_id: str, params: Mapping[str, Any], language: str = "en") -> str:
    template = CATALOGS.get(language, {}).get(message_id) or CATALOGS["en"].get(message_id)
    if template is None:
        return message_id
    return _FORMATTER.format(template, **{key: _plain(value, language) for key, value in params.items()})


class _PluralFormatter(string.Formatter):
    """`{cubes:cube|cubes}` picks the word for the number, so templates stay whole sentences."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            return one if value == 1 else many
        return str(super().format_field(value, format_spec))


_FORMATTER = _PluralFormatter()


def _plain(value: Any, language: str) -> Any:
    """A sentence inside a sentence is rendered in the same language; several are joined by '; '."""
    if isinstance(value, Message):
        return value.text(language).rstrip(".")
    if isinstance(value, (list, tuple)) and value and all(isinstance(item, Message) for item in value):
        return "; ".join(_plain(item, language) for item in value)
    if isinstance(value, (list, tuple)):
        return join_names([str(item) for item in value])
    return value


def join_names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True)
class Message:
    id: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        return render(self.id, self.params, language)

    def __str__(self) -> str:
        return self.text()


class RuleError(ValueError):
    """An event or set-up the rules refuse; `str()` is a sentence a player understands.

    `overridable` is True when the refusal is the table's call and resending the same
    event with `"override": True` would be recorded (the app offers "Record anyway").
    """

    overridable: bool = False

    def __init__(self, message_id: str, **params: Any) -> None:
        self.message = Message(message_id, params)
        super().__init__(str(self.message))


register(
    "en",
    {
        "event.not_a_dict": "An event must be a set of named fields, not {value}.",
        "event.no_type": "The event has no 'type'; allowed types: {allowed}.",
        "event.unknown_type": "Unknown event type '{type}'; allowed types: {allowed}.",
        "event.missing_field": "The {type} event is missing '{field}'.",
        "event.extra_field": "The {type} event has an unexpected field '{field}'.",
        "event.nothing_to_override": "Nothing in this {type} goes against a rule; record it without 'override'.",
        "event.overridden": "{sentence} — recorded against the rule: {reasons}",
        "data.too_deep": "This {what} is nested more than {limit} levels deep; no real {what} is.",
        "data.too_big": "This {what} is far larger than any the app writes.",
        "field.int": "'{field}' must be a whole number from {low} to {high}, not {value}.",
        "field.int_min": "'{field}' must be a whole number of at least {low}, not {value}.",
        "field.bool": "'{field}' must be true or false, not {value}.",
        "field.choice": "'{field}' must be one of {allowed}, not {value}.",
        "field.text": "'{field}' must be a text of 1 to {high} characters, not {value}.",
        "field.player": "'{field}' must name a player of this game ({allowed}), not {value}.",
        "field.per_player": "'{field}' must give a number for each player ({allowed}).",
        "field.per_player_extra": "'{field}' names {value}, who is not a player of this game.",
        "game.over": "The game is over; no more {type} events can be recorded.",
        "game.unknown": "Unknown game {game}; known games: {allowed}.",
        "game.log.stopped": "The game was stopped: {note}",
        "players.not_a_list": "The players must be a list of names.",
        "players.count": "{title} is for {low} to {high} players, not {count}.",
        "players.count_exact": "{title} is for exactly {low} players, not {count}.",
        "players.name_empty": "A player's name cannot be empty.",
        "players.name_long": "The name '{name}' is longer than {high} characters.",
        "players.name_type": "A player's name must be text, not {value}.",
        "players.name_control": "A player's name cannot hold a control character ({code} in '{name}').",
        "players.name_bidi": "A player's name cannot hold a text-direction control ({code} in '{name}').",
        "players.duplicate": "Two players are called '{name}'; each name must be different.",
        "options.not_a_dict": "The options must be a set of named values.",
        "options.unknown": "Unknown option '{option}' for {title}; allowed: {allowed}.",
        "turn.not_yours": "It is {current}'s turn, not {player}'s.",
        "session.bad_data": "This saved session cannot be read: {reason}.",
        "session.bad_event": "This saved session cannot be read: event {number} was refused ({reason}).",
        "session.nothing_to_undo": "There is nothing to undo.",
        "session.nothing_to_redo": "There is nothing to redo.",
        "session.stale": "This game changed on another screen; nothing was recorded.",
        "standing.shared_win": "{players} share the victory.",
    },
)

"""What an event's fields may hold, and how a refusal quotes what they held.

Each field of an event kind describes itself (`IntField`, `ChoiceField`, ...: words, ranges,
choices), so a screen can build a form for any event and the rules refuse a bad value in
one sentence naming the field; `check_depth` refuses data nested deeper, or far larger,
than any real event before anything recurses into it; `describe_value` quotes a value in a
refusal however large it is. Plain data and checks: no Flet, no storage (see base.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.text.messages import QUOTED_CHARACTERS, Described, Listed, RuleError, has_lone_surrogate, quoted

# Real events nest 3 levels (event, per-player counts, number) and a saved session 5; far
# deeper data is damage or mischief, and must be refused before anything recurses into it.
MAX_DEPTH = 32
MAX_ITEMS = 2_000_000
# Python refuses to print integers past 4,300 digits; no field of any game comes near 30.
MAX_SHOWN_DIGITS = 30
# Text-direction overrides and isolates reorder whatever follows them on screen.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def describe_value(value: Any) -> str:
    """How a refusal quotes a value; never fails, however large or deep the value is. Words
    ("an empty text") come as `Described`, so a sentence shows them in its own language."""
    if isinstance(value, str):
        return f"'{quoted(value)}'" if value else Described("value.empty_text")
    if value is None:
        return Described("value.nothing")
    if isinstance(value, bool):
        return Described("value.true" if value else "value.false")
    if _huge(value):
        return Described("value.huge", digits=MAX_SHOWN_DIGITS)
    if isinstance(value, (int, float)) or (isinstance(value, (list, tuple, dict)) and _small(value)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return Described("value.list")
    if isinstance(value, Mapping):
        return Described("value.named_fields")
    return Described("value.of_type", type=type(value).__name__)


def _small(value: Any, budget: int = 12) -> bool:
    """A value short enough to quote whole: a few plain scalars, at most two levels deep."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        budget -= 1
        if budget < 0 or depth > 2:
            return False
        if isinstance(item, (list, tuple)):
            pending.extend((inner, depth + 1) for inner in item)
        elif isinstance(item, dict):
            pending.extend((inner, depth + 1) for pair in item.items() for inner in pair)
        elif _huge(item) or not isinstance(item, (str, int, float, type(None))) or _long_text(item):
            return False
    return True


def _long_text(value: Any) -> bool:
    """Text a refusal cannot quote whole: too long, or holding what no page can be sent."""
    return isinstance(value, str) and (len(value) > QUOTED_CHARACTERS or has_lone_surrogate(value))


def _huge(value: Any) -> bool:
    return isinstance(value, int) and abs(value) >= 10**MAX_SHOWN_DIGITS


_FLAT = frozenset({str, int, float, bool, type(None)})


def check_depth(value: Any, what: str) -> None:
    """Refuse data nested deeper, or far larger, than any real event or save (checked without recursion)."""
    if type(value) is dict and all(map(_FLAT.__contains__, map(type, value.values()))):
        # Nearly every event is one level of plain values: only its size can be refused,
        # and counting is what the walk below would do (the dict, then each key and value).
        if 1 + 2 * len(value) > MAX_ITEMS:
            raise RuleError("data.too_big", what=what)
        return
    pending = [(value, 0)]
    budget = MAX_ITEMS
    while pending:
        item, depth = pending.pop()
        budget -= 1
        if budget < 0:
            raise RuleError("data.too_big", what=what)
        if depth > MAX_DEPTH:
            raise RuleError("data.too_deep", what=what, limit=MAX_DEPTH)
        if isinstance(item, (list, tuple)):
            pending.extend((inner, depth + 1) for inner in item)
        elif isinstance(item, Mapping):
            pending.extend((inner, depth + 1) for pair in item.items() for inner in pair)


# Every field names itself on a form with `label` (a message id; empty: the field's own
# name, see `Game.field_label`).


@dataclass(frozen=True)
class IntField:
    low: int
    high: int | None = None
    label: str = ""

    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not self.fits(value):
            raise self.refusal(name, value)
        return value

    def fits(self, value: Any) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and value >= self.low
            and (self.high is None or value <= self.high)
        )

    def refusal(self, name: str, value: Any) -> RuleError:
        if self.high is None:
            return RuleError("field.int_min", field=name, low=self.low, value=describe_value(value))
        return RuleError("field.int", field=name, low=self.low, high=self.high, value=describe_value(value))


@dataclass(frozen=True)
class BoolField:
    label: str = ""

    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, bool):
            raise RuleError("field.bool", field=name, value=describe_value(value))
        return value


@dataclass(frozen=True)
class ChoiceField:
    """One of `choices`; a choice reads as the term `term.<field>.<choice>` where one is registered."""

    choices: tuple[str, ...]
    label: str = ""

    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, str) or value not in self.choices:
            raise RuleError("field.choice", field=name, allowed=Listed(self.choices), value=describe_value(value))
        return value


@dataclass(frozen=True)
class TextField:
    high: int = 60
    label: str = ""

    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, str) or not value.strip() or len(value.strip()) > self.high:
            raise RuleError("field.text", field=name, high=self.high, value=describe_value(value))
        if has_lone_surrogate(value):
            raise RuleError("field.text_broken", field=name)
        return value.strip()


@dataclass(frozen=True)
class PlayerField:
    """One of the game's players (any of them: the rules say when it must be the current one)."""

    label: str = ""

    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, str) or value not in players:
            raise RuleError("field.player", field=name, allowed=list(players), value=describe_value(value))
        return value


@dataclass(frozen=True)
class PerPlayerField:
    """A number per player: for every player (TransAmerica's missing segments), or with
    `every=False` for some of them, the absent ones counting 0 (tokens in a zone)."""

    each: IntField
    every: bool = True
    label: str = ""

    def check(self, name: str, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, Mapping):
            raise RuleError("field.per_player", field=name, allowed=list(players))
        for key in value:
            if key not in players:
                raise RuleError("field.per_player_extra", field=name, value=describe_value(key))
        if self.every and set(value) != set(players):
            raise RuleError("field.per_player", field=name, allowed=list(players))
        counts = {player: value.get(player, 0) for player in players}
        for player, count in counts.items():
            if not self.each.fits(count):
                raise self.each.refusal(Described("field.of_player", field=name, player=player), count)
        return counts


FieldCheck = IntField | BoolField | ChoiceField | TextField | PlayerField | PerPlayerField

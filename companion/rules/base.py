"""What every game module provides, and the checks every event goes through.

A game is one plain description (`Game`): how to set up, which events exist with their
fields, how each event changes the state, the check that says the game is over (run after
every event), who stands where; and what the other layers need to know of it: how long a
game was, its score over time for the chart, the unit scores are counted in, its rules
reference, its line on Home, its BoardGameGeek id. Every such fact has a default, so a new
game needs none of them. Event kinds and their fields describe themselves (words, ranges,
choices), so a screen can build a form for any of them. Nothing here imports Flet or
touches storage.
"""

from __future__ import annotations

import functools
import types
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, NamedTuple, TypeVar

from companion.rules.fields import (  # the fields and value checks, offered here as they always were
    BIDI_CONTROLS as BIDI_CONTROLS,
)
from companion.rules.fields import (
    MAX_DEPTH as MAX_DEPTH,
)
from companion.rules.fields import (
    MAX_ITEMS as MAX_ITEMS,
)
from companion.rules.fields import (
    MAX_SHOWN_DIGITS as MAX_SHOWN_DIGITS,
)
from companion.rules.fields import (
    BoolField as BoolField,
)
from companion.rules.fields import (
    ChoiceField as ChoiceField,
)
from companion.rules.fields import (
    FieldCheck as FieldCheck,
)
from companion.rules.fields import (
    IntField as IntField,
)
from companion.rules.fields import (
    PerPlayerField as PerPlayerField,
)
from companion.rules.fields import (
    PlayerField as PlayerField,
)
from companion.rules.fields import (
    TextField as TextField,
)
from companion.rules.fields import (
    check_depth as check_depth,
)
from companion.rules.fields import (
    describe_value as describe_value,
)
from companion.text.messages import (
    Described,
    Listed,
    Message,
    Money,
    RuleError,
    has_lone_surrogate,
    quoted,
)

State = TypeVar("State")
Event = Mapping[str, Any]

MAX_NAME_LENGTH = 30
OVERRIDE = "override"
RULES = "rules"
# The players' colours, by name (the app draws each in a shade that reads in either theme).
COLOURS = ("red", "blue", "green", "purple", "orange", "teal")
# Options every game takes besides its own: each player's colour ({player: colour}) and the
# player the app drew at random to play first. Games saved before them have neither.
SHARED_OPTIONS = ("colours", "drawn")
_WAIVED = "_waived"
# The fields any event may carry besides its own, built once rather than per event checked.
_EXTRAS: Mapping[str, FieldCheck] = types.MappingProxyType({OVERRIDE: BoolField()})
_SAVED_EXTRAS: Mapping[str, FieldCheck] = types.MappingProxyType({OVERRIDE: BoolField(), RULES: IntField(1, 1)})


@dataclass(frozen=True)
class EventKind(Generic[State]):
    """One kind of event: its fields and the pure function that applies it.

    `apply(state, event)` returns the new state and the log sentence, or raises RuleError.
    `label` is the message id naming it in words (a button's label; empty: its type, see
    `Game.event_label`); the fields in `optional` may be left out.
    """

    fields: Mapping[str, FieldCheck]
    apply: Callable[[State, dict[str, Any]], tuple[State, Message]]
    optional: frozenset[str] = frozenset()
    label: str = ""


@dataclass(frozen=True)
class Standing:
    player: str
    score: int
    rank: int
    winner: bool
    detail: Mapping[str, Any] = field(default_factory=dict)


class TableCall(RuleError):
    """A refusal that is the table's call, not a fact: `"override": true` records the event anyway."""


def table_call(event: Mapping[str, Any], refusal: RuleError) -> None:
    """Refuse with `refusal` unless the table chose to record this event against that rule."""
    if refusal.message.id not in event.get(_WAIVED, ()):
        raise TableCall(refusal.message.id, **refusal.message.params)


@dataclass(frozen=True)
class Stopped(Generic[State]):
    """A game the table stopped early (`end_game`), for a game whose state cannot say so
    itself: its state as it stood, and why. `Game.is_over`, `current_player` and
    `standings` answer for it; a game whose screen reads its state keeps the stop in that
    state instead (`STOP_IN_PLACE`)."""

    state: State
    note: str


def stop(state: Any, event: dict[str, Any]) -> tuple[Any, Message]:
    return Stopped(state, event["note"]), Message("game.log.stopped", {"note": event["note"]})


def stop_in_place(state: Any, event: dict[str, Any]) -> tuple[Any, Message]:
    """The stop kept in the game's own state, a frozen dataclass with a `stopped: str | None`
    field that its end check, its current player and its standings take into account."""
    return replace(state, stopped=event["note"]), Message("game.log.stopped", {"note": event["note"]})


# Fields many events share.
PLAYER = PlayerField(label="game.field.player")
NOTE = TextField(60, label="game.field.note")
# Every game can be stopped by its table: the standings as they stand become final.
END_GAME: EventKind[Any] = EventKind({"note": NOTE}, stop, label="game.event.end_game")
STOP_IN_PLACE: EventKind[Any] = EventKind({"note": NOTE}, stop_in_place, label="game.event.end_game")


class Step(NamedTuple):
    """One point of a game's score over time, as its chart draws it."""

    kind: str  # "start", "round" (after round `number`), "penalty" (Heartland's cargo), "zone", "final"
    number: int  # the round or zone just counted (0 at the start)
    values: tuple[int, ...]  # by seat, in the game's unit (`Game.unit`)


@dataclass(frozen=True)
class Reference:
    """A game's rules reference: its sections in reading order, the section each place of
    the app opens at ("load": "loading"; any other place opens the first), and its English
    text: the `reference.<game>.<section>.title` and `.body` templates, registered with the
    game's messages (French and Spanish are in the catalogues)."""

    sections: tuple[str, ...]
    places: Mapping[str, str] = field(default_factory=dict)
    text: Mapping[str, str] = field(default_factory=dict)

    def opening(self, place: str) -> str:
        return self.places.get(place, self.sections[0])


@dataclass(frozen=True)
class Game(Generic[State]):
    """One game: set-up, its events, the end check and the standings, then what the other
    layers need to know of it, each with a default.

    Every game also takes `end_game {note}` (the table stops it; see `Stopped`) and an
    optional `"override": true` on any event (see `apply_event`), without a line of its own.
    Ask `is_over`, `current_player` and `standings` (they answer for a stopped game too),
    not the game's own `end_if`, `player_to_act` and `ranking`.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    setup: Callable[[tuple[str, ...], dict[str, Any]], State]
    normalize_options: Callable[[tuple[str, ...], Mapping[str, Any]], dict[str, Any]]
    events: Mapping[str, EventKind[State]]
    end_if: Callable[[State], bool]  # the end of the game: a check over the state, asked after every event
    player_to_act: Callable[[State], str | None]
    ranking: Callable[[State], list[Standing]]
    messages: Mapping[str, str]
    accepted_after_end: frozenset[str] = frozenset()
    short_title: str = ""  # what Home and its screen call it ("Heartland"); empty: the title (`home_title`)
    unit: str = "points"  # what a score counts: "points" or "money"
    bgg_id: int | None = None  # BoardGameGeek's id, sent to BG Stats
    # Rounds (or the game's own `length_unit`) played in a state; None: the game has none to count.
    length: Callable[[State], int] | None = None
    length_unit: str = "rounds"
    # The chart's steps from the states after 0, 1, ... applied events (the last is the game
    # as it stands); None: one step, the standings.
    score_steps: Callable[[Sequence[State]], list[Step]] | None = None
    reference: Reference | None = None
    status: Callable[[State], Message] | None = None  # Home's line for a game in this state

    @functools.cached_property
    def all_events(self) -> Mapping[str, EventKind[Any]]:
        """The game's own events and `end_game`, which every game takes."""
        return {**self.events, "end_game": self.events.get("end_game", END_GAME)}

    # --- what the session, the store and the screens ask ------------------------------

    def is_over(self, state: Any) -> bool:
        """True once the game has ended by its rules or been stopped."""
        return isinstance(state, Stopped) or self.end_if(state)

    def current_player(self, state: Any) -> str | None:
        return None if isinstance(state, Stopped) else self.player_to_act(state)

    def standings(self, state: Any) -> list[Standing]:
        """Who stands where; once a game is stopped, rank 1 wins."""
        if not isinstance(state, Stopped):
            return self.ranking(state)
        return [replace(standing, winner=standing.rank == 1) for standing in self.ranking(state.state)]

    def stopped_note(self, state: Any) -> str | None:
        """Why the table stopped the game in `state`, or None when it did not."""
        if isinstance(state, Stopped):
            return state.note
        if self.all_events["end_game"] is STOP_IN_PLACE:
            note: str | None = state.stopped
            return note
        return None

    @property
    def home_title(self) -> str:
        return self.short_title or self.title

    def length_of(self, state: Any) -> int:
        """How long the game in `state` lasted, in `length_unit`; 0 for a game with no such count."""
        if self.length is None:
            return 0
        return self.length(state.state if isinstance(state, Stopped) else state)

    def steps(self, players: Sequence[str], states: Sequence[Any]) -> list[Step]:
        """The chart of a game from its states (see `score_steps`); by default one step, the standings."""
        if self.score_steps is not None:
            return self.score_steps(states)
        final = {standing.player: standing.score for standing in self.standings(states[-1])}
        return [Step("final", 0, tuple(final[player] for player in players))]

    def status_line(self, state: Any) -> Message:
        """The line Home shows for a game in `state`: the game's own, else who won or "in progress"."""
        if self.status is not None and not isinstance(state, Stopped):
            return self.status(state)
        if not self.is_over(state):
            return Message("game.status.in_progress")
        standings = self.standings(state)
        if self.unit == "money":
            return result_line(standings, Message("game.status.money", {"money": Money(standings[0].score)}))
        return result_line(standings, Message("game.status.points", {"count": standings[0].score}))

    def event_label(self, kind: str) -> Message:
        """The words naming an event kind (a button's label): its `label`, else its type."""
        label = self.all_events[kind].label
        return Message(label) if label else Message("label.named", {"name": kind})

    def field_label(self, kind: str, name: str) -> Message:
        """The words naming a field of an event kind on a form: its `label`, else its name."""
        label = self.all_events[kind].fields[name].label
        return Message(label) if label else Message("label.named", {"name": name})

    def check_options(self, players: tuple[str, ...], options: Any) -> dict[str, Any]:
        """A game's options, checked: its own (`normalize_options`) and the shared ones
        (`SHARED_OPTIONS`), which are kept only when given."""
        if not isinstance(options, Mapping):
            return self.normalize_options(players, options)
        own = {name: value for name, value in options.items() if name not in SHARED_OPTIONS}
        checked = self.normalize_options(players, own)
        if "colours" in options:
            checked["colours"] = check_colours(players, options["colours"])
        if "drawn" in options:
            checked["drawn"] = PlayerField().check("drawn", options["drawn"], players)
        return checked

    def setup_sentence(self, options: Mapping[str, Any]) -> Message | None:
        """The log's line for the set-up, below the first event: who the app drew to play first."""
        drawn = options.get("drawn")
        return Message("game.log.drawn", {"player": drawn}) if isinstance(drawn, str) else None

    def check_players(self, players: Any) -> tuple[str, ...]:
        """A new game's player names, normalised; refuses empty, invisible, twin or garbling names."""
        return self._check_players(players, _clean_name)

    def check_player_name(self, raw: Any) -> str:
        """One name as New game takes it (normalised), or RuleError saying what is wrong with it."""
        return _clean_name(raw)[0]

    def check_saved_players(self, players: Any) -> tuple[str, ...]:
        """A saved game's player names, under the first version's looser rule, so old games still open."""
        return self._check_players(players, _clean_saved_name)

    def _check_players(self, players: Any, clean: Callable[[Any], tuple[str, str]]) -> tuple[str, ...]:
        if not isinstance(players, (list, tuple)):
            raise RuleError("players.not_a_list")
        check_depth(players, "list of players")
        cleaned = [clean(name) for name in players]
        names = tuple(name for name, _ in cleaned)
        if not self.min_players <= len(names) <= self.max_players:
            if self.min_players == self.max_players:
                raise RuleError("players.count_exact", title=self.title, low=self.min_players, count=len(names))
            raise RuleError(
                "players.count", title=self.title, low=self.min_players, high=self.max_players, count=len(names)
            )
        seen: set[str] = set()
        for name, key in cleaned:
            if key in seen:
                raise RuleError("players.duplicate", name=name)
            seen.add(key)
        return names

    def check_event(
        self, state: State, players: Sequence[str], event: Any, *, saved: bool = False
    ) -> tuple[EventKind[State], dict[str, Any]]:
        """The event's kind and its fields, checked; `saved` also takes the `rules` mark of old saves."""
        if not isinstance(event, Mapping):
            raise RuleError("event.not_a_dict", value=describe_value(event))
        check_depth(event, "event")
        events = self.all_events
        if "type" not in event:
            raise RuleError("event.no_type", allowed=Listed(events))
        kind_name = event["type"]
        if not isinstance(kind_name, str) or kind_name not in events:
            raise RuleError("event.unknown_type", type=describe_value(kind_name).strip("'"), allowed=Listed(events))
        if self.is_over(state) and (kind_name not in self.accepted_after_end or self.stopped_note(state) is not None):
            raise RuleError("game.over", type=kind_name)
        kind = events[kind_name]
        extras = _SAVED_EXTRAS if saved else _EXTRAS
        clean: dict[str, Any] = {"type": kind_name}
        for name in event:
            if name != "type" and name not in kind.fields and name not in extras:
                raise RuleError("event.extra_field", type=kind_name, field=describe_value(name).strip("'"))
        for name, check in kind.fields.items():
            if name not in event:
                if name in kind.optional:
                    continue
                raise RuleError("event.missing_field", type=kind_name, field=name)
            clean[name] = check.check(name, event[name], players)
        for name, check in extras.items():
            if name in event and check.check(name, event[name], players) is not False:
                clean[name] = event[name]
        return kind, clean

    def apply_event(
        self, state: State, players: Sequence[str], event: Any, *, saved: bool = False
    ) -> tuple[State, Message, dict[str, Any]]:
        """The state after `event`, its log sentence and the event as the log keeps it; or RuleError.

        A refusal that is the table's call (raised through `table_call`) comes with
        `overridable` true when the same event with `"override": true` would be recorded:
        every such rule it breaks is then skipped and named in the log sentence ("… —
        recorded against the rule: …"). Facts are never skipped, and an override with
        nothing to override is refused.
        """
        kind, clean = self.check_event(state, players, event, saved=saved)
        broken: list[TableCall] = []
        while True:
            try:
                waived = frozenset(refusal.message.id for refusal in broken)
                new_state, sentence = kind.apply(state, {**clean, _WAIVED: waived})
                break
            except TableCall as refusal:
                broken.append(refusal)
        if not clean.get(OVERRIDE):
            if broken:
                broken[0].overridable = True
                raise broken[0].with_traceback(None)
            return new_state, sentence, clean
        if not broken:
            raise RuleError("event.nothing_to_override", type=clean["type"])
        reasons = tuple(refusal.message for refusal in broken)
        return new_state, Message("event.overridden", {"sentence": sentence, "reasons": reasons}), clean


def result_line(standings: Sequence[Standing], score: Message) -> Message:
    """'Ann won ($44)', 'Ann and Cy shared the win with 9 points': a finished game on Home."""
    winners = [standing.player for standing in standings if standing.winner]
    message_id = "game.status.won" if len(winners) == 1 else "game.status.shared"
    return Message(message_id, {"players": winners, "score": score})


def _clean_saved_name(raw: Any) -> tuple[str, str]:
    """The first version's rule: trimmed, inner whitespace collapsed, 1 to 30 characters."""
    if not isinstance(raw, str):
        raise RuleError("players.name_type", value=describe_value(raw))
    name = " ".join(raw.split())
    if not name:
        raise RuleError("players.name_empty")
    if len(name) > MAX_NAME_LENGTH:
        raise RuleError("players.name_long", name=quoted(name), high=MAX_NAME_LENGTH)
    if has_lone_surrogate(name):  # no version could save one: no encoder takes it
        raise RuleError("players.name_broken", name=quoted(name))
    return name, name.casefold()


def _clean_name(raw: Any) -> tuple[str, str]:
    """A name in NFC, trimmed, and the key no two names may share (see `name_key`)."""
    if not isinstance(raw, str):
        raise RuleError("players.name_type", value=describe_value(raw))
    name, _ = _clean_saved_name(unicodedata.normalize("NFC", raw))
    for character in name:
        category = unicodedata.category(character)
        if category == "Cc" or character in BIDI_CONTROLS:
            shown = "".join(c for c in name if unicodedata.category(c) not in ("Cc", "Cf"))
            reason = "players.name_control" if category == "Cc" else "players.name_bidi"
            raise RuleError(reason, name=shown, code=f"U+{ord(character):04X}")
    # Zero-width and other format characters stay in the name (emoji sequences need them)
    # but neither make a name nor make two names different.
    visible = "".join(character for character in name if unicodedata.category(character) != "Cf")
    if not visible.strip():
        raise RuleError("players.name_empty")
    return name, name_key(visible)


def name_key(name: str) -> str:
    """What two names share when they are the same name: case, compatibility forms
    (full-width "Ａｎｎ", ligatures, circled letters) and Unicode form set aside (NFKC with
    case folding, as Unicode's identifier matching does)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_option_names(title: str, options: Any, allowed: Sequence[str]) -> Mapping[str, Any]:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise RuleError("options.not_a_dict")
    check_depth(options, "set of options")
    for name in options:
        if name not in allowed:
            raise RuleError(
                "options.unknown", option=describe_value(name).strip("'"), title=title, allowed=Listed(allowed)
            )
    return options


def check_colours(players: Sequence[str], colours: Any) -> dict[str, str]:
    """Each player's colour: one of `COLOURS` per player named, no two players alike."""
    if not isinstance(colours, Mapping):
        raise RuleError("options.colours", allowed=_colour_words())
    check_depth(colours, "set of options")
    taken: dict[str, str] = {}
    for player, colour in colours.items():
        if player not in players:
            raise RuleError("options.colour_player", value=describe_value(player), players=list(players))
        if colour not in COLOURS:
            raise RuleError(
                "options.colour_unknown", player=player, value=describe_value(colour), allowed=_colour_words()
            )
        if colour in taken:
            raise RuleError("options.colour_twice", first=taken[colour], second=player, colour=colour)
        taken[colour] = player
    return dict(colours)


def _colour_words() -> Listed:
    return Listed(Described(f"term.colour.{colour}") for colour in COLOURS)


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

"""Player-facing text as a message id plus parameters, rendered per language.

Errors and log sentences are built as `Message(id, params)`; the text is chosen only when
a screen shows it, so a stored log holds no language. Each game module brings its own
English templates (`register`); French and Spanish come from gettext catalogues under
`companion/text/locale/` (context = the message id, msgid = the English template), read with
the standard `gettext` module, so a changed English sentence shows in English until its
translation is brought up to date.

Templates are `str.format` sentences with two additions:
- `{cubes:cube|cubes}` picks a word by the language's own plural rule (the catalogue's
  Plural-Forms: French says "0 cube", English "0 cubes");
- a parameter whose value has a term registered as `term.<parameter>.<value>` (goods,
  spirits, actions…) is shown as that term, translated like any other message. A term may
  hold forms like a plural ("pig|pigs"): `{good:#cubes}` picks the form for the number in
  `{cubes}` ("1 pig", "2 pigs"; "1 cochon"), a bare `{good}` the last form (the name).

A parameter may also be a sentence (`Message`, rendered in the same language), a list of
names ("Ann, Bob and Cy", joined as the language joins them), `Money` ("$12", "12 $") or
`Listed` parts ("Ann -3, Bob -2"): the rules hand over data, never English.
"""

from __future__ import annotations

import functools
import gettext
import re
import string
import sys
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

SOURCE_LANGUAGE = "en"
LANGUAGES = ("en", "fr", "es")
DOMAIN = "companion"
CATALOGS: dict[str, dict[str, str]] = {SOURCE_LANGUAGE: {}}
# The module that registered each id: the catalogues hold the package's own, not a test's.
REGISTERED_BY: dict[str, str] = {}


def register(language: str, templates: Mapping[str, str]) -> None:
    """Add English templates; other languages come from the catalogues, never from code."""
    if language != SOURCE_LANGUAGE:
        raise ValueError(f"templates are registered in {SOURCE_LANGUAGE}; translations live in the catalogues")
    caller = str(sys._getframe(1).f_globals.get("__name__", ""))
    catalog = CATALOGS[language]
    for message_id, template in templates.items():
        if catalog.get(message_id, template) != template:
            raise ValueError(f"message id {message_id!r} registered twice with different text")
        catalog[message_id] = template
        REGISTERED_BY.setdefault(message_id, caller)


def package_templates() -> dict[str, str]:
    """The English templates registered by Companion's own modules."""
    return {
        message_id: text
        for message_id, text in CATALOGS[SOURCE_LANGUAGE].items()
        if REGISTERED_BY.get(message_id, "").startswith("companion")
    }


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue shipped for `language`; an empty one for English or a language without one."""
    compiled = resources.files("companion.text") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if language == SOURCE_LANGUAGE or not compiled.is_file():
        return gettext.NullTranslations()
    with compiled.open("rb") as stream:
        return gettext.GNUTranslations(stream)


def template(message_id: str, language: str = SOURCE_LANGUAGE) -> str | None:
    english = CATALOGS[SOURCE_LANGUAGE].get(message_id)
    if english is None or language == SOURCE_LANGUAGE:
        return english
    return translations(language).pgettext(message_id, english)


def plural_index(language: str) -> Callable[[int], int]:
    """Which plural form a number takes in `language`: 0 for the first form listed."""
    found: Callable[[int], int] | None = getattr(translations(language), "plural", None)
    return found if found is not None else _english_plural


def _english_plural(count: int) -> int:
    return 0 if count == 1 else 1


# A refusal quotes at most this many characters of a bad value: a 10 MB text is not a sentence.
QUOTED_CHARACTERS = 60
# Half of a UTF-16 pair on its own: JSON can spell one ("\\ud800") but no encoder (UTF-8,
# msgpack, orjson) accepts it, so it must never reach a file or the page.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(text: str) -> bool:
    return LONE_SURROGATE.search(text) is not None


def quoted(text: str, limit: int = QUOTED_CHARACTERS) -> str:
    """`text` as a sentence may show it: at most `limit` characters ("…" where it is cut), and
    a lone surrogate as the replacement character, so that the sentence itself can be sent."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return LONE_SURROGATE.sub("\ufffd", text)


def render(message_id: str, params: Mapping[str, Any], language: str = SOURCE_LANGUAGE) -> str:
    text = template(message_id, language)
    if text is None:
        return message_id
    shown = {key: _plain(key, value, language) for key, value in params.items()}
    if language == "fr":
        text = _elide(text, shown)
    return _LanguageFormatter(language, shown).format(text, **shown)


_BEFORE_A_NAME = re.compile(r"\b([Dd]e|[Qq]ue) \{(\w+)\}")


def _elide(text: str, shown: Mapping[str, Any]) -> str:
    """French drops the vowel of "de" and "que" before a vowel: "au tour d'Ann", "le camion d'Inés"."""

    def elided(match: re.Match[str]) -> str:
        value = shown.get(match.group(2))
        if isinstance(value, str) and _starts_with_vowel(value):
            return f"{match.group(1)[:-1]}'{{{match.group(2)}}}"
        return match.group(0)

    return _BEFORE_A_NAME.sub(elided, text)


def _starts_with_vowel(word: str) -> bool:
    first = unicodedata.normalize("NFD", word[:1].casefold())[:1]
    return first in "aeiou"


class _LanguageFormatter(string.Formatter):
    """`{cubes:cube|cubes}` picks the word for the number, so templates stay whole sentences."""

    def __init__(self, language: str, params: Mapping[str, Any] | None = None) -> None:
        self.language = language
        self.params = params or {}

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Forms):
            forms = value.split("|")
            count = self.params.get(format_spec[1:]) if format_spec.startswith("#") else None
            if isinstance(count, int) and not isinstance(count, bool):
                index = plural_index(self.language)(abs(count))
            else:
                index = len(forms) - 1
            return forms[min(index, len(forms) - 1)]
        if "|" in format_spec:
            forms = format_spec.split("|")
            countable = isinstance(value, int) and not isinstance(value, bool)
            index = plural_index(self.language)(abs(value)) if countable else len(forms) - 1
            return forms[min(index, len(forms) - 1)]
        return str(super().format_field(value, format_spec))


def term_id(kind: str, value: str) -> str:
    return f"term.{kind}.{value.replace(' ', '_')}"


class Forms(str):
    """A term's forms by number ("pig|pigs"), chosen when a sentence shows it."""


def term(kind: str, value: str, language: str = SOURCE_LANGUAGE) -> str:
    """A word of the game's vocabulary ("corn", "horse", "load") in `language`; unknown words as
    they are. A word with forms by number ("pig|pigs") is given in its last form, the name."""
    found = template(term_id(kind, value), language)
    return found.split("|")[-1] if found else value


def _term_forms(kind: str, value: str, language: str) -> str:
    found = template(term_id(kind, value), language)
    if found is None:
        return value
    return Forms(found) if "|" in found else found


class Money(int):
    """An amount of money in a sentence: "$12" or "-$3" in English, "12 $" or "-3 $" in French."""


class Listed(tuple[Any, ...]):
    """Parts of a sentence shown one after the other, separated by commas ("Ann -3, Bob -2")."""


def _plain(key: str, value: Any, language: str) -> Any:
    """A sentence inside a sentence is rendered in the same language; several are joined by '; '."""
    if isinstance(value, Described):
        return value.message.text(language)
    if isinstance(value, Message):
        return value.text(language).rstrip(".")
    if isinstance(value, Money):
        amount = int(value)
        return render("money.negative" if amount < 0 else "money.amount", {"amount": abs(amount)}, language)
    if isinstance(value, Listed):
        return ", ".join(str(_plain(key, item, language)) for item in value)
    if isinstance(value, (list, tuple)) and value and all(isinstance(item, Message) for item in value):
        return "; ".join(_plain(key, item, language) for item in value)
    if isinstance(value, (list, tuple)):
        return join_names([LONE_SURROGATE.sub("\ufffd", str(item)) for item in value], language)
    if isinstance(value, str):
        # Whatever a parameter holds, the sentence must be sendable: never a lone surrogate.
        return _term_forms(key, LONE_SURROGATE.sub("\ufffd", value), language)
    return value


def join_names(names: list[str], language: str = SOURCE_LANGUAGE) -> str:
    """'Ann, Bob and Cy'; 'Ann, Bob et Cy'; 'Ann, Bob y Cy' (and 'Ana e Inés': Spanish 'y' before an i sound)."""
    if len(names) <= 1:
        return "".join(names)
    last = names[-1]
    word = template("list.and", language) or "and"
    if language == "es" and _starts_with_i_sound(last):
        word = "e"
    return ", ".join(names[:-1]) + f" {word} " + last


def _starts_with_i_sound(word: str) -> bool:
    lowered = word.casefold()
    return lowered.startswith(("i", "í", "hi", "hí")) and not lowered.startswith(("hia", "hie", "hio", "hiu"))


@dataclass(frozen=True)
class Message:
    id: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, language: str = SOURCE_LANGUAGE) -> str:
        return render(self.id, self.params, language)

    def __str__(self) -> str:
        return self.text()


class Described(str):
    """A value told in words ("an empty text", "a list"): the English text, which a sentence
    shows in its own language."""

    message: Message

    def __new__(cls, message_id: str, **params: Any) -> Described:
        message = Message(message_id, params)
        described = super().__new__(cls, message.text())
        described.message = message
        return described


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
        "list.and": "and",
        "money.amount": "${amount}",
        "money.negative": "-${amount}",
        "label.named": "{name}",
        "event.not_a_dict": "An event must be a set of named fields, not {value}.",
        "event.no_type": "The event has no 'type'; allowed types: {allowed}.",
        "event.unknown_type": "Unknown event type '{type}'; allowed types: {allowed}.",
        "event.missing_field": "The {type} event is missing '{field}'.",
        "event.extra_field": "The {type} event has an unexpected field '{field}'.",
        "event.nothing_to_override": "Nothing in this {type} goes against a rule; record it without 'override'.",
        "event.overridden": "{sentence} — recorded against the rule: {reasons}",
        "data.too_deep": "This {what} is nested more than {limit} levels deep; no real {what} is.",
        "data.too_big": "This {what} is far larger than any the app writes.",
        "term.what.event": "event",
        "term.what.list_of_players": "list of players",
        "term.what.set_of_options": "set of options",
        "term.what.saved_session": "saved session",
        "field.int": "'{field}' must be a whole number from {low} to {high}, not {value}.",
        "field.int_min": "'{field}' must be a whole number of at least {low}, not {value}.",
        "field.bool": "'{field}' must be true or false, not {value}.",
        "field.choice": "'{field}' must be one of {allowed}, not {value}.",
        "field.text": "'{field}' must be a text of 1 to {high} characters, not {value}.",
        "field.text_broken": "'{field}' holds a broken character (half of a pair) that cannot be saved; type it again.",
        "field.player": "'{field}' must name a player of this game ({allowed}), not {value}.",
        "field.per_player": "'{field}' must give a number for each player ({allowed}).",
        "field.per_player_extra": "'{field}' names {value}, who is not a player of this game.",
        "field.of_player": "{field} of {player}",
        "value.empty_text": "an empty text",
        "value.nothing": "nothing",
        "value.true": "true",
        "value.false": "false",
        "value.huge": "a number of more than {digits} digits",
        "value.list": "a list",
        "value.named_fields": "a set of named fields",
        "value.of_type": "a value of type {type}",
        "game.over": "The game is over; no more {type} events can be recorded.",
        "game.unknown": "Unknown game {game}; known games: {allowed}.",
        "game.log.stopped": "The game was stopped: {note}",
        "game.event.end_game": "Stop the game",
        "game.field.note": "Why",
        "game.field.player": "Player",
        "game.status.in_progress": "in progress",
        "game.status.won": "{players} won {score}",
        "game.status.shared": "{players} shared the win {score}",
        "game.status.points": "with {count} {count:point|points}",
        "game.status.money": "({money})",
        "players.not_a_list": "The players must be a list of names.",
        "players.count": "{title} is for {low} to {high} players, not {count}.",
        "players.count_exact": "{title} is for exactly {low} players, not {count}.",
        "players.name_empty": "A player's name cannot be empty.",
        "players.name_long": "The name '{name}' is longer than {high} characters.",
        "players.name_type": "A player's name must be text, not {value}.",
        "players.name_control": "A player's name cannot hold a control character ({code} in '{name}').",
        "players.name_bidi": "A player's name cannot hold a text-direction control ({code} in '{name}').",
        "players.name_broken": "The name '{name}' holds a broken character (half of a pair) that cannot be saved.",
        "players.duplicate": "Two players are called '{name}'; each name must be different.",
        "options.not_a_dict": "The options must be a set of named values.",
        "options.unknown": "Unknown option '{option}' for {title}; allowed: {allowed}.",
        "options.colours": "The players' colours must name a colour per player, from {allowed}.",
        "options.colour_player": "A colour is given to {value}, who is not a player of this game ({players}).",
        "options.colour_unknown": "{player}'s colour must be one of {allowed}, not {value}.",
        "options.colour_twice": "{first} and {second} cannot both be {colour}: each player has a colour of their own.",
        "game.log.drawn": "{player} was drawn at random to play first.",
        "term.colour.red": "red",
        "term.colour.blue": "blue",
        "term.colour.green": "green",
        "term.colour.purple": "purple",
        "term.colour.orange": "orange",
        "term.colour.teal": "teal",
        "turn.not_yours": "It is {current}'s turn, not {player}'s.",
        "session.bad_data": "This saved session cannot be read: {reason}.",
        "session.bad_event": "This saved session cannot be read: event {number} was refused ({reason}).",
        "session.nothing_to_undo": "There is nothing to undo.",
        "session.nothing_to_redo": "There is nothing to redo.",
        "session.stale": "This game changed on another screen; nothing was recorded.",
    },
)

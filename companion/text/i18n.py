"""Which language the app speaks, and the words of the screens in it.

The language is the first of: `companion --lang`, the one chosen in Settings (remembered),
the device's preferred languages (Flet's page locale), the environment (`LANGUAGE`,
`LC_ALL`, `LC_MESSAGES`, `LANG`, in POSIX order), then English. Only the languages with
a catalogue count; "fr_CA.UTF-8" and "es-419" are French and Spanish.

Money is written as each language's tables write it, from the catalogue's `money`
entries: "$12" in English, "12 $" in French and Spanish (Spain's order: the sign after
the amount, joined by a no-break space so it never wraps away).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from companion.text import ui_text  # noqa: F401  (registers the screens' words that `t` shows)
from companion.text.messages import LANGUAGES, SOURCE_LANGUAGE, Message, register

# POSIX: LANGUAGE (a ':'-list) wins over LC_ALL, which wins over LC_MESSAGES, then LANG.
ENVIRONMENT_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
NAMES = {"en": "English", "fr": "Français", "es": "Español"}  # each in its own language, as pickers show them


def supported(tag: str | None) -> str | None:
    """The supported language a locale tag names ("fr_FR.UTF-8", "es-419", "EN"), or None ("C", "de")."""
    if not tag:
        return None
    language = tag.replace("-", "_").split("_")[0].split(".")[0].split("@")[0].casefold()
    return language if language in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    environ = os.environ if environ is None else environ
    for name in ENVIRONMENT_VARIABLES:
        value = environ.get(name, "")
        if not value:
            continue
        if name == "LANGUAGE":
            found = next((language for part in value.split(":") if (language := supported(part))), None)
            if found:
                return found
            continue
        # A set LC_ALL or LC_MESSAGES decides, even for a language without a catalogue.
        return supported(value)
    return None


def choose(
    command_line: str | None = None,
    remembered: str | None = None,
    device: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
) -> str:
    """The language to show, from the strongest wish to the weakest (see the module's opening)."""
    for wish in (command_line, remembered, *device):
        if language := supported(wish):
            return language
    return from_environment(environ) or SOURCE_LANGUAGE


def from_accept_language(header: str) -> list[str]:
    """A browser's languages, most wanted first: "fr-CH, fr;q=0.9, en;q=0.8" gives fr-CH, fr, en."""
    wanted = []
    for position, part in enumerate(header.split(",")):
        tag, _, weight = part.strip().partition(";")
        try:
            quality = float(weight.strip().removeprefix("q=")) if weight else 1.0
        except ValueError:
            quality = 0.0
        if tag and quality > 0:
            wanted.append((-quality, position, tag.strip()))
    return [tag for _, _, tag in sorted(wanted)]


def t(message_id: str, language: str = SOURCE_LANGUAGE, **params: Any) -> str:
    """A screen's words in `language`: the same templates and catalogues as the rules' messages."""
    return Message(message_id, params).text(language)


def money(amount: int, language: str = SOURCE_LANGUAGE) -> str:
    """$12 or -$3 in English; 12 $ or -3 $ in French and Spanish."""
    if amount < 0:
        return t("money.negative", language, amount=-amount)
    return t("money.amount", language, amount=amount)


def number(value: int, language: str = SOURCE_LANGUAGE) -> str:
    """1,234 in English; 1 234 in French (a narrow no-break space); 1.234 in Spanish."""
    return f"{value:,}".replace(",", t("number.group", language))


register(
    SOURCE_LANGUAGE,
    {
        "number.group": ",",
    },
)

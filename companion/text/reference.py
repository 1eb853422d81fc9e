"""The rules reference: each game's rules in sections a screen can open at, in every language.

A section has an id ("loading", "winner"…) so a screen opens the reference where the
table is: the Load sheet at loading, an end screen at the winner and its tie-breaks.
Which sections a game has, and which one each place of the app opens, are facts of the
game (`Game.reference`, in `rules/<game>.py`), which the rules registry hands down here
(`use`): the text layer sits below the rules and imports none of them. So is the English
text, beside each game's rules (`rules/<game>_reference.py`), one template per title and
body (`reference.<game>.<section>.title` / `.body`), registered with the game's messages;
French and Spanish are in the catalogues like every other message. Here is only how a
section is read: a body is paragraphs separated by a blank line; a paragraph whose lines
start with "- " is a list.

Besides the rules, every game's reference states the decisions the app takes where the
rules are silent or disagree ("What the app decides"; the README points to them).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from companion.text.messages import SOURCE_LANGUAGE, register, template


class Described(Protocol):
    """What the reference reads of a game's reference (`rules.base.Reference`)."""

    @property
    def sections(self) -> tuple[str, ...]: ...

    def opening(self, place: str) -> str: ...


class Referenced(Protocol):
    """What the reference reads of a game (`rules.base.Game`)."""

    @property
    def reference(self) -> Described | None: ...


GAMES: Mapping[str, Referenced] = {}  # the rules registry's own mapping, once it is handed down


def use(games: Mapping[str, Referenced]) -> None:
    """Look games up in the rules registry (the mapping itself: a game added to it later is seen)."""
    global GAMES
    GAMES = games


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    paragraphs: tuple[str, ...]

    def lists(self) -> tuple[tuple[str, ...], ...]:
        """Each paragraph as its lines: one line for prose, one per item for a "- " list."""
        return tuple(tuple(paragraph.split("\n")) for paragraph in self.paragraphs)


def section_ids(game_id: str) -> tuple[str, ...]:
    """The sections of a game's reference in reading order (`Game.reference`); none for a game without one."""
    game = GAMES.get(game_id)
    return () if game is None or game.reference is None else game.reference.sections


def section(game_id: str, section_id: str, language: str = SOURCE_LANGUAGE) -> Section:
    if section_id not in section_ids(game_id):
        raise KeyError(f"{game_id} has no reference section {section_id!r}")
    title = template(f"reference.{game_id}.{section_id}.title", language) or section_id
    body = template(f"reference.{game_id}.{section_id}.body", language) or ""
    return Section(section_id, title, tuple(part.strip() for part in body.split("\n\n") if part.strip()))


def sections(game_id: str, language: str = SOURCE_LANGUAGE) -> list[Section]:
    """Every section of a game's reference, in reading order; none for a game without one."""
    return [section(game_id, section_id, language) for section_id in section_ids(game_id)]


def opening(game_id: str, place: str) -> str | None:
    """The section a place of the app opens at ("load" opens "loading"); None for a game without a reference."""
    game = GAMES.get(game_id)
    return None if game is None or game.reference is None else game.reference.opening(place)


class _Sections(Mapping[str, tuple[str, ...]]):
    """Each game's sections by game id, as the registry has them now: for screens that look
    a game's reference up by id (prefer `section_ids`)."""

    def __getitem__(self, game_id: str) -> tuple[str, ...]:
        found = section_ids(game_id)
        if not found:
            raise KeyError(game_id)
        return found

    def __iter__(self) -> Iterator[str]:
        return (game_id for game_id, game in GAMES.items() if game.reference is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


SECTIONS: Mapping[str, tuple[str, ...]] = _Sections()


register(SOURCE_LANGUAGE, {"reference.title": "Rules"})

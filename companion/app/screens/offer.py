"""What a game's screen module offers the rest of the app: its `SCREEN`, a `GameScreen`.

Spelled out as a frozen dataclass, not read off the module by name, so mypy checks each
module's functions against what the app calls them with, and a screen leaves out what it
does not have by keeping the default. A module of its own: the screen modules import it,
and the registry imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import flet as ft

    from companion.app.view import View
    from companion.session import Session

Draft = dict[str, Any]  # New game's choices so far (see `new_game.draft_of`)


@dataclass(frozen=True)
class GameScreen:
    build: Callable[[View], ft.Control]  # the game's screen
    sheet: Callable[[View], ft.DialogControl | None]  # its open sheet, if any
    result: Callable[[View], ft.Control]  # its end screen, shown again in a finished game's detail
    # New game: the options' inputs, the options they make, their line above Start (else
    # "Options below"), what the draft starts with, and whether the game draws who is first
    # itself (New game then offers no random first player).
    setup: Callable[[View, Draft], list[ft.Control]] | None = None
    setup_options: Callable[[Draft], dict[str, Any]] | None = None
    setup_summary: Callable[[View, Draft], str] | None = None
    setup_defaults: Mapping[str, Any] = field(default_factory=dict)
    draws_first: bool = False
    chart_caption: str | None = None  # what its score chart counts (a ui id); None: the final scores
    # A finished game's detail: the options it was set up with, in the words New game gives
    # them. None: no options to tell (a game's description has no words for its options).
    describe_options: Callable[[View, Session], list[str]] | None = None

"""The app's root: UI state plus the only ways a screen may change anything.

Screens are functions of (`Shell`, session) that return controls; every button calls one
of the methods here. Game changes go through `session.apply/undo/redo` only, which the
store has written to disk before they return; then the whole screen is rebuilt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.messages import RuleError
from companion.session import Session
from companion.store import StoreError

if TYPE_CHECKING:
    from companion.app.data import AppData


@dataclass
class UiState:
    screen: str = "home"  # "home", "new" or "game"
    panel: str | None = None  # an open sheet inside the screen: "log", "load", "end_round", ...
    draft: dict[str, Any] = field(default_factory=dict)  # the open sheet's inputs
    notice: str | None = None  # the last refusal or warning, in words
    notice_is_error: bool = True


class Shell:
    """Owns the page, the store and the UI state; rebuilds the screen after each change."""

    def __init__(self, page: ft.Page, store: AppData, build: Callable[[Shell], ft.Control]) -> None:
        self.page = page
        self.store = store
        self.ui = UiState()
        self.session: Session | None = None
        self._build = build
        page.pubsub.subscribe(self._on_game_changed)

    async def _on_game_changed(self, session_id: str) -> None:
        """Another tab or device changed a game: redraw if it is the one shown here."""
        if self.session is not None and self.session.id == session_id:
            self.render()

    # --- rendering ------------------------------------------------------------------

    def render(self) -> None:
        self.page.controls = [self._build(self)]
        self.page.update()

    # --- navigation -----------------------------------------------------------------

    def go_home(self) -> None:
        self._release_session()
        self.ui = UiState()
        self.store.remember_screen(None)
        self.render()

    def go_new_game(self) -> None:
        self._release_session()
        self.ui = UiState(screen="new", draft={})
        self.render()

    def open_session(self, session_id: str) -> None:
        self._release_session()
        try:
            self.session = self.store.open(session_id)
        except Exception as error:  # the store says in words why (damaged, busy, newer format)
            self.ui = UiState(notice=str(error))
            self.render()
            return
        self.ui = UiState(screen="game")
        self.store.remember_screen(session_id)
        self.render()

    def start_game(self, game: str, players: list[str], options: dict[str, Any]) -> None:
        try:
            session = self.store.new(game, players, options)
        except (RuleError, StoreError) as error:
            self.show_notice(str(error))
            return
        except OSError as error:
            self.show_notice(f"The game could not be saved: {error.strerror or error}.")
            return
        self.session = session
        self.ui = UiState(screen="game")
        self.store.remember_screen(session.id)
        self.render()

    def resume(self) -> None:
        """Land where the last run left off: the game that was open, else home."""
        last = self.store.last_screen()
        if last is not None and self.store.exists(last):
            self.open_session(last)
        else:
            self.render()

    def release(self) -> None:
        self._release_session()

    def delete_session(self, session_id: str) -> None:
        try:
            self.store.delete(session_id)
        except StoreError as error:  # open in another window, or already gone
            self.ui = UiState(notice=str(error))
            self.render()
            return
        self.ui = UiState(notice="The game was deleted.", notice_is_error=False)
        self.render()

    def _release_session(self) -> None:
        if self.session is not None and self.session.id is not None:
            self.store.close_session(self.session.id)
        self.session = None

    # --- the one write path ---------------------------------------------------------

    def check(self, event: dict[str, Any]) -> str | None:
        """Why the event would be refused now, or None when it is allowed."""
        return self.preview(event)[1]

    def preview(self, event: dict[str, Any]) -> tuple[str | None, str | None]:
        """(the sentence it would log, None) when allowed; (None, why not) when refused."""
        if self.session is None:
            return None, "No game is open."
        try:
            return str(self.session.check(event)), None
        except RuleError as error:
            return None, str(error)

    def apply(self, event: dict[str, Any], *, close_panel: bool = True) -> bool:
        """Record the event; False (and the reason shown) when it was refused or not saved."""
        assert self.session is not None
        return self._change(lambda session: session.apply(event), close_panel)

    def undo(self) -> None:
        assert self.session is not None
        if self.session.can_undo:
            self._change(lambda session: session.undo(), True)

    def redo(self) -> None:
        assert self.session is not None
        if self.session.can_redo:
            self._change(lambda session: session.redo(), True)

    def _change(self, change: Callable[[Session], object], close_panel: bool) -> bool:
        """Make one change; a refusal or a failed save is shown in words and changes nothing."""
        assert self.session is not None
        try:
            change(self.session)
        except (RuleError, StoreError) as error:
            self.show_notice(str(error))
            return False
        except OSError as error:  # the disk is full or gone: the session refused the change
            self.show_notice(f"Not saved, so not recorded: {error.strerror or error}.")
            return False
        self._after_change(close_panel)
        return True

    def _after_change(self, close_panel: bool) -> None:
        assert self.session is not None
        self.page.pubsub.send_others(self.session.id)
        self.ui.notice = None
        if close_panel:
            self.ui.panel = None
            self.ui.draft = {}
        self.render()

    # --- sheets and notices ---------------------------------------------------------

    def open_panel(self, panel: str, **draft: Any) -> None:
        self.ui.panel = panel
        self.ui.draft = dict(draft)
        self.ui.notice = None
        self.render()

    def close_panel(self) -> None:
        self.ui.panel = None
        self.ui.draft = {}
        self.render()

    def set_draft(self, *, quiet: bool = False, **values: Any) -> None:
        """Update the open sheet's inputs; `quiet` for typing, where a rebuild would fight the cursor."""
        self.ui.draft.update(values)
        if not quiet:
            self.ui.notice = None
            self.render()

    def draft_get(self, path: tuple[str, ...], default: Any) -> Any:
        node: Any = self.ui.draft
        for name in path[:-1]:
            node = node.get(name) or {}
        return node.get(path[-1], default)

    def draft_set(self, path: tuple[str, ...], value: Any) -> None:
        """Set one input of the open sheet, e.g. ("missing", "Ann"), reading the live draft."""
        node = self.ui.draft
        for name in path[:-1]:
            node = node.setdefault(name, {})
        node[path[-1]] = value
        self.ui.notice = None
        self.render()

    def show_notice(self, text: str, *, error: bool = True) -> None:
        self.ui.notice = text
        self.ui.notice_is_error = error
        self.render()

    def clear_notice(self) -> None:
        self.ui.notice = None
        self.render()

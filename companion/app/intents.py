"""The only ways a screen may change anything: one method per thing a player means.

Screens call these and never change the page's state or the store themselves. Game
changes go through `session.apply/undo/redo` only, with the version the player saw
(`stale.StaleGuard`), which the store has written to disk before they return. Every change
asks the page to be drawn again (`PageState` is observable); Flet diffs the new tree
against the old one, so controls keep their identity and the page its scroll position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.after_intents import AfterGame
from companion.app.language import LanguageChoice
from companion.app.share import Role, ShareError, display_code
from companion.app.share_glue import ShareGlue
from companion.app.stale import StaleGuard
from companion.app.state import NO_NOTICE, Look, PageState, UiState, sheet_numbers, with_value
from companion.app.sync_intents import SyncIntents
from companion.session import Session, StaleError
from companion.store import StoreError
from companion.text import i18n
from companion.text.messages import Message, RuleError

if TYPE_CHECKING:
    from companion.app.data import AppData

# How a screen without a game open for play comes back after a restart: each such screen
# registers (screen name -> reopen(intents, its remembered place)); False when it cannot.
# Here, beside the intents that call it, so that state.py need not know of them.
REOPEN: dict[str, Callable[[Intents, dict[str, Any]], bool]] = {}


class Intents:
    def __init__(
        self,
        page: ft.Page,
        state: PageState,
        data: AppData,
        *,
        share: ShareGlue,
        stale: StaleGuard,
        language: LanguageChoice,
    ) -> None:
        self.page = page
        self.state = state
        self.data = data
        self.share = share
        self.stale = stale
        self.language = language
        self.look = Look(state.language)  # the root's language and theme (state.py)
        self.after = AfterGame(self)  # after the game: detail, statistics, export, import, backups
        self.sync = SyncIntents(self)  # Settings → Sync

    # --- words ----------------------------------------------------------------------------

    def t(self, message_id: str, **params: Any) -> str:
        return i18n.t(message_id, self.state.language, **params)

    def say(self, error: Exception) -> str:
        """A refusal or a saved game's fault in the page's language (anything else as it reads)."""
        message = getattr(error, "message", None)
        return message.text(self.state.language) if isinstance(message, Message) else str(error)

    def use_language(self, language: str) -> None:
        if language != self.state.language:
            self.state.language = language
            self.language.localise_page(language)
        self.look_again()

    def look_again(self) -> None:
        """The root draws again if the language or the system's theme changed since it last drew."""
        dark = self.page.platform_brightness == ft.Brightness.DARK
        if self.look.language != self.state.language:
            self.look.language = self.state.language
        if self.look.dark != dark:
            self.look.dark = dark

    def set_language(self, language: str | None) -> None:
        """Settings: show the app in `language` from now on (None: as the device), and keep the choice."""
        self.language.choose(language)

    # --- the page -------------------------------------------------------------------------

    def redraw(self) -> None:
        """Draw the page again as it is (the theme or the window's width changed)."""
        self.look_again()
        self.state.changed()

    def text_scale_seen(self, scale: float) -> None:
        """The device's text size, as the page measured it: drawn again when it changed."""
        scale = round(min(max(scale, 0.5), 4.0), 2)
        if abs(scale - self.look.text_scale) >= 0.05:  # a sub-pixel wobble is not a new size
            self.look.text_scale = scale
            self.state.changed()

    def disconnected(self) -> None:
        self.state.connected = False

    def reconnected(self) -> None:
        """The page's socket came back (a phone woke up, a reload): show what is true now."""
        if self.state.ui.panel is not None and self.stale.changed_since_drawn:
            self._close_sheet()
        self.stale.reconnected()
        self.state.connected = True
        self.state.changed()

    def changed_elsewhere(self, session_id: str) -> None:
        """Another tab or device changed a game: drawn again if it is the one shown here."""
        session = self.state.session
        if session is not None and session.id == session_id and self.state.connected:
            self.stale.told_of_change()
            self.state.changed()

    def keep_guest_on_its_screens(self) -> None:
        """A phone is drawn the shared game or the page saying sharing stopped, nothing else
        (a game that cannot be opened there would otherwise fall back to Home, the host's list)."""
        ui = self.state.ui
        if (
            self.share.guest is not None
            and not (ui.screen == "game" and self.state.session is not None)
            and ui.screen != "stopped"
        ):
            self.state.ui = UiState(screen="stopped")

    # --- navigation -----------------------------------------------------------------------

    def go_home(self) -> None:
        if self.share.guest is not None:  # a phone follows the shared game only
            return
        self._release_session()
        self.state.ui = UiState()
        self.remember()
        self.state.changed()

    def go_new_game(self, **draft: Any) -> None:
        if self.share.guest is not None:
            return
        self._release_session()
        self.state.ui = UiState(screen="new", draft=dict(draft))

    def go_settings(self) -> None:
        self.go("settings", {})  # remembered: a restart (the phone build's, after sync is set up) comes back here

    def go(self, screen: str, where: dict[str, Any]) -> None:
        """Another screen with its place (a finished game's detail, the statistics' filters), remembered."""
        if self.share.guest is not None:
            return
        self._release_session()
        self.state.ui = UiState(screen=screen, where=dict(where))
        self.remember()
        self.state.changed()

    def choose(self, **where: Any) -> None:
        """Change the place the screen shows (a filter), remembered for the next start."""
        self.state.show(where={**self.state.ui.where, **where})
        self.remember()
        self.state.changed()

    def open_session(self, session_id: str, panel: str | None = None, draft: dict[str, Any] | None = None) -> None:
        if self.share.guest is not None and session_id != self.share.guest_game():
            return
        self._release_session()
        try:
            self.state.session = self.data.open(session_id)
        except Exception as error:  # the store says in words why (damaged, busy, newer format)
            self.state.ui = UiState(notice=self.say(error))
            self.state.changed()
            return
        ui = UiState(screen="game")
        if panel is not None:
            ui = replace(ui, panel=panel, draft=dict(draft or {}), sheet_number=next(sheet_numbers))
        self.state.ui = ui
        self.remember()
        self.state.changed()

    def start_game(self, game: str, players: list[str], options: dict[str, Any]) -> None:
        if self.share.guest is not None:
            return
        try:
            session = self.data.new(game, players, options)
        except (RuleError, StoreError) as error:
            self.show_notice(self.say(error))
            return
        except OSError as error:
            self.show_notice(self.t("ui.not_saved", reason=error.strerror or error))
            return
        self.state.session = session
        self.state.ui = UiState(screen="game")
        self.remember()
        self.state.changed()

    def play_again(self) -> None:
        """A new game of the same title with the same players (same seats) and options."""
        session = self.state.session
        if session is None or self.share.guest is not None:
            return
        game, players = session.game.id, list(session.players)
        # The same colours, but no draw: this game's first player was not drawn.
        options = {name: value for name, value in session.options.items() if name != "drawn"}
        self._release_session()
        self.start_game(game, players, options)

    def resume(self) -> None:
        """Land where the last run left off: the game (and sheet) that was open, else home."""
        if self.share.guest is not None:
            if self.state.session is None and self.state.ui.screen != "stopped":  # not followed when mounted
                self.follow_shared_game()
            return
        session_id, panel, draft = self.data.last_view()
        if session_id is not None and self.data.exists(session_id):
            self.open_session(session_id, panel, draft)
            return
        place = self.data.last_place() if session_id is None else {}
        reopen = REOPEN.get(str(place.get("name")))
        if reopen is not None and reopen(self, place) and panel is not None:
            # the sheet that was open over that screen comes back too
            self.state.show(panel=panel, draft=dict(draft), sheet_number=next(sheet_numbers))
            self.remember()
        self.state.changed()

    def release(self) -> None:
        self._release_session()
        self.share.stop_listening()

    def delete_session(self, session_id: str) -> None:
        if self.share.guest is not None:
            return
        try:
            self.data.delete(session_id)
        except StoreError as error:  # open in another window, or already gone
            self.state.ui = UiState(notice=self.say(error))
            self.state.changed()
            return
        self.state.ui = UiState(notice=self.t("ui.deleted"), notice_is_error=False)
        self.state.changed()

    def _release_session(self) -> None:
        sharing = self.share.sharing
        if self.share.guest is None and self.share.shared is not None and sharing is not None:
            sharing.stop()  # the host left the shared game: every phone is told
        session = self.state.session
        if session is not None and session.id is not None:
            self.data.close_session(session.id)
        self.state.session = None

    def remember(self) -> None:
        """Note the open game and sheet, so a reload or a restart lands on them again."""
        if self.share.guest is not None:  # a phone's page is not where the host's app was
            return
        ui, session = self.state.ui, self.state.session
        session_id = session.id if session is not None and ui.screen == "game" else None
        screen = {**ui.where, "name": ui.screen} if session_id is None and ui.screen in REOPEN else None
        self.data.remember_screen(session_id, panel=ui.panel, draft=ui.draft, screen=screen)

    def remember_habit(self, name: str, value: int) -> None:
        """A small habit of this table across games, e.g. the price it pays for corn."""
        self.data.remember(name, value)

    # --- the one write path ---------------------------------------------------------------

    def apply(self, event: dict[str, Any], *, close_panel: bool = True, tapped: str | None = None) -> bool:
        """Record the event; False (and the reason shown) when it was refused or not saved."""
        return self._change(lambda session, at: session.apply(event, at=at), close_panel, tapped, event)

    def record_anyway(self) -> None:
        """The table overrules a refusal that is its call: one more tap, never the default."""
        if self.state.ui.override is not None:
            self.apply(self.state.ui.override, close_panel=True, tapped="record-anyway")

    def undo(self, tapped: str | None = None) -> None:
        # Not guarded by `can_undo`: the screen offered Undo, and a stale one must hear so.
        self._change(lambda session, at: session.undo(at=at), True, tapped)

    def redo(self, tapped: str | None = None) -> None:
        self._change(lambda session, at: session.redo(at=at), True, tapped)

    def _change(
        self,
        change: Callable[[Session, int | None], object],
        close_panel: bool,
        tapped: str | None,
        event: dict[str, Any] | None = None,
    ) -> bool:
        """Make one change; a refusal or a failed save is shown in words and changes nothing."""
        session = self.state.session
        if session is None:
            self.show_notice(self.t("ui.closed"))
            return False
        refusal = self.share.read_only()
        if refusal is not None:  # whatever a phone's socket sends, only a scorekeeper's taps count
            self.show_notice(refusal, tapped=tapped)
            return False
        try:
            change(session, self.stale.seen_version)
        except StaleError as error:  # drawn before another screen changed the game
            self._close_sheet()
            self.show_notice(self.say(error))
            return False
        except RuleError as error:
            overrule = dict(event, override=True) if error.overridable and event is not None else None
            self.show_notice(self.say(error), tapped=tapped, override=overrule)
            return False
        except StoreError as error:
            self.show_notice(self.say(error), tapped=tapped)
            return False
        except OSError as error:  # the disk is full or gone: the session refused the change
            self.show_notice(self.t("ui.not_recorded", reason=error.strerror or error), tapped=tapped)
            return False
        self._after_change(session, close_panel)
        return True

    def _after_change(self, session: Session, close_panel: bool) -> None:
        assert session.id is not None
        if session.is_over:
            self.data.on_game_over()
        self.data.sync.poke()  # saved here already: sent in the background, soon
        self.page.pubsub.send_others(session.id)
        sharing = self.share.sharing
        if sharing is not None and sharing.relay:
            sharing.game_changed(session.id, told_by=self.share.relayed)
        self.state.show(**NO_NOTICE)
        if close_panel and self.state.ui.panel is not None:
            self._close_sheet()
            self.remember()
        self.state.changed()

    # --- sheets and notices ---------------------------------------------------------------

    def open_panel(self, panel: str, **draft: Any) -> None:
        refusal = self.share.read_only()
        if panel != "log" and refusal is not None:  # a viewer reads the log, opens no input sheet
            self.show_notice(refusal)
            return
        if panel == "archive":
            self.data.look_at_archive_folders()  # here, not while the sheet is drawn
        self.state.show(panel=panel, draft=dict(draft), sheet_number=next(sheet_numbers), **NO_NOTICE)
        self.remember()
        self.state.changed()

    def close_panel(self) -> None:
        closing = self.state.ui.panel
        self._close_sheet()
        shared = self.share.shared
        if closing == "share" and shared is not None and self.share.guest is None:
            # The sheet goes, the listening does not: the host is told so, and how to stop it.
            self.state.show(notice=self.t("ui.share.still_on", code=display_code(shared.code)), notice_is_error=False)
        self.remember()
        self.state.changed()

    def sheet_dismissed(self, sheet_number: int) -> None:
        """The user closed a sheet by tapping beside it or going back; a later sheet stays open."""
        ui = self.state.ui
        if ui.panel is not None and ui.sheet_number == sheet_number:
            self.close_panel()

    def _close_sheet(self) -> None:
        if self.state.ui.panel is not None:
            self.state.show(panel=None, draft={}, **NO_NOTICE)

    def set_draft(self, *, quiet: bool = False, **values: Any) -> None:
        """Update the open sheet's inputs; `quiet` for typing, where a redraw would fight the cursor."""
        if quiet:
            self.state.ui.draft.update(values)  # typed: see `UiState`
            return
        self.state.show(draft={**self.state.ui.draft, **values}, **NO_NOTICE)
        self._remember_draft()
        self.state.changed()  # drawn again even when nothing new is set: what was typed quietly shows

    def draft_set(self, path: tuple[str, ...], value: Any, *, quiet: bool = False) -> None:
        """Set one input of the open sheet, e.g. ("missing", "Ann"), reading the live draft;
        `quiet` for typing, where a redraw would fight the cursor."""
        if quiet:
            node = self.state.ui.draft  # typed: see `UiState`
            for name in path[:-1]:
                node = node.setdefault(name, {})
            node[path[-1]] = value
            return
        self.state.show(draft=with_value(self.state.ui.draft, path, value), **NO_NOTICE)
        self._remember_draft()
        self.state.changed()

    def forget_draft(self, *path: str) -> None:
        """Drop an input of the open sheet (quietly: what replaces it draws the sheet again)."""
        node: Any = self.state.ui.draft  # quietly, as typing (see `UiState`): what replaces it draws the sheet
        for name in path[:-1]:
            node = node.get(name)
            if not isinstance(node, dict):
                return
        node.pop(path[-1], None)

    def _remember_draft(self) -> None:
        if self.state.ui.panel is not None:
            self.remember()

    def show_notice(
        self, text: str, *, error: bool = True, tapped: str | None = None, override: dict[str, Any] | None = None
    ) -> None:
        self.state.show(notice=text, notice_is_error=error, refused=tapped, override=override)
        self.state.changed()  # the same notice again is drawn again (it was typed over meanwhile)

    def clear_notice(self) -> None:
        self.state.show(**NO_NOTICE)
        self.state.changed()

    # --- sharing with the table -----------------------------------------------------------

    def share_game(self) -> None:
        """The share sheet: before anything listens it says what sharing will do, and asks."""
        if self.share.can_share:
            self.open_panel("share")

    def start_sharing(self) -> None:
        """Open the game to the phones at the table and show its QR code."""
        session, sharing = self.state.session, self.share.sharing
        if not self.share.can_share or session is None or session.id is None or sharing is None:
            return
        try:
            sharing.start(session.id)
        except ShareError as error:
            self.show_notice(self.say(error))
            return
        self.open_panel("share")

    def stop_sharing(self) -> None:
        sharing = self.share.sharing
        if sharing is not None and self.share.guest is None:
            sharing.stop()
        if self.state.ui.panel == "share":
            self.close_panel()

    def set_guest_role(self, guest_id: str, role: Role) -> None:
        sharing = self.share.sharing
        if sharing is not None and self.share.guest is None:
            sharing.set_role(guest_id, role)

    def follow_shared_game(self) -> None:
        session_id = self.share.guest_game()
        if session_id is None:
            self.state.ui = UiState(screen="stopped")
            self.state.changed()
        else:
            self.open_session(session_id)

    async def share_changed(self) -> None:
        """Someone joined, a role changed, or sharing stopped."""
        ui, guest = self.state.ui, self.share.guest
        if guest is not None and ui.screen != "stopped" and self.share.guest_game() is None:
            self._release_session()
            self.state.ui = UiState(screen="stopped")
        elif guest is not None and ui.panel is not None and ui.panel != "log" and self.share.read_only():
            self._close_sheet()  # no longer a scorekeeper: the sheet it had open records nothing
        self.state.changed()

"""The app's root: UI state plus the only ways a screen may change anything.

Screens are functions of (`Shell`, session) that return controls; every button calls one
of the methods here. Game changes go through `session.apply/undo/redo` only, which the
store has written to disk before they return.

The page is one declarative component (`Root`): a change asks it to draw again, and Flet
diffs the new tree against the old one, so controls keep their identity and the page its
scroll position. Every change carries the version of the game the player saw: a tap on a
screen another tab or device has overtaken records nothing and says so. When another
screen changed the game, this page is redrawn at once, but the version counts as seen
only once the browser has answered a question sent after the redraw: a tap it sent
before (aimed at the old screen) arrives first and is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import flet as ft
from flet.controls.context import _context_page

from companion import i18n
from companion.app.share import Role, Share, ShareError, Sharing
from companion.messages import LANGUAGES, Message, RuleError
from companion.session import Session, StaleError
from companion.store import StoreError

if TYPE_CHECKING:
    from companion.app.data import AppData

_sheet_numbers = itertools.count(1)
# Settings' language, kept among the table's habits (numbers) as its place in LANGUAGES; -1 follows the device.
LANGUAGE_HABIT = "language"
VIEWER_REFUSAL = i18n.t("ui.share.viewer")  # in English; a page says it in its own language
FOLLOW_DEVICE = -1
SEEN_TIMEOUT_S = 3  # a browser that does not answer is taken to show the redraw after this

# Every sheet is the same dialog to Flet, whatever it shows: the key names the slot, not the
# sheet. Flet 1.0.5's `use_dialog` diffs a redrawn dialog against the one shown; when their
# keys differ (Load -> Rules, Log -> Stop game) the diff replaces the whole dialog and sends
# that patch to the *new* dialog's id, which the client was never sent: Flutter drops it,
# the browser keeps the old sheet, and the server no longer knows the buttons on it
# (flet/components/hooks/use_dialog.py with object_patch's `keys_match`). With one key, a
# sheet that leads to another is patched in place, so the client always shows the open one.
SHEET_SLOT = "sheet"


@dataclass
class UiState:
    screen: str = "home"  # "home", "new", "settings", "game", or "stopped" (a phone whose share ended)
    panel: str | None = None  # the open sheet: "log", "load", "end_round", ...
    draft: dict[str, Any] = field(default_factory=dict)  # the open sheet's (or screen's) inputs
    notice: str | None = None  # the last refusal or warning, in words
    notice_is_error: bool = True
    refused: str | None = None  # the key of the control whose tap was refused, marked where it is
    override: dict[str, Any] | None = None  # the refused event the table may record anyway (its call)
    sheet_number: int = 0  # tells a sheet apart from the next one opened under the same name
    where: dict[str, Any] = field(default_factory=dict)  # a screen's place: the game a detail shows, the filters


# How a screen without a game open for play comes back after a restart: each such screen
# registers (screen name -> reopen(shell, its remembered place)); False when it cannot.
REOPEN: dict[str, Callable[[Shell, dict[str, Any]], bool]] = {}


@ft.component
def Root(shell: Shell) -> ft.Control:
    """The whole page: the screen, and the open sheet as a dialog on top of it."""
    _, set_draws = ft.use_state(0)
    shell.request_draw = lambda: set_draws(lambda draws: draws + 1)
    drawn = (shell.session.id, shell.session.version) if shell.session is not None else None
    shell.drawn_version = drawn[1] if drawn is not None else None
    shell.keep_guest_on_its_screens()
    view = shell.build_screen(shell)
    sheet = shell.build_sheet(shell)
    if sheet is not None:
        sheet.key = SHEET_SLOT  # one dialog slot, whichever sheet is in it
    ft.use_dialog(sheet)
    ft.use_effect(lambda: shell.shown(drawn), [drawn])  # effects run once the patch is sent
    return view


class Shell:
    """Owns the page, the store and the UI state; asks the page to draw again after each change."""

    def __init__(
        self,
        page: ft.Page,
        store: AppData,
        build: Callable[[Shell], ft.Control],
        sheet: Callable[[Shell], ft.DialogControl | None] = lambda shell: None,
        *,
        sharing: Sharing | None = None,
        guest: str | None = None,
        language: str | None = None,
    ) -> None:
        self.page = page
        self.store = store
        self.ui = UiState()
        self.session: Session | None = None
        self.build_screen = build
        self.build_sheet = sheet
        self.request_draw: Callable[[], None] | None = None
        self.drawn_version: int | None = None  # the game's version last drawn (sent to the page)
        self.seen_version: int | None = None  # the version the player is known to see: taps act on it
        self._told_of_change = False
        self._confirming: set[asyncio.Task[None]] = set()
        self.connected = True  # False while the page's socket is gone; it is redrawn when it comes back
        self.sharing: Any = None  # the table's Sharing, when this process offers one
        self.command_line_language = i18n.supported(language)
        self.device_languages: list[str] = []
        self.language = self.pick_language()
        page.pubsub.subscribe(self._on_game_changed)
        self.sharing = sharing
        # Flet finds the page a redraw belongs to in a context variable: work this page is
        # told of by another page's tap (sharing changed) must run in this page's context.
        self._context = contextvars.copy_context()
        self.guest = guest  # a joined phone's id (it follows the shared game only); None: the host's page
        self._stop_hearing = sharing.subscribe(self._on_share_changed) if sharing is not None else None
        self._stop_relay = sharing.subscribe_games(self._relayed) if sharing is not None else None

    async def _on_game_changed(self, session_id: str) -> None:
        """Another tab or device changed a game: redraw if it is the one shown here."""
        # Flet runs this in a task copied from the sender's context, whose current page is the
        # sender's: a redraw scheduled from there would go out on the other tab's connection.
        _context_page.set(self.page)  # type: ignore[arg-type]  # declared ContextVar[None] in flet
        if self.session is not None and self.session.id == session_id and self.connected:
            self._told_of_change = True
            self.render()

    def shown(self, drawn: tuple[str | None, int] | None) -> None:
        """A new version of the game was drawn and sent to the page."""
        if drawn is None:
            self.seen_version = None
        elif self._told_of_change:
            self._told_of_change = False
            task = asyncio.get_running_loop().create_task(self._confirm_seen(drawn))
            self._confirming.add(task)  # held until done: the loop keeps only a weak reference
            task.add_done_callback(self._confirming.discard)
        else:  # drawn after this page's own tap, or a new game opened here
            self.seen_version = drawn[1]

    async def _confirm_seen(self, drawn: tuple[str | None, int]) -> None:
        """The browser handles messages in order: its answer comes after it applied the redraw."""
        # No answer (or none it can give): take it as seen; a reconnect sends the whole page anyway.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.page.get_device_info(), SEEN_TIMEOUT_S)
        if self.session is not None and self.session.id == drawn[0]:
            self.seen_version = max(self.seen_version or 0, drawn[1])

    # --- language -------------------------------------------------------------------

    @property
    def chosen_language(self) -> str | None:
        """The language picked in Settings, or None to follow the device."""
        index = self.store.recall(LANGUAGE_HABIT)
        return LANGUAGES[index] if index is not None and 0 <= index < len(LANGUAGES) else None

    @property
    def device_language(self) -> str:
        return i18n.choose(device=self.device_languages)

    def pick_language(self) -> str:
        return i18n.choose(self.command_line_language, self.chosen_language, self.device_languages)

    def set_language(self, language: str | None) -> None:
        """Settings: show the app in `language` from now on (None: as the device), and keep the choice."""
        self.store.remember(LANGUAGE_HABIT, FOLLOW_DEVICE if language is None else LANGUAGES.index(language))
        self.command_line_language = None  # the table's own choice outranks how the app was started
        self._use_language(self.pick_language())

    def device_locales(self, locales: list[Any]) -> None:
        """The device's preferred languages (Flet's locales), in order; the app follows them unless told otherwise."""
        self.device_languages = [locale.language_code for locale in locales]
        self._use_language(self.pick_language())

    async def learn_device_locales(self) -> None:
        # Some clients never answer (a test client, an old browser): the app stays as it is.
        with contextlib.suppress(Exception):
            info = await asyncio.wait_for(self.page.get_device_info(), SEEN_TIMEOUT_S)
            self.device_locales(list(info.locales))

    def _use_language(self, language: str) -> None:
        if language != self.language:
            self.language = language
            self.localise_page()
            self.render()

    def localise_page(self) -> None:
        """Flutter's own words (a text field's "30 characters remaining") in the page's language too."""
        self.page.locale_configuration = ft.LocaleConfiguration(
            supported_locales=[ft.Locale(language) for language in LANGUAGES], current_locale=ft.Locale(self.language))
        with contextlib.suppress(Exception):  # a page not yet (or no longer) connected takes it with the next patch
            self.page.update()

    def t(self, message_id: str, **params: Any) -> str:
        """A screen's words in the page's language."""
        return i18n.t(message_id, self.language, **params)

    def say(self, error: Exception) -> str:
        """A refusal or a saved game's fault in the page's language (anything else as it reads)."""
        message = getattr(error, "message", None)
        return message.text(self.language) if isinstance(message, Message) else str(error)

    # --- rendering ------------------------------------------------------------------

    @property
    def dark(self) -> bool:
        """Whether the page shows the dark theme (it follows the system's setting)."""
        return self.page.platform_brightness == ft.Brightness.DARK

    def mount(self) -> None:
        if self.guest is not None:  # before the first draw: a phone's first frame is the shared game
            self._follow_shared_game()
        self.localise_page()
        self.page.render(Root, self)

    def keep_guest_on_its_screens(self) -> None:
        """A phone is drawn the shared game or the page saying sharing stopped, nothing else
        (a game that cannot be opened there would otherwise fall back to Home, the host's list)."""
        if self.guest is not None and not (self.ui.screen == "game" and self.session is not None) \
                and self.ui.screen != "stopped":
            self.ui = UiState(screen="stopped")

    def render(self) -> None:
        if self.request_draw is not None:
            self.request_draw()

    def disconnected(self) -> None:
        self.connected = False

    def reconnected(self) -> None:
        """The page's socket came back (a phone woke up, a reload): show what is true now."""
        if self.session is not None and self.ui.panel is not None and self.drawn_version != self.session.version:
            self._close_sheet()
        self.connected = True
        self.seen_version = self.drawn_version  # the whole page was sent again, as last drawn
        if self.session is not None and self.drawn_version != self.session.version:
            self._told_of_change = True  # changed while away: the redraw counts once the browser shows it
        self.render()

    # --- navigation -----------------------------------------------------------------

    def go_home(self) -> None:
        if self.guest is not None:  # a phone follows the shared game only
            return
        self._release_session()
        self.ui = UiState()
        self.remember()
        self.render()

    def go_new_game(self, **draft: Any) -> None:
        if self.guest is not None:
            return
        self._release_session()
        self.ui = UiState(screen="new", draft=dict(draft))
        self.render()

    def go_settings(self) -> None:
        self._release_session()
        self.ui = UiState(screen="settings")
        self.render()

    def open_session(self, session_id: str, panel: str | None = None, draft: dict[str, Any] | None = None) -> None:
        if self.guest is not None and session_id != self._guest_game():
            return
        self._release_session()
        try:
            self.session = self.store.open(session_id)
        except Exception as error:  # the store says in words why (damaged, busy, newer format)
            self.ui = UiState(notice=self.say(error))
            self.render()
            return
        self.ui = UiState(screen="game")
        if panel is not None:
            self.ui.panel, self.ui.draft, self.ui.sheet_number = panel, dict(draft or {}), next(_sheet_numbers)
        self.remember()
        self.render()

    def start_game(self, game: str, players: list[str], options: dict[str, Any]) -> None:
        if self.guest is not None:
            return
        try:
            session = self.store.new(game, players, options)
        except (RuleError, StoreError) as error:
            self.show_notice(self.say(error))
            return
        except OSError as error:
            self.show_notice(self.t("ui.not_saved", reason=error.strerror or error))
            return
        self.session = session
        self.ui = UiState(screen="game")
        self.remember()
        self.render()

    def play_again(self) -> None:
        """A new game of the same title with the same players (same seats) and options."""
        if self.session is None or self.guest is not None:
            return
        game, players, options = self.session.game.id, list(self.session.players), dict(self.session.options)
        self._release_session()
        self.start_game(game, players, options)

    def resume(self) -> None:
        """Land where the last run left off: the game (and sheet) that was open, else home."""
        if self.guest is not None:
            if self.session is None and self.ui.screen != "stopped":  # not followed when mounted
                self._follow_shared_game()
            return
        session_id, panel, draft = self.store.last_view()
        if session_id is not None and self.store.exists(session_id):
            self.open_session(session_id, panel, draft)
            return
        place = self.store.last_place() if session_id is None else {}
        reopen = REOPEN.get(str(place.get("name")))
        if reopen is not None and reopen(self, place):
            if panel is not None:
                self.ui.panel, self.ui.draft, self.ui.sheet_number = panel, dict(draft), next(_sheet_numbers)
                self.remember()
            self.render()
            return
        self.render()

    def release(self) -> None:
        self._release_session()
        for stop in (self._stop_hearing, self._stop_relay):
            if stop is not None:
                stop()
        self._stop_hearing = self._stop_relay = None

    def delete_session(self, session_id: str) -> None:
        if self.guest is not None:
            return
        try:
            self.store.delete(session_id)
        except StoreError as error:  # open in another window, or already gone
            self.ui = UiState(notice=self.say(error))
            self.render()
            return
        self.ui = UiState(notice=self.t("ui.deleted"), notice_is_error=False)
        self.render()

    def _release_session(self) -> None:
        if self.guest is None and self.shared is not None and self.sharing is not None:
            self.sharing.stop()  # the host left the shared game: every phone is told
        if self.session is not None and self.session.id is not None:
            self.store.close_session(self.session.id)
        self.session = None

    def remember(self) -> None:
        """Note the open game and sheet, so a reload or a restart lands on them again."""
        if self.guest is not None:  # a phone's page is not where the host's app was
            return
        session_id = self.session.id if self.session is not None and self.ui.screen == "game" else None
        screen = {**self.ui.where, "name": self.ui.screen} if session_id is None and self.ui.screen in REOPEN else None
        self.store.remember_screen(session_id, panel=self.ui.panel, draft=self.ui.draft, screen=screen)

    # --- the one write path ---------------------------------------------------------

    def check(self, event: dict[str, Any]) -> str | None:
        """Why the event would be refused now, or None when it is allowed."""
        return self.preview(event)[1]

    def preview(self, event: dict[str, Any]) -> tuple[str | None, str | None]:
        """(the sentence it would log, None) when allowed; (None, why not) when refused."""
        sentence, refusal, _ = self.verdict(event)
        return sentence, refusal

    def verdict(self, event: dict[str, Any]) -> tuple[str | None, str | None, bool]:
        """Like `preview`, and whether a refusal is the table's call (it may record anyway)."""
        if self.session is None:
            return None, self.t("ui.no_game_open"), False
        try:
            return self.session.check(event).text(self.language), None, False
        except RuleError as error:
            return None, self.say(error), error.overridable

    def apply(self, event: dict[str, Any], *, close_panel: bool = True, tapped: str | None = None) -> bool:
        """Record the event; False (and the reason shown) when it was refused or not saved."""
        return self._change(lambda session, at: session.apply(event, at=at), close_panel, tapped, event)

    def record_anyway(self) -> None:
        """The table overrules a refusal that is its call: one more tap, never the default."""
        if self.ui.override is not None:
            self.apply(self.ui.override, close_panel=True, tapped="record-anyway")

    def undo(self, tapped: str | None = None) -> None:
        # Not guarded by `can_undo`: the screen offered Undo, and a stale one must hear so.
        self._change(lambda session, at: session.undo(at=at), True, tapped)

    def redo(self, tapped: str | None = None) -> None:
        self._change(lambda session, at: session.redo(at=at), True, tapped)

    def _change(self, change: Callable[[Session, int | None], object], close_panel: bool,
                tapped: str | None, event: dict[str, Any] | None = None) -> bool:
        """Make one change; a refusal or a failed save is shown in words and changes nothing."""
        if self.session is None:
            self.show_notice(self.t("ui.closed"))
            return False
        refusal = self.read_only()
        if refusal is not None:  # whatever a phone's socket sends, only a scorekeeper's taps count
            self.show_notice(refusal, tapped=tapped)
            return False
        try:
            change(self.session, self.seen_version)
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
        self._after_change(close_panel)
        return True

    def _after_change(self, close_panel: bool) -> None:
        assert self.session is not None and self.session.id is not None
        self.page.pubsub.send_others(self.session.id)
        if self.sharing is not None and self.sharing.relay:
            self.sharing.game_changed(self.session.id, told_by=self._relayed)
        self.ui.notice = self.ui.refused = self.ui.override = None
        if close_panel and self.ui.panel is not None:
            self._close_sheet()
            self.remember()
        self.render()

    # --- sheets and notices ---------------------------------------------------------

    def open_panel(self, panel: str, **draft: Any) -> None:
        if panel != "log" and self.read_only() is not None:  # a viewer reads the log, opens no input sheet
            self.show_notice(self.read_only() or "")
            return
        self.ui.panel = panel
        self.ui.draft = dict(draft)
        self.ui.sheet_number = next(_sheet_numbers)
        self.ui.notice = self.ui.refused = self.ui.override = None
        self.remember()
        self.render()

    def close_panel(self) -> None:
        self._close_sheet()
        self.remember()
        self.render()

    def sheet_dismissed(self, sheet_number: int) -> None:
        """The user closed a sheet by tapping beside it or going back; a later sheet stays open."""
        if self.ui.panel is not None and self.ui.sheet_number == sheet_number:
            self.close_panel()

    def _close_sheet(self) -> None:
        if self.ui.panel is not None:
            self.ui.panel = None
            self.ui.draft = {}
            self.ui.notice = self.ui.refused = self.ui.override = None

    def set_draft(self, *, quiet: bool = False, **values: Any) -> None:
        """Update the open sheet's inputs; `quiet` for typing, where a redraw would fight the cursor."""
        self.ui.draft.update(values)
        if not quiet:
            self.ui.notice = self.ui.refused = self.ui.override = None
            self._remember_draft()
            self.render()

    def draft_get(self, path: tuple[str, ...], default: Any) -> Any:
        node: Any = self.ui.draft
        for name in path[:-1]:
            node = node.get(name) or {}
        return node.get(path[-1], default)

    def draft_set(self, path: tuple[str, ...], value: Any, *, quiet: bool = False) -> None:
        """Set one input of the open sheet, e.g. ("missing", "Ann"), reading the live draft;
        `quiet` for typing, where a redraw would fight the cursor."""
        node = self.ui.draft
        for name in path[:-1]:
            node = node.setdefault(name, {})
        node[path[-1]] = value
        if quiet:
            return
        self.ui.notice = self.ui.refused = self.ui.override = None
        self._remember_draft()
        self.render()

    def _remember_draft(self) -> None:
        if self.ui.panel is not None:
            self.remember()

    def show_notice(self, text: str, *, error: bool = True, tapped: str | None = None,
                    override: dict[str, Any] | None = None) -> None:
        self.ui.notice = text
        self.ui.notice_is_error = error
        self.ui.refused = tapped
        self.ui.override = override
        self.render()

    def clear_notice(self) -> None:
        self.ui.notice = self.ui.refused = self.ui.override = None
        self.render()

    # --- sharing with the table -----------------------------------------------------

    @property
    def can_share(self) -> bool:
        """Whether this page may share its game: the host's page of an app that has a web door."""
        return self.guest is None and self.sharing is not None and self.sharing.listener is not None

    @property
    def shared(self) -> Share | None:
        """The share of the game on this page, if it is shared."""
        share = self.sharing.current if self.sharing is not None else None
        if share is None or self.session is None or share.session_id != self.session.id:
            return None
        return share

    def read_only(self) -> str | None:
        """Why this page may not change the game (a phone that only follows it), or None."""
        if self.guest is None or (self.sharing is not None and self.sharing.may_write(self.guest)):
            return None
        return self.t("ui.share.viewer")

    def share_game(self) -> None:
        """Open the game to the phones at the table and show the sheet with its QR code."""
        if not self.can_share or self.session is None or self.session.id is None:
            return
        assert self.sharing is not None
        try:
            self.sharing.start(self.session.id)
        except ShareError as error:
            self.show_notice(self.say(error))
            return
        self.open_panel("share")

    def stop_sharing(self) -> None:
        if self.sharing is not None and self.guest is None:
            self.sharing.stop()
        if self.ui.panel == "share":
            self.close_panel()

    def set_guest_role(self, guest_id: str, role: Role) -> None:
        if self.sharing is not None and self.guest is None:
            self.sharing.set_role(guest_id, role)

    def _guest_game(self) -> str | None:
        return self.sharing.shared_game(self.guest) if self.sharing is not None else None

    def _follow_shared_game(self) -> None:
        session_id = self._guest_game()
        if session_id is None:
            self.ui = UiState(screen="stopped")
            self.render()
        else:
            self.open_session(session_id)

    def _on_share_changed(self) -> None:
        """Someone joined, a role changed, or sharing stopped: told from any thread or page."""
        session = getattr(self.page, "session", None)
        if session is None or session.connection is None:  # its socket is gone: drawn whole if it comes back
            return
        with contextlib.suppress(RuntimeError):  # the server is stopping: this page's loop is gone
            self._context.copy().run(self.page.run_task, self._share_changed)

    async def _share_changed(self) -> None:
        if self.guest is not None and self.ui.screen != "stopped" and self._guest_game() is None:
            self._release_session()
            self.ui = UiState(screen="stopped")
        elif self.guest is not None and self.ui.panel is not None and self.ui.panel != "log" and self.read_only():
            self._close_sheet()  # no longer a scorekeeper: the sheet it had open records nothing
        self.render()

    def _relayed(self, session_id: str) -> None:
        """A change passed on by `Sharing` (pages served apart from this one)."""
        with contextlib.suppress(RuntimeError):
            self._context.copy().run(self.page.run_task, self._on_game_changed, session_id)

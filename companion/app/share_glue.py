"""Between a page and the table's `Sharing` (share.py): who this page is (the host, or a
phone that joined, and whether it keeps score), and what it hears from the other pages.

Flet finds the page a redraw belongs to in a context variable, so work this page is told
of by another page's tap (sharing changed, a game changed) runs in this page's context.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Awaitable, Callable
from typing import Protocol

import flet as ft

from companion.app.flet_private import set_context_page
from companion.app.share import Share, Sharing
from companion.app.state import PageState
from companion.text import i18n

VIEWER_REFUSAL = i18n.t("ui.share.viewer")  # in English; a page says it in its own language


class Listener(Protocol):
    """What the glue tells the page (its `intents.Intents`, which build on this module)."""

    def changed_elsewhere(self, session_id: str) -> None: ...

    async def share_changed(self) -> None: ...


class ShareGlue:
    def __init__(self, page: ft.Page, state: PageState, sharing: Sharing | None, guest: str | None) -> None:
        self.page = page
        self.state = state
        self.sharing = sharing
        self.guest = guest  # a joined phone's id (it follows the shared game only); None: the host's page
        self._context = contextvars.copy_context()
        self._stops: list[Callable[[], None]] = []
        self._intents: Listener | None = None

    def listen(self, intents: Listener) -> None:
        """Hear the table from now on: roles and shares changing, games changed on other pages."""
        self._intents = intents
        self.page.pubsub.subscribe(self._game_changed)
        if self.sharing is not None:
            self._stops = [self.sharing.subscribe(self._share_changed), self.sharing.subscribe_games(self.relayed)]

    def stop_listening(self) -> None:
        for stop in self._stops:
            stop()
        self._stops = []

    # --- who this page is ----------------------------------------------------------------

    @property
    def can_share(self) -> bool:
        """Whether this page may share its game: the host's page of an app that has a web door."""
        return self.guest is None and self.sharing is not None and self.sharing.listener is not None

    @property
    def shared(self) -> Share | None:
        """The share of the game on this page, if it is shared."""
        share = self.sharing.current if self.sharing is not None else None
        session = self.state.session
        if share is None or session is None or share.session_id != session.id:
            return None
        return share

    def read_only(self) -> str | None:
        """Why this page may not change the game (a phone that only follows it), or None."""
        if self.guest is None or (self.sharing is not None and self.sharing.may_write(self.guest)):
            return None
        return i18n.t("ui.share.viewer", self.state.language)

    def guest_game(self) -> str | None:
        return self.sharing.shared_game(self.guest) if self.sharing is not None and self.guest else None

    # --- what it hears -------------------------------------------------------------------

    async def _game_changed(self, session_id: str) -> None:
        """Another tab or device changed a game: drawn again if it is the one shown here."""
        # Flet runs this in a task copied from the sender's context, whose current page is the
        # sender's: a redraw scheduled from there would go out on the other tab's connection.
        set_context_page(self.page)
        if self._intents is not None:
            self._intents.changed_elsewhere(session_id)

    def _share_changed(self) -> None:
        """Someone joined, a role changed, or sharing stopped: told from any thread or page."""
        session = getattr(self.page, "session", None)
        if session is None or session.connection is None:  # its socket is gone: drawn whole if it comes back
            return
        if self._intents is not None:
            self._run(self._intents.share_changed)

    def relayed(self, session_id: str) -> None:
        """A change passed on by `Sharing` (pages served apart from this one)."""
        self._run(self._game_changed, session_id)

    def _run(self, work: Callable[..., Awaitable[None]], *args: str) -> None:
        with contextlib.suppress(RuntimeError):  # the server is stopping: this page's loop is gone
            self._context.copy().run(self.page.run_task, work, *args)

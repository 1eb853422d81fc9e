"""The stale-screen protocol: a tap acts on the version of the game its screen showed.

Every change carries the version of the game the player saw (`at`): a tap on a screen
another tab or phone has overtaken records nothing and says so (`StaleError`). A version
counts as seen when the page drew it after its own tap; when another screen changed the
game, this page is drawn again at once, but the version counts as seen only once the
browser has answered a question sent after the redraw: a tap it sent before (aimed at the
old screen) arrives first and is refused.
"""

from __future__ import annotations

import asyncio
import contextlib

import flet as ft

from companion.session import Session

SEEN_TIMEOUT_S = 3  # a browser that does not answer is taken to show the redraw after this

Drawn = tuple[str | None, int] | None  # (game id, version) as last drawn, None with no game open


class StaleGuard:
    def __init__(self, page: ft.Page) -> None:
        self.page = page
        self.drawn_version: int | None = None  # the game's version last drawn (sent to the page)
        self.seen_version: int | None = None  # the version the player is known to see: taps act on it
        self._told_of_change = False
        self._confirming: set[asyncio.Task[None]] = set()
        self._session: Session | None = None

    def drawing(self, session: Session | None) -> Drawn:
        """The page is being drawn with this game (at its version now)."""
        self._session = session
        drawn = (session.id, session.version) if session is not None else None
        self.drawn_version = drawn[1] if drawn is not None else None
        return drawn

    @property
    def changed_since_drawn(self) -> bool:
        session = self._session
        return session is not None and self.drawn_version != session.version

    def told_of_change(self) -> None:
        """Another tab or phone changed the game shown here; the redraw that follows counts once seen."""
        self._told_of_change = True

    def shown(self, drawn: Drawn) -> None:
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
        if self._session is not None and self._session.id == drawn[0]:
            self.seen_version = max(self.seen_version or 0, drawn[1])

    def reconnected(self) -> None:
        """The whole page was sent again, as last drawn; a game changed while away counts once seen."""
        self.seen_version = self.drawn_version
        if self.changed_since_drawn:
            self._told_of_change = True

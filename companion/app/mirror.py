"""Phones that only watch the shared game are drawn once for all of them.

Every page of Flet 1.0 keeps a control tree of its own, so six phones watching the table's
game each drew and diffed the same screen after every tap (about 3 ms of the server's CPU
per phone, per tap). Here the phones that look alike (they only follow the game, in one
language and theme, at one layout) share one drawing: a `Lead` is a page with no browser,
drawn as such a phone would be, and each `Follower` page shows the lead's tree in its own
view. The lead's patches are encoded once and the same bytes go to every follower: ids of
Flet's controls need only be unique within one client, and each follower's client holds
the lead's.

A follower leaves the group (`fork`) as soon as it is anything but alike: its own tap (the
log, the rules), a sheet, a new role, another language, theme or layout. It is then drawn
as its own page, as every page was before, its controls taking the ids of the lead's it
matches (so the client keeps what it holds: a scrolled list stays put), and the tap it made
is passed to the same button (by key) of its own drawing. A follower whose socket came back
is sent the lead's tree again, as Flet sends a page whole when it reconnects; one drawn as
its own since then follows a lead again if it is alike.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.controls.object_patch import Operation
from flet.messaging.connection import Connection
from flet.messaging.protocol import Message, MessageAction, PatchControlBody, configure_encode_object_for_msgpack
from flet.messaging.session import Session

from companion.app.flet_diff import walked_fields
from companion.app.share import Sharing
from companion.app.share_glue import ShareGlue
from companion.app.stale import Drawn, StaleGuard
from companion.app.widgets import WIDE
from companion.text import i18n

if TYPE_CHECKING:
    from companion.app.data import AppData
    from companion.app.shell import Draw, DrawSheet, PageApp

log = logging.getLogger(__name__)
_encode = configure_encode_object_for_msgpack(BaseControl)  # type: ignore[no-untyped-call]  # untyped in flet


def _pack(value: Any) -> bytes:
    """As flet_web packs a message; msgpack is loaded here only (the phone build's snapshot has none)."""
    import msgpack  # type: ignore[import-untyped]

    return bytes(msgpack.packb(value, default=_encode))


WATCHING = "watching"  # the lead's guest id: no phone has it (ids are random tokens), so it is never a scorekeeper
NO_QUEUE = object()

Key = tuple[str, bool, bool]  # language, dark, wide
_FOLLOWING: weakref.WeakKeyDictionary[Session, Follower] = weakref.WeakKeyDictionary()


def lead_view(page: ft.Page) -> ft.View | None:
    """The lead's view a page shows in place of its own, if it follows one (what its client holds)."""
    follower = _FOLLOWING.get(page.session)
    lead = follower.lead if follower is not None else None
    return lead.page.views[0] if lead is not None else None


def adopt(shown: Any, own: Any) -> None:
    """Give each control of `own` the id of the control at the same place in `shown`, where both
    are drawn alike (same class, same number of children); elsewhere `own` keeps its new ids."""
    if isinstance(shown, BaseControl):
        if type(own) is not type(shown):
            return
        object.__setattr__(own, "_i", shown._i)
        for name in walked_fields(type(shown)):
            adopt(getattr(shown, name), getattr(own, name))
    elif isinstance(shown, (list, tuple)) and isinstance(own, (list, tuple)) and len(own) == len(shown):
        for one, other in zip(shown, own, strict=True):
            adopt(one, other)
    elif isinstance(shown, dict) and isinstance(own, dict):
        for name in shown.keys() & own.keys():
            adopt(shown[name], own[name])


class WatchingGlue(ShareGlue):
    """The lead's side of the table: a phone that only watches whatever game is shared."""

    def read_only(self) -> str | None:
        return i18n.t("ui.share.viewer", self.state.language)

    def guest_game(self) -> str | None:
        share = self.sharing.current if self.sharing is not None else None
        return share.session_id if share is not None and not share.stopped else None


class SeenAtOnce(StaleGuard):
    """The lead has no browser to ask what it shows, and no tap of its own to guard."""

    def shown(self, drawn: Drawn) -> None:
        self.seen_version = drawn[1] if drawn is not None else None


class _Fanout(Connection):
    """The lead's connection: its patches, encoded once, go to every follower."""

    def __init__(self, lead: Lead) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # untyped in flet
        self.lead = lead

    def send_message(self, message: Message) -> None:
        # Only patches of controls inside the lead's view: its page (title, dialogs) is not
        # the followers' page, and a lead never asks a browser anything.
        if message.action != MessageAction.PATCH_CONTROL or message.body.id == self.lead.page_id:
            return
        packed = b"\x00" + _pack([message.action, message.body])
        for follower in list(self.lead.followers):
            follower.send(packed, message)

    def dispose(self) -> None:
        pass


class Lead:
    """A page drawn like one kind of watching phone, with no browser of its own."""

    def __init__(self, mirror: Mirror, key: Key, like: ft.Page) -> None:
        self.mirror, self.key = mirror, key
        self.followers: list[Follower] = []
        connection = _Fanout(self)
        connection.pubsubhub = like.session.connection.pubsubhub  # hears the games' changes as the phones do
        connection.loop = like.session.connection.loop
        with contextlib.suppress(RuntimeError):  # a connection without threads of its own
            connection.executor = like.session.connection.executor
        self.session = Session(connection)
        page = self.page = self.session.page
        self.page_id = page._i
        language, dark, wide = key
        page.width, page.height = (float(WIDE) if wide else 412.0), 915.0
        page.platform_brightness = ft.Brightness.DARK if dark else ft.Brightness.LIGHT
        # As a browser registering: the page mounted, and encoded once (what the next diff is taken against).
        _pack(self.session.get_page_patch())  # type: ignore[no-untyped-call]
        self.app: PageApp | None = None
        contextvars.copy_context().run(self._start, language)

    def _start(self, language: str) -> None:
        from companion.app.shell import PageApp  # shell puts followers up through this module

        _context_page.set(self.page)
        mirror = self.mirror
        app = self.app = PageApp(self.page, mirror.data, mirror.screen, mirror.sheet, sharing=mirror.sharing,
                                 guest=WATCHING, language=language, glue=WatchingGlue)
        app.act.stale = SeenAtOnce(self.page)
        app.mount()
        app.act.resume()

    @property
    def shown(self) -> Any:
        """The lead's drawing, as a follower's view holds it (`Page.render` puts its root component there)."""
        return self.page.views[0].controls

    def close(self) -> None:
        if self.app is not None:
            self.app.act.release()
        self.session.close()  # type: ignore[no-untyped-call]


class Mirror:
    """The process's leads, one per kind of watching phone; each goes when its last follower does."""

    def __init__(self, data: AppData, sharing: Sharing, screen: Draw, sheet: DrawSheet) -> None:
        self.data, self.sharing, self.screen, self.sheet = data, sharing, screen, sheet
        self.leads: dict[Key, Lead] = {}

    def lead(self, key: Key, like: ft.Page) -> Lead:
        lead = self.leads.get(key)
        if lead is None:
            lead = self.leads[key] = Lead(self, key, like)
        return lead

    def left(self, lead: Lead) -> None:
        if not lead.followers and self.leads.get(lead.key) is lead:
            del self.leads[lead.key]
            lead.close()


class Follower:
    """A watching phone's page: it shows a lead's drawing while it is alike, its own otherwise."""

    def __init__(self, mirror: Mirror, app: PageApp) -> None:
        self.mirror, self.app, self.page = mirror, app, app.page
        self.lead: Lead | None = None
        self._stops: list[Callable[[], None]] = []
        # Taps on this page go through `_dispatch` first; its socket coming back through `reconnected`.
        session = self.page.session
        self._own_dispatch = session.dispatch_event
        session.dispatch_event = self._dispatch  # type: ignore[method-assign,assignment]  # this page's own session
        self._after(self.page, "connect", self.reconnected)
        self._after(self.page, "close", self._leave)

    @staticmethod
    def _after(page: ft.Page, name: str, then: Callable[[], None]) -> None:
        before = getattr(page, f"on_{name}")

        def handler(event: Any) -> None:
            if before is not None:
                before(event)
            then()

        setattr(page, f"on_{name}", handler)

    # --- who may follow ------------------------------------------------------------------

    def alike(self) -> bool:
        """Whether this page would be drawn as the lead is: a watching phone on the shared game, no sheet."""
        act = self.app.act
        ui = act.state.ui
        return (act.share.guest is not None and act.share.read_only() is not None and ui.screen == "game"
                and ui.panel is None and ui.notice is None and act.state.session is not None
                and act.state.session.id == act.share.guest_game())

    def key(self) -> Key:
        look = self.app.act.look
        return look.language, look.dark, float(self.page.width or 412) >= WIDE

    # --- joining and leaving ---------------------------------------------------------------

    def follow(self) -> bool:
        """On mounting: show the lead's drawing if this page is alike; False (nothing done) when it is not.

        Its own view stays empty, as the client was sent it on registering: drawn as its own
        later (`fork`), the diff replaces whatever that view holds, the lead's tree."""
        if not self.alike():
            return False
        self._join(self.mirror.lead(self.key(), self.page))
        return True

    def _join(self, lead: Lead) -> None:
        if not self._stops:
            state, look = self.app.act.state, self.app.act.look
            self._stops = [state.subscribe(self._changed), look.subscribe(self._changed)]  # type: ignore[attr-defined]
        self.lead = lead
        lead.followers.append(self)
        _FOLLOWING[self.page.session] = self
        self._show_lead()

    def _show_lead(self) -> None:
        """Put the lead's whole drawing in this page's view (on joining, and when the socket is back)."""
        if self.lead is None:
            return
        view = self.page.views[0]
        body = PatchControlBody(view._i, [[0], [Operation.Replace, 0, "controls", self.lead.shown]])
        message = Message(MessageAction.PATCH_CONTROL, body)
        self.send(b"\x00" + _pack([message.action, message.body]), message)

    def _leave(self) -> None:
        lead, self.lead = self.lead, None
        _FOLLOWING.pop(self.page.session, None)
        if lead is not None:
            lead.followers.remove(self)
            self.mirror.left(lead)

    def fork(self) -> None:
        """Leave the lead and be drawn as a page of its own (until its socket comes back alike)."""
        lead = self.lead
        if lead is None:
            return
        self._leave()
        for stop in self._stops:
            stop()
        self._stops = []
        _context_page.set(self.page)  # type: ignore[arg-type]
        connection = self.page.session.connection
        if connection is None:  # nothing is sent: the page goes whole when its socket is back
            self.app.render_own()
            return
        # Its own drawing takes the ids of the lead's controls it matches before it is sent:
        # the client then keeps what it holds for them (a scrolled list stays where the
        # finger left it) instead of building the screen anew.
        send = connection.send_message

        def adopting(message: Message) -> None:
            adopt(lead.shown, self.page.views[0].controls)
            send(message)

        connection.send_message = adopting  # type: ignore[method-assign]  # this one send only
        try:
            self.app.render_own()
        finally:
            del connection.send_message  # its own method again

    # --- what it hears ---------------------------------------------------------------------

    def _changed(self, _sender: Any, _field: str | None) -> None:
        if self.lead is None:
            return
        if not self.alike():
            self.fork()
        elif self.key() != self.lead.key:
            self._leave()
            self._join(self.mirror.lead(self.key(), self.page))

    def reconnected(self) -> None:
        """The socket is back: sent the lead's drawing whole again. A page drawn as its own since
        a tap of its own, and alike again, goes back to the shared drawing now: the client has
        just been sent its whole page anyway."""
        if self.lead is not None:
            self._show_lead()
        elif self.alike():
            self.page.views[0].controls = []  # its own drawing unmounted (its components stop drawing)
            self.page.update()
            self._join(self.mirror.lead(self.key(), self.page))

    async def _dispatch(self, control_id: int, name: str, data: Any) -> Any:
        """A tap on the lead's drawing is this page's own: drawn as its own, it goes to the same button."""
        session = self.page.session
        if self.lead is not None and control_id != self.page._i and session.index.get(control_id) is None:
            tapped = self.lead.session.index.get(control_id)
            key = getattr(tapped, "key", None)
            self.fork()  # its own drawing has the same ids where it is drawn as the lead's was
            if session.index.get(control_id) is None:  # drawn otherwise: the button with the same key
                mine = next((control for control in list(session.index.values())
                             if key is not None and getattr(control, "key", None) == key), None)
                if mine is None:
                    log.info("a tap on %s of a watching phone's shared drawing has no match of its own", tapped)
                    return
                control_id = mine._i
        await self._own_dispatch(control_id, name, data)

    # --- sending ---------------------------------------------------------------------------

    def send(self, packed: bytes, message: Message) -> None:
        """The same bytes as every follower's, straight to this page's socket (flet_web packs each
        message itself; a connection without that queue is sent the message)."""
        connection = self.page.session.connection
        if connection is None:  # the socket is gone: the lead's tree is sent whole when it is back
            return
        queue: Any = getattr(connection, "_FletApp__send_queue", NO_QUEUE)
        if queue is NO_QUEUE:
            connection.send_message(message)
        elif queue is not None:
            queue.put_nowait(packed)

"""The phones following the shared game are drawn once for all phones alike.

Every page of Flet 1.0 keeps a control tree of its own, so six phones watching the table's
game each drew and diffed the same screen after every tap (about 3 ms of the server's CPU
per phone, per tap). Here the phones that look alike (watching or keeping score, in one
language and theme, at one layout) share one drawing: a `Lead` is a page with no browser,
drawn as such a phone would be, and each `Follower` page shows the lead's tree in its own
view. The lead's patches are encoded once and the same bytes go to every follower: ids of
Flet's controls need only be unique within one client, and each follower's client holds
the lead's.

A follower leaves the group (`fork`) as soon as it is anything but alike: its own tap (the
log, a move), a sheet, a new role. It is then drawn as its own page, as every page was
before; drawn just as the lead's drawing is, it takes the lead's ids and nothing is sent
(the client keeps what it holds: a scrolled list stays put). The tap it made goes to the
same control of its own drawing. Another language, theme or layout moves a follower to the
lead of its kind. A follower whose socket came back is sent the lead's tree again, as Flet
sends a page whole when it reconnects; a page drawn as its own follows a lead again from
its socket's next drop, if it is alike.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.flet_diff import walked_fields
from companion.app.flet_private import (
    SEND_QUEUE,
    BaseControl,
    Connection,
    Message,
    MessageAction,
    Operation,
    PatchControlBody,
    Session,
    configure_encode_object_for_msgpack,
    set_context_page,
)
from companion.app.share import Sharing
from companion.app.share_glue import ShareGlue
from companion.app.shell import Draw, DrawSheet, PageApp
from companion.app.stale import Drawn, StaleGuard
from companion.app.widgets import WIDE
from companion.session import StaleError
from companion.text import i18n

if TYPE_CHECKING:
    from companion.app.data import AppData

log = logging.getLogger(__name__)
_encode = configure_encode_object_for_msgpack(BaseControl)  # type: ignore[no-untyped-call]  # untyped in flet


def _pack(value: Any) -> bytes:
    """As flet_web packs a message; msgpack is loaded here only (the phone build's snapshot has none)."""
    import msgpack  # type: ignore[import-untyped]

    return bytes(msgpack.packb(value, default=_encode))


WATCHING = "watching"  # the lead's guest id: no phone has it (ids are random tokens); its glue says if it keeps score
NO_QUEUE = object()

Key = tuple[str, bool, bool, bool, float]  # language, dark, wide, keeps score, text size
_FOLLOWING: weakref.WeakKeyDictionary[Session, Follower] = weakref.WeakKeyDictionary()


def lead_view(page: ft.Page) -> ft.View | None:
    """The lead's view a page shows in place of its own, if it follows one (what its client holds)."""
    follower = _FOLLOWING.get(page.session)
    lead = follower.lead if follower is not None else None
    return lead.page.views[0] if lead is not None else None


def adopt(shown: Any, own: Any, given: list[tuple[Any, int]]) -> None:
    """Give each control of `own` the id of the control at the same place in `shown`, where both
    are drawn alike (same class, same number of children); elsewhere `own` keeps its new ids.
    Each control given an id is noted in `given` with the id it had."""
    if isinstance(shown, BaseControl):
        if type(own) is not type(shown):
            return
        given.append((own, own._i))
        object.__setattr__(own, "_i", shown._i)
        for name in walked_fields(type(shown)):
            adopt(getattr(shown, name), getattr(own, name), given)
    elif isinstance(shown, (list, tuple)) and isinstance(own, (list, tuple)) and len(own) == len(shown):
        for one, other in zip(shown, own, strict=True):
            adopt(one, other, given)
    elif isinstance(shown, dict) and isinstance(own, dict):
        for name in shown.keys() & own.keys():
            adopt(shown[name], own[name], given)


class WatchingGlue(ShareGlue):
    """The lead's side of the table: a phone on whatever game is shared, keeping score or not."""

    writes = False  # drawn as a scorekeeper's phone

    def read_only(self) -> str | None:
        return None if self.writes else i18n.t("ui.share.viewer", self.state.language)

    def guest_game(self) -> str | None:
        share = self.sharing.current if self.sharing is not None else None
        return share.session_id if share is not None and not share.stopped else None


class SeenAtOnce(StaleGuard):
    """The lead has no browser to ask what it shows, and no tap of its own to guard; what its
    followers' browsers show is theirs to confirm."""

    def __init__(self, page: ft.Page, lead: Lead) -> None:
        super().__init__(page)
        self.lead = lead

    def shown(self, drawn: Drawn) -> None:
        self.seen_version = drawn[1] if drawn is not None else None
        for follower in list(self.lead.followers):
            follower.lead_shown()


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
    """A page drawn like one kind of phone on the shared game, with no browser of its own."""

    def __init__(self, mirror: Mirror, key: Key) -> None:
        self.mirror, self.key = mirror, key
        self.followers: list[Follower] = []
        connection = _Fanout(self)
        # It hears the games' changes as the phones do, on their loop.
        connection.pubsubhub, connection.loop, executor = mirror.wires
        if executor is not None:
            connection.executor = executor
        self.session = Session(connection)
        page = self.page = self.session.page
        self.page_id = page._i
        language, dark, wide, _, _ = key
        page.width, page.height = (float(WIDE) if wide else 412.0), 915.0
        page.platform_brightness = ft.Brightness.DARK if dark else ft.Brightness.LIGHT
        # As a browser registering: the page mounted, and encoded once (what the next diff is taken against).
        _pack(self.session.get_page_patch())  # type: ignore[no-untyped-call]
        self.app: PageApp | None = None
        contextvars.copy_context().run(self._start, language)

    def _start(self, language: str) -> None:
        set_context_page(self.page)
        mirror = self.mirror
        app = self.app = PageApp(
            self.page,
            mirror.data,
            mirror.screen,
            mirror.sheet,
            sharing=mirror.sharing,
            guest=WATCHING,
            language=language,
            glue=WatchingGlue,
        )
        assert isinstance(app.act.share, WatchingGlue)
        app.act.share.writes = self.key[3]
        app.act.look.text_scale = self.key[4]  # measured by the phones alike, not by this page (it has no screen)
        app.act.stale = SeenAtOnce(self.page, self)
        app.mount()
        app.act.resume()

    @property
    def shown(self) -> Any:
        """The lead's drawing, as a follower's view holds it (`Page.render` puts its root component there)."""
        return self.page.views[0].controls

    def close(self) -> None:
        """Let go of the game and stop drawing. Run in the lead's own context: a redraw its
        release schedules would otherwise go to the page whose tap closed it (Flet finds
        the session from the context), whose client holds the same ids."""
        contextvars.copy_context().run(self._close)

    def _close(self) -> None:
        set_context_page(self.page)
        self.session.close()  # type: ignore[no-untyped-call]  # first: nothing it schedules is drawn
        if self.app is not None:
            self.app.act.release()


class Mirror:
    """The process's leads, one per kind of phone; each goes when its last follower does."""

    def __init__(self, data: AppData, sharing: Sharing, screen: Draw, sheet: DrawSheet) -> None:
        self.data, self.sharing, self.screen, self.sheet = data, sharing, screen, sheet
        self.leads: dict[Key, Lead] = {}
        self.wires: Any = None  # the phones' pub/sub hub, loop and threads (or None), which leads share

    def heard(self, page: ft.Page) -> None:
        """A phone's page came: leads are wired as its connection is (one may be made while
        that page's socket is gone)."""
        if self.wires is None:
            connection = page.session.connection
            executor = None
            with contextlib.suppress(RuntimeError):  # a connection without threads of its own
                executor = connection.executor
            self.wires = (connection.pubsubhub, connection.loop, executor)

    def follow(self, app: PageApp) -> bool:
        """A phone's page, on mounting: True when it shows a lead's drawing (`PageApp.mount` asks)."""
        return Follower(self, app).follow()  # it keeps hearing the page, to follow again when alike

    def lead(self, key: Key) -> Lead:
        lead = self.leads.get(key)
        if lead is None:
            lead = self.leads[key] = Lead(self, key)
        return lead

    def left(self, lead: Lead) -> None:
        if not lead.followers and self.leads.get(lead.key) is lead:
            del self.leads[lead.key]
            lead.close()


class Follower:
    """A phone's page: it shows a lead's drawing while it is alike, its own otherwise."""

    def __init__(self, mirror: Mirror, app: PageApp) -> None:
        self.mirror, self.app, self.page = mirror, app, app.page
        self.lead: Lead | None = None
        self._stops: list[Callable[[], None]] = []
        mirror.heard(self.page)
        # Taps on this page go through `_dispatch` first; its socket coming back through `reconnected`.
        session = self.page.session
        self._own_dispatch = session.dispatch_event
        session.dispatch_event = self._dispatch  # type: ignore[method-assign,assignment]  # this page's own session
        self._after(self.page, "disconnect", self._asleep)
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
        """Whether this page would be drawn as a lead is: a phone on the shared game, no sheet."""
        act = self.app.act
        ui = act.state.ui
        return (
            act.share.guest is not None
            and ui.screen == "game"
            and ui.panel is None
            and ui.notice is None
            and act.state.session is not None
            and act.state.session.id == act.share.guest_game()
        )

    def key(self) -> Key:
        act = self.app.act
        wide = float(self.page.width or 412) >= WIDE
        # Phones alike read the same text size too: a drawing sized for one cuts another's text.
        # (Below 100 % a page draws as at 100 %: View.of.)
        return act.look.language, act.look.dark, wide, act.share.read_only() is None, max(1.0, act.look.text_scale)

    # --- joining and leaving ---------------------------------------------------------------

    def follow(self) -> bool:
        """On mounting: show the lead's drawing if this page is alike; False (nothing done) when it is not.

        Its own view stays empty, as the client was sent it on registering: drawn as its own
        later (`fork`), the diff replaces whatever that view holds, the lead's tree."""
        if not self.alike():
            return False
        self._join(self.mirror.lead(self.key()))
        return True

    def _join(self, lead: Lead) -> None:
        if not self._stops:
            state, look = self.app.act.state, self.app.act.look
            self._stops = [state.subscribe(self._changed), look.subscribe(self._changed)]  # type: ignore[attr-defined]
        self.lead = lead
        lead.followers.append(self)
        _FOLLOWING[self.page.session] = self
        self._show_lead()
        self.lead_shown()

    def lead_shown(self) -> None:
        """The lead's drawing was sent here: a scorekeeper's taps act on it once its browser
        says it shows it (`StaleGuard`), as they would on a drawing of its own."""
        act = self.app.act
        if self.lead is None or not self.lead.key[3]:
            return
        drawn = act.stale.drawing(act.state.session)
        act.stale.told_of_change()  # whoever changed the game, its browser is asked
        act.stale.shown(drawn)

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
        """Leave the lead and be drawn as a page of its own (until its socket next drops, if alike)."""
        lead = self.lead
        if lead is None:
            return
        self._leave()
        for stop in self._stops:
            stop()
        self._stops = []
        set_context_page(self.page)
        connection = self.page.session.connection
        if connection is None:  # nothing is sent: the page goes whole when its socket is back
            self.app.render_own()
            return
        # Drawn as the lead's drawing is (the same game, the same version), its own drawing
        # takes the ids of the lead's controls and is not sent at all: the client already
        # holds it, so a scrolled list stays where the finger left it. (Sent again with the
        # same ids, Flutter's client kept its old controls for some of them and showed no
        # later change to them.) Drawn otherwise (a new role), it is sent whole, with ids of
        # its own: the client builds it anew.
        send = connection.send_message

        def adopting(message: Message) -> None:
            own = self.page.views[0].controls
            given: list[tuple[Any, int]] = []
            adopt(lead.shown, own, given)
            only_the_view = isinstance(message.body, PatchControlBody) and len(message.body.patch) == 2
            if only_the_view and _pack(own) == _pack(lead.shown):
                _pack([message.action, message.body])  # as if sent: what the next diff is taken against
                return
            for control, own_id in given:
                object.__setattr__(control, "_i", own_id)
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
        key = self.key()
        if not self.alike() or key[3] != self.lead.key[3]:  # a new role: its own, the screen kept
            self.fork()
        elif key != self.lead.key:
            self._leave()
            self._join(self.mirror.lead(self.key()))

    def _asleep(self) -> None:
        """The socket dropped: a page drawn as its own since a tap of its own, and alike
        again, follows a lead from now on. Nothing is sent now; when the socket comes back
        the lead's drawing is (a client that held this page's own drawing, with the lead's
        ids, and was then sent the lead's showed no later change to some of them)."""
        if self.lead is None and self.alike():
            self.page.views[0].controls = []  # its own drawing unmounted (its components stop drawing)
            self.page.update()
            self._join(self.mirror.lead(self.key()))

    def reconnected(self) -> None:
        """The socket is back, the page sent whole (its view empty while it follows): the
        lead's drawing is sent whole too."""
        if self.lead is not None:
            self._show_lead()
            self.lead_shown()

    async def _dispatch(self, control_id: int, name: str, data: Any) -> Any:
        """A tap on the lead's drawing is this page's own: drawn as its own, it goes to the same button."""
        session = self.page.session
        if self.lead is not None and control_id != self.page._i and session.index.get(control_id) is None:
            tapped = self.lead.session.index.get(control_id)
            key = getattr(tapped, "key", None)
            act = self.app.act
            game = act.state.session
            # Its own drawing is of the game as it is now: a scorekeeper's tap on a drawing its
            # browser is not yet known to show (the game changed since) is refused as stale,
            # as its own drawing's would be, instead of acting on the newer screen.
            overtaken = self.lead.key[3] and game is not None and act.stale.seen_version != game.version
            self.fork()  # its own drawing has the same ids where it is drawn as the lead's was
            if overtaken:
                act.show_notice(act.say(StaleError()))
                return
            if session.index.get(control_id) is None:  # drawn otherwise: the button with the same key
                mine = next(
                    (
                        control
                        for control in list(session.index.values())
                        if key is not None and getattr(control, "key", None) == key
                    ),
                    None,
                )
                if mine is None:
                    log.info("a tap on %s of a phone's shared drawing has no match in its own", tapped)
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
        queue: Any = getattr(connection, SEND_QUEUE, NO_QUEUE)
        if queue is NO_QUEUE:
            connection.send_message(message)
        elif queue is not None:
            queue.put_nowait(packed)

"""In-process test harness for Flet 1.0.5 screens (no Flutter client needed).

A ``Screen`` plays the part of the Flutter client: it registers a page the way a
client does (route, width, height), runs the app's ``main(page)``, and then sends
the same messages a real client would send for a tap, a keystroke, a toggle, a
route change or a dialog dismissal:

    async with Screen(main) as screen:
        await screen.tap("add")
        assert "Count: 1" in screen.texts()

Every outgoing message is recorded (with a timestamp and its encoded size) so a
benchmark can time "event dispatched -> patch sent". Handler exceptions, which
Flet turns into a ``SESSION_CRASHED`` message, fail the test with the app's
traceback.

This drives Flet internals (``flet.messaging.session.Session``); it is written
against flet 1.0.5, which the project pins. What the harness reads is the live
Python control tree, not a client-side copy of the patches.

Sync tests can use ``run(coro)`` (a thin ``asyncio.run``) so no pytest plugin is
needed:

    def test_counter():
        async def scenario():
            async with Screen(main) as screen:
                await screen.tap("add")
                assert screen.text_of("count") == "1"
        run(scenario())
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import logging
import time
from collections.abc import Callable, Coroutine, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import flet as ft
import msgpack
from flet.components.component import Component
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.controls.keys import Key
from flet.controls.value_types import _UNSET as _UNSET_PROP
from flet.controls.value_types import Prop
from flet.messaging.connection import Connection
from flet.messaging.protocol import Message, MessageAction, configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

__all__ = [
    "AppCrashed",
    "Dispatch",
    "MethodHandler",
    "RecordedMessage",
    "RecordingConnection",
    "Screen",
    "run",
    "wait_for",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")


# Seconds, for timing taps: wall time; a benchmark comparing commits on a shared machine may
# call `use_cpu_clock()` (the process's CPU time: threads included, waits for others not).
clock: Callable[[], float] = time.perf_counter


def use_cpu_clock() -> None:
    global clock
    clock = time.process_time


#: ``handler(control, args) -> result``; may be async; raise to report an error.
MethodHandler = Callable[[BaseControl, Any], Any]

# Field names whose plain-string values are shown on screen by the control that owns
# them (Text.value, Button("label") -> content, TextField.label/value/hint_text, ...).
_TEXT_FIELDS = (
    "value",
    "text",
    "content",
    "label",
    "title",
    "subtitle",
    "hint_text",
    "helper_text",
    "helper",
    "error_text",
    "error",
    "prefix_text",
    "suffix_text",
    "counter_text",
    "placeholder_text",
    "semantics_label",
)
# Fields the tree walker never follows: back-references and Python-only state.
_SKIP_WALK = {"_parent", "data", "_internals"}


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion in a fresh event loop (``asyncio.run``)."""
    return asyncio.run(coro)


class AppCrashed(AssertionError):
    """The app raised inside ``main`` or an event handler (Flet's SESSION_CRASHED)."""


@dataclasses.dataclass
class RecordedMessage:
    """One message the session sent to the (fake) client."""

    action: MessageAction
    body: Any
    at: float  # clock() when it was sent
    size: int  # encoded msgpack size in bytes
    raw: bytes = b""  # the message as encoded for the client: what went over the wire


@dataclasses.dataclass
class Dispatch:
    """What one simulated user action caused: the messages sent and how long it took."""

    name: str
    started: float
    finished: float = 0.0
    messages: list[RecordedMessage] = dataclasses.field(default_factory=list)

    @property
    def patches(self) -> list[RecordedMessage]:
        return [m for m in self.messages if m.action == MessageAction.PATCH_CONTROL]

    @property
    def elapsed(self) -> float:
        """Seconds from dispatch to the last patch sent (or to the end, with no patch)."""
        patches = self.patches
        end = patches[-1].at if patches else self.finished
        return end - self.started

    @property
    def first_patch_elapsed(self) -> float | None:
        """Seconds from dispatch to the first patch sent, ``None`` when nothing changed."""
        patches = self.patches
        return patches[0].at - self.started if patches else None

    @property
    def bytes_sent(self) -> int:
        return sum(m.size for m in self.messages)


class RecordingConnection(Connection):
    """A ``Connection`` that encodes and records every outgoing message.

    Encoding with msgpack matters: it is what refreshes the snapshots that the next
    diff is computed against, exactly as in the real transports.
    """

    def __init__(self) -> None:
        super().__init__()
        self.pubsubhub = PubSubHub()
        self.messages: list[RecordedMessage] = []
        self.crashes: list[str] = []
        self.client_ids: set[int] = set()  # the controls the client was sent (see _follow_client)
        self.on_invoke_method: Callable[[Any], None] | None = None
        self._encode = configure_encode_object_for_msgpack(BaseControl)

    def send_message(self, message: Message) -> None:
        packed = msgpack.packb([message.action, message.body], default=self._encode)
        self.messages.append(RecordedMessage(message.action, message.body, clock(), len(packed), packed))
        self._follow_client(message, packed)
        if message.action == MessageAction.SESSION_CRASHED:
            self.crashes.append(getattr(message.body, "message", str(message.body)))
        elif message.action == MessageAction.INVOKE_METHOD and self.on_invoke_method is not None:
            self.on_invoke_method(message.body)

    def _follow_client(self, message: Message, packed: bytes) -> None:
        """Keep the ids of the controls the client was sent. The Flutter client drops a patch
        addressed to a control it does not have, while the server goes on as if it had been
        applied (seen as a frozen page in Chromium): such a patch is a failure here."""
        if message.action == MessageAction.PATCH_CONTROL and self.client_ids:
            target = message.body.id
            if target not in self.client_ids:
                self.crashes.append(
                    f"A patch was sent to control #{target}, which the client was never sent: "
                    "the browser drops it and keeps showing what it had"
                )
        _collect_ids(msgpack.unpackb(packed, strict_map_key=False), self.client_ids)


def _collect_ids(value: Any, found: set[int]) -> None:
    """Every control id in an encoded message (controls are maps with an ``_i``)."""
    if isinstance(value, dict):
        control_id = value.get("_i")
        if isinstance(control_id, int):
            found.add(control_id)
        for item in value.values():
            _collect_ids(item, found)
    elif isinstance(value, list):
        for item in value:
            _collect_ids(item, found)


def _key_matches(control: BaseControl, key: Any) -> bool:
    k = control.key
    if k is None:
        return False
    if isinstance(k, Key):
        k = k.value
    if isinstance(key, Key):
        key = key.value
    return bool(k == key)


def _key_repr(control: BaseControl) -> Any:
    k = control.key
    return k.value if isinstance(k, Key) else k


_LEAVES = (str, int, float, bool, bytes)
# How to find a dataclass's child controls, worked out once per class (every find walks the whole
# tree, and asking each control for each of its hundred-odd fields was most of a screen test's
# time): the fields Flet keeps sparsely (a `Prop` whose default holds no control: only those set
# to something else can) by their place among the fields walked, and the fields always looked at
# (the others, in their places). None: not a Flet class; each field walked is looked at.
_Plan = tuple[dict[str, int], list[tuple[int, str]]]
_PLANS: dict[type, _Plan | None] = {}
_NAMES: dict[type, tuple[str, ...]] = {}


def _walked_fields(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(
            f.name for f in dataclasses.fields(cls) if not f.metadata.get("skip", False) and f.name not in _SKIP_WALK
        )
    return names


def _plan(cls: type) -> _Plan | None:
    if cls in _PLANS:
        return _PLANS[cls]
    plan: _Plan | None = None
    if "_values" in getattr(cls, "__dataclass_fields__", {}) or getattr(cls, "_is_flet_value", False):
        sparse: dict[str, int] = {}
        always: list[tuple[int, str]] = []
        for place, name in enumerate(_walked_fields(cls)):
            raw = next((vars(klass)[name] for klass in cls.__mro__ if name in vars(klass)), None)
            if isinstance(raw, Prop) and (
                raw.default is None or isinstance(raw.default, _LEAVES) or raw.default is _UNSET_PROP
            ):
                sparse[name] = place
            else:
                always.append((place, name))
        plan = (sparse, always)
    _PLANS[cls] = plan
    return plan


def _children(value: Any, visited: set[int]) -> Iterator[BaseControl]:
    """Yield the controls directly reachable from ``value`` (not their descendants)."""
    if value is None or isinstance(value, _LEAVES):
        return
    if id(value) in visited:
        return
    if isinstance(value, BaseControl):
        yield value
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        visited.add(id(value))
        yield from _fields_children(value, visited)
    elif isinstance(value, dict):
        visited.add(id(value))
        for item in value.values():
            yield from _children(item, visited)
    elif isinstance(value, (list, tuple)):
        visited.add(id(value))
        for item in value:
            yield from _children(item, visited)


def _fields_children(value: Any, visited: set[int]) -> Iterator[BaseControl]:
    plan = _plan(type(value))
    values = getattr(value, "_values", None) if plan is not None else None
    if plan is None or not isinstance(values, dict):
        names: Iterable[str] = _walked_fields(type(value))
    else:
        sparse, always = plan
        names = [name for _, name in sorted([*((sparse[name], name) for name in values if name in sparse), *always])]
    for name in names:
        inner = getattr(value, name, None)
        if inner is not None and not isinstance(inner, _LEAVES):  # most fields: no generator for them
            yield from _children(inner, visited)


def _direct_children(control: BaseControl, visited: set[int]) -> Iterator[BaseControl]:
    return _fields_children(control, visited)


def _is_open_dialog_or_not_dialog(control: BaseControl) -> bool:
    return not isinstance(control, ft.DialogControl) or bool(control.open)


class Screen:
    """A Flet page driven in-process, as a Flutter client would drive it.

    Args:
        main: the app's ``main(page)`` (sync or async, generators too).
        route: initial route the "client" registers with.
        width, height: page size in logical pixels (412x915 is a common phone).
        methods: fake client methods, ``{"method_name": handler(control, args)}``
            (e.g. a ``SharedPreferences`` "get"). ``push_route`` is built in. Unknown
            methods return ``None``; all calls are recorded in ``method_calls``.
        page_props: extra registration properties, e.g. ``{"platform": "android"}``.
        settle_rounds: event-loop turns to let background work (``page.navigate``,
            component re-renders) finish after each action.
        page_url: what ``page.url`` reports (a web client's address).
        pubsub: a ``PubSubHub`` shared with other Screens, as the tabs of one server share one.
    """

    def __init__(
        self,
        main: Callable[[ft.Page], Any],
        *,
        route: str = "/",
        width: float = 412,
        height: float = 915,
        methods: dict[str, MethodHandler] | None = None,
        page_props: dict[str, Any] | None = None,
        settle_rounds: int = 20,
        page_url: str = "http://127.0.0.1:8550",
        pubsub: PubSubHub | None = None,
    ) -> None:
        self.main = main
        self.initial_route = route
        self.width = width
        self.height = height
        self.methods: dict[str, MethodHandler] = {"push_route": self._push_route_method}
        self.methods.update(methods or {})
        self.page_props = dict(page_props or {})
        self.settle_rounds = settle_rounds
        self.method_calls: list[tuple[BaseControl | None, str, Any]] = []
        self.dispatches: list[Dispatch] = []
        self.conn = RecordingConnection()
        self.conn.page_url = page_url  # page.url; Flet builds page.query from it on route changes
        if pubsub is not None:  # several Screens on one hub: tabs of one server process
            self.conn.pubsubhub = pubsub
        self.session: Session | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._background_errors: list[str] = []
        self._executor: ThreadPoolExecutor | None = None
        self._old_exception_handler: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._log_handler = _ErrorCollector(self._background_errors)

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> Screen:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            if exc_type is None:
                await self.settle()
                self.check()
        finally:
            await self.close()

    @property
    def page(self) -> ft.Page:
        assert self.session is not None, "Screen not started: use `async with Screen(main) as screen:`"
        return self.session.page

    async def start(self) -> Screen:
        """Register a page like a Flutter client does and run ``main(page)``."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._old_exception_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._on_loop_exception)
        # page.run_task() re-raises a task's exception in a concurrent.futures callback,
        # which only logs it: collect those records as crashes too.
        logging.getLogger("concurrent.futures").addHandler(self._log_handler)
        self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="flet-harness")
        self.conn.loop = loop
        self.conn.executor = self._executor
        self.conn.on_invoke_method = self._on_invoke_method

        session = Session(self.conn)
        self.session = session
        self.conn.client_ids.add(session.page._i)
        session.apply_page_patch(
            {"route": self.initial_route, "width": self.width, "height": self.height, **self.page_props}
        )
        # Encoding the first page patch is what a REGISTER_CLIENT response does; it
        # mounts the tree and seeds the diff snapshots.
        page_patch = session.get_page_patch()
        self.conn.send_message(Message(MessageAction.REGISTER_CLIENT, {"page_patch": page_patch}))

        d = Dispatch("main", clock())
        mark = len(self.conn.messages)
        await self._run_main(session)
        await self.settle()
        self._finish(d, mark)
        self.check()
        return self

    async def _run_main(self, session: Session) -> None:
        # Same steps as flet.app's on_session_created.
        from flet.controls.context import context

        page = session.page
        try:
            _context_page.set(page)
            context.reset_auto_update()
            main = self.main
            if inspect.iscoroutinefunction(main):
                await main(page)
            elif inspect.isasyncgenfunction(main):
                async for _ in main(page):
                    await session.after_event(page)
            elif inspect.isgeneratorfunction(main):
                for _ in main(page):
                    await session.after_event(page)
            else:
                main(page)
            await session.after_event(page)
        except Exception as e:  # mirror Flet: report, don't raise
            import traceback

            session.error(f"{e}\n{traceback.format_exc()}")

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.session is not None:
            with contextlib.suppress(Exception):
                self.session.close()
            await asyncio.sleep(0)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        logging.getLogger("concurrent.futures").removeHandler(self._log_handler)
        if self._loop is not None:
            self._loop.set_exception_handler(self._old_exception_handler)
            self._loop = None

    # ------------------------------------------------------------------ crash detection

    def _on_loop_exception(self, loop: asyncio.AbstractEventLoop, ctx: dict[str, Any]) -> None:
        exc = ctx.get("exception")
        if exc is not None:
            import traceback

            text = "".join(traceback.format_exception(exc))
        else:
            text = str(ctx.get("message"))
        self._background_errors.append(text)

    @property
    def crashes(self) -> list[str]:
        """Crash reports not yet turned into failures (SESSION_CRASHED + background task errors)."""
        return self.conn.crashes + self._background_errors

    def check(self) -> None:
        """Raise ``AppCrashed`` (an AssertionError) if the app crashed since the last check."""
        crashes = self.crashes
        if crashes:
            self.conn.crashes.clear()
            self._background_errors.clear()
            raise AppCrashed("The app crashed:\n" + "\n---\n".join(crashes))

    # ------------------------------------------------------------------ fake client methods

    def _on_invoke_method(self, body: Any) -> None:
        task = asyncio.get_running_loop().create_task(self._answer_method(body))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer_method(self, body: Any) -> None:
        assert self.session is not None
        control = self.session.index.get(body.control_id)
        self.method_calls.append((control, body.name, body.args))
        handler = self.methods.get(body.name)
        result: Any = None
        error: str | None = None
        if handler is not None:
            try:
                result = handler(control, body.args) if control is not None else None
                if inspect.isawaitable(result):
                    result = await result
            except Exception as e:  # reported to the app as a client-side error
                error = str(e) or type(e).__name__
        await asyncio.sleep(0)
        self.session.handle_invoke_method_results(body.control_id, body.call_id, result, error)

    async def _push_route_method(self, control: BaseControl, args: Any) -> None:
        # The client updates its router; the router then reports the route change.
        route = args["route"]
        task = asyncio.get_running_loop().create_task(self._client_route_change(route))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _client_route_change(self, route: str) -> None:
        await asyncio.sleep(0)
        assert self.session is not None
        self.session.apply_page_patch({"route": route})
        await self.session.dispatch_event(self.page._i, "route_change", {"route": route})

    # ------------------------------------------------------------------ tree queries

    def _roots(self, visible_only: bool) -> list[BaseControl]:
        page = self.page
        if not visible_only:
            shared = self.shared_view(page)
            return [page] if shared is None else [page, shared]
        views = [v for v in _children(page.views, set())]
        roots: list[BaseControl] = []
        shared = self.shared_view(page)
        if shared is not None:  # what the client holds in place of this page's own view
            roots.append(shared)
        elif views:
            roots.append(views[-1])  # only the top view is on screen
        for holder in (page._overlay, page._dialogs):
            roots.extend(c for c in _direct_children(holder, set()) if _is_open_dialog_or_not_dialog(c))
        return roots

    @staticmethod
    def shared_view(page: ft.Page) -> ft.View | None:
        """A phone's page may show a drawing shared with other phones (companion.app.mirror)."""
        try:
            from companion.app.mirror import lead_view
        except ImportError:  # the harness without the app
            return None
        return lead_view(page)

    def walk(self, *, visible_only: bool = False) -> Iterator[BaseControl]:
        """All controls of the current page tree, depth-first (views, overlay, dialogs, services).

        With ``visible_only``: the top view, the overlay and open dialogs, skipping
        ``visible=False`` and fully transparent subtrees.
        """
        visited: set[int] = set()
        stack = list(reversed(self._roots(visible_only)))
        while stack:
            c = stack.pop()
            if id(c) in visited:
                continue
            visited.add(id(c))
            if visible_only and (
                not getattr(c, "visible", True)
                or getattr(c, "opacity", None) == 0  # drawn transparent: nobody sees it (the text-size probe)
                or not _is_open_dialog_or_not_dialog(c)
            ):
                continue
            yield c
            stack.extend(reversed(list(_direct_children(c, visited))))

    def keys(self) -> list[Any]:
        """Keys of all controls in the page tree (what ``find`` can look up)."""
        return [
            _key_repr(c) for c in self.walk() if c.key is not None and not isinstance(c, (Component, ft.DropdownOption))
        ]

    def find_all(
        self,
        key: Any = None,
        *,
        type: type | tuple[type, ...] | None = None,
        text: str | None = None,
        where: Callable[[BaseControl], bool] | None = None,
        visible_only: bool = False,
    ) -> list[BaseControl]:
        """Controls matching every given criterion (key, control class, exact shown text, predicate)."""
        found = []
        for c in self.walk(visible_only=visible_only):
            if isinstance(c, Component):
                continue  # find the rendered control, not its component wrapper
            if key is not None and (isinstance(c, ft.DropdownOption) or not _key_matches(c, key)):
                continue  # an option's key is its value, not a control identity
            if type is not None and not isinstance(c, type):
                continue
            if text is not None and text not in _own_texts(c):
                continue
            if where is not None and not where(c):
                continue
            found.append(c)
        return found

    def find(self, key: Any = None, **criteria: Any) -> Any:
        """The one control with this ``key=`` (or matching ``type=``/``text=``/``where=``).

        Raises an AssertionError that lists the available keys when nothing matches,
        and when more than one control matches.
        """
        found = self.find_all(key, **criteria)
        what = ", ".join(([repr(key)] if key is not None else []) + [f"{k}={v!r}" for k, v in criteria.items()])
        if not found:
            raise AssertionError(f"No control matches {what} on route {self.route!r}. Available keys: {self.keys()!r}")
        if len(found) > 1:
            raise AssertionError(f"{len(found)} controls match {what}: {[_describe(c) for c in found]}")
        return found[0]

    def exists(self, key: Any = None, **criteria: Any) -> bool:
        return bool(self.find_all(key, **criteria))

    def texts(self) -> list[str]:
        """Every string currently shown: top view, overlay and open dialogs, visible controls only."""
        out: list[str] = []
        for c in self.walk(visible_only=True):
            out.extend(_own_texts(c))
        return out

    def text(self) -> str:
        """``texts()`` joined by newlines, handy for ``in`` checks on substrings."""
        return "\n".join(self.texts())

    def text_of(self, key: Any) -> str:
        """The strings shown by the control with ``key`` and its descendants, joined by a space."""
        root = self.find(key)
        parts: list[str] = []
        stack = [root]
        visited: set[int] = {id(root)}
        while stack:
            c = stack.pop()
            if not getattr(c, "visible", True):
                continue
            parts.extend(_own_texts(c))
            stack.extend(reversed(list(_direct_children(c, visited))))
        return " ".join(parts)

    def is_disabled(self, key: Any) -> bool:
        """Whether the control or any ancestor is disabled (as the Flutter client computes it)."""
        c: BaseControl | None = self.find(key)
        while c is not None:
            if getattr(c, "disabled", False):
                return True
            c = c.parent
        return False

    def is_visible(self, key: Any) -> bool:
        """Whether the control is on screen: itself and all ancestors visible, dialogs open, top view."""
        target = self.find(key)
        return any(c is target for c in self.walk(visible_only=True))

    @property
    def route(self) -> str:
        return str(self.page.route)

    @property
    def dialogs(self) -> list[ft.DialogControl]:
        """Open dialogs, bottom sheets, snack bars (``page.show_dialog``), oldest first."""
        return [d for d in self.page._dialogs.controls if getattr(d, "open", False)]

    # ------------------------------------------------------------------ user actions

    async def tap(self, key: Any, *, force: bool = False) -> Dispatch:
        """Tap a button / container / list tile: the ``click`` event (``tap`` for GestureDetector).

        Fails when the control is disabled, hidden or has no handler (a real tap would do
        nothing), unless ``force=True``.
        """
        c = self.find(key)
        name = "click" if hasattr(c, "on_click") else "tap"
        if not force:
            self._assert_interactive(key, c)
            if getattr(c, f"on_{name}", None) is None:
                raise AssertionError(f"{_describe(c)} has no on_{name} handler: tapping it would do nothing")
        return await self._dispatch(c, name, None, f"tap {key!r}")

    async def long_press(self, key: Any) -> Dispatch:
        c = self.find(key)
        self._assert_interactive(key, c)
        return await self._dispatch(c, "long_press", None, f"long_press {key!r}")

    async def type(self, key: Any, text: str, *, submit: bool = False) -> Dispatch:
        """Replace a TextField's text: ``value`` prop update, then ``change`` (data = text)."""
        c = self.find(key)
        self._assert_interactive(key, c)
        d = await self._client_update(c, {"value": text}, "change", text, f"type {key!r}")
        if submit:
            d2 = await self.submit(key)
            d.messages.extend(d2.messages)
            d.finished = d2.finished
        return d

    async def submit(self, key: Any) -> Dispatch:
        """Press Enter in a TextField: the ``submit`` event (data = current text)."""
        c = self.find(key)
        self._assert_interactive(key, c)
        return await self._dispatch_if_handled(c, "submit", c.value, f"submit {key!r}")

    async def toggle(self, key: Any, value: bool | None = None) -> Dispatch:
        """Flip (or set) a Switch / Checkbox: ``value`` prop update, then ``change`` (data = bool)."""
        c = self.find(key)
        self._assert_interactive(key, c)
        new = (not c.value) if value is None else value
        return await self._client_update(c, {"value": new}, "change", new, f"toggle {key!r}")

    async def select(self, key: Any, value: Any) -> Dispatch:
        """Choose a value: Dropdown (``select``), RadioGroup (``change``),
        NavigationBar / Tabs / NavigationRail (``selected_index`` + ``change``),
        SegmentedButton (``selected`` list + ``change``), Slider (``change``)."""
        c = self.find(key)
        self._assert_interactive(key, c)
        if isinstance(c, ft.Dropdown):
            keys = [o.key if o.key is not None else o.text for o in c.options or []]
            if value not in keys:
                raise AssertionError(f"Dropdown {key!r} has no option {value!r}; options: {keys!r}")
            return await self._client_update(c, {"value": value}, "select", value, f"select {key!r}")
        if isinstance(c, ft.SegmentedButton):
            sel = list(value) if isinstance(value, (list, tuple, set)) else [value]
            return await self._client_update(c, {"selected": sel}, "change", sel, f"select {key!r}")
        if hasattr(c, "selected_index"):
            return await self._client_update(c, {"selected_index": value}, "change", value, f"select {key!r}")
        return await self._client_update(c, {"value": value}, "change", value, f"select {key!r}")

    async def event(self, key: Any, name: str, data: Any = None, *, props: dict[str, Any] | None = None) -> Dispatch:
        """Send any event (``name`` without ``on_``) with raw ``data``, after an optional prop update.

        Unlike the helpers it dispatches even with no handler set (Flet then ignores it).
        """
        c = self.find(key)
        if props:
            assert self.session is not None
            self.session.apply_patch(c._i, props)
        return await self._dispatch(c, name, data, f"{name} {key!r}")

    async def dismiss_dialog(self, key: Any = None) -> Dispatch:
        """Close a dialog / bottom sheet / snack bar the way the user does (tap outside, back,
        timeout): ``open=False`` prop update, then ``dismiss``. Default: the top open one."""
        if key is None:
            open_dialogs = self.dialogs
            if not open_dialogs:
                raise AssertionError("No dialog is open")
            c: Any = open_dialogs[-1]
        else:
            c = self.find(key)
        return await self._client_update(c, {"open": False}, "dismiss", None, f"dismiss {key!r}", always=True)

    async def go(self, route: str) -> Dispatch:
        """The user changes the URL (or a deep link arrives): route prop update + ``route_change``."""
        return await self._client_update(
            self.page, {"route": route}, "route_change", {"route": route}, f"go {route!r}", always=True
        )

    async def back(self) -> Dispatch:
        """System / AppBar back: ``view_pop`` for the top view's route."""
        views = list(_children(self.page.views, set()))
        if len(views) < 2:
            raise AssertionError("Only one view: there is nothing to pop")
        route = getattr(views[-1], "route", None)
        return await self._dispatch(self.page, "view_pop", {"route": route}, f"back from {route!r}")

    async def resize(self, width: float, height: float) -> Dispatch:
        """Window / orientation change: width/height prop update + ``resize`` event."""
        self.width, self.height = width, height
        data = {"width": width, "height": height}
        return await self._client_update(self.page, data, "resize", data, f"resize {width}x{height}", always=True)

    async def brightness(self, value: str) -> Dispatch:
        """The system switches to the "dark" (or "light") theme: ``platform_brightness`` + its event."""
        return await self._client_update(
            self.page,
            {"platform_brightness": value},
            "platform_brightness_change",
            value,
            f"brightness {value}",
            always=True,
        )

    async def reconnect(self) -> Dispatch:
        """The socket drops (a phone's screen locks, the Wi-Fi blinks, a reload) and the client
        comes back to the same session, as Flet's web server lets it: ``disconnect``, then the
        whole page sent again, then the page's ``connect`` event."""
        await self.drop()
        return await self.come_back()

    async def drop(self) -> None:
        """The socket drops; the server keeps the session (and drops what it would send)."""
        assert self.session is not None
        await self.session.disconnect(60)
        await self.settle()
        self.check()

    async def come_back(self) -> Dispatch:
        """The client reconnects to its session: the whole page again, then ``connect``."""
        assert self.session is not None
        d = Dispatch("reconnect", clock())
        mark = len(self.conn.messages)
        self.session.attach_connection(self.conn)
        self.conn.send_message(Message(MessageAction.REGISTER_CLIENT, {"page_patch": self.page}))
        await self.session.dispatch_connect_event()
        await self.settle()
        self._finish(d, mark)
        self.check()
        return d

    async def settle(self) -> None:
        """Let background work finish: harness tasks (route changes, method replies) and a few
        event-loop turns for ``page.navigate``/``run_task``/component re-renders."""
        quiet = 0
        for _ in range(self.settle_rounds * 10):
            before = len(self.conn.messages)
            if self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)
            await asyncio.sleep(0)
            quiet = quiet + 1 if (len(self.conn.messages) == before and not self._tasks) else 0
            if quiet >= self.settle_rounds // 4 + 2:
                break
        await self._emulate_dialog_dismissals()

    # ------------------------------------------------------------------ internals

    def _assert_interactive(self, key: Any, c: BaseControl) -> None:
        if self.is_disabled(key):
            raise AssertionError(f"{_describe(c)} is disabled")
        if not any(x is c for x in self.walk(visible_only=True)):
            raise AssertionError(f"{_describe(c)} is not on screen (hidden, in a closed dialog or a lower view)")
        barrier = self.modal_barrier()
        if barrier is not None and not self._inside(c, barrier):
            raise AssertionError(
                f"{_describe(c)} is under the open {_describe(barrier)}: a tap there hits the dialog's barrier instead"
            )

    def modal_barrier(self) -> ft.DialogControl | None:
        """The top open dialog or bottom sheet, which covers everything below it (a snack bar
        does not)."""
        covering = [d for d in self.dialogs if not isinstance(d, ft.SnackBar)]
        return covering[-1] if covering else None

    def in_top_dialog(self, key: Any) -> bool:
        """Whether the control is inside the top open dialog (a sheet shows it over the screen)."""
        barrier = self.modal_barrier()
        return barrier is not None and self._inside(self.find(key), barrier)

    @staticmethod
    def _inside(c: BaseControl, ancestor: BaseControl) -> bool:
        node: BaseControl | None = c
        while node is not None:
            if node is ancestor:
                return True
            node = node.parent
        return False

    async def _client_update(
        self, c: BaseControl, props: dict[str, Any], name: str, data: Any, label: str, *, always: bool = False
    ) -> Dispatch:
        assert self.session is not None
        d = Dispatch(label, clock())
        mark = len(self.conn.messages)
        self.session.apply_patch(c._i, props)
        if always or getattr(c, f"on_{name}", None) is not None:
            await self.session.dispatch_event(c._i, name, data)
        await self.settle()
        self._finish(d, mark)
        self.check()
        return d

    async def _dispatch_if_handled(self, c: BaseControl, name: str, data: Any, label: str) -> Dispatch:
        if getattr(c, f"on_{name}", None) is None:
            d = Dispatch(label, clock())
            d.finished = d.started
            return d
        return await self._dispatch(c, name, data, label)

    async def _dispatch(self, c: BaseControl, name: str, data: Any, label: str) -> Dispatch:
        assert self.session is not None
        d = Dispatch(label, clock())
        mark = len(self.conn.messages)
        await self.session.dispatch_event(c._i, name, data)
        await self.settle()
        self._finish(d, mark)
        self.check()
        return d

    def _finish(self, d: Dispatch, mark: int) -> None:
        d.finished = clock()
        d.messages = self.conn.messages[mark:]
        self.dispatches.append(d)

    async def _emulate_dialog_dismissals(self) -> None:
        """The client answers ``open=False`` on a shown dialog with a ``dismiss`` event once the
        closing animation ends; without it ``page.pop_dialog()`` would leave the dialog mounted."""
        assert self.session is not None
        for _ in range(10):
            closed = [d for d in self.page._dialogs.controls if not d.open]
            if not closed:
                return
            for dlg in closed:
                await self.session.dispatch_event(dlg._i, "dismiss", None)
            await asyncio.sleep(0)

    # ------------------------------------------------------------------ benchmarks

    @contextlib.asynccontextmanager
    async def timed(self, label: str = "timed") -> Any:
        """Collect every message sent inside the block into one ``Dispatch``:

        async with screen.timed() as d:
            await screen.tap("add")
        print(d.elapsed, d.bytes_sent)
        """
        d = Dispatch(label, clock())
        mark = len(self.conn.messages)
        try:
            yield d
        finally:
            d.finished = clock()
            d.messages = self.conn.messages[mark:]


class _ErrorCollector(logging.Handler):
    def __init__(self, sink: list[str]) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            import traceback

            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.sink.append(text)


def _describe(c: BaseControl) -> str:
    key = _key_repr(c)
    return f"{type(c).__name__}(key={key!r})" if key is not None else f"{type(c).__name__}#{c._i}"


def _own_texts(c: BaseControl) -> list[str]:
    """Strings a control itself shows (not those of child controls)."""
    if isinstance(c, ft.DropdownOption):
        return []  # a closed dropdown shows only the selected option (added by the Dropdown)
    out: list[str] = []
    for name in _TEXT_FIELDS:
        if name == "value" and isinstance(c, ft.Dropdown):
            continue
        v = getattr(c, name, None)
        if isinstance(v, str) and v:
            out.append(v)
    spans = getattr(c, "spans", None)
    if spans:
        stack = list(spans)
        while stack:
            s = stack.pop(0)
            t = getattr(s, "text", None)
            if isinstance(t, str) and t:
                out.append(t)
            stack.extend(getattr(s, "spans", None) or [])
    if isinstance(c, ft.Dropdown) and c.value is not None:
        for o in c.options or []:
            if (o.key if o.key is not None else o.text) == c.value and o.text and o.text not in out:
                out.append(o.text)
    return out


async def wait_for(predicate: Callable[[], bool], timeout: float = 2.0) -> None:
    """Poll ``predicate`` while the event loop runs background work (``page.run_task`` etc.)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"Condition not met within {timeout}s")
        await asyncio.sleep(0.005)

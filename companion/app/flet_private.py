"""Every name of Flet's that is not its public API, in one place, with the Flet they were read from.

Six rooms lean on Flet's inside: `shell.py` (a page's taps taken in order, `taps_in_order`),
`share_glue.py` (the page a task runs for), `mirror.py`
(the phones alike drawn once: sessions, connections, patches and the send queue),
`flet_diff.py` (a quicker diff, in Flet's `object_patch`), the web door's `web/frames.py`
(the socket's frames read as Flet's protocol says) and the phone build's `browser.py` (its
connection to the page, held until the games are in IndexedDB). A Flet that renamed any of
them must not break a start: the imports here never fail, `mirror_usable()` says whether
the phones alike may share a drawing (else each page draws its own, as every page did
before the mirror), and `same_flet()` whether the diff may be replaced. The messaging names
are imported when asked for: the web door and the phone build cannot work without them, and
a Flet without them fails there, on first use, naming the name.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import TYPE_CHECKING, Any

FOR_FLET = "1.0.5"  # the Flet these names were read from (pinned in pyproject.toml)
SEND_QUEUE = "_FletApp__send_queue"  # flet_web's queue of a connection's messages (name-mangled)
# A session's redraws and effects waiting for its scheduler (name-mangled).
PENDING = ("_Session__pending_updates", "_Session__pending_effects")
MOST_TURNS = 20  # a redraw still pending after these turns of the loop is not waited for

try:
    from flet.controls import object_patch
    from flet.controls.base_control import BaseControl
    from flet.controls.context import _context_page
    from flet.controls.object_patch import DiffBuilder, Operation

    _FOUND = True
except ImportError:  # another Flet: nothing here is used (same_flet() is False)
    _FOUND = False

# Flet's messaging loads compiled msgpack, which the phone build must not: its names are
# imported when first asked for (by mirror.py, which only a server with sharing loads).
if TYPE_CHECKING:
    from flet.messaging.connection import Connection
    from flet.messaging.protocol import (
        ControlEventBody,
        InvokeMethodResponseBody,
        Message,
        MessageAction,
        PatchControlBody,
        RegisterClientRequestBody,
        UpdateControlPropsBody,
        configure_encode_object_for_msgpack,
        decode_ext_from_msgpack,
    )
    from flet.messaging.pyodide_connection import PyodideConnection
    from flet.messaging.session import Session

_MESSAGING_NAMES = {
    "Connection": "flet.messaging.connection",
    "Message": "flet.messaging.protocol",
    "MessageAction": "flet.messaging.protocol",
    "PatchControlBody": "flet.messaging.protocol",
    "configure_encode_object_for_msgpack": "flet.messaging.protocol",
    "ControlEventBody": "flet.messaging.protocol",
    "InvokeMethodResponseBody": "flet.messaging.protocol",
    "RegisterClientRequestBody": "flet.messaging.protocol",
    "UpdateControlPropsBody": "flet.messaging.protocol",
    "decode_ext_from_msgpack": "flet.messaging.protocol",
    "PyodideConnection": "flet.messaging.pyodide_connection",  # the phone build's only
    "Session": "flet.messaging.session",
}


def __getattr__(name: str) -> Any:
    """The messaging names, imported when asked for (PEP 562)."""
    module = _MESSAGING_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "FOR_FLET",
    "SEND_QUEUE",
    "BaseControl",
    "Connection",
    "ControlEventBody",
    "DiffBuilder",
    "InvokeMethodResponseBody",
    "Message",
    "MessageAction",
    "Operation",
    "PatchControlBody",
    "PyodideConnection",
    "RegisterClientRequestBody",
    "Session",
    "UpdateControlPropsBody",
    "configure_encode_object_for_msgpack",
    "decode_ext_from_msgpack",
    "object_patch",
    "mirror_usable",
    "same_flet",
    "set_context_page",
    "taps_in_order",
]


def same_flet() -> bool:
    """Whether the Flet running is the one these names were read from."""
    from flet.version import flet_version  # read when asked: a test gives it another value

    return bool(_FOUND and flet_version == FOR_FLET)


def mirror_usable() -> bool:
    """Whether the phones alike may share one drawing (mirror.py): this Flet, with what it reaches into."""
    if not same_flet():
        return False
    try:
        session, connection = __getattr__("Session"), __getattr__("Connection")
    except (ImportError, AttributeError):
        return False
    return (
        callable(getattr(session, "dispatch_event", None))
        and callable(getattr(connection, "send_message", None))
        and hasattr(session, "get_page_patch")
    )


def taps_in_order(page: Any) -> None:
    """Act on each of this page's taps once what the tap before it changed is drawn.

    Flet hands each event to a task of its own, and a change's redraw waits for the session's
    scheduler: taps arriving together (a quick finger on a slow network or a busy server) had
    the later ones meet the controls drawn before the earlier ones, so a Save recorded the
    counts as they were before the count tapped just before it. The scheduler was woken by the
    earlier tap, so a turn of the loop lets it draw first. On another Flet nothing is changed."""
    try:
        session = page.session
    except Exception:  # noqa: BLE001 - a page of no session (a test's): nothing to order
        return
    own = getattr(session, "dispatch_event", None)
    if not same_flet() or not callable(own):
        return
    pending = [getattr(session, name, None) for name in PENDING]

    async def in_order(control_id: int, event_name: str, event_data: Any) -> None:
        for _ in range(MOST_TURNS):
            if not any(pending):
                break
            await asyncio.sleep(0)
        await own(control_id, event_name, event_data)

    session.dispatch_event = in_order


def set_context_page(page: Any) -> None:
    """Make `page` the one Flet's calls in this task act on (a task copied from another page's
    context would draw there). On another Flet nothing is set, as Flet's own tasks do."""
    if _FOUND:
        _context_page.set(page)

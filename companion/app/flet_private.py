"""Every name of Flet's that is not its public API, in one place, with the Flet they were read from.

Three rooms lean on Flet's inside: `share_glue.py` (the page a task runs for), `mirror.py`
(the phones alike drawn once: sessions, connections, patches and the send queue) and
`flet_diff.py` (a quicker diff, in Flet's `object_patch`). A Flet that renamed any of them must not break a start: the
imports here never fail, `mirror_usable()` says whether the phones alike may share a drawing
(else each page draws its own, as every page did before the mirror), and `same_flet()`
whether the diff may be replaced.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

FOR_FLET = "1.0.5"  # the Flet these names were read from (pinned in pyproject.toml)
SEND_QUEUE = "_FletApp__send_queue"  # flet_web's queue of a connection's messages (name-mangled)

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
    from flet.messaging.protocol import Message, MessageAction, PatchControlBody, configure_encode_object_for_msgpack
    from flet.messaging.session import Session

_MESSAGING_NAMES = {
    "Connection": "flet.messaging.connection",
    "Message": "flet.messaging.protocol",
    "MessageAction": "flet.messaging.protocol",
    "PatchControlBody": "flet.messaging.protocol",
    "configure_encode_object_for_msgpack": "flet.messaging.protocol",
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
    "DiffBuilder",
    "Message",
    "MessageAction",
    "Operation",
    "PatchControlBody",
    "Session",
    "configure_encode_object_for_msgpack",
    "object_patch",
    "mirror_usable",
    "same_flet",
    "set_context_page",
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


def set_context_page(page: Any) -> None:
    """Make `page` the one Flet's calls in this task act on (a task copied from another page's
    context would draw there). On another Flet nothing is set, as Flet's own tasks do."""
    if _FOUND:
        _context_page.set(page)

"""What a page's socket may say to Flet: frames checked before Flet reads them.

Flet reads a page's frames (`[0x00][MessagePack [action, body]]`) and, on any it cannot
handle, logs a Python traceback and drops the socket. A joined phone is not trusted to send
well-formed frames, so every socket's frames pass `guarded` first:

1. A frame Flet could not read (not MessagePack, not `[action, body]`, an action a page
   never sends, a body whose fields are missing, unknown or of the wrong type, a text
   frame, anything before the page registered, a second registration) is dropped; the
   host's console says so in one line naming the page's owner and what was wrong, at most
   `COMPLAINTS_PER_WINDOW` lines a `COMPLAINT_WINDOW_S` per owner (the next line counts the
   ones left unsaid). Nothing reaches the game.
2. What Flet still cannot handle while serving a phone (an answer to a call it never made,
   an event its handler cannot take) is logged by Flet with a traceback: `PhoneTracebacks`
   turns that into the same one line (the traceback goes to the debug log), and Flet
   closes the socket or drops the event.
3. A Flet session belongs to the owner it was made for (the host's page at its address,
   or a guest cookie at its address): a registration naming another owner's session, or a
   session this server never handed out, starts a fresh session instead.
"""

from __future__ import annotations

import contextvars
import dataclasses
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import msgpack  # type: ignore[import-untyped]
from starlette.types import Message, Receive, Send

from companion.app.flet_private import (
    ControlEventBody,
    InvokeMethodResponseBody,
    MessageAction,
    RegisterClientRequestBody,
    UpdateControlPropsBody,
    decode_ext_from_msgpack,
)

log = logging.getLogger(__name__)

COMPLAINTS_PER_WINDOW = 3
COMPLAINT_WINDOW_S = 60.0
OWNERS_KEPT = 10_000  # sessions remembered (Flet forgets a page's session an hour after it left)
FLET_FRAME, DATA_CHANNEL_FRAME = 0x00, 0x01

NONE = type(None)
# The fields of each body a page sends, and the types Flet's handlers can take.
BODIES: dict[int, tuple[type, dict[str, tuple[type, ...]]]] = {
    MessageAction.REGISTER_CLIENT.value: (
        RegisterClientRequestBody,
        {"session_id": (str, NONE), "page_name": (str, NONE), "page": (dict,)},
    ),
    MessageAction.CONTROL_EVENT.value: (ControlEventBody, {"target": (int,), "name": (str,)}),
    MessageAction.UPDATE_CONTROL_PROPS.value: (UpdateControlPropsBody, {"id": (int,), "props": (dict,)}),
    MessageAction.INVOKE_METHOD.value: (
        InvokeMethodResponseBody,
        {"control_id": (int,), "call_id": (str,), "error": (str, NONE)},
    ),
}
REGISTER = MessageAction.REGISTER_CLIENT.value
# Flet's loggers, and uvicorn's for a socket's handler that raised.
FLET_LOGGERS = (
    "flet",
    "flet_web",
    "flet_web.fastapi",
    "flet_components",
    "flet_controls",
    "flet_object_patch",
    "flet_transport",
    "uvicorn.error",
)

# The phone whose socket is being served (owner, label): set by the join door around Flet's
# handler, so that tasks Flet starts for that socket carry it too.
serving_phone: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar("serving_phone", default=None)


class Complaints:
    """One console line per dropped frame, at most `COMPLAINTS_PER_WINDOW` a window per owner."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._said: dict[str, tuple[float, int, int]] = {}  # owner: window start, lines said, lines left unsaid

    def say(self, owner: str, label: str, problem: str) -> None:
        now = self.clock()
        start, said, unsaid = self._said.get(owner, (now, 0, 0))
        if now - start >= COMPLAINT_WINDOW_S:
            start, said = now, 0
        if said >= COMPLAINTS_PER_WINDOW:
            self._said[owner] = (start, said, unsaid + 1)
            return
        more = f" ({unsaid} more dropped frames not shown)" if unsaid else ""
        log.warning("dropped a frame from %s: %s%s", label, problem, more)
        if len(self._said) > OWNERS_KEPT:
            self._said.clear()
        self._said[owner] = (start, said + 1, 0)


# One console per process: every door of it counts its lines here.
complaints = Complaints()


class PhoneTracebacks(logging.Filter):
    """Rule 2: a traceback Flet logs while serving a phone becomes one rate-limited line."""

    def filter(self, record: logging.LogRecord) -> bool:
        phone = serving_phone.get()
        if phone is None or not (record.exc_info or record.levelno >= logging.ERROR):
            return True
        error = record.exc_info[1] if record.exc_info else None
        complaints.say(*phone, f"{record.getMessage()[:80]}{f': {error}' if error else ''}"[:200])
        log.debug("what Flet logged for %s", phone[1], exc_info=record.exc_info)
        return False

    @classmethod
    def install(cls) -> None:
        for name in FLET_LOGGERS:
            logger = logging.getLogger(name)
            if not any(isinstance(known, PhoneTracebacks) for known in logger.filters):
                logger.addFilter(cls())


class SessionOwners:
    """Who each Flet session was handed to (rule 3)."""

    def __init__(self) -> None:
        self._owners: OrderedDict[str, str] = OrderedDict()

    def handed(self, session_id: str, owner: str) -> None:
        self._owners[session_id] = owner
        self._owners.move_to_end(session_id)
        while len(self._owners) > OWNERS_KEPT:
            self._owners.popitem(last=False)

    def belongs(self, session_id: str, owner: str) -> bool:
        return self._owners.get(session_id) == owner


def problem_with(frame: Any, registered: bool) -> str | None:
    """What is wrong with a decoded Flet frame (rule 1), or None."""
    if not isinstance(frame, list | tuple) or len(frame) != 2:
        return "not an [action, body] pair"
    action, body = frame
    if type(action) is not int or action not in BODIES:
        return f"unknown action {str(action)[:20]!r}"
    if (action == REGISTER) == registered:
        return "a second registration" if registered else "a frame before the page registered"
    if not isinstance(body, dict):
        return f"a body of type {type(body).__name__}"
    kind, types = BODIES[action]
    fields = {field.name: field for field in dataclasses.fields(kind)}
    unknown = [key for key in body if key not in fields]
    missing = [
        name
        for name, field in fields.items()
        if name not in body and field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
    ]
    if unknown or missing:
        return f"fields {str(unknown or missing)[:60]} {'unknown' if unknown else 'missing'}"
    for name, allowed in types.items():
        value = body.get(name)
        if name in body and (type(value) is bool or not isinstance(value, allowed)):
            return f"{name} of type {type(value).__name__}"
    return None


def decoded(data: bytes) -> tuple[Any, str | None]:
    try:
        return msgpack.unpackb(data[1:], ext_hook=decode_ext_from_msgpack), None
    except Exception:  # noqa: BLE001 - whatever a phone sent, it is only dropped
        return None, "not MessagePack"


def guarded(receive: Receive, send: Send, owner: str, label: str, owners: SessionOwners) -> tuple[Receive, Send]:
    """`receive` and `send` of one page's socket, with its frames checked (see the docstring).

    `owner` is whom the socket's sessions belong to; `label` names it in the console."""
    state = {"registered": False, "answer_due": False}

    async def checked_receive() -> Message:
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return message
            data = message.get("bytes")
            if data is None:
                complaints.say(owner, label, "a text frame")
                continue
            if not data or data[0] == DATA_CHANNEL_FRAME:
                return message  # Flet skips an empty frame and an unknown channel itself
            if data[0] != FLET_FRAME:
                complaints.say(owner, label, f"a frame of unknown type {data[0]:#04x}")
                continue
            frame, problem = decoded(data)
            problem = problem or problem_with(frame, state["registered"])
            if problem:
                complaints.say(owner, label, problem)
                continue
            if frame[0] == REGISTER:
                state["registered"] = state["answer_due"] = True
                asked = frame[1].get("session_id")
                if asked and not owners.belongs(asked, owner):  # rule 3
                    log.info("%s asked for a session not its own: a fresh one starts", label)
                    frame[1]["session_id"] = None
                    try:
                        message = {**message, "bytes": bytes([FLET_FRAME]) + msgpack.packb(frame)}
                    except (TypeError, ValueError):  # a value only Flet's decoder made (a date): not a page's
                        state["registered"] = state["answer_due"] = False
                        complaints.say(owner, label, "a registration that cannot be passed on")
                        continue
            return message

    async def noting_send(message: Message) -> None:
        if state["answer_due"] and message["type"] == "websocket.send" and message.get("bytes"):
            answer, _ = decoded(message["bytes"])
            if isinstance(answer, list) and answer and answer[0] == REGISTER and isinstance(answer[1], dict):
                state["answer_due"] = False
                owners.handed(str(answer[1].get("session_id")), owner)
        await send(message)

    return checked_receive, noting_send

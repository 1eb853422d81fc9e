"""What a joined phone may say over its socket: crafted frames and borrowed sessions, over a
real socket to a real server on loopback (127.0.0.2 stands in for the local network).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgpack
import pytest
import websockets
from test_share_wire import LAN_HOST, _start, _stop, join, leaks, other_games

from companion.app import web
from companion.app.data import AppData
from companion.app.main import make_main
from companion.app.share import Sharing
from companion.app.web import frames
from companion.store import Store

REGISTER = {
    "session_id": "",
    "page_name": "",
    "page": {"route": "/", "width": 412, "height": 915, "platform": "android", "web": True},
}


@contextmanager
def served(tmp_path: Path) -> Iterator[tuple[int, AppData, list[str], list[bytes]]]:
    """A host with four games, Ann and Bob's shared; yields the port, the data, the cookies of two
    joined phones and what of the other games must never reach a phone."""
    data = AppData(Store(tmp_path / "data"))
    secrets = other_games(data)
    game = data.store.new("heartland", ["Ann", "Bob"], {})
    data.store.close_session(game.id or "")
    sock = web.listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    sharing = Sharing(None, LAN_HOST)
    app = web.create_app(make_main(data, sharing), [web.Address("127.0.0.1", port)], sharing=sharing)
    sharing.listener = web.ShareListener(app, port)
    server: Any = web.server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(100):
            if server.started:
                break
            time.sleep(0.1)
        assert app.loop is not None
        started = asyncio.run_coroutine_threadsafe(_start(sharing, game.id or ""), app.loop).result(10)
        yield port, data, [join(port, started.code), join(port, started.code)], secrets
    finally:
        if app.loop is not None:
            asyncio.run_coroutine_threadsafe(_stop(sharing), app.loop).result(10)
        server.should_exit = True
        thread.join(15)
        sock.close()


async def page(
    host: str,
    port: int,
    *,
    cookie: str = "",
    session_id: str = "",
    crafted: tuple[bytes | str, ...] = (),
    seconds: float = 2.0,
) -> tuple[list[bytes], str]:
    """Open a page's socket as the Flutter client does (then send `crafted` frames); every frame it
    is sent within `seconds`, and the session id it was handed."""
    sent: list[bytes] = []
    headers = {"Cookie": cookie} if cookie else {}
    async with websockets.connect(
        f"ws://{host}:{port}/ws",
        origin=websockets.Origin(f"http://{host}:{port}"),
        additional_headers=headers,
        max_size=None,
    ) as socket:
        await socket.send(b"\x00" + msgpack.packb([1, {**REGISTER, "session_id": session_id}]))
        sent.append(await asyncio.wait_for(socket.recv(), 10))  # type: ignore[arg-type]
        for frame in crafted:
            await socket.send(frame)
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                sent.append(await asyncio.wait_for(socket.recv(), left))  # type: ignore[arg-type]
            except (TimeoutError, websockets.ConnectionClosed):
                break
    answer = msgpack.unpackb(sent[0][1:], strict_map_key=False)
    return sent, str(answer[1].get("session_id", ""))


def flet(frame: Any) -> bytes:
    return b"\x00" + msgpack.packb(frame)


ABUSES: list[bytes | str] = [
    b"\x00\xc1",  # not MessagePack
    b"\x00" + msgpack.packb(msgpack.ExtType(1, b"not a date")),  # an extension Flet's decoder refuses
    flet([99, {}]),  # an unknown action
    flet(["click", {}]),
    flet([3]),  # not [action, body]
    flet([3, "body"]),  # a body of the wrong type
    flet([3, {"target": "page", "name": 1, "data": None}]),  # fields of the wrong types
    flet([3, {"target": 1, "colour": "red"}]),  # unknown and missing fields
    flet([3, {"target": 987654, "name": "click", "data": None}]),  # an event for an unknown control
    flet([4, {"id": 987654, "props": {"value": 1}}]),  # props of an unknown control
    flet([5, {"control_id": 987654, "call_id": "x", "result": None, "error": None}]),  # an answer to no call
    flet([1, REGISTER]),  # a second registration
    b"\x07junk",  # a frame of unknown type
    "a text frame",
]


def test_crafted_frames_from_a_phone_print_no_traceback_and_change_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.INFO)
    with served(tmp_path) as (port, data, (cookie, _), _):
        before = [(entry.id, entry.updated, entry.status) for entry in data.store.sessions()]
        for abuse in ABUSES:  # each on a socket of its own: some make Flet close the socket
            asyncio.run(page(LAN_HOST, port, cookie=cookie, crafted=(abuse,), seconds=0.3))
        # The phone still follows the game afterwards.
        frames_after, _ = asyncio.run(page(LAN_HOST, port, cookie=cookie, seconds=1.0))
        after = [(entry.id, entry.updated, entry.status) for entry in data.store.sessions()]
    console = capfd.readouterr().err + caplog.text
    said = [record.getMessage() for record in caplog.records if "dropped a frame" in record.getMessage()]
    print("\n".join(said))
    assert "Traceback" not in console
    assert [record for record in caplog.records if record.exc_info and record.levelno >= logging.INFO] == []
    assert 1 <= len(said) <= frames.COMPLAINTS_PER_WINDOW
    assert all("Vera's phone at 127.0.0." in line for line in said)
    assert after == before
    assert any(b"Ann" in frame for frame in frames_after)


def test_a_phone_naming_the_host_pages_session_is_given_a_fresh_one_of_its_own(tmp_path: Path) -> None:
    with served(tmp_path) as (port, _, (cookie, other_cookie), secrets):
        host_frames, host_session = asyncio.run(page("127.0.0.1", port, seconds=2.0))
        assert leaks(host_frames, secrets)  # the host's page lists every game
        # The host's tab closed; a phone (from the same address, with the same browser) names its session.
        phone_frames, phone_session = asyncio.run(page(LAN_HOST, port, cookie=cookie, session_id=host_session))
        assert phone_session != host_session
        assert leaks(phone_frames, secrets) == []
        assert any(b"Ann" in frame for frame in phone_frames)
        # The phone's own session is still its own when it comes back.
        _, again = asyncio.run(page(LAN_HOST, port, cookie=cookie, session_id=phone_session, seconds=0.5))
        assert again == phone_session
        # Another phone cannot take it over, nor can the host's page.
        _, other = asyncio.run(page(LAN_HOST, port, cookie=other_cookie, session_id=phone_session, seconds=0.5))
        assert other not in (phone_session, host_session)
        _, host_again = asyncio.run(page("127.0.0.1", port, session_id=phone_session, seconds=0.5))
        assert host_again != phone_session


def test_a_phone_sending_junk_all_evening_gets_three_lines_a_minute_and_then_a_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    complaints = frames.Complaints(clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger=frames.__name__):
        for second in range(120):  # a frame a second for two minutes, and another phone once
            now[0] = float(second)
            complaints.say("guest a", "Mallory's phone at 192.168.1.66", "not MessagePack")
        complaints.say("guest b", "Vera's phone at 192.168.1.20", "unknown action 99")
    said = [record.getMessage() for record in caplog.records]
    assert said == ["dropped a frame from Mallory's phone at 192.168.1.66: not MessagePack"] * 3 + [
        "dropped a frame from Mallory's phone at 192.168.1.66: not MessagePack (57 more dropped frames not shown)"
    ] + ["dropped a frame from Mallory's phone at 192.168.1.66: not MessagePack"] * 2 + [
        "dropped a frame from Vera's phone at 192.168.1.20: unknown action 99"
    ]

"""A crowd guessing the join code from many loopback addresses while the table's phones join.

A real uvicorn serves the door; the shared address is 127.0.0.2; guessers post wrong codes
as fast as the server answers, each from an address of its own (127.1.x.y), for a bounded
time; joiners (127.0.0.3 to .5) type the right code once the crowd is running and keep
retrying while they are told to wait, as a person would. Used by tests/test_share_web.py
and tests/bench/door.py.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import flet as ft

from companion.app import web
from companion.app.share import Share, Sharing

LAN_HOST = "127.0.0.2"
JOINERS = ("127.0.0.3", "127.0.0.4", "127.0.0.5")


def main(page: ft.Page) -> None:
    page.add(ft.Text("hello"))


def post_join(port: int, phone: str, form: dict[str, str], timeout: float = 10.0) -> int:
    body = urllib.parse.urlencode(form)
    connection = http.client.HTTPConnection(LAN_HOST, port, timeout=timeout, source_address=(phone, 0))
    try:
        connection.request(
            "POST",
            "/join",
            body,
            {
                "Host": f"{LAN_HOST}:{port}",
                "Origin": f"http://{LAN_HOST}:{port}",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


@contextmanager
def shared_door() -> Iterator[tuple[int, Share]]:
    """A real server sharing one game on `LAN_HOST`; yields its port and the share."""
    sock = web.listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    sharing = Sharing(None, LAN_HOST)
    app = web.create_app(main, [web.Address("127.0.0.1", port)], sharing=sharing)
    sharing.listener = web.ShareListener(app, port)
    server: Any = web.server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(100):  # up to ~10 s
            if server.started and app.loop is not None:
                break
            time.sleep(0.1)
        assert app.loop is not None
        app.loop.call_soon_threadsafe(sharing.start, "g1")
        for _ in range(100):
            if sharing.current is not None:
                break
            time.sleep(0.1)
        time.sleep(0.2)  # the listener on the shared address is bound right after the share starts
        assert sharing.current is not None
        yield port, sharing.current
    finally:
        if app.loop is not None:
            app.loop.call_soon_threadsafe(sharing.stop)
        server.should_exit = True
        thread.join(15)
        sock.close()


def joiners_waits(guessers: int, *, crowd_s: float = 6.0, deadline_s: float = 20.0) -> tuple[list[float], int]:
    """Seconds each joiner took to get in (`deadline_s` when it never did) while `guessers`
    addresses guess for `crowd_s` seconds; and how many wrong tries the server answered."""
    with shared_door() as (port, share):
        wrong = "AAAAAAAA" if share.code != "AAAAAAAA" else "BBBBBBBB"
        stop = threading.Event()
        answered = [0]

        def guess(address: str) -> None:
            ends = time.monotonic() + crowd_s
            while not stop.is_set() and time.monotonic() < ends:
                try:
                    post_join(port, address, {"code": wrong, "name": "Mallory"}, timeout=5.0)
                    answered[0] += 1
                except OSError:
                    stop.wait(0.05)

        crowd = [
            threading.Thread(target=guess, args=(f"127.1.{number // 250}.{number % 250 + 1}",), daemon=True)
            for number in range(guessers)
        ]
        for thread in crowd:
            thread.start()
        time.sleep(min(2.0, crowd_s / 3))  # the crowd is at full speed before the table types
        waits: list[float] = [deadline_s] * len(JOINERS)

        def join(index: int, address: str) -> None:
            started = time.monotonic()
            while time.monotonic() - started < deadline_s:
                try:
                    if post_join(port, address, {"code": share.code, "name": f"Joiner {index}"}) == 303:
                        waits[index] = time.monotonic() - started
                        return
                except OSError:
                    pass
                time.sleep(0.5)

        table = [
            threading.Thread(target=join, args=(index, address), daemon=True) for index, address in enumerate(JOINERS)
        ]
        for thread in table:
            thread.start()
        for thread in table:
            thread.join(deadline_s + 15)
        stop.set()
        for thread in crowd:
            thread.join(15)
        return waits, answered[0]


def loopback_addresses_work() -> bool:
    """Whether this machine answers from 127.x.y.z (Linux does; some systems only 127.0.0.1)."""
    try:
        with socket.socket() as probe:
            probe.bind(("127.1.0.1", 0))
        return True
    except OSError:
        return False

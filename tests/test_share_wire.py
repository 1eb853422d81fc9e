"""What a joined phone is sent, byte for byte: its own screens and nothing of the host's list.

A table with other games on the host (their ids, titles and players known); one of them
shared. Every frame a phone's page is sent is scanned for anything of the other games:
first in-process (the harness records every encoded message), then over a real socket to a
real server on loopback, as a Flutter client registers (127.0.0.2 stands in for the local
network, the phone arrives from 127.0.0.3).
"""

from __future__ import annotations

import asyncio
import http.client
import threading
import time
import urllib.parse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgpack
import websockets
from app_helpers import memory_app, table
from flet.messaging.protocol import MessageAction
from flet.pubsub.pubsub_hub import PubSubHub
from flet_harness import Screen, wait_for

from companion.app import share, web
from companion.app.data import AppData
from companion.app.main import make_main
from companion.app.share import Guest, Sharing
from companion.store import Store, StoreError

LAN_HOST, PHONE = "127.0.0.2", "127.0.0.3"
PATCH = MessageAction.PATCH_CONTROL.value


class Listener:
    def open(self, host: str) -> str:
        return f"http://{host}:8550/"

    def close(self) -> None:
        return None


def other_games(data: AppData) -> list[bytes]:
    """Three more games on the host, finished or not, and what of them must never reach a phone."""
    secret = data.store.new("heartland", ["Zelda", "Quentin"], {}, title="Secret cup")
    secret.apply({"type": "adjust", "player": "Zelda", "amount": 13, "note": "Quentin's birthday"})
    data.store.close_session(secret.id or "")
    finished = data.store.new("transamerica", ["Xavier", "Yolanda", "Wilhelmina"], {})
    finished.apply({"type": "end_round", "missing": {"Xavier": 0, "Yolanda": 13, "Wilhelmina": 14}})
    data.store.close_session(finished.id or "")
    plains = data.store.new("great_plains", ["Ulrich", "Ophelia"], {}, title="Prairie night")
    data.store.close_session(plains.id or "")
    words = [
        "Zelda",
        "Quentin",
        "Secret cup",
        "Xavier",
        "Yolanda",
        "Wilhelmina",
        "Ulrich",
        "Ophelia",
        "Prairie night",
        "birthday",
    ]
    return [word.encode() for word in words] + [str(game.id).encode() for game in (secret, finished, plains)]


def shared_game(data: AppData) -> str:
    """Ann and Bob's Heartland game, left open on the host's screen."""
    game = data.store.new("heartland", ["Ann", "Bob"], {})
    data.store.close_session(game.id or "")
    data.remember_screen(game.id)
    return game.id or ""


def is_screen(packed: bytes) -> bool:
    """Whether an encoded message draws controls of a screen (not the page's title and theme,
    not a service such as the wake lock)."""
    action = msgpack.unpackb(packed, strict_map_key=False)[0]
    return action == PATCH and b"controls" in packed


def leaks(frames: Iterable[bytes], secrets: list[bytes]) -> list[tuple[int, bytes]]:
    return [(number, secret) for number, frame in enumerate(frames) for secret in secrets if secret in frame]


def guest_page_frames(screen: Screen) -> list[bytes]:
    return [message.raw for message in screen.conn.messages]


@table
async def test_a_phone_is_sent_the_shared_game_first_and_nothing_of_the_other_games() -> None:
    data = memory_app()
    secrets = other_games(data)
    game_id = shared_game(data)
    sharing = Sharing(Listener(), LAN_HOST)
    main = make_main(data, sharing)
    hub = PubSubHub(loop=asyncio.get_running_loop())
    host = await Screen(main, pubsub=hub).start()
    try:
        assert host.exists("money-ann")
        await host.tap("share")
        await host.tap("share-start")
        shared = sharing.current
        assert shared is not None and shared.session_id == game_id
        vera = shared.join_by_code(shared.code, "Vera", PHONE)
        phone = await open_phone(main, hub, vera)
        try:
            first_screen = next(message.raw for message in phone.conn.messages if is_screen(message.raw))
            assert b"Ann" in first_screen and b"Bob" in first_screen  # the first screen drawn is the shared game
            # The host plays on, the phone follows; it drops its socket and comes back.
            await host.tap("panel-close")
            await host.tap("move-fuel-1")
            await wait_for(lambda: phone.text_of("undo-strip") == host.text_of("undo-strip"))
            await phone.reconnect()
            await phone.settle()
            # The host leaves the game: sharing stops, the phone says so.
            await host.tap("back")
            await wait_for(lambda: phone.exists("share-stopped"))
            await phone.settle()
            frames = guest_page_frames(phone)
            print(f"frames sent to the phone: {len(frames)}, {sum(map(len, frames))} bytes")
            assert leaks(frames, secrets) == []
            # The host's own page did list them: the scan finds what is there.
            assert leaks(guest_page_frames(host), secrets)
        finally:
            await phone.close()
    finally:
        await host.close()


@table
async def test_a_phone_whose_shared_game_cannot_be_opened_is_not_shown_the_host_list() -> None:
    data = memory_app()
    secrets = other_games(data)
    game_id = shared_game(data)
    sharing = Sharing(Listener(), LAN_HOST)
    shared = sharing.start(game_id)
    vera = shared.join_by_code(shared.code, "Vera", PHONE)
    real_open = data.open

    def refuse(session_id: str) -> Any:
        if session_id == game_id:
            raise StoreError("store.busy")
        return real_open(session_id)

    data.open = refuse  # type: ignore[method-assign]
    main = make_main(data, sharing)
    phone = await open_phone(main, PubSubHub(loop=asyncio.get_running_loop()), vera)
    try:
        assert phone.exists("share-stopped") and not phone.exists("new-game")
        assert leaks(guest_page_frames(phone), secrets) == []
    finally:
        await phone.close()


async def open_phone(main: Any, hub: PubSubHub, guest: Guest) -> Screen:
    token = share.current_guest.set(guest.id)
    try:
        return await Screen(main, pubsub=hub).start()
    finally:
        share.current_guest.reset(token)


# --- over a real socket: a Flutter client's registration, frame by frame ------------------------


def join(port: int, code: str) -> str:
    """Type the code on the phone's join page; the guest cookie it is handed."""
    connection = http.client.HTTPConnection(LAN_HOST, port, timeout=5, source_address=(PHONE, 0))
    try:
        connection.request(
            "POST",
            "/join",
            urllib.parse.urlencode({"code": code, "name": "Vera"}),
            {
                "Host": f"{LAN_HOST}:{port}",
                "Origin": f"http://{LAN_HOST}:{port}",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 303, answer.status
        cookies = [value.split(";", 1)[0] for name, value in answer.getheaders() if name.lower() == "set-cookie"]
    finally:
        connection.close()
    return "; ".join(cookies)


async def frames_of_a_page(port: int, cookie: str, seconds: float, session_id: str = "") -> tuple[list[bytes], str]:
    """Register as the Flutter client does and keep every frame sent for `seconds`; and the page's session id."""
    frames: list[bytes] = []
    async with websockets.connect(
        f"ws://{LAN_HOST}:{port}/ws",
        origin=websockets.Origin(f"http://{LAN_HOST}:{port}"),
        additional_headers={"Cookie": cookie},
        max_size=None,
    ) as socket:
        register = {
            "session_id": session_id,
            "page_name": "",
            "page": {"route": "/", "width": 412, "height": 915, "platform": "android", "web": True},
        }
        await socket.send(b"\x00" + msgpack.packb([1, register]))
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                frame = await asyncio.wait_for(socket.recv(), left)
            except TimeoutError:
                break
            assert isinstance(frame, bytes)
            frames.append(frame)
    answer = msgpack.unpackb(frames[0][1:], strict_map_key=False)
    assert answer[0] == 1, answer[0]  # the registration's answer
    return frames, str(answer[1].get("session_id", ""))


def test_over_a_real_socket_a_phone_is_sent_its_game_and_nothing_else(tmp_path: Path) -> None:
    data = AppData(Store(tmp_path / "data"))
    secrets = other_games(data)
    game_id = shared_game(data)
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
        started = asyncio.run_coroutine_threadsafe(_start(sharing, game_id), app.loop).result(10)
        cookie = join(port, started.code)
        frames, page_session = asyncio.run(frames_of_a_page(port, cookie, 3.0))
        # The socket dropped and came back (a phone's screen woke up): the page is sent again.
        again, _ = asyncio.run(frames_of_a_page(port, cookie, 2.0, page_session))
        everything = frames + again
        print(f"frames sent to the phone over its socket: {len(everything)}, {sum(map(len, everything))} bytes")
        first_screen = next(frame for frame in frames if is_screen(frame[1:]))
        assert b"Ann" in first_screen and b"Bob" in first_screen  # the first screen drawn is the shared game
        assert leaks(everything, secrets) == []
    finally:
        if app.loop is not None:
            asyncio.run_coroutine_threadsafe(_stop(sharing), app.loop).result(10)
        server.should_exit = True
        thread.join(15)
        sock.close()


async def _start(sharing: Sharing, game_id: str) -> share.Share:
    return sharing.start(game_id)


async def _stop(sharing: Sharing) -> None:
    sharing.stop()

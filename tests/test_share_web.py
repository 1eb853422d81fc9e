"""The web door while a game is shared: what a phone on the local network gets with and
without a join code, in-process (Starlette's TestClient), then with a real uvicorn on
127.0.0.2 standing in for the local-network address.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from companion.app import share, web
from companion.app.share import Sharing

PORT = 8550
HOST_ORIGIN = f"http://127.0.0.1:{PORT}"
LAN = web.Address("127.0.0.2", PORT)  # stands in for the local network: tests stay on loopback
EVIL = "http://evil.example"


def main(page: ft.Page) -> None:
    page.add(ft.Text("hello"))


class DoorListener:
    """The share listener without a socket: the test client arrives at the LAN address itself."""

    def __init__(self, door: web.Door) -> None:
        self.door = door
        self.closed = 0

    def open(self, host: str) -> str:
        self.door.lan = web.Address(host, PORT)
        return self.door.lan.url

    def close(self) -> None:
        self.closed += 1


@pytest.fixture
def door() -> Iterator[tuple[web.Door, Sharing]]:
    sharing = Sharing(None, LAN.host)
    app = web.create_app(main, [web.Address("127.0.0.1", PORT)], sharing=sharing)
    sharing.listener = DoorListener(app)
    yield app, sharing
    sharing.stop()


def phone(app: web.Door) -> TestClient:
    """A phone on the table's network: it reaches the LAN address, with its own cookies."""
    return TestClient(app, base_url=LAN.origin, follow_redirects=False)


def wrong_code(shared: share.Share) -> str:
    return "AAAAAA" if shared.code != "AAAAAA" else "BBBBBB"


def test_before_sharing_the_lan_address_is_not_served(door: tuple[web.Door, Sharing]) -> None:
    app, _ = door
    with phone(app) as client:
        assert client.get("/").status_code == 403


def test_without_a_code_a_phone_sees_only_the_code_page(door: tuple[web.Door, Sharing]) -> None:
    app, sharing = door
    sharing.start("g1")
    with phone(app) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert "Join the game" in page.text and 'name="code"' in page.text and "boot.js" not in page.text
        for path in ("/main.dart.js", "/flutter_bootstrap.js", "/manifest.json", "/games", "/assets/index.html"):
            answer = client.get(path)
            assert answer.status_code == 401 and "Join the game" in answer.text, path
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(f"ws://{LAN.netloc}/ws", headers={"origin": LAN.origin}),
        ):
            pass
        assert refused.value.code == 1008
        policy = page.headers["content-security-policy"]
        assert f"ws://{LAN.netloc}" in policy and "127.0.0.1" not in policy and "form-action 'self'" in policy
        # Under "no-referrer" a browser posts the form with `Origin: null`, which the door refuses.
        assert page.headers["referrer-policy"] == "same-origin"
    # The host's own address keeps working as before, without any code.
    with TestClient(app, base_url=HOST_ORIGIN) as host:
        assert "boot.js" in host.get("/").text


def test_a_typed_code_lets_the_phone_in_with_an_httponly_strict_cookie(door: tuple[web.Door, Sharing]) -> None:
    app, sharing = door
    shared = sharing.start("g1")
    with phone(app) as client:
        joined = client.post(
            "/join",
            data={"code": share.display_code(shared.code).lower(), "name": "Bob"},
            headers={"origin": LAN.origin},
        )
        assert joined.status_code == 303 and joined.headers["location"] == "/"
        cookies = joined.headers.get_list("set-cookie")
        guest_cookie = next(cookie for cookie in cookies if cookie.startswith(web.GUEST_COOKIE + "="))
        assert "HttpOnly" in guest_cookie and "SameSite=strict" in guest_cookie
        assert [guest.name for guest in shared.guests.values()] == ["Bob"]
        assert "boot.js" in client.get("/").text
        with client.websocket_connect(f"ws://{LAN.netloc}/ws", headers={"origin": LAN.origin}) as ws:
            assert ws is not None


def test_the_link_in_the_qr_code_asks_only_for_a_name_once(door: tuple[web.Door, Sharing]) -> None:
    app, sharing = door
    shared = sharing.start("g1")
    path = "/j/" + shared.link_token
    with phone(app) as client:
        form = client.get(path)
        assert form.status_code == 200 and 'name="code"' not in form.text
        assert f'value="{shared.link_token}"' in form.text
        joined = client.post("/join", data={"token": shared.link_token, "name": "Ann"})
        assert joined.status_code == 303
        assert "boot.js" in client.get("/").text
    # Next game, the same phone: the name was remembered, one scan joins.
    sharing.stop()
    shared = sharing.start("g2")
    with phone(app) as client:
        client.cookies.set(web.NAME_COOKIE, "Ann", domain=LAN.host)
        again = client.get("/j/" + shared.link_token)
        assert again.status_code == 303
        assert [guest.name for guest in shared.guests.values()] == ["Ann"]


def test_a_wrong_code_or_old_link_says_so_and_typing_is_slowed(door: tuple[web.Door, Sharing]) -> None:
    app, sharing = door
    shared = sharing.start("g1")
    with phone(app) as client:
        wrong = client.post("/join", data={"code": wrong_code(shared), "name": "Mallory"})
        assert wrong.status_code == 403 and "That is not the code on the host&#x27;s screen." in wrong.text
        assert 'value="Mallory"' in wrong.text  # the name typed stays
        old = client.get("/j/" + "x" * 22)
        assert old.status_code == 403 and "type the code instead" in old.text and 'name="code"' in old.text
        statuses = [
            client.post("/join", data={"code": wrong_code(shared), "name": "Mallory"}).status_code for _ in range(30)
        ]
        checked = statuses.count(403) + 1
        print(f"typed codes checked out of 31 quick tries: {checked}")
        assert checked == share.TRIES_PER_WINDOW and statuses[-1] == 429
        assert "Too many tries" in client.post("/join", data={"code": shared.code, "name": "Mallory"}).text
    assert shared.guests == {}


def test_a_foreign_site_cannot_post_a_join_or_rebind_the_lan_name(door: tuple[web.Door, Sharing]) -> None:
    app, sharing = door
    shared = sharing.start("g1")
    with phone(app) as client:
        foreign = client.post("/join", data={"code": shared.code, "name": "X"}, headers={"origin": EVIL})
        assert foreign.status_code == 403
        assert client.get("/", headers={"host": f"evil.example:{PORT}"}).status_code == 403
        # The host's loopback name is not a way around the code on the shared address either.
        assert client.get("/", headers={"host": f"127.0.0.1:{PORT}"}).status_code == 403
    assert shared.guests == {}


def test_after_the_stop_a_joined_phone_is_let_in_nowhere(door: tuple[web.Door, Sharing]) -> None:
    app, sharing = door
    shared = sharing.start("g1")
    with phone(app) as client:
        client.post("/join", data={"code": shared.code, "name": "Bob"})
        assert "boot.js" in client.get("/").text
        sharing.stop()
        gone = client.get("/")
        assert gone.status_code == 403 and gone.text == "This game is no longer shared."
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"ws://{LAN.netloc}/ws", headers={"origin": LAN.origin}),
        ):
            pass
        sharing.start("g1")  # shared again: new codes, the old cookie opens nothing
        assert "Join the game" in client.get("/").text


def test_the_socket_of_a_joined_phone_names_its_guest_to_the_page(door: tuple[web.Door, Sharing]) -> None:
    app, sharing = door
    shared = sharing.start("g1")
    seen: list[str | None] = []

    flet_app = app.app

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await flet_app(scope, receive, send)
            return
        seen.append(share.current_guest.get())
        await receive()
        await send({"type": "websocket.close", "code": 1000})

    app.app = inner
    with phone(app) as client:
        client.post("/join", data={"code": shared.code, "name": "Bob"})
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"ws://{LAN.netloc}/ws", headers={"origin": LAN.origin}),
        ):
            pass
    (bob,) = shared.guests.values()
    assert seen == [bob.id]
    assert share.current_guest.get() is None


# --- a real server: the LAN address answers only while shared ----------------------------------


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as page:
            return bool(page.status)
    except urllib.error.HTTPError:
        return True
    except (urllib.error.URLError, ConnectionError, OSError):
        return False


def wait_until(condition: Any, tries: int = 100) -> bool:
    for _ in range(tries):  # up to ~10 s
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_the_lan_address_is_bound_only_while_sharing() -> None:
    sock = web.listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    sharing = Sharing(None, LAN.host)
    app = web.create_app(main, [web.Address("127.0.0.1", port)], sharing=sharing)
    sharing.listener = web.ShareListener(app, port)
    server: Any = web.server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    lan_url = f"http://{LAN.host}:{port}/"
    try:
        assert wait_until(lambda: server.started)
        assert not answers(lan_url)
        assert app.loop is not None
        app.loop.call_soon_threadsafe(sharing.start, "g1")
        assert wait_until(lambda: answers(lan_url))
        with urllib.request.urlopen(lan_url, timeout=5) as page:
            assert "Join the game" in page.read().decode()
        with socket.create_connection((LAN.host, port), timeout=5):
            pass
        app.loop.call_soon_threadsafe(sharing.stop)
        assert wait_until(lambda: not answers(lan_url))
        assert answers(f"http://127.0.0.1:{port}/")
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()
    assert not thread.is_alive()


def test_a_desktop_window_shares_through_a_web_door_of_its_own() -> None:
    """The window is served by Flet itself; the phones get the door on the LAN address only."""
    sharing = Sharing(None, LAN.host)
    listener = web.WindowShareListener(main, sharing, 0)
    sharing.listener = listener
    assert sharing.relay  # the window's changes are passed on to the phones' pages

    async def window() -> tuple[str, str, bool]:
        loop = asyncio.get_running_loop()
        shared = sharing.start("g1")  # as from a tap in the window: inside its event loop
        page = ""
        for _ in range(100):
            try:
                page = await loop.run_in_executor(
                    None, lambda: urllib.request.urlopen(shared.url, timeout=5).read().decode()
                )
                break
            except OSError:
                await asyncio.sleep(0.1)
        sharing.stop()
        port = int(shared.url.rsplit(":", 1)[1].strip("/"))
        for _ in range(100):
            if not await loop.run_in_executor(None, answers, shared.url):
                break
            await asyncio.sleep(0.1)
        return page, shared.url, await loop.run_in_executor(None, answers, f"http://{LAN.host}:{port}/")

    page, url, still_open = asyncio.run(window())
    assert url.startswith(f"http://{LAN.host}:")
    assert "Join the game" in page
    assert not still_open


def test_a_change_made_in_the_window_reaches_the_phones_pages_once(door: tuple[web.Door, Sharing]) -> None:
    _, sharing = door
    heard: list[tuple[str, str]] = []

    class Page:
        def __init__(self, name: str) -> None:
            self.name = name

        def told(self, session_id: str) -> None:
            heard.append((self.name, session_id))

    window, phone_page = Page("window"), Page("phone")
    sharing.subscribe_games(window.told)
    stop = sharing.subscribe_games(phone_page.told)
    sharing.game_changed("g1", told_by=window.told)
    stop()
    sharing.game_changed("g1", told_by=window.told)
    assert heard == [("phone", "g1")]


# --- typed codes on a real server: one phone's guessing keeps no other phone out ----------------


_posts = itertools.count(1)


def post_join(port: int, phone: str, form: dict[str, str]) -> tuple[int, str]:
    """POST the join form to the shared address from the phone at address `phone` (its source).

    Each post claims to be forwarded for another address: were such headers believed, a
    guesser would be a new phone with every try."""
    body = urllib.parse.urlencode(form)
    posing_as = f"192.168.1.{next(_posts) % 250 + 2}"
    connection = http.client.HTTPConnection(LAN.host, port, timeout=5, source_address=(phone, 0))
    try:
        connection.request(
            "POST",
            "/join",
            body,
            {
                "Host": f"{LAN.host}:{port}",
                "Origin": f"http://{LAN.host}:{port}",
                "Content-Type": "application/x-www-form-urlencoded",
                # A guesser cannot pose as another phone: the door reads the socket's address only.
                "X-Forwarded-For": posing_as,
                "X-Real-IP": posing_as,
                "Forwarded": f"for={posing_as}",
            },
        )
        answer = connection.getresponse()
        return answer.status, answer.read().decode()
    finally:
        connection.close()


def test_a_guessing_phone_is_held_up_alone_and_a_joiner_on_another_phone_gets_in_at_once() -> None:
    attacker, joiner = "127.0.0.1", "127.0.0.3"  # two phones: two loopback source addresses
    sock = web.listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    sharing = Sharing(None, LAN.host)
    app = web.create_app(main, [web.Address("127.0.0.1", port)], sharing=sharing)
    sharing.listener = web.ShareListener(app, port)
    server: Any = web.server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        assert wait_until(lambda: server.started)
        assert app.loop is not None
        app.loop.call_soon_threadsafe(sharing.start, "g1")
        assert wait_until(lambda: answers(f"http://{LAN.host}:{port}/"))
        shared = sharing.current
        assert shared is not None
        wrong = wrong_code(shared)
        # Mallory guesses as fast as the server answers, until her phone is held up.
        statuses = [
            post_join(port, attacker, {"code": wrong, "name": "Mallory"})[0] for _ in range(share.TRIES_PER_WINDOW + 5)
        ]
        assert statuses.count(403) == share.TRIES_PER_WINDOW and statuses[-1] == 429
        # She keeps trying once a second while Ann types the code read aloud on her own phone.
        stop = threading.Event()
        guesses: list[int] = []

        def keep_guessing() -> None:
            while not stop.is_set():
                guesses.append(post_join(port, attacker, {"code": wrong, "name": "Mallory"})[0])
                stop.wait(1.0)

        guesser = threading.Thread(target=keep_guessing, daemon=True)
        guesser.start()
        time.sleep(1.5)
        started = time.monotonic()
        status, _ = post_join(port, joiner, {"code": shared.code, "name": "Ann"})
        kept_out = time.monotonic() - started
        # And Vera scans the QR code meanwhile: the link is never counted.
        linked, _ = post_join(port, attacker, {"token": shared.link_token, "name": "Vera"})
        stop.set()
        guesser.join(10)
        print(
            f"a joiner beside a guessing phone got in after {kept_out * 1000:.0f} ms, at the first try; "
            f"the guesser's {len(guesses)} tries meanwhile: {sorted(set(guesses))}"
        )
        assert status == 303 and kept_out < 2.0
        assert linked == 303
        assert set(guesses) == {429}
        assert sorted(guest.name for guest in shared.guests.values()) == ["Ann", "Vera"]
    finally:
        if app.loop is not None:
            app.loop.call_soon_threadsafe(sharing.stop)
        server.should_exit = True
        thread.join(15)
        sock.close()
    assert not thread.is_alive()


def test_a_joined_phone_cannot_upload_a_file_even_with_a_url_the_host_signed(door: tuple[web.Door, Sharing]) -> None:
    from flet_web.uploads import build_upload_url  # type: ignore[import-untyped]

    from companion.app import incoming

    app, sharing = door
    shared = sharing.start("g1")
    signed = build_upload_url(incoming.UPLOAD_PATH, "from-a-phone.json", 60, incoming.secret())
    with phone(app) as client:
        client.post("/join", data={"code": shared.code, "name": "Bob"}, headers={"origin": LAN.origin})
        assert "boot.js" in client.get("/").text  # joined
        answer = client.put(signed, content=b"{}", headers={"origin": LAN.origin})
        assert answer.status_code == 404
    assert not (Path(incoming.folder()) / "from-a-phone.json").exists()


def test_forty_addresses_guessing_as_fast_as_they_can_keep_no_joiner_out_beyond_five_seconds() -> None:
    from crowd_helpers import joiners_waits

    # A deadline for the right code, not a timing: the figures go to tests/bench/door.py.
    waits, answered = joiners_waits(40)
    print(
        f"40 guessing addresses ({answered} wrong tries answered): joiners got in after "
        + ", ".join(f"{wait:.2f} s" for wait in waits)
    )
    assert answered > 40 * share.TRIES_PER_WINDOW  # the crowd was held up, not idle
    assert all(wait <= 5.0 for wait in waits)

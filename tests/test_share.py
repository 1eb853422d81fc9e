"""Sharing a game with the table's phones, without a network: codes, joins, roles, the stop.

The local-network listener is a stand-in that records what it was asked to open; the web
door's side is in test_share_web.py.
"""

from __future__ import annotations

import base64
import contextlib

import pytest

from companion.app import share
from companion.app.share import SCOREKEEPER, VIEWER, Share, ShareError, Sharing, TryLimits


class FakeListener:
    def __init__(self, fail: str | None = None) -> None:
        self.opened: list[str] = []
        self.closed = 0
        self.fail = fail

    def open(self, host: str) -> str:
        if self.fail:
            raise ShareError(self.fail)
        self.opened.append(host)
        return f"http://{host}:8550/"

    def close(self) -> None:
        self.closed += 1


@pytest.fixture
def sharing() -> Sharing:
    return Sharing(FakeListener(), "127.0.0.2")


def test_the_link_carries_at_least_64_random_bits_and_the_typed_code_is_short() -> None:
    first, second = Share("g1", "http://127.0.0.2:8550/"), Share("g1", "http://127.0.0.2:8550/")
    token = first.link.rsplit("/", 1)[1]
    assert first.link.startswith("http://127.0.0.2:8550/j/")
    assert len(base64.urlsafe_b64decode(token + "==")) * 8 >= 64
    assert len(first.code) == 8 and set(first.code) <= set(share.CODE_ALPHABET)
    assert len(share.CODE_ALPHABET) ** len(first.code) > 2**39  # a crowd of guessers needs years
    assert first.link_token != second.link_token and first.code != second.code
    assert share.display_code("K7PQ4XMN") == "K7PQ-4XMN"


def test_ann_joins_by_link_and_bob_by_the_typed_code_in_any_case(sharing: Sharing) -> None:
    shared = sharing.start("g1")
    ann = shared.join_by_link(shared.link_token, "  Ann ")
    bob = shared.join_by_code(" " + share.display_code(shared.code).lower() + " ", "Bob")
    assert (ann.name, bob.name) == ("Ann", "Bob")
    assert ann.id != bob.id and len(ann.id) >= 40
    assert sharing.guest(ann.id) is ann and sharing.shared_game(bob.id) == "g1"
    assert ann.role == bob.role == VIEWER


def test_a_wrong_code_or_link_or_no_name_is_refused_in_words(sharing: Sharing) -> None:
    shared = sharing.start("g1")
    wrong = "AAAAAA" if shared.code != "AAAAAA" else "BBBBBB"
    with pytest.raises(ShareError, match="That is not the code on the host's screen."):
        shared.join_by_code(wrong, "Cy")
    with pytest.raises(ShareError, match="This link no longer opens a game"):
        shared.join_by_link(shared.link_token[:-1], "Cy")
    with pytest.raises(ShareError, match="Type your name"):
        shared.join_by_code(shared.code, " \t\x00 ")
    with pytest.raises(ShareError, match="at most 30 characters"):
        shared.join_by_code(shared.code, "x" * 31)
    assert shared.guests == {}


def slow_share() -> tuple[Share, list[float], str]:
    """A share whose tries are counted on a clock the test moves, and a wrong code."""
    now = [0.0]
    shared = Share("g1", "http://127.0.0.2:8550/", tries=TryLimits(clock=lambda: now[0]))
    return shared, now, "AAAAAA" if shared.code != "AAAAAA" else "BBBBBB"


def test_typed_codes_are_slowed_to_ten_tries_a_minute_per_phone() -> None:
    shared, now, wrong = slow_share()
    accepted_per_window = []
    for _window in range(3):
        accepted = 0
        for _attempt in range(200):  # a script trying codes as fast as it can, from one phone
            try:
                shared.join_by_code(wrong, "Mallory", "192.168.1.66")
            except ShareError as refusal:
                accepted += "not the code" in str(refusal)
            now[0] += 0.25  # 200 tries spread over 50 s of the minute
        now[0] += 10.0
        accepted_per_window.append(accepted)
    print(f"typed codes checked per minute of brute force from one phone: {accepted_per_window}")
    assert accepted_per_window == [share.TRIES_PER_WINDOW] * 3
    now[0] += share.TRY_WINDOW_S
    for _ in range(share.TRIES_PER_WINDOW):
        with pytest.raises(ShareError, match="not the code"):
            shared.join_by_code(wrong, "Mallory", "192.168.1.66")
    with pytest.raises(ShareError, match=r"Too many tries: wait 60 seconds, then type the code again."):
        shared.join_by_code(wrong, "Mallory", "192.168.1.66")
    # Even the right code waits its turn on that phone, but Ann's phone is not held up at all.
    with pytest.raises(ShareError, match="Too many tries"):
        shared.join_by_code(shared.code, "Ann", "192.168.1.66")
    assert shared.join_by_code(shared.code, "Ann", "192.168.1.20").name == "Ann"


def test_many_phones_guessing_together_never_keep_a_joiner_on_another_phone_out() -> None:
    shared, now, wrong = slow_share()
    checked = 0
    for second in range(60):  # 200 guessing phones, each trying once a second for a minute
        now[0] = float(second)
        for phone in range(200):
            try:
                shared.join_by_code(wrong, "Mallory", f"10.0.{phone // 250}.{phone % 250}")
            except ShareError as refusal:
                checked += "not the code" in str(refusal)
        if second == 30:  # Ann types the code in the middle of it, and gets in at once
            assert shared.join_by_code(shared.code, "Ann", "10.0.9.1").name == "Ann"
    print(f"typed codes checked in a minute from 200 guessing phones: {checked}")
    assert checked == 200 * share.TRIES_PER_WINDOW


def test_one_device_cannot_be_a_new_phone_with_every_ipv6_address_of_its_network() -> None:
    shared, _, wrong = slow_share()
    for number in range(share.TRIES_PER_WINDOW):
        with pytest.raises(ShareError, match="not the code"):
            shared.join_by_code(wrong, "Mallory", f"fd00:1:2:3::{number + 1:x}")
    with pytest.raises(ShareError, match="Too many tries"):
        shared.join_by_code(shared.code, "Mallory", "fd00:1:2:3::ffff")
    assert shared.join_by_code(shared.code, "Ann", "fd00:1:2:4::1").name == "Ann"


def test_beyond_the_phones_counted_at_once_a_new_phone_waits_until_one_is_forgotten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(share, "PHONES_KNOWN_MAX", 3)
    shared, now, wrong = slow_share()
    for phone in range(3):
        with pytest.raises(ShareError, match="not the code"):
            shared.join_by_code(wrong, "Mallory", f"10.0.0.{phone}")
    now[0] += 20.0
    with pytest.raises(ShareError, match="wait 40 seconds"):
        shared.join_by_code(wrong, "Mallory", "10.0.0.99")
    now[0] += 40.0
    with pytest.raises(ShareError, match="not the code"):
        shared.join_by_code(wrong, "Mallory", "10.0.0.99")
    assert shared.tries.phones == 1


def test_a_phone_is_forgotten_once_its_tries_are_a_window_old() -> None:
    shared, now, wrong = slow_share()
    for phone in range(5):
        with pytest.raises(ShareError, match="not the code"):
            shared.join_by_code(wrong, "Mallory", f"10.0.0.{phone}")
    assert shared.tries.phones == 5
    now[0] += share.TRY_WINDOW_S
    with pytest.raises(ShareError, match="not the code"):
        shared.join_by_code(wrong, "Mallory", "10.0.0.99")
    assert shared.tries.phones == 1


def test_the_link_in_the_qr_code_is_never_counted() -> None:
    shared, _, wrong = slow_share()
    for _ in range(share.TRIES_PER_WINDOW * 3):
        with contextlib.suppress(ShareError):
            shared.join_by_code(wrong, "Mallory", "192.168.1.66")
    for number in range(share.TRIES_PER_WINDOW + 1):
        assert shared.join_by_link(shared.link_token, f"Guest {number}").name == f"Guest {number}"


def test_a_viewer_may_not_write_a_scorekeeper_may_until_revoked(sharing: Sharing) -> None:
    shared = sharing.start("g1")
    ann = shared.join_by_code(shared.code, "Ann")
    assert not sharing.may_write(ann.id)
    sharing.set_role(ann.id, SCOREKEEPER)
    assert sharing.may_write(ann.id)
    sharing.set_role(ann.id, VIEWER)
    assert not sharing.may_write(ann.id)
    assert not sharing.may_write("made-up")


def test_stopping_forgets_every_code_link_and_guest_and_tells_the_pages(sharing: Sharing) -> None:
    told: list[Share | None] = []
    sharing.subscribe(lambda: told.append(sharing.current))
    shared = sharing.start("g1")
    ann = shared.join_by_code(shared.code, "Ann")
    sharing.set_role(ann.id, SCOREKEEPER)
    sharing.stop()
    assert told[-1] is None and len(told) == 3  # started, role, stopped
    assert sharing.current is None and sharing.guest(ann.id) is None and not sharing.may_write(ann.id)
    assert sharing.shared_game(ann.id) is None
    with pytest.raises(ShareError):
        shared.join_by_code(shared.code, "Bob")
    with pytest.raises(ShareError):
        shared.join_by_link(shared.link_token, "Bob")
    listener = sharing.listener
    assert isinstance(listener, FakeListener) and listener.closed == 1
    again = sharing.start("g1")
    assert again.code != shared.code or again.link_token != shared.link_token
    assert again.guest(ann.id) is None


def test_sharing_another_game_stops_the_first(sharing: Sharing) -> None:
    first = sharing.start("g1")
    assert sharing.start("g1") is first  # the same game: the same codes
    second = sharing.start("g2")
    assert first.stopped and not second.stopped and sharing.current is second


def test_who_is_connected_counts_open_pages(sharing: Sharing) -> None:
    shared = sharing.start("g1")
    ann, bob = shared.join_by_code(shared.code, "Ann"), shared.join_by_code(shared.code, "Bob")
    sharing.page_opened(ann.id)
    sharing.page_opened(bob.id)
    sharing.page_opened(bob.id)
    sharing.page_closed(bob.id)
    assert [guest.name for guest in shared.connected()] == ["Ann", "Bob"]
    sharing.page_closed(ann.id)
    sharing.page_closed(ann.id)  # a second close of the same page changes nothing
    assert [guest.name for guest in shared.connected()] == ["Bob"]


def test_no_local_network_or_no_web_server_is_a_sentence() -> None:
    with pytest.raises(ShareError, match="No local network found"):
        Sharing(FakeListener(), None, find_host=lambda: None).start("g1")
    with pytest.raises(ShareError, match="cannot share"):
        Sharing(None, "127.0.0.2").start("g1")
    with pytest.raises(ShareError, match="port 8550 is already in use"):
        Sharing(FakeListener(fail="port 8550 is already in use"), "127.0.0.2").start("g1")


def test_a_page_that_fails_to_hear_does_not_keep_the_others_from_hearing(sharing: Sharing) -> None:
    heard: list[str] = []

    def broken() -> None:
        raise RuntimeError("socket gone")

    sharing.subscribe(broken)
    stop_hearing = sharing.subscribe(lambda: heard.append("told"))
    sharing.start("g1")
    stop_hearing()
    sharing.stop()
    assert heard == ["told"]

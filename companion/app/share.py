"""Sharing one game with the table's phones: codes, who joined, and what each may do.

The host (the device keeping the game) starts a `Share` of one game through `Sharing`,
which opens the local-network address only for as long as the share lasts. A phone joins
with the link in the QR code (a random token of 128 bits) or by typing the short code
(8 characters, about 40 bits, so typed tries are counted: `TRIES_PER_WINDOW` a
`TRY_WINDOW_S` per phone, known by its address, with no ceiling shared by every phone that
a crowd of guessers could fill, see `TryLimits`). A joined phone is a `Guest`,
known by a random id kept in an HttpOnly cookie; it may only follow the shared game, and
may change it only while the host lets it keep score. Stopping the share forgets every code and every guest
at once: an old link, code or cookie opens nothing.

Nothing here knows about HTTP or Flet: the web door asks `Sharing.current` who a cookie
belongs to; the screens ask `may_write`, and subscribe to hear of joins, roles and the
stop.
"""

from __future__ import annotations

import contextvars
import ipaddress
import logging
import secrets
import socket
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from companion.text.messages import Message, register

log = logging.getLogger(__name__)

Role = Literal["viewer", "scorekeeper"]
VIEWER: Role = "viewer"
SCOREKEEPER: Role = "scorekeeper"

# No 0/O, 1/I/L: a code is read aloud and typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8  # 31**8: about 8.5e11 codes (40 bits), read aloud as two halves of 4
LINK_TOKEN_BYTES = 16  # 128 bits in the link (at least 64 asked for)
GUEST_ID_BYTES = 32
TRIES_PER_WINDOW = 10  # typed codes from one phone (one address)
TRY_WINDOW_S = 60.0
# Phones (addresses; an IPv6 /64 is one phone) whose tries are counted at once. Far above any
# table's network (a /24 holds 254), and the only bound on many guessers: at most
# 4096 * 10 = 40,960 tries a minute, so half of the 8.5e11 codes take a crowd of that size
# about 20 years, on average. A joiner waits only behind tries of its own address, unless
# more than `PHONES_KNOWN_MAX` addresses guessed within the last minute.
PHONES_KNOWN_MAX = 4096
NAME_MAX = 30

# The guest whose socket is being served: set by the web door around Flet's socket handler,
# read once by the page's `main` (Flet starts `main` inside that handler's task).
current_guest: contextvars.ContextVar[str | None] = contextvars.ContextVar("current_guest", default=None)


class ShareError(Exception):
    """Sharing could not start, or a join was refused; `str()` is a sentence for the user.

    Like `RuleError`, it carries a `Message`, so each page says it in its own language."""

    def __init__(self, message_id: str, **params: Any) -> None:
        self.message = Message(message_id, params)
        super().__init__(str(self.message))


register(
    "en",
    {
        "share.name_empty": "Type your name, so the host knows who joined.",
        "share.name_long": "A name has at most {high} characters.",
        "share.link_gone": "This link no longer opens a game: ask the host for the code.",
        "share.not_shared": "This game is no longer shared.",
        "share.too_many_tries": "Too many tries: wait {seconds} seconds, then type the code again.",
        "share.wrong_code": "That is not the code on the host's screen.",
        "share.no_server": "This app cannot share: its web server is not part of this build.",
        "share.no_network": "No local network found: connect to the table's Wi-Fi, then share again.",
        "share.cannot_open": "Cannot share on {host}: {reason}.",
    },
)


class Listener(Protocol):
    """Opens the local-network address while a share lasts (the web door's `ShareListener`)."""

    def open(self, host: str) -> str:
        """Start answering on `host`; returns the base URL phones open. Raises ShareError."""

    def close(self) -> None:
        """Stop answering on the local network (open sockets are closed too)."""


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def typed_code(text: str) -> str:
    """What a person typed, as a code: case, spaces and dashes do not matter."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")


def display_code(code: str) -> str:
    """`K7PQ4XMN` as `K7PQ-4XMN`, easier to read aloud."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def clean_name(text: str) -> str:
    """The name a joiner typed, or ShareError saying what is wrong with it."""
    name = " ".join("".join(ch for ch in text if unicodedata.category(ch)[0] != "C").split())
    if not name:
        raise ShareError("share.name_empty")
    if len(name) > NAME_MAX:
        raise ShareError("share.name_long", high=NAME_MAX)
    return name


class TryCounter:
    """At most `limit` tries in any `window` seconds: brute force of a short code slowed to a crawl."""

    def __init__(
        self, limit: int = TRIES_PER_WINDOW, window: float = TRY_WINDOW_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._tries: deque[float] = deque()

    def wait(self) -> float:
        """0 when a try may be made now (nothing is counted); else the seconds to wait."""
        now = self.clock()
        while self._tries and self._tries[0] <= now - self.window:
            self._tries.popleft()
        return self._tries[0] + self.window - now if len(self._tries) >= self.limit else 0.0

    def count(self) -> None:
        self._tries.append(self.clock())

    def allow(self) -> float:
        """0 when a try may be made now (it is counted); else the seconds to wait."""
        wait = self.wait()
        if not wait:
            self.count()
        return wait

    def forgotten_in(self) -> float:
        """Seconds until every try counted now is a window old."""
        return self._tries[-1] + self.window - self.clock() if self._tries else 0.0

    @property
    def idle(self) -> bool:
        """No try is counted any more: the counter may be forgotten."""
        self.wait()  # lets go of the tries older than the window
        return not self._tries


class TryLimits:
    """Typed codes counted per phone (its network address), and nothing shared by all phones.

    A phone that keeps guessing waits for its own tries only: a real joiner on another phone
    types the code at once, however many phones guess (a ceiling for everyone together would
    let a crowd of guessers shut the door on the table). A phone is forgotten once its tries
    are a window old; at most `PHONES_KNOWN_MAX` phones are known at once, and a new one waits
    while that many are counted (see the figures next to the constant).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._phones: dict[str, TryCounter] = {}

    def allow(self, phone: str) -> float:
        """0 when `phone` may try a code now (it is counted); else the seconds it waits."""
        phone = phone_of(phone)
        counter = self._phones.get(phone)
        if counter is None:
            if len(self._phones) >= PHONES_KNOWN_MAX:
                self._forget_idle()
            if len(self._phones) >= PHONES_KNOWN_MAX:
                return min(counter.forgotten_in() for counter in self._phones.values())
            counter = self._phones[phone] = TryCounter(TRIES_PER_WINDOW, TRY_WINDOW_S, self.clock)
        return counter.allow()

    def _forget_idle(self) -> None:
        for phone in [phone for phone, counter in self._phones.items() if counter.idle]:
            del self._phones[phone]

    @property
    def phones(self) -> int:
        """How many phones' tries are counted now (idle ones are forgotten first)."""
        self._forget_idle()
        return len(self._phones)


def phone_of(address: str) -> str:
    """The phone an address stands for: itself, or its /64 for IPv6 (one device may hold a
    whole /64, and would otherwise be a new phone with every try)."""
    if ":" not in address:
        return address
    try:
        network = ipaddress.IPv6Network(f"{address.split('%')[0]}/64", strict=False)
    except ValueError:
        return address
    return str(network)


@dataclass
class Guest:
    id: str  # the cookie's value; never shown
    name: str
    role: Role = VIEWER
    pages: int = 0  # open pages (sockets) of this phone


@dataclass
class Share:
    """One game opened to the table until `stopped`."""

    session_id: str
    url: str  # the address phones open, e.g. http://192.168.1.20:8550/
    link_token: str = field(default_factory=lambda: secrets.token_urlsafe(LINK_TOKEN_BYTES))
    code: str = field(default_factory=new_code)
    tries: TryLimits = field(default_factory=TryLimits)
    guests: dict[str, Guest] = field(default_factory=dict)
    stopped: bool = False

    @property
    def link(self) -> str:
        """The link in the QR code: joining needs nothing typed but a name."""
        return f"{self.url}j/{self.link_token}"

    def link_opens(self, token: str) -> bool:
        return not self.stopped and secrets.compare_digest(token.encode(), self.link_token.encode())

    def join_by_link(self, token: str, name: str) -> Guest:
        if not self.link_opens(token):
            raise ShareError("share.link_gone")
        return self._admit(name)

    def join_by_code(self, code: str, name: str, phone: str = "") -> Guest:
        """Join with the typed code; `phone` is the address it came from (its tries are counted apart)."""
        if self.stopped:
            raise ShareError("share.not_shared")
        wait = self.tries.allow(phone)
        if wait:
            raise ShareError("share.too_many_tries", seconds=max(1, round(wait)))
        if not secrets.compare_digest(typed_code(code).encode(), self.code.encode()):
            raise ShareError("share.wrong_code")
        return self._admit(name)

    def _admit(self, name: str) -> Guest:
        guest = Guest(secrets.token_urlsafe(GUEST_ID_BYTES), clean_name(name))
        self.guests[guest.id] = guest
        return guest

    def guest(self, guest_id: str | None) -> Guest | None:
        """The guest a cookie names, while this share lasts."""
        if self.stopped or not guest_id:
            return None
        return self.guests.get(guest_id)

    def may_write(self, guest_id: str) -> bool:
        guest = self.guest(guest_id)
        return guest is not None and guest.role == SCOREKEEPER

    def connected(self) -> list[Guest]:
        """Joined phones with a page open, in the order they joined."""
        return [guest for guest in self.guests.values() if guest.pages > 0]


class Sharing:
    """The one share of this process (or none), and who wants to hear when it changes."""

    def __init__(
        self, listener: Listener | None, host: str | None, find_host: Callable[[], str | None] | None = None
    ) -> None:
        self.listener = listener
        self.host = host  # the local-network address to share on; None: `find_host` looks when sharing starts
        self.find_host = find_host or lan_address
        self.current: Share | None = None
        # Whether a change of the game must be passed on to the phones' pages here: true when
        # they are served apart from the host's (a desktop window), false when all pages are
        # served together and already hear of each other's changes.
        self.relay = False
        self._lock = threading.RLock()
        self._watchers: dict[int, Callable[[], None]] = {}
        self._game_watchers: dict[int, Callable[[str], None]] = {}
        self._next_watcher = 0

    def start(self, session_id: str) -> Share:
        """Share this game (a share of another game stops first); ShareError says why not."""
        with self._lock:
            if self.current is not None and self.current.session_id == session_id:
                return self.current
            self.stop()
            if self.listener is None:
                raise ShareError("share.no_server")
            host = self.host or self.find_host()
            if host is None:
                raise ShareError("share.no_network")
            url = self.listener.open(host)
            self.current = Share(session_id, url)
            log.info("sharing %s at %s", session_id, url)
        self.changed()
        return self.current

    def stop(self) -> None:
        """Stop sharing: every code and guest is forgotten, pages are told, the address closes."""
        with self._lock:
            share, self.current = self.current, None
            if share is None:
                return
            share.stopped = True
        self.changed()  # guest pages draw "sharing stopped" before their sockets close
        if self.listener is not None:
            self.listener.close()
        log.info("stopped sharing %s", share.session_id)

    def guest(self, guest_id: str | None) -> Guest | None:
        share = self.current
        return share.guest(guest_id) if share is not None else None

    def shared_game(self, guest_id: str | None) -> str | None:
        """The game this guest may follow, or None (no share, stopped, unknown guest)."""
        share = self.current
        return share.session_id if share is not None and share.guest(guest_id) is not None else None

    def may_write(self, guest_id: str) -> bool:
        share = self.current
        return share is not None and share.may_write(guest_id)

    def set_role(self, guest_id: str, role: Role) -> None:
        guest = self.guest(guest_id)
        if guest is not None and guest.role != role:
            guest.role = role
            self.changed()

    def page_opened(self, guest_id: str) -> None:
        guest = self.guest(guest_id)
        if guest is not None:
            guest.pages += 1
            self.changed()

    def page_closed(self, guest_id: str) -> None:
        guest = self.guest(guest_id)
        if guest is not None and guest.pages > 0:
            guest.pages -= 1
            self.changed()

    def subscribe(self, watcher: Callable[[], None]) -> Callable[[], None]:
        """Call `watcher` after every change (join, role, stop); returns the way to stop hearing."""
        with self._lock:
            number = self._next_watcher
            self._next_watcher += 1
            self._watchers[number] = watcher

        def stop_hearing() -> None:
            self._watchers.pop(number, None)

        return stop_hearing

    def subscribe_games(self, watcher: Callable[[str], None]) -> Callable[[], None]:
        """Call `watcher(session_id)` when a page passes on a change of a game (see `relay`)."""
        with self._lock:
            number = self._next_watcher
            self._next_watcher += 1
            self._game_watchers[number] = watcher

        def stop_hearing() -> None:
            self._game_watchers.pop(number, None)

        return stop_hearing

    def game_changed(self, session_id: str, told_by: Callable[[str], None] | None = None) -> None:
        """A page changed this game: tell every other page that listens here."""
        for watcher in list(self._game_watchers.values()):
            if watcher == told_by:  # a bound method: equal, not the same object, each time
                continue
            try:
                watcher(session_id)
            except Exception:
                log.exception("a page could not be told the game changed")

    def changed(self) -> None:
        for watcher in list(self._watchers.values()):
            try:
                watcher()
            except Exception:  # one page's trouble must not keep the others from hearing
                log.exception("a page could not be told the share changed")


def lan_address() -> str | None:
    """This device's address on its local network, or None when it has none.

    Connecting a UDP socket sends nothing; it only asks the system which interface would
    carry traffic to an address outside this machine.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address

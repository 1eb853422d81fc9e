"""Joining from a phone: what the local-network address of a share answers.

Sharing a game (`companion.app.share`) opens the local-network address for as long as the
share lasts (the listeners are in `serving`); the door hands what arrives there to
`JoinDoor`, whose rules are stricter than the door's:

1. The `Host` and `Origin` must be that address (the door's rules 1 to 3, for it alone);
   once the share stopped, everything there is refused, an old cookie included.
2. Without the cookie of a joined phone the only answers are the "enter the code" page
   (`companion/assets/join.html`), the join itself and the icon: no app, no socket, no list
   of games.
3. The link in the QR code (`/j/<token>`) opens only while its share lasts; a phone that
   remembers its name from an earlier game joins in one scan.
4. The join is a form posted to `/join`; its body is read up to `JOIN_BODY_MAX` bytes and
   10 fields, and the phone is known by its socket's address (typed codes are counted per
   phone, see `share.TryLimits`).
5. A joined phone gets an HttpOnly, SameSite=Strict guest cookie for this share, and its
   name remembered for a year; the redirect takes the token out of the address bar.
6. A refused join shows the code page again saying why, in the phone's language (its
   Accept-Language): 429 after too many typed tries, 403 otherwise.
7. The code page's policy lets its form post to this server, and its referrer policy keeps
   the post's `Origin` (under "no-referrer" it is `null`, which rule 1 refuses).
8. A joined phone's socket carries its guest id to the page's `main` (`share.current_guest`).
9. Its frames are checked as the host's are (the door's rule 7); its sessions are its own
   (guest cookie and address), never the host's page nor another phone's.
"""

from __future__ import annotations

import asyncio
import functools
import html
import logging
import urllib.parse
from collections.abc import Callable
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import Receive, Scope, Send

import companion.app.web.frames as frames  # its module, not the package: web/__init__ imports this one
from companion.app.share import Share, ShareError, Sharing, current_guest
from companion.app.web.door import ASSETS_DIR, Door, client_address, refuse_socket, secured, security_headers
from companion.text import i18n
from companion.text.messages import Message as Sentence  # starlette's Message is an ASGI message

log = logging.getLogger(__name__)

# The cookies of a joined phone, and what a phone without one may still ask for.
GUEST_COOKIE = "companion_guest"
NAME_COOKIE = "companion_name"
NAME_COOKIE_AGE_S = 365 * 24 * 3600  # the name is remembered on the phone for the next game
JOIN_PAGE = ASSETS_DIR / "join.html"
JOIN_BODY_MAX = 4096
OPEN_TO_ANYONE = frozenset({"/favicon.png"})


class JoinDoor:
    """The door of the shared address (`door.lan`) in front of the same app; see the module docstring."""

    def __init__(self, door: Door, sharing: Sharing | None) -> None:
        self.door = door
        self.sharing = sharing

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        lan = self.door.lan
        assert lan is not None
        share = self.sharing.current if self.sharing is not None else None
        refusal = self.door.refusal(scope, [lan])  # rule 1
        if share is None:
            refusal = "This game is no longer shared."
        headers = Headers(scope=scope)
        guest = share.guest(cookie_parser(headers.get("cookie", "")).get(GUEST_COOKIE)) if share else None
        if scope["type"] == "websocket":
            if refusal is None and guest is None:  # rule 2
                refusal = "Join the game with its code first."
            if refusal is not None:
                log.info("refused a shared socket: %s", refusal)
                await refuse_socket(receive, send)
                return
            assert guest is not None
            token = current_guest.set(guest.id)  # rule 8
            address = client_address(scope)
            owner, label = f"guest {guest.id} {address}", f"{guest.name}'s phone at {address}"
            receive, send = frames.guarded(
                receive,
                send,
                owner,
                label,  # rule 9
                self.door.session_owners,
            )
            frames.serving_phone.set((owner, label))
            try:
                await self.door.app(scope, receive, send)
            except asyncio.CancelledError:
                log.debug("a shared socket stopped with the share")
            except Exception as error:  # noqa: BLE001 - a phone's socket must not print a traceback
                log.warning("closed the socket of %s's phone at %s: %s", guest.name, address, error)
            finally:
                current_guest.reset(token)
                frames.serving_phone.set(None)
            return
        sending = secured(send, security_headers([lan], forms=True))  # rule 7
        if refusal is not None:
            await PlainTextResponse(refusal, status_code=403)(scope, receive, sending)
            return
        assert share is not None
        answer = await self.join_answer(scope, receive, share, headers)
        if answer is None and guest is None and scope["path"] not in OPEN_TO_ANYONE:  # rule 2
            answer = self.code_page(headers, status=200 if scope["path"] == "/" else 401)
        if answer is not None:
            await answer(scope, receive, sending)
        else:
            await self.door.answer_or_app(scope, receive, sending)

    async def join_answer(self, scope: Scope, receive: Receive, share: Share, headers: Headers) -> Response | None:
        """The join link, the code form, the icon; None for every other path."""
        path, method = scope["path"], scope["method"]
        if path in OPEN_TO_ANYONE:
            return None if method == "GET" else PlainTextResponse("Not allowed", status_code=405)
        if path.startswith("/j/") and method == "GET":
            token = path[3:]
            if not share.link_opens(token):  # rule 3
                return self.code_page(headers, problem="ui.join.link_gone", status=403)
            remembered = remembered_name(headers)
            if remembered:  # the name typed at an earlier game: one scan joins
                return self.join(lambda: share.join_by_link(token, remembered), headers, token=token)
            return self.code_page(headers, token=token)
        if path == "/join":  # rule 4
            if method != "POST":
                return RedirectResponse("/", status_code=303)
            form = await read_form(receive)
            token, code, name = form.get("token", ""), form.get("code", ""), form.get("name", "")
            if token:
                if not share.link_opens(token):  # rule 3
                    return self.code_page(headers, problem="ui.join.link_gone", name=name, status=403)
                return self.join(lambda: share.join_by_link(token, name), headers, token=token, name=name)
            phone = scope["client"][0] if scope.get("client") else ""
            return self.join(lambda: share.join_by_code(code, name, phone), headers, name=name)
        return None

    def join(self, admit: Callable[[], Any], headers: Headers, *, token: str = "", name: str | None = None) -> Response:
        """Admit the phone and hand it its cookie, or show the code page again saying why not."""
        try:
            guest = admit()
        except ShareError as error:  # rule 6
            status = 429 if error.message.id == "share.too_many_tries" else 403
            return self.code_page(headers, problem=error.message, token=token, name=name, status=status)
        answer = RedirectResponse("/", status_code=303)  # rule 5: the token leaves the address bar
        answer.set_cookie(GUEST_COOKIE, guest.id, httponly=True, samesite="strict", path="/")
        answer.set_cookie(
            NAME_COOKIE,
            urllib.parse.quote(guest.name),
            max_age=NAME_COOKIE_AGE_S,
            httponly=True,
            samesite="strict",
            path="/",
        )
        log.info("%s joined the shared game", guest.name)
        return answer

    def code_page(
        self,
        headers: Headers,
        *,
        problem: str | Sentence | None = None,
        token: str = "",
        name: str | None = None,
        status: int = 200,
    ) -> Response:
        """The "enter the code" page: the only page a phone sees before it joined, in the
        phone's language (its Accept-Language; English when it names none we speak).
        `problem` is a message id or a sentence (`companion.text.messages.Message`)."""
        name = remembered_name(headers) if name is None else name
        language = i18n.choose(device=i18n.from_accept_language(headers.get("accept-language", "")), environ={})
        words = functools.partial(i18n.t, language=language)
        if token:
            intro = words("ui.join.intro_link")
            code_field = f'<input type="hidden" name="token" value="{html.escape(token)}">'
        else:
            intro = words("ui.join.intro_code")
            code_field = (
                f'<label for="code">{html.escape(words("ui.share.code"), quote=False)}</label>\n      '
                '<input id="code" name="code" class="code" '
                'autocomplete="off" autocapitalize="characters" maxlength="12" required>'
            )
        said = problem.text(language) if isinstance(problem, Sentence) else words(problem) if problem else ""
        page = JOIN_PAGE.read_text(encoding="utf-8")
        text = functools.partial(html.escape, quote=False)
        for slot, value in (
            ("{lang}", language),
            ("{heading}", text(words("ui.join.heading"))),
            ("{your_name}", text(words("ui.join.your_name"))),
            ("{join}", text(words("ui.join.join"))),
            ("{intro}", text(intro)),
            ("{code_field}", code_field),
            ("{name}", html.escape(name)),
            ("{problem}", f'<p class="problem" role="alert">{html.escape(said)}</p>' if said else ""),
        ):
            page = page.replace(slot, value)
        return HTMLResponse(page, status_code=status, headers={"cache-control": "no-store"})


def remembered_name(headers: Headers) -> str:
    """The name this phone typed at an earlier game (rule 3), or ""."""
    return urllib.parse.unquote(cookie_parser(headers.get("cookie", "")).get(NAME_COOKIE, ""))[:60]


async def read_form(receive: Receive) -> dict[str, str]:
    """A small url-encoded form (the join form); a bigger body is cut off, not read on (rule 4)."""
    body = b""
    while len(body) <= JOIN_BODY_MAX:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    fields = urllib.parse.parse_qs(body[:JOIN_BODY_MAX].decode("utf-8", "replace"), max_num_fields=10)
    return {key: values[0] for key, values in fields.items()}

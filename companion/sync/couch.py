"""CouchDB's documented HTTP API, as much of it as sync needs: the server's welcome, a database
(created when missing), `_changes`, `_bulk_get`, `_bulk_docs`, a document with its `_conflicts`
and its open revisions. Any CouchDB 3.x, IBM Cloudant or PouchDB Server answers it.

Every fault ends as a `SyncError` whose sentence says what happened (no answer, a refused
password, a full server, an answer that is not CouchDB's); nothing here raises anything else.
What a server sends is bounded (`MAX_ANSWER_BYTES`) and read by the standard parser, so a
hostile one cannot exhaust memory or nest deeper than JSON allows. A redirect is not followed
(the password would go with it to another address).
"""

from __future__ import annotations

import base64
import contextlib
import http.client
import ipaddress
import json
import re
import socket
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.text.messages import Message, quoted, register

MAX_ANSWER_BYTES = 64 * 2**20  # an archive may hold 50 MB: a batch of games is smaller than this
TIMEOUT_S = 30.0
DATABASE_NAME = re.compile(r"[a-z][a-z0-9_$()+/-]{0,237}")  # CouchDB's own rule for a database's name

register(
    "en",
    {
        "sync.bad_url": "{url} is not the address of a server (such as https://couch.example.org:6984).",
        "sync.not_encrypted": "{server} is not encrypted: use an https:// address (http:// is only for this device "
        "and the local network).",
        "sync.bad_database": "{name} is not a database name CouchDB takes: lower-case letters, digits and _$()+-/, "
        "starting with a letter.",
        "sync.unreachable": "The server {server} did not answer ({reason}).",
        "sync.refused_login": "The server {server} refused the user name or the password.",
        "sync.forbidden": "The server {server} does not let this user use the database {database}.",
        "sync.no_database": "The database {database} does not exist on {server}, and this user may not create it.",
        "sync.full": "The server {server} is full: it takes nothing more.",
        "sync.server_failed": "The server {server} failed (HTTP {status}); sync will try again.",
        "sync.not_couch": "The server {server} does not answer as CouchDB does ({what}).",
        "sync.too_big": "The server {server} sent more than {limit} MB at once; none of it was taken.",
        "sync.other_database": "The database {database} on {server} holds something other than Companion's games: "
        "choose another database.",
    },
)


class SyncError(Exception):
    """A fault of sync, said in one sentence (`message`)."""

    def __init__(self, message_id: str | Message, **params: Any) -> None:
        self.message = message_id if isinstance(message_id, Message) else Message(message_id, params)
        super().__init__(self.message.text())


# (method, url, headers, body, timeout) -> (status, body); OSError when there is no answer.
Transport = Callable[[str, str, Mapping[str, str], bytes | None, float], tuple[int, bytes]]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 3xx comes back as it is: the password never follows it elsewhere


_OPENER = urllib.request.build_opener(_NoRedirect, urllib.request.ProxyHandler({}))


def urllib_transport(
    method: str, url: str, headers: Mapping[str, str], body: bytes | None, timeout: float
) -> tuple[int, bytes]:
    """The standard library's HTTP client (desktop, command line); no proxy: the address given is the one asked."""
    request = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return response.status, _bounded(response)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, _bounded(error)
    except http.client.HTTPException as error:  # an answer cut off or malformed: as if none came
        raise ConnectionResetError(f"the answer was cut off ({type(error).__name__})") from error


def xhr_transport(
    method: str, url: str, headers: Mapping[str, str], body: bytes | None, timeout: float
) -> tuple[int, bytes]:
    """The phone build's HTTP client: the browser's own, from the web worker Python runs in,
    where a request may be waited for (the page's screen is drawn by another thread)."""
    from js import XMLHttpRequest  # type: ignore[import-not-found]  # Pyodide only

    request = XMLHttpRequest.new()
    request.open(method, url, False)
    with contextlib.suppress(Exception):  # an older engine refuses a timeout on a waited-for request
        request.timeout = int(timeout * 1000)
    for name, value in headers.items():
        request.setRequestHeader(name, value)
    try:
        request.send(None if body is None else body.decode("utf-8"))
    except Exception as error:  # noqa: BLE001 - the browser's NetworkError: no answer (or CORS refused)
        raise ConnectionRefusedError(111, f"the browser had no answer ({type(error).__name__})") from None
    if not request.status:
        raise ConnectionRefusedError(111, "the browser had no answer (or the server does not allow this app)")
    text = str(request.responseText or "")
    return int(request.status), text.encode("utf-8")


def default_transport() -> Transport:
    return xhr_transport if sys.platform == "emscripten" else urllib_transport


def _bounded(response: Any) -> bytes:
    data: bytes = response.read(MAX_ANSWER_BYTES + 1)
    return data


def server_problem(url: str) -> Message | None:
    """Why `url` cannot be a sync server's address (None when it can): not http(s), no host, or
    http:// to an address beyond this device and its local network."""
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        return Message("sync.bad_url", {"url": quoted(url)})
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.query or parts.fragment:
        return Message("sync.bad_url", {"url": quoted(url)})
    if parts.scheme == "http" and not is_local(parts.hostname):
        return Message("sync.not_encrypted", {"server": shown_server(url)})
    return None


def is_local(host: str) -> bool:
    """Loopback, a private (LAN) address, or a name of the local network (.local, .lan, .home.arpa)."""
    if host == "localhost" or host.endswith((".local", ".lan", ".home.arpa", ".localhost")):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def is_encrypted(url: str) -> bool:
    return urllib.parse.urlsplit(url).scheme == "https"


def shown_server(url: str) -> str:
    """The server as a sentence names it: its host (and port), never a path or a password."""
    parts = urllib.parse.urlsplit(url)
    return parts.netloc.rpartition("@")[2] or url


class Couch:
    """One database on one server, with a user's name and password (Basic authentication)."""

    def __init__(
        self,
        url: str,
        database: str,
        user: str = "",
        password: str = "",
        transport: Transport | None = None,
        timeout: float = TIMEOUT_S,
    ) -> None:
        problem = server_problem(url)
        if problem is not None:
            raise SyncError(problem)
        if not DATABASE_NAME.fullmatch(database):
            raise SyncError("sync.bad_database", name=quoted(database))
        self.url = url.rstrip("/")
        self.database = database
        self.server = shown_server(url)
        self._transport = transport or default_transport()
        self._timeout = timeout
        self._headers = {"Accept": "application/json", "Content-Type": "application/json"}
        if user:
            token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
            self._headers["Authorization"] = f"Basic {token}"

    # --- the calls -----------------------------------------------------------------------

    def welcome(self) -> dict[str, Any]:
        """The server's root: CouchDB says {"couchdb": "Welcome", ...}; PouchDB Server {"express-pouchdb": ...}."""
        found = self._call("GET", "", database=False)
        if not isinstance(found, dict) or not ({"couchdb", "express-pouchdb"} & set(found)):
            raise SyncError("sync.not_couch", server=self.server, what="its welcome is not CouchDB's")
        return found

    def ensure_database(self) -> bool:
        """Make sure the database exists; True when it was created now."""
        status, found = self._request("GET", "")
        if status == 200 and isinstance(found, dict):
            return False
        if status != 404:
            self._fault(status, found)
        status, found = self._request("PUT", "")
        if status in (201, 202) or status == 412:  # 412: made meanwhile by another device
            return status != 412
        if status in (401, 403):
            raise SyncError("sync.no_database", database=quoted(self.database), server=self.server)
        self._fault(status, found)
        raise AssertionError  # _fault raised

    def info(self) -> dict[str, Any]:
        found = self._call("GET", "")
        if not isinstance(found, dict):
            raise self._garbage("the database's description is not an object")
        return found

    def get(self, doc_id: str, **query: str) -> dict[str, Any] | None:
        """A document (None when there is none, or it was deleted)."""
        status, found = self._request("GET", "/" + _quote_id(doc_id), query=query)
        if status == 404:
            return None
        if status != 200:
            self._fault(status, found)
        if not isinstance(found, dict):
            raise self._garbage("a document is not an object")
        return found

    def open_revs(self, doc_id: str, revs: Iterable[str] | str) -> list[dict[str, Any]]:
        """These revisions of a document ("all": every leaf, deleted ones too), as found."""
        query = {"open_revs": revs if isinstance(revs, str) else json.dumps(list(revs)), "revs": "false"}
        status, found = self._request("GET", "/" + _quote_id(doc_id), query=query)
        if status != 200:
            self._fault(status, found)
        if not isinstance(found, list):
            raise self._garbage("the revisions of a document are not a list")
        return [item["ok"] for item in found if isinstance(item, dict) and isinstance(item.get("ok"), dict)]

    def changes(self, since: Any, limit: int) -> tuple[list[dict[str, Any]], Any, int]:
        """(changes with their documents and conflicts, the sequence to ask from next, how many are pending)."""
        query = {
            "since": since if isinstance(since, str) else json.dumps(since),
            "limit": str(limit),
            "include_docs": "true",
            "conflicts": "true",
        }
        found = self._call("GET", "/_changes", query=query)
        if not isinstance(found, dict) or not isinstance(found.get("results"), list) or "last_seq" not in found:
            raise self._garbage("its list of changes is not one")
        pending = found.get("pending")
        return (
            [change for change in found["results"] if isinstance(change, dict)],
            found["last_seq"],
            pending if type(pending) is int else 0,
        )

    def wait_for_changes(self, since: Any, seconds: int) -> Any:
        """Hold the changes feed open until something changes after `since` or `seconds` pass:
        the sequence to wait from next (`since` again when nothing changed)."""
        query = {
            "feed": "longpoll",
            "since": since if isinstance(since, str) else json.dumps(since),
            "timeout": str(seconds * 1000),
        }
        found = self._call("GET", "/_changes", query=query, timeout=seconds + self._timeout)
        if not isinstance(found, dict) or not isinstance(found.get("results"), list) or "last_seq" not in found:
            raise self._garbage("its changes feed is not one")
        return found["last_seq"] if found["results"] else since

    def bulk_docs(self, docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Write documents in one request: for each, {"id", "rev"} or {"id", "error": "conflict"}."""
        found = self._call("POST", "/_bulk_docs", body={"docs": docs})
        if not isinstance(found, list):
            raise self._garbage("its answer to a batch of documents is not a list")
        return [item for item in found if isinstance(item, dict)]

    def bulk_get(self, ids: list[str]) -> list[dict[str, Any]]:
        """The current documents of these ids, in one request (those deleted or missing left out)."""
        found = self._call("POST", "/_bulk_get", body={"docs": [{"id": doc_id} for doc_id in ids]})
        if not isinstance(found, dict) or not isinstance(found.get("results"), list):
            raise self._garbage("its answer to _bulk_get is not one")
        docs = []
        for result in found["results"]:
            for item in result.get("docs", []) if isinstance(result, dict) else []:
                doc = item.get("ok") if isinstance(item, dict) else None
                if isinstance(doc, dict) and not doc.get("_deleted"):
                    docs.append(doc)
        return docs

    # --- the wire ------------------------------------------------------------------------

    def _call(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        query: Mapping[str, str] | None = None,
        database: bool = True,
        timeout: float | None = None,
    ) -> Any:
        status, found = self._request(method, path, body=body, query=query, database=database, timeout=timeout)
        if not 200 <= status < 300:
            self._fault(status, found)
        return found

    def _request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        query: Mapping[str, str] | None = None,
        database: bool = True,
        timeout: float | None = None,
    ) -> tuple[int, Any]:
        url = self.url + ("/" + urllib.parse.quote(self.database, safe="") if database else "/") + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None if body is None else json.dumps(body, ensure_ascii=False, allow_nan=False).encode()
        try:
            status, raw = self._transport(method, url, self._headers, data, timeout or self._timeout)
        except (OSError, ValueError) as error:  # refused, unknown host, timed out, TLS refused
            raise SyncError("sync.unreachable", server=self.server, reason=_why(error)) from None
        if len(raw) > MAX_ANSWER_BYTES:
            raise SyncError("sync.too_big", server=self.server, limit=MAX_ANSWER_BYTES // 2**20)
        if status in (401, 407):
            raise SyncError("sync.refused_login", server=self.server)
        try:
            return status, json.loads(raw) if raw else None
        except (ValueError, RecursionError):
            if status >= 500:
                raise SyncError("sync.server_failed", server=self.server, status=status) from None
            raise self._garbage("its answer is not JSON") from None

    def _fault(self, status: int, found: Any) -> None:
        if status == 403:
            raise SyncError("sync.forbidden", server=self.server, database=quoted(self.database))
        if status in (413, 507) or (
            isinstance(found, dict) and found.get("error") in ("file_exists_quota", "insufficient_storage")
        ):
            raise SyncError("sync.full", server=self.server)
        if status == 404:
            raise SyncError("sync.no_database", database=quoted(self.database), server=self.server)
        if status >= 500:
            raise SyncError("sync.server_failed", server=self.server, status=status)
        raise self._garbage(f"HTTP {status}")

    def _garbage(self, what: str) -> SyncError:
        return SyncError("sync.not_couch", server=self.server, what=what)


def _quote_id(doc_id: str) -> str:
    return urllib.parse.quote(doc_id, safe="")


def _why(error: Exception) -> str:
    """No answer, in words."""
    reason = getattr(error, "reason", error)
    if isinstance(reason, (TimeoutError, socket.timeout)):
        return "it took too long"
    if isinstance(reason, ConnectionRefusedError):
        return "nothing listens at that address"
    if isinstance(reason, socket.gaierror):
        return "the name is unknown, or there is no network"
    if isinstance(reason, ConnectionResetError):
        return "the connection was cut"
    text = str(getattr(reason, "strerror", None) or reason)
    if "CERTIFICATE" in text.upper() or "SSL" in text.upper():
        return "its certificate was not accepted"
    return text or type(reason).__name__

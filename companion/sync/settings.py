"""Where this device syncs, kept in its data folder, and the password, kept apart.

    sync.json          {"format": "companion-sync", "version": 1, "url", "database", "user",
                        "last_ok": time of the last round that ended well | null}
    sync-secret.json   {"keyring": true}: the password is in the system's keyring, where there
                        is one; else {"password": ...}, readable by this user only (mode 0600)
                        where the system has file modes. Never in an export, a backup or a log,
                        never shown

Each is a TinyDB file holding that object as document 1 of table "sync" or "secret"
(`file_format.single`); an earlier version's, the object alone, reads as it did.

Neither file is a game: exports and backups carry the games and the table's choices only, so
the password never leaves the device with them. A setup link carries the address, database
and user to the next device (`setup_link`, `read_setup_link`), never the password.
"""

from __future__ import annotations

import contextlib
import json
import os
import urllib.parse
from dataclasses import dataclass
from typing import Any

from companion.store.file_format import single_bytes, single_of
from companion.store.folders import Folder
from companion.sync.couch import DATABASE_NAME, SyncError, server_problem
from companion.text.messages import Message, quoted, register

SETTINGS = "sync.json"
SECRET = "sync-secret.json"
FORMAT = "companion-sync"
DEFAULT_DATABASE = "companion"
LINK_PREFIX = "companion-sync:"

register(
    "en",
    {
        "sync.bad_link": "{link} is not a Companion sync link (it starts with companion-sync:).",
        "sync.not_saved": "The sync settings could not be saved: {reason}.",
    },
)


@dataclass(frozen=True)
class SyncSettings:
    url: str
    database: str = DEFAULT_DATABASE
    user: str = ""
    last_ok: float | None = None

    def checked(self) -> SyncSettings:
        """Itself, or SyncError saying what is wrong with the address or the database's name."""
        problem = server_problem(self.url)
        if problem is not None:
            raise SyncError(problem)
        if not DATABASE_NAME.fullmatch(self.database):
            raise SyncError("sync.bad_database", name=quoted(self.database))
        return self


def read_settings(folder: Folder) -> SyncSettings | None:
    """This device's sync settings; None when sync was never set up (or the file is unreadable)."""
    try:
        raw = folder.read(SETTINGS)
        found = single_of(json.loads(raw), "sync") if raw else None
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(found, dict) or found.get("format") != FORMAT or not isinstance(found.get("url"), str):
        return None
    database = found.get("database")
    user = found.get("user")
    last_ok = found.get("last_ok")
    return SyncSettings(
        found["url"],
        database if isinstance(database, str) else DEFAULT_DATABASE,
        user if isinstance(user, str) else "",
        float(last_ok) if isinstance(last_ok, (int, float)) and not isinstance(last_ok, bool) else None,
    )


def write_settings(folder: Folder, settings: SyncSettings) -> None:
    data = {
        "format": FORMAT,
        "version": 1,
        "url": settings.url,
        "database": settings.database,
        "user": settings.user,
        "last_ok": settings.last_ok,
    }
    _saving(lambda: folder.write(SETTINGS, single_bytes("sync", "sync", data)))


KEYRING_SERVICE = "companion-sync"


def system_keyring() -> Any:
    """The system's keyring (the `keyring` package, with a working backend: Secret Service,
    macOS Keychain, Windows Credential Locker), or None where there is none (a phone, a
    server, the package not installed)."""
    try:
        import keyring  # type: ignore[import-not-found,unused-ignore]  # optional: not a dependency
        from keyring.backends import fail  # type: ignore[import-not-found,unused-ignore]
    except Exception:  # noqa: BLE001 - not installed, or a backend that fails to load
        return None
    try:
        backend = keyring.get_keyring()
    except Exception:  # noqa: BLE001
        return None
    return None if isinstance(backend, fail.Keyring) else keyring


def _account(folder: Folder) -> str:
    """The keyring's name for this data folder's password (a folder each, as each syncs on its own)."""
    return str(_path(folder, SECRET) or SECRET)


def read_password(folder: Folder) -> str:
    try:
        raw = folder.read(SECRET)
        found = single_of(json.loads(raw), "secret") if raw else None
    except (OSError, ValueError, RecursionError):
        return ""
    if isinstance(found, dict) and found.get("keyring") is True:
        keyring = system_keyring()
        try:
            kept = keyring.get_password(KEYRING_SERVICE, _account(folder)) if keyring is not None else None
        except Exception:  # noqa: BLE001 - a locked or gone keyring: no password (the server then says so)
            kept = None
        return kept if isinstance(kept, str) else ""
    password = found.get("password") if isinstance(found, dict) else None
    return password if isinstance(password, str) else ""


def write_password(folder: Folder, password: str) -> None:
    """In the system's keyring where there is one (the file then only says so), else in the
    file, readable by this user only."""
    keyring = system_keyring()
    if keyring is not None:
        try:
            keyring.set_password(KEYRING_SERVICE, _account(folder), password)
        except Exception:  # noqa: BLE001 - a locked keyring: the device's own storage instead
            keyring = None
        else:
            _saving(lambda: folder.write(SECRET, single_bytes("secret", "secret", {"keyring": True})))
            return

    def write() -> None:
        folder.write(SECRET, single_bytes("secret", "secret", {"password": password}))
        path = _path(folder, SECRET)
        if path is not None:
            with contextlib.suppress(OSError):
                os.chmod(path, 0o600)  # this user only: the folder may be shared or backed up whole

    _saving(write)


def forget(folder: Folder) -> None:
    """Sync turned off: the settings and the password go (the games stay)."""
    keyring = system_keyring()
    if keyring is not None:
        with contextlib.suppress(Exception):  # none kept there
            keyring.delete_password(KEYRING_SERVICE, _account(folder))
    for name in (SETTINGS, SECRET):
        _saving(lambda name=name: folder.remove(name) if folder.exists(name) else None)


def _saving(write: Any) -> None:
    try:
        write()
    except OSError as error:
        raise SyncError(Message("sync.not_saved", {"reason": str(error.strerror or error)})) from None


def _path(folder: Folder, name: str) -> str | None:
    root = getattr(folder, "root", None) or getattr(folder, "directory", None)
    return None if root is None else os.path.join(root, name)


def setup_link(settings: SyncSettings) -> str:
    """What the next device pastes (or scans) to sync the same way: no password in it."""
    query = urllib.parse.urlencode({"url": settings.url, "database": settings.database, "user": settings.user})
    return f"{LINK_PREFIX}?{query}"


def read_setup_link(link: str) -> SyncSettings:
    """The settings a setup link carries; SyncError when it is not one."""
    text = link.strip()
    if not text.startswith(LINK_PREFIX):
        raise SyncError("sync.bad_link", link=quoted(text[:80]))
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(text).query or text.partition("?")[2])
    url = (query.get("url") or [""])[0]
    if not url:
        raise SyncError("sync.bad_link", link=quoted(text[:80]))
    return SyncSettings(url, (query.get("database") or [DEFAULT_DATABASE])[0], (query.get("user") or [""])[0]).checked()

"""The app inside a browser tab, with no server: the phone build (`companion publish`).

Pyodide runs this module in the page's Python worker (`runpy`, as `__main__`). The data
folder is Pyodide's in-memory file system mounted on IndexedDB (IDBFS): it is loaded from
IndexedDB once before the store opens, and every change the store makes (a write, an
append, a move, a removal) is copied back, just the files it touched (`copy_back`).
Nothing the app sends to the screen leaves the worker until that copy is done, so a tap
shown on screen has reached IndexedDB, as a tap shown elsewhere has reached the disk.
Then the same `main` as every other way in runs (`companion.app.main.make_main`), without
sharing: a tab cannot host a table, though the browser can still join one.

The browser is asked to keep the games (`navigator.storage.persist()`, by the page: a
worker may not ask); Settings says whether it agreed (`storage_note`).

Nothing here touches Pyodide at import, so the rest (`SyncedFolder`, `Durable`) is tested
with plain Python.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass
from typing import Any

from companion.store.folders import DiskFolder, Entry, Folder, Lock, Signature
from companion.text.messages import SOURCE_LANGUAGE, register

log = logging.getLogger(__name__)

DATA_DIR = "/data"  # where IndexedDB is mounted in the worker's file system

register(
    SOURCE_LANGUAGE,
    {
        "ui.settings.storage": "Saved games",
        "ui.settings.storage.kept": "Kept in this browser, which has agreed not to clear them to make room.",
        "ui.settings.storage.may_clear": "Kept in this browser, which may clear them when the phone runs short of "
        "space. Export your games now and then (Your games, on Home).",
        "ui.settings.storage.failed": "This browser refused to keep the last change ({reason}). Export your games now "
        "(Your games, on Home).",
        "ui.browser.no_storage": "This browser does not let Companion keep games ({reason}). Open it in a normal "
        "(not private) window.",
    },
)


class SyncedFolder:
    """A data folder that says what changed: `changed(*names)` after every write, append,
    move, removal, new folder or new time, with the names it touched (even when it failed
    half-way: copying a name is harmless)."""

    def __init__(self, folder: Folder, changed: Callable[..., None]) -> None:
        self._folder = folder
        self._changed = changed

    def _after(self, names: tuple[str, ...], action: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return action(*args, **kwargs)
        finally:
            self._changed(*names)

    def write(self, name: str, data: bytes) -> None:
        self._after((name,), self._folder.write, name, data)

    def append(self, name: str, data: bytes) -> None:
        self._after((name,), self._folder.append, name, data)

    def stage(self, name: str, data: bytes) -> str:
        staged = self._folder.stage(name, data)
        self._changed(staged)  # a staged file that failed half-way is removed before it raises
        return staged

    def commit(self, staged: str, name: str, *, mtime_ns: int | None = None) -> None:
        self._after((staged, name), self._folder.commit, staged, name, mtime_ns=mtime_ns)

    def discard(self, staged: str) -> None:
        self._after((staged,), self._folder.discard, staged)

    def write_stream(self, name: str, chunks: Iterable[bytes]) -> int:
        size: int = self._after((name,), self._folder.write_stream, name, chunks)
        return size

    def remove(self, name: str) -> None:
        self._after((name,), self._folder.remove, name)

    def move(self, source: str, target: str) -> None:
        self._after((source, target), self._folder.move, source, target)

    def set_mtime(self, name: str, mtime_ns: int) -> None:
        self._after((name,), self._folder.set_mtime, name, mtime_ns)

    def ensure(self, sub: str) -> None:
        # The store ensures its folders at every start, and they are there already: a copy
        # then would change nothing in IndexedDB, yet hold the first screen until it is done.
        existed = self._folder.exists(sub)
        try:
            self._folder.ensure(sub)
        finally:
            if not existed:
                self._changed(sub)

    # What only reads, or leaves nothing behind, needs no copy.
    def read(self, name: str) -> bytes | None:
        return self._folder.read(name)

    def stat(self, name: str) -> Signature | None:
        return self._folder.stat(name)

    def scan(self, sub: str) -> list[Entry]:
        return self._folder.scan(sub)

    def names(self, sub: str) -> list[str]:
        return self._folder.names(sub)

    def signatures(self, sub: str) -> dict[str, Signature]:
        return self._folder.signatures(sub)

    def exists(self, name: str) -> bool:
        return self._folder.exists(name)

    def lock(self, name: str) -> Lock:
        return self._folder.lock(name)

    def probe(self, sub: str) -> None:
        self._folder.probe(sub)


class Durable:
    """Holds what goes to the screen while the folder's changes are being copied to IndexedDB.

    `changed(*names)` starts a copy of those names (`sync(names)`; no names: `sync(None)`,
    a copy of everything), or asks for one more after the copy in flight, which may have
    missed them. `send(deliver)` delivers at once when every change is copied, else after
    the last copy, in the order sent. A copy that fails is said in `problem`, its names are
    copied again with the next change, and what was held is delivered anyway: a frozen
    screen would help nobody.
    """

    def __init__(
        self,
        sync: Callable[[frozenset[str] | None], Awaitable[None]],
        start: Callable[[Coroutine[Any, Any, None]], Any] | None = None,
    ) -> None:
        self._sync = sync
        self._start = start or (lambda work: asyncio.get_event_loop().create_task(work))
        self._pending: set[str] = set()
        self._everything = False  # a change that named nothing: the next copy is of every file
        self._failed: set[str] = set()  # copied again with the next change
        self._failed_everything = False
        self._syncing = False
        self._held: list[Callable[[], None]] = []
        self.problem: str | None = None
        self.copies = 0

    @property
    def settled(self) -> bool:
        return not self._pending and not self._everything and not self._syncing

    def changed(self, *names: str) -> None:
        self._pending.update(names, self._failed)
        self._failed.clear()
        if not names or self._failed_everything:
            self._everything = True
            self._failed_everything = False
        if not self._syncing:
            self._syncing = True
            self._start(self._copy())

    def send(self, deliver: Callable[[], None]) -> None:
        if self.settled:
            deliver()
        else:
            self._held.append(deliver)

    async def _copy(self) -> None:
        try:
            while self._pending or self._everything:
                names = None if self._everything else frozenset(self._pending)
                self._pending.clear()
                self._everything = False
                try:
                    await self._sync(names)
                    self.copies += 1
                    self.problem = None
                except Exception as error:  # quota, a closed database: said on Settings, the app goes on
                    log.error("the games could not be copied to IndexedDB: %s", error)
                    self.problem = str(error) or type(error).__name__
                    if names is None:
                        self._failed_everything = True
                    else:
                        self._failed.update(names)
        finally:
            self._syncing = False
            held, self._held = self._held, []
            for deliver in held:
                deliver()


@dataclass
class BrowserStorage:
    """What Settings says about where the games are kept (see `storage_note`)."""

    durable: Durable
    persisted: bool | None = None  # None until the browser answered


BROWSER: BrowserStorage | None = None  # set when the app runs in a browser tab with no server


def storage_note() -> tuple[str, dict[str, str]] | None:
    """Settings' line about the browser's storage (a message id and its parameters), or None
    outside the phone build or before the browser answered."""
    if BROWSER is None:
        return None
    if BROWSER.durable.problem is not None:
        return "ui.settings.storage.failed", {"reason": BROWSER.durable.problem}
    if BROWSER.persisted is None:
        return None
    return ("ui.settings.storage.kept" if BROWSER.persisted else "ui.settings.storage.may_clear"), {}


# --------------------------------------------------------------------------- in Pyodide only


async def syncfs(populate: bool) -> None:
    """Emscripten's `FS.syncfs`: True loads IndexedDB into the folder, False copies the folder back."""
    import pyodide_js  # type: ignore[import-not-found]
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

    done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def finished(error: Any = None) -> None:
        if not done.done():
            done.set_result(error)

    pyodide_js.FS.syncfs(populate, create_once_callable(finished))
    error = await done
    if error is not None and type(error).__name__ != "JsNull":  # success passes null
        raise OSError(js_reason(error))


def paths_to_copy(names: Iterable[str]) -> list[str]:
    """The data folder's paths for these names, with every folder above them (IndexedDB keeps
    a record per folder, and a file whose folder has none is not loaded at the next start),
    folders first."""
    paths = set()
    for name in names:
        parts = [part for part in name.split("/") if part]
        for end in range(1, len(parts) + 1):
            paths.add("/".join([DATA_DIR, *parts[:end]]))
    return sorted(paths, key=lambda path: (path.count("/"), path))


async def copy_back(names: frozenset[str] | None) -> None:
    """Copy these names of the data folder to IndexedDB (None: everything). Only the names a
    change touched: `FS.syncfs(false)` compares every file with every record, which at a few
    thousand files (saved games and backups) is most of a tap's time. The worker's
    `persist` writes the records as IDBFS does, so the next start loads them as ever."""
    if names is None:
        await syncfs(False)
        return
    import data_folder_js  # type: ignore[import-not-found]
    from pyodide.ffi import JsException, to_js

    try:
        await data_folder_js.persist(DATA_DIR, to_js(paths_to_copy(names)))
    except JsException as error:
        raise OSError(js_reason(error)) from None


def js_reason(error: Any) -> str:
    """Words for a JavaScript error: its message, else its name or errno (Emscripten's FS errors
    and IndexedDB's aborted transactions carry no message; their text is "[object Object]")."""
    for words in (getattr(error, "message", None), getattr(error, "name", None)):
        if words:
            return str(words)
    errno = getattr(error, "errno", None)
    return f"error {errno}" if errno is not None else str(error)


def mount() -> None:
    import os

    import pyodide_js

    os.makedirs(DATA_DIR, exist_ok=True)
    fs = pyodide_js.FS
    fs.mount(fs.filesystems.IDBFS, {}, DATA_DIR)


def hold_screen_until_durable(durable: Durable) -> None:
    """Every message to the screen goes through `durable.send`, already encoded (Flet marks
    what it sent while encoding, so the next diff must not wait for the copy)."""
    from companion.app.flet_private import PyodideConnection

    connect = PyodideConnection.connect

    async def held_connect(self: PyodideConnection, send_callback: Any) -> None:
        def send(data: bytes) -> None:
            durable.send(functools.partial(send_callback, data))

        await connect(self, send)  # type: ignore[no-untyped-call]

    PyodideConnection.connect = held_connect  # type: ignore[method-assign]


async def ask_persisted(storage: BrowserStorage) -> None:
    """Whether the browser agreed to keep this site's data (the page asked it to)."""
    try:
        import js  # type: ignore[import-not-found]

        manager = getattr(js.navigator, "storage", None)
        storage.persisted = bool(await manager.persisted()) if manager is not None else False
    except Exception as error:  # an old browser: say it may clear them
        log.info("navigator.storage.persisted() unavailable: %s", error)
        storage.persisted = False


async def open_data(storage: BrowserStorage) -> Any:
    """The app's data over the IndexedDB folder; StoreError or OSError when the browser refuses."""
    from companion.app.data import AppData
    from companion.store import Store

    mount()
    await syncfs(True)
    store = Store(DATA_DIR, folder=SyncedFolder(DiskFolder(DATA_DIR), storage.durable.changed))
    store.check_usable()
    asyncio.get_running_loop().create_task(ask_persisted(storage))
    data = AppData(store)
    data.storage_note = storage_note
    return data


def refusal(page: Any, reason: str) -> None:
    """The whole page, when there is nowhere to keep games: one sentence."""
    import flet as ft

    from companion.text import i18n

    try:
        import js

        device = [str(tag) for tag in js.navigator.languages]
    except Exception:  # an old browser: English
        device = []
    language = i18n.choose(device=device, environ={})
    page.add(ft.SafeArea(ft.Text(i18n.t("ui.browser.no_storage", language=language, reason=reason), size=16)))


def prepare(flet_names: Iterable[str] = ()) -> bool:
    """What the first page would otherwise do on its way: the app and Flet imported, Flet's
    theme classes built (hundreds of dataclasses, made when first used, a quarter of a second
    in the browser), the store's lock module and every catalogue loaded, and the Flet
    controls in `flet_names` imported (Flet imports each when first used).

    A normal start runs it while Flutter loads. The worker that makes the memory snapshot
    runs it with every name the app uses (the build lists them), then snapshots: so nothing
    here may touch JavaScript or load a compiled module, since the snapshot keeps the heap
    only. Flet's browser connection imports msgpack's compiled module, so it is left to
    `run`. True when no compiled module is loaded (Python may be snapshotted).
    """
    import sys

    import filelock  # noqa: F401
    import flet
    import flet.controls.object_patch  # noqa: F401
    import flet.controls.page  # noqa: F401

    from companion.app import data, main, theme  # noqa: F401
    from companion.store import store  # noqa: F401
    from companion.text.messages import LANGUAGES, translations

    theme.theme(dark=False)
    for name in flet_names:
        getattr(flet, name, None)
    for language in LANGUAGES:
        translations(language)
    return not any(str(getattr(module, "__file__", "")).endswith(COMPILED) for module in list(sys.modules.values()))


COMPILED = (".so", ".pyd", ".dylib")


def restored() -> None:
    """After a start from the snapshot: every start would otherwise draw the same "random"
    numbers (Flet's session ids) as the start that took it."""
    import random

    random.seed()


def run() -> None:
    """Start the app in this tab: the folder loads while the client registers."""
    import flet as ft

    from companion.app.main import make_main
    from companion.store import StoreError

    global BROWSER
    storage = BROWSER = BrowserStorage(Durable(copy_back))
    hold_screen_until_durable(storage.durable)
    opened = asyncio.get_event_loop().create_task(open_data(storage))  # the worker ran prepare() before
    app: list[Callable[[Any], None]] = []

    async def main(page: Any) -> None:
        try:
            data = await opened
        except (StoreError, OSError) as error:
            log.error("no storage: %s", error)
            refusal(page, str(error).rstrip("."))
            return
        if not app:
            app.append(make_main(data))
        app[0](page)

    ft.run(main)


if __name__ == "__main__":
    run()

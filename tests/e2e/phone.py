"""The phone build (`companion publish`) in Chromium, as a phone keeps it.

    site = StaticSite(folder).start()          # `python -m http.server` on 127.0.0.1
    with phones() as launch:
        phone = launch(profile_dir, site.origin)   # a browser with a profile of its own
        ui = phone.open()                          # a FlutterPage on the site
        offline_ready(ui)                          # all of the app cached (soon after it is up)
        phone.kill()                               # SIGKILL, as a phone's system kills a browser
        site.stop()
        ui = launch(profile_dir, site.origin).open()   # the same profile, no server: from its cache

Every request the browser makes to anything but the site is refused (Playwright routing)
and kept in `Phone.refused`; the network itself is closed too (every host name resolves to
nothing, every other address goes to a proxy that is not there), so a request Playwright
does not see (a service worker's) cannot leave either.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from harness import CHROMIUM_ARGS, DEFAULT_VIEWPORT, FlutterPage, free_port, require_browser, stop_process_group

PHONE_TIMEOUT_MS = 90_000  # a first visit downloads and caches the whole app


class StaticSite:
    """A folder served by a plain static server on 127.0.0.1, on the same port each start
    (the same origin: the same service worker and IndexedDB)."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self._log = tempfile.NamedTemporaryFile(prefix="static-site-", suffix=".log", delete=False)  # noqa: SIM115

    def start(self) -> StaticSite:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "http.server",
                "--bind",
                "127.0.0.1",
                "--directory",
                str(self.folder),
                str(self.port),
            ],
            stdout=subprocess.DEVNULL,
            stderr=self._log,
            start_new_session=True,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(self.origin + "/index.html", timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the static server did not answer on {self.origin}")
            time.sleep(0.05)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            stop_process_group(proc)

    def served(self) -> list[str]:
        """The paths this server was asked for (GET), in order."""
        self._log.flush()
        return re.findall(r'"GET (\S+) HTTP', Path(self._log.name).read_text(errors="replace"))

    def __enter__(self) -> StaticSite:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def browser_pid(profile: Path) -> int:
    """The browser process (not a renderer or helper) running on `profile`."""
    wanted = f"--user-data-dir={profile}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            arguments = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if wanted in arguments and not any(argument.startswith(b"--type=") for argument in arguments):
            return int(entry.name)
    raise AssertionError(f"no browser process runs on {profile}")


class Phone:
    """Chromium on one profile (`launch_persistent_context`), shown the site only."""

    def __init__(
        self,
        playwright: Any,
        profile: Path,
        origin: str,
        *,
        timeout_ms: int = PHONE_TIMEOUT_MS,
        also: tuple[str, ...] = (),
    ) -> None:
        self.profile = profile
        self.origin = origin
        self.also = also  # other origins the phone may reach (a sync server set up in its Settings)
        self.timeout_ms = timeout_ms
        self.refused: list[str] = []
        self.requests: list[str] = []
        self.console: list[str] = []
        self.answers: list[tuple[str, int]] = []  # (url, status), from the network or the service worker
        dead_end = free_port()  # nothing listens there: the proxy every other address is sent to
        self.context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=require_browser(),
            headless=True,
            viewport=DEFAULT_VIEWPORT,
            accept_downloads=True,
            args=[
                *CHROMIUM_ARGS,
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                f"--proxy-server=127.0.0.1:{dead_end}",
            ],
        )
        self.context.set_default_timeout(timeout_ms)
        self.context.route("**/*", self._route)
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.context.on("response", lambda response: self.answers.append((response.url, response.status)))
        self.killed = False

    def _route(self, route: Any) -> None:
        url = route.request.url
        if any(url == origin or url.startswith(origin + "/") for origin in (self.origin, *self.also)):
            route.fallback()
        else:
            self.refused.append(url)
            route.abort("internetdisconnected")

    def open(self, path: str = "/") -> FlutterPage:
        page = self.context.pages[0] if self.context.pages else self.context.new_page()
        page.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))
        return FlutterPage(page, self.origin + path, self.timeout_ms, self.requests, self.console).load()

    def kill(self) -> None:
        """SIGKILL the browser process at once: nothing is flushed or closed politely."""
        os.kill(browser_pid(self.profile), signal.SIGKILL)
        self.killed = True
        with contextlib.suppress(Exception):
            self.context.close()

    def close(self) -> None:
        if not self.killed:
            with contextlib.suppress(Exception):
                self.context.close()


def offline_ready(ui: FlutterPage, timeout_s: float = 60) -> float:
    """Seconds until the service worker says all of the app is cached (a first visit leaves
    the fallback fonts until the app is up), as a phone left open that long; raises if it
    says it could not."""
    started = time.monotonic()
    while (ready := ui.page.evaluate("() => globalThis.companionOffline")) is None:
        if time.monotonic() - started > timeout_s:
            raise AssertionError(f"the app was not all cached within {timeout_s:.0f} s")
        ui.page.wait_for_timeout(100)
    assert ready == "ready", f"the app could not all be cached: {ready}"
    return time.monotonic() - started


@contextlib.contextmanager
def phones() -> Iterator[Callable[..., Phone]]:
    """`launch(profile, origin)` opens a Phone; every one still open is closed at the end."""
    require_browser()
    from playwright.sync_api import sync_playwright

    opened: list[Phone] = []
    with sync_playwright() as playwright:

        def launch(profile: Path, origin: str, **kwargs: Any) -> Phone:
            phone = Phone(playwright, profile, origin, **kwargs)
            opened.append(phone)
            return phone

        try:
            yield launch
        finally:
            for phone in opened:
                phone.close()

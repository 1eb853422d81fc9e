"""Real-browser test infrastructure: serve a Flet app, drive Debian's Chromium with Playwright.

    with serve_app("tests/e2e/sample_app.py", data_dir=tmp_path) as server, \\
            open_browser(server.url) as ui:
        ui.click_button("Add one")
        ui.wait_for_text("Count: 1")
        ui.screenshot("counter")

``serve_cli`` runs the ``companion`` command itself (e.g. ``--web --share``), and
``open_browsers`` gives one Chromium with a separate context (cookies, storage) per
page, as several phones at one table.

The app runs in a subprocess served exactly as ``companion --web`` serves it: through
``companion.app.web`` (uvicorn, the web door's Host/Origin checks and CSP, the client with
no CDN) on 127.0.0.1:<free port>. Flutter only builds its accessibility DOM (roles, labels,
text) once semantics are enabled, which ``open_browser`` does on load and on reload.
Every request the browser makes is kept in ``FlutterPage.requests``.

When Chromium or Playwright is missing the tests are skipped, unless ``CI=true``, where
that is a failure.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "ARTIFACTS_DIR",
    "CHROMIUM_ARGS",
    "PROJECT_ROOT",
    "SCREENSHOTS_DIR",
    "AppServer",
    "FlutterPage",
    "find_chromium",
    "free_port",
    "open_browser",
    "open_browsers",
    "require_browser",
    "serve_app",
    "serve_cli",
    "stop_process_group",
]

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS_DIR = PROJECT_ROOT / "test-artifacts"
SCREENSHOTS_DIR = ARTIFACTS_DIR / "screenshots"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

DEFAULT_VIEWPORT = {"width": 412, "height": 915}

# Runs inside the server subprocess: argv = [target, port, assets_dir or ""].
_BOOTSTRAP = r"""
import importlib, importlib.util, os, sys
from companion.app import web

target, port, assets_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3] or None
module_part, _, func = target.partition(":")
if module_part.endswith(".py") or os.sep in module_part or "/" in module_part:
    path = os.path.abspath(module_part)
    spec = importlib.util.spec_from_file_location("__e2e_app__", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["__e2e_app__"] = module
    spec.loader.exec_module(module)
else:
    module = importlib.import_module(module_part)
main = getattr(module, func or "main")
web.serve(main, web.listen(web.LOOPBACK, port), assets_dir=assets_dir)
"""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def require_browser() -> str:
    """Path of Chromium; skips the test when Chromium or Playwright is missing (fails if CI=true)."""
    missing = []
    chromium = find_chromium()
    if chromium is None:
        missing.append("Chromium is not installed (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("Playwright for Python is not installed (pip install -e '.[dev]')")
    if missing:
        reason = "; ".join(missing)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"e2e tests cannot run on CI: {reason}", pytrace=False)
        pytest.skip(reason)
    assert chromium is not None
    return chromium


def stop_process_group(proc: subprocess.Popen[Any]) -> None:
    """SIGTERM the process and its children (started with start_new_session), then SIGKILL."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


class AppServer:
    """A Flet app served over HTTP by a subprocess; ``url`` is where it answers."""

    def __init__(
        self,
        target: str,
        *,
        port: int | None = None,
        env: Mapping[str, str] | None = None,
        data_dir: str | os.PathLike[str] | None = None,
        data_dir_var: str = "FLET_APP_STORAGE_DATA",
        assets_dir: str | os.PathLike[str] | None = None,
        startup_timeout: float = 30.0,
    ) -> None:
        self.target = target
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.env = dict(env or {})
        if data_dir is not None:
            self.env[data_dir_var] = str(data_dir)
        self.assets_dir = str(assets_dir) if assets_dir else ""
        self.startup_timeout = startup_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self._log = tempfile.NamedTemporaryFile(prefix="flet-e2e-", suffix=".log", delete=False)  # noqa: SIM115

    def command(self) -> list[str]:
        return [sys.executable, "-c", _BOOTSTRAP, self.target, str(self.port), self.assets_dir]

    def start(self) -> AppServer:
        env = {**os.environ, **self.env}
        env.setdefault("PYTHONUNBUFFERED", "1")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), env.get("PYTHONPATH")]))
        self.proc = subprocess.Popen(
            self.command(),
            cwd=PROJECT_ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so stop() gets every child
        )
        deadline = time.monotonic() + self.startup_timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"App server exited with code {self.proc.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url, timeout=1) as resp:
                    if resp.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"App server did not answer on {self.url} in {self.startup_timeout}s:\n{self.log()}")
            time.sleep(0.05)

    def log(self) -> str:
        self._log.flush()
        return Path(self._log.name).read_text(errors="replace")[-5000:]

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            stop_process_group(proc)
        self._log.close()

    def __enter__(self) -> AppServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def serve_app(target: str, **kwargs: Any) -> AppServer:
    """``with serve_app("pkg.module:main", data_dir=tmp_path) as server: ...`` (see AppServer)."""
    return AppServer(target, **kwargs)


class CliServer(AppServer):
    """``python -m companion --web --port <free> --data <dir> *args``, as a user starts it."""

    def __init__(self, args: Sequence[str], *, data_dir: str | os.PathLike[str], **kwargs: Any) -> None:
        super().__init__("companion", **kwargs)
        self.args = list(args)
        self.data_dir = str(data_dir)

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "companion",
            "--web",
            "--port",
            str(self.port),
            "--data",
            self.data_dir,
            *self.args,
        ]

    def wait_for_log(self, pattern: str, timeout_s: float = 20.0) -> re.Match[str]:
        """The first match of ``pattern`` in what the command printed, waiting for it."""
        deadline = time.monotonic() + timeout_s
        while True:
            self._log.flush()
            match = re.search(pattern, Path(self._log.name).read_text(errors="replace"))
            if match:
                return match
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} was not printed within {timeout_s}s:\n{self.log()}")
            time.sleep(0.1)


def serve_cli(args: Sequence[str], **kwargs: Any) -> CliServer:
    """``with serve_cli(["--share", "--share-host", "127.0.0.2"], data_dir=d) as server: ...``"""
    return CliServer(args, **kwargs)


class FlutterPage:
    """Helpers over a Playwright page showing a Flet (Flutter web) app."""

    def __init__(
        self,
        page: Any,
        url: str,
        timeout_ms: int = 20_000,
        requests: list[str] | None = None,
        console: list[str] | None = None,
    ) -> None:
        self.page = page
        self.url = url
        self.timeout_ms = timeout_ms
        self.requests = [] if requests is None else requests  # every URL the browser asked for, in order
        self.console = [] if console is None else console  # "<type>: <text>" of every page's console

    def enable_semantics(self, poll_ms: int = 1000) -> None:
        """Flutter builds its accessibility DOM only after its off-screen placeholder is clicked.

        ``poll_ms``: how long to wait for semantic nodes before clicking again (a benchmark
        timing the first screen polls more often)."""
        # The placeholder can be in the DOM before the engine listens to it (seen after a
        # reload), and then a click is lost: click until semantic nodes appear.
        placeholder = self.page.locator("flt-semantics-placeholder")
        nodes = self.page.locator("flt-semantics")
        deadline = time.monotonic() + self.timeout_ms / 1000
        while time.monotonic() < deadline:
            if nodes.count():
                return
            if placeholder.count():
                with contextlib.suppress(Exception):  # it is removed once semantics turn on
                    placeholder.dispatch_event("click", timeout=1000)
            with contextlib.suppress(Exception):
                nodes.first.wait_for(state="attached", timeout=poll_ms)
        raise AssertionError(f"Flutter semantics did not turn on within {self.timeout_ms} ms at {self.url}")

    def load(self) -> FlutterPage:
        self.page.goto(self.url)
        self.enable_semantics()
        return self

    def reload(self, *, new_session: bool = False) -> FlutterPage:
        """Reload the page and re-enable semantics.

        A plain reload reconnects to the *same* Flet session (its id is kept in the tab's
        sessionStorage), so the app state survives. ``new_session=True`` forgets the id
        first: the server starts a fresh session and runs ``main`` again, as when the app
        is reopened (use this to test that data came back from disk).
        """
        if new_session:
            self.page.evaluate("() => window.sessionStorage.clear()")
        self.page.reload()
        self.enable_semantics()
        return self

    def button(self, name: str | re.Pattern[str]) -> Any:
        return self.page.get_by_role("button", name=name)

    def click_button(self, name: str | re.Pattern[str]) -> None:
        self.button(name).click(timeout=self.timeout_ms)

    def text_input(self, label: str) -> Any:
        return self.page.locator(f'input[aria-label="{label}"], textarea[aria-label="{label}"]')

    def fill(self, label: str, text: str) -> None:
        """Type into a ``TextField(label=...)``."""
        field = self.text_input(label)
        field.click(timeout=self.timeout_ms)
        field.fill(text, timeout=self.timeout_ms)

    def by_id(self, identifier: str) -> Any:
        """A control wrapped in ``ft.Semantics(identifier=...)``."""
        return self.page.locator(f'[flt-semantics-identifier="{identifier}"]')

    def wait_for_text(self, text: str | re.Pattern[str], timeout_ms: int | None = None) -> None:
        self.page.get_by_text(text).first.wait_for(state="attached", timeout=timeout_ms or self.timeout_ms)

    def has_text(self, text: str | re.Pattern[str]) -> bool:
        return bool(self.page.get_by_text(text).count())

    def screenshot(self, name: str, settle_s: float = 1.0) -> Path:
        """Save ``test-artifacts/screenshots/<name>.png`` (painting lags semantics, hence the wait)."""
        SCREENSHOTS_DIR.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS_DIR / f"{name}.png"
        self.page.wait_for_timeout(settle_s * 1000)
        self.page.screenshot(path=str(path))
        return path


class Browsers:
    """One Chromium; ``new_page`` opens a page in a context of its own (its own cookies), as
    another phone would."""

    def __init__(self, browser: Any, viewport: Mapping[str, int] | None, timeout_ms: int) -> None:
        self.browser = browser
        self.viewport = dict(viewport or DEFAULT_VIEWPORT)
        self.timeout_ms = timeout_ms

    def new_page(self, url: str, *, load: bool = True) -> FlutterPage:
        """A page on ``url``; ``load=False`` leaves it blank (for pages that are not the app)."""
        context = self.browser.new_context(viewport=self.viewport)
        requests: list[str] = []
        console: list[str] = []
        # On the context, so requests of workers and service workers are seen too; sockets
        # are not requests to Playwright, so each page reports its own.
        context.on("request", lambda request: requests.append(request.url))

        def watch(opened: Any) -> None:
            opened.on("websocket", lambda socket: requests.append(socket.url))
            opened.on("console", lambda message: console.append(f"{message.type}: {message.text}"))

        context.on("page", watch)
        page = context.new_page()
        page.set_default_timeout(self.timeout_ms)
        flutter = FlutterPage(page, url, self.timeout_ms, requests, console)
        return flutter.load() if load else flutter


@contextlib.contextmanager
def open_browsers(
    *,
    viewport: Mapping[str, int] | None = None,
    timeout_ms: int = 20_000,
    chromium_args: Sequence[str] = (),
) -> Iterator[Browsers]:
    """Launch Chromium headless; always closes it. ``chromium_args`` are added to ``CHROMIUM_ARGS``."""
    chromium = require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=[*CHROMIUM_ARGS, *chromium_args], headless=True)
        try:
            yield Browsers(browser, viewport, timeout_ms)
        finally:
            browser.close()


@contextlib.contextmanager
def open_browser(
    url: str,
    *,
    viewport: Mapping[str, int] | None = None,
    timeout_ms: int = 20_000,
    chromium_args: Sequence[str] = (),
) -> Iterator[FlutterPage]:
    """Launch Chromium headless on ``url`` with semantics enabled; always closes the browser.

    ``chromium_args`` are added to ``CHROMIUM_ARGS`` (e.g. ``--host-resolver-rules``).
    """
    with open_browsers(viewport=viewport, timeout_ms=timeout_ms, chromium_args=chromium_args) as browsers:
        yield browsers.new_page(url)

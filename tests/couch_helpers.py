"""A CouchDB-compatible server for the sync tests: PouchDB Server from the npm registry, in
memory, on 127.0.0.1 (CouchDB itself is not packaged where CI runs).

It is looked for on the PATH, then in the test cache (~/.cache/companion-tests), and installed
there with npm when Node.js is present (once, whichever test worker comes first). Without
Node.js the sync tests are skipped, except on CI where they fail.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

VERSION = "4.2.0"
CACHE = Path.home() / ".cache" / "companion-tests"


def pouchdb_server() -> str | None:
    """The pouchdb-server command, installed into the test cache when it must be (None: cannot)."""
    found = shutil.which("pouchdb-server")
    if found:
        return found
    command = CACHE / "node_modules" / ".bin" / "pouchdb-server"
    if command.exists():
        return str(command)
    npm = shutil.which("npm")
    if npm is None:
        return None
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two test workers: one installs, the other waits for it
        if not command.exists():
            subprocess.run(
                [
                    npm,
                    "install",
                    "--prefix",
                    str(CACHE),
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    f"pouchdb-server@{VERSION}",
                ],
                check=False,
                capture_output=True,
                timeout=600,
            )
    return str(command) if command.exists() else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class CouchServer:
    """A running PouchDB Server; `stop()` and `start()` again on the same port (a server that goes away)."""

    def __init__(self, command: str, directory: Path) -> None:
        self.command, self.directory = command, directory
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.command, "--in-memory", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), urllib.request.urlopen(self.url + "/", timeout=2) as answer:
                if answer.status == 200:
                    return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("PouchDB Server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, 9)
            self.process.wait(timeout=10)
        self.process = None

    def allow_origins(self) -> None:
        """CORS as the README tells a CouchDB owner to set it, so that the phone build may sync."""
        for key, value in (
            ("httpd/enable_cors", "true"),
            ("cors/origins", "*"),
            ("cors/credentials", "true"),
            ("cors/methods", "GET, PUT, POST, HEAD, DELETE"),
            ("cors/headers", "accept, authorization, content-type, origin"),
        ):
            self.call("PUT", f"/_config/{key}", value)

    def add_user(self, name: str, password: str) -> None:
        """A user of the server (CouchDB's _users database), so that a password is asked and checked."""
        self.call(
            "PUT", f"/_users/org.couchdb.user:{name}", {"name": name, "password": password, "roles": [], "type": "user"}
        )

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """A raw request, as another client (or a test looking at the server) makes it."""
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return json.loads(error.read() or b"null")


@pytest.fixture(scope="session")
def couch_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CouchServer]:
    command = pouchdb_server()
    if command is None:
        reason = "PouchDB Server is not installed and Node.js's npm is missing to install it"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"sync tests cannot run on CI: {reason}", pytrace=False)
        pytest.skip(reason)
    server = CouchServer(command, tmp_path_factory.mktemp("couch"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def database() -> str:
    """A fresh database name: each test syncs through its own."""
    return f"games-{uuid.uuid4().hex[:12]}"

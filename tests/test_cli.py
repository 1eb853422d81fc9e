"""Launching: a desktop window when possible, else one plain line and the browser UI on
127.0.0.1; every fault is one line on stderr and exit code 1, before anything is announced.

`ft.run` (the desktop window) and `web.serve` (uvicorn) are replaced: no window can open
here, and serving would never return. The port is really taken, so a port in use is real.
"""

from __future__ import annotations

import json
import shutil
import socket
import urllib.error
from pathlib import Path
from typing import Any

import flet as ft
import flet_desktop
import pytest

from companion import cli
from companion.app import desktop, web
from companion.app.data import AppData
from companion.store import Store
from companion.store.file_format import parse_file


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(cli.ft, "run", lambda main, **kwargs: calls.append(kwargs))
    return calls


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The addresses `web.serve` was given a listening socket for (the socket is closed)."""
    calls: list[tuple[str, int]] = []

    def serve(main: Any, sock: socket.socket, **kwargs: Any) -> None:
        assert callable(main)
        calls.append(sock.getsockname()[:2])
        sock.close()

    monkeypatch.setattr(web, "serve", serve)
    return calls


@pytest.fixture
def display(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FLET_PLATFORM", "FLET_DISPLAY_URL_PREFIX", "FLET_VIEW_PATH", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISPLAY", ":0")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((web.LOOPBACK, 0))
        return int(s.getsockname()[1])


def test_no_network_for_the_desktop_client_falls_back_to_the_browser_in_one_line(
    runs: list[dict[str, Any]],
    served: list[tuple[str, int]],
    display: None,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def offline() -> None:
        raise urllib.error.URLError("Name or service not known")

    monkeypatch.setattr(flet_desktop, "ensure_client_cached", offline)
    port = free_port()
    assert cli.main(["--data", str(tmp_path), "--port", str(port)]) == 0
    out = capsys.readouterr()
    assert out.out.strip().splitlines() == [
        "companion: the desktop window's client could not be downloaded (no network?); "
        f"serving in a browser instead at http://127.0.0.1:{port}/ (games saved in {tmp_path}; press Ctrl-C to stop)"
    ]
    assert out.err == ""
    assert runs == [] and served == [("127.0.0.1", port)]


def test_a_cached_desktop_client_opens_a_window(
    runs: list[dict[str, Any]],
    served: list[tuple[str, int]],
    display: None,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setattr(flet_desktop, "ensure_client_cached", lambda: tmp_path)
    assert cli.main(["--data", str(tmp_path)]) == 0
    assert runs[0]["view"] == ft.AppView.FLET_APP and runs[0]["host"] == "127.0.0.1"
    assert served == []


def test_no_display_is_said_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FLET_PLATFORM", "FLET_DISPLAY_URL_PREFIX", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(desktop.sys, "platform", "linux")
    assert desktop.desktop_problem() == "no display to open a window on"


def test_flet_run_and_built_apps_are_left_to_flet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setenv("FLET_PLATFORM", "android")
    assert desktop.desktop_problem() is None


def test_web_mode_serves_on_loopback_with_the_chosen_data_folder(
    runs: list[dict[str, Any]], served: list[tuple[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    assert cli.main(["--web", "--port", str(port), "--data", str(tmp_path / "games")]) == 0
    assert served == [("127.0.0.1", port)] and runs == []
    assert (tmp_path / "games").is_dir()
    out = capsys.readouterr()
    assert out.out.splitlines() == [
        f"companion: serving at http://127.0.0.1:{port}/ (games saved in {tmp_path / 'games'}; press Ctrl-C to stop)"
    ]
    assert out.err == ""


def test_a_bad_port_is_refused_in_words(served: list[tuple[str, int]], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--web", "--port", "70000"]) == 2
    assert "--port must be between 1 and 65535, not 70000" in capsys.readouterr().err
    assert served == []


# --- every fault: one line on stderr, exit code 1, nothing announced ---------------------------


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the CLI expecting a refusal; return its one line."""
    assert cli.main(argv) == 1
    out = capsys.readouterr()
    assert out.out == ""  # no "serving at …" before the refusal
    lines = out.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: "), out.err
    assert "Traceback" not in out.err
    return lines[0]


def test_a_port_in_use_is_said_before_serving(
    served: list[tuple[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as other:  # another program already listens there
        other.bind((web.LOOPBACK, 0))
        other.listen()
        port = other.getsockname()[1]
        line = refused(["--web", "--port", str(port), "--data", str(tmp_path)], capsys)
    assert (
        line == f"companion: port {port} is already in use (another Companion, or another program); "
        "choose another with --port"
    )
    assert served == []


def test_a_data_folder_that_is_a_file(
    served: list[tuple[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games"
    data.write_text("not a folder")
    line = refused(["--web", "--port", str(free_port()), "--data", str(data)], capsys)
    assert line.startswith(f"companion: The data folder {data} cannot be used: ")
    assert data.read_text() == "not a folder" and served == []


def test_a_data_folder_that_cannot_be_created(
    served: list[tuple[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("")
    data = tmp_path / "file" / "games"  # its parent is a file: no folder can be made there
    line = refused(["--web", "--port", str(free_port()), "--data", str(data)], capsys)
    assert line.startswith(f"companion: The data folder {data} cannot be used: ")
    assert served == []


def make_store(data: Path) -> None:
    store = Store(data)
    store.new("transamerica", ["Ann", "Bob"])
    del store  # releases its locks


@pytest.mark.parametrize("folder", ["sessions", "quarantine"])
def test_a_data_subfolder_that_is_a_file(
    folder: str, served: list[tuple[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games"
    make_store(data)
    shutil.rmtree(data / folder)
    (data / folder).write_text("")
    line = refused(["--web", "--port", str(free_port()), "--data", str(data)], capsys)
    assert line.startswith(f"companion: The data folder {data} cannot be used: ")
    assert folder in line
    assert (data / folder).is_file() and served == []  # left as found


def test_an_index_that_is_a_folder(
    served: list[tuple[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games"
    make_store(data)
    (data / "index.json").unlink()
    (data / "index.json").mkdir()
    line = refused(["--web", "--port", str(free_port()), "--data", str(data)], capsys)
    assert line.startswith(f"companion: The data folder {data} cannot be used: ")
    assert "index.json" in line
    assert (data / "index.json").is_dir() and served == []


def test_an_index_written_by_a_newer_version(
    served: list[tuple[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games"
    make_store(data)
    index = parse_file((data / "index.json").read_bytes()).data  # its appended records applied
    for meta in index["_meta"].values():
        meta["format"] = 99
    newer = json.dumps(index)
    (data / "index.json").write_text(newer)
    line = refused(["--web", "--port", str(free_port()), "--data", str(data)], capsys)
    assert "newer version of Companion (format 99)" in line
    assert (data / "index.json").read_text() == newer and served == []  # untouched


def test_an_unexpected_error_is_still_one_line(
    served: list[tuple[str, int]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("something nobody foresaw")

    monkeypatch.setattr(cli, "make_main", broken)
    line = refused(["--web", "--port", str(free_port()), "--data", str(tmp_path)], capsys)
    assert line == "companion: stopped by an unexpected error (RuntimeError: something nobody foresaw)"


# --- sharing with the table ---------------------------------------------------------------------


class Opened:
    """The share listener, without a server: the address it was asked to open."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.hosts: list[str] = []

    def open(self, host: str) -> str:
        self.hosts.append(host)
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        self.hosts.append("closed")


@pytest.fixture
def serve_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What `web.serve` was given (its loopback socket is closed at once)."""
    calls: list[dict[str, Any]] = []

    def serve(main: Any, sock: socket.socket, **kwargs: Any) -> None:
        calls.append({"address": sock.getsockname()[:2], **kwargs})
        sock.close()

    monkeypatch.setattr(web, "serve", serve)
    return calls


def game_left_open(data_dir: Path) -> str:
    data = AppData(Store(data_dir))
    session = data.new("transamerica", ["Ann", "Bob"], {})
    assert session.id is not None
    data.remember_screen(session.id)
    data.close_session(session.id)
    del data  # releases its locks
    return session.id


def test_share_serves_on_loopback_then_shows_the_qr_code_link_and_code(
    serve_calls: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = game_left_open(tmp_path)
    port = free_port()
    assert cli.main(["--share", "--share-host", "127.0.0.2", "--port", str(port), "--data", str(tmp_path)]) == 0
    (call,) = serve_calls
    assert call["address"] == ("127.0.0.1", port)  # the host's own address stays loopback
    sharing = call["sharing"]
    assert sharing.host == "127.0.0.2" and sharing.current is None  # nothing open before the server runs
    sharing.listener = Opened(port)
    call["on_started"]()
    share = sharing.current
    assert share.session_id == game and sharing.listener.hosts == ["127.0.0.2"]
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        f"companion: serving at http://127.0.0.1:{port}/ (games saved in {tmp_path}; press Ctrl-C to stop)"
    )
    assert lines[1] == (
        f"companion: sharing a game with the table at http://127.0.0.2:{port}/ "
        f"(code {share.code[:4]}-{share.code[4:]}); scan the code below, or open the address "
        "and type the code"
    )
    assert lines[-1] == f"companion: or open {share.link}"
    qr = lines[2:-1]
    assert len(qr) > 10 and all(set(line) <= set("█▀▄ ") for line in qr)
    sharing.stop()
    assert capsys.readouterr().out == "companion: sharing stopped; the app answers only on this device again\n"
    assert sharing.listener.hosts == ["127.0.0.2", "closed"]


def test_share_without_a_game_left_open_says_what_to_do(
    serve_calls: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(
        ["--share", "--share-host", "127.0.0.2", "--port", str(free_port()), "--data", str(tmp_path)], capsys
    )
    assert line == "companion: no game to share: open one (companion --web), then tap Share on its screen"
    assert serve_calls == []


@pytest.mark.parametrize(
    ("host", "said"),
    [
        ("127.0.0.1", "--share-host must be this device's address on the table's network, not 127.0.0.1"),
        ("0.0.0.0", "--share-host must be this device's address on the table's network, not 0.0.0.0"),
        ("my-laptop", "--share-host must be an IPv4 address of this device, such as 192.168.1.20, not 'my-laptop'"),
    ],
)
def test_a_share_host_that_is_not_one_address_of_this_device_is_refused(
    host: str, said: str, serve_calls: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--share", "--share-host", host]) == 2
    assert capsys.readouterr().err == f"companion: {said}\n"
    assert serve_calls == []


def test_a_share_port_in_use_is_said_before_serving(
    serve_calls: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_left_open(tmp_path)
    with socket.socket() as other:  # another program listens on the shared address's port
        other.bind(("127.0.0.2", 0))
        other.listen()
        port = other.getsockname()[1]
        line = refused(["--share", "--share-host", "127.0.0.2", "--port", str(port), "--data", str(tmp_path)], capsys)
    assert line == (
        f"companion: cannot share on 127.0.0.2: port {port} is already in use (another Companion, "
        "or another program); choose another with --port"
    )
    assert serve_calls == []


def test_no_local_network_to_share_on_is_said(
    serve_calls: list[dict[str, Any]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    game_left_open(tmp_path)
    monkeypatch.setattr(cli, "lan_address", lambda: None)
    line = refused(["--share", "--port", str(free_port()), "--data", str(tmp_path)], capsys)
    assert line == (
        "companion: no local network found to share on: join the table's Wi-Fi, or name the address with --share-host"
    )


def test_web_mode_can_share_from_a_game_screen_later(
    serve_calls: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "lan_address", lambda: "127.0.0.2")
    assert cli.main(["--web", "--port", str(free_port()), "--data", str(tmp_path)]) == 0
    (call,) = serve_calls
    assert call["sharing"].host is None  # nothing looked up until shared
    call["on_started"]()  # the server is up: the list is read ahead of the first page, nothing is shared
    assert call["sharing"].host is None and call["sharing"].current is None
    assert call["sharing"].find_host() == "127.0.0.2"


def test_a_desktop_window_can_share_through_a_web_door_of_its_own(
    runs: list[dict[str, Any]], display: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(flet_desktop, "ensure_client_cached", lambda: tmp_path)
    made: list[Any] = []
    real_make_main = cli.make_main
    monkeypatch.setattr(
        cli,
        "make_main",
        lambda data, sharing, **options: made.append(sharing) or real_make_main(data, sharing, **options),
    )
    assert cli.main(["--data", str(tmp_path), "--port", "8551", "--share-host", "127.0.0.2"]) == 0
    (sharing,) = made
    assert runs and isinstance(sharing.listener, web.WindowShareListener) and sharing.listener.port == 8551
    assert sharing.relay and sharing.host == "127.0.0.2" and sharing.current is None

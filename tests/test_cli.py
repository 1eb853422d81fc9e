"""Launching: a desktop window when possible, else one plain line and the browser UI on
127.0.0.1; never a traceback. `ft.run` itself is replaced: no window can open here."""

from __future__ import annotations

import urllib.error
from pathlib import Path
from typing import Any

import flet as ft
import flet_desktop
import pytest

from companion import cli
from companion.app import desktop


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(cli.ft, "run", lambda main, **kwargs: calls.append(kwargs))
    return calls


@pytest.fixture
def display(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FLET_PLATFORM", "FLET_DISPLAY_URL_PREFIX", "FLET_VIEW_PATH", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISPLAY", ":0")


def test_no_network_for_the_desktop_client_falls_back_to_the_browser_in_one_line(
    runs: list[dict[str, Any]], display: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def offline() -> None:
        raise urllib.error.URLError("Name or service not known")

    monkeypatch.setattr(flet_desktop, "ensure_client_cached", offline)
    assert cli.main(["--data", str(tmp_path), "--port", "8765"]) == 0
    out = capsys.readouterr()
    assert out.out.strip().splitlines() == [
        "companion: the desktop window's client could not be downloaded (no network?); "
        "serving in a browser instead at http://127.0.0.1:8765/"
    ]
    assert "Traceback" not in out.err
    assert runs == [{"view": ft.AppView.WEB_BROWSER, "host": "127.0.0.1", "port": 8765, "no_cdn": True,
                     "assets_dir": runs[0]["assets_dir"]}]


def test_a_cached_desktop_client_opens_a_window(runs: list[dict[str, Any]], display: None,
                                                monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(flet_desktop, "ensure_client_cached", lambda: tmp_path)
    assert cli.main(["--data", str(tmp_path)]) == 0
    assert runs[0]["view"] == ft.AppView.FLET_APP and runs[0]["host"] == "127.0.0.1"


def test_no_display_is_said_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FLET_PLATFORM", "FLET_DISPLAY_URL_PREFIX", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(desktop.sys, "platform", "linux")
    assert desktop.desktop_problem() == "no display to open a window on"


def test_flet_run_and_built_apps_are_left_to_flet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setenv("FLET_PLATFORM", "android")
    assert desktop.desktop_problem() is None


def test_web_mode_serves_on_loopback_offline_with_the_chosen_data_folder(
    runs: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--web", "--port", "9001", "--data", str(tmp_path / "games")]) == 0
    assert runs[0]["view"] == ft.AppView.WEB_BROWSER
    assert (runs[0]["host"], runs[0]["port"], runs[0]["no_cdn"]) == ("127.0.0.1", 9001, True)
    assert (tmp_path / "games").is_dir()
    assert "http://127.0.0.1:9001/" in capsys.readouterr().out


def test_a_bad_port_is_refused_in_words(runs: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--web", "--port", "70000"]) == 2
    assert "--port must be between 1 and 65535, not 70000" in capsys.readouterr().err
    assert runs == []

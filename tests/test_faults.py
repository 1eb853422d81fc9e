"""Every fault of the data folder ends as one sentence and changes nothing.

Tests run as root, for whom read-only permissions stop nothing: faults are made by putting
the wrong kind of thing in place (a file for a folder, a folder for a file, a symbolic
link) or by making the operating system's call fail (`OSError` with EROFS, EACCES,
ENOSPC, ...) at the moment it matters.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.data import AppData
from companion.store import NewerFormat, SessionInUse, Store, StoreError
from companion.store import storage as storage_module

ADJUST = {"type": "adjust", "player": "Ann", "amount": 1, "note": "fix"}


def snapshot(directory: Path) -> dict[str, bytes | None]:
    """Every file and folder under `directory` with its bytes (None for folders), lock files aside."""
    found: dict[str, bytes | None] = {}
    for path in sorted(directory.rglob("*")):
        name = path.relative_to(directory).as_posix()
        if name.startswith("locks/"):
            continue
        found[name] = None if path.is_dir() or path.is_symlink() else path.read_bytes()
    return found


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, str]:
    """A data folder holding one game of Ann and Bob with one event, closed."""
    directory = tmp_path / "data"
    with Store(directory) as store:
        session = store.new("heartland", ["Ann", "Bob"], title="Friday")
        session.apply(ADJUST)
    return directory, session.id or ""


def fail_with(code: int) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise OSError(code, os.strerror(code), args[0] if args and isinstance(args[0], str) else None)

    return fail


# --------------------------------------------------------------------------- the data folder itself


def unusable(directory: Path) -> str:
    with pytest.raises(StoreError) as caught:
        Store(directory).check_usable()
    return str(caught.value)


def test_a_data_folder_that_is_a_file_is_refused_in_words(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("not a folder")
    assert unusable(tmp_path / "data") == (
        f"The data folder {tmp_path / 'data'} cannot be used: the data folder is a file, not a folder."
    )
    assert (tmp_path / "data").read_text() == "not a folder"


def test_a_data_folder_that_cannot_be_created_is_refused_in_words(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert "cannot be used:" in unusable(tmp_path / "file" / "data")


@pytest.mark.parametrize("name", ["sessions", "quarantine", "pending", "locks"])
def test_a_file_where_a_store_folder_should_be_is_refused_in_words(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("")
    assert unusable(tmp_path).endswith(f"cannot be used: '{name}' is a file, not a folder.")
    assert (tmp_path / name).is_file()


def test_an_index_that_is_a_folder_is_refused_in_words(played: tuple[Path, str]) -> None:
    directory, _ = played
    (directory / "index.json").unlink()
    (directory / "index.json").mkdir()
    before = snapshot(directory)
    assert unusable(directory).endswith("cannot be used: 'index.json' is a folder, not a file.")
    assert snapshot(directory) == before


def test_an_index_from_a_newer_version_is_refused_in_words(played: tuple[Path, str]) -> None:
    directory, _ = played
    (directory / "index.json").write_text(json.dumps({"_meta": {"1": {"format": 7, "kind": "index"}}}))
    before = snapshot(directory)
    with pytest.raises(NewerFormat, match=r"saved by a newer version of Companion \(format 7\)"):
        Store(directory).check_usable()
    assert snapshot(directory) == before


def test_a_symlinked_index_lock_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    (tmp_path / "data" / "locks").mkdir(parents=True)
    (tmp_path / "data" / "locks" / "index.lock").symlink_to(target)
    assert unusable(tmp_path / "data").endswith(
        "'locks/index.lock' is a symbolic link, which Companion does not follow."
    )
    assert target.read_text() == "keep me"


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        (errno.EROFS, "the disk is read-only"),
        (errno.EACCES, "Companion is not allowed to use"),
        (errno.ENOSPC, "the disk is full"),
    ],
)
def test_a_data_folder_where_nothing_can_be_written_is_refused_in_words(
    played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch, code: int, reason: str
) -> None:
    directory, _ = played
    before = snapshot(directory)
    store = Store(directory)  # reading still works: the games can be listed
    assert len(store.sessions()) == 1
    real_open = os.open

    def refuse_new_files(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_CREAT:
            raise OSError(code, os.strerror(code), path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(storage_module.os, "open", refuse_new_files)
    with pytest.raises(StoreError, match=f"cannot be used: {reason}"):
        store.check_usable()
    assert snapshot(directory) == before


def test_a_usable_folder_passes_the_check_and_leaves_no_trace(played: tuple[Path, str]) -> None:
    directory, _ = played
    before = snapshot(directory)
    Store(directory).check_usable()
    Store.in_memory().check_usable()
    assert snapshot(directory) == before


# --------------------------------------------------------------------------- ui-state.json


@pytest.fixture
def app(played: tuple[Path, str]) -> Iterator[AppData]:
    directory, _ = played
    data = AppData(Store(directory))
    yield data
    data.store.close()


def test_the_last_view_comes_back_after_a_restart(played: tuple[Path, str]) -> None:
    directory, session_id = played
    AppData(Store(directory)).remember_screen(session_id, "load", {"good": "corn", "cubes": {"Ann": 2}})
    again = AppData(Store(directory))
    assert again.last_view() == (session_id, "load", {"good": "corn", "cubes": {"Ann": 2}})
    assert again.last_screen() == session_id
    again.remember_screen(session_id)
    assert again.last_view() == (session_id, None, {})
    again.remember_screen(None, "load", {"good": "corn"})  # no sheet without a game
    assert again.last_view() == (None, None, {})


@pytest.mark.parametrize(
    "draft",
    [
        {"deep": json.loads("[" * 50 + "]" * 50)},
        {"big": "x" * 100_000},
        {"odd": {1, 2}},
        {"nan": float("nan")},
        "not a dict",
    ],
)
def test_a_draft_that_is_not_a_small_json_object_is_not_kept(app: AppData, draft: Any) -> None:
    session_id = app.sessions()[0].id
    app.remember_screen(session_id, "load", draft)
    assert app.last_view() == (session_id, "load", {})


@pytest.mark.parametrize(
    "content",
    [
        b"[" * 10_000 + b"]" * 10_000,
        b'{"open_session": ' + b"[" * 10_000 + b"]" * 10_000 + b"}",
        b'{"habits": [], "open_session": 5}',
        b'{"habits": "abc", "panel": "load", "draft": []}',
        b'{"habits": {"corn": 1' + b"0" * 5000 + b"}}",
        b'{"habits": {"corn": true, "soy": 1.5, "pigs": 10000000000000}}',
        b'{"open_session": "' + b"x" * 200 + b'", "panel": "load"}',
        b"\xff\xfe not json",
        b" " * 100_000 + b"{}",
    ],
)
def test_damaged_ui_state_is_ignored_and_rewritten(app: AppData, content: bytes) -> None:
    path = Path(app.store.directory or "") / "ui-state.json"
    path.write_bytes(content)
    assert app.last_view() == (None, None, {})
    assert app.recall("heartland.price.corn") is None
    app.remember("heartland.price.corn", 4)
    assert app.recall("heartland.price.corn") == 4
    assert json.loads(path.read_bytes())["habits"] == {"heartland.price.corn": 4}


def test_a_folder_in_place_of_the_ui_state_is_ignored(app: AppData) -> None:
    path = Path(app.store.directory or "") / "ui-state.json"
    path.mkdir()
    session_id = app.sessions()[0].id
    assert app.last_view() == (None, None, {})
    app.remember_screen(session_id, "load", {"good": "corn"})
    app.remember("heartland.price.corn", 4)
    assert app.recall("heartland.price.corn") is None
    assert path.is_dir() and not any(path.iterdir())


@pytest.mark.parametrize("code", [errno.EROFS, errno.ENOSPC, errno.EACCES])
def test_ui_state_that_cannot_be_written_costs_nothing(
    app: AppData, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    session_id = app.sessions()[0].id
    app.remember_screen(session_id, "log")
    app.remember("heartland.price.corn", 4)
    before = snapshot(Path(app.store.directory or ""))
    monkeypatch.setattr(storage_module.os, "replace", fail_with(code))
    app.remember_screen(None)  # going home on a full disk
    app.remember_screen(session_id, "load", {"good": "pigs"})  # opening a game on a read-only disk
    app.remember("heartland.price.corn", 7)
    assert app.last_view() == (session_id, "log", {})
    assert app.recall("heartland.price.corn") == 4
    assert snapshot(Path(app.store.directory or "")) == before


# --------------------------------------------------------------------------- deleting an open game


def test_a_game_open_in_another_tab_is_not_deleted(app: AppData) -> None:
    session_id = app.sessions()[0].id
    before = snapshot(Path(app.store.directory or ""))
    playing = app.open(session_id)
    with pytest.raises(SessionInUse, match="This game is open on another screen; close it there before deleting it."):
        app.delete(session_id)
    playing.apply(ADJUST)  # the tab that plays it keeps recording
    app.close_session(session_id)
    assert snapshot(Path(app.store.directory or "")) != before
    app.delete(session_id)
    assert app.sessions() == []


def test_a_game_open_in_another_process_is_not_deleted(app: AppData, played: tuple[Path, str]) -> None:
    directory, session_id = played
    other = Store(directory)  # another process's store: its own OS lock
    other.open(session_id)
    try:
        before = snapshot(directory)
        with pytest.raises(SessionInUse, match="open on another screen"):
            app.delete(session_id)
        assert snapshot(directory) == before
    finally:
        other.close()
    app.delete(session_id)
    assert app.sessions() == []


def test_copying_a_data_folder_keeps_it_usable(played: tuple[Path, str], tmp_path: Path) -> None:
    directory, session_id = played
    shutil.copytree(directory, tmp_path / "copy")
    with Store(tmp_path / "copy") as store:
        store.check_usable()
        assert store.open(session_id).cursor == 1

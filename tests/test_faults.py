"""Every fault of the data folder ends as one sentence and changes nothing.

Tests run as root, for whom read-only permissions stop nothing: faults are made by putting
the wrong kind of thing in place (a file for a folder, a folder for a file, a symbolic
link) or by making the operating system's call fail (`OSError` with EROFS, EACCES,
ENOSPC, ...) at the moment it matters.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app.data import AppData
from companion.store import NewerFormat, SessionInUse, Store, StoreError
from companion.store import storage as storage_module
from companion.store.file_format import parse_file
from companion.store.index_file import doc_key
from companion.store.storage import MemoryFolder

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


def refuse_file(monkeypatch: pytest.MonkeyPatch, store: Store, operation: str, name: str, code: int) -> None:
    """`store.folder.<operation>(name, ...)` fails with `code`; every other file works."""
    real = getattr(store.folder, operation)

    def refuse(target: str, *args: Any) -> Any:
        if target == name:
            raise OSError(code, os.strerror(code), str(Path(store.directory or "") / target))
        return real(target, *args)

    monkeypatch.setattr(store.folder, operation, refuse)


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

    monkeypatch.setattr(os, "open", refuse_new_files)
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
    assert json.loads(path.read_bytes())["state"]["1"]["habits"] == {"heartland.price.corn": 4}  # a TinyDB file


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
    monkeypatch.setattr(os, "replace", fail_with(code))
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


# --------------------------------------------------------------------------- locks


def refuse_locks(monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    """Every session or index lock fails as on a read-only disk or a lock file owned by someone else."""
    monkeypatch.setattr(storage_module._DiskLock, "acquire", fail_with(code))


@pytest.mark.parametrize(
    ("code", "reason"),
    [(errno.EROFS, "the disk is read-only"), (errno.EACCES, "Companion is not allowed to use the data folder")],
)
def test_a_lock_that_cannot_be_taken_is_a_sentence_and_the_status_still_shows(
    played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch, code: int, reason: str
) -> None:
    directory, session_id = played
    data = AppData(Store(directory))
    summary = data.sessions()[0]
    before = snapshot(directory)
    refuse_locks(monkeypatch, code)
    with pytest.raises(StoreError, match=f"^This game cannot be opened for changes: {reason}.$"):
        data.open(session_id)
    with pytest.raises(StoreError, match=reason):
        data.delete(session_id)
    with pytest.raises(StoreError, match=reason):
        data.store.rename(session_id, "Saturday")
    assert data.status_line(summary) == "Ann's turn · $6 / $50"  # read without a lock
    assert [item.id for item in data.sessions()] == [session_id]
    assert snapshot(directory) == before


@pytest.mark.parametrize("kind", ["symlink", "folder"])
def test_a_session_lock_of_the_wrong_kind_is_a_sentence(played: tuple[Path, str], tmp_path: Path, kind: str) -> None:
    directory, session_id = played
    lock = directory / "locks" / f"{session_id}.lock"
    lock.unlink(missing_ok=True)
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    if kind == "symlink":
        lock.symlink_to(target)
    else:
        lock.mkdir()
    before = snapshot(directory)
    store = Store(directory)
    with pytest.raises(StoreError, match="^This game cannot be opened for changes: 'locks/"):
        store.open(session_id)
    with pytest.raises(StoreError, match="cannot be opened for changes"):
        store.delete(session_id)
    assert store.peek(session_id).cursor == 1
    assert snapshot(directory) == before and target.read_text() == "keep me"


def test_listing_a_read_only_folder_that_needs_repair_still_lists(
    played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    directory, session_id = played
    (directory / "pending" / session_id).write_bytes(b"")  # the index may lag: the listing would repair it
    before = snapshot(directory)
    refuse_locks(monkeypatch, errno.EROFS)
    listing = Store(directory).sessions()
    assert [(item.id, item.title) for item in listing] == [(session_id, "Friday")]
    assert snapshot(directory) == before


# --------------------------------------------------------------------------- recording


def fail_on_fsync_of(kind: str, code: int) -> Callable[[int], None]:
    """os.fsync failing for files or for folders only."""
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        is_folder = os.path.isdir(f"/proc/self/fd/{fd}") if os.path.exists("/proc/self/fd") else False
        if is_folder == (kind == "folder"):
            raise OSError(code, os.strerror(code))
        real_fsync(fd)

    return fsync


@pytest.mark.parametrize(
    ("target", "code", "reason"),
    [
        ("replace", errno.ENOSPC, "the disk is full"),
        ("replace", errno.EROFS, "the disk is read-only"),
        ("fsync", errno.EIO, "the disk reported an error"),
        ("open", errno.EACCES, "Companion is not allowed to use 'sessions/"),
    ],
)
def test_a_change_the_disk_refuses_is_not_recorded_and_says_so(
    played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch, target: str, code: int, reason: str
) -> None:
    directory, session_id = played
    store = Store(directory)
    session = store.open(session_id)
    before, on_disk = session.to_dict(), snapshot(directory)
    if target == "fsync":
        monkeypatch.setattr(os, "fsync", fail_on_fsync_of("file", code))
    else:
        monkeypatch.setattr(os, target, fail_with(code))
    changes: list[Callable[[], object]] = [lambda: session.apply(ADJUST), session.undo]
    for change in changes:
        with pytest.raises(StoreError, match=f"^Not saved, so not recorded: {reason}"):
            change()
        assert session.to_dict() == before
    monkeypatch.undo()
    store.close()
    assert snapshot(directory) == on_disk
    with Store(directory) as again:
        assert again.open(session_id).to_dict() == before


def test_a_folder_that_refuses_fsync_after_the_rename_keeps_the_change_it_shows(
    played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    directory, session_id = played
    store = Store(directory)
    session = store.open(session_id)
    monkeypatch.setattr(os, "fsync", fail_on_fsync_of("folder", errno.EIO))
    session.apply(ADJUST)  # the rename made it visible: it is recorded, and says nothing else
    assert session.cursor == 2
    monkeypatch.undo()
    store.close()
    with Store(directory) as again:
        assert again.open(session_id).to_dict() == session.to_dict()


# --------------------------------------------------------------------------- new, rename, delete


@pytest.mark.parametrize(
    ("fault", "reason"), [("session file", "the disk is full"), ("index", "the disk is read-only")]
)
def test_a_new_game_the_disk_refuses_leaves_nothing(
    played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch, fault: str, reason: str
) -> None:
    directory, session_id = played
    store = Store(directory)
    before = snapshot(directory)
    if fault == "index":  # the session file was written: it must go again
        for operation in ("write", "append"):  # the entry is a record appended to the index
            refuse_file(monkeypatch, store, operation, "index.json", errno.EROFS)
    else:
        monkeypatch.setattr(os, "replace", fail_with(errno.ENOSPC))
    said = (
        f"No new game can be saved: the data folder {directory} cannot be written ({reason})."
        if fault == "index"
        else f"The new game could not be saved: {reason}."
    )  # a read-only folder: the folder's own sentence
    with pytest.raises(StoreError, match=f"^{re.escape(said)}"):
        store.new("transamerica", ["Ann", "Bob"])
    monkeypatch.undo()
    assert snapshot(directory) == before
    assert [item.id for item in store.sessions()] == [session_id]


def test_a_new_game_is_one_write_of_a_whole_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path)
    written: list[tuple[str, bytes]] = []
    real_write = store.folder.write

    def record(name: str, data: bytes) -> None:
        written.append((name, data))
        real_write(name, data)

    monkeypatch.setattr(store.folder, "write", record)
    store.new("heartland", ["Ann", "Bob"], title="Friday")
    session_writes = [data for name, data in written if name.startswith("sessions/")]
    assert len(session_writes) == 1
    doc = json.loads(session_writes[0])["session"]["1"]
    assert (doc["game"], doc["players"], doc["title"], doc["events"]) == ("heartland", ["Ann", "Bob"], "Friday", [])


def test_a_title_the_disk_refuses_is_not_changed(played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    directory, session_id = played
    store = Store(directory)
    before = snapshot(directory)
    monkeypatch.setattr(os, "replace", fail_with(errno.ENOSPC))
    with pytest.raises(StoreError, match=r"^The title could not be saved: the disk is full\.$"):
        store.rename(session_id, "Saturday")
    monkeypatch.undo()
    assert snapshot(directory) == before
    assert store.sessions()[0].title == "Friday"


@pytest.mark.parametrize("is_open", [False, True])
def test_a_game_the_disk_will_not_delete_stays_whole_and_playable(
    played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch, is_open: bool
) -> None:
    directory, session_id = played
    store = Store(directory)
    session = store.open(session_id) if is_open else None
    before = snapshot(directory)
    monkeypatch.setattr(os, "unlink", fail_with(errno.EROFS))
    with pytest.raises(StoreError, match=r"^The game could not be deleted: the disk is read-only\.$"):
        store.delete(session_id)
    monkeypatch.undo()
    assert snapshot(directory) == before
    if session is not None:
        session.apply(ADJUST)
        assert store.peek(session_id).cursor == 2


def test_a_deleted_game_is_deleted_even_when_the_index_cannot_follow(
    played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    directory, session_id = played
    store = Store(directory)

    def index_refused(*_: object, **__: object) -> None:
        raise OSError(errno.EIO, "index unavailable")

    monkeypatch.setattr(store._index, "edit", index_refused)
    store.delete(session_id)
    monkeypatch.undo()
    assert not (directory / "sessions" / f"{session_id}.json").exists()
    assert Store(directory).sessions() == []


# --------------------------------------------------------------------------- reading


def test_an_index_that_cannot_be_read_is_a_sentence(played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    directory, _ = played
    store = Store(directory)
    (directory / "index.json").write_bytes((directory / "index.json").read_bytes())  # a new file: read it again
    before = snapshot(directory)
    refuse_file(monkeypatch, store, "read", "index.json", errno.EACCES)
    with pytest.raises(StoreError, match=r"^The saved games could not be read: Companion is not allowed to use 'index"):
        store.sessions()
    assert snapshot(directory) == before


def test_a_folder_in_place_of_a_session_file_is_a_sentence(played: tuple[Path, str]) -> None:
    directory, session_id = played
    (directory / "sessions" / f"{session_id}.json").unlink()
    (directory / "sessions" / f"{session_id}.json").mkdir()
    store = Store(directory)
    with pytest.raises(StoreError, match=r"is a folder, not a file\.$"):
        store.open(session_id)
    assert (directory / "sessions" / f"{session_id}.json").is_dir()


def test_a_long_title_from_disk_obeys_the_limit(played: tuple[Path, str]) -> None:
    directory, session_id = played
    path = directory / "sessions" / f"{session_id}.json"
    data = json.loads(path.read_bytes())
    data["session"]["1"]["title"] = "Long  " + "x" * 200
    path.write_text(json.dumps(data))
    index = parse_file((directory / "index.json").read_bytes()).data  # its appended records applied
    index["sessions"][doc_key(session_id)]["title"] = "y" * 200
    del index["sessions"][doc_key(session_id)][
        "check"
    ]  # as an earlier version wrote it (with a checksum, it is rebuilt)
    (directory / "index.json").write_text(json.dumps(index))
    store = Store(directory)
    assert store.sessions()[0].title == "y" * 60
    store.open(session_id)
    store.close()
    assert store.sessions()[0].title == ("Long " + "x" * 200)[:60]


def test_a_game_this_version_does_not_know_is_left_untouched(played: tuple[Path, str]) -> None:
    directory, session_id = played
    path = directory / "sessions" / f"{session_id}.json"
    data = json.loads(path.read_bytes())
    data["session"]["1"]["game"] = "ticket_to_ride"
    path.write_text(json.dumps(data))
    (directory / "index.json").unlink()  # the listing parses it
    content = path.read_bytes()
    store = Store(directory)
    listing = store.sessions()
    assert list(listing) == [] and listing.newer == (session_id,) and listing.quarantined == 0
    with pytest.raises(NewerFormat, match="is of a game this version does not know \\('ticket_to_ride'\\)"):
        store.open(session_id)
    assert path.read_bytes() == content and not any((directory / "quarantine").iterdir())


def test_an_index_entry_of_the_wrong_shapes_is_rebuilt_from_its_file(played: tuple[Path, str]) -> None:
    directory, session_id = played
    index = parse_file((directory / "index.json").read_bytes()).data  # its appended records applied
    index["sessions"][doc_key(session_id)]["players"] = [["Ann"], {"deep": []}]
    (directory / "index.json").write_text(json.dumps(index))
    assert Store(directory).sessions()[0].players == ("Ann", "Bob")


@pytest.mark.parametrize("content", [b"[" * 10_000 + b"]" * 10_000, b'{"file": 1' + b"0" * 5000 + b"}", b"{}"])
def test_a_damaged_quarantine_note_is_skipped(played: tuple[Path, str], content: bytes) -> None:
    directory, _ = played
    (directory / "quarantine" / "x.json.why.json").write_bytes(content)
    assert Store(directory).quarantine_notes() == []


# --------------------------------------------------------------------------- ui-state.json, whatever it holds

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=80),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=40,
)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
SHALLOW = SCALARS | st.lists(SCALARS, max_size=4) | st.dictionaries(st.text(max_size=8), SCALARS, max_size=4)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "open_session": JSON | st.text(max_size=70),
        "panel": JSON | st.text(max_size=50),
        "draft": JSON,
        "habits": JSON | st.dictionaries(st.text(max_size=20), JSON),
    },
)


@settings(max_examples=150, deadline=None)
@given(state=FIELDS | JSON)
def test_whatever_ui_state_holds_the_app_reads_shapes_it_can_use(state: Any) -> None:
    data = AppData(Store.in_memory())
    data.store.folder.write("ui-state.json", json.dumps(state).encode())
    session_id, panel, draft = data.last_view()
    assert session_id is None or (isinstance(session_id, str) and 0 < len(session_id) <= 64)
    assert panel is None or (isinstance(panel, str) and session_id is not None)
    assert isinstance(draft, dict) and (panel is not None or draft == {})
    assert len(json.dumps(draft)) <= 16 * 1024
    for name in ("corn", "heartland.price.corn"):
        value = data.recall(name)
        assert value is None or (type(value) is int and -(2**31) <= value < 2**31)
    data.remember("corn", 3)  # and the next write leaves a file that reads back whole
    assert data.recall("corn") == 3 and data.last_view() == (session_id, panel, draft)


@settings(max_examples=100, deadline=None)
@given(panel=st.text(min_size=1, max_size=40), draft=st.dictionaries(st.text(max_size=10), SHALLOW, max_size=6))
def test_a_small_draft_comes_back_as_it_was_left(panel: str, draft: dict[str, Any]) -> None:
    folder = MemoryFolder()
    AppData(Store.in_memory(folder)).remember_screen("01m8qk4vwbqs57st", panel, draft)
    restarted = AppData(Store.in_memory(folder))
    assert restarted.last_view() == ("01m8qk4vwbqs57st", panel, json.loads(json.dumps(draft)))


# --------------------------------------------------------------------------- absurd numbers and nesting on disk

HUGE = "1" + "0" * 5000


@pytest.fixture(params=["orjson", "json"])
def serialiser(request: pytest.FixtureRequest) -> Iterator[str]:
    storage_module.use_orjson(request.param == "orjson")
    yield request.param
    storage_module.use_orjson(True)


@pytest.mark.parametrize(
    "damage",
    [
        ('"amount":1', '"amount":' + HUGE),
        ('"cursor":1', '"cursor":' + HUGE),
        ('"note":"fix"', '"note":' + "[" * 10_000 + "]" * 10_000),
        ('"players":["Ann","Bob"]', '"players":["Ann",' + "{" * 3000 + "}" * 3000 + "]"),
    ],
)
def test_absurd_numbers_or_nesting_in_a_session_file_are_damage(
    played: tuple[Path, str], serialiser: str, damage: tuple[str, str]
) -> None:
    directory, session_id = played
    path = directory / "sessions" / f"{session_id}.json"
    raw = path.read_text()
    assert damage[0] in raw
    path.write_text(raw.replace(damage[0], damage[1], 1))
    store = Store(directory)
    with pytest.raises(StoreError, match="could not be read and was set aside in the quarantine folder"):
        store.open(session_id)
    assert store.sessions() == [] and store.sessions().quarantined == 1
    assert not path.exists()


@pytest.mark.parametrize("field", ["created", "title", "players"])
def test_absurd_numbers_in_the_index_are_rebuilt_from_the_session_file(
    played: tuple[Path, str], serialiser: str, field: str
) -> None:
    directory, session_id = played
    index = parse_file((directory / "index.json").read_bytes()).data  # its appended records applied
    index["sessions"][doc_key(session_id)][field] = 0
    (directory / "index.json").write_text(json.dumps(index).replace(f'"{field}": 0', f'"{field}": {HUGE}'))
    (summary,) = Store(directory).sessions()
    assert (summary.id, summary.title, summary.players) == (session_id, "Friday", ("Ann", "Bob"))


def test_a_list_that_cannot_be_read_is_empty_and_says_why(played: tuple[Path, str]) -> None:
    directory, session_id = played
    data = AppData(Store(directory))
    assert data.sessions().problem is None
    shutil.rmtree(directory / "sessions")
    (directory / "sessions").write_text("")  # replaced while the app runs
    listing = data.sessions()
    assert list(listing) == [] and listing.problem == (
        "The saved games could not be read: 'sessions' is a file, not a folder."
    )
    # Resuming asks the index it already knows (no look at every file), so the game still looks
    # listed; opening it is what says, in words, that it cannot be read now.
    with pytest.raises(StoreError, match="'sessions' is a file, not a folder"):
        data.open(session_id)


@pytest.mark.parametrize("name", ["bad\0name", "x" * 5000])
def test_a_data_folder_name_no_disk_accepts_is_refused_in_words(tmp_path: Path, name: str) -> None:
    with pytest.raises(StoreError, match="^The data folder .* cannot be used: "):
        Store(tmp_path / name).check_usable()


def test_a_damaged_file_that_cannot_be_moved_aside_stays_and_leaves_no_note(
    played: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    directory, session_id = played
    (directory / "sessions" / f"{session_id}.json").write_bytes(b"{not json")
    before = snapshot(directory)
    store = Store(directory)
    monkeypatch.setattr(store.folder, "move", fail_with(errno.EROFS))
    with pytest.raises(StoreError, match=r"^The saved games could not be read: the disk is read-only\.$"):
        store.open(session_id)
    assert snapshot(directory) == before and store.quarantine_notes() == []
    monkeypatch.undo()
    with pytest.raises(StoreError, match="set aside in the quarantine folder"):
        store.open(session_id)
    assert len(store.quarantine_notes()) == 1


# --------------------------------------------------------------------------- memory and disk agree, whatever fails

FAULTS = {
    "none": None,
    "full disk at the rename": ("replace", errno.ENOSPC),
    "read-only at the temp file": ("open", errno.EROFS),
    "file fsync fails": ("fsync file", errno.EIO),
    "folder fsync fails after the rename": ("fsync folder", errno.EIO),
}


def _inject(fault: tuple[str, int] | None) -> contextlib.AbstractContextManager[Any]:
    if fault is None:
        return contextlib.nullcontext()
    target, code = fault
    if target.startswith("fsync"):
        return mock.patch.object(os, "fsync", fail_on_fsync_of(target.split()[1], code))
    real_open = os.open

    def refuse(path: Any, *args: Any, **kwargs: Any) -> Any:
        if target == "open" and not (args and args[0] & os.O_CREAT):
            return real_open(path, *args, **kwargs)  # reading and folder handles still work
        raise OSError(code, os.strerror(code), path)

    return mock.patch.object(os, target, refuse)


@settings(max_examples=40, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["adjust", "undo", "redo", "rename"]), st.sampled_from(list(FAULTS))),
        min_size=1,
        max_size=12,
    )
)
def test_whatever_the_disk_refuses_memory_and_disk_agree(steps: list[tuple[str, str]]) -> None:
    """After any mix of changes and faults, a restarted store shows exactly what the app showed."""
    with tempfile.TemporaryDirectory() as directory:
        store = Store(directory)
        session = store.new("heartland", ["Ann", "Bob"])
        session_id = session.id or ""
        title = ""
        for number, (change, fault) in enumerate(steps):
            before = (session.to_dict(), title)
            try:
                with _inject(FAULTS[fault]):
                    if change == "adjust":
                        session.apply(ADJUST)
                    elif change == "undo" and session.can_undo:
                        session.undo()
                    elif change == "redo" and session.can_redo:
                        session.redo()
                    elif change == "rename":
                        store.rename(session_id, f"Evening {number}")
                        title = f"Evening {number}"
            except StoreError as error:
                assert str(error).startswith(("Not saved, so not recorded: ", "The title could not be saved: "))
                assert (session.to_dict(), title) == before
        store.close()
        with Store(directory) as again:
            assert again.open(session_id).to_dict() == session.to_dict()
            assert again.sessions()[0].title == title


@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_a_pipe_or_device_in_place_of_a_file_is_a_sentence_not_a_hang(played: tuple[Path, str], kind: str) -> None:
    directory, session_id = played
    for name in ("index.json", f"sessions/{session_id}.json", "ui-state.json"):
        (directory / name).unlink(missing_ok=True)
        if kind == "pipe":
            os.mkfifo(directory / name)
        else:
            (directory / name).symlink_to("/dev/zero")
    with pytest.raises(StoreError, match=r"cannot be used: 'index.json' is not an ordinary file\.$"):
        Store(directory)
    (directory / "index.json").unlink()
    data = AppData(Store(directory))
    assert data.last_view() == (None, None, {})
    with pytest.raises(StoreError, match=rf"'sessions/{session_id}.json' is not an ordinary file\.$"):
        data.open(session_id)


@pytest.mark.parametrize(
    ("code", "reason"),
    [(errno.EROFS, "the disk is read-only"), (errno.EACCES, "Companion is not allowed to use the data folder")],
)
def test_new_game_on_a_folder_that_cannot_be_written_says_where_and_what_to_do_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, reason: str
) -> None:
    import asyncio

    from app_helpers import notice, set_up
    from flet_harness import Screen

    from companion.app.main import make_main

    directory = tmp_path / "data"
    data = AppData(Store(directory))
    refuse_locks(monkeypatch, code)
    said = (
        f"No new game can be saved: the data folder {directory} cannot be written ({reason}). "
        "Make it writable, or start Companion with another data folder."
    )
    with pytest.raises(StoreError, match=f"^{re.escape(said)}$"):
        data.new("heartland", ["Ann", "Bob"], {})

    async def new_game() -> None:
        async with Screen(make_main(data)) as screen:
            await set_up(screen, "heartland", ["Ann", "Bob"])
            await screen.tap("start")
            assert notice(screen) == said
            shown = [control for control in screen.walk() if "cannot be" in str(getattr(control, "value", ""))]
            assert len(shown) == 1  # one sentence, shown once
            assert screen.exists("start")  # still on New game, the set-up kept

    asyncio.run(new_game())
    assert data.sessions() == []

"""A data folder copied without its file times (`cp -r`) lists at once: an index entry keeps
the size and CRC-32 of the file it was worked out from, so a file whose time changed but whose
bytes did not is trusted, never read again into the index; and "last played" stays the one
the entries hold (what the logs said), not the copy's date."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from archive_helpers import build

from companion.aftergame.archive import export_json, import_json
from companion.app.data import status_of
from companion.store import Store
from companion.store.repair import Repair
from companion.store.storage import DiskFolder

GAMES = 200


def imported_folder(tmp_path: Path) -> Path:
    """A data folder made by importing an archive of `GAMES` games, as the app does."""
    source = tmp_path / "source"
    build(DiskFolder(source, durable=False), GAMES, unfinished_every=5)
    with Store(source) as store:
        archive = export_json(store)
    directory = tmp_path / "data"
    with Store(directory, status=status_of) as store:  # as the app's store: entries with status lines
        report = import_json(store, archive)
        assert len(report.imported) == GAMES and report.refused == []
    return directory


def shown(directory: Path) -> list[tuple[str, float, float | None, str]]:
    with Store(directory, status=status_of) as store:
        return [(summary.id, summary.updated, summary.finished, summary.status) for summary in store.sessions()]


def test_a_folder_copied_with_new_file_times_lists_without_reading_a_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = imported_folder(tmp_path)
    before = shown(directory)
    copy = tmp_path / "copy"
    shutil.copytree(directory, copy, copy_function=shutil.copyfile)  # as `cp -r`: no times kept
    later = time.time() + 3600
    for path in (copy / "sessions").iterdir():
        os.utime(path, (later, later))
    loads: list[str] = []
    real = Repair.load

    def counted(self: Repair, session_id: str, lock: object) -> object:
        loads.append(session_id)
        return real(self, session_id, lock)  # type: ignore[arg-type]

    monkeypatch.setattr(Repair, "load", counted)
    assert shown(copy) == before  # the same games, the same "last played", newest first as before
    assert loads == []  # no game parsed or replayed


def line(game: str, state: object) -> dict[str, str]:
    return {"en": "a line"}


def test_a_file_changed_since_its_entry_is_read_again(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    with Store(directory, status=line) as store:
        session = store.new("heartland", ["Ann", "Bob"])
        session.apply({"type": "adjust", "player": "Ann", "amount": 3, "note": "x"})
        store.close_session(session.id or "")
        session_id = session.id or ""
    with Store(directory, status=line) as store:  # played on in a window that died before its entry was written
        session = store.open(session_id)
        session.apply({"type": "adjust", "player": "Ann", "amount": 4, "note": "y"})
        saved = (directory / "sessions" / f"{session_id}.json").read_bytes()
        index = (directory / "index.json").read_bytes()
    (directory / "sessions" / f"{session_id}.json").write_bytes(saved)
    (directory / "index.json").write_bytes(index)
    later = time.time() + 60
    os.utime(directory / "sessions" / f"{session_id}.json", (later, later))
    with Store(directory, status=line) as store:
        (summary,) = store.sessions()
        assert summary.written is not None and summary.written[:2] == (2, 2)  # read again: both changes

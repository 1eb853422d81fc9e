"""On a full disk every operation says what failed in its own sentence, and changes nothing.

The disk is made full at the moment it matters: the rename of an atomic write (`os.replace`)
or the removal of a file (`os.unlink`) fails with ENOSPC, as in test_faults.py.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from app_helpers import exported, imported, notice, table
from flet_harness import Screen
from test_faults import fail_with, snapshot

from companion.aftergame import archive, stats
from companion.app.data import AppData
from companion.app.main import make_main
from companion.store import Store, StoreError

ADJUST = {"type": "adjust", "player": "Ann", "amount": 1, "note": "fix"}
FULL = "the disk is full"


@pytest.fixture
def folder(tmp_path: Path) -> tuple[Path, str, bytes]:
    """A data folder with Ann and Bob's game (one change), its backup of 2026-11-30, and an
    archive of another table's game to import."""
    directory = tmp_path / "data"
    with Store(directory) as store:
        session = store.new("heartland", ["Ann", "Bob"], title="Friday")
        session.apply(ADJUST)
        assert archive.write_backup(store, date(2026, 11, 30)) is not None
    with Store(tmp_path / "other") as other:
        other.new("transamerica", ["Kim", "Lou"])
        elsewhere = archive.export_json(other)
    return directory, session.id or "", elsewhere


def files(directory: Path) -> dict[str, bytes | None]:
    """Every file with its bytes (an empty folder made on the way changes nothing a player keeps)."""
    return {name: content for name, content in snapshot(directory).items() if content is not None}


def said(operation: Callable[[], Any]) -> str:
    """The one sentence an operation fails with (a StoreError, or the one refusal of its report)."""
    try:
        report = operation()
    except StoreError as error:
        return str(error)
    assert isinstance(report, archive.ImportReport) and not report.imported, report
    (refusal,) = report.refused
    return refusal.reason


def operations(store: Store, session_id: str, elsewhere: bytes) -> dict[str, Callable[[], Any]]:
    return {
        "record a change": lambda: store.open(session_id).apply(ADJUST),
        "new game": lambda: store.new("transamerica", ["Cy", "Di"]),
        "rename": lambda: store.rename(session_id, "Saturday"),
        "delete": lambda: store.delete(session_id),
        "backup": lambda: archive.write_backup(store, date(2026, 12, 1)),
        "export": lambda: archive.save_export(store, "companion-2026-12-01-2000.json", archive.export_json(store)),
        "import": lambda: archive.import_json(store, elsewhere),
        "restore": lambda: archive.restore_backup(store, "companion-2026-11-30.json"),
        "rename a player": lambda: stats.rename_player(store.folder, "Ann", "Annie"),
    }


EXPECTED = {
    "record a change": f"Not saved, so not recorded: {FULL}.",
    "new game": f"The new game could not be saved: {FULL}.",
    "rename": f"The title could not be saved: {FULL}.",
    "delete": f"The game could not be deleted: {FULL}.",
    "backup": f"Today's backup could not be saved: {FULL}.",
    "export": f"The export could not be saved: {FULL}.",
    "import": f"It could not be saved: {FULL}.",
    "restore": f"It could not be brought back: {FULL}.",
    "rename a player": f"The new name could not be saved: {FULL}.",
}


@pytest.mark.parametrize("operation", list(EXPECTED))
def test_on_a_full_disk_each_operation_says_what_failed_and_changes_nothing(
    folder: tuple[Path, str, bytes], monkeypatch: pytest.MonkeyPatch, operation: str
) -> None:
    directory, session_id, elsewhere = folder
    store = Store(directory)
    if operation == "restore":  # the game is missing, so the restore has something to bring back
        store.delete(session_id)
    before = files(directory)
    run = operations(store, session_id, elsewhere)[operation]
    # A write fails at its rename; a deletion (which writes nothing) at the removal itself.
    monkeypatch.setattr(os, "unlink" if operation == "delete" else "replace", fail_with(errno.ENOSPC))
    sentence = said(run)
    monkeypatch.undo()
    store.close()
    assert sentence == EXPECTED[operation]
    assert files(directory) == before


def test_no_two_operations_say_the_same_sentence() -> None:
    assert len(set(EXPECTED.values())) == len(EXPECTED)


@table
async def test_the_archive_sheet_says_which_operation_the_full_disk_refused(
    folder: tuple[Path, str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    directory, _, elsewhere = folder
    data = AppData(Store(directory))

    def pick(_: Any, args: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"id": 1, "name": "games.json", "size": len(elsewhere), "bytes": elsewhere}]

    async with Screen(make_main(data), methods={"pick_files": pick}, page_props={"platform": "linux"}) as screen:
        await screen.tap("archive")
        before = files(directory)
        monkeypatch.setattr(os, "replace", fail_with(errno.ENOSPC))
        await exported(screen, "export-json")
        assert notice(screen) == f"The export could not be saved: {FULL}."
        await screen.tap("import-pick")
        assert await imported(screen, data) == "0 imported · 0 already here · 1 refused"
        assert screen.text_of("refused-1").endswith(f"It could not be saved: {FULL}.")
        monkeypatch.undo()
        assert files(directory) == before
        assert json.loads(archive.export_json(data.store))["sessions"][0]["title"] == "Friday"

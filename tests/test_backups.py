"""A copy of the whole archive a day while the app is used, the last 7 kept; restoring one is an import."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from store_helpers import put

from companion.aftergame.archive import BACKUPS_KEPT, backups, restore_backup, write_backup
from companion.session import Session
from companion.store import Store
from companion.store.storage import MemoryFolder

MONDAY = date(2026, 11, 30)


def played(store: Store, title: str) -> str:
    session = Session.new("transamerica", ["Ann", "Bob"])
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 13}})
    return put(store, session, created=1_000.0, title=title, updated=2_000.0)


def test_one_backup_a_day_whatever_the_number_of_starts(tmp_path: Path) -> None:
    with Store(tmp_path / "data") as store:
        played(store, "first")
        assert write_backup(store, MONDAY) == "companion-2026-11-30.json"
        played(store, "second")
        assert write_backup(store, MONDAY) is None  # today's is kept as it was
        (backup,) = backups(store)
    saved = json.loads((tmp_path / "data" / "backups" / backup.name).read_text(encoding="utf-8"))
    assert [entry["title"] for entry in saved["sessions"]] == ["first"]
    assert backup.day == MONDAY and backup.size > 0
    assert [name for name in (tmp_path / "data" / "backups").iterdir() if name.name.startswith(".")] == []


def test_an_empty_archive_has_no_backup() -> None:
    store = Store.in_memory()
    assert write_backup(store, MONDAY) is None and backups(store) == []


def test_the_last_seven_days_are_kept_newest_first() -> None:
    store = Store.in_memory()
    played(store, "game")
    for day in range(10):
        write_backup(store, MONDAY + timedelta(days=day))
    kept = backups(store)
    assert len(kept) == BACKUPS_KEPT
    assert [backup.day for backup in kept] == [MONDAY + timedelta(days=day) for day in range(9, 2, -1)]


def test_restoring_brings_back_what_is_missing_and_overwrites_nothing() -> None:
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    kept, lost = played(store, "kept"), played(store, "lost")
    write_backup(store, MONDAY)
    store.delete(lost)
    store.rename(kept, "renamed since")  # changed since the backup: left as it is, and said
    report = restore_backup(store, "companion-2026-11-30.json")
    assert report.refused == [] and report.duplicates == [] and report.copies == []
    assert report.imported == [lost] and [changed.session for changed in report.changed] == [kept]
    titles = sorted(summary.title for summary in Store.in_memory(folder).sessions())
    assert titles == ["lost", "renamed since"]
    again = restore_backup(store, "companion-2026-11-30.json")
    assert again.imported == [] and again.duplicates == [lost] and [c.session for c in again.changed] == [kept]


def test_restoring_a_name_that_is_no_backup_is_one_sentence() -> None:
    store = Store.in_memory()
    assert [str(refusal) for refusal in restore_backup(store, "../index.json").refused] == [
        "../index.json: It is not the name of a backup."
    ]
    assert [str(refusal) for refusal in restore_backup(store, "companion-2026-01-01.json").refused] == [
        "companion-2026-01-01.json: There is no such backup."
    ]


def test_where_no_thread_can_start_the_day_s_backup_is_made_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The phone build's Python (Pyodide) starts no threads: the backup runs on the page's own turn."""
    from companion.app import main as app_main
    from companion.app.data import AppData

    def no_threads(self: Any) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(app_main.threading.Timer, "start", no_threads)
    with Store(tmp_path / "data") as store:
        played(store, "Friday")
        app_main.DailyBackup(AppData(store)).check()
        assert [backup.day for backup in backups(store)] == [date.today()]

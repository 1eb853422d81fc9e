"""The day's backup is a stream, not a replay: every game copied from its file, one at a time.

It holds what an export holds, without replaying a game (no rule runs, no status line is
noted), in a fraction of the archive's memory; a game recorded while it runs is in it as it
was at one moment, whole; it starts once the first screen is out, off the page's thread.
"""

from __future__ import annotations

import json
import shutil
import threading
import tracemalloc
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from app_helpers import table
from archive_helpers import build
from flet_harness import Screen, wait_for

from companion.aftergame import archive
from companion.app import main as app_main
from companion.app.data import AppData
from companion.session import Session
from companion.store import Store
from companion.store.folders import DiskFolder

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MONDAY = date(2026, 11, 30)
ADJUST = {"type": "adjust", "player": "Ann", "amount": 1, "note": "fix"}


def backup_of(store: Store, day: date = MONDAY) -> dict[str, Any]:
    name = archive.write_backup(store, day)
    assert name is not None
    found: dict[str, Any] = json.loads(store.folder.read(f"backups/{name}") or b"")
    return found


def test_the_backup_holds_what_an_export_holds(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        build(store.folder, 40, unfinished_every=3)
        session = store.new("heartland", ["Ann", "Bob"], title="Friday")
        for _ in range(4):
            session.apply(ADJUST)
        session.undo()  # a redo tail
        store.rename(session.id or "", "Friday night")
        assert backup_of(store) == json.loads(archive.export_json(store))


def test_no_rule_replays_a_game_and_no_status_line_is_noted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(FIXTURES / "store-v1", tmp_path / "data", ignore=shutil.ignore_patterns("expected.json"))
    expected = json.loads((FIXTURES / "store-v1" / "expected.json").read_text(encoding="utf-8"))
    store = Store(tmp_path / "data")
    store.status = lambda game, state: {"en": "a line"}
    store.sessions()

    def no_replay(*_: Any, **__: Any) -> Any:
        raise AssertionError("a game was replayed")

    monkeypatch.setattr(Session, "from_dict", no_replay)
    saved = backup_of(store)
    monkeypatch.undo()
    assert {entry["id"] for entry in saved["sessions"]} == set(expected)
    assert not store._index.has_noted  # nothing left to write into the index
    restored = Store.in_memory()
    report = archive.import_json(restored, json.dumps(saved).encode())
    assert report.refused == [] and len(report.imported) == len(expected)
    for summary in restored.sessions():  # each replays as that version recorded it
        session = restored.open(summary.id)
        assert [str(sentence) for sentence in session.sentences] == expected[summary.id]["sentences"]


def test_the_backup_holds_one_game_at_a_time_in_memory(tmp_path: Path) -> None:
    build(DiskFolder(tmp_path, durable=False), 2000, unfinished_every=4)
    store = Store(tmp_path, durable=False)
    store.sessions()
    store.compact_now()  # no rewrite of an old file inside the measure
    peaks, names = [], []
    # Two backups, the lower peak: tracemalloc also counts the test runner's own threads, which
    # once lifted a peak to 338 KB; a backup that held every game would be over the line twice.
    for day in (MONDAY, MONDAY + timedelta(days=1)):
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            names.append(archive.write_backup(store, day))
            peaks.append(tracemalloc.get_traced_memory()[1] - base)
        finally:
            tracemalloc.stop()
    assert None not in names
    size = (tmp_path / "backups" / str(names[0])).stat().st_size
    print(f"backup of {size} bytes, peaks {peaks} bytes")
    assert size > 500_000 and min(peaks) < size / 10, (size, peaks)  # export_json holds every game, twice


def test_a_game_recorded_while_the_backup_runs_is_in_it_whole(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        first = store.new("transamerica", ["Ann", "Bob"])
        playing = store.new("heartland", ["Ann", "Bob"])
        for _ in range(3):
            playing.apply(ADJUST)
        before = playing.to_dict()
        chunks = archive.backup_chunks(store)
        streamed = [next(chunks), next(chunks)]  # the header, then the first game
        for _ in range(3):  # the table plays on while the copy runs
            playing.apply(ADJUST)
        after = playing.to_dict()
        streamed += list(chunks)
        saved = json.loads(b"".join(streamed))
    games = {entry["id"]: entry for entry in saved["sessions"]}
    assert set(games) == {first.id, playing.id}
    copy = {name: games[playing.id or ""][name] for name in before}
    assert copy in (before, after)
    assert copy == after  # reached after the changes: copied as it stood then


@table
async def test_the_day_s_backup_starts_after_the_first_screen_off_the_page_s_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = AppData(Store(tmp_path / "data"))
    data.new("transamerica", ["Ann", "Bob"], {})
    monkeypatch.setattr(app_main, "BACKUP_AFTER_S", 0.2)
    started: list[tuple[str, bool]] = []
    real = archive.write_backup
    screens: list[Screen] = []

    def write_backup(store: Store, today: date | None = None) -> str | None:
        started.append((threading.current_thread().name, bool(screens and screens[0].dispatches)))
        return real(store, today)

    monkeypatch.setattr(archive, "write_backup", write_backup)
    screen = Screen(app_main.make_main(data))
    screens.append(screen)
    async with screen:
        assert data.backups() == []  # the first screen is out before the copy begins
        await wait_for(lambda: bool(data.backups()), timeout=10)
    assert started == [("companion-backup", True)]

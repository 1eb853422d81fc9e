"""Your games from Home: export every game or the results into the data folder (and a copy
through the save dialog), import an archive with a report in words, restore a backup, and
the day's backup written when the app starts."""

from __future__ import annotations

import errno
import json
import threading
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from app_helpers import exported, imported, notice, table
from flet_harness import Screen, wait_for
from test_app_stats import play_transamerica

from companion.aftergame import stats
from companion.app.data import AppData
from companion.app.main import make_main
from companion.store import Store

DESKTOP = {"platform": "linux"}  # a platform whose file dialogs save what they are given


def disk_app(folder: Path) -> AppData:
    return AppData(Store(folder))


@table
async def test_export_every_game_into_the_data_folder_and_save_a_copy(tmp_path: Path) -> None:
    data = disk_app(tmp_path / "data")
    game_id = play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    saved: list[dict[str, Any]] = []
    async with Screen(
        make_main(data), methods={"save_file": lambda _, args: saved.append(args)}, page_props=DESKTOP
    ) as screen:
        await screen.tap("archive")
        await exported(screen, "export-json")
        shown = screen.text_of("export-saved")
        assert shown.startswith(f"Saved in {tmp_path / 'data' / 'exports'}")
        path = Path(shown.removeprefix("Saved in "))
        assert [entry["id"] for entry in json.loads(path.read_bytes())["sessions"]] == [game_id]

        await screen.tap("export-copy")
        await screen.settle()
        (copy,) = saved
        assert copy["file_name"] == path.name
        assert json.loads(copy["src_bytes"])["sessions"][0]["id"] == game_id

        await exported(screen, "export-csv")
        csv_path = Path(screen.text_of("export-saved").removeprefix("Saved in "))
        assert csv_path.read_text(encoding="utf-8-sig").splitlines()[0].startswith("session_id,title,date,time")

        await exported(screen, "export-xlsx")
        xlsx_path = Path(screen.text_of("export-saved").removeprefix("Saved in "))
        assert xlsx_path.suffix == ".xlsx" and xlsx_path.parent == csv_path.parent
        (header, *_) = openpyxl.load_workbook(xlsx_path)["Results"].iter_rows(values_only=True)
        assert header[:4] == ("session_id", "title", "date", "time")


@table
async def test_import_a_chosen_file_reports_imported_duplicates_and_refused(tmp_path: Path) -> None:
    elsewhere = disk_app(tmp_path / "other")
    play_transamerica(elsewhere, ["Kim", "Lou"], {"Kim": 0, "Lou": 13})
    _, archive = elsewhere.export("json")
    broken = json.loads(archive)
    broken["sessions"][0]["game"] = "chess"
    chosen = [archive]

    def pick(_: Any, args: dict[str, Any]) -> list[dict[str, Any]]:
        assert args["with_data"]
        return [{"id": 1, "name": "games.json", "size": len(chosen[0]), "bytes": chosen[0]}]

    data = disk_app(tmp_path / "data")
    async with Screen(make_main(data), methods={"pick_files": pick}, page_props=DESKTOP) as screen:
        await screen.tap("archive")
        await screen.tap("import-pick")
        assert await imported(screen, data) == "1 imported · 0 already here · 0 refused"
        assert [summary.players for summary in data.finished()] == [("Kim", "Lou")]

        await screen.tap("import-pick")
        assert await imported(screen, data) == "0 imported · 1 already here · 0 refused"

        chosen[0] = json.dumps(broken).encode()
        await screen.tap("import-pick")
        assert await imported(screen, data) == "0 imported · 0 already here · 1 refused"
        assert "chess" in screen.text_of("refused-1")
        await screen.tap("panel-close")
        assert len(data.finished()) == 1


@table
async def test_import_from_the_exports_folder_where_there_is_no_file_picker(tmp_path: Path) -> None:
    def no_picker(_: Any, __: Any) -> None:
        raise RuntimeError("no file picker on this platform")

    data = disk_app(tmp_path / "data")
    elsewhere = disk_app(tmp_path / "other")
    play_transamerica(elsewhere, ["Kim", "Lou"], {"Kim": 0, "Lou": 13})
    (tmp_path / "data" / "exports").mkdir(parents=True)
    name, archive = elsewhere.export("json")
    (tmp_path / "data" / "exports" / name).write_bytes(archive)
    async with Screen(make_main(data), methods={"pick_files": no_picker}) as screen:
        await screen.tap("archive")
        await screen.tap("import-pick")
        await screen.settle()
        assert notice(screen) == ("No file dialog here: use the files in the exports folder of the data folder.")
        await screen.tap(f"import-file-{name}")
        assert await imported(screen, data) == "1 imported · 0 already here · 0 refused"
        await screen.tap("panel-close")
        assert [summary.players for summary in data.finished()] == [("Kim", "Lou")]


@table
async def test_restore_a_backup_brings_back_a_deleted_game(tmp_path: Path) -> None:
    data = disk_app(tmp_path / "data")
    game_id = play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    assert data.backup_if_due(date(2026, 11, 30)) == "companion-2026-11-30.json"
    data.delete(game_id)
    async with Screen(make_main(data)) as screen:
        await screen.tap("archive")
        assert screen.text_of("backup-companion-2026-11-30.json") == "2026-11-30"
        await screen.tap("restore-companion-2026-11-30.json")
        assert screen.text_of("import-report") == "1 imported · 0 already here · 0 refused"
        await screen.tap("restore-companion-2026-11-30.json")
        assert screen.text_of("import-report") == "0 imported · 1 already here · 0 refused"
        await screen.tap("panel-close")
        assert screen.exists(f"session-{game_id}")


@table
async def test_the_app_keeps_a_backup_of_the_day_when_it_starts(tmp_path: Path) -> None:
    data = disk_app(tmp_path / "data")
    play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    assert data.backups() == []
    async with Screen(make_main(data)) as screen:
        await wait_for(lambda: bool(data.backups()), timeout=10)
        assert data.backups()[0].day == date.today()
        await screen.tap("archive")
        assert screen.exists(f"restore-{data.backups()[0].name}")


@table
async def test_no_backup_yet_is_said_in_words(tmp_path: Path) -> None:
    async with Screen(make_main(disk_app(tmp_path / "data"))) as screen:
        await screen.tap("archive")
        assert screen.text_of("no-backups") == "No backup yet: one is made each day the app is used."


@table
async def test_a_french_table_reads_why_an_import_was_refused_in_french(tmp_path: Path) -> None:
    newer = json.dumps({"format": "companion-archive", "version": 9, "sessions": []}).encode()

    def pick(_: Any, __: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"id": 1, "name": "games.json", "size": len(newer), "bytes": newer}]

    data = disk_app(tmp_path / "data")
    async with Screen(make_main(data, language="fr"), methods={"pick_files": pick}, page_props=DESKTOP) as screen:
        await screen.tap("archive")
        await screen.tap("import-pick")
        await imported(screen, data)
        refused = screen.text_of("refused-1")
        assert "le fichier" in refused and "version plus récente" in refused, refused
        assert "newer" not in refused and "the file" not in refused


@table
async def test_a_spanish_table_reads_a_missing_backup_in_spanish(tmp_path: Path) -> None:
    data = disk_app(tmp_path / "data")
    (report,) = [data.restore_backup("companion-2020-01-01.json")]
    assert str(report.refused[0]) == "companion-2020-01-01.json: There is no such backup."
    assert report.refused[0].reason_text("es") == "No existe esa copia de seguridad."


@table
async def test_a_french_table_is_told_of_each_game_brought_up_to_date_or_copied(tmp_path: Path) -> None:
    data = disk_app(tmp_path / "data")
    on = data.new("transamerica", ["Ann", "Bob"], {})
    on.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 6}})
    assert on.id is not None
    data.close_session(on.id)
    parted = play_transamerica(data, ["Kim", "Lou"], {"Kim": 0, "Lou": 13})
    _, exported = data.export("json")
    document = json.loads(exported)
    by_id = {entry["id"]: entry for entry in document["sessions"]}
    by_id[on.id]["events"].append({"type": "end_round", "missing": {"Ann": 0, "Bob": 7}})  # played on elsewhere
    by_id[on.id]["cursor"] = 2
    by_id[parted]["events"] = [{"type": "end_round", "missing": {"Kim": 13, "Lou": 0}}]  # another game, same id
    chosen = json.dumps(document).encode()

    def pick(_: Any, __: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"id": 1, "name": "games.json", "size": len(chosen), "bytes": chosen}]

    async with Screen(make_main(data, language="fr"), methods={"pick_files": pick}, page_props=DESKTOP) as screen:
        await screen.tap("archive")
        await screen.tap("import-pick")
        await imported(screen, data)
        day = date.fromtimestamp(by_id[on.id]["created"]).isoformat()
        assert screen.text_of("updated-1") == (
            f"Mise à jour, TransAmerica ({day}, Ann et Bob)\u00a0: le fichier la contient jouée plus loin\u00a0; "
            "la plus longue est gardée."
        )
        assert screen.text_of("copies-1").startswith(f"Ajoutée comme copie, TransAmerica ({day}, Kim et Lou)\u00a0:")
        assert not screen.exists("refused-1")
    titles = sorted(summary.title for summary in data.store.sessions())
    assert titles == ["", "", "TransAmerica · Kim et Lou (copie)"]
    assert data.statistics().plays == 2  # the copy is the same game: counted once


@table
async def test_a_file_over_the_limit_is_refused_at_once_before_its_bytes_are_read(tmp_path: Path) -> None:
    def pick(_: Any, __: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"id": 1, "name": "film.json", "size": 60 * 2**20, "bytes": None}]

    data = disk_app(tmp_path / "data")
    async with Screen(make_main(data, language="es"), methods={"pick_files": pick}, page_props=DESKTOP) as screen:
        await screen.tap("archive")
        await screen.tap("import-pick")
        await imported(screen, data)
        assert screen.text_of("refused-1") == (
            "Rechazada, el archivo: Ocupa 60 MB; un archivo puede ocupar como máximo 50 MB."
        )


@table
async def test_a_restore_says_which_game_changed_since_the_backup_and_leaves_it(tmp_path: Path) -> None:
    data = disk_app(tmp_path / "data")
    game_id = play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    assert data.backup_if_due(date(2026, 11, 30)) == "companion-2026-11-30.json"
    data.store.rename(game_id, "Pizza night")
    async with Screen(make_main(data)) as screen:
        await screen.tap("archive")
        await screen.tap("restore-companion-2026-11-30.json")
        assert screen.text_of("import-report") == "0 imported · 1 already here · 0 refused"
        assert screen.text_of("changed-1").startswith("Left as it is, Pizza night (")
        assert screen.text_of("changed-1").endswith(", Ann and Bob): it changed since the backup.")
    assert [summary.title for summary in data.store.sessions()] == ["Pizza night"]


@table
async def test_the_sheet_says_what_is_being_imported_while_the_games_are_replayed(tmp_path: Path) -> None:
    elsewhere = disk_app(tmp_path / "other")
    play_transamerica(elsewhere, ["Kim", "Lou"], {"Kim": 0, "Lou": 13})
    _, chosen = elsewhere.export("json")
    chosen += b" " * (3 * 2**20)  # 3 MB

    def pick(_: Any, __: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"id": 1, "name": "games.json", "size": len(chosen), "bytes": chosen}]

    data = disk_app(tmp_path / "data")
    release = threading.Event()
    replay = data.import_archive

    def slow(*args: Any) -> Any:
        release.wait(10)
        return replay(*args)

    data.import_archive = slow  # type: ignore[method-assign]
    async with Screen(make_main(data), methods={"pick_files": pick}, page_props=DESKTOP) as screen:
        await screen.tap("archive")
        await screen.tap("import-pick")
        await wait_for(lambda: screen.exists("import-busy"))
        assert screen.text_of("import-busy") == (
            "Importing games.json (3.0 MB): every game is replayed by the rules first…"
        )
        await exported(screen, "export-csv")  # the page answers meanwhile
        assert screen.exists("export-saved")
        release.set()
        assert await imported(screen, data) == "1 imported · 0 already here · 0 refused"
        assert not screen.exists("import-busy")


@table
async def test_a_day_whose_backup_cannot_be_saved_says_so_on_home_once_and_blocks_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = disk_app(tmp_path / "data")
    play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})

    def full_disk(name: str, chunks: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(data.store.folder, "write_stream", full_disk)
    async with Screen(make_main(data)) as screen:
        await wait_for(lambda: screen.exists("backup-failed"), timeout=10)
        assert screen.text_of("backup-failed") == "Today's backup could not be saved: the disk is full."
        assert len(screen.find_all("backup-failed")) == 1
        assert screen.exists("new-game")  # a line on Home, no dialog to dismiss
        await screen.tap("new-game")  # and nothing is in the way
        assert screen.exists("start")


def paused_at(
    work: Callable[..., Any], pause: Callable[[str, int], bool]
) -> tuple[Callable[..., Any], threading.Event, threading.Event]:
    """`work` (whose last argument is its progress), held at the first step `pause` picks until
    released: the wrapped work, the event set when it is held, and the one that releases it."""
    held, release = threading.Event(), threading.Event()

    def wrapped(*args: Any) -> Any:
        *others, progress = args

        def told(stage: str, done: int, total: int) -> None:
            progress(stage, done, total)
            if not held.is_set() and pause(stage, done):
                held.set()
                release.wait(10)

        return work(*others, told)

    return wrapped, held, release


@table
async def test_a_long_import_shows_how_far_it_is_and_a_second_import_waits_its_turn_in_words(tmp_path: Path) -> None:
    elsewhere = disk_app(tmp_path / "other")
    for players in (["Kim", "Lou"], ["Max", "Ned"]):
        play_transamerica(elsewhere, players, {players[0]: 0, players[1]: 13})
    _, chosen = elsewhere.export("json")

    def pick(_: Any, __: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"id": 1, "name": "games.json", "size": len(chosen), "bytes": chosen}]

    data = disk_app(tmp_path / "data")
    data.import_archive, halfway, release = paused_at(  # type: ignore[method-assign]
        data.import_archive, lambda stage, done: (stage, done) == ("replaying", 1)
    )
    async with Screen(make_main(data), methods={"pick_files": pick}, page_props=DESKTOP) as screen:
        await screen.tap("archive")
        await screen.tap("import-pick")
        await wait_for(lambda: halfway.is_set() and screen.exists("progress-import"))
        assert screen.text_of("progress-import") == "Replaying by the rules: 1 of 2 games"
        assert screen.find("progress-bar-import").value == 0.5
        await screen.tap("import-pick")  # another import meanwhile: said, not queued unsaid
        assert notice(screen) == "An import is under way: import the next file once it is done."
        release.set()
        assert await imported(screen, data) == "2 imported · 0 already here · 0 refused"
        assert not screen.exists("progress-import")


@table
async def test_a_long_export_shows_how_far_it_is_and_the_page_answers_meanwhile(tmp_path: Path) -> None:
    data = disk_app(tmp_path / "data")
    for players in (["Kim", "Lou"], ["Max", "Ned"], ["Oli", "Pia"]):
        play_transamerica(data, players, {players[0]: 0, players[1]: 13})
    data.save_export, halfway, release = paused_at(  # type: ignore[method-assign]
        data.save_export, lambda _, done: done == 2
    )
    async with Screen(make_main(data), page_props=DESKTOP) as screen:
        await screen.tap("archive")
        await screen.tap("export-json")
        # The second game's step comes right after the first's: shown a moment later, not lost.
        await wait_for(
            lambda: (
                halfway.is_set()
                and screen.exists("progress-export")
                and screen.text_of("progress-export") == "Exporting: 2 of 3 games"
            )
        )
        await screen.tap("export-json")  # a second export of the same meanwhile
        assert notice(screen) == "An export is under way: export again once it is done."
        release.set()
        await wait_for(lambda: screen.exists("export-saved"))
        assert not screen.exists("progress-export")
        path = Path(screen.text_of("export-saved").removeprefix("Saved in "))
        assert len(json.loads(path.read_bytes())["sessions"]) == 3


@table
async def test_an_export_not_counted_in_games_says_it_is_under_way_in_words(tmp_path: Path) -> None:
    data = disk_app(tmp_path / "data")
    play_transamerica(data, ["Kim", "Lou"], {"Kim": 0, "Lou": 13})
    release = threading.Event()
    real = data.save_export

    def slow(kind: str, session_ids: Any, progress: Any) -> str:
        release.wait(10)
        return real(kind, session_ids, progress)

    data.save_export = slow  # type: ignore[method-assign]
    async with Screen(make_main(data), page_props=DESKTOP) as screen:
        await screen.tap("archive")
        await screen.tap("export-csv")
        await wait_for(lambda: screen.exists("progress-export"))
        assert screen.text_of("progress-export") == "Exporting…"  # not "0 of 0 games"
        release.set()
        await wait_for(lambda: screen.exists("export-saved"))
        assert not screen.exists("progress-export")


@table
async def test_an_import_says_which_title_it_took_which_rename_it_kept_and_what_choices_came(tmp_path: Path) -> None:
    data = disk_app(tmp_path / "data")
    game = play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    other = disk_app(tmp_path / "other")
    other.import_archive(data.export("json")[1])
    data.store.rename(game, "Friday")
    other.store.rename(game, "Game night")  # changed later on the other device
    stats.rename_player(data.store, "Bob", "Rob")
    stats.rename_player(other.store, "Bob", "Robert")
    stats.rename_player(other.store, "Ann", "Annie")
    chosen = other.export("json")[1]

    def pick(_: Any, __: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"id": 1, "name": "games.json", "size": len(chosen), "bytes": chosen}]

    async with Screen(make_main(data), methods={"pick_files": pick}, page_props=DESKTOP) as screen:
        await screen.tap("archive")
        await screen.tap("import-pick")
        assert await imported(screen, data) == "0 imported · 1 already here · 0 refused"
        day = date.fromtimestamp(data.store.sessions()[0].created).isoformat()
        assert screen.text_of("retitled-1") == (
            f"Retitled, Game night ({day}, Ann and Bob): the file's title is the later change (it was Friday here)."
        )
        assert screen.text_of("name-kept-1") == "Bob is counted as Rob here and as Robert in the file: Rob is kept."
        assert screen.text_of("side-taken-players") == "From the file: 1 rename of players."
    assert [summary.title for summary in data.store.sessions()] == ["Game night"]
    assert data.player_page("Annie") is not None and data.player_page("Rob") is not None


@table
async def test_a_page_drawn_again_reads_nothing_from_the_disk_for_its_sheet_or_its_chart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sync round redraws every page; the Your games sheet and a game's chart are drawn from
    what was read when they opened (the lists of exports/ and backups/, the game itself)."""
    data = disk_app(tmp_path / "data")
    game_id = play_transamerica(data, ["Ann", "Bob"], {"Ann": 0, "Bob": 13})
    data.backup_if_due()
    looked: list[str] = []
    folder = data.store.folder

    def watch() -> None:
        for name in ("names", "scan", "read", "exists"):  # (the list's one stat of its index stays)
            real = getattr(folder, name)
            monkeypatch.setattr(
                folder, name, lambda *args, real=real, name=name: looked.append(name + str(args)[:80]) or real(*args)
            )

    async with Screen(make_main(data), page_props=DESKTOP) as screen:
        await screen.tap("archive")
        await exported(screen, "export-json")
        keys = screen.keys()
        assert any(str(key).startswith("import-file-") for key in keys) and not screen.exists("no-backups")
        watch()
        for listener in list(data.sync._listeners):  # as a sync round that took a game does
            listener(True)
        await screen.settle()
        assert looked == []
        monkeypatch.undo()
        await screen.tap("panel-close")
        await screen.tap(f"session-{game_id}")  # its detail, with the chart
        assert screen.exists("detail-counting")
        watch()
        for listener in list(data.sync._listeners):
            listener(True)
        await screen.settle()
        assert looked == []

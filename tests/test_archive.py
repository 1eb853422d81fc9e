"""Export and import: the archive leaves one data folder and comes back into another unchanged;
whatever an archive holds that the rules refuse is named, with the reason, and changes nothing."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from datetime import time as dt_time
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from archive_helpers import great_plains, heartland, transamerica
from clock_helpers import played_between
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_helpers import put

from companion.aftergame import archive
from companion.aftergame.archive import (
    MAX_IMPORT_BYTES,
    export_csv,
    export_json,
    export_xlsx,
    import_json,
    save_export,
)
from companion.session import Session
from companion.store import Store


def finished_transamerica(store: Store, players: list[str], missing: list[dict[str, int]], title: str = "") -> str:
    with played_between(1_700_000_000.0, 1_700_002_700.0):
        session = Session.new("transamerica", players)
        for round_missing in missing:
            session.apply({"type": "end_round", "missing": round_missing})
    return put(store, session, created=1_700_000_000.0, title=title, updated=1_700_002_700.0)


def table_of_three(store: Store) -> str:
    """Ann connects both rounds; Bob loses 6 then 7 (0 left), Cy 2 and 2 (9 left)."""
    return finished_transamerica(
        store, ["Ann", "Bob", "Cy"], [{"Ann": 0, "Bob": 6, "Cy": 2}, {"Ann": 0, "Bob": 7, "Cy": 2}], "Friday"
    )


def archive_of(*sessions: dict[str, Any], version: int = 1, fmt: str = "companion-archive") -> bytes:
    return json.dumps({"format": fmt, "version": version, "sessions": list(sessions)}).encode()


def exported_sessions(store: Store) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(export_json(store))["sessions"]
    return found


# --- export ------------------------------------------------------------------------


def test_the_archive_holds_each_session_as_stored_with_its_id_title_and_times() -> None:
    store = Store.in_memory()
    session_id = table_of_three(store)
    unfinished = store.new("heartland", ["Ann", "Bob"])
    document = json.loads(export_json(store))
    assert document["format"] == "companion-archive" and document["version"] == 1
    by_id = {entry["id"]: entry for entry in document["sessions"]}
    entry = by_id[session_id]
    assert {key: entry[key] for key in ("title", "created", "updated", "finished")} == {
        "title": "Friday",
        "created": 1_700_000_000.0,
        "updated": 1_700_002_700.0,
        "finished": 1_700_002_700.0,
    }
    assert {key: value for key, value in entry.items() if key not in archive.KEPT_FIELDS} == store.peek(
        session_id
    ).to_dict()
    assert by_id[unfinished.id or ""]["finished"] is None


def test_an_export_of_chosen_sessions_holds_those_only() -> None:
    store = Store.in_memory()
    kept = table_of_three(store)
    table_of_three(store)
    assert [entry["id"] for entry in json.loads(export_json(store, [kept]))["sessions"]] == [kept]


def test_the_csv_has_one_row_per_player_of_each_finished_game() -> None:
    store = Store.in_memory()
    session_id = table_of_three(store)
    store.new("heartland", ["Ann", "Bob"])  # unfinished: no rows
    text = export_csv(store)
    assert text.startswith("\ufeff")  # a spreadsheet then reads the names as UTF-8
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert list(rows[0]) == [
        "session_id",
        "title",
        "date",
        "time",
        "duration_min",
        "stopped",
        "game",
        "copy_of",
        "player",
        "seat",
        "score",
        "rank",
        "winner",
    ]
    assert [(row["player"], row["seat"], row["score"], row["rank"], row["winner"]) for row in rows] == [
        ("Ann", "1", "13", "1", "true"),
        ("Bob", "2", "0", "3", "false"),
        ("Cy", "3", "9", "2", "false"),
    ]
    assert {(row["session_id"], row["title"], row["duration_min"], row["stopped"], row["copy_of"]) for row in rows} == {
        (session_id, "Friday", "45", "false", "")
    }
    assert {row["game"] for row in rows} == {"transamerica"}
    assert rows[0]["date"][:4] == "2023" and len(rows[0]["time"]) == 5


def test_the_csv_says_which_games_were_stopped_and_names_untitled_ones() -> None:
    store = Store.in_memory()
    with played_between(1_700_000_000.0, 1_700_000_600.0):  # the table clock: 10 minutes
        session = Session.new("transamerica", ["Ann", "Bob"])
        session.apply({"type": "end_game", "note": "pizza"})
    stopped = put(store, session, created=1_700_000_000.0, updated=1_700_000_600.0)
    rows = list(csv.DictReader(io.StringIO(export_csv(store, "fr").removeprefix("\ufeff"))))
    assert {(row["session_id"], row["stopped"], row["duration_min"]) for row in rows} == {(stopped, "true", "10")}
    assert {row["title"] for row in rows} == {"TransAmerica · Ann et Bob"}


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x")', "+1", "-2+3", "@SUM(A1)"])
def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_exported_as_text(name: str) -> None:
    store = Store.in_memory()
    finished_transamerica(store, [name, "Bob"], [{name: 0, "Bob": 13}], title=name)
    rows = list(csv.DictReader(io.StringIO(export_csv(store).removeprefix("\ufeff"))))
    assert rows[0]["player"] == "'" + name and rows[0]["title"] == "'" + name
    assert rows[1]["score"] == "0" and rows[0]["score"] == "13"  # numbers stay numbers (a -3 too)


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x")', "Léa"])
def test_the_workbook_holds_the_csv_rows_with_every_cell_typed(name: str) -> None:
    store = Store.in_memory()
    table_of_three(store)
    finished_transamerica(store, [name, "Bob"], [{name: 0, "Bob": 14}], title=name)
    book = openpyxl.load_workbook(io.BytesIO(export_xlsx(store)))
    sheet = book["Results"]
    header, *rows = list(sheet.iter_rows(values_only=True))
    assert header == archive.CSV_COLUMNS
    written = list(csv.reader(io.StringIO(export_csv(store).removeprefix("\ufeff"))))[1:]
    assert len(rows) == len(written) == 5
    for typed, text in zip(rows, written, strict=True):
        day, clock, minutes, stopped, seat, score, rank, winner = (
            typed[2],
            typed[3],
            typed[4],
            typed[5],
            typed[9],
            typed[10],
            typed[11],
            typed[12],
        )
        assert isinstance(day, datetime) and day.date().isoformat() == text[2]  # a date cell, not a text
        assert isinstance(clock, dt_time) and clock.strftime("%H:%M") == text[3]
        assert (minutes, seat, score, rank) == (int(text[4]), int(text[9]), int(text[10]), int(text[11]))
        assert (stopped, winner) == (text[5] == "true", text[12] == "true")
    # A name a spreadsheet could run stays a name, with no apostrophe, and is no formula.
    (last_title,) = {row[1] for row in rows[3:]}
    assert last_title == name and {row[8] for row in rows[3:]} == {name, "Bob"}
    assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)


def test_an_export_is_saved_in_the_exports_folder_and_its_path_given(tmp_path: Path) -> None:
    with Store(tmp_path / "data") as store:
        table_of_three(store)
        path = save_export(store, "companion-2026-12-01-193005.csv", export_csv(store))
        again = save_export(store, "companion-2026-12-01-193005.csv", export_csv(store))
        third = save_export(store, "companion-2026-12-01-193005.csv", "")
    assert Path(path) == tmp_path / "data" / "exports" / "companion-2026-12-01-193005.csv"
    assert Path(path).read_bytes().startswith(b"\xef\xbb\xbfsession_id,title,date")
    # Two exports in the same second never replace one another.
    assert [Path(again).name, Path(third).name] == [
        "companion-2026-12-01-193005-2.csv",
        "companion-2026-12-01-193005-3.csv",
    ]
    assert Path(path).read_bytes() == Path(again).read_bytes() and Path(third).read_bytes() == b""
    assert archive.export_name("json", 0).startswith("companion-19")
    assert archive.export_name("json", 0) != archive.export_name("json", 1)


# --- import: the round trip ----------------------------------------------------------

GAMES = st.one_of(
    st.builds(lambda turns: heartland(["Ann", "Bob", "Cy"], turns), st.integers(0, 6)),
    st.builds(lambda finished: transamerica(["Kim", "Lou"], finished), st.booleans()),
    st.builds(lambda tokens: great_plains(["Zoë", "Łukasz"], tokens), st.integers(0, 10)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(GAMES, st.integers(0, 3), st.text(max_size=20)), max_size=4))
def test_export_then_import_into_an_empty_store_gives_the_same_sessions(games: list[tuple[Session, int, str]]) -> None:
    source = Store.in_memory()
    for number, (played, undone, title) in enumerate(games):
        session = Session.from_dict(played.to_dict())
        for _ in range(min(undone, session.cursor)):
            session.undo()  # a redo tail travels too
        put(source, session, created=1_000.0 + number, title=title, updated=2_000.0 + number)
    target = Store.in_memory()
    report = import_json(target, export_json(source))
    assert report.refused == [] and report.duplicates == []
    assert sorted(report.imported) == sorted(summary.id for summary in source.sessions())
    for summary in source.sessions():
        before, after = source.peek(summary.id), target.peek(summary.id)
        assert after.to_dict() == before.to_dict()
        assert after.cursor == before.cursor
        assert after.standings() == before.standings()
    assert [(s.id, s.title, s.created, s.updated, s.is_over, s.winners, s.result) for s in target.sessions()] == [
        (s.id, s.title, s.created, s.updated, s.is_over, s.winners, s.result) for s in source.sessions()
    ]


def test_the_same_file_imported_twice_adds_nothing_the_second_time() -> None:
    source = Store.in_memory()
    table_of_three(source)
    data = export_json(source)
    target = Store.in_memory()
    first = import_json(target, data)
    second = import_json(target, data)
    assert len(first.imported) == 1 and second.imported == [] and second.duplicates == first.imported
    assert len(target.sessions()) == 1


# --- import: what is refused -----------------------------------------------------------


def a_session() -> dict[str, Any]:
    store = Store.in_memory()
    table_of_three(store)
    return exported_sessions(store)[0]


def refused_alone(data: bytes) -> str:
    """The one reason given when nothing is imported, after checking the store is left as it was."""
    store = Store.in_memory()
    report = import_json(store, data)
    assert report.imported == [] and report.duplicates == [] and store.sessions() == []
    (refusal,) = report.refused
    assert refusal.reason.endswith(".") and "\n" not in refusal.reason
    return str(refusal)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"{not json", "not readable JSON"),
        (b"\xff\xfe", "not readable JSON"),
        (b"[]", "not a Companion archive"),
        (archive_of(fmt="bgstats"), "not a Companion archive"),
        (archive_of(version=2), "newer version of Companion (archive version 2)"),
        (archive_of(version=0), "version is missing"),
        (b'{"format": "companion-archive", "version": 1}', "no list of sessions"),
        (b"[" * 100_000 + b"]" * 100_000, "nested deeper than an archive"),
        (archive_of({"id": "a", "events": [[[[[[1]]]]]]}), "nested deeper than an archive"),
    ],
    ids=[
        "broken JSON",
        "not UTF-8",
        "a list",
        "another format",
        "newer",
        "no version",
        "no sessions",
        "deep brackets",
        "deep event",
    ],
)
def test_a_file_that_is_not_an_archive_is_refused_in_one_sentence(data: bytes, words: str) -> None:
    assert words in refused_alone(data)
    assert refused_alone(data).startswith("the file: ")


def test_a_file_over_50_mb_is_refused_before_it_is_read_with_the_limit_in_the_sentence() -> None:
    padding = b" " * (MAX_IMPORT_BYTES + 1 - len(archive_of()))
    assert refused_alone(archive_of() + padding) == "the file: It is 50.0 MB; an archive may hold at most 50 MB."


def test_a_file_of_50_mb_is_read() -> None:
    entry = a_session()
    data = archive_of(entry)
    store = Store.in_memory()
    report = import_json(store, data[:-1] + b" " * (MAX_IMPORT_BYTES - len(data)) + data[-1:])
    assert report.imported == [entry["id"]] and report.refused == []


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda entry: entry.update(game="chess"), "not one this version knows"),
        (
            lambda entry: entry["events"].append({"type": "end_round", "missing": {"Ann": 1, "Bob": 1, "Cy": 1}}),
            "event 3 was refused",
        ),
        (lambda entry: entry.update(cursor=9), "undo position 9 is out of range"),
        (lambda entry: entry.update(cursor=-1), "undo position -1 is out of range"),
        (lambda entry: entry.update(format=7), "format 7 is not supported"),
        (lambda entry: entry.update(players=["Ann", "Ann", "Cy"]), "Ann"),
        (lambda entry: entry.update(created="yesterday"), "creation time is not a time"),
        (lambda entry: entry.pop("created"), "creation time is missing"),
        (lambda entry: entry.update(id="../x"), "id is missing"),
        (lambda entry: entry.update(extra=1), "fields an archive does not have: extra"),
    ],
    ids=[
        "unknown game",
        "illegal event",
        "cursor past the log",
        "negative cursor",
        "session format",
        "twin players",
        "bad time",
        "no time",
        "bad id",
        "extra field",
    ],
)
def test_a_session_the_rules_refuse_is_named_with_the_reason_and_the_others_come_in(change: Any, words: str) -> None:
    good, bad = a_session(), a_session()
    change(bad)
    store = Store.in_memory()
    report = import_json(store, archive_of(bad, good))
    assert report.imported == [good["id"]]
    (refusal,) = report.refused
    assert words in refusal.reason
    assert refusal.session in (bad.get("id"), "session 1")
    assert [summary.id for summary in store.sessions()] == [good["id"]]


def test_a_session_that_is_not_a_set_of_fields_is_named_by_its_place() -> None:
    report = import_json(Store.in_memory(), archive_of(a_session(), [1, 2]))  # type: ignore[arg-type]
    assert [str(refusal) for refusal in report.refused] == ["session 2: It is not a set of named fields."]


def test_an_import_that_is_not_bytes_is_one_sentence() -> None:
    report = import_json(Store.in_memory(), "text")  # type: ignore[arg-type]
    assert [str(refusal) for refusal in report.refused] == ["the file: It is not the content of a file."]


@pytest.mark.parametrize(
    ("players", "said"),
    [
        (
            ["Ann\x07", "Bob", "Cy"],
            "Its player Ann<U+0007> would be refused by New game: A player's name cannot hold a "
            "control character (U+0007 in 'Ann').",
        ),
        (
            ["Ann\u202e", "Bob", "Cy"],
            "Its player Ann<U+202E> would be refused by New game: A player's name cannot hold "
            "a text-direction control (U+202E in 'Ann').",
        ),
        (["\u200b", "Bob", "Cy"], "Its player <U+200B> would be refused by New game: A player's name cannot be empty."),
        (
            ["Ann", "Ａｎｎ", "Cy"],
            "Its player Ａｎｎ would be refused by New game: Two players are called 'Ａｎｎ'; "
            "each name must be different.",
        ),
        (
            ["Ann", "Bob", "Bo\u200bb"],
            "Its player Bo<U+200B>b would be refused by New game: Two players are called "
            "'Bo\u200bb'; each name must be different.",
        ),
        (
            ["Zo\u00eb", "Zoe\u0308", "Cy"],
            "Its player Zo\u00eb would be refused by New game: Two players are called "
            "'Zo\u00eb'; each name must be different.",
        ),
    ],
    ids=[
        "control character",
        "text-direction control",
        "only invisible",
        "full-width twin",
        "zero-width twin",
        "composed twin",
    ],
)
def test_an_import_refuses_the_names_new_game_refuses_naming_the_name(players: list[str], said: str) -> None:
    from companion.rules import GAMES
    from companion.text.messages import RuleError

    with pytest.raises(RuleError):  # New game refuses each of these tables
        GAMES["transamerica"].check_players(players)
    entry = a_session()
    entry["players"] = players
    store = Store.in_memory()
    report = import_json(store, archive_of(entry))
    assert report.imported == [] and store.sessions() == []
    (refusal,) = report.refused
    assert refusal.reason == said


def test_a_long_export_and_import_say_how_far_they_are_game_by_game() -> None:
    source = Store.in_memory()
    for players in (["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"]):
        finished_transamerica(source, players, [{players[0]: 0, players[1]: 13}])
    told: list[tuple[str, int, int]] = []
    data = export_json(source, progress=lambda *step: told.append(step))
    assert told == [("exporting", 1, 3), ("exporting", 2, 3), ("exporting", 3, 3)]

    told.clear()
    damaged = json.loads(data)
    damaged["sessions"][1]["events"] = "not a list"  # refused while replayed: still counted as done
    report = import_json(Store.in_memory(), json.dumps(damaged).encode(), progress=lambda *step: told.append(step))
    assert len(report.imported) == 2 and len(report.refused) == 1
    assert told == [("replaying", 1, 3), ("replaying", 2, 3), ("replaying", 3, 3), ("saving", 0, 2), ("saving", 2, 2)]

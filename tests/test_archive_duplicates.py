"""Import and restore never duplicate quietly: a game is known by its id; a file holding one
id twice is refused; a game here that differs is kept, brought up to date, or kept beside the
file's as a copy, and the report names each; a restore leaves a game changed since the backup
as it is; statistics count every game once; every refusal is whole in the table's language."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import store_helpers

from companion.aftergame import archive, stats
from companion.aftergame.archive import export_json, import_json, restore_backup, write_backup
from companion.app.data import AppData
from companion.session import CLOCK_FIELDS, Session
from companion.store import Store
from companion.store.storage import MemoryFolder
from companion.text.messages import Message

CREATED = 1_700_000_000.0
DAY = date.fromtimestamp(CREATED).isoformat()
ROUNDS = [{"Ann": 0, "Bob": 6, "Cy": 2}, {"Ann": 0, "Bob": 7, "Cy": 2}, {"Ann": 3, "Bob": 0, "Cy": 0}]


def transamerica(rounds: list[dict[str, int]]) -> Session:
    session = Session.new("transamerica", ["Ann", "Bob", "Cy"])
    for missing in rounds:
        session.apply({"type": "end_round", "missing": missing})
    return session


def put(store: Store, rounds: list[dict[str, int]], title: str = "Friday") -> str:
    return store_helpers.put(store, transamerica(rounds), created=CREATED, title=title, updated=CREATED + 2_700)


def entry_of(store: Store, session_id: str) -> dict[str, Any]:
    entry: dict[str, Any] = json.loads(export_json(store, [session_id]))["sessions"][0]
    return entry


def file_of(*entries: dict[str, Any]) -> bytes:
    return json.dumps({"format": "companion-archive", "version": 1, "sessions": list(entries)}).encode()


def played_elsewhere(store: Store, session_id: str, rounds: list[dict[str, int]]) -> dict[str, Any]:
    """The game of `session_id` as another device holds it after playing `rounds` from the set-up."""
    entry = entry_of(store, session_id)
    entry.update(transamerica(rounds).to_dict())
    return entry


def game_of(session: Session) -> dict[str, Any]:
    """A game as saved, without its clock (two games played alike at other moments are the same game)."""
    return {name: value for name, value in session.to_dict().items() if name not in CLOCK_FIELDS}


def counted(store: Store) -> int:
    return stats.statistics(AppData(store).originals()).plays


FRIDAY = f"Friday ({DAY}, Ann, Bob and Cy)"


# --- one id twice in a file ----------------------------------------------------------------


@pytest.mark.parametrize("same", [False, True], ids=["different contents", "the same twice"])
def test_a_file_holding_one_id_twice_is_refused_whole_and_changes_nothing(same: bool) -> None:
    source = Store.in_memory()
    session_id, other = put(source, ROUNDS[:1]), put(source, ROUNDS[:2], "Other")
    first = entry_of(source, session_id)
    second = dict(first) if same else {**first, "title": "Saturday", **transamerica(ROUNDS[:2]).to_dict()}
    store = Store.in_memory()
    report = import_json(store, file_of(first, entry_of(source, other), second))
    assert report.imported == [] and report.duplicates == [] and store.sessions() == []
    assert [str(refusal) for refusal in report.refused] == [
        f"the file: It holds the game {FRIDAY} twice (sessions 1 and 3); a file holds each game once, "
        "so nothing was imported."
    ]
    assert report.refused[0].reason_text("fr") == (
        f"Il contient deux fois la partie {DAY.join(['Friday (', ', Ann, Bob et Cy)'])} (parties 1 et 3)\u00a0; "
        "un fichier contient chaque partie une seule fois, donc rien n'a été importé."
    )


# --- a game here that differs from the file's ------------------------------------------------


def test_the_same_game_is_a_duplicate_and_nothing_is_written() -> None:
    store = Store.in_memory()
    session_id = put(store, ROUNDS[:2])
    report = import_json(store, file_of(entry_of(store, session_id)))
    assert report.duplicates == [session_id] and report.already_here == 1
    assert (report.imported, report.updated, report.kept, report.copies, report.refused) == ([], [], [], [], [])


def test_a_title_not_changed_later_in_the_file_is_kept_as_ours_and_named_by_it() -> None:
    """A file that does not say when its title was changed (an earlier version's): the title here stays,
    and the report names the game by it, with the file's title beside it."""
    store = Store.in_memory()
    session_id = put(store, ROUNDS[:2])
    entry = {**entry_of(store, session_id), "title": "Saturday"}
    report = import_json(store, file_of(entry))
    assert report.imported == [] and report.duplicates == [] and report.kept == [] and report.already_here == 1
    assert [(kept.session, kept.named.text(), kept.other) for kept in report.titles_kept] == [
        (session_id, f"Friday ({DAY}, Ann, Bob and Cy)", "Saturday")
    ]
    assert [summary.title for summary in store.sessions()] == ["Friday"] and counted(store) == 1


def test_a_title_changed_later_on_the_other_device_is_taken_and_said() -> None:
    here, there = Store.in_memory(), Store.in_memory()
    session_id = put(here, ROUNDS[:2])
    import_json(there, export_json(here))
    here.rename(session_id, "Friday night", titled=CREATED + 10_000)
    there.rename(session_id, "Game night", titled=CREATED + 20_000)
    report = import_json(here, export_json(there))
    assert [(titled.session, titled.named.text(), titled.other) for titled in report.retitled] == [
        (session_id, f"Game night ({DAY}, Ann, Bob and Cy)", "Friday night")
    ]
    assert [summary.title for summary in here.sessions()] == ["Game night"] and report.already_here == 1
    # The other way round the title here is the later one: it stays, said; and the two now agree.
    back = import_json(there, export_json(here))
    assert back.retitled == [] and back.titles_kept == [] and back.duplicates == [session_id]
    there.rename(session_id, "Older", titled=CREATED + 15_000)
    kept = import_json(here, export_json(there))
    assert [(titled.named.text(), titled.other) for titled in kept.titles_kept] == [
        (f"Game night ({DAY}, Ann, Bob and Cy)", "Older")
    ]
    assert [summary.title for summary in here.sessions()] == ["Game night"]


def test_a_game_played_on_and_retitled_here_keeps_its_title_when_the_file_plays_it_further() -> None:
    here = Store.in_memory()
    session_id = put(here, ROUNDS[:1])
    further = played_elsewhere(here, session_id, ROUNDS[:2])
    here.rename(session_id, "Renamed here")
    report = import_json(here, file_of(further))
    assert [updated.named.text() for updated in report.updated] == [f"Renamed here ({DAY}, Ann, Bob and Cy)"]
    assert [summary.title for summary in here.sessions()] == ["Renamed here"]
    assert here.peek(session_id).cursor == 2


def test_a_game_further_along_here_is_kept_as_ours() -> None:
    store = Store.in_memory()
    session_id = put(store, ROUNDS[:2])
    report = import_json(store, file_of(played_elsewhere(store, session_id, ROUNDS[:1])))
    assert [kept.session for kept in report.kept] == [session_id] and report.already_here == 1
    assert store.peek(session_id).cursor == 2 and len(store.sessions()) == 1


def test_a_game_played_on_in_the_file_replaces_ours_the_longer_log_kept() -> None:
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    session_id = put(store, ROUNDS[:1])
    entry = played_elsewhere(store, session_id, ROUNDS[:2])
    report = import_json(store, file_of(entry))
    assert [(updated.session, updated.named.text()) for updated in report.updated] == [(session_id, FRIDAY)]
    assert report.imported == [] and report.copies == [] and report.refused == []
    again = Store.in_memory(folder)  # as saved: the file's log, the index's result and winners
    assert game_of(again.peek(session_id)) == game_of(transamerica(ROUNDS[:2]))
    (summary,) = again.sessions()
    assert summary.is_over and summary.winners == ("Ann",) and summary.result is not None
    assert summary.result.scores == (13, 0, 9)
    assert counted(again) == 1
    # The same file again: now the same game.
    assert import_json(again, file_of(entry)).duplicates == [session_id]


def test_an_undone_change_here_counts_as_behind_a_file_that_played_it() -> None:
    store = Store.in_memory()
    session_id = put(store, ROUNDS[:2])
    session = store.open(session_id)
    session.undo()
    store.close_session(session_id)
    report = import_json(store, file_of(played_elsewhere(store, session_id, ROUNDS[:2])))
    assert [updated.session for updated in report.updated] == [session_id]
    assert store.peek(session_id).cursor == 2


def test_logs_that_part_ways_keep_ours_and_add_the_files_as_a_copy_counted_once() -> None:
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    session_id = put(store, ROUNDS[:2])
    parted = [ROUNDS[0], {"Ann": 0, "Bob": 7, "Cy": 0}]  # finished too, with other scores
    entry = played_elsewhere(store, session_id, parted)
    report = import_json(store, file_of(entry), language="fr")
    (copy,) = report.copies
    assert report.imported == [copy.session] and copy.session != session_id
    assert copy.named.text("fr") == f"Friday ({DAY}, Ann, Bob et Cy)"
    again = Store.in_memory(folder)
    titles = {summary.id: summary.title for summary in again.sessions()}
    assert titles == {session_id: "Friday", copy.session: "Friday (copie)"}
    assert game_of(again.peek(session_id)) == game_of(transamerica(ROUNDS[:2]))  # ours as it was
    assert game_of(again.peek(copy.session)) == game_of(transamerica(parted))
    assert archive.read_copies(folder) == {copy.session: session_id}
    assert len(again.finished()) == 2 and counted(again) == 1  # one game, counted once
    # The same file again finds the copy: nothing new.
    second = import_json(again, file_of(entry))
    assert second.duplicates == [session_id] and second.imported == [] and second.copies == []


def test_a_copys_title_stays_within_a_titles_length() -> None:
    store = Store.in_memory()
    session_id = put(store, ROUNDS[:2], title="A" * 60)
    entry = played_elsewhere(store, session_id, [{"Ann": 0, "Bob": 1, "Cy": 1}])
    (copy,) = import_json(store, file_of(entry)).copies
    title = next(summary.title for summary in store.sessions() if summary.id == copy.session)
    assert title == "A" * 53 + " (copy)"


def test_a_game_open_in_another_window_is_not_replaced_and_says_so() -> None:
    folder = MemoryFolder()
    store, window = Store.in_memory(folder), Store.in_memory(folder)
    session_id = put(store, ROUNDS[:1])
    window.open(session_id)  # being played there
    report = import_json(store, file_of(played_elsewhere(store, session_id, ROUNDS[:2])))
    assert report.updated == []
    (refusal,) = report.refused
    assert refusal.session == session_id and refusal.named is not None and refusal.named.text() == FRIDAY
    assert refusal.reason == "This game is open in another window. Close it there first."
    assert store.peek(session_id).cursor == 1


def test_each_case_of_one_file_is_named_in_its_place() -> None:
    store = Store.in_memory()
    same, behind, apart = (put(store, ROUNDS[:1], title) for title in ("same", "behind", "apart"))
    ahead = put(store, ROUNDS[:2], "ahead")
    new = Store.in_memory()
    missing = put(new, ROUNDS[:1], "new")
    entries = [
        entry_of(store, same),
        played_elsewhere(store, behind, ROUNDS[:2]),
        played_elsewhere(store, ahead, ROUNDS[:1]),
        played_elsewhere(store, apart, [{"Ann": 4, "Bob": 0, "Cy": 1}]),
        entry_of(new, missing),
    ]
    report = import_json(store, file_of(*entries))
    assert report.duplicates == [same]
    assert [named.session for named in report.updated] == [behind]
    assert [named.session for named in report.kept] == [ahead]
    assert [named.named.text().split(" (")[0] for named in report.copies] == ["apart"]
    assert set(report.imported) == {missing, report.copies[0].session}
    assert len(store.sessions()) == 6 and counted(store) == 2  # behind (now finished) and ahead


# --- restore ------------------------------------------------------------------------------


def test_a_restore_brings_back_only_what_is_missing_and_leaves_a_changed_game_as_it_is() -> None:
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    same, renamed, played_on, lost = (put(store, ROUNDS[:1], title) for title in ("same", "renamed", "on", "lost"))
    backup = write_backup(store, date(2026, 11, 30))
    assert backup is not None
    store.delete(lost)
    store.rename(renamed, "renamed since")
    session = store.open(played_on)
    session.apply({"type": "end_round", "missing": ROUNDS[1]})
    store.close_session(played_on)
    report = restore_backup(store, backup)
    assert report.imported == [lost] and report.duplicates == [same] and report.refused == []
    assert sorted((named.session, named.named.text()) for named in report.changed) == sorted(
        [(renamed, f"renamed since ({DAY}, Ann, Bob and Cy)"), (played_on, f"on ({DAY}, Ann, Bob and Cy)")]
    )
    assert report.copies == [] and report.updated == [] and report.kept == []
    again = Store.in_memory(folder)
    assert sorted(summary.title for summary in again.sessions()) == ["lost", "on", "renamed since", "same"]
    assert again.peek(played_on).cursor == 2  # played on since the backup: left as it is
    assert counted(again) == 1  # the one finished game, once
    second = restore_backup(again, backup)
    assert second.imported == [] and sorted(second.duplicates) == sorted([same, lost])
    assert {named.session for named in second.changed} == {renamed, played_on}


def test_a_restore_leaves_a_game_that_parted_ways_since_as_it_is_no_copy() -> None:
    store = Store.in_memory()
    session_id = put(store, ROUNDS[:2])
    backup = write_backup(store, date(2026, 11, 30))
    assert backup is not None
    session = store.open(session_id)
    session.undo()
    session.apply({"type": "end_round", "missing": {"Ann": 5, "Bob": 0, "Cy": 0}})
    store.close_session(session_id)
    report = restore_backup(store, backup)
    assert [named.session for named in report.changed] == [session_id] and report.imported == []
    assert len(store.sessions()) == 1 and archive.read_copies(store.folder) == {}


# --- refusals: named by title, day and players, whole in the table's language -----------------

ENGLISH = re.compile(
    r"\b(the|is|are|not|was|were|refused|must|have|missing|segments|supported|list|events?|"
    r"undo|range|fields?|names?|saved|session|its)\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize(
    "change",
    [
        lambda entry: entry["events"].append({"type": "end_round", "missing": {"Ann": 1, "Bob": 1, "Cy": 1}}),
        lambda entry: entry.update(format=9),
        lambda entry: entry.update(events={"not": "a list"}),
        lambda entry: entry.update(cursor=9),
        lambda entry: entry.pop("options"),
        lambda entry: entry.update(players=["Ann", "  Bob", "Cy"]),
    ],
    ids=["event the rules refuse", "session format", "events not a list", "cursor", "missing field", "name form"],
)
@pytest.mark.parametrize("language", ["fr", "es"])
def test_a_refusal_is_whole_in_the_tables_language_and_names_the_game(change: Any, language: str) -> None:
    store = Store.in_memory()
    entry = entry_of(store, put(store, ROUNDS[:2]))
    change(entry)
    report = import_json(Store.in_memory(), file_of(entry))
    (refusal,) = report.refused
    said = refusal.reason_text(language)
    assert said != refusal.reason and ENGLISH.search(said) is None, said
    assert refusal.named is not None
    assert refusal.named.text(language) == f"Friday ({DAY}, Ann, Bob {'et' if language == 'fr' else 'y'} Cy)"


def test_the_rules_own_refusal_of_an_event_is_said_in_the_tables_language() -> None:
    store = Store.in_memory()
    entry = entry_of(store, put(store, ROUNDS[:2]))
    entry["events"].append({"type": "end_round", "missing": {"Ann": 1, "Bob": 1, "Cy": 1}})
    (refusal,) = import_json(Store.in_memory(), file_of(entry)).refused
    assert refusal.reason.startswith("Its event 3 was refused: ")
    english_rule = refusal.why.params["reason"].text("en")
    assert english_rule in refusal.reason and english_rule not in refusal.reason_text("fr")
    assert refusal.reason_text("fr").startswith("Son événement 3 a été refusé\u00a0: ")
    assert refusal.reason_text("es").startswith("Su evento 3 fue rechazado: ")


def test_a_refused_game_without_a_title_is_named_by_its_game_day_and_players() -> None:
    store = Store.in_memory()
    entry = entry_of(store, put(store, ROUNDS[:1], title=""))
    entry["cursor"] = 5
    (refusal,) = import_json(Store.in_memory(), file_of(entry)).refused
    assert refusal.named is not None and refusal.named.text("es") == f"TransAmerica ({DAY}, Ann, Bob y Cy)"


def test_broken_json_is_refused_with_where_it_breaks_in_numbers_only() -> None:
    (refusal,) = import_json(Store.in_memory(), b'{"format": "companion-archive",\n "version": }').refused
    assert refusal.reason == "It is not a Companion archive: it is not readable JSON (line 2, column 13)."
    assert refusal.reason_text("fr") == (
        "Ce n'est pas une archive Companion\u00a0: ce n'est pas du JSON lisible (ligne 2, colonne 13)."
    )


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "Friday (copy)", "Ann and Inés"),
        ("fr", "Friday (copie)", "Ann et Inés"),
        ("es", "Friday (copia)", "Ann e Inés"),
    ],
)
def test_the_new_words_in_each_language(language: str, one: str, two: str) -> None:
    assert Message("archive.copy_title", {"title": "Friday"}).text(language) == one
    named = archive.game_named("transamerica", "", CREATED, ["Ann", "Inés"])
    assert named.text(language) == f"TransAmerica ({DAY}, {two})"
    assert archive.game_named("transamerica", "Solo", None, ["Ann"]).text(language) == "Solo (Ann)"
    big = archive.too_big(60 * 2**20).text(language)
    assert "60" in big and "50" in big and ("Mo" in big) == (language == "fr")


def test_a_restore_brings_back_the_changes_a_damaged_file_lost_from_its_end(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    with Store(directory) as store:
        session_id = put(store, [])
        session = store.open(session_id)
        for missing in ROUNDS[:2]:  # the first writes the file whole, the second is appended as one record
            session.apply({"type": "end_round", "missing": missing})
        store.close_session(session_id)
        backup = write_backup(store, date(2026, 11, 30))
        assert backup is not None
    path = directory / "sessions" / f"{session_id}.json"
    raw = path.read_bytes()
    path.write_bytes(raw[: raw.rindex(b"\n") + 5])  # its last change torn: it opens without it, noted
    with Store(directory) as store:
        assert store.peek(session_id).cursor == 1
        assert [note.session for note in store.quarantine_notes()] == [session_id]
        report = restore_backup(store, backup)
        assert [(named.session, named.named.text()) for named in report.updated] == [(session_id, FRIDAY)]
        assert report.changed == [] and report.imported == [] and report.copies == []
    with Store(directory) as again:
        assert game_of(again.peek(session_id)) == game_of(transamerica(ROUNDS[:2]))
        assert [summary.is_over for summary in again.sessions()] == [True]


def test_a_refused_game_is_named_with_what_can_be_read_of_it() -> None:
    assert archive.game_named("transamerica", "Friday", CREATED, []).text("fr") == f"Friday ({DAY})"
    assert archive.game_named("transamerica", "Friday", None, []).text("es") == "Friday"
    assert archive.game_named("chess", "", None, ["Ann", "Bob"]).text() == "chess (Ann and Bob)"


def test_a_restore_leaves_a_game_undone_and_recorded_again_since_as_it_is() -> None:
    # Its log is then a prefix of the backup's (the undone change stays in the log, the same
    # change again is cut from it), yet nothing was damaged: only a note of damage says "lost".
    store = Store.in_memory()
    session = Session.new("heartland", ["Ann", "Bob"])
    session.apply({"type": "adjust", "player": "Ann", "amount": 5, "note": "x"})
    session.apply({"type": "adjust", "player": "Ann", "amount": 7, "note": "y"})
    kept = store_helpers.put(store, session, created=CREATED, title="Friday", updated=CREATED + 60)
    gone = put(store, ROUNDS[:1], "gone")
    backup = write_backup(store, date(2026, 11, 30))
    assert backup is not None
    store.delete(gone)
    table = store.open(kept)
    table.undo()
    table.undo()
    table.apply({"type": "adjust", "player": "Ann", "amount": 5, "note": "x"})
    store.close_session(kept)
    store.rename(kept, "Saturday")
    before = store.peek(kept).to_dict()
    report = restore_backup(store, backup)
    assert report.imported == [gone] and report.updated == []
    assert [named.session for named in report.changed] == [kept]
    assert store.peek(kept).to_dict() == before
    assert {summary.id: summary.title for summary in store.sessions()}[kept] == "Saturday"

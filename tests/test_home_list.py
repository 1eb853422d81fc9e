"""The home screen's list at thousands of games: what it shows, in what order, and search,
all from the index's summaries (status lines included), never by reading a session file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from archive_helpers import build
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.app.data import HOME_PAGE, AppData, status_of
from companion.store import Store
from companion.store.index_file import by_session
from companion.store.storage import DiskFolder, MemoryFolder, check_document, decode

GAMES = 3000  # one in five unfinished
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, Any]]]:
    directory = tmp_path_factory.mktemp("archive")
    return directory, build(DiskFolder(directory, durable=False), GAMES, unfinished_every=5)


@pytest.fixture
def data(archive: tuple[Path, list[tuple[str, Any]]]) -> AppData:
    return AppData(Store(archive[0]))


def test_unfinished_games_come_first_newest_first_a_page_at_a_time(
    archive: tuple[Path, list[tuple[str, Any]]], data: AppData
) -> None:
    made = archive[1]
    newest_first = list(reversed(made))
    playing = [session_id for session_id, kind in newest_first if not kind.session.is_over]
    over = [session_id for session_id, kind in newest_first if kind.session.is_over]
    home = data.home()
    assert [summary.id for summary in home.in_progress] == playing[:20]
    assert [summary.id for summary in home.finished] == over[:20]
    assert (home.more_in_progress, home.more_finished) == (len(playing) - 20, len(over) - 20) == (580, 2380)
    more = data.home(in_progress=60)
    assert [summary.id for summary in more.in_progress] == playing[:60] and more.more_in_progress == 540


def test_status_lines_come_from_the_index_without_reading_a_game(
    archive: tuple[Path, list[tuple[str, Any]]], data: AppData, monkeypatch: pytest.MonkeyPatch
) -> None:
    data.home()  # the first list of a run looks at every file once

    def no_game_file(name: str) -> bytes | None:
        assert not name.startswith("sessions/"), f"{name} was read"
        return real_read(name)

    real_read = data.store.folder.read
    monkeypatch.setattr(data.store.folder, "read", no_game_file)
    home = data.home(in_progress=600, finished=2400)
    made = dict(archive[1])
    for summary in [*home.in_progress, *home.finished]:
        lines = status_of(summary.game, made[summary.id].session.state)
        assert data.status_line(summary) == lines["en"] and data.status_line(summary, "fr") == lines["fr"]
    lines = {data.status_line(summary) for summary in [*home.in_progress, *home.finished]}
    assert lines == {
        "Cy's turn · $7 / $999",
        "Zoë's turn · tokens 4/40",
        "Round 2 · lowest: Mia 9",
        "Ann won with 13 points",
        "Dee won with 13 points",
    }


def test_search_by_player_or_game_in_any_case(archive: tuple[Path, list[tuple[str, Any]]], data: AppData) -> None:
    with_zoe = {session_id for session_id, kind in archive[1] if "Zoë" in kind.session.players}
    zoe = data.home("zoë", in_progress=3000, finished=3000)
    assert zoe.in_progress and zoe.finished
    assert {summary.id for summary in [*zoe.in_progress, *zoe.finished]} == with_zoe
    plains = data.home("GREAT plains")
    assert {summary.game for summary in plains.in_progress} == {"great_plains"} and plains.finished == []
    both = data.home("transamerica ann", in_progress=3000, finished=3000)
    assert both.in_progress == [] and len(both.finished) == sum(
        kind.session.players == ("Ann", "Bob") for _, kind in archive[1]
    )
    assert all(summary.players == ("Ann", "Bob") for summary in both.finished)
    nobody = data.home("Quentin")
    assert (nobody.in_progress, nobody.finished, nobody.more_in_progress, nobody.more_finished) == ([], [], 0, 0)


def test_a_game_played_moves_to_the_top_with_its_new_status(data: AppData, tmp_path: Path) -> None:
    oldest = data.home(in_progress=1000).in_progress[-1]
    session = data.open(oldest.id)
    assert oldest.status == "Cy's turn · $7 / $999" == status_of("heartland", session.state)["en"]
    session.apply({"type": "move", "player": "Cy", "spaces": 1, "pay": "cash"})
    top = data.home().in_progress[0]
    assert top.id == oldest.id and data.status_line(top) == "Cy's turn · $6 / $999"
    session.apply({"type": "discard", "player": "Cy", "forced": True})
    session.apply({"type": "end_turn", "player": "Cy"})
    assert data.status_line(data.home().in_progress[0]) == "Ann's turn · $5 / $999"
    data.close_session(oldest.id)
    restarted = AppData(Store(data.store.directory))
    top = restarted.home().in_progress[0]
    assert (top.id, top.status) == (oldest.id, "Ann's turn · $5 / $999")


def test_a_status_line_left_behind_by_a_crash_is_brought_up_to_date() -> None:
    folder = MemoryFolder()
    made = build(folder, 40, unfinished_every=4)
    data = AppData(Store.in_memory(folder))
    session_id = made[0][0]
    session = data.open(session_id)
    for event in (
        {"type": "move", "player": "Cy", "spaces": 1, "pay": "cash"},
        {"type": "discard", "player": "Cy", "forced": True},
        {"type": "end_turn", "player": "Cy"},
    ):
        session.apply(event)
    del data, session  # the app dies with the game open: the index still has the old line
    entries = by_session(check_document(folder.read("index.json") or b"", kind="index"))
    assert entries[session_id]["status"] == "Cy's turn · $7 / $999"
    restarted = AppData(Store.in_memory(folder))
    first = restarted.home().in_progress[0]
    assert (first.id, first.status) == (session_id, "Ann's turn · $5 / $999")


def test_the_list_kept_through_changes_is_the_one_a_restarted_store_reads() -> None:
    folder = MemoryFolder()
    build(folder, 30, unfinished_every=3)
    data = AppData(Store.in_memory(folder))
    data.home()
    made = data.new("transamerica", ["Ann", "Bob"], {})
    made.apply({"type": "end_round", "missing": {"Ann": 13, "Bob": 0}})  # finished: its entry changes
    data.close_session(made.id or "")
    data.store.rename(made.id or "", "Rematch")
    gone = data.home().finished[3].id
    data.delete(gone)
    kept = [(s.id, s.title, s.is_over, s.winners, s.status) for s in data.store.listing()]
    again = [(s.id, s.title, s.is_over, s.winners, s.status) for s in Store.in_memory(folder).sessions()]
    assert kept == again and len(kept) == 30
    assert kept[0] == (made.id, "Rematch", True, ("Bob",), "Bob won with 13 points")
    assert gone not in {entry[0] for entry in kept}


def test_a_game_played_in_another_window_shows_its_saved_line_until_that_window_lets_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = MemoryFolder()
    made = build(folder, 20, unfinished_every=4)
    here, there = AppData(Store.in_memory(folder)), AppData(Store.in_memory(folder))
    session_id = made[0][0]
    played = there.open(session_id)
    played.apply({"type": "move", "player": "Cy", "spaces": 1, "pay": "cash"})
    looked: list[str] = []
    real_stat = folder.stat

    def stat(name: str) -> Any:
        looked.append(name)
        return real_stat(name)

    monkeypatch.setattr(folder, "stat", stat)
    listing = here.sessions()
    assert len([name for name in looked if name.startswith("sessions/")]) < 2 * 20  # no second look at every game
    assert next(summary for summary in listing if summary.id == session_id).status == "Cy's turn · $7 / $999"
    monkeypatch.undo()
    there.close_session(session_id)  # the other window goes home: it writes the game's line
    assert next(s for s in here.home().in_progress if s.id == session_id).status == "Cy's turn · $6 / $999"


def test_a_game_opened_and_left_unchanged_stays_on_the_list() -> None:
    folder = MemoryFolder()
    made = build(folder, 12, unfinished_every=3)
    data = AppData(Store.in_memory(folder))
    before = [summary.id for summary in data.store.listing()]
    data.open(made[3][0])
    assert [summary.id for summary in data.store.listing()] == before
    data.close_session(made[3][0])  # nothing changed: the index is not written
    assert [summary.id for summary in data.store.listing()] == before
    assert data.store.listing() is data.store.listing()  # nothing changed: the same list, worked out once


def test_games_saved_before_status_lines_get_theirs_once_and_keep_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(FIXTURES / "store-v2", tmp_path / "data", ignore=shutil.ignore_patterns("expected.json"))
    data = AppData(Store(tmp_path / "data"))
    home = data.home()
    summaries = [*home.in_progress, *home.finished]
    assert len(summaries) == 6 and all(summary.status == "" for summary in summaries)
    lines = {summary.id: data.status_line(summary) for summary in summaries}  # each game read once, here
    assert lines[summaries[0].id] and all(lines.values())
    data.store.close()  # the lines go into the index with its next change, or when the store closes

    def no_reading(session_id: str) -> None:
        raise AssertionError(f"{session_id} was read again for its status line")

    again = AppData(Store(tmp_path / "data"))
    monkeypatch.setattr(again.store, "peek", no_reading)
    home = again.home()
    assert {summary.id: again.status_line(summary) for summary in [*home.in_progress, *home.finished]} == lines


def test_status_lines_are_kept_in_every_language_and_read_without_opening_the_game(tmp_path: Path) -> None:
    data = AppData(Store(tmp_path))
    session = data.new("transamerica", ["Ann", "Bob", "Cy"], {})
    assert session.id is not None
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 4, "Cy": 2}})
    data.close_session(session.id)

    again = AppData(Store(tmp_path))  # a restart: only the index is read
    (summary,) = again.store.listing()
    assert dict(summary.translated).keys() == {"fr", "es"}
    assert again.status_line(summary) == "Round 2 · lowest: Bob 9"
    assert again.status_line(summary, "fr") == status_of("transamerica", session.state)["fr"]
    assert again.status_line(summary, "es") == status_of("transamerica", session.state)["es"]
    assert again.status_line(summary, "fr") != again.status_line(summary)
    assert not again._sessions  # nothing was opened to tell it


def test_an_entry_saved_with_an_english_line_only_is_told_in_french_by_reading_the_game(tmp_path: Path) -> None:
    data = AppData(Store(tmp_path))
    session = data.new("transamerica", ["Ann", "Bob"], {})
    assert session.id is not None
    data.close_session(session.id)
    index = tmp_path / "index.json"
    document = decode(index.read_bytes())
    for entry in document["sessions"].values():
        entry.pop("status_in")  # as an earlier version wrote it (with no checksum either)
        entry.pop("check")
    index.write_bytes(json.dumps(document).encode())

    (summary,) = AppData(Store(tmp_path)).store.listing()
    assert summary.translated == ()
    assert AppData(Store(tmp_path)).status_line(summary, "es") == status_of("transamerica", session.state)["es"]


def test_a_warmed_list_is_ready_for_the_first_home_without_a_second_look_at_the_games(
    archive: tuple[Path, list[tuple[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = AppData(Store(archive[0]))
    data.warm()  # what `companion` does in the background while the server starts
    looked: list[str] = []
    folder = data.store.folder
    for name in ("stat", "signatures", "names", "read"):
        real = getattr(folder, name)
        monkeypatch.setattr(folder, name, lambda *args, real=real, name=name: looked.append(name) or real(*args))
    home = data.home()
    assert len(home.in_progress) == HOME_PAGE and home.more_in_progress == GAMES // 5 - HOME_PAGE
    assert looked == ["stat"]  # the index's, to see that no other window changed it


def test_warming_a_list_that_cannot_be_read_raises_nothing_and_home_says_why(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    data = AppData(store)
    (tmp_path / "data" / "index.json").write_bytes(b"\xff not json")
    data.warm()
    problem = data.home().listing.problem  # a damaged index is set aside: the list is rebuilt from the games
    assert problem is None
    assert data.store.quarantine_notes()


def test_warming_is_only_a_head_start_an_error_in_it_stops_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = AppData(Store(tmp_path))

    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("a bug while listing")

    monkeypatch.setattr(data, "home", broken)
    data.warm()  # nothing raised: the first screen reads the list itself (and reports what went wrong)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.sampled_from(["z", "o", "ë", " ", "a", "n", "G", "r", "e", "t", "x"]), max_size=8),
    st.lists(st.integers(0, 8), max_size=4),
)
def test_a_search_typed_a_key_at_a_time_finds_what_the_whole_words_find(
    data: AppData, keys: list[str], erased: list[int]
) -> None:
    typed = ""
    for step, key in enumerate(keys):  # typing on narrows the last answer; erasing starts again
        typed = typed[: max(0, len(typed) - erased[step % len(erased)])] if erased and step % 3 == 2 else typed + key
        shown = data.home(typed, in_progress=3000, finished=3000)
        fresh = AppData(data.store).home(typed, in_progress=3000, finished=3000)
        assert (shown.in_progress, shown.finished) == (fresh.in_progress, fresh.finished)

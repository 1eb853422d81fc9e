"""The index takes appended records, like the session files: a new game, a rename, a finished
game and a deletion each append one record to it, whatever the archive's size, and the list
follows without the index being read or rewritten; now and then it is rewritten whole in the
background (the same entries: the list is not read again)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from archive_helpers import build
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app.data import AppData
from companion.store import Store, index_storage
from companion.store.file_format import parse_file
from companion.store.storage import MemoryFolder

GAMES = 300


def spied(monkeypatch: pytest.MonkeyPatch, store: Store) -> list[str]:
    """What the store does to index.json from now on ("read", "write", "append")."""
    done: list[str] = []
    for operation in ("read", "write", "append"):
        real: Callable[..., Any] = getattr(store.folder, operation)

        def spy(name: str, *args: Any, operation: str = operation, real: Callable[..., Any] = real) -> Any:
            if name == "index.json":
                done.append(operation)
            return real(name, *args)

        monkeypatch.setattr(store.folder, operation, spy)
    return done


@pytest.fixture
def archive(monkeypatch: pytest.MonkeyPatch) -> tuple[MemoryFolder, AppData]:
    folder = MemoryFolder()
    build(folder, GAMES, unfinished_every=5)
    data = AppData(Store.in_memory(folder))
    data.home()
    return folder, data


def records(folder: MemoryFolder) -> int:
    return parse_file(folder.read("index.json") or b"", kind="index").records


def test_each_edit_of_the_list_is_one_appended_record(
    archive: tuple[MemoryFolder, AppData], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, data = archive
    done = spied(monkeypatch, data.store)
    session = data.new("transamerica", ["Ann", "Bob"], {})
    assert done == ["append"] and records(folder) == 1
    data.store.rename(session.id or "", "Rematch")
    session.apply({"type": "end_round", "missing": {"Ann": 13, "Bob": 0}})  # finished: its entry changes
    victim = data.home().finished[5].id
    data.delete(victim)
    assert done == ["append", "read", "append", "append", "append"]  # (the one read: this test's `records`)
    home = data.home()
    assert home.finished[0].id == session.id and home.finished[0].title == "Rematch"
    assert victim not in {summary.id for summary in data.store.listing()}
    assert done.count("read") == 1 and "write" not in done  # the list followed the records written
    restarted = Store.in_memory(folder).sessions()
    assert [(s.id, s.title, s.is_over, s.winners) for s in restarted] == [
        (s.id, s.title, s.is_over, s.winners) for s in data.store.listing()
    ]


def test_an_index_with_records_is_read_one_entry_at_a_time_as_it_was_written(
    archive: tuple[MemoryFolder, AppData],
) -> None:
    folder, data = archive
    made = [data.new("heartland", ["Cy", "Di"], {}) for _ in range(3)]
    data.store.delete(made[1].id or "")
    data.store.rename(made[2].id or "", "Sunday")
    assert records(folder) == 5
    listed = data.store.listing()
    again = Store.in_memory(folder)
    assert again._index.entries() and again._index.storage.lean  # read by the scanner, not the general way
    # A game open here is listed live, from memory: what its file was is known once its entry is written.
    assert [summary._replace(written=None, file=None) for summary in again.sessions()] == [
        summary._replace(written=None, file=None) for summary in listed
    ]


def test_a_list_with_records_rewritten_whole_is_not_read_again(
    archive: tuple[MemoryFolder, AppData], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, data = archive
    for number in range(5):
        data.store.rename(data.home().finished[number].id, f"Renamed {number}")
    listed = data.store.listing()
    assert records(folder) == 5
    data.store.compact_now()
    assert records(folder) == 0
    done = spied(monkeypatch, data.store)
    assert data.store.listing() is listed and done == []  # the same entries: nothing read again
    assert list(Store.in_memory(folder).sessions()) == list(listed)


def test_a_list_that_keeps_growing_is_rewritten_by_the_edit_that_fills_it(
    archive: tuple[MemoryFolder, AppData], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, data = archive
    monkeypatch.setattr(index_storage, "COMPACT_EVERY", 6)
    counts = []
    for number in range(14):
        data.store.rename(data.home().finished[0].id, f"Title {number}")
        counts.append(records(folder))
    assert max(counts) == 6 and 0 in counts
    assert data.home().finished[0].title == "Title 13"
    assert Store.in_memory(folder).listing()[0].title == data.store.listing()[0].title


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["new", "rename", "delete", "finish"]), st.integers(0, 30)), min_size=1, max_size=25
    )
)
def test_the_list_newest_first_stays_what_a_fresh_reading_finds_through_any_edits(edits: list[tuple[str, int]]) -> None:
    """Each edit moves one game in the list kept newest first (no sort of the whole list): the
    list shown after any edits is the one a store opened afresh on the same folder shows."""
    folder = MemoryFolder()
    data = AppData(Store.in_memory(folder))
    for number in range(4):
        data.new("transamerica", ["Ann", "Bob"], {}).apply({"type": "end_round", "missing": {"Ann": 0, "Bob": number}})
    data.store.listing()  # the list is known, newest first, before the edits
    for kind, pick in edits:
        ids = [summary.id for summary in data.store.listing()]
        chosen = ids[pick % len(ids)] if ids else None
        if kind == "new" or chosen is None:
            data.new("heartland", ["Ann", "Bob"], {})
        elif kind == "rename":
            data.store.rename(chosen, f"Game {pick}")
        elif kind == "delete":
            data.store.delete(chosen)
        else:
            session = data.store.open(chosen)
            if not session.is_over:
                session.apply({"type": "end_game", "note": "late"})
            data.store.close_session(chosen)
        shown = [(summary.id, summary.title, summary.is_over) for summary in data.store.listing()]
        fresh = [(summary.id, summary.title, summary.is_over) for summary in Store.in_memory(folder).sessions()]
        assert shown == fresh

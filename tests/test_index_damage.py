"""One flipped bit in `index.json` never leaves Home wrong.

A data folder of five games (three titles, finished and in progress, one renamed, one
deleted) whose index holds its document and then appended records. One bit of one byte in
twelve, of the document and of the records, is flipped in turn, a different bit each time,
and the flips that once listed wrong: the list a restarted app shows is either exactly the
list before (a damaged entry is rebuilt from its game's file: each entry carries its own
checksum) or the damage is said, and once opened again it is exactly the list before,
whatever the flip. (Before entries were checksummed, 84 of 300 flips listed a finished game
as in progress, a player "Anl" or a game id "hearvland", 79 of them for good; with the
checksum left unchecked, 7 or 8 of these 171 flips list wrong. Every bit of every byte:
tests/bench/index_flips.py.)
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from sampling import every_nth

from companion.store import Store
from companion.store.listing import CHECK, SessionSummary, entry_check, indexed_summary

INDEX = "index.json"


def shown(summary: SessionSummary) -> tuple[Any, ...]:
    """What Home shows of a game."""
    return (
        summary.id,
        summary.game,
        summary.title,
        summary.players,
        summary.is_over,
        summary.winners,
        summary.status,
        summary.result,
    )


class Table:
    """The data folder, its index's bytes, and the list as Home shows it."""

    def __init__(self, where: Path) -> None:
        self.where, self.home = where, where / "data"
        store = Store(self.home)
        finished = store.new("transamerica", ["Ann", "Bob"], title="Friday")
        finished.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 13}})
        store.close_session(finished.id or "")
        playing = store.new("heartland", ["Ann", "Bob", "Cid"], {"target": 40})
        playing.apply({"type": "move", "player": "Ann", "spaces": 2, "pay": "cash"})
        store.close_session(playing.id or "")
        plains = store.new("great_plains", ["Dee", "Eve"])
        store.close_session(plains.id or "")
        gone = store.new("transamerica", ["Fay", "Gus"])
        store.close_session(gone.id or "")
        store.close()
        # A restart, the index written whole (as `compact_now` does), then
        # changes appended as records after the document: a rename, a deletion, a new game.
        store = Store(self.home)
        store.sessions()
        store.compact_now()
        store.rename(plains.id or "", "Prairie night")
        store.delete(gone.id or "")
        late = store.new("heartland", ["Hal", "Ivy"], {"target": 40})
        store.close_session(late.id or "")
        store.close()
        self.raw = (self.home / INDEX).read_bytes()
        self.document_end = self.raw.index(b"\n")
        assert self.raw.count(b"\n") >= 3, "the index holds appended records"
        assert self.raw[: self.document_end].count(b'"check"') == 4, "the document holds four entries"
        self.truth = [shown(summary) for summary in Store(self._copy(self.raw)).sessions()]
        assert len(self.truth) == 4

    def _copy(self, index: bytes) -> Path:
        """The data folder copied with its files' times (as a restart finds it), its index now `index`."""
        copy = Path(tempfile.mkdtemp(dir=self.where)) / "data"
        shutil.copytree(self.home, copy, ignore=shutil.ignore_patterns("locks", "quarantine"))
        (copy / INDEX).write_bytes(index)
        return copy

    def after_flip(self, at: int, bit: int) -> str:
        """Flip one bit of the index, restart twice; how it went (an assertion fails if the list is ever wrong)."""
        flipped = bytearray(self.raw)
        flipped[at] ^= 1 << bit
        folder = self._copy(bytes(flipped))
        first = Store(folder)
        listed = first.sessions()
        right = [shown(summary) for summary in listed] == self.truth
        said = bool(listed.notes) or bool(listed.losses)
        assert right or said, (at, bit, "listed wrong, unsaid")
        first.close()
        again = [shown(summary) for summary in Store(folder).sessions()]
        shutil.rmtree(folder.parent)
        assert again == self.truth, (at, bit, "still wrong after a restart")
        return "right" if right else "said"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return Table(tmp_path_factory.mktemp("index-flips"))


def flips(raw: bytes) -> list[tuple[int, int]]:
    """One byte in twelve, each a different bit in turn, and the flips that listed wrong before
    entries were checksummed: a player "Anl", a game id "hearvland"."""
    sample = [(at, number % 8) for number, at in enumerate(every_nth(0, len(raw), 12))]
    return [*sample, (raw.index(b'"Ann"') + 3, 1), (raw.index(b'"heartland"') + 5, 1)]


def test_a_flipped_bit_anywhere_in_the_index_lists_right_or_says_so_and_is_right_once_reopened(table: Table) -> None:
    seen: dict[str, int] = {}
    for at, bit in flips(table.raw):
        outcome = table.after_flip(at, bit)
        seen[outcome] = seen.get(outcome, 0) + 1
    print(f"bits flipped in the index: {sum(seen.values())}: {seen}")
    assert seen.get("right", 0) > 0


def test_an_entry_changed_on_the_disk_is_rebuilt_from_its_game_not_listed_as_it_reads() -> None:
    entry = {
        "game": "transamerica",
        "players": ["Ann", "Bob"],
        "title": "",
        "created": 1.7e9,
        "updated": 1.7e9,
        "is_over": True,
        "winners": ["Ann"],
    }
    written = {CHECK: entry_check("abc123", entry), **entry}
    assert indexed_summary("abc123", written) is not None
    assert indexed_summary("abc124", written) is None  # its id changed ("hearvland")
    assert indexed_summary("abc123", {**written, "players": ["Anl", "Bob"]}) is None
    assert indexed_summary("abc123", {**written, "is_over": False}) is None
    assert indexed_summary("abc123", entry) is not None  # saved before entries had a checksum: read as it was

"""A restore takes back only what damage took: a game the table changed since the backup (played
on, undone, redone, recorded again, renamed) is left exactly as it is, a deleted game comes back,
and a game whose file lost changes from its end (a quarantine note says so) comes back whole."""

from __future__ import annotations

from datetime import date
from typing import Any

import store_helpers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.aftergame.archive import restore_backup, write_backup
from companion.session import Session
from companion.store import Store
from companion.store.storage import MemoryFolder

CREATED = 1_700_000_000.0
AMOUNTS = st.integers(min_value=1, max_value=9)  # money given: never below $0, whatever the order
# What the table may do to a game after the backup.
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("apply"), AMOUNTS),
        st.tuples(st.just("undo"), st.just(0)),
        st.tuples(st.just("redo"), st.just(0)),
        # undo one change or more, then the first of them recorded again (the same change)
        st.tuples(st.just("again"), st.integers(min_value=1, max_value=3)),
        st.tuples(st.just("rename"), st.integers(min_value=0, max_value=9)),
    ),
    max_size=6,
)


def adjust(amount: int) -> dict[str, Any]:
    return {"type": "adjust", "player": "Ann", "amount": amount, "note": "x"}


def play(store: Store, session_id: str, amounts: list[int]) -> None:
    session = store.open(session_id)
    for amount in amounts:
        session.apply(adjust(amount))
    store.close_session(session_id)


def table_plays(store: Store, session_id: str, steps: list[tuple[str, int]]) -> None:
    session = store.open(session_id)
    for step, value in steps:
        if step == "apply":
            session.apply(adjust(value))
        elif step == "undo" and session.can_undo:
            session.undo()
        elif step == "redo" and session.can_redo:
            session.redo()
        elif step == "again" and session.cursor >= value:
            event = session.to_dict()["events"][session.cursor - value]
            for _ in range(value):
                session.undo()
            session.apply(event)
    store.close_session(session_id)
    for step, value in steps:
        if step == "rename":
            store.rename(session_id, f"renamed {value}")


@given(
    games=st.lists(
        st.tuples(st.lists(AMOUNTS, min_size=2, max_size=5), STEPS, st.sampled_from(["kept", "deleted", "damaged"])),
        min_size=1,
        max_size=4,
    )
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_restore_leaves_every_game_the_table_changed_and_brings_back_what_was_lost(
    games: list[tuple[list[int], list[tuple[str, int]], str]],
) -> None:
    folder = MemoryFolder()
    store = Store.in_memory(folder)
    ids = []
    for number, (amounts, _, _) in enumerate(games):
        session_id = store_helpers.put(
            store,
            Session.new("heartland", ["Ann", "Bob"]),
            created=CREATED + number,
            title=f"game {number}",
            updated=CREATED + number,
        )
        play(store, session_id, amounts)  # the first change writes the file whole, each next one is appended
        ids.append(session_id)
    backed_up = {session_id: store.peek(session_id).to_dict() for session_id in ids}
    backup = write_backup(store, date(2026, 11, 30))
    assert backup is not None
    for session_id, (_, steps, fate) in zip(ids, games, strict=True):
        if fate == "kept":
            table_plays(store, session_id, steps)
        elif fate == "deleted":
            store.delete(session_id)
    store.close()
    for session_id, (_, _, fate) in zip(ids, games, strict=True):
        if fate == "damaged":  # its last change torn by a power cut: it opens without it, with a note
            name = f"sessions/{session_id}.json"
            raw = folder.read(name) or b""
            folder.write(name, raw[: raw.rindex(b"\n") + 5])
    store = Store.in_memory(folder)
    here = {
        session_id: (store.peek(session_id).to_dict(), summary.title)
        for summary in store.sessions()
        for session_id in [summary.id]
    }
    restore_backup(store, backup)
    after = Store.in_memory(folder)
    titles = {summary.id: summary.title for summary in after.sessions()}
    assert sorted(titles) == sorted(ids)  # nothing lost, nothing duplicated
    for session_id, (_, _, fate) in zip(ids, games, strict=True):
        game = after.peek(session_id).to_dict()
        if fate == "kept":
            assert (game, titles[session_id]) == here[session_id]  # exactly as the table left it
        else:
            assert game == backed_up[session_id]  # brought back whole

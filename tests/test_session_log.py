"""A long session: states after any number of events, the log read line by line, the last
price paid, all without keeping every state or copying the log."""

from __future__ import annotations

from typing import Any

import pytest

from companion import RuleError, Session
from companion.session import CHECKPOINT_EVERY

PLAYERS = ["Ann", "Bob"]


def turn(session: Session, number: int) -> None:
    """One Heartland turn: move, then load corn or unload it at a price that changes, then end."""
    player = session.current_player or ""
    session.apply({"type": "move", "player": player, "spaces": 1, "pay": "fuel" if number % 3 else "cash"})
    if session.state.truck(player).carried("corn"):
        session.apply({"type": "unload", "player": player, "good": "corn", "cubes": 1, "price": 1 + number % 5})
    else:
        session.apply({"type": "load", "player": player, "good": "corn", "cubes": 1})
    session.apply({"type": "end_turn", "player": player})


def long_session(turns: int) -> Session:
    session = Session.new("heartland", PLAYERS, {"target": 999})
    for number in range(turns):
        turn(session, number)
    return session


def replayed(session: Session, number: int) -> Any:
    """The state after `number` events, replayed from scratch in a new session."""
    saved = session.to_dict()
    return Session.from_dict({**saved, "events": saved["events"][:number], "cursor": number}).state


def test_any_state_of_a_long_game_is_the_replayed_one_though_only_one_block_is_kept() -> None:
    session = long_session(150)  # 450 events: 8 blocks of 64
    assert session.cursor == 450
    for number in (0, 1, 63, 64, 65, 200, 449, 450, 127, 3):
        assert session.state_at(number) == replayed(session, number), number
    assert len(session._kept.blocks) <= 1
    assert len(session._kept.checkpoints) == 450 // CHECKPOINT_EVERY + 1


def test_undo_across_a_checkpoint_then_a_new_event_forgets_the_old_tail() -> None:
    session = long_session(22)  # 66 events
    for _ in range(4):
        session.undo()  # back to 62 events, over the checkpoint at 64
    assert session.state == replayed(session, 62)
    session.redo()
    session.redo()
    assert session.cursor == 64 and session.state == replayed(session, 64)
    session.undo()
    session.apply({"type": "adjust", "player": session.current_player, "amount": 2, "note": "found a coin"})
    assert session.cursor == 64 and not session.can_redo
    assert session.state == replayed(session, 64)
    turn(session, 7)
    assert session.state_at(66) == replayed(session, 66)
    assert Session.from_dict(session.to_dict()).state == session.state


def test_the_log_is_read_line_by_line_and_the_sentences_are_a_snapshot() -> None:
    session = long_session(3)
    before = session.sentences
    assert len(before) == 9 and str(session.sentence(1)) == str(before[0]) == "Ann moved 1 space for $1"
    assert str(session.sentence(9)) == str(before[-1])
    session.undo()
    assert len(session.sentences) == 8 and len(before) == 9  # what was read stays as it was
    assert [str(line) for line in before[:2]] == [str(session.sentence(1)), str(session.sentence(2))]


def test_the_last_matching_event_is_found_without_copying_the_log() -> None:
    session = long_session(12)
    unloads = [event for event in session.events if event["type"] == "unload"]
    found = session.last_event(lambda event: event["type"] == "unload")
    assert found == unloads[-1]
    assert found is not None
    found["price"] = 99  # a copy: the log is untouched
    assert session.last_event(lambda event: event["type"] == "unload") == unloads[-1]
    assert session.last_event(lambda event: event["type"] == "toll") is None
    while session.cursor > 3:
        session.undo()  # an undone event is no longer the last one
    assert session.last_event(lambda event: event["type"] == "unload") is None


def round_of(state: Any) -> int:
    return int(state.round)


def turn_of(state: Any) -> int:
    return int(state.turn.number)


def test_a_fact_of_each_state_is_that_of_the_replayed_state_in_any_order() -> None:
    session = long_session(50)  # 150 events: three blocks of 64
    numbers = [*range(150, -1, -1), 7, 64, 63, 128, 150]
    assert [session.state_fact(round_of, n) for n in numbers] == [session.state_at(n).round for n in numbers]
    assert session.state_fact(turn_of, 100) == replayed(session, 100).turn.number
    for wrong in (-1, 151):
        with pytest.raises(IndexError):
            session.state_fact(round_of, wrong)


def test_facts_after_a_changed_event_are_worked_out_again_and_the_others_kept() -> None:
    session = long_session(30)  # 90 events, two players, three events a turn: round 16 at the end
    before = [session.state_fact(round_of, number) for number in range(91)]
    assert before[90] == 16
    for _ in range(20):
        session.undo()  # back to 70 events; the facts of the redo tail still hold
    assert session.state_fact(round_of, 70) == before[70]
    with pytest.raises(IndexError):
        session.state_fact(round_of, 71)  # not applied now
    session.redo()
    assert session.state_fact(round_of, 71) == before[71]
    while session.cursor < 90:  # turns ended straight away: the rounds go faster than before
        end_turn = {"type": "end_turn", "player": session.current_player}
        try:
            session.apply(end_turn)
        except RuleError:
            session.apply({**end_turn, "override": True})
    after = [session.state_fact(round_of, number) for number in range(91)]
    assert after == [session.state_at(number).round for number in range(91)]
    assert after[:72] == before[:72] and after[90] == replayed(session, 90).round > before[90]


def test_one_kind_of_fact_is_kept_and_another_is_worked_out_right() -> None:
    session = long_session(10)
    kinds = [lambda state, n=n: n for n in range(3)]  # each a different function
    for kind in kinds:
        assert session.state_fact(kind, 5) == kinds.index(kind)
    assert len(session._kept.facts) == 1
    assert session.state_fact(kinds[0], 5) == 0  # forgotten, then worked out again

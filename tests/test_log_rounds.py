"""The whole log of a long game: every line says the round of the state before its event,
the same as replaying the game would, also after an undo and a different event."""

from __future__ import annotations

from typing import Any

from app_helpers import app_screen, log_lines, memory_app, notice, table

from companion import Session

EVENTS = 150  # three blocks of 64 and more


def heartland_turns(session: Session, events: int) -> None:
    """Whole turns (move, load or unload, end) for two players."""
    while session.cursor < events:
        player = session.current_player or ""
        action = (
            {"type": "unload", "player": player, "good": "corn", "cubes": 1, "price": 2}
            if session.state.truck(player).carried("corn")
            else {"type": "load", "player": player, "good": "corn", "cubes": 1}
        )
        for event in (
            {"type": "move", "player": player, "spaces": 1, "pay": "fuel"},
            action,
            {"type": "end_turn", "player": player},
        ):
            session.apply(event)


def expected_lines(session: Session) -> list[str]:
    """The lines as they should read: each sentence and the round replayed before it, newest first."""
    return [
        f"{number}. {session.sentence(number)} · round {session.state_at(number - 1).round}"
        for number in range(session.cursor, 0, -1)
    ]


async def whole_log(screen: Any) -> list[str]:
    """Open the log sheet and show all of it: its lines, newest first."""
    await screen.tap("log")
    await screen.tap("log-older")
    return log_lines(screen)


@table
async def test_every_line_of_the_whole_log_has_its_round_also_after_an_undo_and_another_event() -> None:
    data = memory_app()
    session = data.new("heartland", ["Ann", "Bob"], {"target": 999})
    heartland_turns(session, EVENTS)
    assert session.cursor == EVENTS and session.current_player == "Ann"  # Bob ended round 25
    assert session.id is not None
    data.remember_screen(session.id)
    async with app_screen(data) as screen:
        lines = await whole_log(screen)
        assert lines == expected_lines(session)
        assert lines[0] == "150. Bob ended the turn; Ann plays · round 25"
        await screen.tap("panel-close")

        await screen.tap("undo")
        await screen.tap("undo")  # Bob has moved and not acted yet
        await screen.tap("end-turn")
        assert notice(screen)
        await screen.tap("record-anyway")  # round 26 comes one event sooner than before
        await screen.tap("move-fuel-1")
        lines = await whole_log(screen)
        assert lines == expected_lines(session)
        assert lines[0] == "150. Ann moved 1 space with fuel · round 26"
        assert lines[1].startswith("149. Bob ended the turn; Ann plays") and lines[1].endswith(" · round 25")


@table
async def test_the_transamerica_log_says_each_round_over_many_rounds() -> None:
    data = memory_app()
    session = data.new("transamerica", ["Ann", "Bob"], {})
    while session.cursor < EVENTS:
        session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 0}})
    assert session.id is not None
    data.remember_screen(session.id)
    async with app_screen(data) as screen:
        lines = await whole_log(screen)
        assert len(lines) == EVENTS
        assert all(
            line.startswith(f"{n}. Round {n} ended") and line.endswith(f" · round {n}")
            for n, line in zip(range(EVENTS, 0, -1), lines, strict=True)
        )

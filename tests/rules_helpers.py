"""Shared steps for the rules tests."""

from __future__ import annotations

from typing import Any

import pytest

from companion import RuleError, Session


def refusal(session: Session, event: Any) -> RuleError:
    """The refusal itself; the session must be exactly as it was."""
    before = session.to_dict()
    with pytest.raises(RuleError) as caught:
        session.apply(event)
    assert session.to_dict() == before
    return caught.value


def refused(session: Session, event: Any) -> str:
    """The refusal's sentence; the session must be exactly as it was."""
    return str(refusal(session, event))


def table_refuses(session: Session, event: dict[str, Any]) -> str:
    """A refusal the table may overrule ("Record anyway"): its sentence."""
    error = refusal(session, event)
    assert error.overridable, str(error)
    return str(error)


def fact_refuses(session: Session, event: dict[str, Any]) -> str:
    """A refusal no override changes: refused alike with and without `override`."""
    error = refusal(session, event)
    assert not error.overridable
    assert str(refusal(session, {**event, "override": True})) == str(error)
    return str(error)


def recorded_anyway(session: Session, event: dict[str, Any]) -> str:
    """The table records the event against the app's judgement: the log sentence."""
    return str(session.apply({**event, "override": True}))


def scores(session: Session) -> dict[str, int]:
    return {standing.player: standing.score for standing in session.standings()}


def to_scoring(session: Session) -> None:
    """Great Plains: every cave and all 40 tokens are down; the table is counting prairies."""
    for kind, count in (("place_cave", 6), ("place_token", 40)):
        for _ in range(count):
            session.apply({"type": kind, "player": session.current_player})
    assert session.state.scoring

"""Shared steps for the rules tests."""

from __future__ import annotations

from typing import Any

import pytest

from companion import RuleError, Session


def refused(session: Session, event: Any) -> str:
    """The refusal's sentence; the session must be exactly as it was."""
    before = session.to_dict()
    with pytest.raises(RuleError) as caught:
        session.apply(event)
    assert session.to_dict() == before
    return str(caught.value)


def scores(session: Session) -> dict[str, int]:
    return {standing.player: standing.score for standing in session.standings()}

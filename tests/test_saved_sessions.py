"""Games saved by earlier versions open, replay and read exactly as they did then.

Each file in `fixtures/sessions/v1/` was written by the first session format: the saved
session plus what the app showed for it (standings, winners, the log's sentences, what
undo and redo would say). Nothing here may be rescored or reworded by a later version.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from companion import Session

FIXTURES = Path(__file__).parent / "fixtures" / "sessions"
SAVED = sorted((FIXTURES / "v1").glob("*.json"))


def shown(session: Session) -> dict[str, Any]:
    """What the app shows for a session, in the shape the fixtures recorded it."""
    full = Session.from_dict(session.to_dict())
    while full.can_redo:
        full.redo()
    return {
        "is_over": session.is_over,
        "current_player": session.current_player,
        "winners": [standing.player for standing in session.standings() if standing.winner],
        "standings": json.loads(json.dumps([asdict(standing) for standing in session.standings()])),
        "sentences": [str(sentence) for sentence in session.sentences],
        "all_sentences": [str(sentence) for sentence in full.sentences],
        "undo_sentence": None if session.undo_sentence is None else str(session.undo_sentence),
        "redo_sentence": None if session.redo_sentence is None else str(session.redo_sentence),
    }


def load(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text(encoding="utf-8")))


def test_there_are_saved_games_of_every_kind() -> None:
    games = {load(path)["session"]["game"] for path in SAVED}
    assert games == {"heartland", "transamerica", "great_plains"}


@pytest.mark.parametrize("path", SAVED, ids=[path.stem for path in SAVED])
def test_a_saved_game_opens_and_reads_exactly_as_it_was_recorded(path: Path) -> None:
    fixture = load(path)
    session = Session.from_dict(fixture["session"])
    assert shown(session) == fixture["expected"]


@pytest.mark.parametrize("path", SAVED, ids=[path.stem for path in SAVED])
def test_a_saved_game_saved_again_still_reads_the_same(path: Path) -> None:
    fixture = load(path)
    again = Session.from_dict(json.loads(json.dumps(Session.from_dict(fixture["session"]).to_dict())))
    assert shown(again) == fixture["expected"]

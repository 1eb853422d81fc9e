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

from companion import RuleError, Session
from companion.session import FORMAT_VERSION

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


def fixture_session(name: str) -> Session:
    return Session.from_dict(load(FIXTURES / "v1" / f"{name}.json")["session"])


def test_an_old_game_is_saved_again_in_the_newest_format_with_its_events_marked() -> None:
    old = load(FIXTURES / "v1" / "heartland_bare_end_turns.json")["session"]
    saved = Session.from_dict(old).to_dict()
    assert (old["format"], saved["format"]) == (1, FORMAT_VERSION)
    assert saved["events"] == [{**event, "rules": 1} for event in old["events"]]
    assert Session.from_dict(json.loads(json.dumps(saved))).to_dict() == saved


def test_an_old_heartland_game_goes_on_under_today_s_rules() -> None:
    session = fixture_session("heartland_bare_end_turns")
    assert session.current_player == "Cy"
    with pytest.raises(RuleError, match="Cy has not loaded, unloaded or discarded this turn") as caught:
        session.apply({"type": "end_turn", "player": "Cy"})
    assert caught.value.overridable
    session.apply({"type": "move", "player": "Cy", "spaces": 1, "pay": "fuel"})
    assert str(session.apply({"type": "tow", "player": "Cy"})) == "Cy was towed to the Distribution Center"


def test_an_old_great_plains_game_that_ended_at_its_last_token_stays_won_and_takes_its_last_prairies() -> None:
    session = fixture_session("great_plains_no_zones")
    assert session.is_over and not session.state.scoring
    session.apply({"type": "zone", "spaces": 7, "water": 1, "tokens": {"Ann": 3, "Bob": 1}})
    assert [(s.player, s.score, s.winner) for s in session.standings()] == [("Ann", 8, True), ("Bob", 0, False)]
    with pytest.raises(RuleError, match="The game is over"):
        session.apply({"type": "scoring_done"})


def test_an_old_great_plains_game_before_its_last_token_now_enters_scoring() -> None:
    session = fixture_session("great_plains_redo_tail")
    assert session.current_player == "Ann"
    session.apply({"type": "place_token", "player": "Ann"})
    session.apply({"type": "place_token", "player": "Bob"})
    assert session.state.scoring and not session.is_over
    assert str(session.apply({"type": "scoring_done"})) == "Scoring done; the game is over"


def test_old_games_keep_the_names_they_were_saved_with() -> None:
    session = fixture_session("transamerica_odd_names")
    assert session.players == ("Ann", "Ann\u200b", "Zo\u00e9", "Zoe\u0301", "\u202eBob", "Cy\x1b")
    assert fixture_session("heartland_odd_names").players == ("\u200b", "Nul\x00l")

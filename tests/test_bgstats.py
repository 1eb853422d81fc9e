"""BG Stats: the createPlay link and the .bgsplay file, field by field against the shape BG Stats
documents for a play pushed from another app and the file it shares itself (see companion/aftergame/bgstats.py)."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clock_helpers import SetClock, clock_set
from store_helpers import put

from companion.aftergame import bgstats
from companion.app.data import AppData
from companion.session import Session
from companion.store import Store
from companion.text import reference

MINUTE = 60.0
START = 1_764_612_000.0  # 2025-12-01 18:00:00 UTC
# createPlay's documented fields: the play, its game, each player.
PLAY_FIELDS = {
    "sourceName",
    "sourcePlayId",
    "playDate",
    "durationMin",
    "comments",
    "game",
    "players",
    "location",
    "board",
}
GAME_FIELDS = {"name", "bggId", "highestWins", "noPoints", "sourceGameId"}
PLAYER_FIELDS = {"name", "sourcePlayerId", "score", "rank", "winner", "startPlayer", "role", "color"}
# The file BG Stats shares: its parts, and the fields of each.
FILE_FIELDS = {"about", "players", "locations", "games", "plays"}
FILE_PLAYER_FIELDS = {"id", "uuid", "name", "isAnonymous"}
FILE_GAME_FIELDS = {"id", "uuid", "name", "bggId", "highestWins", "noPoints", "cooperative", "usesTeams"}
FILE_PLAY_FIELDS = {
    "uuid",
    "gameRefId",
    "playDate",
    "playDateYmd",
    "entryDate",
    "modificationDate",
    "durationMin",
    "ignored",
    "manualWinner",
    "usesTeams",
    "comments",
    "playerScores",
}
SCORE_FIELDS = {"playerRefId", "score", "rank", "winner", "startPlayer", "newPlayer", "seatOrder"}
UTC_STAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


@pytest.fixture
def now() -> Iterator[SetClock]:
    with clock_set(SetClock(START)) as test_clock:
        yield test_clock


def decoded(url: str) -> dict[str, Any]:
    assert url.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    (data,) = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["data"]
    found: dict[str, Any] = json.loads(data)
    return found


def table_of_three(store: Store, now: SetClock, players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> str:
    """Ann connects both rounds; Bob loses 6 then 7 (0 left), Cy 2 and 2 (9 left); 45 minutes
    of play, with a 20-minute pause between the rounds."""
    session = store.new("transamerica", list(players))
    now.wait(20 * MINUTE)
    session.apply({"type": "end_round", "missing": {players[0]: 0, players[1]: 6, players[2]: 2}})
    session.apply({"type": "clock", "mark": "pause"})
    now.wait(20 * MINUTE)
    session.apply({"type": "clock", "mark": "resume"})
    now.wait(25 * MINUTE)
    session.apply({"type": "end_round", "missing": {players[0]: 0, players[1]: 7, players[2]: 2}})
    now.wait(MINUTE)
    return session.id or ""


def summary_of(store: Store, session_id: str) -> Any:
    return next(summary for summary in store.finished() if summary.id == session_id)


def test_the_link_carries_the_play_in_the_documented_fields(now: SetClock) -> None:
    store = Store.in_memory()
    session_id = table_of_three(store, now)
    play = decoded(bgstats.play_url(store.peek(session_id), summary_of(store, session_id)))
    assert set(play) <= PLAY_FIELDS and set(play["game"]) <= GAME_FIELDS
    assert all(set(player) <= PLAYER_FIELDS for player in play["players"])
    assert play["sourceName"] == "Companion" and play["sourcePlayId"] == session_id
    assert play["playDate"] == "2025-12-01 18:00:00"  # the start, in UTC
    assert play["durationMin"] == 45  # the pause left out
    assert play["game"] == {
        "name": "TransAmerica",
        "bggId": 2842,
        "highestWins": True,
        "noPoints": False,
        "sourceGameId": "transamerica",
    }
    ids = [player.pop("sourcePlayerId") for player in play["players"]]
    assert play["players"] == [
        {"name": "Ann", "score": 13, "rank": 1, "winner": True, "startPlayer": True},
        {"name": "Bob", "score": 0, "rank": 3, "winner": False, "startPlayer": False},
        {"name": "Cy", "score": 9, "rank": 2, "winner": False, "startPlayer": False},
    ]
    assert len(set(ids)) == 3 and all(UUID.fullmatch(found) for found in ids)
    assert "comments" not in play


def test_the_play_date_is_utc_whatever_the_machine_s_zone(now: SetClock, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store.in_memory()
    session_id = table_of_three(store, now)
    dates = set()
    for zone in ("UTC", "Europe/Paris", "America/Los_Angeles", "Asia/Tokyo"):
        monkeypatch.setenv("TZ", zone)
        time.tzset()
        dates.add(decoded(bgstats.play_url(store.peek(session_id), summary_of(store, session_id)))["playDate"])
    monkeypatch.delenv("TZ")
    time.tzset()
    assert dates == {"2025-12-01 18:00:00"}


def test_the_same_player_and_the_same_game_keep_their_ids(now: SetClock) -> None:
    store = Store.in_memory()
    first = table_of_three(store, now)
    second = table_of_three(store, now, ("ＡＮＮ", "Dee", "Bob"))  # Ann again, as names compare at the table
    links = [decoded(bgstats.play_url(store.peek(game), summary_of(store, game))) for game in (first, second)]
    ids = [{player["name"]: player["sourcePlayerId"] for player in link["players"]} for link in links]
    assert ids[0]["Ann"] == ids[1]["ＡＮＮ"] and ids[0]["Bob"] == ids[1]["Bob"]
    assert ids[1]["Dee"] not in ids[0].values()
    assert [link["sourcePlayId"] for link in links] == [first, second]
    again = decoded(bgstats.play_url(store.peek(first), summary_of(store, first)))
    assert again == links[0]  # the same link every time: BG Stats matches it to the play it has


def test_heartland_is_named_by_its_boardgamegeek_id_and_a_stop_by_its_note(now: SetClock) -> None:
    store = Store.in_memory()
    session = store.new("heartland", ["Zoë & Co", "Bob"])
    now.wait(12 * MINUTE)
    session.apply({"type": "end_game", "note": "50% done, #late?"})
    play = decoded(bgstats.play_url(session, summary_of(store, session.id or "")))
    assert play["game"]["bggId"] == 111417 and play["comments"] == "50% done, #late?"
    assert play["players"][0]["name"] == "Zoë & Co" and play["durationMin"] == 12


def test_great_plains_names_who_placed_first_as_the_start_player(now: SetClock) -> None:
    store = Store.in_memory()
    session = store.new("great_plains", ["Zoë", "Łukasz"], {"first": "Łukasz"})
    session.apply({"type": "end_game", "note": "rain"})
    play = decoded(bgstats.play_url(session, store.sessions()[0]))
    assert [player["startPlayer"] for player in play["players"]] == [False, True]
    assert play["game"]["bggId"] == 330036
    assert play["durationMin"] == 1  # a game that ran at all counts one minute
    assert reference.opening("great_plains", "end") is not None


def test_a_game_saved_before_the_clock_sends_the_time_it_was_listed_with() -> None:
    old = Session.new("transamerica", ["Ann", "Bob"])
    old.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 13}})
    saved = {name: value for name, value in old.to_dict().items() if name not in ("clock", "last")} | {"format": 2}
    store = Store.in_memory()
    session_id = put(store, Session.from_dict(saved), created=START, updated=START + 77 * MINUTE)
    play = decoded(bgstats.play_url(store.peek(session_id), summary_of(store, session_id)))
    assert play["durationMin"] == 77 and play["playDate"] == "2025-12-01 18:00:00"


def test_the_play_file_holds_every_finished_game_in_the_shape_bg_stats_shares(now: SetClock) -> None:
    store = Store.in_memory()
    first = table_of_three(store, now)
    stopped = store.new("heartland", ["Ann", "Dee"])
    now.wait(30 * MINUTE)
    stopped.apply({"type": "end_game", "note": "pizza"})
    store.new("transamerica", ["Ann", "Bob"])  # not finished: not a play
    document = json.loads(bgstats.export_plays(store))
    assert set(document) == FILE_FIELDS and document["locations"] == []
    assert document["about"].startswith("A play file for Board Game Stats")
    assert all(set(player) == FILE_PLAYER_FIELDS for player in document["players"])
    assert all(set(game) <= FILE_GAME_FIELDS for game in document["games"])
    assert all(set(play) == FILE_PLAY_FIELDS for play in document["plays"])
    assert all(set(score) == SCORE_FIELDS for play in document["plays"] for score in play["playerScores"])
    people = {player["id"]: player for player in document["players"]}
    games = {game["id"]: game for game in document["games"]}
    assert sorted(player["name"] for player in people.values()) == ["Ann", "Bob", "Cy", "Dee"]  # Ann once
    assert {game["name"]: game.get("bggId") for game in games.values()} == {
        "TransAmerica": 2842,
        "The Great Heartland Hauling Co.": 111417,
    }
    three, halted = document["plays"]
    assert games[three["gameRefId"]]["name"] == "TransAmerica" and three["uuid"] == bgstats.play_uuid(first)
    assert (three["playDate"], three["playDateYmd"], three["durationMin"], three["ignored"], three["comments"]) == (
        bgstats.local_stamp(START),
        bgstats.local_ymd(START),
        45,
        False,
        "",
    )
    assert [
        (
            people[score["playerRefId"]]["name"],
            score["score"],
            score["rank"],
            score["winner"],
            score["startPlayer"],
            score["seatOrder"],
        )
        for score in three["playerScores"]
    ] == [("Ann", "13", 1, True, True, 1), ("Bob", "0", 3, False, False, 2), ("Cy", "9", 2, False, False, 3)]
    assert people[three["playerScores"][0]["playerRefId"]]["uuid"] == bgstats.player_id("Ann")
    assert (halted["ignored"], halted["comments"], halted["durationMin"]) == (True, "pizza", 30)
    assert UTC_STAMP.fullmatch(halted["modificationDate"]) and all(
        UUID.fullmatch(play["uuid"]) for play in document["plays"]
    )
    # Exported again, the same plays, players and games: BG Stats updates them instead of adding copies.
    now.wait(60 * MINUTE)
    later = json.loads(bgstats.export_plays(store))
    assert [play["uuid"] for play in later["plays"]] == [three["uuid"], halted["uuid"]]
    assert later["players"] == document["players"] and later["games"] == document["games"]


def test_the_play_file_is_saved_in_exports_from_your_games(tmp_path: Any, now: SetClock) -> None:
    data = AppData(Store(tmp_path / "data"))
    table_of_three(data.store, now)
    path = data.save_export("bgsplay")
    assert path.endswith(".bgsplay") and os.path.dirname(path).endswith("exports")
    with open(path, "rb") as file:
        assert len(json.loads(file.read())["plays"]) == 1


FIXTURE = Path(__file__).parent / "fixtures" / "bgstats" / "export.bgsplay"


@pytest.fixture
def paris(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    yield
    monkeypatch.delenv("TZ")
    time.tzset()


def test_the_play_file_has_the_fields_of_a_bg_stats_export_field_by_field(now: SetClock) -> None:
    sample = json.loads(FIXTURE.read_text(encoding="utf-8"))
    store = Store.in_memory()
    session = store.new("heartland", ["Ann", "Bob"])
    now.wait(30 * MINUTE)
    session.apply({"type": "end_game", "note": "late"})
    ours = json.loads(bgstats.export_plays(store))
    assert set(ours) == set(sample)
    for part, fields in (("players", "players"), ("games", "games"), ("plays", "plays")):
        assert set(ours[part][0]) == set(sample[fields][0]), part
    assert set(ours["plays"][0]["playerScores"][0]) == set(sample["plays"][0]["playerScores"][0])
    for play in (sample["plays"][0], ours["plays"][0]):
        assert UTC_STAMP.fullmatch(play["playDate"])
        assert play["playDate"][:10].replace("-", "") == str(play["playDateYmd"])
        assert [score["seatOrder"] for score in play["playerScores"]] == list(range(1, len(play["playerScores"]) + 1))
        assert all(isinstance(score["score"], str) for score in play["playerScores"])


def test_a_game_at_01_40_in_paris_is_on_its_own_day(paris: None) -> None:
    at = 1_764_636_000.0  # 2025-12-02 00:40 UTC: 01:40 in Paris
    with clock_set(SetClock(at)) as test_clock:
        store = Store.in_memory()
        session_id = table_of_three(store, test_clock)
        (play,) = json.loads(bgstats.export_plays(store))["plays"]
        link = decoded(bgstats.play_url(store.peek(session_id), summary_of(store, session_id)))
    assert (play["playDate"], play["playDateYmd"]) == ("2025-12-02 01:40:00", 20251202)
    assert link["playDate"] == "2025-12-02 00:40:00"  # the link in UTC, as the push-plays page asks


def test_thirteen_games_with_an_imported_copy_are_thirteen_plays(now: SetClock) -> None:
    store = Store.in_memory()
    ids = [table_of_three(store, now) for _ in range(13)]
    copy = table_of_three(store, now)
    store.folder.write(
        "copies.json", json.dumps({"format": "companion-copies", "version": 1, "copies": {copy: ids[4]}}).encode()
    )
    plays = json.loads(bgstats.export_plays(store))["plays"]
    assert len(plays) == 13 and [play["uuid"] for play in plays] == [bgstats.play_uuid(game) for game in ids]
    # The copy alone (its original not chosen): sent under the original's uuid, the same play in BG Stats.
    (alone,) = json.loads(bgstats.export_plays(store, [copy]))["plays"]
    assert alone["uuid"] == bgstats.play_uuid(ids[4])


def test_a_game_left_out_of_statistics_is_ignored_and_a_stopped_one_counted_is_not(now: SetClock) -> None:
    store = Store.in_memory()
    left_out = table_of_three(store, now)
    stopped = store.new("heartland", ["Ann", "Dee"])
    now.wait(30 * MINUTE)
    stopped.apply({"type": "end_game", "note": "pizza"})
    kept = table_of_three(store, now)
    store.folder.write("counted.json", json.dumps({"counted": {left_out: False, stopped.id: True}}).encode())
    plays = {play["uuid"]: play for play in json.loads(bgstats.export_plays(store))["plays"]}
    assert plays[bgstats.play_uuid(left_out)]["ignored"] is True
    assert plays[bgstats.play_uuid(stopped.id or "")]["ignored"] is False
    assert plays[bgstats.play_uuid(kept)]["ignored"] is False


LINK_FIXTURE = Path(__file__).parent / "fixtures" / "bgstats" / "createPlay.json"


def test_the_link_has_the_fields_of_a_pushed_play_field_by_field(now: SetClock) -> None:
    sample = json.loads(LINK_FIXTURE.read_text(encoding="utf-8"))
    store = Store.in_memory()
    session = store.new("heartland", ["Ann", "Bob"])
    now.wait(45 * MINUTE)
    session.apply({"type": "end_game", "note": "late"})
    ours = decoded(bgstats.play_url(session, summary_of(store, session.id or "")))
    assert set(ours) == set(sample) and set(ours["game"]) == set(sample["game"])
    assert all(set(player) == set(sample["players"][0]) for player in ours["players"])
    for name, value in sample.items():
        assert type(ours[name]) is type(value), name
    for name, value in sample["game"].items():
        assert type(ours["game"][name]) is type(value), name
    for name, value in sample["players"][0].items():
        assert all(type(player[name]) is type(value) for player in ours["players"]), name
    assert UTC_STAMP.fullmatch(ours["playDate"]) and ours["playDate"] == bgstats.utc_stamp(START)

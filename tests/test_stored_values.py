"""Whatever a data folder's files hold, it is checked before a clock, a calendar or an encoder
sees it: times no calendar can show, NaN, half of a UTF-16 pair, in the index, a session file
or the app's own note of where it was. And names equal under compatibility forms are one
player in the statistics, as they are one name at the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from app_helpers import table
from flet_harness import Screen
from store_helpers import put

from companion.aftergame import stats
from companion.app.data import AppData
from companion.app.main import make_main
from companion.session import Session
from companion.store import Store, StoreError
from companion.store import storage as storage_module
from companion.store.file_format import parse_file
from companion.store.index_file import doc_key

ADJUST = {"type": "adjust", "player": "Ann", "amount": 1, "note": "fix"}


@pytest.fixture(params=["orjson", "json"])
def serialiser(request: pytest.FixtureRequest) -> Iterator[str]:
    storage_module.use_orjson(request.param == "orjson")
    yield request.param
    storage_module.use_orjson(True)


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, str]:
    directory = tmp_path / "data"
    with Store(directory) as store:
        session = store.new("heartland", ["Ann", "Bob"], title="Friday")
        session.apply(ADJUST)
    return directory, session.id or ""


def edit_index(directory: Path, session_id: str, field: str, spelled: str) -> None:
    """Put `spelled` (JSON text, as a hand or a broken tool may write it) in the game's index entry."""
    index = parse_file((directory / "index.json").read_bytes()).data  # its appended records applied
    index["sessions"][doc_key(session_id)][field] = "PLACE"
    (directory / "index.json").write_text(json.dumps(index).replace('"PLACE"', spelled))


@pytest.mark.parametrize(
    ("field", "spelled"),
    [
        ("created", "1e300"),
        ("created", "1" + "0" * 400),
        ("created", "NaN"),
        ("created", "-Infinity"),
        ("updated", "1e300"),
        ("updated", "1" + "0" * 400),
        ("players", '["Ann", "\\ud800"]'),
        ("winners", '["\\udfff"]'),
        ("title", '"Fri\\ud800day"'),
        ("status", '"\\ud800 turn"'),
        ("status_in", '{"fr": "\\ud800"}'),
        ("result", '{"scores": [' + "1" * 400 + ', 1], "ranks": [1, 2], "length": 1}'),
    ],
)
@table
async def test_a_value_no_page_can_show_in_the_index_is_worked_out_again_from_the_game(
    played: tuple[Path, str], serialiser: str, field: str, spelled: str
) -> None:
    directory, session_id = played
    edit_index(directory, session_id, field, spelled)
    data = AppData(Store(directory))
    (summary,) = data.store.sessions()
    assert (summary.id, summary.players) == (session_id, ("Ann", "Bob"))
    assert summary.title in ("Friday", "Fri\ufffdday")
    assert 0 < summary.created < 32_503_680_000 and summary.updated < 32_503_680_000
    async with Screen(make_main(data)) as screen:  # Home draws it (a crash fails the test)
        assert screen.exists(f"session-{session_id}")
        await screen.tap("stats")


@pytest.mark.parametrize(
    ("found", "spelled"),
    [
        ('"players":["Ann","Bob"]', '"players":["Ann","B\\ud800b"]'),
        ('"note":"fix"', '"note":"f\\udfffx"'),
        ('"created":', '"created":1e300,"was":'),
    ],
)
def test_a_session_file_holding_what_no_page_can_show_is_damage(
    played: tuple[Path, str], serialiser: str, found: str, spelled: str
) -> None:
    directory, session_id = played
    path = directory / "sessions" / f"{session_id}.json"
    raw = path.read_text()
    assert found in raw
    raw = raw.replace(found, spelled, 1)
    if found == '"created":':  # the field it pushed aside goes again, so that only the time is wrong
        start = raw.index(',"was":')
        raw = raw[:start] + raw[raw.index(",", start + 1) :]
    path.write_text(raw)
    store = Store(directory)
    with pytest.raises(StoreError, match="could not be read and was set aside in the quarantine folder") as caught:
        store.open(session_id)
    str(caught.value).encode("utf-8")
    assert store.sessions() == [] and store.sessions().quarantined == 1


def test_a_title_holding_half_of_a_pair_is_refused_and_one_on_disk_is_damage(
    played: tuple[Path, str], serialiser: str
) -> None:
    directory, session_id = played
    store = Store(directory)
    broken = r"^A title cannot hold a broken character \(half of a pair\); type it again\.$"
    with pytest.raises(StoreError, match=broken):
        store.rename(session_id, "Fri\ud800day")
    with pytest.raises(StoreError, match="broken character"):
        store.new("transamerica", ["Ann", "Bob"], title="\udfff")
    path = directory / "sessions" / f"{session_id}.json"
    path.write_text(path.read_text().replace('"title":"Friday"', '"title":"Fri\\ud800day"'))
    with pytest.raises(StoreError, match="set aside in the quarantine folder"):
        Store(directory).open(session_id)


@pytest.mark.parametrize("draft", ['{"note": "\\ud800"}', '{"\\udfff": 1}', '{"amount": NaN}'])
@table
async def test_a_note_of_where_the_app_was_holding_what_no_page_can_show_is_ignored(
    played: tuple[Path, str], draft: str
) -> None:
    directory, session_id = played
    (directory / "ui-state.json").write_text(f'{{"open_session": "{session_id}", "panel": "adjust", "draft": {draft}}}')
    async with Screen(make_main(AppData(Store(directory)))) as screen:
        assert screen.exists("money-ann")  # the game came back; the draft did not


# --- one player under compatibility forms -------------------------------------------------------


def finished_transamerica(store: Store, players: list[str], missing: list[int]) -> None:
    session = store.new("transamerica", players)
    session.apply({"type": "end_round", "missing": dict(zip(players, missing, strict=True))})
    store.close_session(session.id or "")


def test_a_full_width_name_and_its_plain_twin_are_one_player_in_the_statistics() -> None:
    store = Store.in_memory()
    finished_transamerica(store, ["Ann", "Bob"], [0, 13])
    finished_transamerica(store, ["\uff21\uff4e\uff4e", "Bob"], [0, 13])
    finished_transamerica(store, ["\uff21\uff2e\uff2e", "Bob"], [13, 0])
    figures = stats.statistics(store.finished(), aliases={})
    ann = next(player for player in figures.players if stats.player_key(player.name) == "ann")
    assert (ann.plays, ann.wins) == (3, 2)
    assert [name for name in store.known_players() if stats.player_key(name) == "ann"] == ["ＡＮＮ"]


def test_a_rename_saved_when_only_case_was_set_aside_still_finds_its_player() -> None:
    store = Store.in_memory()
    finished_transamerica(store, ["\uff21\uff4e\uff4e", "Bob"], [0, 13])
    store.folder.write(stats.ALIASES, json.dumps({"aliases": {"\uff41\uff4e\uff4e": "Annie"}}).encode())
    figures = stats.statistics(store.finished(), aliases=stats.read_aliases(store.folder))
    assert "Annie" in {player.name for player in figures.players}


def test_saved_games_keep_the_names_they_were_saved_with() -> None:
    saved = Session.new("transamerica", ["Ann", "Bob"]).to_dict()
    old = {**saved, "players": ["Ann", "\uff21\uff4e\uff4e"]}
    store = Store.in_memory()
    game_id = put(store, Session.from_dict(old), created=1_000.0)
    assert store.peek(game_id).players == ("Ann", "Ａｎｎ")

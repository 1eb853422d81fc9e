"""An archive carries the table's choices with its games: renames, games counted or left out,
copies' notes and when titles were changed. Moving every game to an empty folder leaves every
statistic and player page as it was; importing into a folder with choices of its own adds the
file's, never undoes one made here, and says what it took and what it kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import store_helpers
from app_helpers import table
from flet_harness import Screen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.aftergame import archive, stats
from companion.aftergame.archive import export_json, import_json, write_backup
from companion.app.data import AppData
from companion.app.main import make_main
from companion.session import Session
from companion.store import Store
from companion.store.store import TITLES

POOL = ["Ann", "Bob", "Cy", "Dee"]
NEW_NAMES = ["Rob", "Annie", "Bob"]
CREATED = 1_700_000_000.0


def transamerica(players: list[str], loser: int, stopped: bool) -> Session:
    """A TransAmerica game: one round where `loser` misses 13 (the game is over), or stopped after
    a first round (a game the table stopped: left out of statistics unless counted)."""
    session = Session.new("transamerica", players)
    if stopped:
        session.apply({"type": "end_round", "missing": {name: number for number, name in enumerate(players)}})
        session.apply({"type": "end_game", "note": "time up"})
    else:
        winner = (loser + 1) % len(players)
        session.apply(
            {
                "type": "end_round",
                "missing": {
                    name: 13 if seat == loser else 0 if seat == winner else seat for seat, name in enumerate(players)
                },
            }
        )
    return session


def figures(data: AppData) -> dict[str, Any]:
    """Everything the statistics screen and every player page show (and the titles on Home)."""
    names = sorted({player for summary in data.finished() for player in summary.players} | set(NEW_NAMES))
    return {
        "all": data.statistics(),
        "by_game": data.statistics_by_game(),
        "pages": {name: data.player_page(name) for name in names},
        "titles": sorted((summary.id, summary.title) for summary in data.store.sessions()),
    }


GAME = st.tuples(st.lists(st.sampled_from(POOL), min_size=2, max_size=4, unique=True), st.integers(0, 3), st.booleans())
CHOICE = st.one_of(
    st.tuples(st.just("rename"), st.sampled_from(POOL), st.sampled_from(NEW_NAMES + POOL)),
    st.tuples(st.just("count"), st.integers(0, 20), st.booleans()),
    st.tuples(st.just("title"), st.integers(0, 20), st.sampled_from(["Friday", "Game night", ""])),
    st.tuples(st.just("copy"), st.integers(0, 20), st.just(None)),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(GAME, min_size=1, max_size=6), st.lists(CHOICE, max_size=8))
def test_every_game_moved_to_an_empty_folder_keeps_every_statistic_and_player_page(
    games: list[tuple[list[str], int, bool]], choices: list[tuple[str, Any, Any]]
) -> None:
    source = AppData(Store.in_memory())
    ids = [
        store_helpers.put(
            source.store,
            transamerica(players, loser % len(players), stopped),
            created=CREATED + 3_600 * number,
            updated=CREATED + 3_600 * number + 1_800,
        )
        for number, (players, loser, stopped) in enumerate(games)
    ]
    for kind, first, second in choices:
        summaries = {summary.id: summary for summary in source.finished()}
        if kind == "rename":
            stats.rename_player(source.store, first, second)
        elif kind == "count":
            source.set_counted(summaries[ids[first % len(ids)]], second)
        elif kind == "title":
            source.store.rename(ids[first % len(ids)], second)
        else:  # the same game played otherwise on another device, imported: kept beside it as a copy
            entry = json.loads(export_json(source.store, [ids[first % len(ids)]]))["sessions"][0]
            players, missing = entry["players"], entry["events"][0]["missing"]
            lost = next((seat for seat, name in enumerate(players) if missing[name] == 13), -1)
            entry.update(transamerica(players, (lost + 1) % len(players), False).to_dict())
            archive_bytes = json.dumps({"format": "companion-archive", "version": 1, "sessions": [entry]}).encode()
            assert len(import_json(source.store, archive_bytes).copies) == 1
    target = AppData(Store.in_memory())
    report = import_json(target.store, export_json(source.store))
    assert report.refused == [] and report.names_kept == []
    assert figures(target) == figures(source)
    again = import_json(target.store, export_json(source.store))  # the same file again takes nothing
    assert again.imported == [] and again.taken == [] and figures(target) == figures(source)


def test_a_folder_moved_keeps_the_evening_counted_once_and_the_renames() -> None:
    """What an export without the choices lost: a copy counted twice, a game left out counted, a rename undone."""
    source = AppData(Store.in_memory())
    first = store_helpers.put(source.store, transamerica(["Ann", "Bob"], 1, False), created=CREATED)
    left_out = store_helpers.put(source.store, transamerica(["Ann", "Bob"], 0, False), created=CREATED + 9_000)
    entry = json.loads(export_json(source.store, [first]))["sessions"][0]
    entry.update(transamerica(["Ann", "Bob"], 0, False).to_dict())  # the same evening scored otherwise elsewhere
    import_json(source.store, json.dumps({"format": "companion-archive", "version": 1, "sessions": [entry]}).encode())
    source.set_counted(next(s for s in source.finished() if s.id == left_out), False)
    stats.rename_player(source.store, "Bob", "Rob")
    assert (source.statistics().plays, source.player_page("Rob").plays) == (1, 1)  # type: ignore[union-attr]
    target = AppData(Store.in_memory())
    report = import_json(target.store, export_json(source.store))
    assert sorted(report.taken) == [("copies.json", 1), ("counted.json", 1), ("players.json", 1)]
    assert (target.statistics().plays, target.player_page("Rob").plays) == (1, 1)  # type: ignore[union-attr]
    assert target.player_page("Bob") == source.player_page("Bob")


def test_a_rename_made_otherwise_on_each_device_keeps_the_one_here_and_says_so() -> None:
    here, there = AppData(Store.in_memory()), AppData(Store.in_memory())
    store_helpers.put(here.store, transamerica(["Ann", "Bob"], 1, False), created=CREATED)
    import_json(there.store, export_json(here.store))
    stats.rename_player(here.store, "Bob", "Rob")
    stats.rename_player(there.store, "Bob", "Robert")
    stats.rename_player(there.store, "Ann", "Annie")  # made there only: taken
    report = import_json(here.store, export_json(there.store))
    assert [(kept.player, kept.here, kept.file) for kept in report.names_kept] == [("Bob", "Rob", "Robert")]
    assert report.taken == [("players.json", 1)]
    assert stats.read_aliases(here.store) == {"bob": "Rob", "ann": "Annie"}


def test_renames_that_chain_across_devices_end_at_the_last_name_and_a_loop_is_refused_in_words() -> None:
    here = Store.in_memory()
    store_helpers.put(here, transamerica(["Ann", "Bob", "Cy"], 1, False), created=CREATED)
    stats.rename_player(here, "Bob", "Rob")
    stats.rename_player(here, "Cy", "Ann")
    document = json.loads(export_json(here))
    document["aliases"] = {"kim": "Bob", "ann": "Cy"}  # Kim became Bob there; Ann became Cy: a loop with ours
    report = import_json(here, json.dumps(document).encode())
    assert stats.read_aliases(here) == {"bob": "Rob", "cy": "Ann", "kim": "Rob"}
    assert [(kept.player, kept.here, kept.file) for kept in report.names_kept] == [("Ann", "Ann", "Cy")]


def test_a_choice_here_is_never_undone_by_a_file_and_only_the_files_games_take_its_choices() -> None:
    here = AppData(Store.in_memory())
    ours = store_helpers.put(here.store, transamerica(["Ann", "Bob"], 1, False), created=CREATED)
    theirs = Store.in_memory()
    other = store_helpers.put(theirs, transamerica(["Cy", "Dee"], 1, False), created=CREATED + 60)
    stats.set_counted(theirs, theirs.finished()[0], False)
    document = json.loads(export_json(theirs))
    document["counted"][ours] = False  # a choice about a game not in the file: not taken
    document["copies"] = {other: ours}
    here.set_counted(here.finished()[0], False)
    report = import_json(here.store, json.dumps(document).encode())
    assert stats.read_counted(here.store) == {ours: False, other: False}
    assert archive.read_copies(here.store) == {other: ours}
    assert sorted(report.taken) == [("copies.json", 1), ("counted.json", 1)]


def test_choices_of_the_wrong_shape_in_a_file_are_left_out_and_the_games_still_come_in() -> None:
    source = Store.in_memory()
    game = store_helpers.put(source, transamerica(["Ann", "Bob"], 1, False), created=CREATED)
    document = json.loads(export_json(source))
    document.update(
        {
            "aliases": {"bob": 7, "ann": "", "cy": "Cyril"},
            "counted": {game: "no", "x": False},
            "copies": [game],
            "titled": {game: -5},
        }
    )
    target = Store.in_memory()
    report = import_json(target, json.dumps(document).encode())
    assert report.imported == [game] and report.refused == []
    assert stats.read_aliases(target) == {"cy": "Cyril"}
    assert (stats.read_counted(target), archive.read_copies(target), target.side_files.read(TITLES)) == ({}, {}, {})


def test_an_export_of_chosen_games_carries_their_choices_only_and_every_rename() -> None:
    store = AppData(Store.in_memory())
    first = store_helpers.put(store.store, transamerica(["Ann", "Bob"], 1, False), created=CREATED)
    second = store_helpers.put(store.store, transamerica(["Ann", "Cy"], 1, False), created=CREATED + 60)
    for summary in store.finished():
        store.set_counted(summary, False)
    store.store.rename(second, "Later")
    stats.rename_player(store.store, "Cy", "Cyril")
    document = json.loads(export_json(store.store, [first]))
    assert document["counted"] == {first: False} and "titled" not in document
    assert document["aliases"] == {"cy": "Cyril"}
    assert set(json.loads(export_json(store.store))["titled"]) == {second}


def test_a_backup_keeps_when_titles_were_changed_and_a_restore_brings_back_what_titles_json_lost() -> None:
    store = Store.in_memory()
    game = store_helpers.put(store, transamerica(["Ann", "Bob"], 1, False), created=CREATED)
    store.rename(game, "Friday", titled=CREATED + 100)
    name = write_backup(store)
    assert name is not None
    assert json.loads(store.folder.read(f"backups/{name}") or b"")["titled"] == {game: CREATED + 100}
    store.folder.remove("titles.json")
    report = archive.restore_backup(store, name)
    assert report.side == [("titles.json", 1)] and store.side_files.read(TITLES) == {game: CREATED + 100}


@table
async def test_home_names_a_damaged_titles_json_and_what_it_means(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    with Store(directory) as store:
        game = store_helpers.put(store, transamerica(["Ann", "Bob"], 1, False), created=CREATED)
        store.rename(game, "Friday")
    (directory / "titles.json").write_bytes(b'{"crc32":"00000000","count":1,"titled":{"')  # cut short
    data = AppData(Store(directory))
    async with Screen(make_main(data)) as screen:
        assert screen.text_of("side-lost-titles").startswith(
            "Title changes (titles.json): when 1 title was changed could not be read; an import may then give that "
            "game the other device's title."
        )
    data.store.close()

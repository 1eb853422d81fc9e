"""Sync through a CouchDB-compatible server (PouchDB Server, in memory): data folders that sync
end with the same games and the same choices; games played apart converge with one copy; a
deletion follows; nothing the server sends that an import would refuse is written here."""

from __future__ import annotations

import json
from typing import Any

import pytest
import store_helpers
from couch_helpers import CouchServer, free_port

from companion.aftergame import archive, stats
from companion.app.data import AppData
from companion.session import Session
from companion.store import Store
from companion.sync.couch import Couch, SyncError
from companion.sync.engine import sync_round

CREATED = 1_700_000_000.0


def transamerica(rounds: list[dict[str, int]], players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> Session:
    session = Session.new("transamerica", list(players))
    for missing in rounds:
        session.apply({"type": "end_round", "missing": missing})
    return session


R1, R2, R2_OTHER = {"Ann": 0, "Bob": 6, "Cy": 2}, {"Ann": 0, "Bob": 7, "Cy": 2}, {"Ann": 5, "Bob": 0, "Cy": 13}


def games(store: Store) -> dict[str, tuple[str, list[Any], int]]:
    """Every game here: id -> (title, log, undo position)."""
    found = {}
    for summary in store.sessions():
        session = store.peek(summary.id)
        found[summary.id] = (summary.title, session.to_dict()["events"], session.cursor)
    return found


def synced(couch_server: CouchServer, database: str, *stores: Store, rounds: int = 2) -> None:
    """Each store syncs in turn, twice: what one sent, the others have taken."""
    for _ in range(rounds):
        for store in stores:
            sync_round(store, Couch(couch_server.url, database))


def test_a_game_played_on_one_device_appears_on_the_others(couch_server: CouchServer, database: str) -> None:
    a, b, c = Store.in_memory(), Store.in_memory(), Store.in_memory()
    game = store_helpers.put(a, transamerica([R1, R2]), created=CREATED, title="Friday")
    first = sync_round(a, Couch(couch_server.url, database))
    assert (first.sent, first.created) == (1, True)
    synced(couch_server, database, a, b, c)
    assert games(b) == games(a) == games(c) and list(games(b)) == [game]
    assert [s.result for s in b.finished()] == [s.result for s in a.finished()]
    again = sync_round(b, Couch(couch_server.url, database))
    assert (again.sent, again.taken) == (0, 0)  # in step: a round sends and takes nothing


def test_a_game_played_on_further_elsewhere_is_brought_up_to_date(couch_server: CouchServer, database: str) -> None:
    a, b = Store.in_memory(), Store.in_memory()
    game = store_helpers.put(a, transamerica([R1]), created=CREATED)
    synced(couch_server, database, a, b)
    session = b.open(game)
    session.apply({"type": "end_round", "missing": R2})
    b.close_session(game)
    synced(couch_server, database, b, a)
    assert games(a)[game][1] == games(b)[game][1] and len(games(a)[game][1]) == 2


def test_a_game_played_apart_on_two_offline_devices_converges_with_one_copy(
    couch_server: CouchServer, database: str
) -> None:
    a, b = AppData(Store.in_memory()), AppData(Store.in_memory())
    game = store_helpers.put(a.store, transamerica([R1]), created=CREATED)
    synced(couch_server, database, a.store, b.store)
    for store, last in ((a.store, R2), (b.store, R2_OTHER)):  # both offline: each plays its own second round
        session = store.open(game)
        session.apply({"type": "end_round", "missing": last})
        store.close_session(game)
    synced(couch_server, database, a.store, b.store, rounds=3)
    assert games(a.store) == games(b.store)
    assert len(games(a.store)) == 2  # the game and one copy, on both
    assert archive.read_copies(a.store) == archive.read_copies(b.store) != {}
    assert a.statistics().plays == b.statistics().plays == 1  # the evening counted once


def test_a_deletion_follows_and_a_game_changed_after_it_was_deleted_comes_back(
    couch_server: CouchServer, database: str
) -> None:
    a, b = Store.in_memory(), Store.in_memory()
    gone = store_helpers.put(a, transamerica([R1, R2]), created=CREATED)
    kept = store_helpers.put(a, transamerica([R1]), created=CREATED + 60)
    synced(couch_server, database, a, b)
    a.delete(gone)
    a.delete(kept)
    session = b.open(kept)  # meanwhile played on elsewhere
    session.apply({"type": "end_round", "missing": R2})
    b.close_session(kept)
    synced(couch_server, database, a, b, rounds=3)
    assert list(games(a)) == list(games(b)) == [kept]
    assert len(games(a)[kept][1]) == 2


def test_renames_and_statistics_choices_follow(couch_server: CouchServer, database: str) -> None:
    a, b = AppData(Store.in_memory()), AppData(Store.in_memory())
    store_helpers.put(a.store, transamerica([R1, R2]), created=CREATED)
    left_out = store_helpers.put(a.store, transamerica([R1, R2]), created=CREATED + 60)
    synced(couch_server, database, a.store, b.store)
    stats.rename_player(a.store, "Bob", "Rob")
    a.set_counted(next(s for s in a.finished() if s.id == left_out), False)
    a.store.rename(left_out, "Practice")
    synced(couch_server, database, a.store, b.store)
    assert stats.read_aliases(b.store) == {"bob": "Rob"}
    assert b.statistics() == a.statistics() and b.statistics().plays == 1
    assert b.player_page("Rob") == a.player_page("Rob")
    assert [s.title for s in b.store.sessions() if s.id == left_out] == ["Practice"]
    stats.rename_player(b.store, "Rob", "Bob")  # undone on the other device: undone here too
    synced(couch_server, database, b.store, a.store)
    assert stats.read_aliases(a.store) == stats.read_aliases(b.store) == {"rob": "Bob"}
    assert a.player_page("Bob") == b.player_page("Bob") and a.player_page("Bob").plays == 1  # type: ignore[union-attr]


def test_a_game_the_rules_refuse_on_the_server_is_named_and_never_written(
    couch_server: CouchServer, database: str
) -> None:
    a, b = Store.in_memory(), Store.in_memory()
    game = store_helpers.put(a, transamerica([R1]), created=CREATED)
    synced(couch_server, database, a)
    doc = couch_server.call("GET", f"/{database}/game:{game}")
    doc["game"]["events"].append({"type": "end_round", "missing": {"Ann": 3, "Bob": 3, "Cy": 3}})  # nobody finished
    doc["game"]["cursor"] = 2
    assert couch_server.call("PUT", f"/{database}/game:{game}", doc).get("ok")
    report = sync_round(b, Couch(couch_server.url, database))
    assert games(b) == {} and len(report.refused) == 1
    assert "must have 0 segments missing" in report.refused[0].text()


@pytest.mark.parametrize(
    "doc",
    [
        {"kind": "game", "format": 1, "game": "not a game"},
        {"kind": "game", "format": 1, "game": {"id": "x"}, "counted": "yes"},
        {"kind": "game", "format": 99, "game": {}},
        {"kind": "alias", "name": 7},
    ],
)
def test_documents_of_the_wrong_shape_are_named_and_change_nothing(
    couch_server: CouchServer, database: str, doc: dict[str, Any]
) -> None:
    store = Store.in_memory()
    sync_round(store, Couch(couch_server.url, database))  # the database, marked as Companion's
    doc_id = "alias:bob" if doc["kind"] == "alias" else "game:0123456789abcdef"
    couch_server.call("PUT", f"/{database}/{doc_id}", doc)
    report = sync_round(store, Couch(couch_server.url, database))
    assert len(report.refused) == 1 and games(store) == {} and stats.read_aliases(store) == {}


def test_a_database_holding_something_else_is_refused_in_a_sentence(couch_server: CouchServer, database: str) -> None:
    couch_server.call("PUT", f"/{database}")
    couch_server.call("PUT", f"/{database}/invoice-1", {"total": 12})
    store = Store.in_memory()
    store_helpers.put(store, transamerica([R1]), created=CREATED)
    with pytest.raises(SyncError) as caught:
        sync_round(store, Couch(couch_server.url, database))
    assert str(caught.value) == (
        f"The database {database} on 127.0.0.1:{couch_server.port} holds something other "
        "than Companion's games: choose another database."
    )
    assert couch_server.call("GET", f"/{database}")["doc_count"] == 1


def test_no_server_is_one_sentence_and_the_games_stay_as_they_are(tmp_path: Any) -> None:
    store = Store.in_memory()
    game = store_helpers.put(store, transamerica([R1]), created=CREATED)
    with pytest.raises(SyncError) as caught:
        sync_round(store, Couch(f"http://127.0.0.1:{free_port()}", "games"))
    assert str(caught.value).startswith("The server 127.0.0.1:") and "nothing listens at that address" in str(
        caught.value
    )
    assert list(games(store)) == [game]


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://couch.example.org:5984", "couch.example.org:5984 is not encrypted"),
        ("ftp://192.168.1.5", "is not the address of a server"),
        ("https://", "is not the address of a server"),
    ],
)
def test_an_address_that_is_not_encrypted_beyond_the_local_network_is_refused(url: str, said: str) -> None:
    with pytest.raises(SyncError) as caught:
        Couch(url, "games")
    assert said in str(caught.value)


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:5984", "http://192.168.1.20:5984", "http://nas.local:5984", "https://couch.example.org"]
)
def test_http_is_taken_on_this_device_and_the_local_network(url: str) -> None:
    assert Couch(url, "games").server


def test_conflicting_revisions_on_the_server_are_resolved_the_same_way_by_any_device(
    couch_server: CouchServer, database: str
) -> None:
    a, b = Store.in_memory(), Store.in_memory()
    game = store_helpers.put(a, transamerica([R1]), created=CREATED)
    synced(couch_server, database, a, b)
    doc = couch_server.call("GET", f"/{database}/game:{game}")
    branches = []
    for last, tag in ((R2, "aaaa"), (R2_OTHER, "bbbb")):  # two replicas wrote on the same revision
        branch = json.loads(json.dumps(doc))
        branch["game"]["events"].append({"type": "end_round", "missing": last})
        branch["game"]["cursor"] = 2
        number = int(doc["_rev"].split("-")[0]) + 1
        branch["_rev"] = f"{number}-{tag * 8}"
        branch["_revisions"] = {"start": number, "ids": [tag * 8, doc["_rev"].split("-")[1]]}
        branches.append(branch)
    couch_server.call("POST", f"/{database}/_bulk_docs", {"docs": branches, "new_edits": False})
    assert couch_server.call("GET", f"/{database}/game:{game}?conflicts=true").get("_conflicts")
    synced(couch_server, database, a, b, rounds=2)
    assert games(a) == games(b) and len(games(a)) == 2
    assert not couch_server.call("GET", f"/{database}/game:{game}?conflicts=true").get("_conflicts")


def test_a_game_open_here_waits_for_the_next_round_even_when_it_was_deleted_elsewhere(
    couch_server: CouchServer, database: str
) -> None:
    a, b = Store.in_memory(), Store.in_memory()
    game = store_helpers.put(a, transamerica([R1]), created=CREATED)
    synced(couch_server, database, a, b)
    b.open(game)  # on a screen at the other device
    a.delete(game)
    sync_round(a, Couch(couch_server.url, database))
    waited = sync_round(b, Couch(couch_server.url, database))
    assert waited.waiting == 1 and list(games(b)) == [game]  # nothing taken away under the table's fingers
    b.close_session(game)
    done = sync_round(b, Couch(couch_server.url, database))
    assert done.deleted == 1 and games(b) == {}

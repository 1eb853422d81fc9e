"""A server that fails, lies or goes away: every fault of sync is one sentence, the games here
stay as they were, and the next round takes up where the cut one stopped."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
import store_helpers
from couch_helpers import CouchServer

from companion.session import Session
from companion.store import Store
from companion.sync import couch as couch_module
from companion.sync.couch import Couch, SyncError, urllib_transport
from companion.sync.engine import sync_round

CREATED = 1_700_000_000.0


def game(number: int) -> Session:
    session = Session.new("transamerica", ["Ann", "Bob"])
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": number % 13}})
    return session


def folder_with(games: int) -> Store:
    store = Store.in_memory()
    for number in range(games):
        store_helpers.put(store, game(number), created=CREATED + number)
    return store


def answering(*answers: tuple[int, Any]) -> Any:
    """A server that gives these answers in turn (bytes as they are, anything else as JSON)."""
    queue = list(answers)

    def transport(
        method: str, url: str, headers: Mapping[str, str], body: bytes | None, timeout: float
    ) -> tuple[int, bytes]:
        status, answer = queue.pop(0) if len(queue) > 1 else queue[0]
        return status, answer if isinstance(answer, bytes) else json.dumps(answer).encode()

    return transport


WELCOME_DB = (200, {"db_name": "games", "doc_count": 0})


@pytest.mark.parametrize(
    ("answers", "said"),
    [
        ([(401, {"error": "unauthorized"})], "refused the user name or the password"),
        ([(500, b"<html>oops</html>")], "failed (HTTP 500); sync will try again"),
        ([(200, b"<html>a captive portal</html>")], "does not answer as CouchDB does (its answer is not JSON)"),
        ([(200, ["not", "a", "database"])], "does not answer as CouchDB does"),
        (
            [
                WELCOME_DB,
                (404, {"error": "not_found"}),
                WELCOME_DB,
                (201, [{"ok": True, "id": "companion", "rev": "1-a"}]),
                (200, {"results": "many", "last_seq": 3}),
            ],
            "its list of changes is not one",
        ),
        (
            [WELCOME_DB, (404, {"error": "not_found"}), WELCOME_DB, (507, {"error": "insufficient_storage"})],
            "is full: it takes nothing more",
        ),
        ([(200, b"[" * 100_000)], "its answer is not JSON"),
    ],
)
def test_a_server_that_fails_or_lies_is_one_sentence_and_nothing_here_changes(
    answers: list[tuple[int, Any]], said: str
) -> None:
    store = folder_with(2)
    before = [(s.id, s.title, s.updated) for s in store.sessions()]
    with pytest.raises(SyncError) as caught:
        sync_round(store, Couch("http://127.0.0.1:5984", "games", transport=answering(*answers)))
    assert said in str(caught.value) and "\n" not in str(caught.value)
    assert [(s.id, s.title, s.updated) for s in store.sessions()] == before


def test_an_answer_too_big_is_refused_before_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(couch_module, "MAX_ANSWER_BYTES", 1_000)
    with pytest.raises(SyncError) as caught:
        Couch("http://127.0.0.1:5984", "games", transport=answering((200, b" " * 2_000))).welcome()
    assert "sent more than 0 MB at once; none of it was taken" in str(caught.value)


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (TimeoutError("timed out"), "it took too long"),
        (ConnectionRefusedError(111, "refused"), "nothing listens at that address"),
        (ConnectionResetError(104, "reset"), "the connection was cut"),
    ],
)
def test_no_answer_says_why_in_words(error: OSError, said: str) -> None:
    def transport(*_: Any) -> tuple[int, bytes]:
        raise error

    with pytest.raises(SyncError) as caught:
        Couch("http://127.0.0.1:5984", "games", transport=transport).welcome()
    assert str(caught.value) == f"The server 127.0.0.1:5984 did not answer ({said})."


def test_a_round_cut_by_a_server_that_goes_away_is_taken_up_by_the_next(
    couch_server: CouchServer, database: str
) -> None:
    a, b = folder_with(250), Store.in_memory()
    calls = [0]

    def going_away(
        method: str, url: str, headers: Mapping[str, str], body: bytes | None, timeout: float
    ) -> tuple[int, bytes]:
        calls[0] += 1
        if calls[0] > 7:  # the server stopped after the first batch of games
            raise ConnectionRefusedError(111, "refused")
        return urllib_transport(method, url, headers, body, timeout)

    with pytest.raises(SyncError):
        sync_round(a, Couch(couch_server.url, database, transport=going_away))
    on_server = couch_server.call("GET", f"/{database}/_all_docs")["rows"]
    assert 0 < len(on_server) - 1 < 250  # the marker, and the batches sent before it went
    for store in (a, b, a):
        sync_round(store, Couch(couch_server.url, database))
    assert sorted(s.id for s in b.sessions()) == sorted(s.id for s in a.sessions())
    assert len(b.sessions()) == 250
    assert couch_server.call("GET", f"/{database}")["doc_count"] == 251


def test_a_wrong_password_on_a_real_server_is_said_and_the_password_never_shown(
    couch_server: CouchServer, database: str
) -> None:
    def refusing(
        method: str, url: str, headers: Mapping[str, str], body: bytes | None, timeout: float
    ) -> tuple[int, bytes]:
        assert headers["Authorization"].startswith("Basic ")  # sent to the server, and only there
        return 401, b'{"error":"unauthorized","reason":"Name or password is incorrect."}'

    with pytest.raises(SyncError) as caught:
        sync_round(Store.in_memory(), Couch(couch_server.url, database, "ann", "s3cret!", transport=refusing))
    assert "s3cret" not in str(caught.value) and "refused the user name or the password" in str(caught.value)


def test_a_first_sync_says_how_far_it_is(couch_server: CouchServer, database: str) -> None:
    a, b = folder_with(250), Store.in_memory()
    sync_round(a, Couch(couch_server.url, database))
    steps: list[tuple[str, int, int]] = []
    sync_round(b, Couch(couch_server.url, database), progress=lambda *step: steps.append(step))
    taking = [(done, total) for stage, done, total in steps if stage == "taking"]
    assert taking[0][0] > 0 and taking[-1][0] >= 250 and all(done <= total for done, total in taking)
    assert [done for done, _ in taking] == sorted(done for done, _ in taking)


def test_the_app_keeps_working_and_says_the_fault_while_the_server_is_away(tmp_path: Any) -> None:
    from companion.sync.service import SyncService
    from companion.sync.settings import SyncSettings, write_settings

    store = folder_with(1)
    write_settings(store.folder, SyncSettings("http://127.0.0.1:5984", "games", last_ok=1_700_000_000.0))

    def away(*_: Any) -> tuple[int, bytes]:
        raise ConnectionRefusedError(111, "refused")

    service = SyncService(store, transport=away)
    assert service.round_now(SyncSettings("http://127.0.0.1:5984", "games")) is None
    status = service.status
    assert status.on and status.last_ok == 1_700_000_000.0 and not status.busy
    assert status.fault is not None and status.fault.text() == (
        "The server 127.0.0.1:5984 did not answer (nothing listens at that address)."
    )
    store_helpers.put(store, game(5), created=CREATED + 5)  # the table plays on meanwhile
    assert len(store.sessions()) == 2


def test_nothing_is_sent_anywhere_until_sync_is_set_up() -> None:
    from companion.app.data import AppData

    asked: list[str] = []

    def watching(method: str, url: str, *_: Any) -> tuple[int, bytes]:
        asked.append(url)
        return 200, b"{}"

    data = AppData(folder_with(2))
    data.sync.transport = watching
    data.sync.start()
    data.sync.poke()
    session = data.new("transamerica", ["Ann", "Bob"], {})
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 2}})
    assert asked == [] and not data.sync.status.on


@pytest.mark.parametrize("doc_id", ["game:../../escape", "game:", "game:UPPER", "game:a/b", "alias:"])
def test_a_document_named_to_reach_outside_the_data_folder_is_never_written(
    couch_server: CouchServer, database: str, doc_id: str, tmp_path: Any
) -> None:
    from companion.store import Store as DiskStore

    store = DiskStore(tmp_path / "data")
    sync_round(store, Couch(couch_server.url, database))
    good = folder_with(1)
    entry = json.loads(archive_json(good))["sessions"][0]
    couch_server.call(
        "POST",
        f"/{database}/_bulk_docs",
        {
            "docs": [
                {
                    "_id": doc_id,
                    "kind": "game",
                    "format": 1,
                    "game": entry,
                    "counted": None,
                    "copy_of": None,
                    "titled": None,
                }
            ]
        },
    )
    report = sync_round(store, Couch(couch_server.url, database))
    assert len(report.refused) == 1 and len(store.sessions()) == 0
    assert [path.name for path in tmp_path.iterdir()] == ["data"]  # nothing written beside the data folder
    assert not list((tmp_path / "data").glob("sessions/*"))
    store.close()


def archive_json(store: Store) -> bytes:
    from companion.aftergame.archive import export_json

    return export_json(store)


def test_the_password_goes_to_the_system_keyring_where_there_is_one(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys
    import types

    from companion.sync import settings as sync_settings

    kept: dict[tuple[str, str], str] = {}

    class Backend:
        pass

    fake = types.ModuleType("keyring")
    fake.get_keyring = Backend  # type: ignore[attr-defined]
    fake.set_password = lambda service, account, password: kept.__setitem__((service, account), password)  # type: ignore[attr-defined]
    fake.get_password = lambda service, account: kept.get((service, account))  # type: ignore[attr-defined]
    fake.delete_password = lambda service, account: kept.pop((service, account))  # type: ignore[attr-defined]
    backends = types.ModuleType("keyring.backends")
    failing = types.ModuleType("keyring.backends.fail")
    failing.Keyring = type("Keyring", (), {})  # type: ignore[attr-defined]
    backends.fail = failing  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "keyring", fake)
    monkeypatch.setitem(sys.modules, "keyring.backends", backends)
    monkeypatch.setitem(sys.modules, "keyring.backends.fail", failing)

    store = Store(tmp_path / "data")
    sync_settings.write_password(store.folder, "in-the-keyring")
    assert list(kept.values()) == ["in-the-keyring"]
    assert b"in-the-keyring" not in (tmp_path / "data" / sync_settings.SECRET).read_bytes()
    assert sync_settings.read_password(store.folder) == "in-the-keyring"
    sync_settings.forget(store.folder)
    assert kept == {} and not (tmp_path / "data" / sync_settings.SECRET).exists()
    monkeypatch.setitem(sys.modules, "keyring", None)  # no keyring: the file, this user's only
    sync_settings.write_password(store.folder, "in-the-file")
    assert sync_settings.read_password(store.folder) == "in-the-file"
    store.close()


def test_sync_turned_off_while_a_round_runs_stays_off_and_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    """The round in flight ends after the tap on Turn off: it does not write the server's
    address back (the next start would try it again) nor say sync is on."""
    from companion.sync import service as service_module
    from companion.sync.engine import RoundReport
    from companion.sync.settings import SETTINGS, SyncSettings, read_settings, write_password, write_settings

    store = folder_with(1)
    settings = SyncSettings("http://127.0.0.1:5984", "games")
    write_settings(store.folder, settings)
    write_password(store.folder, "pw")
    service = service_module.SyncService(store)

    def round_cut_by_the_tap(*_: Any) -> RoundReport:
        service.turn_off()  # the page's tap, while the round's requests are out
        return RoundReport(sent=1)

    monkeypatch.setattr(service_module, "sync_round", round_cut_by_the_tap)
    assert service.round_now(settings) is not None
    assert read_settings(store.folder) is None and not store.folder.exists(SETTINGS)
    assert not service.status.on and not service.status.busy

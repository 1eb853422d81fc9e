"""The home screen: games in progress (one tap resumes), finished ones, deleting with a
confirmation, what it says about files it could not read, and hundreds of games drawn a
page at a time with a search."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from app_helpers import app_screen, memory_app, notice, start_game, table
from archive_helpers import build
from flet_harness import Screen
from rules_helpers import to_scoring

from companion.app.data import AppData
from companion.store import Store
from companion.store.storage import MemoryFolder, decode, encode


def ids_by_game(data: AppData) -> dict[str, str]:
    return {summary.game: summary.id for summary in data.sessions()}


async def finish_transamerica(screen: Screen, loser: str) -> None:
    await screen.tap("end-round")
    await screen.type(f"missing-{loser.lower()}-typed", "13")
    await screen.tap("save-round")


@table
async def test_no_games_yet() -> None:
    async with app_screen() as screen:
        assert screen.texts() == [
            "Companion",
            "No games yet. Start one below; every tap is saved as you play.",
            "+ New game",
        ]
        assert not screen.exists("quarantined")


@table
async def test_in_progress_first_with_status_lines_then_finished_with_winners() -> None:
    data = memory_app()
    async with app_screen(data) as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob"])
        await finish_transamerica(screen, "Bob")
        await screen.tap("back")
        await start_game(screen, "transamerica", ["Kim", "Lou"])
        await screen.tap("end-round")
        await screen.tap("save-round")  # nobody missed anything
        await screen.tap("back")
        await start_game(screen, "great_plains", ["Léa", "Tom"])
        await screen.tap("back")
        await start_game(screen, "heartland", ["Ann", "Bob", "Cy"])
        await screen.tap("move-cash-2")
        await screen.tap("discard")
        await screen.tap("end-turn")
        await screen.tap("back")

        ids = {(s.game, s.players): s.id for s in data.sessions()}
        heartland = ids[("heartland", ("Ann", "Bob", "Cy"))]
        plains = ids[("great_plains", ("Léa", "Tom"))]
        finished = ids[("transamerica", ("Ann", "Bob"))]
        countdown = ids[("transamerica", ("Kim", "Lou"))]
        shown = screen.texts()
        assert shown.index("In progress") < shown.index("Heartland · Ann, Bob and Cy") < shown.index("Finished")
        assert shown.index("Finished") < shown.index("TransAmerica · Ann and Bob")
        assert screen.text_of(f"status-{heartland}") == "Bob's turn · $5 / $40"
        assert screen.text_of(f"status-{plains}") == "Léa's turn · tokens 0/40"
        assert screen.text_of(f"status-{countdown}") == "Round 2 · lowest: Kim 13"
        assert screen.text_of(f"status-{finished}") == "Ann won with 13 points"
        today = date.today()
        assert screen.text_of(f"when-{heartland}") == f"last played {today:%B} {today.day}, {today.year} (just now)"

        # One tap resumes a game where it was.
        await screen.tap(f"session-{heartland}")
        assert screen.text_of("subtitle") == "Round 1 · Bob's turn"
        assert screen.text_of("money-ann") == "$2"
        assert screen.text_of("last-act") == "Last: Ann ended the turn; Bob plays"
        await screen.tap("back")
        await screen.tap(f"session-{finished}")
        assert screen.text_of("winner") == "Ann wins with 13 points"


@table
async def test_a_shared_win_on_the_home_screen() -> None:
    data = memory_app()
    async with app_screen(data) as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob", "Cy"])
        await finish_transamerica(screen, "Cy")
        await screen.tap("back")
        (summary,) = data.sessions()
        assert screen.text_of(f"status-{summary.id}") == "Ann and Bob shared the win with 13 points"


@table
async def test_delete_asks_first_keep_cancels() -> None:
    data = memory_app()
    async with app_screen(data) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("back")
        await start_game(screen, "transamerica", ["Eve", "Kim"])
        await screen.tap("back")
        ids = ids_by_game(data)
        doomed = ids["heartland"]

        await screen.tap(f"delete-{doomed}")
        assert screen.text_of(f"card-{doomed}").startswith("Delete Heartland · Ann and Bob? This cannot be undone.")
        assert not screen.exists(f"delete-{doomed}")
        await screen.tap(f"keep-{doomed}")
        assert not screen.exists(f"confirm-delete-{doomed}")
        assert len(data.sessions()) == 2

        await screen.tap(f"delete-{doomed}")
        await screen.tap(f"confirm-delete-{doomed}")
        assert notice(screen) == "The game was deleted."
        assert not screen.exists(f"session-{doomed}")
        assert screen.exists(f"session-{ids['transamerica']}")
        assert [summary.game for summary in data.sessions()] == ["transamerica"]

        await screen.tap(f"delete-{ids['transamerica']}")
        await screen.tap(f"confirm-delete-{ids['transamerica']}")
        assert screen.exists("empty")


@table
async def test_damaged_files_are_set_aside_and_said_so(tmp_path: Path) -> None:
    Store(tmp_path).close()
    (tmp_path / "sessions" / "damaged-game.json").write_bytes(b'{"session": {"1": {"game": "heartl')
    data = AppData(Store(tmp_path))
    async with app_screen(data) as screen:
        assert screen.text_of("quarantined") == (
            "1 saved game file could not be read and was set aside in the quarantine folder; every other game is here."
        )
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("back")
        assert screen.exists("quarantined")
        assert "In progress" in screen.texts()
    assert any((tmp_path / "quarantine").iterdir())


@table
async def test_a_game_open_in_another_window_is_refused_in_words(tmp_path: Path) -> None:
    data = AppData(Store(tmp_path))
    async with app_screen(data) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("back")
        (summary,) = data.sessions()
        other = Store(tmp_path)  # another process playing the same game
        other.open(summary.id)
        try:
            await screen.tap(f"session-{summary.id}")
            assert notice(screen) == "This game is open in another window. Close it there first."
            assert screen.exists("new-game")  # still on the home screen
        finally:
            other.close()
        await screen.tap(f"session-{summary.id}")
        assert screen.text_of("subtitle") == "Round 1 · Ann's turn"


@table
async def test_deleting_a_game_open_in_another_window_is_refused_in_words(tmp_path: Path) -> None:
    data = AppData(Store(tmp_path))
    async with app_screen(data) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("back")
        (summary,) = data.sessions()
        other = Store(tmp_path)
        other.open(summary.id)
        try:
            await screen.tap(f"delete-{summary.id}")
            await screen.tap(f"confirm-delete-{summary.id}")
            assert notice(screen) == "This game is open on another screen; close it there before deleting it."
            assert screen.text_of(f"status-{summary.id}") == "Ann's turn · $5 / $50"
        finally:
            other.close()


@table
async def test_a_game_another_tab_is_playing_cannot_be_deleted_from_under_it() -> None:
    data = memory_app()
    async with app_screen(data) as playing_tab:
        await start_game(playing_tab, "heartland", ["Ann", "Bob"])
        async with app_screen(data) as other_tab:
            assert other_tab.text_of("subtitle") == "Round 1 · Ann's turn"  # the last open game
            await other_tab.tap("back")
            (summary,) = data.sessions()
            await other_tab.tap(f"delete-{summary.id}")
            await other_tab.tap(f"confirm-delete-{summary.id}")
            assert notice(other_tab) == "This game is open on another screen; close it there before deleting it."
        await playing_tab.tap("move-cash-1")
        assert notice(playing_tab) is None
        assert playing_tab.text_of("money-ann") == "$4"


@table
async def test_finished_games_show_their_result_and_the_oldest_wait_behind_a_tap() -> None:
    data = memory_app()
    for number in range(12):
        session = data.new("transamerica", ["Ann", f"Guest {number}"], {})
        session.apply({"type": "end_round", "missing": {"Ann": 0, f"Guest {number}": 13}})
        data.close_session(session.id or "")
    plains = data.new("great_plains", ["Léa", "Tom"], {})
    to_scoring(plains)
    plains.apply({"type": "zone", "spaces": 6, "water": 1, "tokens": {"Léa": 3, "Tom": 2}})
    plains.apply({"type": "scoring_done"})
    data.close_session(plains.id or "")
    async with app_screen(data) as screen:
        assert screen.text_of(f"status-{plains.id}") == "Léa won 7–0"
        assert screen.text_of("more-finished") == "Show 3 older finished games"
        assert "TransAmerica · Ann and Guest 0" not in screen.texts()
        await screen.tap("more-finished")
        assert "TransAmerica · Ann and Guest 0" in screen.texts()
        assert "Ann won with 13 points" in screen.texts()


@table
async def test_games_saved_by_a_newer_version_are_announced_and_kept() -> None:
    store = Store.in_memory()
    session = store.new("heartland", ["Ann", "Bob"])
    store.close()
    name = f"sessions/{session.id}.json"
    document = decode(store.folder.read(name) or b"")
    document["session"]["1"]["format"] = 7
    store.folder.write(name, encode(document))
    store.folder.remove("index.json")
    async with app_screen(AppData(Store.in_memory(store.folder))) as screen:
        assert screen.text_of("newer") == (
            "1 saved game was made by a newer version of Companion: update the app to see it. Nothing was changed."
        )


@table
async def test_thousands_of_games_are_drawn_a_page_at_a_time_newest_unfinished_first() -> None:
    folder = MemoryFolder()
    made = build(folder, 600, unfinished_every=3)  # 200 unfinished, 400 finished
    playing = [session_id for session_id, kind in reversed(made) if not kind.session.is_over]
    over = [session_id for session_id, kind in reversed(made) if kind.session.is_over]
    data = AppData(Store.in_memory(folder))
    async with app_screen(data) as screen:

        def cards() -> list[str]:
            keys = map(str, screen.keys())
            return [key[len("session-") :] for key in keys if key.startswith("session-")]

        assert cards() == playing[:10] + over[:10]
        shown = screen.texts()
        assert shown.index("In progress") < shown.index("Finished")
        assert screen.text_of("more-in-progress") == "Show 10 of the 190 other games in progress"
        assert screen.text_of("more-finished") == "Show 10 of the 390 older finished games"
        assert screen.text_of(f"status-{playing[0]}") == dict(made)[playing[0]].entry["status"]

        def no_game_file(name: str) -> bytes | None:
            assert not name.startswith("sessions/"), f"{name} was read to draw Home"
            return real_read(name)

        real_read = folder.read
        folder.read = no_game_file  # type: ignore[method-assign]
        try:
            tapped = await screen.tap("more-in-progress")
            assert cards() == playing[:20] + over[:10]
            assert tapped.bytes_sent < 20_000  # ten more cards, not the whole list again
            await screen.tap("more-finished")
            assert cards() == playing[:20] + over[:20]
            await screen.type("search", "zoë")
            with_zoe = [session_id for session_id in playing if "Zoë" in dict(made)[session_id].session.players]
            assert cards()[: len(with_zoe[:10])] == with_zoe[:10]
            assert all("Zoë" in dict(made)[card].session.players for card in cards())
            await screen.type("search", "nobody here")
            assert cards() == [] and screen.text_of("no-match") == "No game matches “nobody here”."
            await screen.type("search", "")
            assert cards()[:10] == playing[:10]
        finally:
            folder.read = real_read  # type: ignore[method-assign]

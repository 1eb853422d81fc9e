"""A finished game looked back on from Home: its result again, the score over the game as a
chart with a legend in words, the whole log, Send to BG Stats; read without opening it."""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from app_helpers import add_players, memory_app, start_game, table
from flet_harness import Screen
from rules_helpers import to_scoring
from test_app_home import finish_transamerica

from companion.app import theme
from companion.app.data import AppData
from companion.app.main import make_main
from companion.store import Store, StoreError


def chart_values(screen: Screen) -> dict[str, list[float]]:
    """Each line of the chart as the y values it draws, by the player its legend names."""
    chart = screen.find("score-chart")
    names = [key[len("legend-") :] for key in map(str, screen.keys()) if key.startswith("legend-")]
    return {name: [point.y for point in line.points] for name, line in zip(names, chart.data_series, strict=True)}


async def open_finished_transamerica(screen: Screen, data: AppData) -> str:
    """From Home: Ann and Bob play one round of TransAmerica (Bob misses all 13), then its card is tapped."""
    await start_game(screen, "transamerica", ["Ann", "Bob"])
    await finish_transamerica(screen, "Bob")
    await screen.tap("back")
    (game_id,) = [summary.id for summary in data.finished()]
    await screen.tap(f"session-{game_id}")
    return game_id


async def finish_heartland(screen: Screen) -> None:
    """Ann fills up with corn and sells at the target; Bob and Cy play their last turns."""
    await start_game(screen, "heartland", ["Ann", "Bob", "Cy"])
    for load in ("load-corn-8", "load-cattle-2"):
        await screen.tap("move-fuel-1")
        await screen.tap("load")
        await screen.tap(load)
        await screen.tap("end-turn")
    await screen.tap("move-cash-2")
    await screen.tap("load")
    await screen.tap("load-pigs-1")
    await screen.tap("end-turn")
    await screen.tap("move-fuel-1")
    await screen.tap("unload")
    await screen.tap("price-5")
    await screen.tap("unload-corn-7")
    await screen.tap("end-turn")
    for _ in range(2):  # Bob and Cy have nothing to do: the table lets them pass
        await screen.tap("move-fuel-1")
        await screen.tap("end-turn")
        await screen.tap("record-anyway")
    assert screen.text_of("final-standings") == "Final standings"


@table
async def test_a_finished_transamerica_shows_its_result_chart_and_log_without_being_opened() -> None:
    data = memory_app()
    async with Screen(make_main(data)) as screen:
        game_id = await open_finished_transamerica(screen, data)

        assert screen.text_of("winner") == "Ann wins with 13 points"
        assert screen.text_of("rank-bob") == "2nd Bob"
        assert screen.text_of("legend-ann") == "Ann: 13"
        assert screen.text_of("legend-bob") == "Bob: 0"
        assert chart_values(screen) == {"ann": [13, 13], "bob": [13, 0]}
        assert screen.text_of("chart-caption").startswith("Points left after each round")
        assert screen.text_of("detail-log-1").startswith("1. ")
        assert not screen.exists("undo"), "looking back changes nothing"
        # Read, not opened: no window of this app holds the game.
        assert game_id not in data._users  # noqa: SLF001  (the app's count of pages holding a game)

        await screen.tap("back")
        assert screen.exists("new-game")


@table
async def test_heartland_chart_has_the_cargo_penalty_as_its_own_step() -> None:
    data = memory_app()
    async with Screen(make_main(data)) as screen:
        await finish_heartland(screen)
        await screen.tap("back")
        (game_id,) = [summary.id for summary in data.finished()]
        await screen.tap(f"session-{game_id}")
        assert screen.text_of("final-standings") == "Final standings"
        assert screen.text_of("rank-ann") == "1st Ann — winner"
        labels = [label.label.value for label in screen.find("score-chart").bottom_axis.labels]
        assert labels[0] == "Start" and labels[-1] == "Cargo"
        values = chart_values(screen)
        assert values["ann"][-2:] == [40, 39]  # $40 in hand, $1 for the corn still on the truck
        assert screen.text_of("legend-ann") == "Ann: $39"
        sides = [label.label.value for label in screen.find("score-chart").left_axis.labels]
        assert sides == ["$0", "$10", "$20", "$30", "$40"]
        assert screen.text_of("chart-caption") == ("Money after each round; the last step takes off the cargo penalty.")


@table
async def test_send_to_bg_stats_opens_the_play_in_bg_stats() -> None:
    data = memory_app()
    opened: list[str] = []

    def launch(_: Any, args: dict[str, Any]) -> None:
        opened.append(str(args["url"]))

    async with Screen(make_main(data), methods={"launch_url": launch}) as screen:
        await open_finished_transamerica(screen, data)
        await screen.tap("bgstats")
        await screen.settle()
    (url,) = opened
    prefix = "https://app.bgstatsapp.com/createPlay.html?data="
    assert url.startswith(prefix)
    play = json.loads(urllib.parse.unquote(url[len(prefix) :]))
    assert [(player["name"], player["winner"]) for player in play["players"]] == [("Ann", True), ("Bob", False)]


@table
async def test_send_to_bg_stats_where_no_browser_opens_says_so_with_the_link() -> None:
    def refuse(_: Any, __: Any) -> None:
        raise RuntimeError("no browser")

    data = memory_app()
    async with Screen(make_main(data), methods={"launch_url": refuse}) as screen:
        await open_finished_transamerica(screen, data)
        await screen.tap("bgstats")
        await screen.settle()
        assert screen.text_of("notice").startswith("BG Stats could not be opened here. The link: https://")


@table
async def test_open_the_game_from_its_detail_to_undo_its_last_act() -> None:
    data = memory_app()
    async with Screen(make_main(data)) as screen:
        await open_finished_transamerica(screen, data)
        await screen.tap("open-game")
        await screen.tap("undo")
        assert screen.exists("end-round"), "the game goes on"
        assert data.finished() == []


@table
async def test_a_game_that_cannot_be_read_says_why() -> None:
    data = memory_app()
    async with Screen(make_main(data)) as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob"])
        await finish_transamerica(screen, "Bob")
        await screen.tap("back")
        game_id = data.finished()[0].id
        data.store.folder.write(f"sessions/{game_id}.json", b"{broken")
        await screen.tap(f"session-{game_id}")
        assert screen.text_of("detail-problem")
        assert screen.exists("back")


@table
async def test_the_rules_open_from_the_result_and_close_back_onto_it() -> None:
    data = memory_app()
    async with Screen(make_main(data)) as screen:
        await open_finished_transamerica(screen, data)
        await screen.tap("rules-end")
        assert screen.exists("rules-panel")
        assert screen.text_of("panel-title") == "The rules of TransAmerica"
        await screen.tap("panel-close")
        assert not screen.exists("rules-panel")
        assert screen.text_of("legend-ann") == "Ann: 13"


@table
async def test_great_plains_chart_counts_points_zone_by_zone_in_french() -> None:
    data = memory_app()
    session = data.new("great_plains", ["Zoë", "Łukasz"], {})
    to_scoring(session)
    session.apply({"type": "zone", "spaces": 10, "water": 2, "tokens": {"Zoë": 5, "Łukasz": 3}})
    session.apply({"type": "zone", "spaces": 9, "water": 1, "tokens": {"Zoë": 1, "Łukasz": 4}})
    session.apply({"type": "scoring_done"})
    assert session.id is not None
    data.close_session(session.id)
    async with Screen(make_main(data)) as screen:
        await screen.tap("settings")
        await screen.tap("language-fr")
        await screen.tap("back")
        await screen.tap(f"session-{session.id}")
        assert chart_values(screen) == {"zoë": [0, 12, 12], "łukasz": [0, 0, 10]}
        labels = [label.label.value for label in screen.find("score-chart").bottom_axis.labels]
        assert labels == ["Début", "Z1", "Z2"]
        assert screen.text_of("legend-zoë") == "Zoë : 12"
        assert screen.text_of("chart-caption") == "Les points après chaque zone comptée."
        assert screen.exists("detail-log-49")  # every act: 6 caves, 40 tokens, 2 zones, the end of scoring


@table
async def test_the_end_screen_leads_to_the_detail_and_lets_the_game_go() -> None:
    data = memory_app()
    async with Screen(make_main(data)) as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob"])
        await finish_transamerica(screen, "Bob")
        (game_id,) = [summary.id for summary in data.finished()]
        assert game_id in data._users  # noqa: SLF001  (the end screen holds its game)
        await screen.tap("details")
        assert screen.text_of("legend-bob") == "Bob: 0"
        assert game_id not in data._users  # noqa: SLF001


@table
async def test_a_game_open_in_another_window_still_shows_its_detail(tmp_path: Path) -> None:
    here, elsewhere = AppData(Store(tmp_path / "data")), AppData(Store(tmp_path / "data"))
    session = here.new("transamerica", ["Ann", "Bob"], {})
    session.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 13}})
    assert session.id is not None
    here.close_session(session.id)
    elsewhere.open(session.id)  # another app on the same data folder holds the game
    with pytest.raises(StoreError):  # so it could not be opened here
        here.open(session.id)
    async with Screen(make_main(here)) as screen:
        await screen.tap(f"session-{session.id}")
        assert screen.text_of("legend-bob") == "Bob: 0"
        assert screen.text_of("detail-log-1").startswith("1. Round 1 ended")
    elsewhere.close_session(session.id)


@table
async def test_a_great_plains_player_keeps_the_tribes_colour_in_the_game_the_chart_and_the_set_up() -> None:
    data = memory_app()
    session = data.new("great_plains", ["Léa", "Tom"], {"fox": "Tom"})  # Léa sits first but plays the Snake
    to_scoring(session)
    session.apply({"type": "zone", "spaces": 6, "water": 1, "tokens": {"Léa": 3, "Tom": 1}})
    assert session.id is not None
    data.close_session(session.id)
    fox, snake = theme.seat_colour(4, dark=False), theme.seat_colour(1, dark=False)  # orange, blue
    async with Screen(make_main(data)) as screen:
        await screen.tap(f"session-{session.id}")  # still being scored: the game itself
        assert screen.find("tribe-snake").border.top.color == snake
        assert "Léa" in screen.text_of("tribe-snake")
        await screen.tap("scoring-done")
        await screen.tap("details")
        lines = {line.points[-1].tooltip.split()[0]: line.color for line in screen.find("score-chart").data_series}
        assert lines == {"Léa": snake, "Tom": fox}
        assert screen.text_of("zone-missed").startswith("A zone missed? Open the game, undo")  # no Undo here
        assert screen.find("legend-léa").color == snake and screen.find("legend-tom").color == fox
        await screen.tap("back")
        await screen.tap("new-game")
        await screen.tap("game-great_plains")
        await add_players(screen, ["Léa", "Tom"])
        await screen.tap("fox-tom")
        dots = {name: screen.find(f"player-{name}").controls[0].bgcolor for name in ("léa", "tom")}
        assert dots == {"léa": snake, "tom": fox}  # the set-up shows the colour the game will give

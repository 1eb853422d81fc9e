"""The Great Heartland Hauling Co., played through a Session the way a table would."""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import refused

from companion import RuleError, Session


def new_game(players: tuple[str, ...] = ("Ann", "Bob", "Cy"), **options: Any) -> Session:
    return Session.new("heartland", list(players), options=options)


def move(player: str, spaces: int = 1, pay: str = "fuel") -> dict[str, Any]:
    return {"type": "move", "player": player, "spaces": spaces, "pay": pay}


def tow(player: str) -> dict[str, Any]:
    return {"type": "tow", "player": player}


def load(player: str, cubes: int, good: str = "corn") -> dict[str, Any]:
    return {"type": "load", "player": player, "good": good, "cubes": cubes}


def unload(player: str, cubes: int, good: str = "corn", price: int = 1) -> dict[str, Any]:
    return {"type": "unload", "player": player, "good": good, "cubes": cubes, "price": price}


def discard(player: str, forced: bool = False) -> dict[str, Any]:
    return {"type": "discard", "player": player, "forced": forced}


def toll(player: str) -> dict[str, Any]:
    return {"type": "toll", "player": player}


def weigh_station(player: str) -> dict[str, Any]:
    return {"type": "weigh_station", "player": player}


def buy_upgrade(player: str, name: str, cost: int) -> dict[str, Any]:
    return {"type": "buy_upgrade", "player": player, "name": name, "cost": cost}


def adjust(player: str, amount: int, note: str = "miscounted change") -> dict[str, Any]:
    return {"type": "adjust", "player": player, "amount": amount, "note": note}


def end_turn(player: str) -> dict[str, Any]:
    return {"type": "end_turn", "player": player}


def turn(session: Session, player: str, *events: dict[str, Any]) -> None:
    for event in events:
        session.apply(event)
    session.apply(end_turn(player))


def money(session: Session, player: str) -> int:
    return next(standing.detail["money"] for standing in session.standings() if standing.player == player)


def standing_of(session: Session, player: str) -> Any:
    return next(standing for standing in session.standings() if standing.player == player)


# --- the money target --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rule", "target"),
    [
        (("Ann", "Bob"), "rulebook", 50),
        (("Ann", "Bob", "Cy"), "rulebook", 40),
        (("Ann", "Bob", "Cy", "Dee"), "rulebook", 40),
        (("Ann", "Bob"), "blog", 50),
        (("Ann", "Bob", "Cy"), "blog", 40),
        (("Ann", "Bob", "Cy", "Dee"), "blog", 30),
    ],
)
def test_the_target_follows_the_chosen_source_and_the_player_count(
    players: tuple[str, ...], rule: str, target: int
) -> None:
    session = new_game(players, target=rule)
    assert session.state.target == target
    assert session.state.target_rule == rule


def test_the_rulebook_target_is_the_default_and_a_table_may_set_its_own() -> None:
    assert new_game(("Ann", "Bob", "Cy", "Dee")).state.target == 40
    custom = new_game(("Ann", "Bob"), target=25)
    assert (custom.state.target, custom.state.target_rule) == (25, "custom")


def test_four_players_on_the_blog_target_stop_at_30_where_the_rulebook_plays_on() -> None:
    table = ("Ann", "Bob", "Cy", "Dee")
    for rule, triggered in (("blog", True), ("rulebook", False)):
        session = new_game(table, target=rule)
        turn(session, "Ann", move("Ann"), load("Ann", 5, "cattle"))
        turn(session, "Bob")
        turn(session, "Cy")
        turn(session, "Dee")
        session.apply(move("Ann"))
        session.apply(unload("Ann", 5, "cattle", price=6))
        assert money(session, "Ann") == 35
        assert (session.state.triggered_by == "Ann") is triggered


# --- a whole game ---------------------------------------------------------------------------


def test_ann_reaches_40_bob_and_cy_each_get_one_more_turn_then_the_game_ends() -> None:
    session = new_game()
    turn(session, "Ann", move("Ann", 2), load("Ann", 8, "corn"))
    turn(session, "Bob", move("Bob", 1, "cash"), load("Bob", 4, "cattle"))
    turn(session, "Cy", move("Cy", 3, "cash"), load("Cy", 2, "pigs"))
    assert [money(session, name) for name in ("Ann", "Bob", "Cy")] == [5, 4, 2]

    session.apply(move("Ann", 3))
    assert str(session.apply(unload("Ann", 8, "corn", price=5))) == "Ann unloaded 8 corn at $5 (+$40)"
    assert money(session, "Ann") == 45
    assert not session.is_over
    session.apply(end_turn("Ann"))

    assert session.current_player == "Bob"
    turn(session, "Bob", move("Bob"), unload("Bob", 4, "cattle", price=6))
    assert not session.is_over
    assert session.current_player == "Cy"
    session.apply(move("Cy"))
    session.apply(unload("Cy", 1, "pigs", price=3))
    assert str(session.apply(end_turn("Cy"))) == "Cy ended the last turn; the game is over"

    assert session.is_over
    assert session.current_player is None
    standings = session.standings()
    assert [(s.player, s.score, s.rank, s.winner) for s in standings] == [
        ("Ann", 45, 1, True),
        ("Bob", 28, 2, False),
        ("Cy", 3, 3, False),
    ]
    assert standings[2].detail["money"] == 5
    assert standings[2].detail["penalty"] == 2
    assert standings[2].detail["cubes"] == 1
    assert "game is over" in refused(session, move("Ann"))


def test_cy_triggers_from_the_last_seat_so_ann_and_bob_play_once_more() -> None:
    session = new_game(target=20)
    turn(session, "Ann")
    turn(session, "Bob")
    session.apply(move("Cy"))
    session.apply(adjust("Cy", 15, "sold to the co-op"))
    assert session.state.triggered_by == "Cy"
    session.apply(end_turn("Cy"))
    turn(session, "Ann")
    assert not session.is_over
    turn(session, "Bob")
    assert session.is_over
    assert session.standings()[0].player == "Cy"


def test_bob_triggers_mid_table_and_does_not_play_again() -> None:
    session = new_game(target=10)
    turn(session, "Ann")
    turn(session, "Bob", move("Bob"), load("Bob", 2, "soybeans"))
    turn(session, "Cy")
    turn(session, "Ann")
    turn(session, "Bob", move("Bob"), unload("Bob", 2, "soybeans", price=3))
    assert session.current_player == "Cy"
    turn(session, "Cy")
    assert session.current_player == "Ann"
    turn(session, "Ann")
    assert session.is_over
    assert "game is over" in refused(session, move("Bob"))


def test_reaching_the_target_in_the_final_round_does_not_extend_it() -> None:
    session = new_game(("Ann", "Bob"), target=10)
    turn(session, "Ann", move("Ann"), adjust("Ann", 5, "cash from the bank"))
    session.apply(move("Bob"))
    session.apply(adjust("Bob", 20, "big delivery"))
    session.apply(end_turn("Bob"))
    assert session.is_over
    assert [(s.player, s.winner) for s in session.standings()] == [("Bob", True), ("Ann", False)]


def test_a_correction_on_someone_elses_turn_waits_for_their_own_turn() -> None:
    session = new_game(target=20)
    session.apply(adjust("Bob", 15, "forgot a delivery"))
    assert session.state.triggered_by is None
    session.apply(end_turn("Ann"))
    assert session.state.triggered_by == "Bob"
    turn(session, "Bob")
    turn(session, "Cy")
    assert not session.is_over
    turn(session, "Ann")
    assert session.is_over


# --- moving -------------------------------------------------------------------------------


def test_cash_costs_a_dollar_a_space_and_fuel_costs_nothing() -> None:
    session = new_game()
    assert str(session.apply(move("Ann", 2, "cash"))) == "Ann moved 2 spaces for $2"
    assert money(session, "Ann") == 3
    session.apply(end_turn("Ann"))
    assert str(session.apply(move("Bob", 3, "fuel"))) == "Bob moved 3 spaces with fuel"
    assert money(session, "Bob") == 5


def test_ann_with_2_dollars_cannot_pay_3_in_cash() -> None:
    session = new_game()
    turn(session, "Ann", move("Ann", 3, "cash"))
    turn(session, "Bob")
    turn(session, "Cy")
    message = refused(session, move("Ann", 3, "cash"))
    assert "Ann has $2 and cannot pay $3" in message


@pytest.mark.parametrize("spaces", [0, 4, -1, True, 1.5, "2"])
def test_a_move_is_1_to_3_spaces(spaces: Any) -> None:
    message = refused(new_game(), move("Ann", spaces))
    assert "'spaces' must be a whole number from 1 to 3" in message


def test_one_move_and_one_action_per_turn_and_the_move_comes_first() -> None:
    session = new_game()
    session.apply(move("Ann"))
    assert "Ann has already moved this turn" in refused(session, move("Ann"))
    assert "already moved" in refused(session, tow("Ann"))
    session.apply(load("Ann", 2))
    assert "only one action per turn" in refused(session, unload("Ann", 1))
    assert "only one action per turn" in refused(session, discard("Ann"))


def test_an_action_may_be_recorded_without_a_move_but_not_before_it() -> None:
    session = new_game()
    session.apply(load("Ann", 2))
    assert "the move comes first" in refused(session, move("Ann"))


def test_only_the_current_player_acts() -> None:
    session = new_game()
    assert refused(session, move("Bob")) == "It is Ann's turn, not Bob's."
    assert "Ann's turn" in refused(session, end_turn("Cy"))


def test_a_turn_may_end_with_nothing_recorded() -> None:
    session = new_game()
    assert str(session.apply(end_turn("Ann"))) == "Ann ended the turn; Bob plays"
    assert session.current_player == "Bob"


# --- towing and discarding ------------------------------------------------------------------


def test_a_towed_player_with_nothing_left_discards_for_free() -> None:
    session = new_game(("Ann", "Bob"))
    turn(session, "Ann", move("Ann", 3, "cash"))
    turn(session, "Bob")
    turn(session, "Ann", move("Ann", 2, "cash"))
    turn(session, "Bob")
    assert money(session, "Ann") == 0
    assert str(session.apply(tow("Ann"))) == "Ann was towed to the Distribution Center"
    assert "must take the discard action" in refused(session, load("Ann", 1))
    assert "the discard is a forced one" in refused(session, discard("Ann", forced=False))
    assert str(session.apply(discard("Ann", forced=True))) == "Ann discarded for free (forced, with $0)"
    assert money(session, "Ann") == 0


def test_a_forced_discard_still_costs_a_dollar_when_the_player_has_one() -> None:
    session = new_game()
    session.apply(tow("Ann"))
    assert str(session.apply(discard("Ann", forced=True))) == "Ann discarded for $1"
    assert money(session, "Ann") == 4


def test_a_voluntary_discard_with_no_money_is_refused() -> None:
    session = new_game()
    session.apply(adjust("Ann", -5, "paid for fuel"))
    message = refused(session, discard("Ann"))
    assert "Ann has $0 and cannot pay $1 to discard" in message


def test_forced_must_be_true_or_false() -> None:
    assert "'forced' must be true or false, not 1" in refused(new_game(), discard("Ann", forced=1))  # type: ignore[arg-type]


# --- cargo ------------------------------------------------------------------------------------


def test_a_truck_carries_8_cubes() -> None:
    session = new_game()
    turn(session, "Ann", move("Ann"), load("Ann", 5, "corn"))
    turn(session, "Bob")
    turn(session, "Cy")
    session.apply(move("Ann"))
    message = refused(session, load("Ann", 4, "pigs"))
    assert message == "Ann's truck holds 5 of 8 cubes and cannot load 4 more."
    session.apply(load("Ann", 3, "pigs"))
    assert standing_of(session, "Ann").detail["cubes"] == 8


def test_short_haul_trucks_carry_6_cubes() -> None:
    session = new_game(short_haul=True)
    assert refused(session, load("Ann", 7)) == "Ann's truck holds 0 of 6 cubes and cannot load 7 more."
    session.apply(load("Ann", 6))
    assert standing_of(session, "Ann").detail["cubes"] == 6


def test_unloading_earns_the_price_for_every_cube() -> None:
    session = new_game()
    turn(session, "Ann", move("Ann"), load("Ann", 3, "corn"))
    turn(session, "Bob")
    turn(session, "Cy")
    session.apply(move("Ann"))
    assert refused(session, unload("Ann", 4, "corn", 4)) == "Ann carries 3 corn and cannot unload 4."
    assert "Ann carries 0 cattle" in refused(session, unload("Ann", 1, "cattle", 4))
    assert str(session.apply(unload("Ann", 3, "corn", 4))) == "Ann unloaded 3 corn at $4 (+$12)"
    assert money(session, "Ann") == 17


def test_only_the_four_goods_exist() -> None:
    message = refused(new_game(), load("Ann", 1, "wheat"))
    assert "corn, soybeans, cattle, pigs" in message
    assert "'wheat'" in message


# --- variants ---------------------------------------------------------------------------------


def test_tolls_and_weigh_stations_need_alternate_routes() -> None:
    session = new_game()
    session.apply(move("Ann"))
    assert "no toll road without the Alternate Routes" in refused(session, toll("Ann"))
    assert "no weigh station without the Alternate Routes" in refused(session, weigh_station("Ann"))


def test_a_toll_costs_a_dollar_and_a_weigh_station_a_dollar_per_cube_above_4() -> None:
    session = new_game(alternate_routes=True)
    turn(session, "Ann", move("Ann"), load("Ann", 6, "soybeans"))
    turn(session, "Bob")
    turn(session, "Cy")
    assert refused(session, toll("Ann")) == "Record Ann's move before the toll."
    session.apply(move("Ann", 3))
    assert str(session.apply(toll("Ann"))) == "Ann paid a $1 toll"
    session.apply(toll("Ann"))
    assert str(session.apply(weigh_station("Ann"))) == "Ann crossed a weigh station with 6 cubes ($2)"
    assert money(session, "Ann") == 1
    session.apply(unload("Ann", 2, "soybeans", 2))
    assert "paid while moving" in refused(session, toll("Ann"))
    session.apply(end_turn("Ann"))
    turn(session, "Bob", move("Bob"), weigh_station("Bob"))
    assert money(session, "Bob") == 5


def test_a_weigh_station_the_player_cannot_afford_is_refused() -> None:
    session = new_game(("Ann", "Bob"), alternate_routes=True)
    turn(session, "Ann", move("Ann"), load("Ann", 7), adjust("Ann", -4, "bought lunch"))
    turn(session, "Bob")
    session.apply(move("Ann"))
    message = refused(session, weigh_station("Ann"))
    assert message == "Ann carries 7 cubes and has $1: the weigh station costs $3."


def test_a_towed_truck_passes_no_toll() -> None:
    session = new_game(alternate_routes=True)
    session.apply(tow("Ann"))
    assert "Ann was towed this turn and passed no toll" in refused(session, toll("Ann"))


def test_truck_stops_sell_one_upgrade_per_player_and_each_upgrade_once() -> None:
    session = new_game(truck_stops=True)
    assert "record the move first" in refused(session, buy_upgrade("Ann", "Sleeper Cab", 3))
    session.apply(move("Ann"))
    assert str(session.apply(buy_upgrade("Ann", "Sleeper Cab", 3))) == "Ann bought the Sleeper Cab upgrade for $3"
    assert "Ann already owns the Sleeper Cab upgrade" in refused(session, buy_upgrade("Ann", "Big Tank", 1))
    session.apply(end_turn("Ann"))
    session.apply(move("Bob"))
    assert refused(session, buy_upgrade("Bob", "sleeper cab", 2)) == "Ann already owns the sleeper cab upgrade."
    assert "Bob has $5 and cannot pay $6 for Big Tank" in refused(session, buy_upgrade("Bob", "Big Tank", 6))
    session.apply(buy_upgrade("Bob", "Big Tank", 5))
    assert money(session, "Ann") == 2
    assert standing_of(session, "Bob").detail["upgrade"] == "Big Tank"


def test_a_towed_truck_is_at_no_truck_stop() -> None:
    session = new_game(truck_stops=True)
    session.apply(tow("Ann"))
    assert refused(session, buy_upgrade("Ann", "Sleeper Cab", 1)) == (
        "Ann was towed to the Distribution Center this turn, where there is no truck stop."
    )


def test_upgrades_need_the_truck_stops_expansion() -> None:
    session = new_game()
    session.apply(move("Ann"))
    assert "without the Truck Stops expansion" in refused(session, buy_upgrade("Ann", "Sleeper Cab", 1))


# --- corrections ------------------------------------------------------------------------------


def test_anyone_can_correct_anyone_s_money_at_any_time_but_not_below_zero() -> None:
    session = new_game()
    assert str(session.apply(adjust("Cy", 3, "found a bill"))) == "Cy +$3 (found a bill), now $8"
    assert str(session.apply(adjust("Bob", -2, "overpaid"))) == "Bob -$2 (overpaid), now $3"
    assert refused(session, adjust("Bob", -4)) == "Bob has $3; taking $4 would go below $0."
    assert "changes nothing" in refused(session, adjust("Bob", 0))
    assert "'note' must be a text" in refused(session, adjust("Bob", 1, "   "))
    assert session.current_player == "Ann"


# --- standings --------------------------------------------------------------------------------


def finish(session: Session, ann: list[dict[str, Any]], bob: list[dict[str, Any]]) -> None:
    """Ann triggers the end on her turn; Bob plays his last turn."""
    turn(session, "Ann", *ann)
    turn(session, "Bob", *bob)
    assert session.is_over


def test_cargo_costs_1_for_corn_and_soybeans_and_2_for_cattle_and_pigs_and_may_go_below_zero() -> None:
    session = new_game(("Ann", "Bob"), target=6)
    session.apply(load("Ann", 2, "corn"))
    session.apply(end_turn("Ann"))
    session.apply(load("Bob", 4, "pigs"))
    session.apply(adjust("Bob", -5, "fuel"))
    session.apply(end_turn("Bob"))
    finish(session, [move("Ann"), unload("Ann", 1, "corn", 2)], [move("Bob"), load("Bob", 1, "soybeans")])
    ann, bob = session.standings()
    assert (ann.player, ann.score, ann.detail["money"], ann.detail["penalty"], ann.detail["cubes"]) == (
        "Ann", 6, 7, 1, 1,
    )
    assert (bob.player, bob.score, bob.detail["penalty"], bob.detail["cubes"]) == ("Bob", -9, 9, 5)
    assert (ann.winner, bob.winner) == (True, False)


def test_equal_money_goes_to_the_player_with_fewer_cubes_left() -> None:
    session = new_game(("Ann", "Bob"), target=10)
    turn(session, "Ann", move("Ann"), load("Ann", 3, "corn"))
    turn(session, "Bob", move("Bob"), load("Bob", 7, "corn"))
    finish(session, [move("Ann"), unload("Ann", 2, "corn", 4)], [move("Bob"), unload("Bob", 7, "corn", 1)])
    assert [(s.player, s.score, s.detail["cubes"], s.rank, s.winner) for s in session.standings()] == [
        ("Bob", 12, 0, 1, True),
        ("Ann", 12, 1, 2, False),
    ]


def test_equal_money_and_equal_cubes_share_the_victory() -> None:
    session = new_game(("Ann", "Bob"), target=10)
    turn(session, "Ann", move("Ann"), load("Ann", 3, "corn"))
    turn(session, "Bob", move("Bob"), load("Bob", 3, "soybeans"))
    finish(session, [move("Ann"), unload("Ann", 2, "corn", 4)], [move("Bob"), unload("Bob", 2, "soybeans", 4)])
    assert [(s.player, s.score, s.rank, s.winner) for s in session.standings()] == [
        ("Ann", 12, 1, True),
        ("Bob", 12, 1, True),
    ]


def test_nobody_wins_before_the_game_is_over() -> None:
    session = new_game()
    session.apply(adjust("Bob", 10, "head start"))
    assert [s.player for s in session.standings()] == ["Bob", "Ann", "Cy"]
    assert not any(s.winner for s in session.standings())


# --- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target": "house"}, "'rulebook', 'blog' or a whole number"),
        ({"target": 0}, "not 0"),
        ({"target": True}, "not true"),
        ({"target": []}, "not []"),
        ({"target": 12.5}, "not 12.5"),
        ({"short_haul": "yes"}, "'short_haul' must be true or false"),
        ({"badlands": True}, "Unknown option 'badlands'"),
    ],
)
def test_unknown_or_malformed_options_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(RuleError) as caught:
        new_game(**options)
    assert words in str(caught.value)


@pytest.mark.parametrize("count", [1, 5])
def test_heartland_is_for_2_to_4_players(count: int) -> None:
    with pytest.raises(RuleError, match=f"2 to 4 players, not {count}"):
        new_game(tuple(f"P{n}" for n in range(count)))

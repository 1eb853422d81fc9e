"""The Great Heartland Hauling Co., played through a Session the way a table would."""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import fact_refuses, recorded_anyway, refused, table_refuses

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


def correct_cargo(player: str, cubes: int, good: str = "corn", note: str = "missed a load") -> dict[str, Any]:
    return {"type": "correct_cargo", "player": player, "good": good, "cubes": cubes, "note": note}


def end_game(note: str = "the pizza arrived") -> dict[str, Any]:
    return {"type": "end_game", "note": note}


def turn(session: Session, player: str, *events: dict[str, Any]) -> None:
    """The player's turn; one where nothing matters to the test passes with the table's leave."""
    for event in events:
        session.apply(event)
    acted = session.state.turn.action is not None
    session.apply(end_turn(player) if acted else {**end_turn(player), "override": True})


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
    turn(session, "Cy")
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
    turn(session, "Bob")
    assert session.is_over
    assert [(s.player, s.winner) for s in session.standings()] == [("Bob", True), ("Ann", False)]


def test_a_correction_on_someone_elses_turn_waits_for_their_own_turn() -> None:
    session = new_game(target=20)
    session.apply(adjust("Bob", 15, "forgot a delivery"))
    assert session.state.triggered_by is None
    turn(session, "Ann")
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
    turn(session, "Ann")
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


def test_a_turn_needs_an_action_unless_the_table_says_otherwise() -> None:
    session = new_game()
    session.apply(move("Ann"))
    with pytest.raises(RuleError) as caught:
        session.apply(end_turn("Ann"))
    assert str(caught.value) == (
        "Ann has not loaded, unloaded or discarded this turn; a player who cannot act is towed "
        "and discards (a forced discard, free with $0)."
    )
    assert caught.value.overridable
    assert refused(session, end_turn("Ann")).startswith("Ann has not loaded")
    sentence = session.apply({**end_turn("Ann"), "override": True})
    assert str(sentence) == (
        "Ann ended the turn; Bob plays — recorded against the rule: Ann has not loaded, unloaded or "
        "discarded this turn; a player who cannot act is towed and discards (a forced discard, free with $0)"
    )
    assert session.current_player == "Bob"
    assert session.events[-1] == {"type": "end_turn", "player": "Ann", "override": True}


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
    turn(session, "Ann")
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
        "Ann",
        6,
        7,
        1,
        1,
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


# --- rounds -----------------------------------------------------------------------------------


def test_turns_are_counted_in_rounds_of_one_turn_each() -> None:
    session = new_game()
    assert (session.state.round, session.current_player) == (1, "Ann")
    turn(session, "Ann")
    turn(session, "Bob")
    assert (session.state.round, session.current_player) == (1, "Cy")
    turn(session, "Cy")
    assert (session.state.round, session.current_player) == (2, "Ann")


def test_the_final_round_knows_who_is_still_to_play_and_when_the_last_turn_comes() -> None:
    session = new_game(target=10)
    turn(session, "Ann")
    session.apply(adjust("Bob", 6, "sold the farm"))
    turn(session, "Bob")
    assert session.state.final_round and session.state.final_round_players == ("Cy", "Ann")
    assert not session.state.last_turn
    turn(session, "Cy")
    assert (session.state.round, session.current_player, session.state.last_turn) == (2, "Ann", True)


# --- towing after a move ------------------------------------------------------------------------


def test_ann_moves_cannot_load_and_is_towed_the_move_stays_paid_and_she_discards() -> None:
    session = new_game()
    session.apply(move("Ann", 2, "cash"))
    assert str(session.apply(tow("Ann"))) == "Ann was towed to the Distribution Center"
    assert money(session, "Ann") == 3
    assert "must take the discard action" in refused(session, load("Ann", 1))
    assert "the discard is a forced one" in refused(session, discard("Ann"))
    assert str(session.apply(discard("Ann", forced=True))) == "Ann discarded for $1"
    turn(session, "Ann")
    assert money(session, "Ann") == 2


def test_a_player_with_nothing_left_is_towed_after_a_fuel_move_and_discards_for_free() -> None:
    session = new_game(("Ann", "Bob"))
    session.apply(adjust("Ann", -5, "spent it all"))
    session.apply(move("Ann", 3))
    session.apply(tow("Ann"))
    assert str(session.apply(discard("Ann", forced=True))) == "Ann discarded for free (forced, with $0)"


def test_a_tow_comes_before_the_action_and_only_once() -> None:
    session = new_game()
    session.apply(tow("Ann"))
    assert table_refuses(session, tow("Ann")) == "Ann has already been towed this turn."
    turn(session, "Ann", discard("Ann", forced=True))
    session.apply(move("Bob"))
    session.apply(discard("Bob"))
    assert table_refuses(session, tow("Bob")) == "Bob has already chosen to discard this turn; the move comes first."


# --- cargo corrections --------------------------------------------------------------------------


def test_a_missed_load_is_corrected_later_and_the_unload_goes_through() -> None:
    session = new_game()
    turn(session, "Ann", move("Ann"), load("Ann", 2, "pigs"))
    turn(session, "Bob")
    assert str(session.apply(correct_cargo("Ann", 3, "pigs", "forgot the second load"))) == (
        "Ann +3 pigs on the truck (forgot the second load), now 5 pigs"
    )
    assert session.current_player == "Cy"
    turn(session, "Cy")
    session.apply(move("Ann"))
    assert str(session.apply(unload("Ann", 5, "pigs", 4))) == "Ann unloaded 5 pigs at $4 (+$20)"


def test_any_player_corrects_any_truck_down_to_zero_but_not_below() -> None:
    session = new_game()
    session.apply(load("Ann", 3, "soybeans"))
    sentence = session.apply(correct_cargo("Ann", -2, "soybeans", "loaded corn, not soybeans"))
    assert str(sentence) == "Ann -2 soybeans on the truck (loaded corn, not soybeans), now 1 soybean"
    assert fact_refuses(session, correct_cargo("Ann", -2, "soybeans")) == (
        "Ann carries 1 soybean and cannot give back 2."
    )
    assert fact_refuses(session, correct_cargo("Bob", -1, "cattle")) == "Bob carries 0 cattle and cannot give back 1."
    assert fact_refuses(session, correct_cargo("Bob", 0)) == "A correction of 0 cubes changes nothing."
    assert "'note' must be a text" in refused(session, correct_cargo("Bob", 1, note=""))
    assert "'cubes' must be a whole number from -15 to 15, not 16" in refused(session, correct_cargo("Bob", 16))


def test_a_correction_past_the_truck_s_capacity_needs_the_table_s_word() -> None:
    session = new_game(short_haul=True)
    session.apply(load("Ann", 5))
    assert table_refuses(session, correct_cargo("Ann", 2, "cattle")) == (
        "Ann's truck holds 5 of 6 cubes and cannot carry 2 more."
    )
    assert recorded_anyway(session, correct_cargo("Ann", 2, "cattle", "Big Tank upgrade")) == (
        "Ann +2 cattle on the truck (Big Tank upgrade), now 2 cattle — recorded against the rule: "
        "Ann's truck holds 5 of 6 cubes and cannot carry 2 more"
    )
    assert standing_of(session, "Ann").detail["cubes"] == 7


def test_corrections_count_in_the_final_penalty() -> None:
    session = new_game(("Ann", "Bob"), target=6)
    session.apply(correct_cargo("Bob", 2, "cattle", "cubes left from the last game"))
    turn(session, "Ann", move("Ann"), adjust("Ann", 1, "found a dollar"))
    turn(session, "Bob")
    assert session.is_over
    assert [(s.player, s.score, s.detail["penalty"]) for s in session.standings()] == [("Ann", 6, 0), ("Bob", 1, 4)]
    assert "The game is over" in fact_refuses(session, correct_cargo("Bob", -2, "cattle"))


# --- what the table may overrule ----------------------------------------------------------------


def test_a_truck_stop_ability_lets_ann_load_past_capacity_and_act_twice() -> None:
    session = new_game()
    session.apply(move("Ann"))
    session.apply(load("Ann", 6))
    assert table_refuses(session, load("Ann", 3, "pigs")) == (
        "Ann has already chosen to load this turn; only one action per turn."
    )
    assert recorded_anyway(session, load("Ann", 3, "pigs")) == (
        "Ann loaded 3 pigs — recorded against the rule: Ann has already chosen to load this turn; "
        "only one action per turn; Ann's truck holds 6 of 8 cubes and cannot load 3 more"
    )
    assert standing_of(session, "Ann").detail["cubes"] == 9
    assert recorded_anyway(session, unload("Ann", 6, "corn", 1)).startswith("Ann unloaded 6 corn at $1 (+$6) — ")


def test_ann_moves_twice_and_moves_after_her_action_when_the_table_allows_it() -> None:
    session = new_game()
    session.apply(move("Ann", 1, "cash"))
    assert table_refuses(session, move("Ann", 2, "cash")) == "Ann has already moved this turn."
    assert recorded_anyway(session, move("Ann", 2, "cash")) == (
        "Ann moved 2 spaces for $2 — recorded against the rule: Ann has already moved this turn"
    )
    session.apply(discard("Ann"))
    assert table_refuses(session, move("Ann", 1, "fuel")) == "Ann has already moved this turn."
    assert recorded_anyway(session, move("Ann", 1, "fuel")) == (
        "Ann moved 1 space with fuel — recorded against the rule: Ann has already moved this turn; "
        "Ann has already chosen to discard this turn; the move comes first"
    )
    assert money(session, "Ann") == 1


@pytest.mark.parametrize(
    ("before", "event", "reason"),
    [
        ((), toll("Ann"), "Record Ann's move before the toll."),
        ((tow("Ann"),), toll("Ann"), "Ann was towed this turn and passed no toll."),
        ((move("Ann"), discard("Ann")), toll("Ann"), "Ann has already chosen to discard; a toll is paid while moving."),
        ((), weigh_station("Ann"), "Record Ann's move before the weigh station."),
        ((tow("Ann"),), weigh_station("Ann"), "Ann was towed this turn and passed no weigh station."),
        (
            (),
            buy_upgrade("Ann", "Big Tank", 1),
            "Ann buys an upgrade at the truck stop where a move ends: record the move first.",
        ),
        (
            (tow("Ann"),),
            buy_upgrade("Ann", "Big Tank", 1),
            "Ann was towed to the Distribution Center this turn, where there is no truck stop.",
        ),
    ],
)
def test_when_tolls_weigh_stations_and_upgrades_happen_is_the_table_s_call(
    before: tuple[dict[str, Any], ...], event: dict[str, Any], reason: str
) -> None:
    session = new_game(alternate_routes=True, truck_stops=True)
    for earlier in before:
        session.apply(earlier)
    assert table_refuses(session, event) == reason
    assert recorded_anyway(session, event).endswith(f" — recorded against the rule: {reason.rstrip('.')}")
    assert money(session, "Ann") < 5 or event["type"] == "weigh_station"


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        (move("Ann", 3, "cash"), "Ann has $0 and cannot pay $3 to move 3 spaces; pay with fuel, or be towed."),
        (unload("Ann", 1), "Ann carries 0 corn and cannot unload 1."),
        (discard("Ann"), "Ann has $0 and cannot pay $1 to discard; a forced discard with $0 is free."),
        (move("Bob"), "It is Ann's turn, not Bob's."),
        (adjust("Ann", -1), "Ann has $0; taking $1 would go below $0."),
        (toll("Ann"), "There is no toll road without the Alternate Routes variant."),
        (buy_upgrade("Ann", "Big Tank", 0), "There are no upgrades to buy without the Truck Stops expansion."),
        ({**move("Ann"), "spaces": 4}, "'spaces' must be a whole number from 1 to 3, not 4."),
    ],
)
def test_facts_are_never_overridden(event: dict[str, Any], reason: str) -> None:
    session = new_game()
    session.apply(adjust("Ann", -5, "spent at the diner"))
    assert fact_refuses(session, event) == reason


def test_a_towed_truck_stands_at_the_distribution_center_whatever_the_table_says() -> None:
    session = new_game()
    session.apply(tow("Ann"))
    assert fact_refuses(session, load("Ann", 1)) == "Ann was towed this turn and must take the discard action."


def test_an_override_with_nothing_to_override_is_refused() -> None:
    session = new_game()
    session.apply(move("Ann"))
    message = refused(session, {**load("Ann", 2), "override": True})
    assert message == "Nothing in this load goes against a rule; record it without 'override'."
    assert refused(session, {**load("Ann", 2), "override": "yes"}) == "'override' must be true or false, not 'yes'."
    assert str(session.apply({**load("Ann", 2), "override": False})) == "Ann loaded 2 corn"
    assert session.events[-1] == load("Ann", 2)


# --- stopping early -----------------------------------------------------------------------------


def test_the_pizza_arrives_and_the_game_stops_with_cargo_penalties_applied() -> None:
    session = new_game()
    turn(session, "Ann", move("Ann"), load("Ann", 3, "pigs"))
    turn(session, "Bob", move("Bob"), load("Bob", 1, "corn"))
    assert str(session.apply(end_game("the pizza arrived"))) == "The game was stopped: the pizza arrived"
    assert session.is_over and session.current_player is None
    assert session.stopped_note == "the pizza arrived"
    assert session.state.over and session.state.round == 1
    assert [(s.player, s.score, s.winner) for s in session.standings()] == [
        ("Cy", 5, True),
        ("Bob", 4, False),
        ("Ann", -1, False),
    ]
    assert "The game is over" in fact_refuses(session, move("Cy"))
    assert "The game is over" in fact_refuses(session, end_game("again"))
    session.undo()
    assert (session.is_over, session.stopped_note, session.current_player) == (False, None, "Cy")
    assert not any(s.winner for s in session.standings())


def test_a_game_can_be_stopped_in_its_final_round_but_not_after_it_ended() -> None:
    session = new_game(("Ann", "Bob"), target=6)
    turn(session, "Ann", move("Ann"), adjust("Ann", 1, "found a dollar"))
    session.apply(end_game("Bob had to leave"))
    assert [s.player for s in session.standings() if s.winner] == ["Ann"]
    session.undo()
    turn(session, "Bob")
    assert fact_refuses(session, end_game()) == "The game is over; no more end_game events can be recorded."

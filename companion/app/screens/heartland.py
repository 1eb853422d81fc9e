"""The Great Heartland Hauling Co.: money, cargo, the turn's actions, the final round."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import widgets as w
from companion.app.ties import ordinal, tie_lines
from companion.app.widgets import one_line
from companion.i18n import t
from companion.messages import term
from companion.rules.heartland import (
    GAME,
    GOODS,
    MAX_PRICE,
    PENALTY_PER_CUBE,
    HeartlandState,
    Truck,
    discard_cost,
    weigh_station_cost,
)

if TYPE_CHECKING:
    from companion.app.shell import Shell

TITLE = "Heartland"
TARGET_BAR_HEIGHT = 48  # the target bar and the final-round banner that takes its place
CARD_HEIGHT = 64  # a player's card, whoever plays


def subtitle(state: HeartlandState, language: str = "en") -> str:
    if state.over:
        return t("ui.heartland.game_over", language)
    player = state.current_player or ""
    if state.final_round:
        return t("ui.heartland.subtitle_final", language, player=player)
    return t("ui.heartland.subtitle_round", language, number=state.round, player=player)


def status_line(state: HeartlandState, language: str = "en") -> str:
    """One line for the home screen."""
    return GAME.status_line(state).text(language)


def good_name(shell: Shell, good: str) -> str:
    return term("good", good, shell.language)


def build(shell: Shell) -> ft.Control:
    session = shell.session
    assert session is not None
    state: HeartlandState = session.state
    place = "end" if state.over else ("final_round" if state.final_round else "game")
    header = [w.top_bar(shell, TITLE, subtitle(state, shell.language), rules=place)]
    if state.over:  # only the result: no target bar, no actions
        body: list[ft.Control] = [end_screen(shell, state)]
        footer = w.present(w.play_again(shell), w.details_button(shell), w.undo_strip(shell))
        return w.screen(shell, header, body, footer, key=f"game-{session.id}", beside=[], log=log_context(shell))
    body = [target_bar(shell, state), *player_cards(shell, state)]
    footer = [end_turn_button(shell, state), w.undo_strip(shell)]
    return w.screen(shell, header, body, footer, key=f"game-{session.id}", beside=[turn_actions(shell, state)],
                    log=log_context(shell))


def target_bar(shell: Shell, state: HeartlandState) -> ft.Control:
    """The target and the leader, and in the final round a banner in the same place and size:
    the round's start never pushes the players and the actions down."""
    target = w.money(shell, state.target)
    if state.final_round and not state.over:
        still = w.names(shell, state.final_round_players)
        message_id = "ui.heartland.final_round.one" if len(state.final_round_players) == 1 else (
            "ui.heartland.final_round.many")
        return ft.Container(
            ft.Column([
                one_line(w.t(shell, message_id, players=still), 16, bold=True, key="final-round"),
                one_line(w.t(shell, "ui.heartland.reached", player=state.triggered_by, target=target), 13),
            ], spacing=0, alignment=ft.MainAxisAlignment.CENTER),
            border=ft.Border.all(2, ft.Colors.PRIMARY), padding=ft.Padding.symmetric(horizontal=10, vertical=2),
            border_radius=8, height=TARGET_BAR_HEIGHT, key="target-bar",
        )
    leader = max(state.trucks, key=lambda truck: truck.money)
    source = w.t(shell, f"ui.heartland.source.{state.target_rule}")
    line = w.t(shell, "ui.heartland.target", target=target, source=source, player=leader.player,
               money=w.money(shell, leader.money))
    return ft.Container(ft.Column([
        one_line(line, 15, key="target"),
        ft.ProgressBar(value=min(1.0, leader.money / state.target), height=8),
    ], spacing=6, alignment=ft.MainAxisAlignment.CENTER), height=TARGET_BAR_HEIGHT, key="target-bar")



def cargo_text(shell: Shell, truck: Truck) -> str:
    loads = [w.t(shell, "ui.heartland.load_of", count=count, good=good_name(shell, good))
             for good, count in zip(GOODS, truck.cargo, strict=True) if count]
    return ", ".join(loads) if loads else w.t(shell, "ui.heartland.empty_truck")


def player_cards(shell: Shell, state: HeartlandState) -> list[ft.Control]:
    """Every player's card in seat order, each of one height, the current one marked: the
    turn passing changes what they say, never where they are. The current player's
    corrections sit under them, always in the same place."""
    assert state.current_player is not None
    current = state.truck(state.current_player)
    key = w.slug(current.player)
    corrections = ft.Row([
        ft.TextButton(w.t(shell, "ui.heartland.correct_money"), key=f"adjust-{key}", height=w.TARGET,
                      on_click=lambda _: shell.open_panel("adjust", player=current.player)),
        ft.TextButton(w.t(shell, "ui.heartland.correct_cargo"), key=f"correct-cargo-{key}", height=w.TARGET,
                      on_click=lambda _: shell.open_panel("cargo", player=current.player)),
    ], spacing=0, key="corrections")
    return [*(player_card(shell, state, truck) for truck in state.trucks), corrections]


def player_card(shell: Shell, state: HeartlandState, truck: Truck) -> ft.Control:
    colour = w.player_colour(shell, state.players, truck.player)
    key = w.slug(truck.player)
    current = truck.player == state.current_player
    load = w.t(shell, "ui.heartland.capacity", cubes=truck.cubes, capacity=state.capacity)
    if truck.upgrade:
        load = f"{load} · {truck.upgrade}"
    name: list[ft.Control] = [one_line(truck.player, 18, bold=True, colour=colour)]
    if current:
        name.append(one_line(w.t(shell, "ui.heartland.playing_now"), 13, key=f"now-{key}"))
    details = ft.Row([ft.Container(one_line(cargo_text(shell, truck), 14, key=f"cargo-{key}"), expand=True),
                      one_line(load, 14, key=f"cubes-{key}")], spacing=8)
    return ft.Container(
        ft.Row([
            ft.Column([ft.Row(name, spacing=8), details], spacing=0, expand=True),
            w.big_number(w.money(shell, truck.money), key=f"money-{key}"),
        ]),
        # One border width for all: a thicker one for the current player moved what is inside.
        border=ft.Border.all(2, colour), border_radius=10, height=CARD_HEIGHT,
        bgcolor=ft.Colors.with_opacity(0.10, colour) if current else None,
        padding=ft.Padding.symmetric(horizontal=12, vertical=4),
        # Another player's card corrects their money; the current player's has its buttons below.
        on_click=None if current else lambda _: shell.open_panel("adjust", player=truck.player), key=f"card-{key}",
        tooltip=None if current else w.t(shell, "ui.heartland.correct_money_of", player=truck.player),
    )


def turn_actions(shell: Shell, state: HeartlandState) -> ft.Control:
    player = state.current_player
    assert player is not None
    truck = state.truck(player)

    def move(spaces: int, pay: str) -> dict[str, Any]:
        return {"type": "move", "player": player, "spaces": spaces, "pay": pay}

    rows: list[ft.Control] = [
        w.text(w.t(shell, "ui.heartland.move"), 13, bold=True),
        ft.Row([w.event_button(shell, w.t(shell, "ui.heartland.move_cash", spaces=n, cost=w.money(shell, n)),
                               move(n, "cash"), key=f"move-cash-{n}", expand=True)
                for n in (1, 2, 3)]),
        ft.Row([w.event_button(shell, w.t(shell, "ui.heartland.move_fuel", spaces=n), move(n, "fuel"),
                               key=f"move-fuel-{n}", expand=True)
                for n in (1, 2, 3)] + [w.event_button(shell, w.t(shell, "ui.heartland.tow"),
                                                      {"type": "tow", "player": player}, key="tow", expand=True)]),
        w.text(w.t(shell, "ui.heartland.action"), 13, bold=True),
        ft.Row([load_button(shell, state, player), unload_button(shell, truck), discard_button(shell, state, player)]),
    ]
    if state.alternate_routes:
        weigh = weigh_station_cost(truck)
        rows.append(w.text(w.t(shell, "ui.heartland.road"), 13, bold=True))
        rows.append(ft.Row([
            w.event_button(shell, w.t(shell, "ui.heartland.toll", cost=w.money(shell, 1)),
                           {"type": "toll", "player": player}, key="toll", expand=True),
            w.event_button(shell, w.t(shell, "ui.heartland.weigh_station", cost=w.money(shell, weigh)),
                           {"type": "weigh_station", "player": player}, key="weigh", expand=True),
        ]))
    if state.truck_stops and truck.upgrade is None:
        # Any name and a $0 cost: asks only whether buying is possible at this point of the turn.
        refusal = shell.check({"type": "buy_upgrade", "player": player, "name": "?", "cost": 0})
        rows.append(w.action(w.t(shell, "ui.heartland.buy_upgrade"), lambda: shell.open_panel("upgrade", name="",
                                                                                              cost=0), key="upgrade",
                             refusal=refusal, shell=shell))
    return ft.Column(rows, spacing=6)


def end_turn_button(shell: Shell, state: HeartlandState) -> ft.Control:
    player = state.current_player or ""
    next_player = state.players[(state.turn.seat + 1) % len(state.players)]
    label = w.t(shell, "ui.heartland.end_turn", player=player, next=next_player)
    if state.final_round and state.final_round_players == (player,):
        label = w.t(shell, "ui.heartland.end_last_turn", player=player)
    return w.event_button(shell, label, {"type": "end_turn", "player": player}, key="end-turn", primary=True)


def load_button(shell: Shell, state: HeartlandState, player: str) -> ft.Control:
    refusal = shell.check({"type": "load", "player": player, "good": "corn", "cubes": 1})
    return w.action(w.t(shell, "ui.heartland.load"), lambda: shell.open_panel("load"), key="load", refusal=refusal,
                    shell=shell, expand=True)


def unload_button(shell: Shell, truck: Truck) -> ft.Control:
    carried = next((good for good in GOODS if truck.carried(good)), None)
    if carried is None:
        refusal: str | None = w.t(shell, "ui.heartland.nothing_to_unload", player=truck.player)
    else:
        refusal = shell.check({"type": "unload", "player": truck.player, "good": carried, "cubes": 1, "price": 1})
    return w.action(w.t(shell, "ui.heartland.unload"), lambda: shell.open_panel("unload"), key="unload",
                    refusal=refusal, shell=shell,
                    expand=True)


def discard_button(shell: Shell, state: HeartlandState, player: str) -> ft.Control:
    truck = state.truck(player)
    forced = state.turn.move == "tow" or truck.money == 0
    cost = discard_cost(state, player, forced)
    if cost == 0:
        label = w.t(shell, "ui.heartland.discard_free")
    else:
        label = w.t(shell, "ui.heartland.discard_forced" if forced else "ui.heartland.discard",
                    cost=w.money(shell, cost))
    return w.event_button(shell, label, {"type": "discard", "player": player, "forced": forced}, key="discard",
                          expand=True)


# --- sheets -----------------------------------------------------------------------------


def sheet(shell: Shell) -> ft.DialogControl | None:
    assert shell.session is not None
    state: HeartlandState = shell.session.state
    builders = {
        "log": lambda: w.log_panel(shell, log_context(shell)),
        "load": lambda: load_panel(shell, state),
        "unload": lambda: unload_panel(shell, state),
        "adjust": lambda: adjust_panel(shell, state),
        "upgrade": lambda: upgrade_panel(shell, state),
        "cargo": lambda: cargo_panel(shell, state),
    }
    builder = builders.get(shell.ui.panel or "")
    return builder() if builder else None


def round_of(state: HeartlandState) -> int:
    return state.round


def log_context(shell: Shell) -> Callable[[int], str]:
    """Line `number` of the log -> "round 3": the round of the state before the event."""
    return w.round_context(shell, round_of, "ui.heartland.log_round")


def load_panel(shell: Shell, state: HeartlandState) -> ft.DialogControl:
    player = state.current_player or ""
    room = state.capacity - state.truck(player).cubes
    rows: list[ft.Control] = [w.text(w.t(shell, "ui.heartland.room", player=player, count=room), 14)]
    for good in GOODS:
        buttons = [
            w.event_button(shell, str(count), {"type": "load", "player": player, "good": good, "cubes": count},
                           key=f"load-{good}-{count}", compact=True)
            for count in range(1, max(1, room) + 1)
        ]
        rows.append(w.text(good_name(shell, good), 16, bold=True))
        rows.append(ft.Row(buttons, wrap=True, spacing=w.CHIP_SPACING, run_spacing=w.CHIP_SPACING))
    return w.sheet(shell, w.t(shell, "ui.heartland.load_title", player=player), rows, key="load-panel",
                   footer=[w.rules_button(shell, "load", key="rules-load")])


def last_price(shell: Shell, good: str) -> int | None:
    """The price last paid for the good in this game, else the one this table last used."""
    assert shell.session is not None
    unloaded = shell.session.last_event(lambda event: event["type"] == "unload" and event["good"] == good)
    if unloaded is not None:
        return int(unloaded["price"])
    return shell.store.recall(f"heartland.price.{good}")


def unload_panel(shell: Shell, state: HeartlandState) -> ft.DialogControl:
    """One row of prices shared by every good, then each carried good's counts: the last
    price paid for a good stands until another is tapped, so a usual unload is two taps."""
    player = state.current_player or ""
    truck = state.truck(player)
    chosen = shell.ui.draft.get("price")
    carried = [good for good in GOODS if truck.carried(good)]
    suggestions = {good: last_price(shell, good) for good in carried}
    rows: list[ft.Control] = [
        ft.Row([w.text(w.t(shell, "ui.heartland.price_hint"), 14, expand=True),
                w.number_field(shell, w.t(shell, "ui.heartland.price_typed"), ("price",), key="price-typed", low=1,
                               high=MAX_TYPED_PRICE)], vertical_alignment=ft.CrossAxisAlignment.CENTER),
        w.chips(shell, range(1, MAX_PRICE + 1), chosen, functools.partial(w.pick_number, shell, ("price",)),
                key="price", label=functools.partial(w.money, shell),
                describe=lambda price: w.t(shell, "ui.heartland.per_cube", price=w.money(shell, price)),
                suggested=next((price for price in suggestions.values() if price), None) if chosen is None else None),
    ]
    for good in carried:
        price = chosen or suggestions[good]
        name = good_name(shell, good)
        if not price:
            heading = w.t(shell, "ui.heartland.price_first", good=name)
        else:
            heading = w.t(shell, "ui.heartland.price" if chosen else "ui.heartland.price_last", good=name,
                          price=w.money(shell, price))
        rows.append(w.text(heading, 16, bold=True, key=f"price-{good}"))
        buttons = [unload_count(shell, player, good, count, price) for count in range(1, truck.carried(good) + 1)]
        rows.append(ft.Row(buttons, wrap=True, spacing=w.CHIP_SPACING, run_spacing=w.CHIP_SPACING))
    return w.sheet(shell, w.t(shell, "ui.heartland.unload_title", player=player), rows, key="unload-panel",
                   footer=[w.rules_button(shell, "unload", key="rules-unload")])


def unload_count(shell: Shell, player: str, good: str, count: int, price: int | None) -> ft.Control:
    """Unload `count` cubes at the price shown, or at one typed since the sheet was drawn."""
    key = f"unload-{good}-{count}"
    if not price:
        return w.action(str(count), lambda: None, key=key, shell=shell,
                        refusal=w.t(shell, "ui.heartland.tap_price_first", good=good_name(shell, good)))

    event = {"type": "unload", "player": player, "good": good, "cubes": count, "price": price}
    return w.event_button(shell, w.t(shell, "ui.heartland.unload_count", count=count,
                                     earned=w.money(shell, count * price)), event, key=key,
                          after=functools.partial(shell.store.remember, f"heartland.price.{good}", price))


CORRECTIONS = (*range(-10, 0), *range(1, 11))
MAX_TYPED_PRICE = 99  # a printed price beyond the chips, typed
MAX_CORRECTION = 999
UPGRADE_COSTS = tuple(range(0, 11))  # printed on the Truck Stop cards, not in the rules: the usual few, one tap


def adjust_panel(shell: Shell, state: HeartlandState) -> ft.DialogControl:
    """A correction in three taps: Correct money, the amount, Save."""
    draft = shell.ui.draft
    player = draft.get("player") or state.players[0]
    amount = int(draft.get("amount", 0))
    held = state.truck(player).money
    note = draft.get("note", w.t(shell, "ui.heartland.correction"))
    rows: list[ft.Control] = [
        w.text(w.t(shell, "ui.heartland.adjust_hint", player=player, money=w.money(shell, held)), 14),
        w.count_picker(shell, w.t(shell, "ui.heartland.amount"), ("amount",),
                       [value for value in CORRECTIONS if value >= -held], key="adjust", low=-held,
                       high=MAX_CORRECTION, default=0, chip_label=lambda value: f"{value:+d}",
                       describe=lambda value: w.t(shell, "ui.heartland.adjust_amount", amount=f"{value:+d}")),
        ft.TextField(label=w.t(shell, "ui.heartland.why"), value=note, key="adjust-note", max_length=60,
                     on_change=lambda e: shell.set_draft(quiet=True, note=e.control.value)),
    ]
    event = {"type": "adjust", "player": player, "amount": amount, "note": note}
    change = ("+" if amount >= 0 else "") + w.money(shell, amount)
    label = w.t(shell, "ui.heartland.adjust_save", player=player, change=change, money=w.money(shell, held + amount))

    def record() -> None:
        shell.apply(dict(event, note=shell.ui.draft.get("note", note)), tapped="adjust-save")

    save = w.action(label, record, key="adjust-save", primary=True, shell=shell, refusal=shell.check(event))
    return w.sheet(shell, w.t(shell, "ui.heartland.correct_money_of", player=player), rows, key="adjust-panel",
                   footer=[save])


CARGO_CORRECTIONS = (-4, -3, -2, -1, 1, 2, 3, 4)
MAX_CARGO_CORRECTION = 15  # a good has 15 cubes in the box


def cargo_panel(shell: Shell, state: HeartlandState) -> ft.DialogControl:
    """A load or unload recorded wrong (or missed), fixed in three taps without undoing what
    came after: Correct cargo, a good's count, Save."""
    draft = shell.ui.draft
    player = draft.get("player") or state.players[0]
    truck = state.truck(player)
    chosen_good, cubes = draft.get("good"), int(draft.get("cubes", 0))
    note = draft.get("note", w.t(shell, "ui.heartland.correction"))
    rows: list[ft.Control] = [w.text(w.t(shell, "ui.heartland.cargo_hint", player=player,
                                         cargo=cargo_text(shell, truck), cubes=truck.cubes,
                                         capacity=state.capacity), 14)]
    for good in GOODS:
        typed = w.number_field(shell, w.t(shell, "ui.number.other"), ("typed_cubes", good), key=f"cargo-{good}-typed",
                               low=-MAX_CARGO_CORRECTION, high=MAX_CARGO_CORRECTION,
                               on_number=functools.partial(type_cargo, shell, good))
        rows.append(ft.Row([w.text(w.t(shell, "ui.heartland.on_truck", good=good_name(shell, good),
                                       count=truck.carried(good)), 15, bold=True, key=f"carried-{good}", expand=True),
                            typed], vertical_alignment=ft.CrossAxisAlignment.CENTER))
        values = [value for value in CARGO_CORRECTIONS if truck.carried(good) + value >= 0]
        rows.append(w.chips(shell, values, cubes if good == chosen_good else None,
                            functools.partial(pick_cargo, shell, good), key=f"cargo-{good}",
                            label=lambda value: f"{value:+d}",
                            describe=functools.partial(cargo_words, shell, good)))
    rows.append(ft.TextField(label=w.t(shell, "ui.heartland.why"), value=note, key="cargo-note", max_length=60,
                             on_change=lambda e: shell.set_draft(quiet=True, note=e.control.value)))
    event = {"type": "correct_cargo", "player": player, "good": chosen_good or GOODS[0], "cubes": cubes,
             "note": note}
    if chosen_good and cubes:
        label = w.t(shell, "ui.heartland.cargo_save", player=player, change=f"{cubes:+d}",
                    good=good_name(shell, chosen_good))
    else:
        label = w.t(shell, "ui.heartland.save")

    def record() -> None:
        shell.apply(dict(event, note=shell.ui.draft.get("note", note)), tapped="cargo-save")

    refusal = w.t(shell, "ui.heartland.cargo_first") if not (chosen_good and cubes) else None
    save = w.action(label, record, key="cargo-save", primary=True, shell=shell, refusal=refusal)
    return w.sheet(shell, w.t(shell, "ui.heartland.correct_cargo_of", player=player), rows, key="cargo-panel",
                   footer=[save])


def pick_cargo(shell: Shell, good: str, cubes: int) -> None:
    forget_typed_cargo(shell, keep=None)  # the chip outranks what was typed beside any good
    shell.set_draft(good=good, cubes=cubes)


def type_cargo(shell: Shell, good: str, cubes: int) -> None:
    """A change typed beside a good: that good and count (the field draws the sheet again)."""
    forget_typed_cargo(shell, keep=good)
    shell.set_draft(quiet=True, good=good, cubes=cubes)


def forget_typed_cargo(shell: Shell, keep: str | None) -> None:
    typed = shell.ui.draft.get("typed")
    if isinstance(typed, dict):
        for good in GOODS:
            if good != keep:
                typed.pop(f"typed_cubes/{good}", None)


def cargo_words(shell: Shell, good: str, cubes: int) -> str:
    return w.t(shell, "ui.heartland.cargo_change", change=f"{cubes:+d}", good=good_name(shell, good))


def upgrade_panel(shell: Shell, state: HeartlandState) -> ft.DialogControl:
    player = state.current_player or ""
    draft = shell.ui.draft
    cost = int(draft.get("cost", 0))
    rows: list[ft.Control] = [
        w.text(w.t(shell, "ui.heartland.upgrade_hint"), 14),
        ft.TextField(label=w.t(shell, "ui.heartland.upgrade_name"), value=draft.get("name", ""), key="upgrade-name",
                     max_length=30,
                     on_change=lambda e: shell.set_draft(quiet=True, name=e.control.value)),
        w.count_picker(shell, w.t(shell, "ui.heartland.cost"), ("cost",), UPGRADE_COSTS, key="upgrade-cost", low=0,
                       high=MAX_TYPED_PRICE, default=0, chip_label=functools.partial(w.money, shell)),
    ]

    def buy() -> None:
        name = " ".join(str(shell.ui.draft.get("name", "")).split())
        if not name:
            shell.show_notice(w.t(shell, "ui.heartland.upgrade_name_first"), tapped="upgrade-buy")
            return
        shell.apply({"type": "buy_upgrade", "player": player, "name": name, "cost": cost}, tapped="upgrade-buy")

    return w.sheet(shell, w.t(shell, "ui.heartland.upgrade_title", player=player), rows, key="upgrade-panel",
                   footer=[w.action(w.t(shell, "ui.heartland.buy_for", cost=w.money(shell, cost)), buy,
                                    key="upgrade-buy", primary=True, shell=shell)])


# --- the end ----------------------------------------------------------------------------


def end_screen(shell: Shell, state: HeartlandState) -> ft.Control:
    assert shell.session is not None
    standings = shell.session.standings()
    cards: list[ft.Control] = w.present(w.text(w.t(shell, "ui.heartland.final_standings"), 20, bold=True,
                                               key="final-standings"),
                                        w.stopped_line(shell))
    for standing in standings:
        detail = standing.detail
        colour = w.player_colour(shell, state.players, standing.player)
        lines: list[ft.Control] = [
            ft.Row([
                w.text(ranked(shell, standing), 20, bold=True, colour=colour, key=f"rank-{w.slug(standing.player)}"),
                w.big_number(w.money(shell, standing.score), key=f"final-{w.slug(standing.player)}"),
            ], alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            w.text(w.t(shell, "ui.heartland.money", money=w.money(shell, detail["money"])), 15),
        ]
        for line in detail["penalty_lines"]:
            lines.append(w.text(w.t(shell, "ui.heartland.penalty_line", good=good_name(shell, line["good"]),
                                    cubes=w.t(shell, "ui.cubes", count=line["cubes"]),
                                    each=w.money(shell, line["each"]), total=w.money(shell, line["total"])), 15))
        if not detail["penalty_lines"]:
            lines.append(w.text(w.t(shell, "ui.heartland.no_penalty"), 15))
        cards.append(ft.Container(ft.Column(lines, spacing=2), border=ft.Border.all(2, colour), border_radius=10,
                                  padding=10))
    for line in tie_lines(standings, functools.partial(w.money, shell), w.t(shell, "ui.heartland.fewer_cubes"),
                          lambda s: w.t(shell, "ui.cubes", count=s.detail["cubes"]), shell.language):
        cards.append(w.text(line, 15, key="tie-break"))
    penalties = ", ".join(w.t(shell, "ui.heartland.penalty_of", good=good_name(shell, good), cost=w.money(shell, cost))
                          for good, cost in PENALTY_PER_CUBE.items())
    cards.append(w.text(w.t(shell, "ui.heartland.penalties", penalties=penalties), 12, colour=w.QUIET))
    cards.append(w.rules_button(shell, "end", key="rules-end"))
    return ft.Column(cards, spacing=8)


def ranked(shell: Shell, standing: Any) -> str:
    line = w.t(shell, "ui.rank", ordinal=ordinal(standing.rank, shell.language), player=standing.player)
    return w.t(shell, "ui.winner_mark", line=line) if standing.winner else line

"""The Great Heartland Hauling Co.: money, cargo, the turn's actions, the final round."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import widgets as w
from companion.app.ties import ordinal, tie_lines
from companion.rules.heartland import (
    GOODS,
    MAX_PRICE,
    PENALTY_PER_CUBE,
    HeartlandState,
    Truck,
    discard_cost,
    standings,
    weigh_station_cost,
)

if TYPE_CHECKING:
    from companion.app.shell import Shell

TITLE = "Heartland"


def subtitle(state: HeartlandState) -> str:
    if state.over:
        return "Game over"
    whose = f"{w.possessive(state.current_player or '')} turn"
    return f"Final round · {whose}" if state.final_round else f"Round {state.round} · {whose}"


def status_line(state: HeartlandState) -> str:
    """One line for the home screen."""
    if state.over:
        final = standings(state)
        return w.result_line(final, f"({w.dollars(final[0].score)})")
    current = state.truck(state.current_player or state.players[0])
    return f"{w.possessive(current.player)} turn · ${current.money} / ${state.target}"


def build(shell: Shell) -> ft.Control:
    session = shell.session
    assert session is not None
    state: HeartlandState = session.state
    header = [w.top_bar(shell, TITLE, subtitle(state))]
    if state.over:  # only the result: no target bar, no actions
        body: list[ft.Control] = [end_screen(shell, state)]
        return w.screen(shell, header, body, [w.play_again(shell), w.undo_strip(shell)], key=f"game-{session.id}")
    body = [target_bar(state), w.two_columns(player_cards(shell, state), [turn_actions(shell, state)])]
    footer = [end_turn_button(shell, state), w.undo_strip(shell)]
    return w.screen(shell, header, body, footer, key=f"game-{session.id}")


def target_bar(state: HeartlandState) -> ft.Control:
    if state.final_round and not state.over:
        still = w.names(state.final_round_players)
        verb = "plays" if len(state.final_round_players) == 1 else "still play"
        return ft.Container(
            ft.Column([
                w.text(f"Final round — {still} {verb}", 18, bold=True, key="final-round"),
                w.text(f"{state.triggered_by} reached the ${state.target} target.", 14),
            ], spacing=2),
            border=ft.Border.all(2, ft.Colors.PRIMARY), padding=10, border_radius=8,
        )
    leader = max(state.trucks, key=lambda truck: truck.money)
    source = {"rulebook": "rulebook", "blog": "blog", "custom": "custom"}[state.target_rule]
    return ft.Column([
        w.text(f"Target ${state.target} ({source}) · leader {leader.player} ${leader.money}", 15, key="target"),
        ft.ProgressBar(value=min(1.0, leader.money / state.target), height=8),
    ], spacing=4)


def cargo_text(truck: Truck) -> str:
    loads = [f"{count} {good}" for good, count in zip(GOODS, truck.cargo, strict=True) if count]
    return ", ".join(loads) if loads else "empty truck"


def player_cards(shell: Shell, state: HeartlandState) -> list[ft.Control]:
    cards = []
    for truck in state.trucks:
        current = truck.player == state.current_player
        cards.append(big_card(shell, state, truck) if current else small_card(shell, state, truck))
    return cards


def big_card(shell: Shell, state: HeartlandState, truck: Truck) -> ft.Control:
    colour = w.player_colour(shell, state.players, truck.player)
    key = w.slug(truck.player)
    lines: list[ft.Control] = [
        ft.Row([
            ft.Column([w.text(truck.player, 20, bold=True, colour=colour), w.text("playing now", 12)],
                      spacing=0, expand=True),
            w.big_number(f"${truck.money}", key=f"money-{key}"),
        ]),
        w.text(cargo_text(truck), 16, key=f"cargo-{key}"),
        ft.Row([ft.ProgressBar(value=truck.cubes / state.capacity, expand=True, height=10, color=colour),
                w.text(f"{truck.cubes}/{state.capacity} cubes", 14, key=f"cubes-{key}")]),
    ]
    if truck.upgrade:
        lines.append(w.text(f"Upgrade: {truck.upgrade}", 14))
    lines.append(ft.Row([
        ft.TextButton("Correct money", on_click=lambda _: shell.open_panel("adjust", player=truck.player),
                      key=f"adjust-{key}", height=w.TARGET),
        ft.TextButton("Correct cargo", on_click=lambda _: shell.open_panel("cargo", player=truck.player),
                      key=f"correct-cargo-{key}", height=w.TARGET),
    ], spacing=0, wrap=True))
    return ft.Container(ft.Column(lines, spacing=4), border=ft.Border.all(3, colour), border_radius=12, padding=12,
                        key=f"card-{key}")


def small_card(shell: Shell, state: HeartlandState, truck: Truck) -> ft.Control:
    colour = w.player_colour(shell, state.players, truck.player)
    key = w.slug(truck.player)
    details = f"{cargo_text(truck)} · {truck.cubes}/{state.capacity}"
    if truck.upgrade:
        details += f" · {truck.upgrade}"
    return ft.Container(
        ft.Row([
            ft.Column([w.text(truck.player, 16, bold=True, colour=colour), w.text(details, 13, key=f"cargo-{key}")],
                      spacing=0, expand=True),
            w.big_number(f"${truck.money}", key=f"money-{key}"),
        ]),
        border=ft.Border.all(1, colour), border_radius=10, padding=ft.Padding.symmetric(horizontal=12, vertical=6),
        on_click=lambda _: shell.open_panel("adjust", player=truck.player), key=f"card-{key}",
        tooltip=f"Correct {w.possessive(truck.player)} money",
    )


def turn_actions(shell: Shell, state: HeartlandState) -> ft.Control:
    player = state.current_player
    assert player is not None
    truck = state.truck(player)

    def move(spaces: int, pay: str) -> dict[str, Any]:
        return {"type": "move", "player": player, "spaces": spaces, "pay": pay}

    rows: list[ft.Control] = [
        w.text("Move", 13, bold=True),
        ft.Row([w.event_button(shell, f"{n} · ${n}", move(n, "cash"), key=f"move-cash-{n}", expand=True)
                for n in (1, 2, 3)]),
        ft.Row([w.event_button(shell, f"Fuel {n}", move(n, "fuel"), key=f"move-fuel-{n}", expand=True)
                for n in (1, 2, 3)] + [w.event_button(shell, "Tow", {"type": "tow", "player": player}, key="tow",
                                                      expand=True)]),
        w.text("Action", 13, bold=True),
        ft.Row([load_button(shell, state, player), unload_button(shell, truck), discard_button(shell, state, player)]),
    ]
    if state.alternate_routes:
        weigh = weigh_station_cost(truck)
        rows.append(w.text("Road", 13, bold=True))
        rows.append(ft.Row([
            w.event_button(shell, "Toll $1", {"type": "toll", "player": player}, key="toll", expand=True),
            w.event_button(shell, f"Weigh station ${weigh}", {"type": "weigh_station", "player": player},
                           key="weigh", expand=True),
        ]))
    if state.truck_stops and truck.upgrade is None:
        # Any name and a $0 cost: asks only whether buying is possible at this point of the turn.
        refusal = shell.check({"type": "buy_upgrade", "player": player, "name": "?", "cost": 0})
        rows.append(w.action("Buy upgrade", lambda: shell.open_panel("upgrade", name="", cost=0), key="upgrade",
                             refusal=refusal, shell=shell))
    return ft.Column(rows, spacing=6)


def end_turn_button(shell: Shell, state: HeartlandState) -> ft.Control:
    player = state.current_player or ""
    next_player = state.players[(state.turn.seat + 1) % len(state.players)]
    label = f"End {w.possessive(player)} turn ({next_player} next)"
    if state.final_round and state.final_round_players == (player,):
        label = f"End {w.possessive(player)} turn: last turn of the game"
    return w.event_button(shell, label, {"type": "end_turn", "player": player}, key="end-turn", primary=True)


def load_button(shell: Shell, state: HeartlandState, player: str) -> ft.Control:
    refusal = shell.check({"type": "load", "player": player, "good": "corn", "cubes": 1})
    return w.action("Load", lambda: shell.open_panel("load"), key="load", refusal=refusal, shell=shell, expand=True)


def unload_button(shell: Shell, truck: Truck) -> ft.Control:
    carried = next((good for good in GOODS if truck.carried(good)), None)
    if carried is None:
        refusal: str | None = f"{truck.player} carries nothing to unload."
    else:
        refusal = shell.check({"type": "unload", "player": truck.player, "good": carried, "cubes": 1, "price": 1})
    return w.action("Unload", lambda: shell.open_panel("unload"), key="unload", refusal=refusal, shell=shell,
                    expand=True)


def discard_button(shell: Shell, state: HeartlandState, player: str) -> ft.Control:
    truck = state.truck(player)
    forced = state.turn.move == "tow" or truck.money == 0
    cost = discard_cost(state, player, forced)
    label = "Discard free" if cost == 0 else ("Discard $1 (forced)" if forced else "Discard $1")
    return w.event_button(shell, label, {"type": "discard", "player": player, "forced": forced}, key="discard",
                          expand=True)


# --- sheets -----------------------------------------------------------------------------


def sheet(shell: Shell) -> ft.DialogControl | None:
    assert shell.session is not None
    state: HeartlandState = shell.session.state
    builders = {
        "log": lambda: w.log_panel(shell, lambda number: log_context(shell, number)),
        "load": lambda: load_panel(shell, state),
        "unload": lambda: unload_panel(shell, state),
        "adjust": lambda: adjust_panel(shell, state),
        "upgrade": lambda: upgrade_panel(shell, state),
        "cargo": lambda: cargo_panel(shell, state),
    }
    builder = builders.get(shell.ui.panel or "")
    return builder() if builder else None


def log_context(shell: Shell, number: int) -> str:
    assert shell.session is not None
    return f"round {shell.session.state_at(number - 1).round}"


def load_panel(shell: Shell, state: HeartlandState) -> ft.DialogControl:
    player = state.current_player or ""
    room = state.capacity - state.truck(player).cubes
    rows: list[ft.Control] = [w.text(f"{player} has room for {w.plural(room, 'cube')}. Tap a good's count:", 14)]
    for good in GOODS:
        buttons = [
            w.event_button(shell, str(count), {"type": "load", "player": player, "good": good, "cubes": count},
                           key=f"load-{good}-{count}", compact=True)
            for count in range(1, max(1, room) + 1)
        ]
        rows.append(w.text(good, 16, bold=True))
        rows.append(ft.Row(buttons, wrap=True, spacing=w.CHIP_SPACING, run_spacing=w.CHIP_SPACING))
    return w.sheet(shell, f"Load · {player}", rows, key="load-panel")


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
        w.text("Printed price per cube (the last one paid has a thick outline):", 14),
        w.chips(shell, range(1, MAX_PRICE + 1), chosen, lambda price: shell.set_draft(price=price), key="price",
                label=lambda price: f"${price}", describe=lambda price: f"${price} per cube",
                suggested=next((price for price in suggestions.values() if price), None) if chosen is None else None),
    ]
    for good in carried:
        price = chosen or suggestions[good]
        source = "" if chosen or not price else " (last paid)"
        rows.append(w.text(f"{good}: at ${price}{source}" if price else f"{good}: tap a price first", 16, bold=True,
                           key=f"price-{good}"))
        buttons = []
        for count in range(1, truck.carried(good) + 1):
            if price:
                event = {"type": "unload", "player": player, "good": good, "cubes": count, "price": price}
                buttons.append(w.event_button(
                    shell, f"{count} (+${count * price})", event, key=f"unload-{good}-{count}",
                    after=functools.partial(shell.store.remember, f"heartland.price.{good}", price)))
            else:
                buttons.append(w.action(str(count), lambda: None, key=f"unload-{good}-{count}",
                                        refusal=f"Tap the price paid for {good} first.", shell=shell))
        rows.append(ft.Row(buttons, wrap=True, spacing=w.CHIP_SPACING, run_spacing=w.CHIP_SPACING))
    return w.sheet(shell, f"Unload · {player}", rows, key="unload-panel")


CORRECTIONS = (*range(-10, 0), *range(1, 11))


def adjust_panel(shell: Shell, state: HeartlandState) -> ft.DialogControl:
    """A correction in three taps: Correct money, the amount, Save."""
    draft = shell.ui.draft
    player = draft.get("player") or state.players[0]
    amount = int(draft.get("amount", 0))
    money = state.truck(player).money
    note = draft.get("note", "correction")
    rows: list[ft.Control] = [
        w.text(f"{player} has ${money}. A correction is logged and can be undone.", 14),
        w.chips(shell, [value for value in CORRECTIONS if value >= -money], amount,
                lambda value: shell.set_draft(amount=value), key="adjust",
                label=lambda value: f"{value:+d}", describe=lambda value: f"{value:+d} dollars"),
        w.stepper(shell, "Other amount", ("amount",), 0, key="adjust-amount", low=-money, high=99, steps=(1, 5)),
        ft.TextField(label="Why", value=note, key="adjust-note", max_length=60,
                     on_change=lambda e: shell.set_draft(quiet=True, note=e.control.value)),
    ]
    event = {"type": "adjust", "player": player, "amount": amount, "note": note}
    label = f"Save: {player} {'+' if amount >= 0 else '-'}${abs(amount)}, now ${money + amount}"
    def record() -> None:
        shell.apply(dict(event, note=shell.ui.draft.get("note", note)), tapped="adjust-save")

    save = w.action(label, record, key="adjust-save", primary=True, shell=shell, refusal=shell.check(event))
    return w.sheet(shell, f"Correct {w.possessive(player)} money", rows, key="adjust-panel", footer=[save])


CARGO_CORRECTIONS = (-4, -3, -2, -1, 1, 2, 3, 4)


def cargo_panel(shell: Shell, state: HeartlandState) -> ft.DialogControl:
    """A load or unload recorded wrong (or missed), fixed in three taps without undoing what
    came after: Correct cargo, a good's count, Save."""
    draft = shell.ui.draft
    player = draft.get("player") or state.players[0]
    truck = state.truck(player)
    chosen_good, cubes = draft.get("good"), int(draft.get("cubes", 0))
    note = draft.get("note", "correction")
    rows: list[ft.Control] = [w.text(f"{player}: {cargo_text(truck)}, {truck.cubes}/{state.capacity} cubes. "
                                     "A correction is logged and can be undone.", 14)]
    for good in GOODS:
        rows.append(w.text(f"{good}: {truck.carried(good)} on the truck", 15, bold=True, key=f"carried-{good}"))
        values = [value for value in CARGO_CORRECTIONS if truck.carried(good) + value >= 0]
        rows.append(w.chips(shell, values, cubes if good == chosen_good else None,
                            functools.partial(pick_cargo, shell, good), key=f"cargo-{good}",
                            label=lambda value: f"{value:+d}",
                            describe=functools.partial(cargo_words, good)))
    rows.append(ft.TextField(label="Why", value=note, key="cargo-note", max_length=60,
                             on_change=lambda e: shell.set_draft(quiet=True, note=e.control.value)))
    event = {"type": "correct_cargo", "player": player, "good": chosen_good or GOODS[0], "cubes": cubes,
             "note": note}
    label = f"Save: {player} {cubes:+d} {chosen_good}" if chosen_good and cubes else "Save"

    def record() -> None:
        shell.apply(dict(event, note=shell.ui.draft.get("note", note)), tapped="cargo-save")

    refusal = "Tap how many cubes of which good to add or take off." if not (chosen_good and cubes) else None
    save = w.action(label, record, key="cargo-save", primary=True, shell=shell, refusal=refusal)
    return w.sheet(shell, f"Correct {w.possessive(player)} cargo", rows, key="cargo-panel", footer=[save])


def pick_cargo(shell: Shell, good: str, cubes: int) -> None:
    shell.set_draft(good=good, cubes=cubes)


def cargo_words(good: str, cubes: int) -> str:
    return f"{cubes:+d} {good} on the truck"


def upgrade_panel(shell: Shell, state: HeartlandState) -> ft.DialogControl:
    player = state.current_player or ""
    draft = shell.ui.draft
    cost = int(draft.get("cost", 0))
    rows: list[ft.Control] = [
        w.text("The upgrade's name and cost are printed on its Truck Stop card.", 14),
        ft.TextField(label="Upgrade name", value=draft.get("name", ""), key="upgrade-name", max_length=30,
                     on_change=lambda e: shell.set_draft(quiet=True, name=e.control.value)),
        w.stepper(shell, "Cost $", ("cost",), 0, key="upgrade-cost", high=99, steps=(1, 5)),
    ]

    def buy() -> None:
        name = " ".join(str(shell.ui.draft.get("name", "")).split())
        if not name:
            shell.show_notice("Type the upgrade's name first; it is printed on the card.", tapped="upgrade-buy")
            return
        shell.apply({"type": "buy_upgrade", "player": player, "name": name, "cost": cost}, tapped="upgrade-buy")

    return w.sheet(shell, f"Buy upgrade · {player}", rows, key="upgrade-panel",
                   footer=[w.action(f"Buy for ${cost}", buy, key="upgrade-buy", primary=True, shell=shell)])


# --- the end ----------------------------------------------------------------------------


def end_screen(shell: Shell, state: HeartlandState) -> ft.Control:
    assert shell.session is not None
    standings = shell.session.standings()
    cards: list[ft.Control] = w.present(w.text("Final standings", 20, bold=True, key="final-standings"),
                                        w.stopped_line(shell))
    for standing in standings:
        detail = standing.detail
        colour = w.player_colour(shell, state.players, standing.player)
        lines: list[ft.Control] = [
            ft.Row([
                w.text(f"{ordinal(standing.rank)} {standing.player}" + (" — winner" if standing.winner else ""),
                       20, bold=True, colour=colour, key=f"rank-{w.slug(standing.player)}"),
                w.big_number(w.dollars(standing.score), key=f"final-{w.slug(standing.player)}"),
            ], alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            w.text(f"Money ${detail['money']}", 15),
        ]
        for line in detail["penalty_lines"]:
            cubes = w.plural(line["cubes"], "cube")
            lines.append(w.text(f"{line['good']}: {cubes} × ${line['each']} = -${line['total']}", 15))
        if not detail["penalty_lines"]:
            lines.append(w.text("No cargo left: no penalty", 15))
        cards.append(ft.Container(ft.Column(lines, spacing=2), border=ft.Border.all(2, colour), border_radius=10,
                                  padding=10))
    for line in tie_lines(standings, w.dollars, "fewer cubes on the truck",
                          lambda s: f"{s.detail['cubes']} cube{'s' if s.detail['cubes'] != 1 else ''}"):
        cards.append(w.text(line, 15, key="tie-break"))
    penalties = ", ".join(f"{good} ${cost}" for good, cost in PENALTY_PER_CUBE.items())
    cards.append(w.text(f"Cargo penalty per cube left: {penalties}.", 12, colour=w.QUIET))
    return ft.Column(cards, spacing=8)

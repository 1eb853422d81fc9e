"""The Great Heartland Hauling Co.: money, cargo, the turn's actions, the final round."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import inputs, layout, sheets
from companion.app import widgets as w
from companion.app.screens import (
    heartland_sheets,
    heartland_words,  # noqa: F401  (registers the words shown here)
)
from companion.app.screens.offer import GameScreen
from companion.app.ties import ordinal, tie_lines
from companion.app.widgets import one_line
from companion.rules.heartland import (
    GAME,
    GOODS,
    PENALTY_PER_CUBE,
    TARGETS,
    HeartlandState,
    Truck,
    discard_cost,
    weigh_station_cost,
)
from companion.text.i18n import t

if TYPE_CHECKING:
    from companion.app.view import View
    from companion.session import Session

CHART_CAPTION = "ui.chart.caption.money"  # what its score chart counts
TARGET_BAR_HEIGHT = 48  # the target bar and the final-round banner that takes its place
CARD_HEIGHT = 64  # a player's card, whoever plays
MONEY_WIDTH = 96  # a card's money, its own target: "$999" at the big size


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


def build(view: View) -> ft.Control:
    session = view.session
    assert session is not None
    state: HeartlandState = session.state
    place = "end" if state.over else ("final_round" if state.final_round else "game")
    header = [w.top_bar(view, GAME.home_title, subtitle(state, view.language), rules=place)]
    if state.over:  # only the result: no target bar, no actions
        body: list[ft.Control] = [end_screen(view, state)]
        footer = w.present(w.play_again(view), w.details_button(view), w.undo_strip(view))
        return layout.screen(view, header, body, footer, key=f"game-{session.id}", beside=[], log=log_context(view))
    body = [target_bar(view, state), *player_cards(view, state)]
    footer = [end_turn_button(view, state), w.undo_strip(view)]
    return layout.screen(
        view, header, body, footer, key=f"game-{session.id}", beside=[turn_actions(view, state)], log=log_context(view)
    )


def target_bar(view: View, state: HeartlandState) -> ft.Control:
    """The target and the leader, and in the final round a banner in the same place and size:
    the round's start never pushes the players and the actions down."""
    target = w.money(view, state.target)
    if state.final_round and not state.over:
        still = w.names(view, state.final_round_players)
        message_id = (
            "ui.heartland.final_round.one" if len(state.final_round_players) == 1 else ("ui.heartland.final_round.many")
        )
        return ft.Container(
            ft.Column(
                [
                    one_line(w.t(view, message_id, players=still), 16, bold=True, key="final-round"),
                    one_line(w.t(view, "ui.heartland.reached", player=state.triggered_by, target=target), 13),
                ],
                spacing=0,
                alignment=ft.MainAxisAlignment.CENTER,
            ),
            border=ft.Border.all(2, ft.Colors.PRIMARY),
            padding=ft.Padding.symmetric(horizontal=10, vertical=2),
            border_radius=8,
            height=view.grown(TARGET_BAR_HEIGHT),
            key="target-bar",
        )
    leader = max(state.trucks, key=lambda truck: truck.money)
    source = w.t(view, f"ui.heartland.source.{state.target_rule}")
    line = w.t(
        view,
        "ui.heartland.target",
        target=target,
        source=source,
        player=leader.player,
        money=w.money(view, leader.money),
    )
    return ft.Container(
        ft.Column(
            [
                one_line(line, 15, key="target", lines=2 if w.is_large(view) else 1),  # the bar has room for two then
                ft.ProgressBar(value=min(1.0, leader.money / state.target), height=8),
            ],
            spacing=6,
            alignment=ft.MainAxisAlignment.CENTER,
        ),
        height=view.grown(TARGET_BAR_HEIGHT),
        key="target-bar",
    )


def player_cards(view: View, state: HeartlandState) -> list[ft.Control]:
    """Every player's card in seat order, each of one height, the current one marked: the
    turn passing changes what they say, never where they are. The current player's
    corrections sit under them, always in the same place."""
    assert state.current_player is not None
    current = state.truck(state.current_player)
    key = w.slug(current.player)
    corrections = ft.Row(
        [
            ft.TextButton(
                w.t(view, "ui.heartland.correct_money"),
                key=f"adjust-{key}",
                height=view.grown(w.TARGET),
                on_click=lambda _: view.act.open_panel("adjust", player=current.player),
            ),
            ft.TextButton(
                w.t(view, "ui.heartland.correct_cargo"),
                key=f"correct-cargo-{key}",
                height=view.grown(w.TARGET),
                on_click=lambda _: view.act.open_panel("cargo", player=current.player),
            ),
        ],
        spacing=0,
        key="corrections",
    )
    return [
        *(
            _memo_card(
                view,
                truck,
                truck.player == state.current_player,
                state.players,
                state.capacity,
                key=f"memo-card-{w.slug(truck.player)}",
            )
            for truck in state.trucks
        ),
        corrections,
    ]


@ft.component
def PlayerCard(view: View, truck: Truck, current: bool, players: tuple[str, ...], capacity: int) -> ft.Control:
    """A card is a memoized component of what it shows: a tap redraws and diffs the cards
    that changed (the player who acted, the turn passing), not every card, on every page
    following the game."""
    return player_card(view, truck, current, players, capacity)


_memo_card = ft.memo(PlayerCard)  # type: ignore[no-untyped-call]  # Flet leaves memo untyped


def player_card(view: View, truck: Truck, current: bool, players: tuple[str, ...], capacity: int) -> ft.Control:
    colour = w.player_colour(view, players, truck.player)
    key = w.slug(truck.player)
    load = w.t(view, "ui.heartland.capacity", cubes=truck.cubes, capacity=capacity)
    if truck.upgrade:
        load = f"{load} · {truck.upgrade}"
    name: list[ft.Control] = [one_line(truck.player, 18, bold=True, colour=colour)]
    if current:
        name.append(one_line(w.t(view, "ui.heartland.playing_now"), 13, key=f"now-{key}"))
    cargo_line = one_line(heartland_sheets.cargo_text(view, truck), 14, key=f"cargo-{key}")
    cubes_line = one_line(load, 14, key=f"cubes-{key}")
    large = w.is_large(view)
    # At a large text size the card is half as tall again: the cargo and the cubes
    # each get their own, and "playing now" goes under the name rather than under the money.
    details: ft.Control = (
        ft.Column([cargo_line, cubes_line], spacing=0)
        if large
        else ft.Row([ft.Container(cargo_line, expand=True), cubes_line], spacing=8)
    )
    # Two targets on every card, whoever plays (section 4: any player, any time): the name
    # and cargo correct the cargo, the money corrects the money. The same on every card, so
    # the turn passing never turns one under a resting finger into another.
    cargo = ft.Container(
        ft.Column([ft.Row(name, spacing=8, wrap=large), details], spacing=0, alignment=ft.MainAxisAlignment.CENTER),
        expand=True,
        key=f"card-cargo-{key}",
        on_click=lambda _: view.act.open_panel("cargo", player=truck.player),
        tooltip=w.t(view, "ui.heartland.correct_cargo_of", player=truck.player),
    )
    money = ft.Container(
        w.big_number(w.money(view, truck.money), key=f"money-{key}", view=view),
        alignment=ft.Alignment.CENTER_RIGHT,
        width=view.grown_less(MONEY_WIDTH),
        key=f"card-money-{key}",
        on_click=lambda _: view.act.open_panel("adjust", player=truck.player),
        tooltip=w.t(view, "ui.heartland.correct_money_of", player=truck.player),
    )
    return ft.Container(
        ft.Row([cargo, money], spacing=8, vertical_alignment=ft.CrossAxisAlignment.STRETCH),
        # One border width for all: a thicker one for the current player moved what is inside.
        border=ft.Border.all(2, colour),
        border_radius=10,
        height=view.grown(CARD_HEIGHT) * (1.5 if large else 1),
        bgcolor=ft.Colors.with_opacity(0.10, colour) if current else None,
        padding=ft.Padding.symmetric(horizontal=12, vertical=4),
        key=f"card-{key}",
    )


def turn_actions(view: View, state: HeartlandState) -> ft.Control:
    player = state.current_player
    assert player is not None
    truck = state.truck(player)

    def move(spaces: int, pay: str) -> dict[str, Any]:
        return {"type": "move", "player": player, "spaces": spaces, "pay": pay}

    rows: list[ft.Control] = [
        w.text(w.t(view, "ui.heartland.move"), 13, bold=True),
        ft.Row(
            [
                w.event_button(
                    view,
                    w.t(view, "ui.heartland.move_cash", spaces=n, cost=w.money(view, n)),
                    move(n, "cash"),
                    key=f"move-cash-{n}",
                    expand=True,
                )
                for n in (1, 2, 3)
            ]
        ),
        ft.Row(
            [
                w.event_button(
                    view,
                    w.t(view, "ui.heartland.move_fuel", spaces=n),
                    move(n, "fuel"),
                    key=f"move-fuel-{n}",
                    expand=True,
                )
                for n in (1, 2, 3)
            ]
            + [
                w.event_button(
                    view, w.t(view, "ui.heartland.tow"), {"type": "tow", "player": player}, key="tow", expand=True
                )
            ]
        ),
        w.text(w.t(view, "ui.heartland.action"), 13, bold=True),
        ft.Row([load_button(view, state, player), unload_button(view, truck), discard_button(view, state, player)]),
    ]
    if state.alternate_routes:
        weigh = weigh_station_cost(truck)
        rows.append(w.text(w.t(view, "ui.heartland.road"), 13, bold=True))
        rows.append(
            ft.Row(
                [
                    w.event_button(
                        view,
                        w.t(view, "ui.heartland.toll", cost=w.money(view, 1)),
                        {"type": "toll", "player": player},
                        key="toll",
                        expand=True,
                    ),
                    w.event_button(
                        view,
                        w.t(view, "ui.heartland.weigh_station", cost=w.money(view, weigh)),
                        {"type": "weigh_station", "player": player},
                        key="weigh",
                        expand=True,
                    ),
                ]
            )
        )
    if state.truck_stops and truck.upgrade is None:
        # Any name and a $0 cost: asks only whether buying is possible at this point of the turn.
        refusal = view.check({"type": "buy_upgrade", "player": player, "name": "?", "cost": 0})
        rows.append(
            w.action(
                w.t(view, "ui.heartland.buy_upgrade"),
                lambda: view.act.open_panel("upgrade", name="", cost=0),
                key="upgrade",
                refusal=refusal,
                view=view,
            )
        )
    return ft.Column(rows, spacing=6)


def end_turn_button(view: View, state: HeartlandState) -> ft.Control:
    player = state.current_player or ""
    next_player = state.players[(state.turn.seat + 1) % len(state.players)]
    label = w.t(view, "ui.heartland.end_turn", player=player, next=next_player)
    if state.final_round and state.final_round_players == (player,):
        label = w.t(view, "ui.heartland.end_last_turn", player=player)
    return w.event_button(view, label, {"type": "end_turn", "player": player}, key="end-turn", primary=True)


def load_button(view: View, state: HeartlandState, player: str) -> ft.Control:
    refusal = view.check({"type": "load", "player": player, "good": "corn", "cubes": 1})
    return w.action(
        w.t(view, "ui.heartland.load"),
        lambda: view.act.open_panel("load"),
        key="load",
        refusal=refusal,
        view=view,
        expand=True,
    )


def unload_button(view: View, truck: Truck) -> ft.Control:
    carried = next((good for good in GOODS if truck.carried(good)), None)
    if carried is None:
        refusal: str | None = w.t(view, "ui.heartland.nothing_to_unload", player=truck.player)
    else:
        refusal = view.check({"type": "unload", "player": truck.player, "good": carried, "cubes": 1, "price": 1})
    return w.action(
        w.t(view, "ui.heartland.unload"),
        lambda: view.act.open_panel("unload"),
        key="unload",
        refusal=refusal,
        view=view,
        expand=True,
    )


def discard_button(view: View, state: HeartlandState, player: str) -> ft.Control:
    truck = state.truck(player)
    forced = state.turn.move == "tow" or truck.money == 0
    cost = discard_cost(state, player, forced)
    if cost == 0:
        label = w.t(view, "ui.heartland.discard_free")
    else:
        label = w.t(view, "ui.heartland.discard_forced" if forced else "ui.heartland.discard", cost=w.money(view, cost))
    return w.event_button(
        view, label, {"type": "discard", "player": player, "forced": forced}, key="discard", expand=True
    )


# --- set-up ---------------------------------------------------------------------------

SETUP_DEFAULTS = {"target": "rulebook", "custom_target": 40}
SWITCHES = ("short_haul", "alternate_routes", "truck_stops")  # each labelled ui.new.heartland.<name>
CUSTOM_TARGETS = (20, 25, 30, 35, 40, 45, 50, 60)  # a custom target is usually a round amount: one tap
MAX_TARGET = 999


def setup_options(draft: dict[str, Any]) -> dict[str, Any]:
    target = draft["custom_target"] if draft["target"] == "custom" else draft["target"]
    return {"target": target, **{name: bool(draft.get(name)) for name in SWITCHES}}


def setup_summary(view: View, draft: dict[str, Any]) -> str:
    """New game's line above Start for what lies below the fold: the target and the variants on."""
    target = (
        draft["custom_target"] if draft["target"] == "custom" else TARGETS[draft["target"]].get(len(draft["players"]))
    )
    shown = w.money(view, target) if target is not None else w.t(view, "ui.new.heartland.by_count")
    return w.t(view, "ui.new.heartland.summary", target=shown, count=sum(bool(draft.get(name)) for name in SWITCHES))


def describe_options(view: View, session: Session) -> list[str]:
    """A finished game's options in New game's words: its target and where it came from, then
    each variant switched on."""
    options, chosen = session.options, []
    if "target" in options:
        state: HeartlandState = session.game.setup(session.players, options)
        rule = options["target"] if isinstance(options["target"], str) else "custom"
        source = w.t(view, f"ui.heartland.source.{rule}")
        chosen.append(w.t(view, "ui.detail.target", target=w.money(view, state.target), source=source))
    chosen.extend(w.t(view, f"ui.new.heartland.{name}") for name in SWITCHES if options.get(name) is True)
    return chosen


def setup(view: View, draft: dict[str, Any]) -> list[ft.Control]:
    """New game: the money target (rulebook, blog or custom) and the variants."""
    count = len(draft["players"])
    known = count in TARGETS["rulebook"]

    def value(rule: str) -> str:
        if rule == "custom":
            return w.money(view, draft["custom_target"])
        return w.money(view, TARGETS[rule][count]) if known else w.t(view, "ui.new.heartland.by_count")

    choices = []
    for rule in ("rulebook", "blog", "custom"):
        label = w.t(view, f"ui.new.heartland.{rule}", value=value(rule))
        chosen = draft["target"] == rule
        choices.append(
            inputs.choice(
                label, chosen, functools.partial(view.act.set_draft, target=rule), key=f"target-{rule}", view=view
            )
        )
    # One under the other, full width: three in a row wrapped "Rulebook $40" beside its tick, and
    # the row changed height as players were added (its value changing), moving what was below.
    controls: list[ft.Control] = [
        w.text(w.t(view, "ui.new.heartland.target"), 15, bold=True),
        ft.Column(choices, spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
    ]
    if draft["target"] == "custom":
        controls.append(
            inputs.count_picker(
                view,
                w.t(view, "ui.new.heartland.custom_target"),
                ("custom_target",),
                CUSTOM_TARGETS,
                key="custom-target",
                low=1,
                high=MAX_TARGET,
                default=40,
                chip_label=lambda value: w.money(view, value),
            )
        )
    for name in SWITCHES:
        # A row a finger can hit anywhere along, 48 px tall like every other target.
        switch = ft.Switch(
            label=w.t(view, f"ui.new.heartland.{name}"),
            value=bool(draft.get(name)),
            key=f"option-{name}",
            height=view.grown(w.TARGET),
            on_change=lambda e, name=name: view.act.set_draft(**{name: bool(e.control.value)}),
        )
        controls.append(ft.Container(switch, height=view.grown(w.TARGET), alignment=ft.Alignment.CENTER_LEFT))
    return controls


# --- sheets -----------------------------------------------------------------------------


def sheet(view: View) -> ft.DialogControl | None:
    assert view.session is not None
    state: HeartlandState = view.session.state
    builders = {
        "log": lambda: sheets.log_panel(view, log_context(view)),
        "load": lambda: heartland_sheets.load_panel(view, state),
        "unload": lambda: heartland_sheets.unload_panel(view, state),
        "adjust": lambda: heartland_sheets.adjust_panel(view, state),
        "upgrade": lambda: heartland_sheets.upgrade_panel(view, state),
        "cargo": lambda: heartland_sheets.cargo_panel(view, state),
    }
    builder = builders.get(view.ui.panel or "")
    return builder() if builder else None


def round_of(state: HeartlandState) -> int:
    return state.round


def log_context(view: View) -> Callable[[int], str]:
    """Line `number` of the log -> "round 3": the round of the state before the event."""
    return layout.round_context(view, round_of, "ui.heartland.log_round")


# --- the end ----------------------------------------------------------------------------


def end_screen(view: View, state: HeartlandState) -> ft.Control:
    assert view.session is not None
    standings = view.session.standings()
    cards: list[ft.Control] = w.present(
        w.text(w.t(view, "ui.heartland.final_standings"), 20, bold=True, key="final-standings"), w.stopped_line(view)
    )
    for standing in standings:
        detail = standing.detail
        colour = w.player_colour(view, state.players, standing.player)
        lines: list[ft.Control] = [
            ft.Row(
                [
                    w.text(ranked(view, standing), 20, bold=True, colour=colour, key=f"rank-{w.slug(standing.player)}"),
                    w.big_number(w.money(view, standing.score), key=f"final-{w.slug(standing.player)}", view=view),
                ],
                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            ),
            w.text(w.t(view, "ui.heartland.money", money=w.money(view, detail["money"])), 15),
        ]
        for line in detail["penalty_lines"]:
            lines.append(
                w.text(
                    w.t(
                        view,
                        "ui.heartland.penalty_line",
                        good=heartland_sheets.good_name(view, line["good"]),
                        cubes=w.t(view, "ui.cubes", count=line["cubes"]),
                        each=w.money(view, line["each"]),
                        total=w.money(view, line["total"]),
                    ),
                    15,
                )
            )
        if not detail["penalty_lines"]:
            lines.append(w.text(w.t(view, "ui.heartland.no_penalty"), 15))
        cards.append(
            ft.Container(ft.Column(lines, spacing=2), border=ft.Border.all(2, colour), border_radius=10, padding=10)
        )
    for line in tie_lines(
        standings,
        functools.partial(w.money, view),
        w.t(view, "ui.heartland.fewer_cubes"),
        lambda s: w.t(view, "ui.cubes", count=s.detail["cubes"]),
        view.language,
    ):
        cards.append(w.text(line, 15, key="tie-break"))
    penalties = ", ".join(
        w.t(view, "ui.heartland.penalty_of", good=heartland_sheets.good_name(view, good), cost=w.money(view, cost))
        for good, cost in PENALTY_PER_CUBE.items()
    )
    cards.append(w.text(w.t(view, "ui.heartland.penalties", penalties=penalties), 12, colour=w.QUIET))
    cards.append(w.rules_button(view, "end", key="rules-end"))
    return ft.Column(cards, spacing=8)


def result(view: View) -> ft.Control:
    """The end screen again (a finished game's detail)."""
    assert view.session is not None
    return end_screen(view, view.session.state)


def ranked(view: View, standing: Any) -> str:
    line = w.t(view, "ui.rank", ordinal=ordinal(standing.rank, view.language), player=standing.player)
    return w.t(view, "ui.winner_mark", line=line) if standing.winner else line


SCREEN = GameScreen(
    build=build,
    sheet=sheet,
    result=result,
    setup=setup,
    setup_options=setup_options,
    setup_summary=setup_summary,
    setup_defaults=SETUP_DEFAULTS,
    chart_caption=CHART_CAPTION,
    describe_options=describe_options,
)

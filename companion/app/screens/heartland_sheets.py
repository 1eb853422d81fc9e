"""The Great Heartland Hauling Co.'s sheets: load, unload, a money or cargo correction, an
upgrade (its screen, set-up and end: heartland.py)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import flet as ft

from companion.app import inputs, sheets
from companion.app import widgets as w
from companion.app.screens import heartland_words  # noqa: F401  (registers the words shown here)
from companion.rules.heartland import GOODS, MAX_PRICE, HeartlandState, Truck
from companion.text.messages import term

if TYPE_CHECKING:
    from companion.app.view import View


def cargo_text(view: View, truck: Truck) -> str:
    loads = [
        w.t(view, "ui.heartland.load_of", count=count, good=good)
        for good, count in zip(GOODS, truck.cargo, strict=True)
        if count
    ]
    return ", ".join(loads) if loads else w.t(view, "ui.heartland.empty_truck")


def good_name(view: View, good: str) -> str:
    return term("good", good, view.language)


def load_panel(view: View, state: HeartlandState) -> ft.DialogControl:
    player = state.current_player or ""
    room = state.capacity - state.truck(player).cubes
    rows: list[ft.Control] = [w.text(w.t(view, "ui.heartland.room", player=player, count=room), 14)]
    for good in GOODS:
        buttons = [
            w.event_button(
                view,
                str(count),
                {"type": "load", "player": player, "good": good, "cubes": count},
                key=f"load-{good}-{count}",
                compact=True,
            )
            for count in range(1, max(1, room) + 1)
        ]
        rows.append(w.text(good_name(view, good), 16, bold=True))
        rows.append(ft.Row(buttons, wrap=True, spacing=w.CHIP_SPACING, run_spacing=w.CHIP_SPACING))
    return sheets.sheet(
        view,
        w.t(view, "ui.heartland.load_title", player=player),
        rows,
        key="load-panel",
        footer=[w.rules_button(view, "load", key="rules-load")],
    )


def last_price(view: View, good: str) -> int | None:
    """The price last paid for the good in this game, else the one this table last used."""
    assert view.session is not None
    unloaded = view.session.last_event(lambda event: event["type"] == "unload" and event["good"] == good)
    if unloaded is not None:
        return int(unloaded["price"])
    return view.data.recall(f"heartland.price.{good}")


def unload_panel(view: View, state: HeartlandState) -> ft.DialogControl:
    """One row of prices shared by every good, then each carried good's counts: the last
    price paid for a good stands until another is tapped, so a usual unload is two taps."""
    player = state.current_player or ""
    truck = state.truck(player)
    chosen = view.ui.draft.get("price")
    carried = [good for good in GOODS if truck.carried(good)]
    suggestions = {good: last_price(view, good) for good in carried}
    rows: list[ft.Control] = [
        ft.Row(
            [
                w.text(w.t(view, "ui.heartland.price_hint"), 14, expand=True),
                inputs.number_field(
                    view,
                    w.t(view, "ui.heartland.price_typed"),
                    ("price",),
                    key="price-typed",
                    low=1,
                    high=MAX_TYPED_PRICE,
                ),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        inputs.chips(
            view,
            range(1, MAX_PRICE + 1),
            chosen,
            functools.partial(inputs.pick_number, view, ("price",)),
            key="price",
            label=functools.partial(w.money, view),
            describe=lambda price: w.t(view, "ui.heartland.per_cube", price=w.money(view, price)),
            suggested=next((price for price in suggestions.values() if price), None) if chosen is None else None,
        ),
    ]
    for good in carried:
        price = chosen or suggestions[good]
        name = good_name(view, good)
        if not price:
            heading = w.t(view, "ui.heartland.price_first", good=name)
        else:
            heading = w.t(
                view,
                "ui.heartland.price" if chosen else "ui.heartland.price_last",
                good=name,
                price=w.money(view, price),
            )
        rows.append(w.text(heading, 16, bold=True, key=f"price-{good}"))
        buttons = [unload_count(view, player, good, count, price) for count in range(1, truck.carried(good) + 1)]
        rows.append(ft.Row(buttons, wrap=True, spacing=w.CHIP_SPACING, run_spacing=w.CHIP_SPACING))
    return sheets.sheet(
        view,
        w.t(view, "ui.heartland.unload_title", player=player),
        rows,
        key="unload-panel",
        footer=[w.rules_button(view, "unload", key="rules-unload")],
    )


def unload_count(view: View, player: str, good: str, count: int, price: int | None) -> ft.Control:
    """Unload `count` cubes at the price shown, or at one typed since the sheet was drawn."""
    key = f"unload-{good}-{count}"
    if not price:
        return w.action(
            str(count),
            lambda: None,
            key=key,
            view=view,
            refusal=w.t(view, "ui.heartland.tap_price_first", good=good_name(view, good)),
        )

    event = {"type": "unload", "player": player, "good": good, "cubes": count, "price": price}
    return w.event_button(
        view,
        w.t(view, "ui.heartland.unload_count", count=count, earned=w.money(view, count * price)),
        event,
        key=key,
        after=functools.partial(view.act.remember_habit, f"heartland.price.{good}", price),
    )


CORRECTIONS = (*range(-10, 0), *range(1, 11))
MAX_TYPED_PRICE = 99  # a printed price beyond the chips, typed
MAX_CORRECTION = 999
UPGRADE_COSTS = tuple(range(0, 11))  # printed on the Truck Stop cards, not in the rules: the usual few, one tap


def adjust_panel(view: View, state: HeartlandState) -> ft.DialogControl:
    """A correction in three taps: Correct money, the amount, Save."""
    draft = view.ui.draft
    player = draft.get("player") or state.players[0]
    amount = int(draft.get("amount", 0))
    held = state.truck(player).money
    note = draft.get("note", w.t(view, "ui.heartland.correction"))
    rows: list[ft.Control] = [
        w.text(w.t(view, "ui.heartland.adjust_hint", player=player, money=w.money(view, held)), 14),
        inputs.count_picker(
            view,
            w.t(view, "ui.heartland.amount"),
            ("amount",),
            [value for value in CORRECTIONS if value >= -held],
            key="adjust",
            low=-held,
            high=MAX_CORRECTION,
            default=0,
            chip_label=lambda value: f"{value:+d}",
            describe=lambda value: w.t(view, "ui.heartland.adjust_amount", amount=f"{value:+d}", dollars=abs(value)),
        ),
        ft.TextField(
            label=w.t(view, "ui.heartland.why"),
            value=note,
            key="adjust-note",
            max_length=60,
            on_change=lambda e: view.act.set_draft(quiet=True, note=e.control.value),
        ),
    ]
    event = {"type": "adjust", "player": player, "amount": amount, "note": note}
    change = ("+" if amount >= 0 else "") + w.money(view, amount)
    label = w.t(view, "ui.heartland.adjust_save", player=player, change=change, money=w.money(view, held + amount))

    def record() -> None:
        view.act.apply(dict(event, note=view.ui.draft.get("note", note)), tapped="adjust-save")

    save = w.action(label, record, key="adjust-save", primary=True, view=view, refusal=view.check(event))
    return sheets.sheet(
        view, w.t(view, "ui.heartland.correct_money_of", player=player), rows, key="adjust-panel", footer=[save]
    )


CARGO_CORRECTIONS = (-4, -3, -2, -1, 1, 2, 3, 4)
MAX_CARGO_CORRECTION = 15  # a good has 15 cubes in the box


def cargo_panel(view: View, state: HeartlandState) -> ft.DialogControl:
    """A load or unload recorded wrong (or missed), fixed in three taps without undoing what
    came after: Correct cargo, a good's count, Save."""
    draft = view.ui.draft
    player = draft.get("player") or state.players[0]
    truck = state.truck(player)
    chosen_good, cubes = draft.get("good"), int(draft.get("cubes", 0))
    note = draft.get("note", w.t(view, "ui.heartland.correction"))
    rows: list[ft.Control] = [
        w.text(
            w.t(
                view,
                "ui.heartland.cargo_hint",
                player=player,
                cargo=cargo_text(view, truck),
                cubes=truck.cubes,
                capacity=state.capacity,
            ),
            14,
        )
    ]
    for good in GOODS:
        typed = inputs.number_field(
            view,
            w.t(view, "ui.number.other"),
            ("typed_cubes", good),
            key=f"cargo-{good}-typed",
            low=-MAX_CARGO_CORRECTION,
            high=MAX_CARGO_CORRECTION,
            on_number=functools.partial(type_cargo, view, good),
            spoken=w.t(view, "ui.number.other_for", what=good_name(view, good)),
        )
        rows.append(
            ft.Row(
                [
                    w.text(
                        w.t(view, "ui.heartland.on_truck", good=good_name(view, good), count=truck.carried(good)),
                        15,
                        bold=True,
                        key=f"carried-{good}",
                        expand=True,
                    ),
                    typed,
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
        values = [value for value in CARGO_CORRECTIONS if truck.carried(good) + value >= 0]
        rows.append(
            inputs.chips(
                view,
                values,
                cubes if good == chosen_good else None,
                functools.partial(pick_cargo, view, good),
                key=f"cargo-{good}",
                label=lambda value: f"{value:+d}",
                describe=functools.partial(cargo_words, view, good),
            )
        )
    rows.append(
        ft.TextField(
            label=w.t(view, "ui.heartland.why"),
            value=note,
            key="cargo-note",
            max_length=60,
            on_change=lambda e: view.act.set_draft(quiet=True, note=e.control.value),
        )
    )
    event = {"type": "correct_cargo", "player": player, "good": chosen_good or GOODS[0], "cubes": cubes, "note": note}
    if chosen_good and cubes:
        label = w.t(
            view, "ui.heartland.cargo_save", player=player, change=f"{cubes:+d}", cubes=abs(cubes), good=chosen_good
        )
    else:
        label = w.t(view, "ui.heartland.save")

    def record() -> None:
        view.act.apply(dict(event, note=view.ui.draft.get("note", note)), tapped="cargo-save")

    refusal = w.t(view, "ui.heartland.cargo_first") if not (chosen_good and cubes) else None
    save = w.action(label, record, key="cargo-save", primary=True, view=view, refusal=refusal)
    return sheets.sheet(
        view, w.t(view, "ui.heartland.correct_cargo_of", player=player), rows, key="cargo-panel", footer=[save]
    )


def pick_cargo(view: View, good: str, cubes: int) -> None:
    forget_typed_cargo(view, keep=None)  # the chip outranks what was typed beside any good
    view.act.set_draft(good=good, cubes=cubes)


def type_cargo(view: View, good: str, cubes: int) -> None:
    """A change typed beside a good: that good and count (the field draws the sheet again)."""
    forget_typed_cargo(view, keep=good)
    view.act.set_draft(quiet=True, good=good, cubes=cubes)


def forget_typed_cargo(view: View, keep: str | None) -> None:
    typed = view.ui.draft.get("typed")
    if isinstance(typed, dict):
        for good in GOODS:
            if good != keep:
                typed.pop(f"typed_cubes/{good}", None)


def cargo_words(view: View, good: str, cubes: int) -> str:
    return w.t(view, "ui.heartland.cargo_change", change=f"{cubes:+d}", cubes=abs(cubes), good=good)


def upgrade_panel(view: View, state: HeartlandState) -> ft.DialogControl:
    player = state.current_player or ""
    draft = view.ui.draft
    cost = int(draft.get("cost", 0))
    rows: list[ft.Control] = [
        w.text(w.t(view, "ui.heartland.upgrade_hint"), 14),
        ft.TextField(
            label=w.t(view, "ui.heartland.upgrade_name"),
            value=draft.get("name", ""),
            key="upgrade-name",
            max_length=30,
            on_change=lambda e: view.act.set_draft(quiet=True, name=e.control.value),
        ),
        inputs.count_picker(
            view,
            w.t(view, "ui.heartland.cost"),
            ("cost",),
            UPGRADE_COSTS,
            key="upgrade-cost",
            low=0,
            high=MAX_TYPED_PRICE,
            default=0,
            chip_label=functools.partial(w.money, view),
        ),
    ]

    def buy() -> None:
        name = " ".join(str(view.ui.draft.get("name", "")).split())
        if not name:
            view.act.show_notice(w.t(view, "ui.heartland.upgrade_name_first"), tapped="upgrade-buy")
            return
        view.act.apply({"type": "buy_upgrade", "player": player, "name": name, "cost": cost}, tapped="upgrade-buy")

    return sheets.sheet(
        view,
        w.t(view, "ui.heartland.upgrade_title", player=player),
        rows,
        key="upgrade-panel",
        footer=[
            w.action(
                w.t(view, "ui.heartland.buy_for", cost=w.money(view, cost)),
                buy,
                key="upgrade-buy",
                primary=True,
                view=view,
            )
        ],
    )

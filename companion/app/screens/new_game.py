"""New game: pick the game, the players in seat order, and the game's options."""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import theme
from companion.app import widgets as w
from companion.messages import RuleError
from companion.rules import GAMES
from companion.rules.base import MAX_NAME_LENGTH, name_key
from companion.rules.heartland import TARGETS

if TYPE_CHECKING:
    from companion.app.shell import Shell

HEARTLAND_SWITCHES = ("short_haul", "alternate_routes", "truck_stops")  # each labelled ui.new.heartland.<name>
CUSTOM_TARGETS = (20, 25, 30, 35, 40, 45, 50, 60)  # a custom target is usually a round amount: one tap
MAX_TARGET = 999


def draft_of(shell: Shell) -> dict[str, Any]:
    draft = shell.ui.draft
    draft.setdefault("game", "heartland")
    draft.setdefault("players", [])
    draft.setdefault("name", "")
    draft.setdefault("target", "rulebook")
    draft.setdefault("custom_target", 40)
    return draft


def options_of(draft: dict[str, Any]) -> dict[str, Any]:
    if draft["game"] == "heartland":
        target = draft["custom_target"] if draft["target"] == "custom" else draft["target"]
        return {"target": target, **{name: bool(draft.get(name)) for name in HEARTLAND_SWITCHES}}
    if draft["game"] == "great_plains":
        chosen = {name: draft.get(name) for name in ("fox", "first") if draft.get(name) in draft["players"]}
        return chosen
    return {}


def problem(draft: dict[str, Any], language: str = "en") -> str | None:
    """Why this set-up cannot start, in words; None when it can."""
    game = GAMES[draft["game"]]
    try:
        players = game.check_players(draft["players"])
        game.normalize_options(players, options_of(draft))
    except RuleError as error:
        return error.message.text(language)
    return None


def build(shell: Shell) -> ft.Control:
    draft = draft_of(shell)
    back = w.icon_button(ft.Icons.ARROW_BACK, w.t(shell, "ui.back_home"), shell.go_home, key="back")
    header: list[ft.Control] = [ft.Row([back, w.text(w.t(shell, "ui.new.title"), 20, bold=True)])]
    body: list[ft.Control] = [game_picker(shell, draft), players_editor(shell, draft)]
    body.extend(options_editor(shell, draft))
    why_not = problem(draft, shell.language)
    footer: list[ft.Control] = []
    if why_not:
        footer.append(w.text(why_not, 14, key="setup-problem"))
    footer.append(w.action(w.t(shell, "ui.new.start"), lambda: shell.start_game(draft["game"], draft["players"],
                                                                                options_of(draft)),
                           key="start", primary=True, refusal=why_not, shell=shell))
    return w.screen(shell, header, body, footer, key="new-game-screen")


def game_picker(shell: Shell, draft: dict[str, Any]) -> ft.Control:
    buttons = []
    for game_id, game in GAMES.items():
        chosen = draft["game"] == game_id
        players = (w.t(shell, "ui.new.players_exact", count=game.min_players) if game.min_players == game.max_players
                   else w.t(shell, "ui.new.players_range", low=game.min_players, high=game.max_players))
        label = f"{game.title} · {players}"
        buttons.append(w.choice(label, chosen, functools.partial(shell.set_draft, game=game_id), key=f"game-{game_id}"))
    return ft.Column([w.text(w.t(shell, "ui.new.game"), 15, bold=True), *buttons], spacing=6)


def players_editor(shell: Shell, draft: dict[str, Any]) -> ft.Control:
    players: list[str] = draft["players"]
    rows: list[ft.Control] = [w.text(w.t(shell, "ui.new.players"), 15, bold=True)]
    for seat, name in enumerate(players):
        rows.append(player_row(shell, players, seat, name))

    def add(_: Any = None) -> None:
        add_player(shell, draft, str(draft.get("name", "")))

    rows.append(ft.Row([
        ft.TextField(label=w.t(shell, "ui.new.player_name"), value=draft["name"], key="player-name", expand=True,
                     max_length=MAX_NAME_LENGTH,
                     on_change=lambda e: shell.set_draft(quiet=True, name=e.control.value), on_submit=add),
        ft.FilledButton(w.t(shell, "ui.new.add"), on_click=add, key="add-player", height=w.BUTTON_HEIGHT),
    ]))
    known = [name for name in shell.store.known_players()
             if name_key(name) not in {name_key(player) for player in players}][:12]
    if known:
        rows.append(w.text(w.t(shell, "ui.new.played_before"), 13))
        rows.append(ft.Row([
            ft.OutlinedButton(w.t(shell, "ui.new.add_known", name=name), key=f"known-{w.slug(name)}",
                              height=w.BUTTON_HEIGHT,
                              on_click=lambda _, name=name: add_player(shell, draft, name))
            for name in known
        ], wrap=True))
    return ft.Column(rows, spacing=6)


def player_row(shell: Shell, players: list[str], seat: int, name: str) -> ft.Control:
    draft = draft_of(shell)
    place = w.colour_place(draft["game"], players, options_of(draft), name)  # the colour the game will give them
    def moved(offset: int) -> None:
        order = list(players)
        order[seat], order[seat + offset] = order[seat + offset], order[seat]
        shell.set_draft(players=order)

    key = w.slug(name)
    return ft.Row([
        ft.Container(width=14, height=14, border_radius=7, bgcolor=theme.seat_colour(place, dark=shell.dark)),
        # The name takes what the buttons leave and wraps: a long one never pushes them off screen.
        ft.Container(w.text(f"{seat + 1}. {name}", 17, key=f"seat-{seat + 1}"), expand=True),
        w.icon_button(ft.Icons.ARROW_UPWARD, w.t(shell, "ui.new.up", name=name), lambda: moved(-1), key=f"up-{key}",
                      disabled=seat == 0),
        w.icon_button(ft.Icons.ARROW_DOWNWARD, w.t(shell, "ui.new.down", name=name), lambda: moved(1),
                      key=f"down-{key}",
                      disabled=seat == len(players) - 1),
        w.icon_button(ft.Icons.CLOSE, w.t(shell, "ui.new.remove", name=name),
                      lambda: shell.set_draft(players=[p for p in players if p != name]), key=f"remove-{key}"),
    ], key=f"player-{key}")


def add_player(shell: Shell, draft: dict[str, Any], raw: str) -> None:
    name = " ".join(raw.split())
    players: list[str] = draft["players"]
    if not name:
        shell.show_notice(w.t(shell, "ui.new.type_a_name"))
        return
    if len(name) > MAX_NAME_LENGTH:
        shell.show_notice(w.t(shell, "players.name_long", name=name, high=MAX_NAME_LENGTH))
        return
    if name_key(name) in {name_key(player) for player in players}:
        shell.show_notice(w.t(shell, "ui.new.already_playing", name=name))
        return
    shell.set_draft(players=[*players, name], name="")


def options_editor(shell: Shell, draft: dict[str, Any]) -> list[ft.Control]:
    if draft["game"] == "heartland":
        return heartland_options(shell, draft)
    if draft["game"] == "great_plains":
        return great_plains_options(shell, draft)
    if draft["game"] == "transamerica":
        return [w.text(w.t(shell, "ui.new.transamerica.about"), 14)]
    return []


def heartland_options(shell: Shell, draft: dict[str, Any]) -> list[ft.Control]:
    count = len(draft["players"])
    known = count in TARGETS["rulebook"]

    def value(rule: str) -> str:
        if rule == "custom":
            return w.money(shell, draft["custom_target"])
        return w.money(shell, TARGETS[rule][count]) if known else w.t(shell, "ui.new.heartland.by_count")

    choices = []
    for rule in ("rulebook", "blog", "custom"):
        label = w.t(shell, f"ui.new.heartland.{rule}", value=value(rule))
        chosen = draft["target"] == rule
        choices.append(w.choice(label, chosen, functools.partial(shell.set_draft, target=rule), key=f"target-{rule}"))
    controls: list[ft.Control] = [w.text(w.t(shell, "ui.new.heartland.target"), 15, bold=True),
                                  ft.Row(choices, wrap=True)]
    if draft["target"] == "custom":
        controls.append(w.count_picker(shell, w.t(shell, "ui.new.heartland.custom_target"), ("custom_target",),
                                       CUSTOM_TARGETS, key="custom-target", low=1, high=MAX_TARGET, default=40,
                                       chip_label=lambda value: w.money(shell, value)))
    for name in HEARTLAND_SWITCHES:
        # A row a finger can hit anywhere along, 48 px tall like every other target.
        switch = ft.Switch(label=w.t(shell, f"ui.new.heartland.{name}"), value=bool(draft.get(name)),
                           key=f"option-{name}",
                           on_change=lambda e, name=name: shell.set_draft(**{name: bool(e.control.value)}))
        controls.append(ft.Container(switch, height=w.TARGET, alignment=ft.Alignment.CENTER_LEFT))
    return controls


def great_plains_options(shell: Shell, draft: dict[str, Any]) -> list[ft.Control]:
    players: list[str] = draft["players"]
    if not players:
        return [w.text(w.t(shell, "ui.new.great_plains.add_two"), 14)]
    first_buttons = player_choice(shell, draft, "first", "ui.new.great_plains.first")
    first_buttons.append(ft.OutlinedButton(w.t(shell, "ui.new.great_plains.draw"), key="first-random",
                                           icon=ft.Icons.CASINO,
                                           height=w.BUTTON_HEIGHT,
                                           on_click=lambda _: shell.set_draft(first=random.choice(players))))
    return [w.text(w.t(shell, "ui.new.great_plains.fox"), 15, bold=True),
            ft.Row(player_choice(shell, draft, "fox", "ui.new.great_plains.is_fox"), wrap=True),
            w.text(w.t(shell, "ui.new.great_plains.who_first"), 15, bold=True),
            ft.Row(first_buttons, wrap=True)]


def player_choice(shell: Shell, draft: dict[str, Any], option: str, label_id: str) -> list[ft.Control]:
    """One button per player for an option naming a player (the first listed until one is tapped)."""
    players: list[str] = draft["players"]
    current = draft.get(option) if draft.get(option) in players else players[0]
    buttons: list[ft.Control] = []
    for player in players:
        buttons.append(w.choice(w.t(shell, label_id, player=player), player == current,
                                functools.partial(shell.set_draft, **{option: player}),
                                key=f"{option}-{w.slug(player)}"))
    return buttons

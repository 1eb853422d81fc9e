"""New game: pick the game, the players in seat order, and the game's options."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import theme
from companion.app import widgets as w
from companion.messages import RuleError
from companion.rules import GAMES
from companion.rules.heartland import TARGETS

if TYPE_CHECKING:
    from companion.app.shell import Shell

HEARTLAND_SWITCHES = (
    ("short_haul", "Short Haul (trucks carry 6)"),
    ("alternate_routes", "Alternate Routes (tolls, weigh stations)"),
    ("truck_stops", "Truck Stops (upgrades)"),
)


def draft_of(shell: Shell) -> dict[str, Any]:
    draft = shell.ui.draft
    draft.setdefault("game", "heartland")
    draft.setdefault("players", [])
    draft.setdefault("name", "")
    draft.setdefault("target", "rulebook")
    draft.setdefault("custom_target", 40)
    return draft


def check(chosen: bool) -> ft.IconData | None:
    """A tick on the chosen button, so the choice is not told by colour alone."""
    return ft.Icons.CHECK if chosen else None


def options_of(draft: dict[str, Any]) -> dict[str, Any]:
    if draft["game"] == "heartland":
        target = draft["custom_target"] if draft["target"] == "custom" else draft["target"]
        return {"target": target, **{name: bool(draft.get(name)) for name, _ in HEARTLAND_SWITCHES}}
    if draft["game"] == "great_plains":
        chosen = {name: draft.get(name) for name in ("fox", "first") if draft.get(name) in draft["players"]}
        return chosen
    return {}


def problem(draft: dict[str, Any]) -> str | None:
    """Why this set-up cannot start, in words; None when it can."""
    game = GAMES[draft["game"]]
    try:
        players = game.check_players(draft["players"])
        game.normalize_options(players, options_of(draft))
    except RuleError as error:
        return str(error)
    return None


def build(shell: Shell) -> ft.Control:
    draft = draft_of(shell)
    back = w.icon_button(ft.Icons.ARROW_BACK, "Back to all games", shell.go_home, key="back")
    header: list[ft.Control] = [ft.Row([back, w.text("New game", 20, bold=True)])]
    body: list[ft.Control] = [game_picker(shell, draft), players_editor(shell, draft)]
    body.extend(options_editor(shell, draft))
    why_not = problem(draft)
    footer: list[ft.Control] = []
    if why_not:
        footer.append(w.text(why_not, 14, key="setup-problem"))
    footer.append(w.action("Start game", lambda: shell.start_game(draft["game"], draft["players"], options_of(draft)),
                           key="start", primary=True, refusal=why_not, shell=shell))
    return w.screen(shell, header, body, footer, key="new-game-screen")


def game_picker(shell: Shell, draft: dict[str, Any]) -> ft.Control:
    buttons = []
    for game_id, game in GAMES.items():
        chosen = draft["game"] == game_id
        players = (f"{game.min_players} players" if game.min_players == game.max_players
                   else f"{game.min_players}–{game.max_players} players")
        label = f"{game.title} · {players}"
        button_type = ft.FilledButton if chosen else ft.OutlinedButton
        buttons.append(button_type(label, key=f"game-{game_id}", height=w.BUTTON_HEIGHT, icon=check(chosen),
                                   on_click=lambda _, game_id=game_id: shell.set_draft(game=game_id)))
    return ft.Column([w.text("Game", 15, bold=True), *buttons], spacing=6)


def players_editor(shell: Shell, draft: dict[str, Any]) -> ft.Control:
    players: list[str] = draft["players"]
    rows: list[ft.Control] = [w.text("Players, in seat order (the first plays first)", 15, bold=True)]
    for seat, name in enumerate(players):
        rows.append(player_row(shell, players, seat, name))

    def add(_: Any = None) -> None:
        add_player(shell, draft, str(draft.get("name", "")))

    rows.append(ft.Row([
        ft.TextField(label="Player name", value=draft["name"], key="player-name", expand=True, max_length=30,
                     on_change=lambda e: shell.set_draft(quiet=True, name=e.control.value), on_submit=add),
        ft.FilledButton("Add", on_click=add, key="add-player", height=w.BUTTON_HEIGHT),
    ]))
    known = [name for name in shell.store.known_players()
             if name.casefold() not in {player.casefold() for player in players}][:12]
    if known:
        rows.append(w.text("Played before:", 13))
        rows.append(ft.Row([
            ft.OutlinedButton(f"+ {name}", key=f"known-{w.slug(name)}", height=w.BUTTON_HEIGHT,
                              on_click=lambda _, name=name: add_player(shell, draft, name))
            for name in known
        ], wrap=True))
    return ft.Column(rows, spacing=6)


def player_row(shell: Shell, players: list[str], seat: int, name: str) -> ft.Control:
    def moved(offset: int) -> None:
        order = list(players)
        order[seat], order[seat + offset] = order[seat + offset], order[seat]
        shell.set_draft(players=order)

    key = w.slug(name)
    return ft.Row([
        ft.Container(width=14, height=14, border_radius=7, bgcolor=theme.seat_colour(seat, dark=shell.dark)),
        w.text(f"{seat + 1}. {name}", 17, key=f"seat-{seat + 1}"),
        ft.Container(expand=True),
        w.icon_button(ft.Icons.ARROW_UPWARD, f"Move {name} up", lambda: moved(-1), key=f"up-{key}",
                      disabled=seat == 0),
        w.icon_button(ft.Icons.ARROW_DOWNWARD, f"Move {name} down", lambda: moved(1), key=f"down-{key}",
                      disabled=seat == len(players) - 1),
        w.icon_button(ft.Icons.CLOSE, f"Remove {name}",
                      lambda: shell.set_draft(players=[p for p in players if p != name]), key=f"remove-{key}"),
    ], key=f"player-{key}")


def add_player(shell: Shell, draft: dict[str, Any], raw: str) -> None:
    name = " ".join(raw.split())
    players: list[str] = draft["players"]
    if not name:
        shell.show_notice("Type a name first.")
        return
    if len(name) > 30:
        shell.show_notice(f"The name '{name}' is longer than 30 characters.")
        return
    if name.casefold() in {player.casefold() for player in players}:
        shell.show_notice(f"{name} is already playing; each name must be different.")
        return
    shell.set_draft(players=[*players, name], name="")


def options_editor(shell: Shell, draft: dict[str, Any]) -> list[ft.Control]:
    if draft["game"] == "heartland":
        return heartland_options(shell, draft)
    if draft["game"] == "great_plains":
        return great_plains_options(shell, draft)
    if draft["game"] == "transamerica":
        return [w.text("Everyone starts with 13 points; the start player moves one seat each round.", 14)]
    return []


def heartland_options(shell: Shell, draft: dict[str, Any]) -> list[ft.Control]:
    count = len(draft["players"])
    known = count in TARGETS["rulebook"]

    def value(rule: str) -> str:
        return f"${TARGETS[rule][count]}" if known else "by player count"

    choices = []
    for rule, label in (("rulebook", f"Rulebook {value('rulebook')}"), ("blog", f"Blog {value('blog')}"),
                        ("custom", f"Custom ${draft['custom_target']}")):
        chosen = draft["target"] == rule
        button_type = ft.FilledButton if chosen else ft.OutlinedButton
        choices.append(button_type(label, key=f"target-{rule}", height=w.BUTTON_HEIGHT, icon=check(chosen),
                                   on_click=lambda _, rule=rule: shell.set_draft(target=rule)))
    controls: list[ft.Control] = [w.text("Money target", 15, bold=True), ft.Row(choices, wrap=True)]
    if draft["target"] == "custom":
        controls.append(w.stepper(shell, "Custom target $", ("custom_target",), 40, key="custom-target", low=1,
                                  high=999, steps=(1, 5)))
    for name, label in HEARTLAND_SWITCHES:
        controls.append(ft.Switch(label=label, value=bool(draft.get(name)), key=f"option-{name}",
                                  on_change=lambda e, name=name: shell.set_draft(**{name: bool(e.control.value)})))
    return controls


def great_plains_options(shell: Shell, draft: dict[str, Any]) -> list[ft.Control]:
    players: list[str] = draft["players"]
    if not players:
        return [w.text("Add the two players, then choose who plays Fox (orange).", 14)]
    first_buttons = player_choice(shell, draft, "first", "{} first")
    first_buttons.append(ft.OutlinedButton("Draw at random", key="first-random", icon=ft.Icons.CASINO,
                                           height=w.BUTTON_HEIGHT,
                                           on_click=lambda _: shell.set_draft(first=random.choice(players))))
    return [w.text("Fox (orange) — the other player is Snake (blue)", 15, bold=True),
            ft.Row(player_choice(shell, draft, "fox", "{} is Fox"), wrap=True),
            w.text("Who places first (the rules draw it, apart from who is the Fox)", 15, bold=True),
            ft.Row(first_buttons, wrap=True)]


def player_choice(shell: Shell, draft: dict[str, Any], option: str, label: str) -> list[ft.Control]:
    """One button per player for an option naming a player (the first listed until one is tapped)."""
    players: list[str] = draft["players"]
    current = draft.get(option) if draft.get(option) in players else players[0]
    buttons: list[ft.Control] = []
    for player in players:
        chosen = player == current
        button_type = ft.FilledButton if chosen else ft.OutlinedButton
        buttons.append(button_type(label.format(player), key=f"{option}-{w.slug(player)}", icon=check(chosen),
                                   height=w.BUTTON_HEIGHT,
                                   on_click=lambda _, player=player: shell.set_draft(**{option: player})))
    return buttons

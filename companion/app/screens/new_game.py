"""New game: pick the game, the players in seat order, and the game's options."""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import inputs, layout, theme, wide
from companion.app import widgets as w
from companion.app.screens.registry import game_screen
from companion.rules import GAMES
from companion.rules.base import COLOURS, MAX_NAME_LENGTH, name_key
from companion.text.messages import RuleError

if TYPE_CHECKING:
    from companion.app.view import View

OPTIONS_KEY = "setup-options"  # where the options hint scrolls the page to


def draft_of(view: View) -> dict[str, Any]:
    """The set-up as chosen so far, every input not yet touched at its default (nothing is written)."""
    draft = view.ui.draft
    chosen = draft.get("game")
    game = chosen if isinstance(chosen, str) and chosen in GAMES else next(iter(GAMES))
    defaults = game_screen(game).setup_defaults
    return {"players": [], "name": "", **defaults, **draft, "game": game}


def options_of(draft: dict[str, Any]) -> dict[str, Any]:
    """The options the chosen game starts with: its own (its screen's `setup_options`),
    each player's colour, and who was drawn to play first while that player still does."""
    setup_options = game_screen(draft["game"]).setup_options
    options = dict(setup_options(draft)) if setup_options is not None else {}
    players: list[str] = draft["players"]
    if players and picks_colours(draft["game"]):
        options["colours"] = colours_of(draft)
    if players and draft.get("drawn") == options.get("first", players[0]):
        options["drawn"] = draft["drawn"]
    return options


def picks_colours(game_id: str) -> bool:
    """Whether players pick their colour: not where the game gives it (Great Plains' tribes)."""
    return game_id not in w.COLOUR_PLACES


def colours_of(draft: dict[str, Any]) -> dict[str, str]:
    """Each player's colour, all different: the one they picked, else their seat's, else the next free one."""
    players: list[str] = draft["players"]
    kept = draft.get("colours")
    picked: dict[str, Any] = kept if isinstance(kept, dict) else {}
    colours: dict[str, str] = {}
    for player in players:
        if picked.get(player) in COLOURS and picked[player] not in colours.values():
            colours[player] = picked[player]
    for seat, player in enumerate(players):
        if player not in colours:
            free = [COLOURS[(seat + step) % len(COLOURS)] for step in range(len(COLOURS))]
            colours[player] = next((c for c in free if c not in colours.values()), free[0])
    return {player: colours[player] for player in players}


def next_colour(draft: dict[str, Any], player: str) -> str:
    """The player's colour after one tap: the next one no other player has."""
    colours = colours_of(draft)
    others = {colour for name, colour in colours.items() if name != player}
    start = COLOURS.index(colours[player])
    ahead = [COLOURS[(start + step) % len(COLOURS)] for step in range(1, len(COLOURS) + 1)]
    return next(colour for colour in ahead if colour not in others)


def problem(draft: dict[str, Any], language: str = "en") -> str | None:
    """Why this set-up cannot start, in words; None when it can."""
    game = GAMES[draft["game"]]
    try:
        players = game.check_players(draft["players"])
        game.check_options(players, options_of(draft))
    except RuleError as error:
        return error.message.text(language)
    return None


def build(view: View) -> ft.Control:
    draft = draft_of(view)
    back = w.icon_button(ft.Icons.ARROW_BACK, w.t(view, "ui.back_home"), view.act.go_home, key="back")
    header: list[ft.Control] = [ft.Row([back, w.text(w.t(view, "ui.new.title"), 20, bold=True)])]
    options = options_editor(view, draft)
    body: list[ft.Control] = [
        game_picker(view, draft),
        players_editor(view, draft),
        ft.Column(
            options,
            spacing=10,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            key=ft.ScrollKey(OPTIONS_KEY),  # type: ignore[call-arg]  # flet types it without fields
        ),
    ]
    why_not = problem(draft, view.language)
    footer: list[ft.Control] = []
    if why_not:
        footer.append(w.text(why_not, 14, key="setup-problem"))
    footer.append(options_hint(view, draft))  # under the problem, which comes and goes: it stays put
    footer.append(
        w.action(
            w.t(view, "ui.new.start"),
            lambda: view.act.start_game(draft["game"], draft["players"], options_of(draft)),
            key="start",
            primary=True,
            refusal=why_not,
            view=view,
        )
    )
    if w.is_wide(view):
        # The game and its players beside the game's options (a game without options: the
        # players beside the game); Start under them at the right. The picker stays put either way.
        left, right = (body[:2], options) if options else (body[:1], body[1:2])
        columns = [wide.column(left, key="body"), wide.column(right, key="new-options")]
        return wide.screen(view, header, columns, footer, key="new-game-screen")
    return layout.screen(view, header, body, footer, key="new-game-screen")


def game_picker(view: View, draft: dict[str, Any]) -> ft.Control:
    buttons = []
    for game_id, game in GAMES.items():
        chosen = draft["game"] == game_id
        players = (
            w.t(view, "ui.new.players_exact", count=game.min_players)
            if game.min_players == game.max_players
            else w.t(view, "ui.new.players_range", low=game.min_players, high=game.max_players)
        )
        label = f"{game.title} · {players}"
        buttons.append(
            inputs.choice(
                label, chosen, functools.partial(view.act.set_draft, game=game_id), key=f"game-{game_id}", view=view
            )
        )
    # Full width: a tick appearing on the chosen one resizes nothing.
    return ft.Column(
        [w.text(w.t(view, "ui.new.game"), 15, bold=True), *buttons],
        spacing=6,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def options_hint(view: View, draft: dict[str, Any]) -> ft.Control:
    """Always in view above Start: the options below the fold (Heartland's target and
    variants) in a line, and a tap scrolls the page down to them."""
    summary = game_screen(draft["game"]).setup_summary
    words = summary(view, draft) if summary is not None else w.t(view, "ui.new.options_below")

    async def show(event: ft.Event[Any]) -> None:
        body = scrolling_body(event.control)
        if body is not None:
            await body.scroll_to(scroll_key=OPTIONS_KEY, duration=300)

    return ft.TextButton(
        words,
        icon=ft.Icons.ARROW_DOWNWARD,
        key="options-hint",
        height=view.grown(w.TARGET),
        on_click=show,
        tooltip=w.t(view, "ui.new.options_below"),
    )


def scrolling_body(control: ft.Control) -> ft.Column | None:
    """The screen's scrolling body, found from a control beside it in the screen's column."""
    node: Any = control
    while node is not None:
        for sibling in getattr(node, "controls", None) or []:
            if isinstance(sibling, ft.Column) and sibling.key == "body":
                return sibling
        node = node.parent
    return None


def players_editor(view: View, draft: dict[str, Any]) -> ft.Control:
    """The name field and the names played before on top, the seats below: a player added
    grows the list under the finger, never moves Add or a name chip."""
    players: list[str] = draft["players"]
    rows: list[ft.Control] = [w.text(w.t(view, "ui.new.players"), 15, bold=True)]

    def add(_: Any = None) -> None:  # the name as typed so far (kept quietly, not drawn again)
        add_player(view, str(draft_of(view).get("name", "")))

    async def submitted(event: ft.Event[Any]) -> None:
        add()
        await event.control.focus()  # Enter leaves the keyboard up for the next name

    rows.append(
        ft.Row(
            [
                ft.TextField(
                    label=w.t(view, "ui.new.player_name"),
                    value=draft["name"],
                    key="player-name",
                    expand=True,
                    max_length=MAX_NAME_LENGTH,
                    on_change=lambda e: view.act.set_draft(quiet=True, name=e.control.value),
                    on_submit=submitted,
                ),
                ft.FilledButton(
                    w.t(view, "ui.new.add"), on_click=add, key="add-player", height=view.grown(w.BUTTON_HEIGHT)
                ),
            ]
        )
    )
    playing = {name_key(player) for player in players}
    known = view.data.known_players()[:12]
    if known:
        # A name stays where it is once added, marked as playing (the chips beside it keep their place).
        rows.append(w.text(w.t(view, "ui.new.played_before"), 13))
        rows.append(ft.Row([known_chip(view, name, name_key(name) in playing) for name in known], wrap=True))
    rows.extend(player_row(view, players, seat, name) for seat, name in enumerate(players))
    if len(players) > 1 and not game_screen(draft["game"]).draws_first:
        rows.extend(random_first(view, draft))
    return ft.Column(rows, spacing=6)


def known_chip(view: View, name: str, playing: bool) -> ft.Control:
    """A name played before: one tap adds it. Its icon (+, then a tick once playing) is always
    there, so picking it never widens it and the chips after it stay put."""
    chip = w.action(
        name,
        functools.partial(add_player, view, name),
        key=f"known-{w.slug(name)}",
        view=view,
        chosen=playing,
        describe=w.t(view, "ui.new.playing" if playing else "ui.new.add_known", name=name),
        refusal=w.t(view, "ui.new.already_playing", name=name) if playing else None,
    )
    if isinstance(chip, ft.OutlinedButton) and chip.icon is None:
        chip.icon = ft.Icons.ADD
    return chip


def random_first(view: View, draft: dict[str, Any]) -> list[ft.Control]:
    """Heartland and TransAmerica play from the first seat: a draw turns the seats (their
    order round the table kept) so the drawn player sits first, and the log says who it was."""
    players: list[str] = draft["players"]

    def draw() -> None:  # everyone keeps their colour: it was theirs, not their seat's
        drawn = random.choice(players)
        seat = players.index(drawn)
        view.act.set_draft(players=[*players[seat:], *players[:seat]], drawn=drawn, colours=colours_of(draft))

    controls: list[ft.Control] = [
        ft.Row(
            [
                ft.OutlinedButton(
                    w.t(view, "ui.new.random_first"),
                    icon=ft.Icons.CASINO,
                    key="random-first",
                    height=view.grown(w.BUTTON_HEIGHT),
                    tooltip=w.t(view, "ui.new.random_first.tip"),
                    on_click=lambda _: draw(),
                )
            ]
        )
    ]
    if draft.get("drawn") == players[0]:
        controls.append(w.text(w.t(view, "ui.new.drawn", player=players[0]), 14, key="drawn"))
    return controls


def player_row(view: View, players: list[str], seat: int, name: str) -> ft.Control:
    draft = draft_of(view)
    place = w.colour_place(draft["game"], players, options_of(draft), name)  # the colour the game will give them

    def moved(offset: int) -> None:
        order = list(players)
        order[seat], order[seat + offset] = order[seat + offset], order[seat]
        view.act.set_draft(players=order)

    key = w.slug(name)
    return ft.Row(
        [
            colour_button(view, draft, name, theme.seat_colour(place, dark=view.dark)),
            # The name takes what the buttons leave and wraps: a long one never pushes them off screen.
            ft.Container(w.text(f"{seat + 1}. {name}", 17, key=f"seat-{seat + 1}"), expand=True),
            w.icon_button(
                ft.Icons.ARROW_UPWARD,
                w.t(view, "ui.new.up", name=name),
                lambda: moved(-1),
                key=f"up-{key}",
                disabled=seat == 0,
            ),
            w.icon_button(
                ft.Icons.ARROW_DOWNWARD,
                w.t(view, "ui.new.down", name=name),
                lambda: moved(1),
                key=f"down-{key}",
                disabled=seat == len(players) - 1,
            ),
            w.icon_button(
                ft.Icons.CLOSE,
                w.t(view, "ui.new.remove", name=name),
                lambda: view.act.set_draft(players=[p for p in players if p != name]),
                key=f"remove-{key}",
            ),
        ],
        key=f"player-{key}",
    )


def colour_button(view: View, draft: dict[str, Any], name: str, shade: str) -> ft.Control:
    """The player's colour; where players pick theirs, a tap gives them the next free one."""
    if not picks_colours(draft["game"]):
        return ft.Container(width=14, height=14, border_radius=7, bgcolor=shade)
    colour = colours_of(draft)[name]

    def pick() -> None:  # everyone's colour is kept from the first pick: a seat moved later changes none
        now = draft_of(view)
        view.act.set_draft(colours={**colours_of(now), name: next_colour(now, name)})

    words = w.t(view, "ui.new.colour", name=name, colour=w.t(view, f"term.colour.{colour}"))
    return ft.IconButton(
        ft.Icons.CIRCLE,
        icon_color=shade,
        tooltip=words,
        key=f"colour-{w.slug(name)}",
        on_click=lambda _: pick(),
        width=w.TARGET,
        height=view.grown(w.TARGET),
        size_constraints=ft.BoxConstraints(min_width=w.TARGET, min_height=w.TARGET),
    )


def add_player(view: View, raw: str) -> None:
    name = " ".join(raw.split())
    players: list[str] = draft_of(view)["players"]
    if not name:
        view.act.show_notice(w.t(view, "ui.new.type_a_name"))
        return
    if len(name) > MAX_NAME_LENGTH:
        view.act.show_notice(w.t(view, "players.name_long", name=name, high=MAX_NAME_LENGTH))
        return
    if name_key(name) in {name_key(player) for player in players}:
        view.act.show_notice(w.t(view, "ui.new.already_playing", name=name))
        return
    view.act.set_draft(players=[*players, name], name="")


def options_editor(view: View, draft: dict[str, Any]) -> list[ft.Control]:
    """The chosen game's own options (its screen's `setup`), none for a game without them."""
    setup = game_screen(draft["game"]).setup
    return list(setup(view, draft)) if setup is not None else []

"""Great Plains: two tribes, their tokens, caves and spirits, and prairie-zone scoring."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import inputs, layout, sheets, theme
from companion.app import widgets as w
from companion.app.screens import great_plains_words  # noqa: F401  (registers the words shown here)
from companion.app.screens.offer import GameScreen
from companion.app.ties import tie_lines
from companion.app.widgets import one_line
from companion.rules.great_plains import CAVES, GAME, SPIRITS, TOKENS, GreatPlainsState, Zone
from companion.text.i18n import t

if TYPE_CHECKING:
    from companion.app.view import View
    from companion.session import Session

CHART_CAPTION = "ui.chart.caption.zones"  # what its score chart counts
TRIBE_SEATS = {"fox": 4, "snake": 1}  # orange and blue among the player colours
ZONE_SPACES = tuple(range(1, 13))
ZONE_WATER = tuple(range(0, 4))
ZONE_TOKENS = tuple(range(0, 7))
MAX_SPACES = 200  # the board is 7 tiles; typed
TURN_AREA_HEIGHT = 160  # Place token, the spirit row and the supply
MAX_WATER = 50


def name(kind: str, language: str) -> str:
    """A tribe's or a spirit's name as the game prints it: Fox, Snake; Horse, Eagle, Bear."""
    return t(f"ui.great_plains.{kind}", language)


def subtitle(state: GreatPlainsState, language: str = "en") -> str:
    if state.over:
        return t("ui.great_plains.game_over", language)
    if state.scoring:
        return t("ui.great_plains.scoring_phase", language)
    player = state.current_player or ""
    message_id = "ui.great_plains.subtitle_cave" if state.cave_phase else "ui.great_plains.subtitle_token"
    return t(message_id, language, tribe=name(state.tribe(player), language), player=player)


def status_line(state: GreatPlainsState, language: str = "en") -> str:
    return GAME.status_line(state).text(language)


def build(view: View) -> ft.Control:
    session = view.session
    assert session is not None
    state: GreatPlainsState = session.state
    # As tall as the taller panel, both of them (stretching needs the row's own height: intrinsic).
    body: list[ft.Control] = [
        ft.Row(
            [tribe_panel(view, state, player) for player in state.players],
            vertical_alignment=ft.CrossAxisAlignment.STRETCH,
            intrinsic_height=True,
            key="tribes",
        )
    ]
    if state.over and not w.is_wide(view):
        body = []  # the result gives every figure once: the panels above it said each score twice more
    beside: list[ft.Control] = [scoring(view, state)]
    if not state.over:
        beside.insert(0, turn_area(view, state))
    place = "end" if state.over else ("scoring" if state.scoring else "game")
    header = [w.top_bar(view, GAME.home_title, subtitle(state, view.language), rules=place)]
    footer: list[ft.Control] = [w.undo_strip(view)]
    if state.over:
        footer[:0] = w.present(w.play_again(view), w.details_button(view))
    else:  # the table counts every prairie, then says it is done: only then is there a winner.
        # There from the first cave (muted, saying why, until the last token): its coming would
        # shrink the page above it under the finger.
        footer.insert(0, scoring_done(view, state))
    return layout.screen(view, header, body, footer, key=f"game-{session.id}", beside=beside)


def scoring_done(view: View, state: GreatPlainsState) -> ft.Control:
    """Scoring done; with every token down but no zone counted yet, its tap asks first (one tap
    ended the game 0–0): the table may still end it so, with Record anyway."""
    label = w.t(view, "ui.great_plains.scoring_done")
    event = {"type": "scoring_done"}
    if state.scoring and not state.zones:
        return w.action(
            label,
            lambda: None,
            key="scoring-done",
            primary=True,
            view=view,
            refusal=w.t(view, "ui.great_plains.no_zone_yet"),
            overrule=event,
        )
    return w.event_button(view, label, event, key="scoring-done", primary=True)


def sheet(view: View) -> ft.DialogControl | None:
    assert view.session is not None
    state: GreatPlainsState = view.session.state
    if view.ui.panel == "log":
        return sheets.log_panel(view)
    if view.ui.panel == "zone":
        return zone_panel(view, state)
    if view.ui.panel == "amend_zone" and state.scoring and 1 <= int(view.ui.draft.get("zone", 0)) <= len(state.zones):
        return zone_panel(view, state, amending=int(view.ui.draft["zone"]))
    return None


def tribe_colour(view: View, tribe: str) -> str:
    return theme.seat_colour(TRIBE_SEATS[tribe], dark=view.dark)


def colour_place(players: Sequence[str], options: Mapping[str, Any], player: str) -> int:
    """A player is their tribe's colour (the Fox orange, the Snake blue), whatever their seat."""
    fox = options.get("fox") if options.get("fox") in players else players[0]
    return TRIBE_SEATS["fox" if player == fox else "snake"]


w.COLOUR_PLACES["great_plains"] = colour_place


def tribe_panel(view: View, state: GreatPlainsState, player: str) -> ft.Control:
    tribe = state.tribe(player)
    colour = tribe_colour(view, tribe)
    seat = state.seat(player)
    key = tribe
    current = player == state.current_player
    held = state.spirits_of(player)
    # Both panels hold the same lines, each of one line, and a spirit is a button in both
    # (the other player's says why not when tapped): the turn passing moves nothing.
    spirit_buttons: list[ft.Control] = []
    for spirit in SPIRITS:
        event = {"type": "use_spirit", "player": player, "spirit": spirit}
        spirit_name = name(spirit, view.language)
        if current and held[spirit]:
            label, button_key = w.t(view, "ui.great_plains.use", spirit=spirit_name, count=held[spirit]), "use"
        else:
            label, button_key = w.t(view, "ui.great_plains.held", spirit=spirit_name, count=held[spirit]), "spirit"
        spirit_buttons.append(w.event_button(view, label, event, key=f"{button_key}-{spirit}-{key}"))
    tribe_name = name(tribe, view.language)
    points = w.t(view, "ui.points", count=state.points_of(player))
    if state.scoring or state.over:  # counting the prairies: the points are what matters now
        big, big_key = str(state.points_of(player)), f"total-{key}"
        small = w.t(view, "ui.great_plains.points_word", count=state.points_of(player))
        # The caves and points lines say what decides now, each figure once (the points were
        # said three times: here, in words below, and in the totals under the panels).
        won = sum(1 for zone in state.zones if zone.winner_seat == seat)
        line_a, key_a = w.t(view, "ui.great_plains.zones_won", count=won), f"zones-won-{key}"
        line_b, key_b = w.t(view, "ui.great_plains.spirits_kept", count=sum(held.values())), f"kept-{key}"
    else:
        big, big_key = str(TOKENS - state.tokens[seat]), f"tokens-left-{key}"
        small = w.t(view, "ui.great_plains.tokens_left", placed=state.tokens[seat], total=TOKENS)
        line_a, key_a = w.t(view, "ui.great_plains.caves", placed=state.caves[seat], total=CAVES), f"caves-{key}"
        line_b, key_b = points, f"points-{key}"
    # Two lines each at a large text size: the panels stand side by side in half the width, and
    # both grow alike (the two always say the same kind of thing), so nothing below them moves.
    lines = 2 if w.is_large(view) else 1
    return ft.Container(
        ft.Column(
            [
                one_line(
                    w.t(view, "ui.great_plains.playing", tribe=tribe_name) if current else tribe_name,
                    18,
                    bold=True,
                    colour=colour,
                    lines=lines,
                ),
                one_line(player, 16, lines=lines),
                w.big_number(big, key=big_key, view=view),
                one_line(small, 13, lines=lines),
                one_line(line_a, 14, key=key_a, lines=lines),
                one_line(line_b, 16, bold=True, key=key_b, lines=lines),
                *spirit_buttons,
            ],
            spacing=2,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        ),
        # One border width for both: a thicker one for the player to play moved what is inside.
        border=ft.Border.all(2, colour),
        border_radius=12,
        padding=10,
        expand=True,
        bgcolor=ft.Colors.with_opacity(0.10, colour) if current else None,
        key=f"tribe-{key}",
    )


def turn_area(view: View, state: GreatPlainsState) -> ft.Control:
    """The turn's buttons, in a room as tall for caves, tokens and the scoring that follows:
    the scoring below them stays where it is when the last token is placed. While the table
    counts, the room holds the zones counted, each a tap from its correction (on a phone they
    were below the fold, under the panels and the totals). In the order counted: a new zone
    joins below, and the line a finger may rest on never turns into another zone's."""
    if not state.scoring:
        content = turn_actions(view, state)
    elif not state.zones:  # at the last token: words, nothing to tap under the finger that placed it
        content = w.text(w.t(view, "ui.great_plains.scoring_hint"), 15, key="scoring-hint")
    else:
        zones = [
            w.action(
                zone_line(view, state, number, zone),
                functools.partial(open_amend_zone, view, state, number),
                key=f"zone-{number}",
                describe=w.t(view, "ui.great_plains.amend_tip", number=number),
                view=view,
            )
            for number, zone in enumerate(state.zones, start=1)
        ]
        content = ft.Column(
            [w.text(w.t(view, "ui.great_plains.amend_hint"), 13, colour=w.QUIET, key="amend-hint"), *zones],
            spacing=4,
            scroll=ft.ScrollMode.AUTO,
            key="zones",
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        )
    return ft.Container(content, height=view.grown(TURN_AREA_HEIGHT), key="turn-area")


def open_amend_zone(view: View, state: GreatPlainsState, number: int) -> None:
    counted = state.zones[number - 1]
    view.act.open_panel(
        "amend_zone",
        zone=number,
        spaces=counted.spaces,
        water=counted.water,
        tokens=dict(zip(state.players, counted.tokens, strict=True)),
    )


def turn_actions(view: View, state: GreatPlainsState) -> ft.Control:
    player = state.current_player or ""
    if state.cave_phase:
        # The cave button has exactly Place token's box, with nothing tappable under it: after
        # the sixth cave the spot tapped six times still places (it was "+ Eagle", taken with
        # the first token, when the cave button filled the whole turn area).
        placed = sum(state.caves)
        return ft.Column(
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            spacing=6,
            controls=[
                w.event_button(
                    view,
                    w.t(view, "ui.great_plains.place_cave", number=placed + 1, player=player),
                    {"type": "place_cave", "player": player},
                    key="place-cave",
                    primary=True,
                ),
                w.text(w.t(view, "ui.great_plains.caves_first"), 13, key="caves-first"),
            ],
        )
    supply = dict(zip(SPIRITS, state.supply, strict=True))
    spirit_row = [
        w.event_button(
            view,
            w.t(
                view,
                "ui.great_plains.token_spirit" if supply[spirit] else "ui.great_plains.token_spirit_none",
                spirit=name(spirit, view.language),
            ),
            {"type": "place_token", "player": player, "spirit": spirit},
            key=f"token-{spirit}",
            expand=True,
        )
        for spirit in SPIRITS
    ]
    return ft.Column(
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        controls=[
            w.event_button(
                view,
                w.t(view, "ui.great_plains.place_token", player=player),
                {"type": "place_token", "player": player},
                key="place-token",
                primary=True,
            ),
            w.text(w.t(view, "ui.great_plains.on_spirit"), 13),
            ft.Row(spirit_row),
            w.text(
                w.t(
                    view,
                    "ui.great_plains.supply",
                    spirits=", ".join(f"{name(s, view.language)} {supply[s]}" for s in SPIRITS),
                ),
                13,
                key="supply",
            ),
        ],
        spacing=6,
    )


def zone_line(view: View, state: GreatPlainsState, number: int, zone: Zone) -> str:
    score = "–".join(str(count) for count in zone.tokens)
    if zone.winner_seat is None:
        outcome = w.t(view, "ui.great_plains.zone_tie")
    else:
        winner = state.players[zone.winner_seat]
        outcome = w.t(
            view, "ui.great_plains.zone_won", tribe=name(state.tribe(winner), view.language), points=zone.points
        )
    message_id = "ui.great_plains.zone_line_water" if zone.water else "ui.great_plains.zone_line"
    return w.t(view, message_id, number=number, spaces=zone.spaces, water=zone.water, score=score, outcome=outcome)


def scoring(view: View, state: GreatPlainsState) -> ft.Control:
    assert view.session is not None
    order = " – ".join(name(state.tribe(player), view.language) for player in state.players)
    heading: list[ft.Control] = [w.text(w.t(view, "ui.great_plains.scoring", order=order), 17, bold=True, expand=True)]
    if not state.over:
        # Beside the heading, from the first cave on: whole on a phone (under the totals it was
        # cut to 38 px by the fold), and a zone added grows the list below, never moves it.
        heading.append(
            w.action(
                w.t(view, "ui.great_plains.add_zone"),
                lambda: view.act.open_panel("zone", spaces=1, water=0, tokens={}),
                key="add-zone",
                view=view,
            )
        )
    rows: list[ft.Control] = [ft.Row(heading, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if state.over:  # while the table counts, the panels give the points and the turn's room the zones
        totals = " · ".join(f"{name(state.tribe(p), view.language)} {state.points_of(p)}" for p in state.players)
        rows.append(w.big_number(totals, key="totals", view=view))
        rows.append(winner(view, state))
        rows.extend(
            w.text(zone_line(view, state, number, zone), 15, key=f"zone-{number}")
            for number, zone in enumerate(state.zones, start=1)
        )
    return ft.Column(rows, spacing=6)


def result(view: View) -> ft.Control:
    """The end screen again (a finished game's detail): every zone, the totals and the winner."""
    assert view.session is not None
    return scoring(view, view.session.state)


def winner(view: View, state: GreatPlainsState) -> ft.Control:
    assert view.session is not None
    standings = view.session.standings()
    winners = [s.player for s in standings if s.winner]
    if len(winners) == 1:
        headline = w.t(
            view,
            "ui.great_plains.wins",
            player=winners[0],
            tribe=name(state.tribe(winners[0]), view.language),
            score=f"{standings[0].score}–{standings[1].score}",
        )
    else:
        headline = w.t(view, "ui.great_plains.share", players=w.names(view, winners))
    lines: list[ft.Control] = w.present(w.text(headline, 20, bold=True, key="winner"), w.stopped_line(view))
    lines.extend(
        w.text(line, 15, key="tie-break")
        for line in tie_lines(
            standings,
            lambda score: w.t(view, "ui.points", count=score),
            w.t(view, "ui.great_plains.more_spirits"),
            lambda s: w.t(view, "ui.spirits", count=s.detail["spirits"]),
            view.language,
        )
    )
    # Looked back on later (a finished game's detail) there is no Undo: the game is opened first.
    missed = "ui.great_plains.zone_missed_later" if view.ui.screen == "detail" else "ui.great_plains.zone_missed"
    lines.append(w.text(w.t(view, missed), 13, colour=w.QUIET, key="zone-missed"))
    lines.append(w.rules_button(view, "end", key="rules-end"))
    return ft.Container(
        ft.Column(lines, spacing=4), border=ft.Border.all(2, ft.Colors.PRIMARY), padding=12, border_radius=10
    )


def zone_panel(view: View, state: GreatPlainsState, amending: int | None = None) -> ft.DialogControl:
    """A zone's figures, a tap each; `amending` a zone already counted, the same sheet holds its
    figures and saves a correction in place (zone 2 of 5 was fixed by undoing 5, 4, 3 and 2)."""
    draft = view.ui.draft
    spaces, water = int(draft.get("spaces", 1)), int(draft.get("water", 0))
    tokens: dict[str, int] = dict(draft.get("tokens") or {})
    # One tap a number for the common zone (chips), any other typed: at most 6 taps in all.
    rows: list[ft.Control] = [
        inputs.count_picker(
            view,
            w.t(view, "ui.great_plains.spaces"),
            ("spaces",),
            ZONE_SPACES,
            key="zone-spaces",
            low=1,
            high=MAX_SPACES,
            default=1,
        ),
        inputs.count_picker(
            view,
            w.t(view, "ui.great_plains.water"),
            ("water",),
            ZONE_WATER,
            key="zone-water",
            low=0,
            high=MAX_WATER,
            default=0,
        ),
    ]
    for player in state.players:
        tribe = state.tribe(player)
        rows.append(
            inputs.count_picker(
                view,
                w.t(view, "ui.great_plains.tribe_tokens", tribe=name(tribe, view.language)),
                ("tokens", player),
                ZONE_TOKENS,
                key=f"zone-{tribe}",
                low=0,
                high=TOKENS,
                default=0,
                colour=tribe_colour(view, tribe),
            )
        )
    counts = tuple(tokens.get(player, 0) for player in state.players)
    preview = Zone(spaces, water, counts)
    if preview.winner_seat is None:
        rows.append(
            w.text(w.t(view, "ui.great_plains.preview_tie", score=f"{counts[0]}–{counts[1]}"), 15, key="zone-preview")
        )
    else:
        winner = state.players[preview.winner_seat]
        rows.append(
            w.text(
                w.t(
                    view,
                    "ui.great_plains.preview_win",
                    tribe=name(state.tribe(winner), view.language),
                    player=winner,
                    points=preview.points,
                ),
                15,
                bold=True,
                key="zone-preview",
            )
        )
    event: dict[str, Any] = {
        "type": "zone",
        "spaces": spaces,
        "water": water,
        "tokens": {player: tokens.get(player, 0) for player in state.players},
    }
    title, save = w.t(view, "ui.great_plains.zone_title"), w.t(view, "ui.great_plains.zone_save")
    if amending:
        event = {**event, "type": "amend_zone", "zone": amending}
        title = w.t(view, "ui.great_plains.amend_title", number=amending)
        save = w.t(view, "ui.great_plains.amend_save", number=amending)
    # A resting icon: a refusal swaps it for its mark and the button keeps its size.
    return sheets.sheet(
        view,
        title,
        rows,
        key="zone-panel",
        footer=[
            w.rules_button(view, "zone", key="rules-zone"),
            w.event_button(view, save, event, key="zone-save", primary=True, icon=ft.Icons.CHECK),
        ],
    )


# --- set-up ---------------------------------------------------------------------------


DRAWS_FIRST = True  # its set-up has its own draw (New game offers none besides)


def setup_options(draft: dict[str, Any]) -> dict[str, Any]:
    return {name: draft.get(name) for name in ("fox", "first") if draft.get(name) in draft["players"]}


def describe_options(view: View, session: Session) -> list[str]:
    """A finished game's options in New game's words: who played the Fox."""
    fox = session.options.get("fox")
    return [w.t(view, "ui.new.great_plains.is_fox", player=fox)] if isinstance(fox, str) else []


def setup(view: View, draft: dict[str, Any]) -> list[ft.Control]:
    """New game: who is the Fox, and who places first (or drawn at random)."""
    players: list[str] = draft["players"]
    if not players:
        return [w.text(w.t(view, "ui.new.great_plains.add_two"), 14)]
    # Each player's choices share their row, and the draw has a row of its own: a player added
    # (or a name's tick) moves none of them sideways.
    draw = ft.OutlinedButton(
        w.t(view, "ui.new.great_plains.draw"),
        key="first-random",
        icon=ft.Icons.CASINO,
        height=view.grown(w.BUTTON_HEIGHT),
        on_click=lambda _: draw_first(view, players),
    )
    return [
        w.text(w.t(view, "ui.new.great_plains.fox"), 15, bold=True),
        ft.Row(player_choice(view, draft, "fox", "ui.new.great_plains.is_fox"), spacing=6),
        w.text(w.t(view, "ui.new.great_plains.who_first"), 15, bold=True),
        ft.Row(player_choice(view, draft, "first", "ui.new.great_plains.first"), spacing=6),
        ft.Row([draw]),
    ]


def draw_first(view: View, players: list[str]) -> None:
    """The app draws who places first; the log says so (the `drawn` option)."""
    drawn = random.choice(players)
    view.act.set_draft(first=drawn, drawn=drawn)


def player_choice(view: View, draft: dict[str, Any], option: str, label_id: str) -> list[ft.Control]:
    """One button per player for an option naming a player (the first listed until one is tapped)."""
    players: list[str] = draft["players"]
    current = draft.get(option) if draft.get(option) in players else players[0]
    buttons: list[ft.Control] = []
    for player in players:
        buttons.append(
            inputs.choice(
                w.t(view, label_id, player=player),
                player == current,
                functools.partial(view.act.draft_set, (option,), player),
                key=f"{option}-{w.slug(player)}",
                expand=True,
                view=view,
            )
        )
    return buttons


SCREEN = GameScreen(
    build=build,
    sheet=sheet,
    result=result,
    setup=setup,
    setup_options=setup_options,
    draws_first=DRAWS_FIRST,
    chart_caption=CHART_CAPTION,
    describe_options=describe_options,
)

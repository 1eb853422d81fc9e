"""Great Plains: two tribes, their tokens, caves and spirits, and prairie-zone scoring."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app import theme
from companion.app import widgets as w
from companion.app.ties import tie_lines
from companion.rules.great_plains import CAVES, SPIRITS, TOKENS, GreatPlainsState, Zone, standings

if TYPE_CHECKING:
    from companion.app.shell import Shell

TITLE = "Great Plains"
TRIBE_SEATS = {"fox": 4, "snake": 1}  # orange and blue among the player colours
TRIBE_NAMES = {"fox": "Fox", "snake": "Snake"}
SPIRIT_NAMES = {"horse": "Horse", "eagle": "Eagle", "bear": "Bear"}


def subtitle(state: GreatPlainsState) -> str:
    if state.over:
        return "Game over"
    if state.scoring:
        return "All tokens placed · scoring the prairies"
    player = state.current_player or ""
    phase = "cave" if state.cave_phase else "token"
    return f"{TRIBE_NAMES[state.tribe(player)]}'s turn ({player}) · {phase}"


def status_line(state: GreatPlainsState) -> str:
    if state.over:
        final = standings(state)
        return w.result_line(final, "–".join(str(standing.score) for standing in final))
    if state.scoring:
        return f"Scoring the prairies · {' · '.join(f'{p} {state.points_of(p)}' for p in state.players)}"
    return f"{w.possessive(state.current_player or '')} turn · tokens {sum(state.tokens)}/{TOKENS * 2}"


def build(shell: Shell) -> ft.Control:
    session = shell.session
    assert session is not None
    state: GreatPlainsState = session.state
    left: list[ft.Control] = [ft.Row([tribe_panel(shell, state, player) for player in state.players],
                                     vertical_alignment=ft.CrossAxisAlignment.START)]
    if not state.over and not state.scoring:
        left.append(turn_actions(shell, state))
    body: list[ft.Control] = [w.two_columns(left, [scoring(shell, state)])]
    header = [w.top_bar(shell, TITLE, subtitle(state))]
    footer: list[ft.Control] = [w.undo_strip(shell)]
    if state.over:
        footer.insert(0, w.play_again(shell))
    elif state.scoring:  # the table counts every prairie, then says it is done: only then is there a winner
        footer.insert(0, w.event_button(shell, "Scoring done", {"type": "scoring_done"}, key="scoring-done",
                                        primary=True))
    return w.screen(shell, header, body, footer, key=f"game-{session.id}")


def sheet(shell: Shell) -> ft.DialogControl | None:
    assert shell.session is not None
    state: GreatPlainsState = shell.session.state
    if shell.ui.panel == "log":
        return w.log_panel(shell)
    if shell.ui.panel == "zone":
        return zone_panel(shell, state)
    return None


def tribe_colour(shell: Shell, tribe: str) -> str:
    return theme.seat_colour(TRIBE_SEATS[tribe], dark=shell.dark)


def tribe_panel(shell: Shell, state: GreatPlainsState, player: str) -> ft.Control:
    tribe = state.tribe(player)
    colour = tribe_colour(shell, tribe)
    seat = state.seat(player)
    key = tribe
    current = player == state.current_player
    held = state.spirits_of(player)
    spirit_buttons: list[ft.Control] = []
    for spirit in SPIRITS:
        event = {"type": "use_spirit", "player": player, "spirit": spirit}
        label = f"{SPIRIT_NAMES[spirit]} {held[spirit]}"
        if current and held[spirit]:
            spirit_buttons.append(w.event_button(shell, f"Use {label}", event, key=f"use-{spirit}-{key}"))
        else:
            spirit_buttons.append(w.text(label, 15, key=f"spirit-{spirit}-{key}"))
    marker = "Playing: " if current else ""
    return ft.Container(
        ft.Column([
            w.text(f"{marker}{TRIBE_NAMES[tribe]}", 18, bold=True, colour=colour),
            w.text(player, 16),
            w.big_number(str(TOKENS - state.tokens[seat]), key=f"tokens-left-{key}"),
            w.text(f"tokens left (placed {state.tokens[seat]}/{TOKENS})", 13),
            w.text(f"caves {state.caves[seat]}/{CAVES}", 14, key=f"caves-{key}"),
            w.text(f"{state.points_of(player)} points", 16, bold=True, key=f"points-{key}"),
            *spirit_buttons,
        ], spacing=2),
        border=ft.Border.all(3 if current else 1, colour), border_radius=12, padding=10, expand=True,
        key=f"tribe-{key}",
    )


def turn_actions(shell: Shell, state: GreatPlainsState) -> ft.Control:
    player = state.current_player or ""
    if state.cave_phase:
        placed = sum(state.caves)
        return w.event_button(shell, f"Place cave ({placed + 1} of 6) · {player}",
                              {"type": "place_cave", "player": player}, key="place-cave", primary=True)
    supply = dict(zip(SPIRITS, state.supply, strict=True))
    spirit_row = [
        w.event_button(shell, f"+ {SPIRIT_NAMES[spirit]}" + ("" if supply[spirit] else " (none left)"),
                       {"type": "place_token", "player": player, "spirit": spirit}, key=f"token-{spirit}",
                       expand=True)
        for spirit in SPIRITS
    ]
    return ft.Column([
        w.event_button(shell, f"Place token · {player}", {"type": "place_token", "player": player},
                       key="place-token", primary=True),
        w.text("Token on a spirit symbol:", 13),
        ft.Row(spirit_row),
        w.text("Spirits in the supply: " + ", ".join(f"{SPIRIT_NAMES[s]} {supply[s]}" for s in SPIRITS), 13,
               key="supply"),
    ], spacing=6)


def zone_line(state: GreatPlainsState, number: int, zone: Zone) -> str:
    score = "–".join(str(count) for count in zone.tokens)
    if zone.winner_seat is None:
        outcome = "tie, nobody scores"
    else:
        winner = state.players[zone.winner_seat]
        outcome = f"{TRIBE_NAMES[state.tribe(winner)]} +{zone.points}"
    water = f" +{zone.water} water" if zone.water else ""
    return f"Zone {number}: {w.plural(zone.spaces, 'space')}{water} · {score} · {outcome}"


def scoring(shell: Shell, state: GreatPlainsState) -> ft.Control:
    assert shell.session is not None
    order = " – ".join(TRIBE_NAMES[state.tribe(player)] for player in state.players)
    rows: list[ft.Control] = [w.text(f"Scoring (prairie zones; tokens {order})", 17, bold=True)]
    rows.extend(w.text(zone_line(state, number, zone), 15, key=f"zone-{number}")
                for number, zone in enumerate(state.zones, start=1))
    totals = " · ".join(f"{TRIBE_NAMES[state.tribe(p)]} {state.points_of(p)}" for p in state.players)
    rows.append(w.big_number(totals, key="totals"))
    if state.over:
        rows.append(result(shell, state))
    if not state.over:
        rows.append(w.action("+ Zone", lambda: shell.open_panel("zone", spaces=1, water=0, tokens={}),
                             key="add-zone"))
    return ft.Column(rows, spacing=6)


def result(shell: Shell, state: GreatPlainsState) -> ft.Control:
    assert shell.session is not None
    standings = shell.session.standings()
    winners = [s.player for s in standings if s.winner]
    if len(winners) == 1:
        headline = f"{winners[0]} ({TRIBE_NAMES[state.tribe(winners[0])]}) wins {standings[0].score}–" \
                   f"{standings[1].score}"
    else:
        headline = f"{w.names(winners)} share the victory"
    lines: list[ft.Control] = w.present(w.text(headline, 20, bold=True, key="winner"), w.stopped_line(shell))
    lines.extend(w.text(line, 15, key="tie-break") for line in tie_lines(
        standings, lambda score: f"{score} points", "more spirits kept",
        lambda s: f"{s.detail['spirits']} spirit{'s' if s.detail['spirits'] != 1 else ''}"))
    lines.append(w.text("A zone missed? Undo “Scoring done”, add the zone, then tap Scoring done again.", 13,
                        colour=w.QUIET))
    return ft.Container(ft.Column(lines, spacing=4), border=ft.Border.all(2, ft.Colors.PRIMARY), padding=12,
                        border_radius=10)


def zone_panel(shell: Shell, state: GreatPlainsState) -> ft.DialogControl:
    draft = shell.ui.draft
    spaces, water = int(draft.get("spaces", 1)), int(draft.get("water", 0))
    tokens: dict[str, int] = dict(draft.get("tokens") or {})
    rows: list[ft.Control] = [
        w.stepper(shell, "Spaces", ("spaces",), 1, key="zone-spaces", low=1, high=200, steps=(1, 5)),
        w.stepper(shell, "Water sources", ("water",), 0, key="zone-water", high=50),
    ]
    for player in state.players:
        tribe = state.tribe(player)
        rows.append(w.stepper(shell, f"{TRIBE_NAMES[tribe]} tokens", ("tokens", player), 0, key=f"zone-{tribe}",
                              high=TOKENS))
    counts = tuple(tokens.get(player, 0) for player in state.players)
    preview = Zone(spaces, water, counts)
    if preview.winner_seat is None:
        rows.append(w.text(f"Tied {counts[0]}–{counts[1]}: nobody scores this zone.", 15, key="zone-preview"))
    else:
        winner = state.players[preview.winner_seat]
        rows.append(w.text(f"{TRIBE_NAMES[state.tribe(winner)]} ({winner}) scores {preview.points}.", 15,
                           bold=True, key="zone-preview"))
    event = {"type": "zone", "spaces": spaces, "water": water,
             "tokens": {player: tokens.get(player, 0) for player in state.players}}
    return w.sheet(shell, "Add a prairie zone", rows, key="zone-panel",
                   footer=[w.event_button(shell, "Add zone", event, key="zone-save", primary=True)])

"""Colours of both themes, chosen so every text and player colour reads at 4.5:1 or more.

The backgrounds are set here rather than left to the seed colour's generated palette, so
the contrast of every pairing can be computed (tests/test_contrast.py does). Each player
colour comes as a pair: a dark shade for the light theme, a light shade for the dark one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import flet as ft

from companion.rules.base import COLOURS

SEED = ft.Colors.GREEN_700


@dataclass(frozen=True)
class Palette:
    background: str  # the page and the cards drawn on it
    sheet: str  # dialogs and sheets
    text: str
    quiet_text: str  # secondary lines (e.g. "last played 2 hours ago")
    error: str  # error text and the Delete button
    on_error: str
    error_container: str
    on_error_container: str
    info_container: str
    on_info_container: str
    players: tuple[str, ...]

    @property
    def backgrounds(self) -> tuple[str, ...]:
        return self.background, self.sheet


LIGHT = Palette(
    background="#FCFDF6",
    sheet="#ECEFE7",
    text="#1A1C19",
    quiet_text="#43483F",
    error="#BA1A1A",
    on_error="#FFFFFF",
    error_container="#FFDAD6",
    on_error_container="#410002",
    info_container="#D5E8CF",
    on_info_container="#101F10",
    # Six hues kept apart (red from orange, green from teal: a CIELAB distance of 44 or more
    # between any two), each 4.8:1 or more on the page and on a sheet.
    players=("#B00040", "#1565C0", "#3A6B00", "#7B1FA2", "#A84800", "#00727F"),
)
DARK = Palette(
    background="#1A1C19",
    sheet="#282B27",
    text="#E2E3DD",
    quiet_text="#C3C8BC",
    error="#FFB4AB",
    on_error="#690005",
    error_container="#93000A",
    on_error_container="#FFDAD6",
    info_container="#3B4B38",
    on_info_container="#D5E8CF",
    players=("#FF8A80", "#7FA8FF", "#A5D64C", "#E9A2F5", "#FFB74D", "#4DD8F0"),  # 35 or more apart
)
PLAYER_COLOUR_NAMES = COLOURS  # the names the rules keep a picked colour under, in palette order


def palette(dark: bool) -> Palette:
    return DARK if dark else LIGHT


def player_colour(players: Sequence[str], player: str, *, dark: bool) -> str:
    colours = palette(dark).players
    return colours[list(players).index(player) % len(colours)]


def seat_colour(seat: int, *, dark: bool) -> str:
    colours = palette(dark).players
    return colours[seat % len(colours)]


def theme(dark: bool) -> ft.Theme:
    colours = palette(dark)
    return ft.Theme(
        color_scheme_seed=SEED,
        # The page is drawn in the palette's own background, not the seed's generated one
        # (#F7FBF1 / #10140F), so the contrast computed here is the contrast on screen.
        scaffold_bgcolor=colours.background,
        color_scheme=ft.ColorScheme(
            surface=colours.background,
            on_surface=colours.text,
            on_surface_variant=colours.quiet_text,
            surface_container_high=colours.sheet,
            surface_container_highest=colours.sheet,
            error=colours.error,
            on_error=colours.on_error,
            error_container=colours.error_container,
            on_error_container=colours.on_error_container,
            secondary_container=colours.info_container,
            on_secondary_container=colours.on_info_container,
        ),
    )

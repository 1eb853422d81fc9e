"""Every text and player colour reads at 4.5:1 or more on the backgrounds both themes use
(WCAG 2 contrast ratio, computed from the colours the app sets)."""

from __future__ import annotations

import pytest
from app_helpers import playing, table

from companion.app import theme

AA = 4.5


def luminance(colour: str) -> float:
    """WCAG relative luminance of an #RRGGBB colour."""
    channels = [int(colour.lstrip("#")[index : index + 2], 16) / 255 for index in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_ratio_is_the_wcag_one() -> None:
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("palette", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_every_player_colour_reads_on_the_page_and_on_a_sheet(palette: theme.Palette) -> None:
    for name, colour in zip(theme.PLAYER_COLOUR_NAMES, palette.players, strict=True):
        for background in palette.backgrounds:
            assert contrast(colour, background) >= AA, (name, colour, background, contrast(colour, background))


@pytest.mark.parametrize("palette", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_text_reads_on_every_background_it_is_drawn_on(palette: theme.Palette) -> None:
    pairs = [
        (text, background)
        for text in (palette.text, palette.quiet_text, palette.error)
        for background in palette.backgrounds
    ]
    pairs += [
        (palette.on_error_container, palette.error_container),
        (palette.on_error, palette.error),
        (palette.on_info_container, palette.info_container),
    ]
    for text, background in pairs:
        assert contrast(text, background) >= AA, (text, background, contrast(text, background))


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_page_uses_these_colours(dark: bool) -> None:
    """The palettes above are what the page's themes set, so the ratios are the real ones."""
    palette = theme.palette(dark)
    scheme = theme.theme(dark).color_scheme
    assert scheme is not None
    assert (scheme.surface, scheme.surface_container_high, scheme.on_surface, scheme.on_surface_variant) == (
        palette.background,
        palette.sheet,
        palette.text,
        palette.quiet_text,
    )
    assert (scheme.error_container, scheme.on_error_container) == (palette.error_container, palette.on_error_container)


@table
async def test_player_names_take_the_shade_of_the_theme_shown() -> None:
    async with playing("transamerica", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]) as screen:
        names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]

        def shown() -> list[str]:
            return [screen.find(text=name, where=lambda c: c.color is not None).color for name in names]

        assert shown() == list(theme.LIGHT.players)
        await screen.brightness("dark")
        assert shown() == list(theme.DARK.players)
        await screen.brightness("light")
        assert shown() == list(theme.LIGHT.players)

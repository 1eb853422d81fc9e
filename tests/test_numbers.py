"""One rounding rule for every figure shown: a half goes away from zero, on every screen alike.

Before it, halves went to the even neighbour (3.25 read "3.2", 62.5 % read "62 %", 150 s read
"2 min") and the clock chip truncated where the rest rounded."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from companion import clock
from companion.aftergame.archive import megabytes
from companion.app.clock_chip import chip_words
from companion.app.dates import duration
from companion.app.screens.stats import decimal
from companion.text.numbers import fixed, rounded, whole

# Figures as the app meets them: scores, averages, percentages, seconds of play.
figures = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
halves = st.integers(min_value=-(10**6), max_value=10**6).map(lambda n: n + 0.5)


def test_the_figures_a_table_caught_read_as_a_table_rounds() -> None:
    assert decimal(3.25, "en") == "3.3" and decimal(3.25, "fr") == "3,3"
    assert whole(62.5) == 63  # "62.5 %" of 5 wins in 8 plays
    assert duration(150, "en") == "3 min" and clock.minutes(150) == 3
    assert duration(1130, "en") == "19 min" and clock.minutes(1130) == 19 and chip_words(1130, "en") == "19 min"
    assert decimal(2.675, "en").startswith("2.7") and fixed(2.675, 2) == "2.68"  # as written, not as stored
    assert megabytes(int(2.25 * 2**20)) == "2.3"


@given(halves)
def test_a_half_goes_away_from_zero(value: float) -> None:
    expected = int(value) + (1 if value > 0 else -1)
    assert whole(value) == expected


@given(figures, st.integers(min_value=0, max_value=2))
def test_a_figure_moves_at_most_half_its_last_place_and_alike_either_side_of_zero(value: float, digits: int) -> None:
    shown = rounded(value, digits)
    assert abs(shown - Decimal(repr(value))) <= Decimal("0.5").scaleb(-digits)
    assert rounded(-value, digits) == -shown


@given(figures)
def test_every_screen_shows_one_figure_for_one_value(value: float) -> None:
    # A score in the statistics, its share as a percentage, the same on every screen.
    assert decimal(value, "en") == fixed(value, 1).removesuffix(".0")
    assert decimal(value, "es") == decimal(value, "en").replace(".", ",")
    assert fixed(value, 0) == str(whole(value))


@given(st.floats(min_value=0, max_value=100 * 3600, allow_nan=False))
def test_minutes_of_play_agree_between_the_clock_and_the_words(seconds: float) -> None:
    minutes = clock.minutes(seconds)
    assert minutes is not None
    hours, rest = divmod(minutes, 60)
    words = duration(seconds, "en")
    if not hours:
        assert words == f"{rest} min"
    else:
        assert words == (f"{hours} h {rest} min" if rest else f"{hours} h")


@given(st.floats(min_value=60, max_value=100 * 3600, allow_nan=False))
def test_the_clock_chip_reads_the_minutes_every_other_screen_reads(seconds: float) -> None:
    minutes = clock.minutes(seconds)
    assert minutes is not None
    hours, rest = divmod(minutes, 60)
    assert chip_words(seconds, "en") == (f"{rest} min" if not hours else f"{hours} h {rest:02d}")

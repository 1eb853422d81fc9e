"""The chart's layout at phone width: step labels that never run into each other or get
cut, a bottom below the lowest point, and a legend that draws each line's dash."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.app import charts
from companion.app.charts import DASHES, PHONE_PLOT_WIDTH, dash_swatch, floor, label_width, shown_steps


def labels(rounds: int, last: str) -> list[str]:
    return ["Start", *(f"R{number}" for number in range(1, rounds + 1)), last]


def gaps_fit(words: list[str], shown: list[int]) -> bool:
    per_step = PHONE_PLOT_WIDTH / (len(words) - 1)
    return all(
        (right - left) * per_step >= (label_width(words[left]) + label_width(words[right])) / 2 + charts.LABEL_GAP
        for left, right in zip(shown, shown[1:], strict=False)
    )


def test_r10_and_r11_are_never_both_drawn_and_the_last_step_always_is() -> None:
    words = labels(12, "Cargo")
    shown = shown_steps(words)
    assert shown[0] == 0 and shown[-1] == len(words) - 1
    assert not {10, 11} <= set(shown)
    assert gaps_fit(words, shown)


def test_a_long_last_label_keeps_its_room() -> None:
    words = labels(12, "Cargaison")
    shown = shown_steps(words)
    assert shown[-1] == 13 and 12 not in shown
    assert gaps_fit(words, shown)


@given(st.integers(0, 40), st.sampled_from(["End", "Cargo", "Cargaison", "Carga", "Fin"]))
def test_labels_never_collide_whatever_the_length_of_the_game(rounds: int, last: str) -> None:
    words = labels(rounds, last)
    shown = shown_steps(words)
    assert shown[-1] == len(words) - 1 and shown == sorted(set(shown))
    assert gaps_fit(words, shown)


@pytest.mark.parametrize(("low", "high"), [(-8, 5), (0, 13), (-3, 40), (-21, 60)])
def test_the_bottom_is_under_the_lowest_point(low: int, high: int) -> None:
    bottom = floor(low, high)
    assert bottom < low
    assert low - bottom <= charts.label_step(high) * 1.5


def test_each_seat_s_swatch_draws_its_own_dash() -> None:
    drawn = []
    for dashes in DASHES:
        pieces = dash_swatch("#000000", dashes).controls
        assert sum(piece.width for piece in pieces) == charts.SWATCH_WIDTH
        drawn.append(tuple((piece.width, piece.bgcolor is not None) for piece in pieces))
    assert len(set(drawn)) == len(DASHES)

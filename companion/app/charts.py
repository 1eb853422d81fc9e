"""A game's score over time as a `flet-charts` line chart, with a legend in words.

One line per player in the player's colour, and a dash pattern per seat, so two lines
still tell apart where colours do not; the legend names each player with their last value,
so nothing is told by colour alone. The steps come from `stats.score_series`: Heartland's
money by round and its final cargo penalty, TransAmerica's points by round, Great Plains'
points by zone.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import flet as ft
import flet_charts as fch  # type: ignore[import-untyped]  # no py.typed marker in 1.0.5

from companion.aftergame.stats import ScoreSeries
from companion.app import widgets as w
from companion.rules.base import Step

if TYPE_CHECKING:
    from companion.app.view import View

CHART_HEIGHT = 280  # fits under the result on a 412×915 phone, readable from across a table
PHONE_PLOT_WIDTH = 300  # px between the value labels and the right edge on a 412 px phone: labels are spaced for it
LABEL_SIZE = 12
CHAR_WIDTH = 7.0  # px of an average character at LABEL_SIZE (Roboto / Noto Sans), with a little to spare
LABEL_GAP = 10  # px kept clear between two step labels
FLOOR_ROOM = 0.4  # of a value step below the lowest point, so no point sits on the step labels
SWATCH_WIDTH = 30
# Solid, dashed, dotted, dash-dot, long dashes, dash-dot-dot: no two alike in a 30 px legend swatch.
DASHES: tuple[list[int] | None, ...] = (None, [10, 5], [3, 4], [12, 4, 3, 4], [6, 6], [12, 3, 2, 3, 2, 3])
CAPTION = "ui.chart.caption.final"  # what a game's chart counts, unless its screen says (`GameScreen.chart_caption`)


def step_label(view: View, step: Step) -> str:
    if step.kind == "start":
        return w.t(view, "ui.chart.start")
    if step.kind == "round":
        return w.t(view, "ui.chart.round", number=step.number)
    if step.kind == "zone":
        return w.t(view, "ui.chart.zone", number=step.number)
    if step.kind == "penalty":
        return w.t(view, "ui.chart.cargo")
    return w.t(view, "ui.chart.end")


def shown_value(view: View, series: ScoreSeries, value: int) -> str:
    return w.money(view, value) if series.unit == "money" else str(value)


def score_chart(view: View, series: ScoreSeries, caption_id: str = CAPTION) -> ft.Control:
    """The chart, its caption and its legend; a sentence instead when there is nothing to draw."""
    if not series.steps:
        return w.text(w.t(view, "ui.chart.nothing"), 15, key="chart-nothing")
    caption = w.text(w.t(view, caption_id), 13, colour=w.QUIET, key="chart-caption")
    return ft.Column(
        [w.text(w.t(view, "ui.chart.title"), 17, bold=True), caption, line_chart(view, series), legend(view, series)],
        spacing=6,
        key="chart",
    )


def line_chart(view: View, series: ScoreSeries) -> ft.Control:
    steps = series.steps
    values = [value for step in steps for value in step.values]
    low, high = min(0, *values), max(1, *values)
    words = [step_label(view, step) for step in steps]
    labels = [
        fch.ChartAxisLabel(value=index, label=ft.Text(words[index], size=LABEL_SIZE, no_wrap=True))
        for index in shown_steps(words)
    ]
    lines = [
        fch.LineChartData(
            points=[
                fch.LineChartDataPoint(
                    index, step.values[seat], tooltip=f"{player} {shown_value(view, series, step.values[seat])}"
                )
                for index, step in enumerate(steps)
            ],
            color=w.player_colour(view, series.players, player),
            stroke_width=3,
            point=True,
            dash_pattern=DASHES[seat % len(DASHES)],
        )
        for seat, player in enumerate(series.players)
    ]
    chart = fch.LineChart(
        data_series=lines,
        min_x=0,
        max_x=max(1, len(steps) - 1),
        min_y=floor(low, high),
        max_y=nice_top(high),
        left_axis=value_axis(view, series, low, high),
        bottom_axis=fch.ChartAxis(labels=labels, label_size=28, label_spacing=1),  # each label given is drawn
        horizontal_grid_lines=fch.ChartGridLines(interval=label_step(high), color=ft.Colors.OUTLINE_VARIANT, width=1),
        expand=True,
        key="score-chart",
    )
    # The last label is centred on the last step: room for its half, so "Cargaison" is never cut.
    right = max(20, math.ceil(label_width(words[-1]) / 2) + 4)
    return ft.Container(chart, height=CHART_HEIGHT, padding=ft.Padding.only(right=right, top=8), key="chart-box")


def label_width(words: str) -> float:
    return len(words) * CHAR_WIDTH


def shown_steps(words: list[str]) -> list[int]:
    """The steps labelled: every n-th, n as small as lets the labels fit between their
    neighbours on a phone, and always the last (those too close to it left out)."""
    last = len(words) - 1
    if last <= 0:
        return [0]
    per_step = PHONE_PLOT_WIDTH / last
    every = max(1, math.ceil((max(map(label_width, words[:-1])) + LABEL_GAP) / per_step))
    room = label_width(words[-1]) / 2 + LABEL_GAP
    return [
        index for index in range(0, last, every) if (last - index) * per_step >= room + label_width(words[index]) / 2
    ] + [last]


def floor(low: int, high: int) -> float:
    """The chart's bottom: a little below the lowest point (under 0 too), on the value labels' grid."""
    step = label_step(high)
    return (low - low % step) - FLOOR_ROOM * step


def value_axis(view: View, series: ScoreSeries, low: int, high: int) -> fch.ChartAxis:
    """Round values up the side, written as the game counts them ($12, or 12 $ in French)."""
    step = label_step(high)
    values = range(low - low % step, nice_top(high), step)
    labels = [
        fch.ChartAxisLabel(value=value, label=ft.Text(shown_value(view, series, value), size=12)) for value in values
    ]
    return fch.ChartAxis(labels=labels, label_spacing=step, label_size=52 if series.unit == "money" else 36)


def label_step(high: int) -> int:
    """Between the value axis' labels: about five of them, on round numbers."""
    return next(step for step in (2, 5, 10, 20, 50, 100, 200, 500) if high / step <= 6) if high <= 3000 else 1000


def nice_top(high: int) -> int:
    """A little room above the highest value, on a round number, so the top line is not cut."""
    step = label_step(high)
    return (high // step + 1) * step


def dash_swatch(colour: str, dashes: list[int] | None) -> ft.Control:
    """A short stretch of the player's line: their colour in their dash pattern."""
    pattern = dashes or [SWATCH_WIDTH]
    pieces: list[ft.Control] = []
    drawn, index = 0, 0
    while drawn < SWATCH_WIDTH:
        length = min(pattern[index % len(pattern)], SWATCH_WIDTH - drawn)
        pieces.append(ft.Container(width=length, height=4, bgcolor=colour if index % 2 == 0 else None))
        drawn, index = drawn + length, index + 1
    return ft.Row(pieces, spacing=0, width=SWATCH_WIDTH, tight=True)


def legend(view: View, series: ScoreSeries) -> ft.Control:
    """Each player in their colour with the value they ended on, in words."""
    last = series.steps[-1].values
    entries: list[ft.Control] = []
    for seat, player in enumerate(series.players):
        colour = w.player_colour(view, series.players, player)
        swatch = dash_swatch(colour, DASHES[seat % len(DASHES)])
        words = w.t(view, "ui.chart.legend", player=player, score=shown_value(view, series, last[seat]))
        entries.append(
            ft.Row([swatch, w.text(words, 15, colour=colour, key=f"legend-{w.slug(player)}")], spacing=6, tight=True)
        )
    return ft.Row(entries, wrap=True, spacing=16, run_spacing=4, key="legend")

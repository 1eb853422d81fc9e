"""One rounding rule for every figure the app shows: a half goes away from zero, as a table
rounds by hand (3.25 -> 3.3, 62.5 % -> 63 %, 150 s -> 3 min, -2.5 -> -3).

Python's `round()` and `format()` send a half to the even neighbour (3.25 -> "3.2", 62.5 ->
62, 150 s -> 2 min), and a screen that truncated instead disagreed with the others. A float
is rounded as it is written (its shortest `repr`): 2.675, stored as 2.67499..., reads 2.68.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def rounded(value: float, digits: int = 0) -> Decimal:
    """`value` to `digits` places, halves away from zero (Decimal's ROUND_HALF_UP)."""
    return Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


def whole(value: float) -> int:
    """The nearest whole number, halves away from zero."""
    return int(rounded(value))


def fixed(value: float, digits: int) -> str:
    """`value` written with `digits` places ("3.3"), halves away from zero; never "-0.0"."""
    shown = rounded(value, digits)
    return f"{shown:.{digits}f}" if shown else f"{0:.{digits}f}"

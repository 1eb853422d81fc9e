"""Sweeps the suite samples: a test that could try every position tries one in each run of a few,
the same ones in every run of the suite (the benches in tests/bench/ try them all)."""

from __future__ import annotations


def every_nth(start: int, stop: int, every: int) -> list[int]:
    """One position in each run of `every` from `start`, its place in the run moving on by one
    from one run to the next (`start`, `start + every + 1`, `start + 2 * every + 2`, … back to a
    run's first after `every` runs): spread evenly, landing on each place of a layout that
    repeats (records of one length, fields in the same order), and the same in every run."""
    return [at for number, first in enumerate(range(start, stop, every)) if (at := first + number % every) < stop]

"""Kill a process keeping several games 24 times, also inside undos, finishing rounds, new games,
new titles and deletions; nothing acknowledged may be lost and no half-made game may appear.

Every other kill is aimed at a kind of change, the kind interrupted least so far, so each kind
is aimed at about twice (a kill is a fresh process started, most of the test's time). The
harness is tests/bench/crash.py, which runs the same with a count argument (500 by default).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

CRASH = Path(__file__).resolve().parent / "bench" / "crash.py"


def _load_crash_harness() -> Any:
    spec = importlib.util.spec_from_file_location("companion_crash_bench", CRASH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(sys.platform == "emscripten", reason="needs subprocesses")
def test_two_dozen_kills_lose_nothing(tmp_path: Path) -> None:
    crash = _load_crash_harness()
    result = crash.run(24, tmp_path, seed=20240601)
    assert result.problems == []
    assert (result.corrupt, result.lost) == (0, 0)
    assert result.kills == 24 and result.operations > 100
    # A change that finishes before its kill lands is aimed at again by the next aimed kill (12 here).
    assert all(result.in_flight[kind] >= 1 for kind in crash.TARGETS), result.in_flight
    assert result.games_made >= 3 and result.finished_games > 0

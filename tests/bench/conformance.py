"""Random play of every registered game, as tests/test_conformance.py plays it (each run of the
suite plays 40 random tables a game), with as many tables as asked: prints how long each
game's took. A broken promise fails as the test fails, with the table hypothesis shrank it to.

    python tests/bench/conformance.py [TABLES]    # 400 a game by default
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_conformance import test_random_play_keeps_every_promise  # noqa: E402

from companion import GAMES  # noqa: E402


def play(game_id: str, tables: int) -> None:
    inner = test_random_play_keeps_every_promise.hypothesis.inner_test  # type: ignore[attr-defined]

    @settings(
        max_examples=tables,
        deadline=None,
        database=None,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def random_play(data: st.DataObject) -> None:
        inner(game_id, data)

    random_play()


def main() -> None:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    for game_id in GAMES:
        started = time.perf_counter()
        play(game_id, tables)
        print(f"{game_id}: {tables} random tables kept every promise in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()

"""Every bad value in every place of an archive entry imported through the Import sheet
(tests/test_import_fuzz.py brings a sample through the sheet and every case below it):
prints how many were imported and refused, and how long each import took. Each is checked
as the test checks it (no crash screen, one short sentence, nothing written).

    python tests/bench/import_fuzz.py
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_import_fuzz import BAD_VALUES, PLACES, every_case, through_the_sheet  # noqa: E402


def main() -> None:
    cases = every_case()
    started = time.perf_counter()
    answers = asyncio.run(through_the_sheet(cases))
    took = time.perf_counter() - started
    print(
        f"{len(PLACES)} places x {len(BAD_VALUES)} values through the sheet: {answers}; "
        f"{took:.1f} s, {took / len(cases) * 1000:.0f} ms an import"
    )


if __name__ == "__main__":
    main()

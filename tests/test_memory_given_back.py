"""A long session on a big archive does not keep growing: freed big blocks go back to the system."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Frees 60 MB of 300 KB blocks three times (as each rewrite of a big index frees its texts)
# and prints how much more memory the process holds than before.
CHILD = """
import sys
from companion.app.big_blocks import give_back_big_blocks
def rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024
told = give_back_big_blocks()
before = rss()
for _ in range(3):
    blocks = [bytearray(300 * 1024) for _ in range(200)]
    del blocks
    big = bytearray(8 * 1024 * 1024)
    del big
print(told, rss() - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator is the one told")
def test_the_app_has_freed_big_blocks_given_back_at_once() -> None:
    output = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, check=True)
    told, kept = output.stdout.split()
    assert told == "True"
    assert float(kept) < 3  # MB: without it glibc keeps ~10 MB of them here

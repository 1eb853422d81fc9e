"""The package can be walked: importing any module of it (as pydoc, a test collector or an
IDE does) acts on nothing; only running it does."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "companion"


def module_names() -> list[str]:
    """Every module of the package, from its files (companion.app has no __init__: pkgutil skips it)."""
    names = (".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts) for path in PACKAGE.rglob("*.py"))
    return sorted(name.removesuffix(".__init__") for name in names)


def test_every_module_imports_without_acting() -> None:
    names = module_names()
    assert {"companion.publish.bytecode", "companion.publish.__main__", "companion.__main__"} <= set(names)
    # In a process of its own: the imports must not touch what this one holds.
    script = "import importlib, sys\nfor name in sys.argv[1:]: importlib.import_module(name)\nprint('imported')\n"
    done = subprocess.run([sys.executable, "-c", script, *names], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "imported", done.stderr[-2000:] or done.stdout[-2000:]


def test_the_build_script_acts_only_when_run() -> None:
    bytecode = importlib.import_module("companion.publish.bytecode")
    assert callable(bytecode.main)

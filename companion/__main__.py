"""`python -m companion`, `flet run`, and the entry point of `flet build` bundles."""

import importlib.util
import sys
from pathlib import Path

if not __package__:
    # Run as a plain script (flet run, or a flet build bundle where this folder is the app
    # root): load this folder as the `companion` package so absolute imports work.
    here = Path(__file__).resolve().parent
    spec = importlib.util.spec_from_file_location(
        "companion", here / "__init__.py", submodule_search_locations=[str(here)]
    )
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules["companion"] = package
    spec.loader.exec_module(package)

from companion.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())

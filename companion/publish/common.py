"""What every step of the phone build shares: the site's file names, the records passed
between steps, and the file walk."""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent  # companion/
ASSETS = PACKAGE / "assets"
MARKER = "companion-site.json"  # says "a Companion build" (so a rebuild may replace the folder)
SERVICE_WORKER = "service-worker.js"
PYTHON_WORKER = "companion-worker.js"  # start.js runs Python in it, not in flet-web's python-worker.js
APP_PACKAGE = "app.zip"  # what the Python worker unpacks at each start
START_MODULE = "companion_start"  # Upstream defect 6: the entry is a module of its own
DEFAULT_OUT = print


class PublishError(Exception):
    """The site cannot be built; `str()` is one sentence for the user."""


@dataclass(frozen=True)
class Pyodide:
    version: str
    python: str  # "3.14"
    platform: str  # the wheel tag of its compiled packages: "pyemscripten_2026_0_wasm32"


@dataclass(frozen=True)
class Site:
    directory: Path
    version: str
    files: int
    size: int  # bytes on the host
    download: int  # bytes a first visit downloads in Chromium (all the service worker caches)
    download_elsewhere: int  # the same in other browsers (Flutter's other build)
    trimmed: int  # bytes of the client left out


@dataclass
class AppFiles:
    """The app's Python: `zipped` is read from app.zip in place; `native` (wheels with
    compiled parts, which zipimport cannot load) is unpacked into `__pypackages__/`."""

    zipped: dict[str, bytes]
    native: dict[str, bytes]


def files_under(root: Path) -> Iterator[tuple[str, Path]]:
    """(path relative to root with '/', file) for every file, in a stable order."""
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        for name in sorted(names):
            file = Path(folder) / name
            yield file.relative_to(root).as_posix(), file


def matches(path: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in patterns)


def replace_once(text: str, pattern: str, replacement: str, what: str) -> str:
    new, count = re.subn(pattern, lambda _: replacement, text, flags=re.DOTALL)
    if count != 1:
        raise PublishError(f"flet-web's client changed: {what} not found once (pin flet-web==1.0.5)")
    return new

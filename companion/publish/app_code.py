"""The app's Python as the browser gets it: the start module, app.zip (companion.zip and
`__pypackages__/`), and its bytecode compiled ahead by the site's own Pyodide."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from companion.publish.common import DEFAULT_OUT, HERE, PACKAGE, START_MODULE, AppFiles, Pyodide, files_under
from companion.publish.wheels import add_distribution, requirements

MTIME = 1_700_000_000  # every file of the app package gets this time: same sources, same bytes
START = '''"""Where the phone build starts (written by `companion publish`).

The Python worker imports it first (before its memory snapshot, which keeps what is imported
here: so it must stay free of JavaScript), then runs it as `__main__`, which starts the app.
"""
import os
import sys

# __pypackages__, first on sys.path, holds the requirements with compiled parts; the app and
# its pure-Python ones, compiled, are read in place (zipimport): nothing to unpack. Added
# once: a start restored from a snapshot has them already.
for at, path in enumerate((os.path.join(os.getcwd(), "__pypackages__"), os.path.join(os.getcwd(), "companion.zip"))):
    if path not in sys.path:
        sys.path.insert(at, path)

from companion.browser import run  # noqa: E402

# The Flet names the app uses (`ft.Column`...), which Flet imports when first used: imported
# before the snapshot (companion.browser.prepare), not on the first screen's way.
FLET_NAMES = {flet_names}

if __name__ == "__main__":
    run()
'''
# Never imported ahead: `ft.run` brings Flet's connection, which loads msgpack's compiled module.
NOT_AHEAD = {"run", "run_async"}


def start_module() -> bytes:
    return START.replace("{flet_names}", repr(flet_names())).encode()


def flet_names(package: Path = PACKAGE) -> tuple[str, ...]:
    """Every `ft.<Name>` in the app's code but NOT_AHEAD, sorted."""
    found: set[str] = set()
    for path, file in files_under(package):
        if path.endswith(".py") and app_file(path):
            found.update(re.findall(r"\bft\.([A-Za-z_][A-Za-z0-9_]*)", file.read_text(encoding="utf-8")))
    return tuple(sorted(found - NOT_AHEAD))


def app_files(
    pyodide: Pyodide, *, out: Callable[[str], None] = DEFAULT_OUT, wheel_cache: Path | None = None
) -> AppFiles:
    """The companion package (code and compiled catalogues) and every requirement as the
    browser needs it. Upstream defect 4: all of it is in app.tar.gz, and no requirements
    file, so micropip never runs."""
    app = AppFiles({START_MODULE + ".py": start_module()}, {})
    for path, file in files_under(PACKAGE):
        if app_file(path):
            app.zipped[f"companion/{path}"] = file.read_bytes()
    for dist in requirements(pyodide, out=out):
        add_distribution(app, dist, pyodide, out=out, wheel_cache=wheel_cache)
    return app


def app_package(app: AppFiles) -> bytes:
    """app.zip, which the worker unpacks: the start module, companion.zip (read in place) and
    `__pypackages__/`. Stored, not deflated: the service worker's download is gzipped whole,
    and the worker then unpacks it with no inflating."""
    start = app.zipped.pop(START_MODULE + ".py")
    compiled = app.zipped.pop(START_MODULE + ".pyc", None)
    members = {
        START_MODULE + ".py": start,
        "companion.zip": stored_zip(app.zipped),
        **{f"__pypackages__/{path}": data for path, data in app.native.items()},
    }
    if compiled is not None:
        members[f"__pycache__/{START_MODULE}.{CACHE_TAG}.pyc"] = compiled
    return stored_zip(members)


def stored_zip(files: dict[str, bytes]) -> bytes:
    """Uncompressed, sorted, one time: same files, same bytes."""
    raw = io.BytesIO()
    stamp = time_of(MTIME)
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_STORED) as archive:
        for path in sorted(files):
            archive.writestr(zipfile.ZipInfo(path, stamp), files[path])
    return raw.getvalue()


def time_of(stamp: int) -> tuple[int, int, int, int, int, int]:
    import time

    moment = time.gmtime(stamp)
    return moment.tm_year, moment.tm_mon, moment.tm_mday, moment.tm_hour, moment.tm_min, moment.tm_sec


CACHE_TAG = "cpython-314"  # sys.implementation.cache_tag in the site's Pyodide


def compile_bytecode(core: Path, app: AppFiles, *, out: Callable[[str], None] = DEFAULT_OUT) -> bool:
    """Compile the standard library (in place, in `core`) and the app's modules (added to
    `app`) with the site's own Pyodide run by Node.js; False, and said, when that cannot be
    done: the site then works, but the browser compiles every module at every start."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        out(
            "companion: Node.js not found, so the Python is not compiled ahead: the app will start a few seconds "
            "slower (install Node.js 18 or newer and build again)"
        )
        return False
    with tempfile.TemporaryDirectory(prefix="companion-bytecode-") as folder:
        work = Path(folder)
        shutil.copyfile(core / "python_stdlib.zip", work / "stdlib.zip")
        for part, files in (("zip", app.zipped), ("disk", app.native)):
            for path, data in files.items():
                (work / part / path).parent.mkdir(parents=True, exist_ok=True)
                (work / part / path).write_bytes(data)
        try:
            subprocess.run(
                [node, str(HERE / "bytecode.mjs"), str(core), folder, str(HERE / "bytecode.py")],
                check=True,
                capture_output=True,
                timeout=900,
            )
        except (OSError, subprocess.SubprocessError) as error:
            said = (getattr(error, "stderr", b"") or b"").decode(errors="replace").strip()[-300:] or error
            out(f"companion: the Python could not be compiled ahead ({said}); the app will start slower")
            return False
        shutil.copyfile(work / "stdlib-compiled.zip", core / "python_stdlib.zip")
        for part, files in (("zip", app.zipped), ("disk", app.native)):
            for file in (work / part).rglob("*.pyc"):
                files[file.relative_to(work / part).as_posix()] = file.read_bytes()
    return True


def app_file(path: str) -> bool:
    """The package's Python and compiled catalogues; not the web door's page and fonts nor this builder."""
    if path.split("/")[0] in ("assets", "publish"):
        return False
    return path.endswith((".py", ".mo"))

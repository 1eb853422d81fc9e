"""`companion publish DIR`: the phone app as a static site that runs offline, with no server.

The site is flet-web's prebuilt Flutter client (CanvasKit renderer) and the Pyodide core it
ships (Python 3.14 in WebAssembly), running `companion.browser` in the page: no Flutter SDK,
no server, nothing fetched from the internet at build time but the one compiled wheel the
package index has for the browser (msgpack). Put the folder on any HTTPS static host; the
first visit caches every file (`service-worker.js`), and then the app starts with no network.

`flet publish` (flet-cli 1.0.5) is the upstream way to make such a site; offline it fails,
so this module does its steps itself, from the installed packages, and works around each
defect of flet-cli / flet-web 1.0.5 where it meets it (every one is named where it is
handled, "Upstream defect"):

1. flet-cli fetches python-build's manifest from GitHub before anything else (its
   `FLET_PYTHON_BUILD_MANIFEST` escape hatch needs a hand-written file): the Pyodide
   and Python versions are read here from the Pyodide copy flet-web ships.
2. `--no-cdn` always downloads the Pyodide core: its cache check reads
   `pyodide-lock.json`'s `info.version`, which Pyodide 314.0.7's lock lacks. flet-web's
   own copy is that same core; it is used as it is.
3. The page points the Python worker at `pyodide/pyodide.mjs`, a bare module specifier
   the worker's `import()` refuses: written here as `./pyodide/pyodide.mjs`.
4. Requirements are installed by micropip from the internet at every start: the wheels
   are unpacked into the app's `__pypackages__/` instead (the start module puts it first
   on `sys.path`), and no requirements file goes in, so micropip never runs.
5. `-a` with an absolute path is ignored, and `companion/assets/` (the web door's own
   `index.html`, `boot.js`, `manifest.json`) then overwrites the client's page: only the
   icons, favicon, manifest and fonts are taken from it here.
6. The entry module cannot be `__main__.py` (`__main__.__spec__` is None under `runpy`),
   and `cli.main()` would take the desktop or server path: the entry is `companion_start`,
   which runs `companion.browser`.
7. Flutter 3.44's `flutter_service_worker.js` unregisters itself, so without a server the
   page never loads again: it is left out, Flutter's loader is told not to register it,
   and `service-worker.js` (ours, versioned by the build's contents) caches the app.
8. With no CDN, Flutter asks for its fallback fonts (names in Greek, Cyrillic, CJK, emoji)
   under `assets/fonts/<Google Fonts path>`, one path per slice; a static host has none:
   the service worker answers each with the shipped font (as the web door redirects).
9. The client loads `rive_native.js` from jsDelivr on every start (hard-coded in
   `main.dart.js`): the address is made local (answered 404; nothing here uses Rive).

Python runs in `companion-worker.js`, not flet-web's `python-worker.js`: the same messages
with the page, but the app's archive downloads while Pyodide loads and is written straight
into Python's file system (flet-web's fetches it only after, and unpacks it with Python);
and every start but the first restores Python from a memory snapshot, which the page makes
in a worker of its own after the first (the start module lists the Flet names it imports
ahead, `FLET_NAMES`).

What no renderer here loads is trimmed (opt-in renderers, debugging symbols, source maps,
Pyodide's Node.js launcher and type files, micropip's wheels); each browser downloads only
the one of Flutter's two builds it runs. Big text files
(JavaScript, WebAssembly) also go in gzip-compressed beside the plain ones: the service
worker downloads those and unpacks them, so a first visit downloads about half as much on
any host.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import fnmatch
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent  # companion/
ASSETS = PACKAGE / "assets"
MARKER = "companion-site.json"  # says "a Companion build" (so a rebuild may replace the folder)
SERVICE_WORKER = "service-worker.js"
PYTHON_WORKER = "companion-worker.js"  # start.js runs Python in it, not in flet-web's python-worker.js
APP_PACKAGE = "app.zip"  # what the Python worker unpacks at each start
START_MODULE = "companion_start"  # Upstream defect 6: the entry is a module of its own
PYODIDE = "314.0.7"  # the core flet-web 1.0.5 ships; another one is refused (its wheels would not fit)
THEME_COLOUR = "#2E7D32"

# Upstream defect 7: Flutter's stub worker; and what no renderer of this site loads.
TRIMMED = (
    "flutter_service_worker.js",
    "canvaskit/wimp*", "canvaskit/experimental_webparagraph/*",  # opt-in renderers
    "*.symbols", "*.map",
    "pyodide/python", "pyodide/python.bat", "pyodide/python.exe", "pyodide/python_cli_entry.mjs",  # Node.js
    "pyodide/*.d.ts", "pyodide/package.json", "pyodide/pyodide.js",  # types; the classic-worker build
    "pyodide/micropip-*.whl", "pyodide/packaging-*.whl",  # Upstream defect 4: micropip never runs
    "icons/*", "favicon.png", "manifest.json",  # Companion's own, from companion/assets
)
# Cached when first asked for, not at install: each browser loads one of Flutter's builds
# (Chromium the dart2wasm one with skwasm, others dart2js with CanvasKit) the moment the app
# starts, and never the other; and Flutter's licence text, shown on request only.
LAZY = ("main.dart.js", "main.dart.wasm", "main.dart.mjs", "canvaskit/*", "assets/NOTICES")
CHROMIUM_LOADS = ("main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.js", "canvaskit/skwasm.wasm")
OTHERS_LOAD = ("main.dart.js", "canvaskit/canvaskit.js", "canvaskit/canvaskit.wasm")
COMPRESSED = (".js", ".mjs", ".wasm", ".json", ".otf", ".ttf", ".bin", ".frag", ".html", ".zip")
# Packages with compiled parts: how the browser gets each.
BROWSER_WHEELS = {"msgpack"}  # from the package index, built for Pyodide
LEFT_OUT = {"orjson": "no build for the browser; the store uses the json module instead"}
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


# --------------------------------------------------------------------------- the build


def build(target: str | os.PathLike[str], *, out: Callable[[str], None] = DEFAULT_OUT,
          wheel_cache: Path | None = None) -> Site:
    """Build the site into `target` (a new or empty folder, or an earlier build, replaced whole)."""
    import flet_web  # type: ignore[import-untyped]

    target = Path(target).resolve()
    check_target(target)
    web = Path(flet_web.get_package_web_dir())
    pyodide = read_pyodide(web / "pyodide")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        trimmed = copy_client(web, staging)
        patch_client(staging)
        copy_companion_assets(staging)
        write_page(web / "index.html", staging)
        out(f"companion: packing the app for Python {pyodide.python} (Pyodide {pyodide.version})")
        app = app_files(pyodide, out=out, wheel_cache=wheel_cache)
        compile_bytecode(staging / "pyodide", app, out=out)
        (staging / APP_PACKAGE).write_bytes(app_package(app))
        compress(staging)
        site = write_service_worker(staging, trimmed)
        replace(target, staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    site = dataclasses.replace(site, directory=target)
    out(f"companion: published to {target}: {site.files} files, {mb(site.size)} on the host; a first visit "
        f"downloads {mb(site.download)} ({mb(site.download_elsewhere)} outside Chromium) and then runs offline "
        f"({mb(site.trimmed)} of the client that no renderer here loads left out)")
    return site


def mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def check_target(target: Path) -> None:
    if target.exists() and not target.is_dir():
        raise PublishError(f"{target} is a file, not a folder")
    if target.is_dir() and any(target.iterdir()) and not (target / MARKER).is_file():
        raise PublishError(f"{target} is not empty and holds no earlier Companion build; choose a new or "
                           "empty folder")


def replace(target: Path, staging: Path) -> None:
    """Put the new site in place of the old one (if any) with two renames."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        target.rename(old)
    staging.rename(target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def read_pyodide(core: Path) -> Pyodide:
    """Upstream defects 1 and 2: the versions come from flet-web's own Pyodide core, not from
    python-build's manifest online nor from the lock's missing `info.version`."""
    try:
        version = json.loads((core / "package.json").read_text(encoding="utf-8"))["version"]
        info = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
        python = ".".join(str(info["python"]).split(".")[:2])
        platform = f"pyemscripten_{info['abi_version']}_{info['arch']}"
    except (OSError, ValueError, KeyError) as error:
        raise PublishError(f"flet-web's Pyodide core is missing or unreadable ({error})") from error
    if version != PYODIDE:
        raise PublishError(f"flet-web ships Pyodide {version}; this build knows {PYODIDE} only (pin flet-web==1.0.5)")
    return Pyodide(version, python, platform)


def matches(path: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in patterns)


def trimmed(path: str) -> bool:
    return matches(path, TRIMMED)


def lazy(path: str) -> bool:
    return matches(path, LAZY)


def files_under(root: Path) -> Iterator[tuple[str, Path]]:
    """(path relative to root with '/', file) for every file, in a stable order."""
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        for name in sorted(names):
            file = Path(folder) / name
            yield file.relative_to(root).as_posix(), file


def copy_client(web: Path, site: Path) -> int:
    """flet-web's client without what this site never loads; the bytes left out."""
    left_out = 0
    for path, file in files_under(web):
        if trimmed(path):
            left_out += file.stat().st_size
            continue
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, site / path)
    return left_out


def replace_once(text: str, pattern: str, replacement: str, what: str) -> str:
    new, count = re.subn(pattern, lambda _: replacement, text, flags=re.DOTALL)
    if count != 1:
        raise PublishError(f"flet-web's client changed: {what} not found once (pin flet-web==1.0.5)")
    return new


def patch_client(site: Path) -> None:
    from companion.app.web import RIVE_CDN, RIVE_LOCAL

    # Upstream defect 9: the Rive CDN address, replaced by a local one of the same length
    # (so the WebAssembly build stays valid).
    for name in ("main.dart.js", "main.dart.wasm"):
        body = (site / name).read_bytes()
        if RIVE_CDN not in body:
            raise PublishError(f"flet-web's client changed: {name} no longer names the Rive CDN")
        (site / name).write_bytes(body.replace(RIVE_CDN, RIVE_LOCAL))
    # Upstream defect 7: Flutter's loader registers its self-unregistering worker (and so
    # replaces ours) whenever the page has one: no worker settings, no registration.
    bootstrap = site / "flutter_bootstrap.js"
    bootstrap.write_text(replace_once(bootstrap.read_text(encoding="utf-8"), r"serviceWorkerSettings:\s*\{[^}]*\},",
                                      "", "flutter_bootstrap.js' serviceWorkerSettings"), encoding="utf-8")
    # flet publish --no-cdn does the same: Roboto, the default font, is bundled rather than fetched.
    from flet_web import patch_font_manifest_json

    patch_font_manifest_json(str(site / "assets" / "FontManifest.json"))


def copy_companion_assets(site: Path) -> None:
    """Upstream defect 5: only the icons, favicon, fonts and manifest of companion/assets
    (its index.html and boot.js are the web door's page, not this one's)."""
    for path, file in files_under(ASSETS):
        if path.startswith(("icons/", "fonts/")) or path == "favicon.png":
            (site / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, site / path)
    manifest = json.loads((ASSETS / "manifest.json").read_text(encoding="utf-8"))
    manifest.update({"start_url": "./", "scope": "./", "display": "standalone", "theme_color": THEME_COLOUR})
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8")


# --------------------------------------------------------------------------- the page

# The page may use its own files only (a static host sends no such header: the page says it).
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",  # Flutter's engine writes its own <style> elements
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
])

# What `patch_index_html` would write for `flet publish --no-cdn`, with every address
# relative to the page, so the site runs from any folder of any host.
FLET_SETTINGS = f"""
// Companion's phone build (companion/publish): Python runs in the page.
flet.pyodide = true;
flet.noCdn = true;
flet.pythonModuleName = "{START_MODULE}";
flet.appPackageUrl = "{APP_PACKAGE}";
flet.micropipIncludePre = false;
// Upstream defect 3: "pyodide/pyodide.mjs" is a bare specifier to the worker's import().
flet.pyodideUrl = "./pyodide/pyodide.mjs";
flet.canvasKitBaseUrl = "./canvaskit/";
flet.fontFallbackBaseUrl = "assets/fonts/";
// Flutter chooses: skwasm (dart2wasm) in Chromium, which draws a tap's change several times
// sooner here than CanvasKit (flet publish's default), and CanvasKit (dart2js) elsewhere.
flet.webRenderer = "auto";
flet.routeUrlStrategy = "hash";
flet.entrypointBaseUrl = "./";
flet.assetBase = "./";
"""

PAGE_HEAD = f"""  <meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">
  <meta name="theme-color" content="{THEME_COLOUR}">
  <style>#loading {{ flex-direction: column; }} #loading-progress {{ margin-top: 16px; font: 14px sans-serif;
    color: #666; min-height: 1.2em; }}</style>
"""


def write_page(template: Path, site: Path) -> None:
    """index.html from the client's, its inline scripts moved to flet-config.js (the page's
    policy allows no inline script) and Flutter started by start.js, once the app is cached."""
    page = template.read_text(encoding="utf-8")
    inline = re.findall(r"<script>(.*?)</script>", page, flags=re.DOTALL)
    if not any("var flet" in script for script in inline):
        raise PublishError("flet-web's client changed: index.html no longer sets `flet`")
    page = re.sub(r"\s*<script>.*?</script>", "", page, flags=re.DOTALL)
    page = page.replace("<!-- fletAppConfig -->", "")
    (site / "flet-config.js").write_text("\n".join(inline) + FLET_SETTINGS, encoding="utf-8")
    shutil.copyfile(HERE / "start.js", site / "start.js")
    shutil.copyfile(HERE / PYTHON_WORKER, site / PYTHON_WORKER)
    page = replace_once(page, r'<base href="[^"]*">', '<base href="./">', "index.html's <base>")
    page = replace_once(page, r"<title>[^<]*</title>", "<title>Companion</title>", "index.html's <title>")
    page = re.sub(r'(<meta name="apple-mobile-web-app-title" content=")[^"]*', r"\g<1>Companion", page)
    page = re.sub(r'(<meta name="description" content=")[^"]*', r"\g<1>A table-side companion for board games.",
                  page)
    page = replace_once(page, r'<meta charset="UTF-8">\n', '<meta charset="UTF-8">\n' + PAGE_HEAD,
                        "index.html's charset")
    page = replace_once(page, r'<script src="python.js"></script>',
                        '<script src="flet-config.js"></script>\n  <script src="python.js"></script>',
                        "index.html's python.js")
    page = replace_once(page, r'<img src="icons/loading-animation.png" alt="" />',
                        '<img src="icons/loading-animation.png" alt="" />\n    '
                        '<div id="loading-progress" aria-hidden="true"></div>', "index.html's loading image")
    page = replace_once(page, r'<script src="flutter_bootstrap.js" async></script>',
                        '<script src="start.js"></script>', "index.html's flutter_bootstrap.js")
    (site / "index.html").write_text(page, encoding="utf-8")


# --------------------------------------------------------------------------- the app's Python

MTIME = 1_700_000_000  # every file of the app package gets this time: same sources, same bytes
NATIVE = (".so", ".pyd", ".dylib")
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


@dataclass
class AppFiles:
    """The app's Python: `zipped` is read from app.zip in place; `native` (wheels with
    compiled parts, which zipimport cannot load) is unpacked into `__pypackages__/`."""

    zipped: dict[str, bytes]
    native: dict[str, bytes]


def app_files(pyodide: Pyodide, *, out: Callable[[str], None] = DEFAULT_OUT,
              wheel_cache: Path | None = None) -> AppFiles:
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
    members = {START_MODULE + ".py": start, "companion.zip": stored_zip(app.zipped),
               **{f"__pypackages__/{path}": data for path, data in app.native.items()}}
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
        out("companion: Node.js not found, so the Python is not compiled ahead: the app will start a few seconds "
            "slower (install Node.js 18 or newer and build again)")
        return False
    with tempfile.TemporaryDirectory(prefix="companion-bytecode-") as folder:
        work = Path(folder)
        shutil.copyfile(core / "python_stdlib.zip", work / "stdlib.zip")
        for part, files in (("zip", app.zipped), ("disk", app.native)):
            for path, data in files.items():
                (work / part / path).parent.mkdir(parents=True, exist_ok=True)
                (work / part / path).write_bytes(data)
        try:
            subprocess.run([node, str(HERE / "bytecode.mjs"), str(core), folder, str(HERE / "bytecode.py")],
                           check=True, capture_output=True, timeout=900)
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


def marker_environment(pyodide: Pyodide, full_version: str | None = None) -> dict[str, str]:
    """PEP 508 markers as they read inside Pyodide (which requirements the browser needs)."""
    full = full_version or f"{pyodide.python}.0"
    return {
        "implementation_name": "cpython", "implementation_version": full, "os_name": "posix",
        "platform_machine": "wasm32", "platform_python_implementation": "CPython", "platform_release": "",
        "platform_system": "Emscripten", "platform_version": "", "python_full_version": full,
        "python_version": pyodide.python, "sys_platform": "emscripten", "extra": "",
    }


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements(pyodide: Pyodide, *, out: Callable[[str], None] = DEFAULT_OUT) -> list[metadata.Distribution]:
    """Companion's installed requirements (and theirs) that apply in the browser, by name."""
    from packaging.requirements import Requirement

    environment = marker_environment(pyodide)
    found: dict[str, metadata.Distribution] = {}
    try:
        wanted = list(metadata.requires("companion") or [])
    except metadata.PackageNotFoundError as error:
        raise PublishError("Companion is not installed: run pip install -e . first") from error
    while wanted:
        requirement = Requirement(wanted.pop(0))
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        name = canonical(requirement.name)
        if name in found:
            continue
        if name in LEFT_OUT:
            out(f"companion: {name} left out: {LEFT_OUT[name]}")
            found[name] = None  # type: ignore[assignment]  # seen
            continue
        try:
            found[name] = metadata.distribution(requirement.name)
        except metadata.PackageNotFoundError as error:
            raise PublishError(f"{requirement.name} is not installed: run pip install -e . first") from error
        wanted += found[name].requires or []
    return [dist for _, dist in sorted(found.items()) if dist is not None]


def add_distribution(app: AppFiles, dist: metadata.Distribution, pyodide: Pyodide, *,
                     out: Callable[[str], None] = DEFAULT_OUT, wheel_cache: Path | None = None) -> None:
    name = canonical(dist.metadata["Name"])
    listed = dist.files
    if listed is None:
        raise PublishError(f"{name} was installed without a file list (RECORD); reinstall it with pip")
    paths = browser_files(listed)
    native = [path for path in paths if path.suffix in NATIVE]
    if name in BROWSER_WHEELS:
        wheel = browser_wheel(name, dist.version, pyodide, wheel_cache)
        if wheel is not None:
            with zipfile.ZipFile(wheel) as archive:
                for member in archive.infolist():
                    if not member.is_dir():
                        app.native[member.filename] = archive.read(member)
            out(f"companion: {name} {dist.version}: {wheel.name}")
            return
        out(f"companion: no browser build of {name} {dist.version} could be downloaded; its slower pure-Python "
            "part goes in instead")
        paths = [path for path in paths if path not in native]
    elif native:
        raise PublishError(f"{name} has compiled parts ({native[0]}) and no build for the browser is known")
    for path in paths:
        app.zipped[PurePosixPath(*path.parts).as_posix()] = Path(str(dist.locate_file(path))).read_bytes()


KEPT_METADATA = ("METADATA", "top_level.txt", "entry_points.txt")  # what importlib.metadata reads


def browser_files(listed: list[metadata.PackagePath]) -> list[metadata.PackagePath]:
    """A distribution's files that Python imports or reads: its packages and modules (not type
    stubs, caches, Dart sources, scripts) and the metadata importlib.metadata reads."""
    tops = {path.parts[0] for path in listed if path.suffix == ".py" or path.suffix in NATIVE}
    return [path for path in listed
            if (path.parts[0] in tops and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyi"))
            or (path.parts[0].endswith(".dist-info") and len(path.parts) == 2 and path.name in KEPT_METADATA)]


def default_wheel_cache() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("companion", appauthor=False)) / "browser-wheels"


def browser_wheel(name: str, version: str, pyodide: Pyodide, cache: Path | None = None) -> Path | None:
    """The package index's wheel of `name==version` built for this Pyodide, kept in `cache`
    (a rebuild needs no network); None when it cannot be had."""
    cache = cache or default_wheel_cache()
    pattern = f"{name.replace('-', '_')}-{version}-*-{pyodide.platform}.whl"
    found = sorted(cache.glob(pattern))
    if found:
        return found[0]
    try:
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
             "--only-binary=:all:", "--platform", pyodide.platform, "--python-version", pyodide.python,
             "--implementation", "cp", "--abi", "cp" + pyodide.python.replace(".", ""), "--dest", str(cache),
             f"{name}=={version}"],
            check=True, capture_output=True, timeout=300)
    except (OSError, subprocess.SubprocessError):
        return None
    found = sorted(cache.glob(pattern))
    return found[0] if found else None


# --------------------------------------------------------------------------- offline


def compress(site: Path) -> None:
    """A gzip copy beside each big text file where it saves a tenth or more (the service worker's download)."""
    def one(file: Path) -> None:
        data = file.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= 0.9 * len(data):
            file.with_name(file.name + ".gz").write_bytes(packed)

    chosen = [file for path, file in files_under(site) if path.endswith(COMPRESSED) and file.stat().st_size >= 4096]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(one, chosen))  # zlib lets go of the GIL: both cores work


def cached(site: Path) -> Iterable[tuple[str, Path]]:
    """Every file the service worker caches (not the gzip copies, nor itself)."""
    for path, file in files_under(site):
        if path.endswith(".gz") and (site / path[:-3]).is_file():
            continue
        if path not in (SERVICE_WORKER, MARKER):
            yield path, file


def write_service_worker(site: Path, trimmed_bytes: int) -> Site:
    """service-worker.js with this build's file list: path, SHA-256, bytes to download, gzip
    copy or not, cached when first asked for or not.

    Its version is a digest of that list, so a build that changes any file is a new
    worker, which the browser installs (downloading only the changed files) the next time
    the app is opened online."""
    from companion.app.web import FALLBACK_FONTS

    entries: list[tuple[str, str, int, bool, bool]] = []
    for path, file in cached(site):
        packed = file.with_name(file.name + ".gz")
        size = packed.stat().st_size if packed.is_file() else file.stat().st_size
        entries.append((path, hashlib.sha256(file.read_bytes()).hexdigest(), size, packed.is_file(), lazy(path)))
    fonts = {family: f"fonts/{name}" for family, name in sorted(FALLBACK_FONTS.items())}
    template = (HERE / SERVICE_WORKER).read_text(encoding="utf-8")
    listed = json.dumps({"files": entries, "fonts": fonts}, separators=(",", ":"))
    version = hashlib.sha256((listed + template).encode()).hexdigest()[:16]
    build = json.dumps({"version": version, **json.loads(listed)}, separators=(",", ":"))
    worker = replace_once(template, r"/\*BUILD\*/\{\}", build, f"{SERVICE_WORKER}'s BUILD slot")
    (site / SERVICE_WORKER).write_text(worker, encoding="utf-8")
    at_install = sum(size for _, _, size, _, later in entries if not later) + len(worker.encode())
    sizes = {path: size for path, _, size, _, _ in entries}
    download = at_install + sum(sizes[path] for path in CHROMIUM_LOADS)
    elsewhere = at_install + sum(sizes[path] for path in OTHERS_LOAD)
    (site / MARKER).write_text(json.dumps({"version": version, "download": download,
                                           "download_elsewhere": elsewhere}, indent=2) + "\n", encoding="utf-8")
    size = sum(file.stat().st_size for _, file in files_under(site))
    return Site(site, version, sum(1 for _ in files_under(site)), size, download, elsewhere, trimmed_bytes)


# --------------------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="companion publish",
        description="Build the phone app: a folder to put on any HTTPS static host. Opened once on the phone "
                    "(then \"Add to Home screen\"), it runs with no network and no computer.")
    parser.add_argument("directory", metavar="DIR", help="where the site goes (a new or empty folder, or an "
                                                         "earlier build, replaced)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        build(args.directory)
    except PublishError as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"companion: the site could not be written ({error.strerror or error}: "
              f"{error.filename or args.directory})", file=sys.stderr)
        return 1
    return 0


"""`companion publish DIR`: the phone app as a static site that runs offline, with no server.

The site is flet-web's prebuilt Flutter client (CanvasKit renderer) and the Pyodide core it
ships (Python 3.14 in WebAssembly), running `companion.browser` in the page: no Flutter SDK,
no server, nothing fetched from the internet at build time but the one compiled wheel the
package index has for the browser (msgpack). Put the folder on any HTTPS static host; the
first visit caches every file (`service-worker.js`), and then the app starts with no network.

`flet publish` (flet-cli 1.0.5) is the upstream way to make such a site; offline it fails,
so this package does its steps itself, from the installed packages, and works around each
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

What the site holds: the app and its requirements compiled into `app.zip`, a page whose
Content-Security-Policy allows only its own files, and `service-worker.js`, versioned by the
digest of every file: it caches the app (each file checked against its SHA-256; gzip copies
downloaded and unpacked; at a first visit the fallback fonts, half of the bytes, once the
app is up), serves it offline, answers Flutter's fallback-font paths with the shipped fonts,
and on a new build downloads only what changed.

The steps, by subject: `client.py` (flet-web's client and the page), `wheels.py` (the
requirements), `app_code.py` (app.zip and its bytecode; `bytecode.py` and `bytecode.mjs`
compile it in Pyodide under Node.js), `offline.py` (gzip copies, the service worker),
`builder.py` (the whole build and its command line), `common.py` (what they share).
"""

from companion.publish.app_code import app_file, app_files, app_package, compile_bytecode, flet_names, start_module
from companion.publish.builder import build, check_target, main
from companion.publish.client import read_pyodide
from companion.publish.common import (
    APP_PACKAGE,
    MARKER,
    PYTHON_WORKER,
    SERVICE_WORKER,
    START_MODULE,
    AppFiles,
    PublishError,
    Pyodide,
    Site,
    files_under,
)
from companion.publish.offline import write_service_worker
from companion.publish.wheels import browser_files, canonical, requirements

__all__ = [
    "APP_PACKAGE",
    "MARKER",
    "PYTHON_WORKER",
    "SERVICE_WORKER",
    "START_MODULE",
    "AppFiles",
    "PublishError",
    "Pyodide",
    "Site",
    "app_file",
    "app_files",
    "app_package",
    "browser_files",
    "build",
    "canonical",
    "check_target",
    "compile_bytecode",
    "files_under",
    "flet_names",
    "main",
    "read_pyodide",
    "requirements",
    "start_module",
    "write_service_worker",
]

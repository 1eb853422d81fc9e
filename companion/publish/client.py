"""flet-web's client as the site's: its Pyodide core read, what no renderer loads left out,
its files patched, Companion's icons and manifest added, and the page rewritten."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from companion.publish.common import (
    APP_PACKAGE,
    ASSETS,
    HERE,
    PYTHON_WORKER,
    START_MODULE,
    PublishError,
    Pyodide,
    files_under,
    matches,
    replace_once,
)

PYODIDE = "314.0.7"  # the core flet-web 1.0.5 ships; another one is refused (its wheels would not fit)
THEME_COLOUR = "#2E7D32"

# Upstream defect 7: Flutter's stub worker; and what no renderer of this site loads.
TRIMMED = (
    "flutter_service_worker.js",
    "canvaskit/wimp*",
    "canvaskit/experimental_webparagraph/*",  # opt-in renderers
    "*.symbols",
    "*.map",
    "pyodide/python",
    "pyodide/python.bat",
    "pyodide/python.exe",
    "pyodide/python_cli_entry.mjs",  # Node.js
    "pyodide/*.d.ts",
    "pyodide/package.json",
    "pyodide/pyodide.js",  # types; the classic-worker build
    "pyodide/micropip-*.whl",
    "pyodide/packaging-*.whl",  # Upstream defect 4: micropip never runs
    "icons/*",
    "favicon.png",
    "manifest.json",  # Companion's own, from companion/assets
)


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


def trimmed(path: str) -> bool:
    return matches(path, TRIMMED)


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
    bootstrap.write_text(
        replace_once(
            bootstrap.read_text(encoding="utf-8"),
            r"serviceWorkerSettings:\s*\{[^}]*\},",
            "",
            "flutter_bootstrap.js' serviceWorkerSettings",
        ),
        encoding="utf-8",
    )
    # flet publish --no-cdn does the same: Roboto, the default font, is bundled rather than fetched.
    from flet_web import patch_font_manifest_json  # type: ignore[import-untyped]

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
CONTENT_SECURITY_POLICY = "; ".join(
    [
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
    ]
)

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
    page = re.sub(r'(<meta name="description" content=")[^"]*', r"\g<1>A table-side companion for board games.", page)
    page = replace_once(
        page, r'<meta charset="UTF-8">\n', '<meta charset="UTF-8">\n' + PAGE_HEAD, "index.html's charset"
    )
    page = replace_once(
        page,
        r'<script src="python.js"></script>',
        '<script src="flet-config.js"></script>\n  <script src="python.js"></script>',
        "index.html's python.js",
    )
    page = replace_once(
        page,
        r'<img src="icons/loading-animation.png" alt="" />',
        '<img src="icons/loading-animation.png" alt="" />\n    <div id="loading-progress" aria-hidden="true"></div>',
        "index.html's loading image",
    )
    page = replace_once(
        page,
        r'<script src="flutter_bootstrap.js" async></script>',
        '<script src="start.js"></script>',
        "index.html's flutter_bootstrap.js",
    )
    (site / "index.html").write_text(page, encoding="utf-8")

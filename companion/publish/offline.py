"""What makes the site run offline: gzip copies of the big files and service-worker.js,
versioned by the digest of every file it caches."""

from __future__ import annotations

import concurrent.futures
import gzip
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from companion.publish.common import HERE, MARKER, SERVICE_WORKER, Site, files_under, matches, replace_once

# Cached when first asked for, not at install: each browser loads one of Flutter's builds
# (Chromium the dart2wasm one with skwasm, others dart2js with CanvasKit) the moment the app
# starts, and never the other; and Flutter's licence text, shown on request only.
LAZY = ("main.dart.js", "main.dart.wasm", "main.dart.mjs", "canvaskit/*", "assets/NOTICES")
CHROMIUM_LOADS = ("main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.js", "canvaskit/skwasm.wasm")
OTHERS_LOAD = ("main.dart.js", "canvaskit/canvaskit.js", "canvaskit/canvaskit.wasm")
COMPRESSED = (".js", ".mjs", ".wasm", ".json", ".otf", ".ttf", ".bin", ".frag", ".html", ".zip")


def lazy(path: str) -> bool:
    return matches(path, LAZY)


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
    (site / MARKER).write_text(
        json.dumps({"version": version, "download": download, "download_elsewhere": elsewhere}, indent=2) + "\n",
        encoding="utf-8",
    )
    size = sum(file.stat().st_size for _, file in files_under(site))
    return Site(site, version, sum(1 for _ in files_under(site)), size, download, elsewhere, trimmed_bytes)

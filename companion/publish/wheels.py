"""Companion's requirements as the browser needs them: which apply there, the files of each
that Python reads, and the package index's browser build of those with compiled parts."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from collections.abc import Callable
from importlib import metadata
from pathlib import Path, PurePosixPath

from companion.publish.common import DEFAULT_OUT, AppFiles, PublishError, Pyodide

# Packages with compiled parts: how the browser gets each.
BROWSER_WHEELS = {"msgpack"}  # from the package index, built for Pyodide
LEFT_OUT = {"orjson": "no build for the browser; the store uses the json module instead"}
NATIVE = (".so", ".pyd", ".dylib")


def marker_environment(pyodide: Pyodide, full_version: str | None = None) -> dict[str, str]:
    """PEP 508 markers as they read inside Pyodide (which requirements the browser needs)."""
    full = full_version or f"{pyodide.python}.0"
    return {
        "implementation_name": "cpython",
        "implementation_version": full,
        "os_name": "posix",
        "platform_machine": "wasm32",
        "platform_python_implementation": "CPython",
        "platform_release": "",
        "platform_system": "Emscripten",
        "platform_version": "",
        "python_full_version": full,
        "python_version": pyodide.python,
        "sys_platform": "emscripten",
        "extra": "",
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


def add_distribution(
    app: AppFiles,
    dist: metadata.Distribution,
    pyodide: Pyodide,
    *,
    out: Callable[[str], None] = DEFAULT_OUT,
    wheel_cache: Path | None = None,
) -> None:
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
        out(
            f"companion: no browser build of {name} {dist.version} could be downloaded; its slower pure-Python "
            "part goes in instead"
        )
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
    return [
        path
        for path in listed
        if (path.parts[0] in tops and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyi"))
        or (path.parts[0].endswith(".dist-info") and len(path.parts) == 2 and path.name in KEPT_METADATA)
    ]


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
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--only-binary=:all:",
                "--platform",
                pyodide.platform,
                "--python-version",
                pyodide.python,
                "--implementation",
                "cp",
                "--abi",
                "cp" + pyodide.python.replace(".", ""),
                "--dest",
                str(cache),
                f"{name}=={version}",
            ],
            check=True,
            capture_output=True,
            timeout=300,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    found = sorted(cache.glob(pattern))
    return found[0] if found else None

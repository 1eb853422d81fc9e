"""The build from end to end (each step in a folder beside the target, which it then
replaces whole) and its command line."""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from companion.publish.app_code import app_files, app_package, compile_bytecode
from companion.publish.client import copy_client, copy_companion_assets, patch_client, read_pyodide, write_page
from companion.publish.common import APP_PACKAGE, DEFAULT_OUT, MARKER, PublishError, Site
from companion.publish.offline import compress, write_service_worker


def build(
    target: str | os.PathLike[str], *, out: Callable[[str], None] = DEFAULT_OUT, wheel_cache: Path | None = None
) -> Site:
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
    out(
        f"companion: published to {target}: {site.files} files, {mb(site.size)} on the host; a first visit "
        f"downloads {mb(site.download)} ({mb(site.download_elsewhere)} outside Chromium) and then runs offline "
        f"({mb(site.trimmed)} of the client that no renderer here loads left out)"
    )
    return site


def mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def check_target(target: Path) -> None:
    if target.exists() and not target.is_dir():
        raise PublishError(f"{target} is a file, not a folder")
    if target.is_dir() and any(target.iterdir()) and not (target / MARKER).is_file():
        raise PublishError(f"{target} is not empty and holds no earlier Companion build; choose a new or empty folder")


def replace(target: Path, staging: Path) -> None:
    """Put the new site in place of the old one (if any) with two renames."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        target.rename(old)
    staging.rename(target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="companion publish",
        description="Build the phone app: a folder to put on any HTTPS static host. Opened once on the phone "
        '(then "Add to Home screen"), it runs with no network and no computer.',
    )
    parser.add_argument(
        "directory", metavar="DIR", help="where the site goes (a new or empty folder, or an earlier build, replaced)"
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        build(args.directory)
    except PublishError as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(
            f"companion: the site could not be written ({error.strerror or error}: {error.filename or args.directory})",
            file=sys.stderr,
        )
        return 1
    return 0

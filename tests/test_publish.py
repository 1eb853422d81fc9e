"""`companion publish DIR` without building a whole site: what goes into the phone app and
what the command refuses. The whole build, and the site in Chromium with no network, are in
tests/e2e/test_phone_e2e.py."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from companion import cli, publish
from companion.publish import AppFiles, PublishError, Pyodide

PYODIDE = Pyodide("314.0.7", "3.14", "pyemscripten_2026_0_wasm32")


def test_the_pyodide_flet_web_ships_is_read_from_its_own_files() -> None:
    import flet_web

    found = publish.read_pyodide(Path(flet_web.get_package_web_dir()) / "pyodide")
    assert found == PYODIDE


def test_another_pyodide_is_refused_in_words(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"version": "0.27.7"}')
    (tmp_path / "pyodide-lock.json").write_text(
        '{"info": {"python": "3.12.7", "abi_version": "2025_0", "arch": "wasm32"}}'
    )
    with pytest.raises(PublishError, match="Pyodide 0.27.7"):
        publish.read_pyodide(tmp_path)


def test_the_browser_gets_the_app_s_requirements_and_not_the_desktop_s() -> None:
    said: list[str] = []
    names = {publish.canonical(dist.metadata["Name"]) for dist in publish.requirements(PYODIDE, out=said.append)}
    assert {"flet", "flet-charts", "tinydb", "platformdirs", "filelock", "segno", "msgpack"} <= names
    # The web door, the desktop window and this builder stay on the computer; orjson has no browser build.
    assert not names & {
        "flet-web",
        "flet-desktop",
        "fastapi",
        "starlette",
        "uvicorn",
        "websockets",
        "packaging",
        "orjson",
        "httpx",
        "oauthlib",
        "pytest",
    }
    assert said == ["companion: orjson left out: no build for the browser; the store uses the json module instead"]


def test_a_distribution_gives_what_python_imports_and_reads() -> None:
    listed = metadata.files("segno") or []
    kept = {path.as_posix() for path in publish.browser_files(listed)}
    assert "segno/__init__.py" in kept and "segno-1.6.6.dist-info/METADATA" in kept
    assert not {
        path
        for path in kept
        if path.endswith((".pyc", ".pyi")) or "__pycache__" in path or path.startswith("..") or "/sboms/" in path
    }
    assert "segno-1.6.6.dist-info/RECORD" not in kept


def test_the_app_s_own_files_leave_out_the_web_door_s_page_and_this_builder() -> None:
    assert publish.app_file("store/store.py")
    assert publish.app_file("locale/fr/LC_MESSAGES/companion.mo")
    for left_out in (
        "assets/index.html",
        "assets/fonts/NotoColorEmoji.woff2",
        "publish/__init__.py",
        "publish/service-worker.js",
        "locale/fr/LC_MESSAGES/companion.po",
    ):
        assert not publish.app_file(left_out), left_out


def test_the_app_package_starts_the_browser_entry_and_keeps_compiled_wheels_on_disk() -> None:
    app = AppFiles(
        {publish.START_MODULE + ".py": publish.start_module(), "companion/browser.py": b"x = 1\n"},
        {"msgpack/_cmsgpack.cpython-314-wasm32-emscripten.so": b"\0asm"},
    )
    package = zipfile.ZipFile(io.BytesIO(publish.app_package(app)))
    assert set(package.namelist()) == {
        "companion_start.py",
        "companion.zip",
        "__pypackages__/msgpack/_cmsgpack.cpython-314-wasm32-emscripten.so",
    }
    assert package.getinfo("companion.zip").compress_type == zipfile.ZIP_STORED
    inner = zipfile.ZipFile(io.BytesIO(package.read("companion.zip")))
    assert inner.namelist() == ["companion/browser.py"]
    assert "from companion.browser import run" in package.read("companion_start.py").decode()


def test_the_start_module_names_the_flet_controls_the_app_uses_but_not_flet_s_connection() -> None:
    start = publish.start_module().decode()
    names = publish.flet_names()
    assert f"FLET_NAMES = {names!r}" in start
    assert {"Column", "Text", "FilledButton", "use_state", "component"} <= set(names)
    assert "run" not in names and "run_async" not in names
    assert names == tuple(sorted(set(names)))


# Python as the snapshot worker leaves it: prepare() with every name the build lists.
PREPARED = """
import sys
from companion import browser, publish
names = publish.flet_names()
browser.prepare(names)
import flet
print(sorted(name for name in ("msgpack", "js", "pyodide", "flet.messaging.pyodide_connection", "flet.app")
             if name in sys.modules))
print(sorted(name for name in names if name not in vars(flet)))
"""


def test_what_is_prepared_for_the_snapshot_loads_no_compiled_module_and_touches_no_javascript() -> None:
    # A compiled module (msgpack's, which Flet's connection loads) or a JavaScript object in
    # the snapshot would leave the restored Python broken: prepare() must reach neither, yet
    # leave every control the app names imported.
    done = subprocess.run([sys.executable, "-c", PREPARED], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.splitlines() == ["[]", "[]"], done.stdout + done.stderr


UNPACK_IN_NODE = """
const fs = require("fs"), vm = require("vm");
const context = { self: {}, console, TextDecoder, DataView, Uint8Array, Error };
vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8") + "\\nself.unpackStored = unpackStored;", context);
const written = {}, folders = [];
const FS = { mkdirTree: (path) => folders.push(path), writeFile: (path, data) => {
  written[path] = Buffer.from(data).toString("latin1"); } };
context.self.unpackStored(FS, new Uint8Array(fs.readFileSync(0)), "/home/pyodide");
console.log(JSON.stringify({ written, folders }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the worker's unpacking")
def test_the_worker_writes_the_app_package_s_members_as_they_are() -> None:
    app = AppFiles(
        {publish.START_MODULE + ".py": publish.start_module(), "companion/browser.py": b"x = 1\n"},
        {"msgpack/_cmsgpack.cpython-314-wasm32-emscripten.so": bytes(range(256))},
    )
    package = publish.app_package(app)
    worker = Path(publish.__file__).parent / publish.PYTHON_WORKER
    done = subprocess.run(
        [str(shutil.which("node")), "-e", UNPACK_IN_NODE, str(worker)],
        input=package,
        capture_output=True,
        check=True,
        timeout=60,
    )
    said = json.loads(done.stdout)
    expected = {
        f"/home/pyodide/{info.filename}": zipfile.ZipFile(io.BytesIO(package)).read(info).decode("latin1")
        for info in zipfile.ZipFile(io.BytesIO(package)).infolist()
    }
    assert said["written"] == expected
    assert "/home/pyodide/__pypackages__/msgpack" in said["folders"]


def test_the_same_files_make_the_same_package() -> None:
    def made() -> bytes:
        return publish.app_package(AppFiles({publish.START_MODULE + ".py": b"", "b.py": b"2", "a.py": b"1"}, {}))

    assert made() == made()


@pytest.mark.parametrize("problem", ["a file", "a folder of other things"])
def test_a_folder_that_is_not_a_build_is_never_replaced(
    tmp_path: Path, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "site"
    if problem == "a file":
        target.write_text("notes")
    else:
        target.mkdir()
        (target / "thesis.tex").write_text("years of work")
    assert cli.main(["publish", str(target)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("companion: ") and str(target) in err
    assert (target.read_text() if target.is_file() else (target / "thesis.tex").read_text()) in (
        "notes",
        "years of work",
    )


def test_a_new_empty_or_earlier_build_folder_may_be_published_to(tmp_path: Path) -> None:
    publish.check_target(tmp_path / "new")
    (tmp_path / "empty").mkdir()
    publish.check_target(tmp_path / "empty")
    (tmp_path / "earlier").mkdir()
    (tmp_path / "earlier" / publish.MARKER).write_text("{}")
    (tmp_path / "earlier" / "index.html").write_text("old")
    publish.check_target(tmp_path / "earlier")


def test_the_service_worker_template_has_its_build_slot() -> None:
    template = (Path(publish.__file__).parent / publish.SERVICE_WORKER).read_text(encoding="utf-8")
    assert template.count("/*BUILD*/{}") == 1

"""How the package is built, checked on its source: the rules core is pure, each layer imports
only those below it (so no cycles between them), no module of the app leans on one that leans
on it, and screens draw without writing anything."""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"

# Lowest first. A module may import its own group and the groups of lower layers only.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"companion.text"}),  # words: message ids, the screens' shared words, reading the reference, catalogues
    frozenset({"companion.rules"}),  # the games: pure functions
    frozenset({"companion.clock"}),  # the table clock: its marks read into a playing time
    frozenset({"companion.session", "companion.session_states"}),  # one game's log; the states it keeps
    frozenset({"companion.store"}),  # saved games
    frozenset({"companion.aftergame"}),  # after the game: archive, statistics, BG Stats
    frozenset({"companion.sync"}),  # your games on every device: a CouchDB database
    frozenset({"companion.app", "companion.browser", "companion.publish"}),  # screens and doors
    frozenset({"companion.cli", "companion.__main__", "companion"}),  # ways in; the package's own names
)
# Within the top layers, one way only: the doors build on the app, never the reverse.
ONE_WAY = {
    ("companion.browser", "companion.app"),
    ("companion.publish", "companion.app"),
    ("companion.__main__", "companion.cli"),
    ("companion.session", "companion.session_states"),
}
# Within a package, one way only too: statistics know nothing of the archive, and the
# words of the screens, the reference and the renderer build on the message ids.
INNER_ONE_WAY = {
    ("companion.aftergame.archive", "companion.aftergame.stats"),
    # the archive's rooms: what a game of it is, exports, backups, then import and restore
    ("companion.aftergame.archive_entries", "companion.aftergame.stats"),
    ("companion.aftergame.exports", "companion.aftergame.stats"),
    ("companion.aftergame.exports", "companion.aftergame.archive_entries"),
    ("companion.aftergame.backups", "companion.aftergame.archive_entries"),
    ("companion.aftergame.backups", "companion.aftergame.exports"),
    ("companion.aftergame.archive", "companion.aftergame.archive_entries"),
    ("companion.aftergame.archive", "companion.aftergame.exports"),
    ("companion.aftergame.archive", "companion.aftergame.backups"),
    # BG Stats' file leaves out what statistics leave out (copies, games not counted)
    ("companion.aftergame.bgstats", "companion.aftergame.archive"),
    ("companion.aftergame.bgstats", "companion.aftergame.stats"),
    ("companion.text.i18n", "companion.text.ui_text"),
    ("companion.text.i18n", "companion.text.messages"),
    ("companion.text.ui_text", "companion.text.messages"),
    ("companion.text.reference", "companion.text.messages"),
}
PURE_STDLIB = {
    "__future__",
    "collections",
    "dataclasses",
    "enum",
    "functools",
    "itertools",
    "math",
    "re",
    "typing",
    "unicodedata",
    "operator",
    "string",
    "abc",
    "copy",
    "types",
}
PURE_TEXT = {"companion.text.messages", "companion.text.reference"}  # what the rules take of the text layer
# What changes a game or the saved games: a screen leaves all of it to `view.act`.
WRITES = {
    "apply",
    "undo",
    "redo",
    "remember",
    "rename",
    "delete",
    "import_json",
    "write_backup",
    "save_export",
    "restore_backup",
    "write_session",
    "end_game",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield module_name(path), ast.parse(path.read_text(encoding="utf-8"))


def imported(tree: ast.Module) -> Iterator[str]:
    """Every module a file imports ("from companion.text import messages" is companion.text.messages)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            folder = PACKAGE.parent.joinpath(*node.module.split("."))
            for alias in node.names:
                is_module = folder.is_dir() and (
                    folder.joinpath(alias.name).with_suffix(".py").exists() or folder.joinpath(alias.name).is_dir()
                )
                yield f"{node.module}.{alias.name}" if is_module else node.module


def group(module: str) -> str:
    return ".".join(module.split(".")[:2])


def layer(module: str) -> int:
    found = [number for number, groups in enumerate(LAYERS) if group(module) in groups]
    assert found, f"{module} is in no layer: add its group to LAYERS"
    return found[0]


def is_name(group_: str) -> bool:
    """`from companion import RuleError` takes a name, not a module: the package's own layer."""
    return (PACKAGE / group_.removeprefix("companion.")).with_suffix(".py").exists() or (
        PACKAGE / group_.removeprefix("companion.")
    ).is_dir()


def test_each_layer_imports_only_its_own_and_those_below() -> None:
    wrong = []
    for name, tree in modules():
        for target in imported(tree):
            if not target.startswith("companion") or group(target) == group(name):
                continue
            if target.startswith("companion.") and not is_name(group(target)):
                target = "companion"
            if layer(target) > layer(name) or (
                layer(target) == layer(name) and (group(name), group(target)) not in ONE_WAY
            ):
                wrong.append(f"{name} imports {target}")
    assert wrong == []


@pytest.mark.parametrize("path", sorted((PACKAGE / "rules").glob("*.py")), ids=lambda path: path.name)
def test_the_rules_core_is_pure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    outside = [
        target
        for target in imported(tree)
        if target.split(".")[0] not in PURE_STDLIB and group(target) != "companion.rules" and target not in PURE_TEXT
    ]
    assert outside == []  # no Flet, no TinyDB, no files, no clock
    calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert not calls & {"open", "print", "input"}


def receiver(node: ast.expr) -> str:
    """`view.act.apply` -> "view.act"; `session.apply` -> "session"."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


@pytest.mark.parametrize("path", sorted((PACKAGE / "app" / "screens").glob("*.py")), ids=lambda path: path.name)
def test_a_screen_writes_nothing_itself(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    writes = [
        f"line {node.lineno}: {receiver(node.func.value)}.{node.func.attr}()"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in WRITES
        and receiver(node.func.value) not in {"view.act", "act", "view.act.after"}
    ]
    assert writes == []
    # What a screen takes from the saved games' side: their errors, to say them, and a game's line of the list.
    stores = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and group(node.module or "") in {"companion.store", "companion.aftergame.archive"}
        for alias in node.names
        if not alias.name.endswith("Error") and alias.name != "SessionSummary"
    ]
    assert stores == []


def saved_side(module: str, name: str) -> bool:
    """`from companion.store… import X` and the archive's names (`from companion.aftergame import archive`)."""
    return (
        group(module) == "companion.store"
        or module == "companion.aftergame.archive"
        or (module == "companion.aftergame" and name == "archive")
    )


def test_inside_a_package_modules_build_one_way() -> None:
    """Inside text/ and aftergame/, a module imports only those it builds on: no circle inside either."""
    wrong = []
    for name, tree in modules():
        for target in imported(tree):
            inside = group(name) in {"companion.text", "companion.aftergame"} and group(target) == group(name)
            if (
                inside
                and target != name
                and target.count(".") == 2
                and name.count(".") == 2
                and (name, target) not in INNER_ONE_WAY
            ):
                wrong.append(f"{name} imports {target}")
    assert wrong == []


# --- no circle inside the app ----------------------------------------------------------------

APP = "companion.app"


def app_edges(name: str, tree: ast.Module, is_package: bool = False) -> Iterator[tuple[str, int]]:
    """The modules of the app (its files) that `name` leans on, each with the line of the import.

    Every import statement counts, wherever it is: at the top, inside a function (deferred, it
    still runs: the knot is only hidden) and under TYPE_CHECKING (a type a module names is part
    of what it builds on: intents.py and after_intents.py were knotted only so). Relative
    imports are resolved. `from P import x` reads x off the package P, so it leans on P's
    `__init__` as well as on P.x; `import P.x` (or `from P.x import y`) runs P's `__init__`
    first, except from inside P, where P is already running."""
    here = name.split(".") if is_package else name.split(".")[:-1]  # the importer's package
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: each dot past the first is one package up
                base = ".".join([*here[: len(here) - node.level + 1], *filter(None, [node.module])])
            named = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for target in named:
            parts = target.split(".")
            runs = [".".join(parts[:end]) for end in range(1, len(parts))]  # the packages on its way
            for module in [target, *(package for package in runs if not f"{name}.".startswith(f"{package}."))]:
                if module != name and (module == APP or module.startswith(f"{APP}.")) and is_file(module):
                    yield module, node.lineno


def is_file(module: str) -> bool:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def circles(graph: dict[str, dict[str, int]]) -> list[str]:
    """Each circle a depth-first walk meets, as `a:line -> b:line -> a` (the line of each import)."""
    found: list[str] = []
    done: set[str] = set()
    path: list[str] = []

    def walk(module: str) -> None:
        path.append(module)
        for target in sorted(graph.get(module, {})):
            if target in path:
                loop = [*path[path.index(target) :], target]
                found.append(
                    " -> ".join(f"{one}:{graph[one][after]}" for one, after in itertools.pairwise(loop))
                    + f" -> {target}"
                )
            elif target not in done:
                walk(target)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        if module not in done:
            walk(module)
    return found


def app_graph() -> dict[str, dict[str, int]]:
    graph: dict[str, dict[str, int]] = {}
    for path in sorted((PACKAGE / "app").rglob("*.py")):
        name = module_name(path)
        edges = graph.setdefault(name, {})
        for target, line in app_edges(name, ast.parse(path.read_text(encoding="utf-8")), path.name == "__init__.py"):
            edges.setdefault(target, line)
    return graph


def test_the_import_graph_sees_deferred_relative_and_package_imports() -> None:
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from companion.app.view import View\n"
        "def later():\n    from . import widgets\n    from .registry import game_screen\n"
        "from companion.app.web.door import Door\n"
    )
    edges = dict(app_edges("companion.app.screens.home", ast.parse(source)))
    assert edges == {
        "companion.app.view": 3,
        "companion.app.screens": 5,
        "companion.app.screens.registry": 6,
        "companion.app.web": 7,
        "companion.app.web.door": 7,
    }
    # From inside its package, `from P.x import y` leans on P.x only: P is what imported it.
    inside = ast.parse("from companion.app.web.door import Door\n")
    assert dict(app_edges("companion.app.web.join", inside)) == {"companion.app.web.door": 1}
    assert "companion.app.shell" in app_graph()["companion.app.main"]


def test_no_circle_inside_the_app() -> None:
    """A module of the app never leans, even through others, on one that leans on it."""
    found = circles(app_graph())
    assert not found, "circles:\n" + "\n".join(found)


def test_flet_s_messaging_and_private_names_are_reached_through_one_module() -> None:
    """Flet's insides (its messaging, `_context_page`, the name-mangled send queue) are named in
    `app/flet_private.py` only, which checks the Flet they were read from (item: one door)."""
    private = re.compile(r"flet\.messaging|flet\.controls\.context|\b_context_page|_FletApp__")
    reaching = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.name != "flet_private.py" and private.search(path.read_text(encoding="utf-8"))
    ]
    assert reaching == []

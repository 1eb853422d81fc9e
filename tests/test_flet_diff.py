"""The quicker walks of Flet's diff (companion/app/flet_diff.py) do what Flet's own do.

The same trees are diffed twice, once with Flet 1.0.5's methods and once with the
replacements: the patch, the controls added and removed, and what each object of the
new tree holds afterwards (its parent, frozen and initialised marks, change tracking)
must be the same.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import flet as ft
import pytest
from flet.controls import object_patch
from flet.controls.base_control import BaseControl

from companion.app import flet_diff


def cards(keys: range, words: str) -> ft.Control:
    """Controls as Home and the game screens draw them: tiles, text styles, buttons, borders, lists."""
    return ft.Column(
        [
            ft.ListTile(
                title=ft.Text(f"{words} {key}", weight=ft.FontWeight.BOLD, size=17),
                subtitle=ft.Column(
                    [ft.Text("status", key=f"status-{key}"), ft.Text("when", size=12, style=ft.TextStyle(italic=True))],
                    spacing=2,
                    tight=True,
                ),
                trailing=ft.TextButton(
                    content=ft.Text("Delete", semantics_label=f"Delete {key}"),
                    icon=ft.Icons.DELETE_OUTLINE,
                    key=f"delete-{key}",
                    style=ft.ButtonStyle(
                        color=ft.Colors.OUTLINE, side={ft.ControlState.DEFAULT: ft.BorderSide(1, ft.Colors.OUTLINE)}
                    ),
                    on_click=lambda _: None,
                ),
                shape=ft.RoundedRectangleBorder(radius=10, side=ft.BorderSide(1, ft.Colors.OUTLINE)),
                content_padding=ft.Padding.only(left=10, right=4),
                key=f"session-{key}",
                on_click=lambda _: None,
            )
            for key in keys
        ]
        + [
            ft.Container(
                ft.Row([ft.IconButton(ft.Icons.UNDO, tooltip="Undo"), ft.Text(words, data={"a": [1, "b"]})]),
                border=ft.Border.all(2, ft.Colors.PRIMARY),
                padding=10,
                bgcolor="#ffeeee",
                key="bar",
            ),
            ft.Dropdown(options=[ft.DropdownOption(key=str(key), text=f"{key}") for key in keys], value=str(keys[0])),
        ],
        key="root",
    )


def objects(value: Any) -> Iterator[Any]:
    """Every dataclass object in a tree, in the order of their fields."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        for field in dataclasses.fields(value):
            yield from objects(getattr(value, field.name))
    elif isinstance(value, dict):
        for item in value.values():
            yield from objects(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from objects(item)


def diffed(walks: dict[str, Callable[..., Any]], steps: list[Callable[[], ft.Control]]) -> list[Any]:
    """Diff each tree against the one before it with these walks: what Flet made of each step."""
    saved = {name: object_patch.DiffBuilder.__dict__[name] for name in walks}
    for name, walk in walks.items():
        setattr(object_patch.DiffBuilder, name, walk)
    try:
        seen: list[Any] = []
        before: Any = None
        for step in steps:
            after = step()
            patch, added, removed = object_patch.ObjectPatch.from_diff(before, after, BaseControl)
            everything = list(objects(after))
            place = {id(item): number for number, item in enumerate(everything)}

            def named(item: Any, place: dict[int, int] = place) -> Any:
                return (type(item).__name__, place.get(id(item)), getattr(item, "key", None))

            def plain(value: Any, named: Callable[[Any], Any] = named) -> Any:
                if isinstance(value, BaseControl):
                    return named(value)
                if isinstance(value, list):
                    return [plain(item) for item in value]
                if isinstance(value, dict):
                    return {key: plain(item) for key, item in value.items()}
                return value

            seen.append([plain(op) for op in patch.patch])
            seen.append([named(item) for item in added])
            seen.append(sorted(str(named(item)[::2]) for item in removed))
            for item in everything:
                parent = getattr(item, "_parent", None)
                seen.append(
                    (
                        named(item),
                        None if parent is None else named(parent()),
                        getattr(item, "_frozen", None),
                        getattr(item, "_initialized", None),
                        hasattr(item, "__changes"),
                        dict(getattr(item, "_dirty", None) or {}),
                        type(item).__setattr__ is object_patch._control_setattr,
                    )
                )
            before = after
        return seen
    finally:
        for name, own in saved.items():
            setattr(object_patch.DiffBuilder, name, own)


def flets_own() -> dict[str, Callable[..., Any]]:
    return {name: flet_diff.FLETS_OWN.get(name, object_patch.DiffBuilder.__dict__[name]) for name in flet_diff.WALKS}


@pytest.mark.parametrize(
    "steps",
    [
        [lambda: cards(range(3), "a")],  # a first screen: everything added
        [lambda: cards(range(3), "a"), lambda: cards(range(2, 7), "b")],  # a search: cards removed and added
        [
            lambda: cards(range(5), "a"),
            lambda: cards(range(5), "a"),
            lambda: cards(range(1), "c"),
        ],  # nothing, then most
    ],
)
def test_the_quicker_walks_diff_as_flets_own(steps: list[Callable[[], ft.Control]]) -> None:
    assert flet_diff.install()
    assert diffed(flets_own(), steps) == diffed(flet_diff.WALKS, steps)


def test_another_flet_keeps_its_own_walks(monkeypatch: pytest.MonkeyPatch) -> None:
    import flet.version

    for name, own in flets_own().items():
        monkeypatch.setattr(object_patch.DiffBuilder, name, own)
    monkeypatch.setattr(flet.version, "flet_version", "1.1.0")
    assert not flet_diff.install()
    assert all(object_patch.DiffBuilder.__dict__[name] is own for name, own in flets_own().items())

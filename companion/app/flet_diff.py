"""Flet 1.0.5's diff walks every field of every control it adds or removes: the same walk, quicker.

When a tap adds controls (a search keystroke puts up to 20 game cards on Home, a sheet
opens) or removes them, Flet's `DiffBuilder` walks each new control's fields to give it its
parent and set up its change tracking (`_configure_dataclass`), and each removed one's to
find the controls inside it (`_removed_controls`). Both look up the class's fields anew for
every object and start a generator for every field's value, though most are None or a
plain value with nothing inside. At 10,000 games that was a third of a keystroke's CPU time
(in-process, 22 against 15 ms at best).

`install()` replaces the two methods with the same walk that names each class's fields once
and steps over plain values. What it yields, in what order, and what it sets on each object
are Flet's own (its debug log line aside); tests/test_flet_diff.py checks that against the
originals. Only for the Flet it was written from: another version keeps its own code.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from companion.app import flet_private
from companion.app.flet_private import object_patch

FOR_FLET = flet_private.FOR_FLET
_PLAIN = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {}
_is_dataclass: Callable[[Any], bool] = dataclasses.is_dataclass  # plain bool: `item` stays Any


def walked_fields(cls: type) -> tuple[str, ...]:
    """The names of the fields Flet walks (those not marked `skip`), looked up once per class."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(
            field.name for field in dataclasses.fields(cls) if not field.metadata.get("skip", False)
        )
    return names


def configure_dataclass(
    builder: Any, item: Any, parent: Any, frozen: bool, configure_setattr_only: bool = False
) -> Iterator[Any]:
    """`DiffBuilder._configure_dataclass` of Flet 1.0.5, step for step (see the module's docstring)."""
    if _is_dataclass(item):
        if parent is None:
            parent_ref = getattr(item, "_parent", None)
            parent = parent_ref() if parent_ref else None
        if parent:
            if parent is item:
                raise object_patch.ObjectPatchException(f"Parent is the same as item: {item}")
            item._parent = weakref.ref(parent)
        if hasattr(item, "_frozen"):
            frozen = item._frozen
        elif frozen:
            item._frozen = frozen
        item_cls = item.__class__
        if getattr(item_cls, "__flet_control_cls__", None) is None:
            item_cls.__flet_control_cls__ = builder.control_cls
        control = bool(builder.control_cls) and isinstance(item, builder.control_cls)
        if control:
            if not configure_setattr_only:
                item.build()
                item._before_update_safe()
                object.__setattr__(item, "_initialized", True)
            yield item
        if not configure_setattr_only:
            child_parent = item if control else parent
            for name in walked_fields(item_cls):
                value = getattr(item, name)
                if value.__class__ not in _PLAIN:  # a plain value holds no control: Flet's walk ends there
                    yield from configure_dataclass(builder, value, child_parent, frozen)
        if not frozen:
            dirty = getattr(item, "_dirty", None)
            if dirty is not None:
                dirty.clear()
            else:
                if item_cls.__setattr__ is not object_patch._control_setattr:
                    item_cls.__setattr__ = object_patch._control_setattr
                object.__setattr__(item, "__changes", {})
    elif isinstance(item, dict):
        for value in item.values():
            yield from configure_dataclass(builder, value, parent, frozen)
    elif isinstance(item, list):
        for value in item:
            yield from configure_dataclass(builder, value, parent, frozen)


def removed_controls(builder: Any, item: Any, recurse: bool) -> Iterator[Any]:
    """`DiffBuilder._removed_controls` of Flet 1.0.5, step for step (see the module's docstring)."""
    if builder.control_cls and isinstance(item, builder.control_cls):
        if hasattr(item, "__prev_lists"):
            for kind in ("__prev_lists", "__prev_dicts", "__prev_classes"):
                for value in getattr(item, kind, {}).values():
                    yield from removed_controls(builder, value, recurse)
        elif recurse:
            for name in walked_fields(item.__class__):
                value = getattr(item, name)
                if value.__class__ not in _PLAIN:
                    yield from removed_controls(builder, value, recurse)
        yield item
    elif isinstance(item, dict):
        for value in item.values():
            yield from removed_controls(builder, value, recurse)
    elif isinstance(item, list):
        for value in item:
            yield from removed_controls(builder, value, recurse)


WALKS = {"_configure_dataclass": configure_dataclass, "_removed_controls": removed_controls}
FLETS_OWN: dict[str, Any] = {}  # Flet's methods that `install` replaced (tests compare them)


def install() -> bool:
    """Put the quicker walks in Flet's `DiffBuilder` (once); False, changing nothing, on another Flet."""
    if not flet_private.same_flet():
        return False
    for name, walk in WALKS.items():
        own = object_patch.DiffBuilder.__dict__[name]
        if own is not walk:
            FLETS_OWN[name] = own
            setattr(object_patch.DiffBuilder, name, walk)
    return True

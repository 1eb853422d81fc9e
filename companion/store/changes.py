"""What changed between two versions of a TinyDB file's data, as the records that say it.

`JournalStorage` (storage.py) turns every write TinyDB makes into records appended to the
file (see file_format.py for their bytes): for each document, the fields `set` and the lists
`splice`d (their first items kept, the others added), or the whole document `put` or
`drop`ped. `changes` finds them by comparing the data written with the data the file holds.

It compares cheaply what the store writes: the values a write leaves alone are the very
objects the file's data holds (`is`), and a list that grew keeps the same first items (a
game's events), so finding what it kept is one comparison of those items, which Python
makes by identity first. A list that was not kept as it was is compared item by item from
its start (rare: a game that undid changes and then recorded a new one).

What counts as unchanged is what Python's `==` says of values inside a list or a document
(`1 == 1.0 == True`); at a document's top level a value must also keep its type. Values
are compared, never copied: documents lent to TinyDB are copied when looked at (`Lent`), so
a change made in place is never one the storage cannot see.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from companion.store.file_format import META, Data

_MUTABLE = (list, dict)


class Lent(dict[str, Any]):
    """A document lent to TinyDB by a read: the same values, but a list or a dict in it is
    copied (deeply) the first time it is looked at, so that changing it in place changes
    this document only, never the data the storage compares the next write with.

    Values set in it (TinyDB's `update` sets them without looking) cost no copy."""

    __slots__ = ("_owned",)

    def __init__(self, document: dict[str, Any]) -> None:
        super().__init__(dict.items(document))  # its values as they are (a Lent's too): never a copy
        self._owned: set[str] = set()

    def _own(self, key: str) -> Any:
        value = dict.__getitem__(self, key)
        if key not in self._owned:
            self._owned.add(key)
            if isinstance(value, _MUTABLE):
                value = copy.deepcopy(value)
                dict.__setitem__(self, key, value)
        return value

    def __getitem__(self, key: str) -> Any:
        return self._own(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self._own(key) if key in self else default

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self._own(key)

    def pop(self, key: str, *default: Any) -> Any:
        if key in self:
            value = self._own(key)
            dict.__delitem__(self, key)
            return value
        return dict.pop(self, key, *default)

    def __iter__(self) -> Iterator[str]:
        # Overridden, so that dict(), {**lent} and TinyDB's Document copy through __getitem__.
        return iter(list(dict.keys(self)))

    def values(self) -> Any:
        return [self._own(key) for key in list(dict.keys(self))]

    def items(self) -> Any:
        return [(key, self._own(key)) for key in list(dict.keys(self))]

    def copy(self) -> dict[str, Any]:
        return dict(self.items())

    def __or__(self, other: Any) -> Any:
        return {**self.copy(), **other}


def plain(data: Data) -> Data:
    """The data TinyDB gave back, its documents plain dicts again (their values as they are)."""
    return {
        name: {doc_id: dict(dict.items(doc)) if type(doc) is Lent else doc for doc_id, doc in table.items()}
        for name, table in data.items()
    }


def lent(data: Data) -> Data:
    """The data as a read hands it to TinyDB: new tables of `Lent` documents (TinyDB changes both in place)."""
    return {name: {doc_id: Lent(doc) for doc_id, doc in table.items()} for name, table in data.items()}


def changes(before: Data, after: Data, *, puts: bool) -> list[dict[str, Any]] | None:
    """The records that bring `before` to `after` ([] when nothing changed), or None when only
    a whole write can say it: a table added or removed, `_meta` changed, or a document added,
    removed or losing a field where the file's format has no `put` and `drop` (`puts`)."""
    if before.keys() != after.keys():
        return None
    records: list[dict[str, Any]] = []
    for table, docs in after.items():
        old_docs = before[table]
        if docs is old_docs:
            continue
        if table == META:
            if docs != old_docs:
                return None
            continue
        for doc_id in old_docs.keys() - docs.keys():
            if not puts:
                return None
            records.append({"table": table, "doc": doc_id, "drop": True})
        for doc_id, doc in docs.items():
            old = old_docs.get(doc_id)
            if doc is old:
                continue
            change = None if old is None else document_change(old, doc)
            if change is None:
                if not puts:
                    return None
                records.append({"table": table, "doc": doc_id, "put": dict(doc)})
            elif change:
                records.append({"table": table, "doc": doc_id, **change})
    return records


def document_change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """`{"set": ..., "splice": ...}` bringing one document from `before` to `after` ({} when equal),
    or None when a field was removed (only a whole `put` says that)."""
    if before.keys() - after.keys():
        return None
    fields: dict[str, Any] = {}
    spliced: dict[str, list[Any]] = {}
    for key in after:
        value = dict.__getitem__(after, key)  # never a copy: a `Lent` document's own values
        if key not in before:
            fields[key] = value
            continue
        old = before[key]
        if value is old:
            continue
        if type(value) is list and type(old) is list:
            keep = kept(old, value)
            if keep == len(old) == len(value):
                continue
            if keep:
                spliced[key] = [keep, value[keep:]]
                continue
        if type(value) is not type(old) or value != old:
            fields[key] = value
    change: dict[str, Any] = {}
    if fields:
        change["set"] = fields
    if spliced:
        change["splice"] = spliced
    return change


def kept(before: list[Any], after: list[Any]) -> int:
    """How many first items `after` keeps of `before` (equal items, found by identity first)."""
    shared = min(len(before), len(after))
    if not shared:
        return 0
    if after[shared - 1] is not before[shared - 1]:
        low, high = 0, shared - 1  # the longest run of the very same items, if the lists share one
        while low < high:
            middle = (low + high + 1) // 2
            if after[middle - 1] is before[middle - 1]:
                low = middle
            else:
                high = middle - 1
        shared = low
    if shared and _same_start(before, after, shared):
        return shared
    for position, (old, new) in enumerate(zip(before, after, strict=False)):
        if old is not new and (type(old) is not type(new) or old != new):
            return position
    return min(len(before), len(after))


def _same_start(before: list[Any], after: list[Any], count: int) -> bool:
    """Whether the first `count` items are equal, comparing whole lists where one is that long (no copy)."""
    if count == len(before):
        return before == (after if count == len(after) else after[:count])
    if count == len(after):
        return after == before[:count]
    return before[:count] == after[:count]

"""What tests ask of a store beyond what the app asks: built on the store's own API."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from companion.session import Session
from companion.store import SessionList, Store


def put(
    store: Store,
    session: Session,
    *,
    session_id: str | None = None,
    created: float,
    title: str = "",
    updated: float | None = None,
) -> str:
    """Save one whole session played elsewhere, as an import does (`Store.put_many`), and return its id."""
    return store.put_many([(session, session_id, created, title, updated)])[0]


def verify(store: Store) -> SessionList:
    """Parse every session file, set damaged ones aside, fix the index; then the list."""
    return store._verify()


def copy_as_killed(directory: Path, copy: Path) -> None:
    """Copy a data folder as a process killed at this instant leaves it on disk.

    The app keeps writing meanwhile (the day's backup runs in a thread of its own): a file
    listed but gone before it is copied, such as a temporary file renamed into place, is
    left out, as a kill just before it was made would leave it."""

    def copy_if_there(source: str, target: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            shutil.copy2(source, target)

    shutil.copytree(directory, copy, copy_function=copy_if_there)

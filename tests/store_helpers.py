"""What tests ask of a store beyond what the app asks: built on the store's own API."""

from __future__ import annotations

from companion.session import Session
from companion.store import SessionList, Store


def put(store: Store, session: Session, *, session_id: str | None = None, created: float, title: str = "",
        updated: float | None = None) -> str:
    """Save one whole session played elsewhere, as an import does (`Store.put_many`), and return its id."""
    return store.put_many([(session, session_id, created, title, updated)])[0]


def verify(store: Store) -> SessionList:
    """Parse every session file, set damaged ones aside, fix the index; then the list."""
    return store._verify()

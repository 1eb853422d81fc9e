"""Saved sessions: one TinyDB file per session, each change appended durably, rewritten atomically now and then."""

from companion.store.errors import (
    NewerFormat,
    SessionBusy,
    SessionClosed,
    SessionDamaged,
    SessionInUse,
    SessionNotFound,
    StoreError,
)
from companion.store.paths import data_option, default_data_dir
from companion.store.storage import AtomicJSONStorage, MemoryStorage
from companion.store.store import QuarantineNote, SessionList, SessionSummary, Store

__all__ = [
    "AtomicJSONStorage",
    "MemoryStorage",
    "NewerFormat",
    "QuarantineNote",
    "SessionBusy",
    "SessionClosed",
    "SessionDamaged",
    "SessionInUse",
    "SessionList",
    "SessionNotFound",
    "SessionSummary",
    "Store",
    "StoreError",
    "data_option",
    "default_data_dir",
]

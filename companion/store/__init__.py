"""Saved sessions: one TinyDB file per session, each change appended durably, rewritten atomically now and then.

Any file the store saves opens with TinyDB and `JournalStorage`
(`TinyDB(path, storage=companion.store.JournalStorage)`); once compacted, with plain TinyDB.
"""

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
from companion.store.storage import JournalStorage
from companion.store.store import QuarantineNote, SessionList, SessionSummary, Store

__all__ = [
    "JournalStorage",
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

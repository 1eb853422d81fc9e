"""Saved sessions: one TinyDB file per session, each change appended durably, rewritten atomically now and then.

Any file the store saves opens with TinyDB and `JournalStorage`
(`TinyDB(path, storage=companion.store.JournalStorage)`); once compacted, with plain TinyDB::

    from tinydb import TinyDB
    from companion.store import JournalStorage
    TinyDB("data/sessions/<id>.json", storage=JournalStorage).table("session").get(doc_id=1)
    TinyDB("data/sessions/<id>.json", access_mode="r").table("session").get(doc_id=1)  # compacted

TinyDB for real: every file the app saves (a game, the index) is written through TinyDB's
table API; `JournalStorage` (`storage.py`) turns each write into an appended, checksummed
record of what changed (`changes.py`: one write, one fsync), and a file holding records is
rewritten whole and atomically once its game pauses (`compactor.py`, in the background) or
after `COMPACT_EVERY` records. Rooms of one subject sit behind a thin `Store` (`store.py`,
whose docstring lists them and the data folder's layout); the index takes put/drop records
too, so saving, renaming or deleting one game at 10,000 never rewrites the rest.

Each index entry keeps the size and CRC-32 of the file it was worked out from, so a data
folder copied without its file times (`cp -r`) lists at once, with the times its entries
hold, no game read again; and the game's length and the time of its last change, so a file
found holding less (cut where a change begins) is told as a loss. Each entry also carries
its own checksum: an entry a flipped bit changed (a finished game listed as in progress, a
player "Anl") is rebuilt from its game's file, so Home lists it right
(tests/test_index_damage.py; every bit of an index: tests/bench/index_flips.py). A file lock
keeps two app instances from overwriting each other; every disk fault is one sentence, a
change the disk refuses changes nothing, and one it has made visible stays. `ui-state.json`
(where the app was: the open game, sheet and its inputs) is never trusted and never fatal.
The day's backup is streamed game by game from the files (no replay), off the page's thread.

What is there only for large archives was measured with and without at 1,000 and 10,000
games and kept where it pays, each in a module naming its figure: the index scanner
(`index_file.py`), the list's shared texts (`shared.py`) and glibc's `mallopt`
(`app/big_blocks.py`); pausing the garbage collector bought nothing and is gone.
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

"""Saved sessions: one TinyDB file per session, each change appended durably, rewritten atomically now and then.

Any file the store saves opens with TinyDB and `JournalStorage`
(`TinyDB(path, storage=companion.store.JournalStorage)`); once compacted, with plain TinyDB::

    from tinydb import TinyDB
    from companion.store import JournalStorage
    TinyDB("data/sessions/<id>.json", storage=JournalStorage).table("session").get(doc_id=1)
    TinyDB("data/sessions/<id>.json", access_mode="r").table("session").get(doc_id=1)  # compacted
    TinyDB("data/index.json", storage=JournalStorage).table("sessions").all()  # every game listed

TinyDB for real: every change of a game and of the index is written through TinyDB's table
API; `JournalStorage` (`storage.py`) turns each write into an appended, checksummed
record of what changed (`changes.py`: one write, one fsync), and a file is rewritten whole
and atomically by the write after `COMPACT_EVERY` records. Rooms of one subject sit behind a thin `Store` (`store.py`;
the rooms and the data folder's layout are below); the index takes put/drop records
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
(`index_file.py`) and the list's shared texts (`shared.py`); glibc's `mallopt` and
pausing the garbage collector bought nothing that moved a goal and are gone
(tests/bench/README.md).

The data folder, the rooms, costs, damage and faults
----------------------------------------------------

Every session in TinyDB, one small file each, written through on every tap.

Layout of a data folder::

    index.json              TinyDB: table "sessions", one document per session, under the number
                            its id stands for (`index_file.doc_key`, so TinyDB lists them): id,
                            game, players, created, updated, title, is_over, winners, status,
                            and once finished its result (scores, ranks, length; see results.py),
                            then one appended record per entry added, replaced or removed
    sessions/<id>.json      TinyDB: table "session", document "1": the whole session
                            (format, game, players, options, events incl. redo tail,
                            cursor, created, title), then one appended record per change
                            since the file was last written whole
    pending/<id>            empty marker: the index may lag behind this session file
    quarantine/<name>       a damaged file, moved aside, and <name>.why.json saying why; or
                            <id>.json.<digest>: a session file as it was when it opened with a
                            loss (a record damaged or cut short), copied before any rewrite; or
                            <side>.<digest>: a side file as it was when it read damaged
    players.json, counted.json, copies.json
                            the table's choices beside the games (companion/aftergame): TinyDB,
                            the map as document 1, its count and checksum in `_meta` (side_file.py)
    titles.json             when each game's title was last changed (`TITLES`, written by `rename`)
    locks/<id>.lock         OS lock held while a session is open for writing
    locks/index.lock        OS lock held while the index is edited
    locks/put.lock          OS lock held while sessions played elsewhere are written (`put_many`)
    ui-state.json           the app's note of where it was (companion/app/ui_state.py)
    sync.json, sync-secret.json, sync-state.json
                            where and how this device syncs (companion/sync)
    exports/, backups/      archives to carry elsewhere: plain JSON (companion/aftergame)

Every file but the archives and the empty markers is a TinyDB file: a `_meta` table
`{"1": {"format": n, "kind": ...}}` (a session file's and a side file's also hold a
checksum), then tables of documents with numbers for ids; a note, ui-state.json and sync's
files hold one document (`file_format.single`). Each opens with TinyDB and `JournalStorage`
(storage.py), whose `.all()` lists every table, and once compacted with plain TinyDB
(tests/test_store_tinydb.py opens every file of a used data folder so). Earlier versions'
side files, notes, ui-state.json and sync's files (one JSON object) read as they did and
are written in this shape with their next change. The rooms:

    store.py        this facade: the public API, one lock, the rooms wired together
    journal.py      the sessions open for play: each change written before it is made
    index.py        the list of games: index.json as summaries, edited by records
    repair.py       reading session files that may be damaged; the index brought in line
    quarantine.py   damaged files set aside, with notes
    side_file.py    the side files: checked, a damaged one kept aside and told
    storage.py      the TinyDB storage: a write becomes a record of what changed (changes.py)
    index_storage.py  the index's storage (entries never parsed but where a record touches them)
    file_format.py  the bytes of a file; folders.py the disk (and memory) and its locks
    listing.py      summaries; index_file.py the index read one entry at a time;
    session_file.py what a session file must hold

Cost: recording an event appends one record to that session's file (one write, one
fdatasync); the first change after the file is read rewrites it whole (atomic + fsync), and
so does the change after `storage.COMPACT_EVERY` records (128: about 10 ms at 10,000 events,
one tap in 128). The index changes when a session is created, finishes (or stops being finished
through undo, or its winners change), is closed after changes (its status line), renamed
or deleted: one appended record each, whatever the archive's size; a store holds it as
compact summaries, never as the parsed file. `listing()` answers from those summaries and
the sessions open here (no file looked at but the index's), which is what the home screen
asks on every tap. `sessions()` also takes each session's "updated" time from its file's
mtime (one stat each), so start-up never parses every session. Files without an index
entry (a crash between the session file and the index entry of `new`, or an index rebuilt
after damage), sessions with a `pending` marker (a crash between a session write and its
index update) and entries whose status line is older than their file (the app stopped
with the game open) are parsed and reconciled when found (repair.py). Entries saved by an
earlier version have no status line: the first `peek` works it out and the next change of
the index keeps it; finished ones have no result: the first `finished()` works them out
and keeps them.

Damage: a session file whose end cannot be read (a record damaged, or cut short by a power
cut) or whose document fails its checksum opens with what can be read; the file as it was
is copied to quarantine/ first and `SessionList.losses` says which game lost what. A damaged
side file (`side_files`, side_file.py) reads what it can, is copied there too, and
`SessionList.side_losses` says what it lost.

Faults: every OSError ends as a `StoreError` whose sentence says what the disk refused
(`check_usable()` tries the folder once, at start). A change the disk refuses changes
nothing (an appended record that could not be flushed is cut off again); a change the
disk has made visible (the rename of its file) stands whatever fails after it (the
folder's fsync, the index: its pending marker lets the next listing repair it), so the
app never says "not saved" of something that is.
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

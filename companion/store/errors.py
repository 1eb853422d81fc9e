"""What can go wrong with saved games, as sentences a player understands.

Like `RuleError`, every `StoreError` carries a `Message` (id + parameters) so the text can
be translated; `str(error)` is the English sentence.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from typing import Any

from companion.text.messages import Message, register


class StoreError(Exception):
    """A saved game cannot be opened or changed; `str()` is a sentence for the player."""

    def __init__(self, message_id: str, **params: Any) -> None:
        self.message = Message(message_id, params)
        super().__init__(str(self.message))


class SessionBusy(StoreError):
    """The session is open for writing in another window or process."""


class SessionNotFound(StoreError):
    """No saved session has this id."""


class SessionDamaged(StoreError):
    """The saved file was damaged; it has been moved to the quarantine folder."""


class NewerFormat(StoreError):
    """The file was saved by a newer version of Companion; it is left untouched."""


class SessionClosed(StoreError):
    """The session was closed (or deleted) in the store; it no longer records anything."""


class SessionInUse(SessionBusy):
    """The session cannot be deleted: a screen of this app or another process has it open."""


def os_reason(error: OSError, root: str | os.PathLike[str] | None = None) -> str:
    """What went wrong with the disk, in words (never an errno); names the file relative to `root`."""
    where = _where(error, root)
    code = error.errno
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return "the disk is full"
    if code == errno.EROFS:
        return "the disk is read-only"
    if code in (errno.EACCES, errno.EPERM):
        return f"Companion is not allowed to use {where}"
    if code == errno.ENOTDIR:
        # The path named is the one asked for; what is a file is one of the folders above it.
        return f"{_where(error, root, _file_above(error.filename))} is a file, not a folder"
    if code == errno.EEXIST:
        return f"{where} is a file, not a folder"
    if code == errno.EISDIR:
        return f"{where} is a folder, not a file"
    if code == errno.ELOOP:
        return f"{where} is a symbolic link, which Companion does not follow"
    if code == errno.ENOENT:
        return f"{where} has disappeared"
    if code == errno.ENAMETOOLONG:
        return "the path of the data folder is too long"
    if code == errno.EIO:
        return "the disk reported an error"
    if code == errno.EINVAL and error.filename:
        return f"{where} is not an ordinary file"
    return (error.strerror or type(error).__name__).rstrip(".").lower()


UNWRITABLE = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})


def unwritable_folder(error: StoreError, directory: str | os.PathLike[str] | None) -> StoreError:
    """`error`, or the data folder's own sentence when the disk refused because the folder
    cannot be written at all (read-only, not ours): that is where to act, not on a game."""
    cause = error.__cause__
    if directory is None or not isinstance(cause, OSError) or cause.errno not in UNWRITABLE:
        return error
    unwritable = StoreError("store.folder_unwritable", path=str(directory), reason=os_reason(cause, directory))
    unwritable.__cause__ = cause
    return unwritable


class Speaking:
    """`with speaking("store.not_saved"):` turns an OSError into that StoreError, saying in words
    what the disk refused (files named relative to the data folder)."""

    def __init__(self, root: str | os.PathLike[str] | None) -> None:
        self.root = root

    @contextlib.contextmanager
    def __call__(self, message_id: str) -> Iterator[None]:
        try:
            yield
        except OSError as error:
            raise StoreError(message_id, reason=os_reason(error, self.root)) from error


def _file_above(filename: Any) -> Any:
    """The nearest of `filename` and its folders that exists and is not a folder, if any."""
    if not isinstance(filename, str) or not filename:
        return filename
    path = filename
    while True:
        if os.path.lexists(path) and not os.path.isdir(path):
            return path
        parent = os.path.dirname(path)
        if not parent or parent == path:
            return filename
        path = parent


def _where(error: OSError, root: str | os.PathLike[str] | None, filename: Any = None) -> str:
    filename = error.filename if filename is None else filename
    if not isinstance(filename, str) or not filename:
        return "the data folder"
    if root is not None:
        try:
            relative = os.path.relpath(filename, root)
        except ValueError:  # another drive on Windows
            relative = filename
        if relative == ".":
            return "the data folder"
        if not relative.startswith(".."):
            return f"'{relative.replace(os.sep, '/')}'"
    return f"'{filename}'"


class DamagedFile(ValueError):
    """Raised by the storages: the bytes on disk are not a readable Companion file."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class NewerFile(Exception):
    """Raised by the storages: the file declares a format newer than this version knows."""

    def __init__(self, found: Any, known: int, *, game: str | None = None) -> None:
        self.found = found
        self.known = known
        self.game = game  # set when the format is known but the game is not (a newer version's game)
        super().__init__(f"game {game!r} is unknown" if game is not None else f"format {found} is newer than {known}")


register(
    "en",
    {
        "store.busy": "This game is open in another window. Close it there first.",
        "store.not_found": "There is no saved game with the id '{id}'.",
        "store.damaged": "A saved game could not be read and was set aside in the quarantine folder: {reason}.",
        "store.newer": "The saved game '{id}' was saved by a newer version of Companion (format {found}); "
        "update the app to open it.",
        "store.index_newer": "This data folder was saved by a newer version of Companion (format {found}); "
        "update the app to use it.",
        "store.closed": "This game was closed; open it again to keep recording.",
        "store.deleted": "This game was deleted.",
        "store.unknown_game": "The saved game '{id}' is of a game this version does not know ('{game}'); "
        "update the app to open it.",
        "store.bad_title": "A title must be text of at most {high} characters.",
        "store.title_broken": "A title cannot hold a broken character (half of a pair); type it again.",
        "store.locked": "The list of saved games is being updated by another window; try again.",
        "store.unusable": "The data folder {path} cannot be used: {reason}.",
        "store.unreadable": "The saved games could not be read: {reason}.",
        "store.not_kept_aside": "This game's file is damaged and could not be copied aside before it is "
        "changed, so it is not opened: {reason}.",
        "store.cannot_lock": "This game cannot be opened for changes: {reason}.",
        "store.folder_unwritable": "No new game can be saved: the data folder {path} cannot be written "
        "({reason}). Make it writable, or start Companion with another data folder.",
        "store.not_saved": "Not saved, so not recorded: {reason}.",
        "store.not_created": "The new game could not be saved: {reason}.",
        "store.not_put": "The games could not be saved: {reason}.",
        "store.not_renamed": "The title could not be saved: {reason}.",
        "store.not_deleted": "The game could not be deleted: {reason}.",
        "store.in_use": "This game is open on another screen; close it there before deleting it.",
    },
)

"""What can go wrong with saved games, as sentences a player understands.

Like `RuleError`, every `StoreError` carries a `Message` (id + parameters) so the text can
be translated; `str(error)` is the English sentence.
"""

from __future__ import annotations

from typing import Any

from companion.messages import Message, register


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


class DamagedFile(ValueError):
    """Raised by the storages: the bytes on disk are not a readable Companion file."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class NewerFile(Exception):
    """Raised by the storages: the file declares a format newer than this version knows."""

    def __init__(self, found: Any, known: int) -> None:
        self.found = found
        self.known = known
        super().__init__(f"format {found} is newer than {known}")


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
        "store.bad_title": "A title must be text of at most {high} characters.",
        "store.locked": "The list of saved games is being updated by another window; try again.",
    },
)

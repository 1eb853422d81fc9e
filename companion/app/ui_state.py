"""Where the app was and the table's small habits: `ui-state.json` in the data folder.

    {"open_session": id | null, "panel": name | null, "draft": {...}, "habits": {name: int},
     "screen": {"name": "detail" | "stats" | "home", ...its place: the game shown, the filters}}

`screen` (added later; a file without it reads as before) is where the app was when no
game was open for play; a panel and its draft are kept with an open game or such a screen.

Losing this file costs only landing on the home screen with empty sheets, so it is never
trusted and never fatal: a read that fails or finds anything but a small JSON object of
the expected shapes gives the defaults, and a write that fails is dropped (the next one
rewrites the whole file, damaged or not).
"""

from __future__ import annotations

import json
from typing import Any

from companion.store.file_format import single_bytes, single_of
from companion.store.storage import Folder
from companion.text.messages import has_lone_surrogate

UI_STATE_FILE = "ui-state.json"
STATE = "state"  # a TinyDB file: table "state", document 1 (earlier versions: the object alone)
MAX_FILE_BYTES = 64 * 1024
MAX_DRAFT_BYTES = 16 * 1024
MAX_DRAFT_DEPTH = 6
MAX_PANEL_LENGTH = 40
MAX_ID_LENGTH = 64
HABIT_RANGE = range(-(2**31), 2**31)

View = tuple[str | None, str | None, dict[str, Any]]


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in `value` (without recursion: it may be very deep)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        if children:
            deepest = max(deepest, level)
            if deepest > MAX_DRAFT_DEPTH:
                return deepest
            stack.extend((child, level + 1) for child in children)
    return deepest


def clean_draft(draft: Any) -> dict[str, Any]:
    """`draft` as a small JSON object, or {} when it is not one (too big, too deep, not JSON)."""
    if not isinstance(draft, dict) or _depth(draft) > MAX_DRAFT_DEPTH:
        return {}
    try:
        # In UTF-8, which no lone surrogate survives: a draft holding one could not be sent to the page.
        text = json.dumps(draft, allow_nan=False, ensure_ascii=False)
        text.encode("utf-8")
    except (TypeError, ValueError, RecursionError):  # UnicodeEncodeError is a ValueError
        return {}
    if len(text.encode("utf-8")) > MAX_DRAFT_BYTES:
        return {}
    parsed: dict[str, Any] = json.loads(text)  # a copy in JSON's own shapes (tuples become lists)
    return parsed


def _short_text(value: Any, longest: int) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= longest and not has_lone_surrogate(value) else None


def _habit(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value in HABIT_RANGE else None


class UiStateFile:
    """Reads and writes `ui-state.json` in a store's folder; no method raises."""

    def __init__(self, folder: Folder) -> None:
        self._folder = folder

    def _read(self) -> dict[str, Any]:
        """The file's object as found (`_clean` checks its fields); {} when it is missing or unreadable."""
        try:
            raw = self._folder.read(UI_STATE_FILE)
            if not raw or len(raw) > MAX_FILE_BYTES:
                return {}
            state = single_of(json.loads(raw), STATE)
        except (OSError, ValueError, RecursionError):  # a folder in its place, bad JSON, absurd nesting
            return {}
        return state if isinstance(state, dict) else {}

    def last_view(self) -> View:
        state = _clean(self._read())
        return state["open_session"], state["panel"], state["draft"]

    def habits(self) -> dict[str, int]:
        habits: dict[str, int] = _clean(self._read())["habits"]
        return habits

    def last_screen(self) -> dict[str, Any]:
        """The screen open when no game was ({"name": ..., ...}), or {} (a game, or unknown)."""
        screen: dict[str, Any] = _clean(self._read())["screen"]
        return screen

    def remember_view(self, session_id: str | None, panel: str | None, draft: Any, screen: Any = None) -> bool:
        view = _clean({"open_session": session_id, "panel": panel, "draft": draft, "screen": screen})
        return self._write(
            open_session=view["open_session"], panel=view["panel"], draft=view["draft"], screen=view["screen"]
        )

    def remember_habit(self, name: str, value: int) -> bool:
        if _habit(value) is None:
            return False
        return self._write(habits={**self.habits(), name: value})

    def _write(self, **changes: Any) -> bool:
        """False when the disk refused (read-only, full, a folder in the way): the app goes on."""
        state = {**_clean(self._read()), **changes}
        try:
            self._folder.write(UI_STATE_FILE, single_bytes(STATE, STATE, state))
        except OSError:
            return False
        return True


def _clean(state: dict[str, Any]) -> dict[str, Any]:
    """Every known field in its expected shape; a panel and its draft only with an open game or screen."""
    session_id = _short_text(state.get("open_session"), MAX_ID_LENGTH)
    screen = _screen(state.get("screen")) if session_id is None else {}
    panel = _short_text(state.get("panel"), MAX_PANEL_LENGTH) if session_id or screen else None
    habits = state.get("habits")
    return {
        "open_session": session_id,
        "panel": panel,
        "draft": clean_draft(state.get("draft")) if panel else {},
        "screen": screen,
        "habits": {
            name: value
            for name, raw in (habits.items() if isinstance(habits, dict) else ())
            if (value := _habit(raw)) is not None
        },
    }


def _screen(screen: Any) -> dict[str, Any]:
    """A screen's place as a small JSON object with a name, or {}."""
    cleaned = clean_draft(screen)
    return cleaned if _short_text(cleaned.get("name"), MAX_PANEL_LENGTH) else {}

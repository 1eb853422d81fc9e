"""What a screen is drawn from: the page's state as it is now, its language and theme, and
the intents its buttons call (`act`). A screen reads everything here and changes nothing
itself: every change is a call on `act`.
"""

from __future__ import annotations

import json
import weakref
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from companion.app.share import Share
from companion.app.state import PageState, UiState
from companion.session import Session
from companion.text import i18n
from companion.text.messages import Message, RuleError

if TYPE_CHECKING:
    from companion.app.data import AppData
    from companion.app.intents import Intents

Verdict = tuple[str | None, str | None, bool]
# The rules' answers for a game as it is now, per event and language: every page following a
# game (the host's, each phone's) asks the same questions after each tap. Dropped with the
# game, and at its next change (a version is one state of one game).
_VERDICTS: weakref.WeakKeyDictionary[Session, tuple[int, dict[tuple[str, str], Verdict]]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class View:
    state: PageState
    act: Intents
    language: str
    dark: bool
    width: float  # the page's size in logical pixels
    height: float
    session: Session | None  # the game shown: the one open for play, or one read to look back on
    text_scale: float = 1.0  # the device's text size (state.Look); never below 1 here

    @classmethod
    def of(
        cls,
        state: PageState,
        act: Intents,
        language: str,
        dark: bool,
        width: float,
        height: float,
        text_scale: float = 1.0,
    ) -> View:
        return cls(state, act, language, dark, width, height, state.session, max(1.0, text_scale))

    def grown(self, px: float) -> float:
        """A size that holds text, grown as the device's text is (at 100 %: `px`): a line
        at 200 % is cut by a box sized for 100 %."""
        return px if self.text_scale == 1.0 else round(px * self.text_scale)

    def grown_less(self, px: float) -> float:
        """A size that holds a big number (`widgets.big_number`), which grows as the root of the text size."""
        return px if self.text_scale == 1.0 else round(px * self.text_scale**0.5)

    def reading(self, session: Session) -> View:
        """This view with a finished game read from disk as its game (a detail's end screen)."""
        return replace(self, session=session)

    @property
    def ui(self) -> UiState:
        return self.state.ui

    @property
    def data(self) -> AppData:
        """The saved games, to read from (lists, status lines, statistics, remembered habits)."""
        return self.act.data

    @property
    def guest(self) -> str | None:
        return self.act.share.guest

    @property
    def can_share(self) -> bool:
        return self.act.share.can_share

    @property
    def shared(self) -> Share | None:
        return self.act.share.shared

    @property
    def chosen_language(self) -> str | None:
        return self.act.language.chosen

    @property
    def device_language(self) -> str:
        return self.act.language.device

    def read_only(self) -> str | None:
        """Why this page may not change the game (a phone that only follows it), or None."""
        return self.act.share.read_only()

    def t(self, message_id: str, **params: Any) -> str:
        """A screen's words in the page's language."""
        return i18n.t(message_id, self.language, **params)

    def say(self, error: Exception) -> str:
        """A refusal or a saved game's fault in the page's language (anything else as it reads)."""
        message = getattr(error, "message", None)
        return message.text(self.language) if isinstance(message, Message) else str(error)

    # --- what a tap would do ---------------------------------------------------------------

    def check(self, event: dict[str, Any]) -> str | None:
        """Why the event would be refused now, or None when it is allowed."""
        return self.preview(event)[1]

    def preview(self, event: dict[str, Any]) -> tuple[str | None, str | None]:
        """(the sentence it would log, None) when allowed; (None, why not) when refused."""
        sentence, refusal, _ = self.verdict(event)
        return sentence, refusal

    def verdict(self, event: dict[str, Any]) -> tuple[str | None, str | None, bool]:
        """Like `preview`, and whether a refusal is the table's call (it may record anyway)."""
        session = self.session
        if session is None:
            return None, self.t("ui.no_game_open"), False
        known = _VERDICTS.get(session)
        if known is None or known[0] != session.version:
            known = (session.version, {})
            _VERDICTS[session] = known
        try:
            asked = (json.dumps(event, sort_keys=True), self.language)
        except (TypeError, ValueError):  # not an event a button records: asked as it is
            return self._verdict(session, event)
        found = known[1].get(asked)
        if found is None:
            found = known[1][asked] = self._verdict(session, event)
        return found

    def _verdict(self, session: Session, event: dict[str, Any]) -> Verdict:
        try:
            return session.check(event).text(self.language), None, False
        except RuleError as error:
            return None, self.say(error), error.overridable

    def draft_get(self, path: tuple[str, ...], default: Any) -> Any:
        node: Any = self.ui.draft
        for name in path[:-1]:
            node = node.get(name) or {}
        return node.get(path[-1], default)

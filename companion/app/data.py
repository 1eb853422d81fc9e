"""What the screens need from the store, shared by every window or tab of one process.

Two tabs showing the same game share one `Session` object (and so one lock and one
journal); the store is asked to close a session only when the last tab lets go, and a
game is not deleted while any tab has it. Faults arrive as `StoreError` sentences (never
an OSError); reading questions (the list, names to suggest, status lines) answer even
then, and where the app was is kept by `ui_state.py`, which never fails.

Each game's status line is worked out by the game itself (`Game.status_line`, a message)
when the store saves the game's entry in the index, never when the list is drawn; `home()` gives the list the
home screen shows one page at a time, from the store's summaries (no file is read).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from datetime import date
from typing import Any, NamedTuple

from companion.aftergame import archive, bgstats, stats
from companion.app.ui_state import UiStateFile, View
from companion.rules import GAMES
from companion.session import Session
from companion.store import SessionInUse, SessionList, SessionSummary, Store, StoreError
from companion.sync.service import SyncService
from companion.text.messages import LANGUAGES, Message, translations

log = logging.getLogger(__name__)
HOME_PAGE = 20  # games drawn at first in each part of the home screen; more on request


def status_of(game_id: str, state: Any) -> dict[str, str]:
    """The line the home screen shows for a game in this state, in every language."""
    line = GAMES[game_id].status_line(state)
    return {language: line.text(language) for language in LANGUAGES}


class HomeList(NamedTuple):
    """What the home screen shows: a page of each part, how many more match, and the whole list's notes."""

    in_progress: list[SessionSummary]  # unfinished games, newest first
    more_in_progress: int
    finished: list[SessionSummary]
    more_finished: int
    listing: SessionList  # every game: `quarantined`, `newer` and `problem` say what could not be listed


def searched_text(game_id: str, players: tuple[str, ...], title: str) -> str:
    """What a search looks in: the game's id and name, the title and the players' names, in one case."""
    game = GAMES.get(game_id)
    return " ".join((game_id.replace("_", " "), game.title if game else "", title, *players)).casefold()


class Search:
    """Filters summaries by words; the text of each (game, players, title) is built once.

    Games of one table share their players' names (the store keeps one copy of each list),
    so the texts are few and a keystroke costs a dictionary lookup per game.
    """

    MOST_KEPT = 50_000

    def __init__(self) -> None:
        self._texts: dict[tuple[str, tuple[str, ...], str], str] = {}

    def text(self, summary: SessionSummary) -> str:
        key = (summary.game, summary.players, summary.title)
        found = self._texts.get(key)
        if found is None:
            if len(self._texts) >= self.MOST_KEPT:
                self._texts.clear()
            found = self._texts[key] = searched_text(*key)
        return found

    def filter(self, summaries: list[SessionSummary], words: list[str]) -> list[SessionSummary]:
        """The summaries whose text holds every word (in any case), in their order."""
        texts, text = self._texts, self.text
        found = summaries
        for word in words:  # one pass per word, on what is left: no call per game but for a new text
            found = [
                summary
                for summary in found
                if word in (texts.get((summary.game, summary.players, summary.title)) or text(summary))
            ]
        return found


def narrower(before: list[str], now: list[str]) -> bool:
    """Whether every game matching the words `now` matches the words `before` too (each word
    before is part of the word now in its place)."""
    return len(now) >= len(before) and all(old in new for old, new in zip(before, now, strict=False))


class AppData:
    def __init__(self, store: Store) -> None:
        self.store = store
        # Settings' line about where the games are kept (a message id and parameters), or None:
        # the phone build sets it (companion.browser.storage_note); a server has none to say.
        self.storage_note: Callable[[], tuple[str, dict[str, str]] | None] = lambda: None
        if store.status is None:
            store.status = status_of
        # A game's status line is saved in every language: load the catalogues now rather than
        # inside the first save, where what they allocate would sit among the parsed index
        # (thousands of entries) and keep its memory from being given back.
        for language in LANGUAGES:
            translations(language)
        self._lock = threading.RLock()
        self.importing = 0  # imports under way from a page (the archive sheet says so meanwhile)
        # How far the long work under way is, by kind ("import", "export"): [stage, done, total].
        self.progress: dict[str, list[Any]] = {}
        self._users: dict[str, int] = {}
        self._sessions: dict[str, Session] = {}
        self._status_cache: dict[str, tuple[float, dict[str, str]]] = {}
        self.on_game_over: Callable[[], None] = lambda: None  # a change ended a game (the day's backup is due)
        self.backup_failure: Message | None = None  # why the day's backup could not be saved, until one is
        self._ui_state = UiStateFile(store.folder)
        self._search = Search()
        self._home_kept: tuple[SessionList, list[str], list[SessionSummary], list[SessionSummary]] | None = None
        self._sides_checked = False  # the side files read once for Home (see `check_side_files`)
        self.sync = SyncService(store)  # the background rounds, once sync is set up (Settings)
        self._archive_folders: tuple[list[str], list[archive.Backup]] | None = None  # exports/, backups/ as looked at
        self._series: tuple[Session, int, stats.ScoreSeries] | None = None  # the chart last drawn, and of what

    # --- sessions ---------------------------------------------------------------------

    def new(self, game: str, players: list[str], options: dict[str, Any]) -> Session:
        with self._lock:
            session = self.store.new(game, players, options)
            assert session.id is not None
            self._sessions[session.id] = session
            self._users[session.id] = 1
            return session

    def open(self, session_id: str) -> Session:
        with self._lock:
            if session_id not in self._sessions:
                self._sessions[session_id] = self.store.open(session_id)
            self._users[session_id] = self._users.get(session_id, 0) + 1
            return self._sessions[session_id]

    def close_session(self, session_id: str) -> None:
        with self._lock:
            users = self._users.get(session_id, 0) - 1
            if users > 0:
                self._users[session_id] = users
                return
            self._users.pop(session_id, None)
            if self._sessions.pop(session_id, None) is not None:
                self.store.close_session(session_id)

    def exists(self, session_id: str) -> bool:
        """Whether the game is listed (False too when the list cannot be read: it cannot be opened then)."""
        try:
            listed = self.store.listing()  # one stat of the index, whatever the archive's size
        except StoreError:
            return False
        return any(summary.id == session_id for summary in listed)

    def sessions(self) -> SessionList:
        """The saved games; when the data folder cannot be read, none, and `problem` says why."""
        try:
            return self.store.sessions()
        except StoreError as error:
            return SessionList(problem=str(error))

    def home(self, search: str = "", in_progress: int = HOME_PAGE, finished: int = HOME_PAGE) -> HomeList:
        """The first `in_progress` unfinished and `finished` finished games matching `search`, newest first.

        From the store's summaries (`Store.listing`): its cost does not grow with the archive
        but for one pass over the summaries.
        """
        if not self._sides_checked:  # once: the first Home tells a damaged side file
            self._sides_checked = True
            self.check_side_files()
        try:
            listing = self.store.listing()
        except StoreError as error:
            listing = SessionList(problem=str(error))
        words = search.casefold().split()
        kept = self._home_kept
        if kept is not None and kept[0] is listing and kept[1] == words:  # the store's list did not change
            playing, over = kept[2], kept[3]
        elif kept is not None and kept[0] is listing and narrower(kept[1], words):
            # A word typed on (or added): what matches now is among what matched a keystroke ago.
            playing, over = self._search.filter(kept[2], words), self._search.filter(kept[3], words)
            self._home_kept = (listing, words, playing, over)
        else:
            found = self._search.filter(listing, words)
            playing = [summary for summary in found if not summary.is_over]
            over = [summary for summary in found if summary.is_over]
            self._home_kept = (listing, words, playing, over)
        return HomeList(
            playing[:in_progress],
            max(0, len(playing) - in_progress),
            over[:finished],
            max(0, len(over) - finished),
            listing,
        )

    def warm(self) -> None:
        """Read the whole list once, ahead of the first screen (see `cli.run`): the first page
        then finds it ready instead of waiting for a look at every game's file."""
        with contextlib.suppress(Exception):  # only a head start: the first screen reads it anyway
            self.home()

    def check_side_files(self) -> None:
        """Read the side files (renames, choices, copies), so that Home tells a damaged one from
        the first time it is drawn rather than once statistics are first asked; never raises."""
        with contextlib.suppress(Exception):  # a courtesy: each is read again when it is needed
            for kind in archive.SIDE_KINDS:
                self.store.side_files.read(kind)

    def delete(self, session_id: str) -> None:
        """Delete a game no screen has open; SessionInUse while one does (here or in another process)."""
        with self._lock:
            if self._users.get(session_id, 0) > 0:
                raise SessionInUse("store.in_use")
            self.store.delete(session_id)
            if self.last_screen() == session_id:
                self.remember_screen(None)

    def known_players(self) -> list[str]:
        """Names to suggest; none when the saved games cannot be read (the list says why)."""
        try:
            return list(self.store.known_players())
        except StoreError:
            return []

    def status_line(self, summary: SessionSummary, language: str = "en") -> str:
        """'Bob's turn · $32 / $40' for the home screen, as saved with the game's entry.

        An entry saved by an earlier version has none (or none in this language): the game is
        read once (its lines then kept until it changes) and the entry gets its lines when the
        game is next played.
        """
        saved = summary.status if language == "en" else dict(summary.translated).get(language)
        if saved:
            return saved
        session_id, updated = summary.id, summary.updated
        cached = self._status_cache.get(session_id)
        if cached and cached[0] == updated and session_id not in self._sessions:
            return cached[1].get(language, "")
        with self._lock:
            try:  # a peek takes no lock: a game played in another window still shows its status
                session = self._sessions.get(session_id) or self.store.peek(session_id)
            except StoreError as error:
                return str(error)
            lines = status_of(session.game.id, session.state)
        self._status_cache[session_id] = (updated, lines)
        return lines.get(language, "")

    # --- where the app was ------------------------------------------------------------

    def remember_screen(
        self,
        session_id: str | None,
        panel: str | None = None,
        draft: dict[str, Any] | None = None,
        screen: dict[str, Any] | None = None,
    ) -> None:
        """Note the open game (None: the `screen` named, home by default) and its open sheet, so a
        reload lands there; never fails."""
        with self._lock:
            self._ui_state.remember_view(session_id, panel, draft or {}, screen)

    def last_place(self) -> dict[str, Any]:
        """The screen open when no game was, as remembered ({"name": "stats", ...}); {} when none."""
        return self._ui_state.last_screen()

    def last_view(self) -> View:
        """(open game id, open sheet, its draft) as last remembered; (None, None, {}) when unknown."""
        return self._ui_state.last_view()

    def last_screen(self) -> str | None:
        return self.last_view()[0]

    def remember(self, name: str, value: int) -> None:
        """A small habit of this table across games, e.g. the price it pays for corn."""
        with self._lock:
            self._ui_state.remember_habit(name, value)

    def recall(self, name: str) -> int | None:
        return self._ui_state.habits().get(name)

    # --- after the game: statistics, charts, export, import, backups ----------------------

    def finished(self) -> list[SessionSummary]:
        """Finished games with their kept results, newest first; none when the saved games cannot be read."""
        try:
            return self.store.finished()
        except StoreError:
            return []

    def originals(self) -> list[SessionSummary]:
        """The finished games but the copies an import added beside a game (each is that game again)."""
        copies = archive.read_copies(self.store)
        return [summary for summary in self.finished() if summary.id not in copies]

    def statistics(
        self, game: str | None = None, since: float | None = None, until: float | None = None
    ) -> stats.Statistics:
        """Statistics of the finished games of `game` (None: all) started in [since, until), renames applied,
        the games the table left out (and stopped ones it did not count) left out."""
        return stats.statistics(
            self.originals(),
            game=game,
            since=since,
            until=until,
            aliases=stats.read_aliases(self.store),
            counted=self.counted(),
        )

    def statistics_by_game(self, since: float | None = None, until: float | None = None) -> dict[str, stats.Statistics]:
        return stats.statistics_by_game(
            self.originals(), since=since, until=until, aliases=stats.read_aliases(self.store), counted=self.counted()
        )

    def player_page(
        self, name: str, game: str | None = None, since: float | None = None, until: float | None = None
    ) -> stats.PlayerPage | None:
        """One player's figures over the games counted (None when they played none of them)."""
        return stats.player_page(
            self.originals(),
            name,
            game=game,
            since=since,
            until=until,
            aliases=stats.read_aliases(self.store),
            counted=self.counted(),
        )

    def counted(self) -> dict[str, bool]:
        """The table's choices of games counted in statistics or left out (see `stats.set_counted`)."""
        return stats.read_counted(self.store)

    def set_counted(self, summary: SessionSummary, counted: bool) -> None:
        """Count a finished game in statistics or leave it out; StoreError (a sentence) when it cannot be saved."""
        with self._lock:
            stats.set_counted(self.store, summary, counted)

    def finished_summary(self, session_id: str) -> SessionSummary | None:
        return next((summary for summary in self.finished() if summary.id == session_id), None)

    def rename_player(self, old: str, new: str) -> None:
        """Count `old`'s games as `new`'s from now on; StoreError or RuleError (a sentence) when it cannot."""
        with self._lock:
            stats.rename_player(self.store, old, new)

    def score_series(self, session_id: str) -> stats.ScoreSeries:
        """The chart of a game (StoreError when it cannot be read)."""
        return stats.score_series(self.peek(session_id))

    def series_of(self, session: Session) -> stats.ScoreSeries:
        """The chart of a game already read, worked out once however often its detail is drawn."""
        kept = self._series
        if kept is None or kept[0] is not session or kept[1] != session.cursor:
            kept = self._series = (session, session.cursor, stats.score_series(session))
        return kept[2]

    def peek(self, session_id: str) -> Session:
        """A game read as saved, without opening it for play (StoreError when it cannot be read)."""
        return self._sessions.get(session_id) or self.store.peek(session_id)

    def exports(self) -> list[str]:
        """The JSON archives in the data folder's exports/, newest name first, as last looked at
        (`look_at_archive_folders`): a page drawing the sheet reads nothing from the disk."""
        if self._archive_folders is None:
            self.look_at_archive_folders()
        assert self._archive_folders is not None
        return self._archive_folders[0]

    def look_at_archive_folders(self) -> None:
        """Read what exports/ and backups/ hold: when the Your games sheet opens, and after an
        export, an import or a backup (never while a page draws: a sync round redraws them all)."""
        try:
            names = self.store.folder.names(archive.EXPORTS)
        except OSError:
            names = []
        try:
            found = archive.backups(self.store)
        except StoreError:
            found = []
        self._archive_folders = (sorted((name for name in names if name.endswith(".json")), reverse=True), found)

    def read_export(self, name: str) -> bytes:
        """An archive in exports/ (b"" when gone: the import then says it is no archive); OSError as the disk says."""
        return self.store.folder.read(f"{archive.EXPORTS}/{name}") or b""

    def bgstats_url(self, session_id: str) -> str:
        """BG Stats' createPlay link for a game (StoreError when it cannot be read)."""
        summary = next((summary for summary in self.store.listing() if summary.id == session_id), None)
        if summary is None:
            raise StoreError("store.not_found", id=session_id)
        return bgstats.play_url(self.peek(session_id), summary)

    def export(
        self, kind: str, session_ids: list[str] | None = None, progress: archive.Progress | None = None
    ) -> tuple[str, bytes]:
        """(file name, content) of an export, `kind` "json" (the chosen games, all by default), "csv", "xlsx" or
        "bgsplay"; `progress` is told each game written into a JSON one."""
        if kind == "csv":
            return archive.export_name("csv"), archive.export_csv(self.store).encode("utf-8")
        if kind == "xlsx":
            return archive.export_name("xlsx"), archive.export_xlsx(self.store)
        if kind == bgstats.EXTENSION:  # every finished game as BG Stats plays
            return archive.export_name(bgstats.EXTENSION), bgstats.export_plays(self.store)
        return archive.export_name("json"), archive.export_json(self.store, session_ids, progress)

    def save_export(
        self, kind: str, session_ids: list[str] | None = None, progress: archive.Progress | None = None
    ) -> str:
        """Write an export into the data folder's exports/ and return its path (where no file dialog is offered)."""
        name, data = self.export(kind, session_ids, progress)
        try:
            return archive.save_export(self.store, name, data)
        finally:
            self.look_at_archive_folders()

    def import_archive(
        self, data: bytes, language: str = "en", progress: archive.Progress | None = None
    ) -> archive.ImportReport:
        """Add an archive's games; never raises: the report names what was refused and why.
        `language`: the table's, for the title of a game added as a copy; `progress`: told how far it is."""
        with self._lock:
            return archive.import_json(self.store, data, language=language, progress=progress)

    def backup_if_due(self, today: date | None = None) -> str | None:
        """Keep today's backup unless there is one (call once a start, off the UI thread); never raises."""
        try:
            name = archive.write_backup(self.store, today)
        except StoreError as error:  # a backup is a courtesy: a full disk must not stop a game
            log.warning("%s", error)  # "Today's backup could not be saved: the disk is full."
            self.backup_failure = error.message  # Home says it, in one line
            return None
        self.backup_failure = None
        if name is not None:
            self.look_at_archive_folders()
        return name

    def backups(self) -> list[archive.Backup]:
        """The backups in backups/, newest first, as last looked at (`look_at_archive_folders`)."""
        if self._archive_folders is None:
            self.look_at_archive_folders()
        assert self._archive_folders is not None
        return self._archive_folders[1]

    def restore_backup(self, name: str) -> archive.ImportReport:
        """Bring back the games of a backup that are missing; nothing present is overwritten."""
        with self._lock:
            try:
                return archive.restore_backup(self.store, name)
            except StoreError as error:
                return archive.ImportReport(refused=[archive.Refusal.of(name, error.message)])

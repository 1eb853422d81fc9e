"""What the table wants to look at after its games: statistics, and a game's score over time.

Statistics read only the finished games' summaries with their kept results
(`Store.finished()`): no game is replayed, so 10,000 games cost one pass over the list.
A player is a name compared as the rules compare names (case, Unicode and compatibility
forms and invisible marks ignored); a renamed player (`rename_player`) keeps their history
through the alias map saved in the data folder as `players.json`.

A game the table stopped early is left out of the results unless the table counts it; any
game can be left out ("leave out of statistics"). Those choices are kept in the data folder
as `counted.json` (`set_counted`), beside the games, never in their logs: what was played
stays as it was, and the choice can be taken back.

Both files carry a checksum; a damaged one reads what can still be read, is copied into
quarantine/ before anything writes over it, and Home names what it lost (see
store/side_file.py). Each function takes the store (whose list tells the loss) or, in
tests, a bare data folder.

A game's length in time is read through `duration_of` alone.

`score_series(session)` is one game's chart, in the steps the game itself gives
(`Game.score_steps`: Heartland money by round with the final cargo penalty as a step of
its own, TransAmerica points by round, Great Plains points by scored zone).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from companion.rules import GAMES
from companion.rules.base import Step, _clean_name, _clean_saved_name, name_key
from companion.session import Session
from companion.store import SessionSummary, Store, StoreError
from companion.store.errors import os_reason
from companion.store.side_file import SideFiles, SideKind
from companion.store.storage import Folder
from companion.text.messages import RuleError, register

ALIASES = "players.json"
COUNTED = "counted.json"
MAX_ALIAS_STEPS = 64

register(
    "en",
    {
        "stats.not_renamed": "The new name could not be saved: {reason}.",
        "stats.not_counted": "The choice could not be saved: {reason}.",
    },
)

ALIAS_FILE = SideKind(ALIASES, "aliases", lambda key, name: isinstance(name, str))
COUNTED_FILE = SideKind(COUNTED, "counted", lambda key, value: type(value) is bool)


def side_files(source: Store | Folder) -> SideFiles:
    """The side files of a store (its list tells a damaged one), or of a bare data folder."""
    return source.side_files if isinstance(source, Store) else SideFiles(source)


# --- players -----------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def player_key(name: str) -> str:
    """The key two names share when the app takes them for the same player (as new games check names)."""
    try:
        return _clean_name(name)[1]
    except RuleError:  # a name saved under the first version's looser rule
        try:
            return name_key(_clean_saved_name(name)[0])
        except RuleError:
            return name_key(name)


def read_aliases(source: Store | Folder) -> dict[str, str]:
    """The renames kept in the data folder: a player's key -> the name they go by now ({} when none).

    Unreadable, the names stand as played (a damaged file is told, see the module's docstring)."""
    return _keyed(side_files(source).read(ALIAS_FILE))


def _keyed(aliases: dict[str, str]) -> dict[str, str]:
    # Keyed again as names are compared now: a file written when only case and Unicode form
    # were set aside ("ａｎｎ") still finds its player ("ann").
    return {player_key(key): name for key, name in aliases.items()}


def rename_player(source: Store | Folder, old: str, new: str) -> dict[str, str]:
    """From now on `old` is counted as `new` (their games merge); returns the alias map saved.

    StoreError when the data folder refuses the file (or it is damaged and cannot be copied
    aside first); RuleError when `new` is not a name.
    """
    name = _clean_name(new)[0]

    def renamed(saved: dict[str, str]) -> dict[str, str]:
        aliases = _keyed(saved)
        old_key, new_key = player_key(old), player_key(name)
        aliases.pop(new_key, None)  # `new` is a name of its own again (renaming back undoes a rename)
        if old_key != new_key:
            aliases[old_key] = name
        for key, target in list(aliases.items()):  # those renamed to `old` before follow it
            if player_key(target) == old_key:
                aliases[key] = name
        return aliases

    try:
        return side_files(source).update(ALIAS_FILE, renamed)
    except OSError as error:
        raise StoreError("stats.not_renamed", reason=os_reason(error)) from error


def is_player_name(name: Any) -> bool:
    """Whether a rename's new name is one New game takes (an archive's renames are checked so)."""
    try:
        _clean_name(name)
    except (RuleError, TypeError, AttributeError):
        return False
    return isinstance(name, str)


def merge_aliases(
    here: Mapping[str, str], theirs: Mapping[str, str]
) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """Renames here and another device's (an archive's) as one map, and those it made otherwise:
    (key, the name here or "" for their own, the name there), where the one here is kept. A rename that would close a
    loop (Ann counted as Bob here, Bob as Ann there) is one made otherwise too. As `rename_player`
    leaves them, each name is renamed straight to its last name (Ann → Bob there, Bob → Rob here:
    Ann counts as Rob)."""
    merged, kept = _keyed(dict(here)), []
    for key, name in _keyed(dict(theirs)).items():
        mine = merged.get(key)
        if mine is not None:
            if player_key(mine) != player_key(name):
                kept.append((key, mine, name))
            continue
        trial = {**merged, key: name}
        if _last_name(key, trial) is None:
            kept.append((key, "", name))  # here the player keeps their own name
            continue
        merged = trial
    return {key: _last_name(key, merged) or name for key, name in merged.items()}, kept


def _last_name(key: str, aliases: Mapping[str, str]) -> str | None:
    """The name a rename's chain from `key` ends at; None when it loops."""
    current, name, seen = key, aliases[key], set()
    for _ in range(MAX_ALIAS_STEPS):
        seen.add(current)
        following = player_key(name)
        if following == current or following not in aliases:
            return name
        if following in seen:
            return None
        current, name = following, aliases[following]
    return None


def _resolve(name: str, aliases: Mapping[str, str]) -> tuple[str, str | None]:
    """(key, name given by a rename or None) of the player `name` stands for."""
    key, renamed = player_key(name), None
    for _ in range(MAX_ALIAS_STEPS):  # a cycle (a hand-edited file) stops somewhere
        target = aliases.get(key)
        if target is None or player_key(target) == key:
            break
        key, renamed = player_key(target), target
    return key, renamed


# --- which games count -----------------------------------------------------------------


def read_counted(source: Store | Folder) -> dict[str, bool]:
    """The table's choices: a game's id -> counted in statistics or not ({} when none).

    Unreadable, every game counts as by default (stopped ones left out)."""
    return side_files(source).read(COUNTED_FILE)


def set_counted(source: Store | Folder, summary: SessionSummary, counted: bool) -> dict[str, bool]:
    """Count the game in statistics or leave it out, from now on; returns the choices saved.

    A choice equal to the default (a stopped game left out, any other counted) is dropped, so
    taking a choice back leaves no trace. StoreError when the data folder refuses the file
    (or it is damaged and cannot be copied aside first).
    """

    def chosen(choices: dict[str, bool]) -> dict[str, bool]:
        choices.pop(summary.id, None)
        if counted != counts_by_default(summary):
            choices[summary.id] = counted
        return choices

    try:
        return side_files(source).update(COUNTED_FILE, chosen)
    except OSError as error:
        raise StoreError("stats.not_counted", reason=os_reason(error)) from error


def is_stopped(summary: SessionSummary) -> bool:
    """Whether the table stopped the game early (its standings are as they stood then)."""
    return summary.result is not None and summary.result.stopped


def counts_by_default(summary: SessionSummary) -> bool:
    return not is_stopped(summary)


def is_counted(summary: SessionSummary, counted: Mapping[str, bool] | None = None) -> bool:
    """Whether statistics count this finished game: the table's choice, else all but stopped games."""
    choice = (counted or {}).get(summary.id)
    return counts_by_default(summary) if choice is None else choice


def started_at(summary: SessionSummary) -> float:
    """When the game began (seconds since the epoch)."""
    return summary.created


def first_player(session: Session) -> str:
    """Who played first: the one to play at the set-up (the first seat where the game follows no turns)."""
    game = session.game
    return game.current_player(game.setup(session.players, session.options)) or session.players[0]


def duration_of(summary: SessionSummary) -> float | None:
    """How long the game took, in seconds; None when that is not known.

    Every duration shown is read here: the table clock's playing time, pauses left out
    (`SessionSummary.played`); for a game saved before clocks were kept, from its start to
    its end as it was listed.
    """
    if not summary.is_over:
        return None
    if summary.played is not None:
        return summary.played if summary.played > 0 else None
    span = (summary.finished if summary.finished is not None else summary.updated) - summary.created
    return span if span > 0 else None


# --- statistics --------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStats:
    name: str  # as renamed, else as last played
    plays: int
    wins: int
    win_rate: float  # wins / plays
    average_score: float | None  # None when the games counted are of different kinds
    best_score: int | None
    longest_streak: int  # most wins in a row, in the order the games were played
    current_streak: int = 0  # wins in a row up to their last game counted


@dataclass(frozen=True)
class Statistics:
    game: str | None  # the game counted, None for all of them
    plays: int
    # In the game's `length_unit` (rounds; zones for Great Plains); None when games of
    # different kinds are counted, or the game has no length to count.
    average_length: float | None
    players: list[PlayerStats]  # most wins first, then most plays, then name
    # head_to_head[a][b]: the games in which a finished ahead of b (a tie counts for neither)
    head_to_head: dict[str, dict[str, int]] = field(default_factory=dict)
    stopped: int = 0  # finished games of the filters left out because they were stopped (and not counted)
    left_out: int = 0  # other games of the filters the table left out
    # met[a][b]: the games a and b played together (so 0 ahead reads apart from never met)
    met: dict[str, dict[str, int]] = field(default_factory=dict)

    def player(self, name: str) -> PlayerStats | None:
        key = player_key(name)
        return next((stats for stats in self.players if player_key(stats.name) == key), None)


@dataclass
class _Tally:
    name: str
    plays: int = 0
    wins: int = 0
    total: float = 0
    best: float | None = None
    streak: int = 0
    longest: int = 0


def chosen_games(
    finished: Iterable[SessionSummary],
    *,
    game: str | None = None,
    since: float | None = None,
    until: float | None = None,
) -> list[SessionSummary]:
    """The finished games with a kept result of `game` (all: None) started in [since, until), oldest first."""
    return sorted(
        (
            summary
            for summary in finished
            if summary.is_over
            and summary.result is not None
            and (game is None or summary.game == game)
            and (since is None or summary.created >= since)
            and (until is None or summary.created < until)
        ),
        key=lambda summary: (summary.created, summary.id),
    )


class _Names:
    """Each name played, resolved through the renames once."""

    def __init__(self, aliases: Mapping[str, str] | None) -> None:
        self.aliases = aliases or {}
        self.resolved: dict[str, tuple[str, str | None]] = {}

    def __call__(self, name: str) -> tuple[str, str | None]:
        found = self.resolved.get(name)
        if found is None:
            found = self.resolved[name] = _resolve(name, self.aliases)
        return found


def statistics(
    finished: Iterable[SessionSummary],
    *,
    game: str | None = None,
    since: float | None = None,
    until: float | None = None,
    aliases: Mapping[str, str] | None = None,
    counted: Mapping[str, bool] | None = None,
) -> Statistics:
    """Statistics of the finished games of `game` (all games: None) started in [since, until).

    `finished` is what `Store.finished()` gives; a game without a kept result is skipped, and
    so is one not counted (`is_counted`: stopped games unless the table counts them, and
    games the table left out), which `Statistics.stopped` and `left_out` count.
    """
    every = chosen_games(finished, game=game, since=since, until=until)
    chosen = [summary for summary in every if is_counted(summary, counted)]
    stopped = sum(1 for summary in every if is_stopped(summary) and not is_counted(summary, counted))
    names = _Names(aliases)
    tallies: dict[str, _Tally] = {}
    beaten: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    together: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    length = 0
    for summary in chosen:
        result = summary.result
        assert result is not None
        length += result.length
        keys = []
        for seat, name in enumerate(summary.players):
            key, renamed = names(name)
            keys.append(key)
            tally = tallies.get(key)
            if tally is None:
                tally = tallies[key] = _Tally(name)
            tally.name = renamed or name
            _count(tally, result.scores[seat], name in summary.winners)
        for seat, key in enumerate(keys):
            for other, other_key in enumerate(keys):
                if key == other_key:
                    continue
                together[key][other_key] += 1
                if result.ranks[seat] < result.ranks[other]:
                    beaten[key][other_key] += 1
    mixed = len({summary.game for summary in chosen}) > 1
    players = sorted(
        (_player_stats(tally, mixed) for tally in tallies.values()),
        key=lambda stats: (-stats.wins, -stats.plays, player_key(stats.name)),
    )
    shown = {key: tally.name for key, tally in tallies.items()}

    def by_name(counts: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        return {shown[key]: {shown[other]: count for other, count in row.items()} for key, row in counts.items()}

    measured = not mixed and bool(chosen) and _has_length(chosen[0].game)
    average_length = length / len(chosen) if measured else None
    return Statistics(
        game,
        len(chosen),
        average_length,
        players,
        by_name(beaten),
        stopped,
        len(every) - len(chosen) - stopped,
        by_name(together),
    )


def _has_length(game_id: str) -> bool:
    game = GAMES.get(game_id)
    return game is not None and game.length is not None


def statistics_by_game(finished: Iterable[SessionSummary], **filters: Any) -> dict[str, Statistics]:
    """`statistics` of each game played (the same filters but `game`)."""
    summaries = list(finished)
    return {game: statistics(summaries, game=game, **filters) for game in sorted({s.game for s in summaries})}


def _count(tally: _Tally, score: float, won: bool) -> None:
    tally.plays += 1
    tally.total += score
    tally.best = score if tally.best is None else max(tally.best, score)
    if won:
        tally.wins += 1
        tally.streak += 1
        tally.longest = max(tally.longest, tally.streak)
    else:
        tally.streak = 0


def _player_stats(tally: _Tally, mixed: bool) -> PlayerStats:
    return PlayerStats(
        name=tally.name,
        plays=tally.plays,
        wins=tally.wins,
        win_rate=tally.wins / tally.plays,
        average_score=None if mixed else tally.total / tally.plays,
        best_score=None if mixed or tally.best is None else int(tally.best),
        longest_streak=tally.longest,
        current_streak=tally.streak,
    )


# --- one player's page ------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One player's plays of one game: scores are of that game alone (money, points)."""

    game: str
    plays: int
    wins: int
    best: int
    average: float
    worst: int


@dataclass(frozen=True)
class Rival:
    """The opponents counted most, all of them where several tie (by name), and their count."""

    names: tuple[str, ...]
    count: int


@dataclass(frozen=True)
class PlayerPage:
    name: str  # as renamed, else as last played
    plays: int
    wins: int
    win_rate: float
    current_streak: int  # wins in a row up to their last game counted
    longest_streak: int
    games: list[GameRecord]  # most played first
    time_played: float  # seconds, over the games whose length in time is known
    timed: int  # how many games `time_played` adds up
    most_met: Rival | None  # the opponents they played with most often
    beaten_by: Rival | None  # the opponents who finished ahead of them most often
    by_count: dict[int, tuple[int, int]]  # players at the table -> (plays, wins)


def player_page(
    finished: Iterable[SessionSummary],
    name: str,
    *,
    game: str | None = None,
    since: float | None = None,
    until: float | None = None,
    aliases: Mapping[str, str] | None = None,
    counted: Mapping[str, bool] | None = None,
) -> PlayerPage | None:
    """Everything about one player over the games counted (as `statistics` counts them); None when they played none."""
    names = _Names(aliases)
    wanted = names(name)[0]
    tally = _Tally(name)
    scores: dict[str, list[tuple[int, bool]]] = defaultdict(list)
    met: dict[str, int] = defaultdict(int)
    ahead: dict[str, int] = defaultdict(int)
    shown: dict[str, str] = {}
    by_count: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    time_played, timed = 0.0, 0
    for summary in chosen_games(finished, game=game, since=since, until=until):
        if not is_counted(summary, counted):
            continue
        keys = [names(player) for player in summary.players]
        seat = next((seat for seat, (key, _) in enumerate(keys) if key == wanted), None)
        if seat is None:
            continue
        result = summary.result
        assert result is not None
        won = summary.players[seat] in summary.winners
        tally.name = keys[seat][1] or summary.players[seat]
        _count(tally, result.scores[seat], won)
        scores[summary.game].append((int(result.scores[seat]), won))
        by_count[len(summary.players)][0] += 1
        by_count[len(summary.players)][1] += won
        duration = duration_of(summary)
        if duration is not None:
            time_played, timed = time_played + duration, timed + 1
        for other, (key, renamed) in enumerate(keys):
            if key == wanted:
                continue
            shown[key] = renamed or summary.players[other]
            met[key] += 1
            if result.ranks[other] < result.ranks[seat]:
                ahead[key] += 1
    if not tally.plays:
        return None
    games = sorted(
        (
            GameRecord(
                game_id,
                len(played),
                sum(won for _, won in played),
                max(v for v, _ in played),
                sum(v for v, _ in played) / len(played),
                min(v for v, _ in played),
            )
            for game_id, played in scores.items()
        ),
        key=lambda record: (-record.plays, record.game),
    )
    return PlayerPage(
        tally.name,
        tally.plays,
        tally.wins,
        tally.wins / tally.plays,
        tally.streak,
        tally.longest,
        games,
        time_played,
        timed,
        _most(met, shown),
        _most(ahead, shown),
        {count: (plays, wins) for count, (plays, wins) in sorted(by_count.items())},
    )


def _most(counts: Mapping[str, int], shown: Mapping[str, str]) -> Rival | None:
    """Every one counted most, by name; None when none was counted."""
    if not counts:
        return None
    top = max(counts.values())
    return Rival(tuple(sorted((shown[key] for key, count in counts.items() if count == top), key=player_key)), top)


# --- a game's score over time ---------------------------------------------------------


class ScoreSeries(NamedTuple):
    players: tuple[str, ...]
    unit: str  # the game's unit: "money" or "points"
    steps: list[Step]

    def of(self, player: str) -> list[int]:
        seat = self.players.index(player)
        return [step.values[seat] for step in self.steps]


def score_series(session: Session) -> ScoreSeries:
    """The chart of a game, as far as its cursor: one step per round or zone counted."""
    game = session.game
    return ScoreSeries(session.players, game.unit, game.steps(session.players, session.states))

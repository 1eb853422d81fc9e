"""BG Stats: one play as its `createPlay` link, many as a `.bgsplay` file.

The link's fields are those BG Stats documents for pushing a play from another app
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/):
`createPlay.html?data=` + URL-encoded JSON with `sourceName`, `sourcePlayId`, `playDate`
("YYYY-MM-DD HH:MM:SS" in UTC), `durationMin`, `comments`, `game {name, bggId,
highestWins, noPoints, sourceGameId}` and `players [{name, sourcePlayerId, score, rank,
winner, startPlayer}]`. BG Stats matches a play pushed again by its `sourceName` and
`sourcePlayId` (here the session id), and a player by `sourcePlayerId` (here the same id
for the same name, as names compare in a new game: see `rules.base.name_key`).

A `.bgsplay` file is the JSON document BG Stats itself shares and opens: `about`,
`players [{id, uuid, name, isAnonymous}]`, `locations`, `games [{id, uuid, name, bggId,
highestWins, noPoints, cooperative, usesTeams}]` and `plays [{uuid, gameRefId, playDate, playDateYmd,
entryDate, modificationDate, durationMin, ignored, manualWinner, usesTeams, comments,
playerScores [{playerRefId, score (text), rank, winner, startPlayer, newPlayer,
seatOrder}]}]`; `id`s are the file's own references. A play's uuid, a game's and a
player's are derived from the session id, the game id and the name, so a file exported
again updates what BG Stats already has instead of adding it twice.

What is sent, beyond the game's own facts: `sourceName` "Companion"; `durationMin` at least
1; `game.bggId` the game's BoardGameGeek id (Heartland 111417, TransAmerica 2842, Great Plains
330036), `highestWins` true, `noPoints` false; `startPlayer` who plays first at the set-up
(peers that push plays, as ClockTracker, lindsaykwardell/clocktracker, whose pull request #299
found it required on every player). The file's shape is as in a file BG Stats exported
(https://pastebin.com/iDbHyBui) and as peers that write one; `locations` is empty. Not sent:
`userInfo.meRefId` (which player is the phone's owner is not something Companion knows; a
wrong one would give BG Stats the wrong "me"), locations, colours and roles.

Where each field's meaning comes from (public sources; the push-plays page above for the link):
- link `playDate`: UTC, "YYYY-MM-DD HH:MM:SS" (the push-plays page); a bot that builds these
  links tests it so, "regardless of local timezone" (sean-owens/rulebook-rebels-discord-bot,
  tests/bgStats.test.ts). We send the start of the game.
- file `playDate`: the play's *local* wall-clock time, "YYYY-MM-DD HH:MM:SS". Readers of BG
  Stats' export take the play's day from its text as it stands (benallred/my-bg-stats,
  scripts/transform-game-data.js: the part before the space is the day); a public command-line
  writer into BG Stats' own Core Data store parses it in the machine's zone.
- file `playDateYmd`: the same local day as the number YYYYMMDD (that writer stores
  year * 10000 + month * 100 + day of the local date; importers of the export group plays by it).
  So a game at 01:40 in Paris is on its own day, not the day before as a UTC stamp puts it.
- `seatOrder`: 1 for the first seat (the same writer stores the player's index + 1; 0 is read
  as "no seat").
- `ignored`: true for a play statistics leave out (stats.is_counted: the table's choice in
  counted.json, else every game but a stopped one), the note of a stopped game as the comment.
- An imported copy (copies.json, archive.read_copies) is the same evening as its original: it is
  left out when the original is in the file, else sent under the original's play uuid, so BG
  Stats, which matches a play by its uuid, never holds the evening twice.
"""

from __future__ import annotations

import json
import urllib.parse
import uuid
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from companion import clock
from companion.aftergame import archive, stats
from companion.rules.base import name_key
from companion.session import Session
from companion.store import SessionSummary, Store, StoreError
from companion.store.file_format import encode
from companion.text import messages

SOURCE_NAME = "Companion"
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
EXTENSION = "bgsplay"
# Every uuid here is a name-based (version 5) uuid under this namespace: stable across exports.
NAMESPACE = uuid.UUID("57289a3c-61aa-4386-9e81-0ae7b7f9f2d6")  # drawn once; never change it
messages.register(
    "en",
    {
        "bgstats.export": "BG Stats plays",
        "bgstats.export.tip": "Every finished game as a .bgsplay file: open it with BG Stats to add them as plays",
    },
)
ABOUT = (
    "A play file for Board Game Stats, written by Companion. Open it with BG Stats "
    "(share it to the app, or use its import) to add these plays."
)


def player_id(name: str) -> str:
    """The same id for a name wherever it is played (names equal as the table compares them)."""
    return str(uuid.uuid5(NAMESPACE, "player:" + name_key(name)))


def play_uuid(session_id: str) -> str:
    return str(uuid.uuid5(NAMESPACE, "play:" + session_id))


def game_uuid(game_id: str) -> str:
    return str(uuid.uuid5(NAMESPACE, "game:" + game_id))


def utc_stamp(moment: float) -> str:
    """ "2026-12-01 18:45:00": BG Stats' date form, in UTC (the same on every machine)."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M:%S")


def local_stamp(moment: float) -> str:
    """ "2026-12-02 01:40:00": the same form in this machine's zone, as the `.bgsplay` file holds it."""
    return datetime.fromtimestamp(moment).strftime("%Y-%m-%d %H:%M:%S")


def local_ymd(moment: float) -> int:
    """20261202: the local day of the play, as the file's `playDateYmd`."""
    day = datetime.fromtimestamp(moment)
    return day.year * 10_000 + day.month * 100 + day.day


def duration_min(session: Session, summary: SessionSummary) -> int | None:
    """Whole minutes of play, pauses left out: what the game's clock says (None when unknown)."""
    played = summary.played if summary.played is not None else session.played()
    return clock.minutes(played)


def start_player(session: Session) -> str:
    """Who plays first at the set-up (the first seat when the app follows no turns)."""
    rules = session.game
    return rules.current_player(rules.setup(session.players, session.options)) or session.players[0]


def play(session: Session, summary: SessionSummary) -> dict[str, Any]:
    """The createPlay JSON of a finished game (its standings as they stand otherwise)."""
    rules = session.game
    starter = start_player(session)
    standings = {standing.player: standing for standing in session.standings()}
    game: dict[str, Any] = {"name": rules.title, "highestWins": True, "noPoints": False, "sourceGameId": rules.id}
    if rules.bgg_id is not None:
        game["bggId"] = rules.bgg_id
    found: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": summary.id,
        "playDate": utc_stamp(summary.created),
        "game": game,
        "players": [
            {
                "name": player,
                "sourcePlayerId": player_id(player),
                "score": standings[player].score,
                "rank": standings[player].rank,
                "winner": standings[player].winner,
                "startPlayer": player == starter,
            }
            for player in session.players
        ],
    }
    minutes = duration_min(session, summary)
    if minutes is not None:
        found["durationMin"] = minutes
    if session.stopped_note:
        found["comments"] = session.stopped_note
    return found


def play_url(session: Session, summary: SessionSummary) -> str:
    """The link that opens BG Stats' "import a play" dialog with this game's result."""
    text = json.dumps(play(session, summary), ensure_ascii=False, separators=(",", ":"))
    return CREATE_PLAY + urllib.parse.quote(text, safe="")


def play_file(
    games: Iterable[tuple[Session, SessionSummary]],
    moment: float | None = None,
    counted: Mapping[str, bool] | None = None,
    copies: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The `.bgsplay` document of these finished games, in the order given: `counted` the table's
    choices (counted.json), `copies` {copy id: original id} (copies.json). A copy whose original
    is in the file is left out; any other copy goes under its original's play uuid."""
    games = list(games)
    copies = copies or {}
    here = {summary.id for _, summary in games}
    written = local_stamp(clock.now() if moment is None else moment)
    players: dict[str, dict[str, Any]] = {}
    kinds: dict[str, dict[str, Any]] = {}
    plays = []
    sent: set[str] = set()
    for session, summary in games:
        original = copies.get(summary.id)
        if original is not None and original in here:
            continue  # the same evening as its original, already in the file
        same = original if original is not None else summary.id
        if same in sent:
            continue  # two copies of one game not in the file: one play
        sent.add(same)
        rules = session.game
        kind = kinds.get(rules.id)
        if kind is None:
            kind = kinds[rules.id] = {
                "id": len(kinds) + 1,
                "uuid": game_uuid(rules.id),
                "name": rules.title,
                "highestWins": True,
                "noPoints": False,
                "cooperative": False,
                "usesTeams": False,
            }
            if rules.bgg_id is not None:
                kind["bggId"] = rules.bgg_id
        link = play(session, summary)
        scores = []
        for seat, seated in enumerate(link["players"]):
            person = players.setdefault(
                seated["sourcePlayerId"],
                {
                    "id": len(players) + 1,
                    "uuid": seated["sourcePlayerId"],
                    "name": seated["name"],
                    "isAnonymous": False,
                },
            )
            scores.append(
                {
                    "playerRefId": person["id"],
                    "score": str(seated["score"]),
                    "rank": seated["rank"],
                    "winner": seated["winner"],
                    "startPlayer": seated["startPlayer"],
                    "newPlayer": False,
                    "seatOrder": seat + 1,
                }
            )
        plays.append(
            {
                "uuid": play_uuid(same),
                "gameRefId": kind["id"],
                "playDate": local_stamp(summary.created),
                "playDateYmd": local_ymd(summary.created),
                "entryDate": written,
                "modificationDate": written,
                "durationMin": link.get("durationMin", 0),
                "ignored": not stats.is_counted(summary, counted),
                "manualWinner": False,
                "usesTeams": False,
                "comments": link.get("comments", ""),
                "playerScores": scores,
            }
        )
    return {
        "about": ABOUT,
        "players": list(players.values()),
        "locations": [],
        "games": list(kinds.values()),
        "plays": plays,
    }


def export_plays(store: Store, session_ids: Iterable[str] | None = None) -> bytes:
    """The `.bgsplay` file of the finished games (those listed, else all), oldest first; a game that
    cannot be read now is left out, as the JSON export leaves it out."""
    wanted = None if session_ids is None else set(session_ids)
    games = []
    for summary in sorted(store.finished(), key=lambda summary: (summary.created, summary.id)):
        if wanted is not None and summary.id not in wanted:
            continue
        try:
            games.append((store.peek(summary.id), summary))
        except StoreError:
            continue
    return encode(play_file(games, counted=stats.read_counted(store), copies=archive.read_copies(store)))

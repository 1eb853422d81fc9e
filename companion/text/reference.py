"""The rules reference: each game's rules in sections a screen can open at, in every language.

A section has an id ("loading", "winner"…) so a screen opens the reference where the
table is: the Load sheet at loading, an end screen at the winner and its tie-breaks.
Which sections a game has, and which one each place of the app opens, are facts of the
game (`Game.reference`, in `rules/<game>.py`), which the rules registry hands down here
(`use`): the text layer sits below the rules and imports none of them. The English text is here, one
template per title and body (`reference.<game>.<section>.title` / `.body`); French and
Spanish are in the catalogues like every other message. A body is paragraphs separated
by a blank line; a paragraph whose lines start with "- " is a list.

Besides the rules, every game's reference states the decisions the app takes where the
rules are silent or disagree ("What the app decides"; the README points here for them).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from companion.text.messages import SOURCE_LANGUAGE, register, template


class Described(Protocol):
    """What the reference reads of a game's reference (`rules.base.Reference`)."""

    @property
    def sections(self) -> tuple[str, ...]: ...

    def opening(self, place: str) -> str: ...


class Referenced(Protocol):
    """What the reference reads of a game (`rules.base.Game`)."""

    @property
    def reference(self) -> Described | None: ...


GAMES: Mapping[str, Referenced] = {}  # the rules registry's own mapping, once it is handed down


def use(games: Mapping[str, Referenced]) -> None:
    """Look games up in the rules registry (the mapping itself: a game added to it later is seen)."""
    global GAMES
    GAMES = games


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    paragraphs: tuple[str, ...]

    def lists(self) -> tuple[tuple[str, ...], ...]:
        """Each paragraph as its lines: one line for prose, one per item for a "- " list."""
        return tuple(tuple(paragraph.split("\n")) for paragraph in self.paragraphs)


def section_ids(game_id: str) -> tuple[str, ...]:
    """The sections of a game's reference in reading order (`Game.reference`); none for a game without one."""
    game = GAMES.get(game_id)
    return () if game is None or game.reference is None else game.reference.sections


def section(game_id: str, section_id: str, language: str = SOURCE_LANGUAGE) -> Section:
    if section_id not in section_ids(game_id):
        raise KeyError(f"{game_id} has no reference section {section_id!r}")
    title = template(f"reference.{game_id}.{section_id}.title", language) or section_id
    body = template(f"reference.{game_id}.{section_id}.body", language) or ""
    return Section(section_id, title, tuple(part.strip() for part in body.split("\n\n") if part.strip()))


def sections(game_id: str, language: str = SOURCE_LANGUAGE) -> list[Section]:
    """Every section of a game's reference, in reading order; none for a game without one."""
    return [section(game_id, section_id, language) for section_id in section_ids(game_id)]


def opening(game_id: str, place: str) -> str | None:
    """The section a place of the app opens at ("load" opens "loading"); None for a game without a reference."""
    game = GAMES.get(game_id)
    return None if game is None or game.reference is None else game.reference.opening(place)


class _Sections(Mapping[str, tuple[str, ...]]):
    """Each game's sections by game id, as the registry has them now: for screens that look
    a game's reference up by id (prefer `section_ids`)."""

    def __getitem__(self, game_id: str) -> tuple[str, ...]:
        found = section_ids(game_id)
        if not found:
            raise KeyError(game_id)
        return found

    def __iter__(self) -> Iterator[str]:
        return (game_id for game_id, game in GAMES.items() if game.reference is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


SECTIONS: Mapping[str, tuple[str, ...]] = _Sections()


register(
    SOURCE_LANGUAGE,
    {
        "reference.title": "Rules",
        # --- The Great Heartland Hauling Co. ------------------------------------------------
        "reference.heartland.turn.title": "A turn",
        "reference.heartland.turn.body": """\
A turn has three steps, always in this order: Move, then exactly one Action (load, unload \
or discard), then Refuel (draw back up to 5 cards; the app has nothing to record there).

The app records the move and the action, then "End turn". A turn ends once it has an \
action: a player who cannot load, unload or pay is towed, and a towed player discards.

Turns go round the table in seat order; a round is one turn for each player.""",
        "reference.heartland.moving.title": "Moving, and being towed",
        "reference.heartland.moving.body": """\
Move 1, 2 or 3 spaces orthogonally, never entering the same space twice in a turn, never \
stopping on another truck or on the Distribution Center (driving through is fine).

Pay with fuel cards or with cash, $1 per space (at most $3). Never both.

The sources differ on fuel: the French how-to blog wants cards adding up to exactly the spaces \
moved, at most 3 cards; the Spanish rulebook lets the cards add up to more, the truck \
still moving at most 3 spaces (the rest is lost). The app records the spaces moved and \
that fuel paid for them, not the cards: either way can be played.

A player who cannot move (no fuel, $0, or no legal place to stop) is towed to the \
Distribution Center, for free, and must take the Discard action. A player who moved and \
then cannot load, unload or pay is towed too; the move stays paid.""",
        "reference.heartland.loading.title": "Loading",
        "reference.heartland.loading.body": """\
Load one type of good per turn: 1 freight bill per cube of the Location's native good, \
2 bills per cube of any other good. No money changes hands.

A truck carries at most 8 cubes (6 with Short Haul). A Location holds at most 8 cubes.""",
        "reference.heartland.unloading.title": "Unloading and prices",
        "reference.heartland.unloading.body": """\
Unload one type of good per turn, only where that good is in demand, playing 1 freight \
bill per cube. The Location must have room (at most 8 cubes).

Each cube earns the price printed beside the demand icon. The app asks for that price \
and offers the one last paid for the good.""",
        "reference.heartland.discarding.title": "Discarding",
        "reference.heartland.discarding.body": """\
Discard any number of cards, even none, for $1.

The French how-to blog adds that a forced discard (after a tow, or when a player can \
neither load, unload nor pay) is free for a player with $0; the Spanish rulebook says \
nothing of it. The app follows the blog there.""",
        "reference.heartland.money.title": "Money and costs",
        "reference.heartland.money.body": """\
Each player starts with $5. During play money never goes below $0: a payment the player \
cannot afford is not allowed.

- Moving with cash: $1 per space (at most $3)
- Discarding: $1; a forced discard with $0 is free (the how-to blog's rule)
- Toll road (Alternate Routes): $1
- Weigh station (Alternate Routes): $1 per cube above 4 on the truck
- Upgrade (Truck Stops): the cost printed on its card
- Unloading earns the printed price for every cube""",
        "reference.heartland.target.title": "The money target by player count",
        "reference.heartland.target.body": """\
Reaching the money target starts the final round (see below): the game ends once it is \
played. The two sources disagree on the target for 4 players:

- 2 players: $50 (rulebook and blog)
- 3 players: $40 (rulebook and blog)
- 4 players: $40 in the rulebook, $30 in the how-to blog

The rulebook's target is the default; the blog's, or any amount the table agrees on, \
can be chosen when the game is set up. The game remembers which one it plays to.""",
        "reference.heartland.final_round.title": "The final round",
        "reference.heartland.final_round.body": """\
Reaching the target during your own turn triggers the end: that turn finishes, then \
every other player takes exactly one more turn, and the game ends.

The app shows who still plays, and the last turn of the game says so.""",
        "reference.heartland.penalties.title": "Cargo penalties",
        "reference.heartland.penalties.body": """\
At the end, every cube still on a truck costs money, as printed on the Distribution \
Center:

- corn and soybeans: $1 a cube
- cattle and pigs: $2 a cube

The final figure may go below $0; it is only used to rank.""",
        "reference.heartland.winner.title": "Winner and tie-breaks",
        "reference.heartland.winner.body": """\
The most money after cargo penalties wins.

Tied: the player with fewer cubes left on the truck wins. Still tied: the victory is \
shared.""",
        "reference.heartland.variants.title": "Variants",
        "reference.heartland.variants.body": """\
- Short Haul: trucks carry at most 6 cubes.
- Alternate Routes (the triangle side of the Locations): a toll road costs $1 to enter \
or leave through that edge; a weigh station costs $1 per cube above 4 on the truck; a \
closed road cannot be crossed. Both are paid while moving.
- Truck Stops: players + 2 Truck Stop cards are placed. A player whose move ends there \
may buy its upgrade for the printed cost: one upgrade per player per game, and each \
upgrade belongs to one player. The app takes the upgrade's name and cost from the card.
- Alternate board layouts, Fresh Start (the Distribution Center shuffled in) and \
Warehouse Mix (3 native cubes and 1 of each demanded good at each Location) change the \
set-up only: nothing to record.""",
        "reference.heartland.decisions.title": "What the app decides",
        "reference.heartland.decisions.body": """\
Where the sources disagree or say nothing, the app follows these decisions:

- The money target: the rulebook's by default ($50 for 2 players, $40 for 3 or 4); the \
blog's ($30 for 4) as an option; or a custom amount.
- The end is triggered the moment a player reaches the target during their own turn. A \
correction that lifts another player to the target counts at the start of that \
player's turn.
- The final cargo penalty may take a player below $0.
- A turn has an action: a move or a tow, then exactly one of load, unload or discard. \
A turn with no action is refused (the table may record it anyway).
- A player who moved and then cannot load, unload or pay is towed; the move stays paid.
- Tolls and weigh stations are paid while moving: after the move, before the action. An \
upgrade is bought where a move ends.
- The app asks for the price of each unload, since the printed prices differ from card \
to card.
- Corrections: money and cargo can be corrected at any time before the end, for any \
player, with a note; the log shows them as corrections. A cargo correction cannot take a \
good below 0, and goes past the truck's capacity only when recorded anyway.
- Record anyway: a refusal that is the table's call can be overruled, and the log says \
which rule it went against: truck capacity, one action per turn, move before action, \
one move per turn, when tolls, weigh stations and upgrades happen, a turn with no \
action. Truck Stop upgrades are why: their printed abilities can bend those rules. \
Facts are never overruled: whose turn it is, money below $0, cubes not carried, a \
variant not in play, a second upgrade or one another player owns, a towed truck loading \
or unloading at the Distribution Center, anything after the end.
- Stopping early: the table can stop the game; the standings as they stand, with cargo \
penalties, become final, and the log says it was stopped. Undo reopens the game.
- A game saved by the app's first version replays under its rules: a turn it ended with \
no action stands.""",
        # --- TransAmerica ---------------------------------------------------------------------
        "reference.transamerica.round.title": "A round",
        "reference.transamerica.round.body": """\
Each round every player gets 5 secret cities, one of each colour, and picks a start \
junction. In turn, players lay 1 or 2 track segments, extending their own network; a \
hard segment (over a mountain or a river) counts double and is the whole turn. Networks \
that meet are shared.

The track stays on the board: the app records only the end of each round.""",
        "reference.transamerica.round_end.title": "The end of a round",
        "reference.transamerica.round_end.body": """\
A round ends at once when a player connects all 5 of their cities, or when a player's \
track connects all the cities of another player. Several players can have nothing \
missing.

Then every player counts the segments still missing for their own shortest completion, \
ignoring the others' needs, hard segments counting 2. A player whose cities are all \
connected enters 0.""",
        "reference.transamerica.countdown.title": "The countdown",
        "reference.transamerica.countdown.body": """\
Every player starts the game with 13 points. At the end of each round each player loses \
one point per missing segment (2 for a hard one).

The app shows each player's points and warns when someone is close to 0.""",
        "reference.transamerica.start_player.title": "Who starts",
        "reference.transamerica.start_player.body": """\
The start player moves one seat clockwise each round (from the published rules). The \
app shows who starts the round.""",
        "reference.transamerica.end.title": "The end of the game",
        "reference.transamerica.end.body": """\
The game ends at the end of a round in which any player reaches 0 points or less. There \
is no extra round.""",
        "reference.transamerica.winner.title": "Winner and ties",
        "reference.transamerica.winner.body": """\
The most points left wins. Tied: every tied player wins; there is no tie-break.""",
        "reference.transamerica.variants.title": "Variants",
        "reference.transamerica.variants.body": """\
- With 2 or 3 players some city cards are removed.
- A variant gives each player 3 private track pieces.

Neither changes scoring, so both are played with the app as it is.""",
        "reference.transamerica.decisions.title": "What the app decides",
        "reference.transamerica.decisions.body": """\
Where the rules say nothing, the app follows these decisions:

- A round where nobody has 0 segments missing is refused: someone always ends a round.
- Points may go below 0 and are ranked as they are.
- Every tied player wins.
- The start player moves one seat each round (the published rules; the source is \
silent).
- Stopping early: the table can stop the game; the points as they stand become final, \
and the log says it was stopped. Undo reopens the game.
- A past round can be corrected until the game ends (tap its column in the round table): \
the points are counted again and the later rounds stay. A correction that would have \
ended the game before a round the table played is refused.""",
        # --- Great Plains ---------------------------------------------------------------------
        "reference.great_plains.setup.title": "Setting up",
        "reference.great_plains.setup.body": """\
Two tribes: Fox (orange) and Snake (blue), each with 20 tribe tokens and 3 caves. The \
9 animal spirits (3 Horse, 3 Eagle, 3 Bear) form a common supply.

The board is 7 random double-sided hex tiles. Players take turns placing caves, the \
first player first, until all 6 are down. The first player is chosen at set-up (or drawn \
by the app), whoever is the Fox.""",
        "reference.great_plains.turn.title": "A turn",
        "reference.great_plains.turn.body": """\
Place one tribe token on an empty plain or prairie space next to one of your caves or \
tokens. Mountains block.

A token placed on a spirit symbol takes that spirit from the supply, if one is left.""",
        "reference.great_plains.spirits.title": "Animal spirits",
        "reference.great_plains.spirits.body": """\
A spirit is used on a later turn, then goes back to the supply.

- Horse: place two spaces away instead of one.
- Eagle: place across one mountain space.
- Bear: push one adjacent enemy token one space straight back, only onto an empty space \
(not a mountain, not another token).

Spirits still held at the end break a tie.""",
        "reference.great_plains.end.title": "The end of the game",
        "reference.great_plains.end.body": """\
Play stops as soon as both players have placed all 20 tokens. The table then counts \
each prairie and enters it; the game is over when it confirms "Scoring done".""",
        "reference.great_plains.scoring.title": "Majorities and water",
        "reference.great_plains.scoring.body": """\
Score each prairie zone: the connected prairie spaces bounded by mountains or the edge \
of the board.

The player with the strict majority of tokens in the zone scores 1 point per space of \
the zone plus 1 per water source in it. A tie scores nothing for anyone.""",
        "reference.great_plains.winner.title": "Winner and tie-breaks",
        "reference.great_plains.winner.body": """\
The highest total wins. Tied: the player who kept more animal spirits wins. Still tied: \
the victory is shared.""",
        "reference.great_plains.variants.title": "Variants",
        "reference.great_plains.variants.body": """\
The board's 7 tiles are laid at random for every game; no variant changes what the app \
records.""",
        "reference.great_plains.decisions.title": "What the app decides",
        "reference.great_plains.decisions.body": """\
Where the rules say nothing, the app follows these decisions:

- Still tied after spirits, the victory is shared.
- Scored before it is won: once all 40 tokens are down the game enters scoring; nobody \
has won until the table confirms "Scoring done"; undoing it reopens the scoring.
- The first player is chosen at set-up, or drawn at random by the app, whoever is the \
Fox.
- A token placed on a spirit symbol with none left is still placed, without a spirit.
- A zone may leave a player out: their tokens there count 0. A zone with more tokens than \
spaces, or than were placed, is refused.
- Record anyway: using a spirit after the last token, or scoring a prairie before every \
token is down, is the table's call; the log says which rule it went against.
- Stopping early: the table can stop the game; the totals as they stand (the zones \
entered so far) become final, and the log says it was stopped. Undo reopens the game.
- A game saved by the app's first version that ended at its 40th token stays won, and \
still takes zones.""",
    },
)

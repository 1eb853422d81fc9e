"""Great Plains' rules reference in English, each section's title and body (a blank line between
paragraphs, "- " before each item of a list). Their order, and where each place of the app
opens them: `REFERENCE` in `great_plains.py`. French and Spanish are in the catalogues."""

TEXT = {
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
}

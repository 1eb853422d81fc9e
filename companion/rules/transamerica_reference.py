"""TransAmerica's rules reference in English, each section's title and body (a blank line between
paragraphs, "- " before each item of a list). Their order, and where each place of the app
opens them: `REFERENCE` in `transamerica.py`. French and Spanish are in the catalogues."""

TEXT = {
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
}

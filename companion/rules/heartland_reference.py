"""The Great Heartland Hauling Co.'s rules reference in English, each section's title and
body (a blank line between paragraphs, "- " before each item of a list). Their order, and
where each place of the app opens them: `REFERENCE` in `heartland.py`. French and Spanish
are in the catalogues."""

TEXT = {
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
}

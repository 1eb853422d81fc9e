"""TransAmerica's words on its screen, as English templates (French and Spanish: the catalogues).

Kept beside the screen that shows them (`transamerica.py`): it imports this
module, so they are registered whenever the screen is.
"""

from __future__ import annotations

from companion.text.messages import SOURCE_LANGUAGE, register

register(
    SOURCE_LANGUAGE,
    {
        # what its score chart counts (`CHART_CAPTION`)
        "ui.chart.caption.countdown": "Points left after each round; the game ends when someone reaches 0.",
        # New game: its options
        "ui.new.transamerica.about": "Everyone starts with 13 points; the start player moves one seat each round.",
        # its screen, its sheets and its end
        "ui.transamerica.missed_by": "Points {player} missed",
        "ui.transamerica.game_over": "Game over after {count} {count:round|rounds}",
        "ui.transamerica.subtitle": "Round {number} · {player} starts",
        "ui.transamerica.starter": "Round {number} starts with {player}.",
        "ui.transamerica.end_round": "End round {number}",
        "ui.transamerica.log_round": "round {number}",
        "ui.transamerica.close_to_zero": "close to 0!",
        "ui.transamerica.no_round": "No round played yet.",
        "ui.transamerica.player": "Player",
        "ui.transamerica.round_column": "R{number}",
        "ui.transamerica.left": "Left",
        "ui.transamerica.misses": "{player} misses {count}",
        "ui.transamerica.missing_hint": "Segments each player still misses (a hard one counts 2). Whoever connected "
        "all cities stays at 0.",
        "ui.transamerica.before_after": "{before} to {after}",
        "ui.transamerica.ends_game": "This ends the game: {players} at 0 or below.",
        "ui.transamerica.save_round": "Save round {number}",
        "ui.transamerica.round_title": "End of round {number}",
        "ui.transamerica.amend_title": "Correct round {number}",
        "ui.transamerica.save_amend": "Save round {number} corrected",
        "ui.transamerica.amend_tip": "Correct round {number}",
        "ui.transamerica.amend_hint": "Tap a round's heading to correct it.",
        "ui.transamerica.wins": "{player} wins with {count} {count:point|points}",
        "ui.transamerica.share": "{players} share the victory with {count} {count:point|points} each",
        "ui.transamerica.tie": "{players} tie on {score}: they share {ordinal} place (no tie-break).",
        "ui.transamerica.about": "The most points left wins; the game ends when a player reaches 0.",
    },
)

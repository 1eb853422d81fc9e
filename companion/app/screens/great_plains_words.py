"""Great Plains' words on its screen, as English templates (French and Spanish: the catalogues).

Kept beside the screen that shows them (`great_plains.py`): it imports this
module, so they are registered whenever the screen is.
"""

from __future__ import annotations

from companion.text.messages import SOURCE_LANGUAGE, register

register(
    SOURCE_LANGUAGE,
    {
        # what its score chart counts (`CHART_CAPTION`)
        "ui.chart.caption.zones": "Points after each scored zone.",
        # New game: its options
        "ui.new.great_plains.add_two": "Add the two players, then choose who plays Fox (orange).",
        "ui.new.great_plains.fox": "Fox (orange) — the other player is Snake (blue)",
        "ui.new.great_plains.is_fox": "{player} is Fox",
        "ui.new.great_plains.first": "{player} first",
        "ui.new.great_plains.draw": "Draw at random",
        "ui.new.great_plains.who_first": "Who places first (the rules draw it, apart from who is the Fox)",
        # its screen, its sheets and its end
        "ui.spirits": "{count} {count:spirit|spirits}",
        "ui.great_plains.fox": "Fox",
        "ui.great_plains.snake": "Snake",
        "ui.great_plains.horse": "Horse",
        "ui.great_plains.eagle": "Eagle",
        "ui.great_plains.bear": "Bear",
        "ui.great_plains.game_over": "Game over",
        "ui.great_plains.scoring_phase": "Scoring the prairies",
        "ui.great_plains.subtitle_cave": "{tribe}'s turn ({player}) · cave",
        "ui.great_plains.subtitle_token": "{tribe}'s turn ({player}) · token",
        "ui.great_plains.scoring_done": "Scoring done",
        "ui.great_plains.held": "{spirit} {count}",
        "ui.great_plains.use": "Use {spirit} {count}",
        "ui.great_plains.playing": "Playing: {tribe}",
        "ui.great_plains.tokens_left": "tokens left (placed {placed}/{total})",
        "ui.great_plains.points_word": "{count:point|points} (every token placed)",
        "ui.great_plains.caves": "caves {placed}/{total}",
        "ui.great_plains.zones_won": "{count} {count:zone|zones} won",
        "ui.great_plains.spirits_kept": "{count} {count:spirit|spirits} kept",
        "ui.great_plains.place_cave": "Place cave ({number} of 6) · {player}",
        "ui.great_plains.token_spirit": "+ {spirit}",
        "ui.great_plains.token_spirit_none": "+ {spirit} (none left)",
        "ui.great_plains.place_token": "Place token · {player}",
        "ui.great_plains.no_zone_yet": "No prairie zone counted yet: add each one with + Zone. Record anyway to end "
        "the game 0–0.",
        "ui.great_plains.caves_first": "Tokens, and the spirits on their symbols, come once all six caves are placed.",
        "ui.great_plains.on_spirit": "Token on a spirit symbol:",
        "ui.great_plains.supply": "Spirits in the supply: {spirits}",
        "ui.great_plains.zone_line": "Zone {number}: {spaces} {spaces:space|spaces} · {score} · {outcome}",
        "ui.great_plains.zone_line_water": "Zone {number}: {spaces} {spaces:space|spaces} +{water} water · {score} · "
        "{outcome}",
        "ui.great_plains.zone_tie": "tie, nobody scores",
        "ui.great_plains.zone_won": "{tribe} +{points}",
        "ui.great_plains.scoring": "Scoring (prairie zones; tokens {order})",
        "ui.great_plains.add_zone": "+ Zone",
        "ui.great_plains.wins": "{player} ({tribe}) wins {score}",
        "ui.great_plains.share": "{players} share the victory",
        "ui.great_plains.more_spirits": "more spirits kept",
        "ui.great_plains.scoring_hint": "Every token is down. Count each prairie zone and add it with + Zone, then tap "
        "Scoring done.",
        "ui.great_plains.zone_missed": "A zone missed? Undo “Scoring done”, add the zone, then tap Scoring done again.",
        "ui.great_plains.zone_missed_later": "A zone missed? Open the game, undo “Scoring done”, add the zone, then "
        "tap "
        "Scoring done again.",
        "ui.great_plains.spaces": "Spaces",
        "ui.great_plains.water": "Water sources",
        "ui.great_plains.tribe_tokens": "{tribe} tokens",
        "ui.great_plains.preview_tie": "Tied {score}: nobody scores this zone.",
        "ui.great_plains.preview_win": "{tribe} ({player}) scores {points}.",
        "ui.great_plains.zone_save": "Add zone",
        "ui.great_plains.zone_title": "Add a prairie zone",
        "ui.great_plains.amend_title": "Correct zone {number}",
        "ui.great_plains.amend_save": "Save zone {number} corrected",
        "ui.great_plains.amend_tip": "Correct zone {number}",
        "ui.great_plains.amend_hint": "Zones counted, in order; tap one to correct it.",
    },
)

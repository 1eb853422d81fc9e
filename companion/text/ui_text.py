"""The screens' words, as English templates; French and Spanish are in the catalogues.

These are the words of every game's screens and of the app's own; a game's own words sit
beside its screen (`app/screens/<game>_words.py`), registered whenever that screen is.

Screens show them with `companion.text.i18n.t(id, language, **params)`; amounts of money come
in already written by `companion.text.i18n.money`, so a template says "Toll {cost}".
"""

from __future__ import annotations

from companion.text.messages import SOURCE_LANGUAGE, register

register(
    SOURCE_LANGUAGE,
    {
        # --- everywhere ---------------------------------------------------------------------
        "ui.app.title": "Companion",
        "ui.back_home": "Back to all games",
        "ui.undo": "Undo",
        "ui.undo.what": "Undo: {sentence}",
        "ui.undo.nothing": "Nothing to undo",
        "ui.redo.what": "Redo: {sentence}",
        "ui.redo.nothing": "Nothing to redo",
        "ui.log": "Session log",
        "ui.log.nothing": "Nothing recorded yet.",
        "ui.log.last": "Last: {sentence}",
        "ui.log.older": "Show the {count} older {count:line|lines}",
        "ui.rules": "Rules",
        "ui.rules.open": "The rules of {title}",
        "ui.rules.back": "Back",
        "ui.dismiss": "Dismiss",
        "ui.close": "Close",
        "ui.close.tip": "Close without recording anything",
        "ui.record_anyway": "Record anyway",
        "ui.record_anyway.tip": "The table decides: record it as tapped, noting the rule it goes against",
        "ui.number.other": "Other",
        "ui.number.other_for": "{what}, another number",
        "ui.number.chip": "{what}: {value}",
        "ui.number.range": "From {low} to {high}.",
        "ui.play_again": "Play again",
        "ui.play_again.tip": "A new game with {players}, same seats and options",
        "ui.stop": "Stop game",
        "ui.stop.tip": "End the game now: the standings as they stand become final",
        "ui.stop.why": "Why (for the log)",
        "ui.stop.default_note": "stopped by the table",
        "ui.stop.confirm": "Stop the game",
        "ui.stop.hint": "The standings as they stand become final. Undo reopens the game.",
        "ui.stop.title": "Stop the game?",
        "ui.stop.stopped": "Stopped early: {note}",
        "ui.winner_mark": "{line} — winner",
        "ui.rank": "{ordinal} {player}",
        "ui.ordinal.1": "1st",
        "ui.ordinal.2": "2nd",
        "ui.ordinal.3": "3rd",
        "ui.ordinal.n": "{rank}th",
        "ui.points": "{count} {count:point|points}",
        "ui.in_progress": "in progress",
        # The form a game without a screen of its own records its events with (screens/generic.py).
        "ui.generic.yes": "Yes",
        "ui.generic.no": "No",
        "ui.generic.save": "Record",
        "ui.generic.unknown": "Nothing to record here",
        "ui.no_game_open": "No game is open.",
        "ui.not_saved": "The game could not be saved: {reason}.",
        "ui.not_recorded": "Not saved, so not recorded: {reason}.",
        "ui.closed": "This game was closed; open it again to keep recording.",
        "ui.deleted": "The game was deleted.",
        # --- sharing with the table's phones ------------------------------------------------
        "ui.share": "Share with the table",
        "ui.share.viewer": "You follow this game. The host can let you keep score.",
        "ui.share.keeper": "You keep score with the host.",
        "ui.share.off": "This game is not shared.",
        "ui.share.ask": "Sharing opens this game on your local network: phones on the same Wi-Fi scan a code, then "
        "follow the game, and you choose who may keep score. It stays open until you stop sharing "
        "or leave the game.",
        "ui.share.start": "Start sharing",
        "ui.share.start.tip": "Starts listening on this network and shows the code",
        "ui.share.stays": "Shared: phones can join until you stop sharing, even with this sheet closed.",
        "ui.share.still_on": "Still shared on the local network (code {code}): phones can join. "
        "The share button at the top shows the code again and stops sharing.",
        "ui.share.hint": "Phones on this Wi-Fi scan the code, or open the address and type the code.",
        "ui.share.code": "Code",
        "ui.share.connected": "Connected",
        "ui.share.stop": "Stop sharing",
        "ui.share.stop.tip": "Every phone is told, and the address closes",
        "ui.share.nobody": "No phone yet.",
        "ui.share.keeps_score": "keeps score",
        "ui.share.follows": "follows",
        "ui.share.stop_keeping": "Stop {name} keeping score",
        "ui.share.let_keep": "Let {name} keep score",
        "ui.share.then_follows": "{name} then only follows the game",
        "ui.share.then_records": "{name} can then record and undo, as on this screen",
        "ui.share.stopped": "The host stopped sharing this game.",
        "ui.share.ask_again": "Ask for a new code to follow it again.",
        # --- the page a phone opens to join a shared game -----------------------------------
        "ui.join.heading": "Join the game",
        "ui.join.your_name": "Your name",
        "ui.join.join": "Join",
        "ui.join.intro_link": "Type your name to follow the game on this phone.",
        "ui.join.intro_code": "Type the code shown on the host's screen, and your name.",
        "ui.join.link_gone": "This link no longer opens a game: type the code instead.",
        # --- ties --------------------------------------------------------------------------
        "ui.tie.shared_win": "{players} tie on {score} and on {decider} ({figures}): they share the victory.",
        "ui.tie.shared_place": "{players} tie on {score} and on {decider} ({figures}): they share {ordinal} place.",
        "ui.tie.decided": "{players} tie on {score}; {decider} decides: {order}.",
        # --- home --------------------------------------------------------------------------
        "ui.home.in_progress": "In progress",
        "ui.home.finished": "Finished",
        "ui.home.more_finished": "Show {count} older finished {count:game|games}",
        "ui.home.more_finished_of": "Show {count} of the {total} older finished games",
        "ui.home.more_in_progress": "Show {count} other {count:game|games} in progress",
        "ui.home.more_in_progress_of": "Show {count} of the {total} other games in progress",
        "ui.home.search": "Search games or players",
        "ui.home.no_match": "No game matches “{search}”.",
        "ui.home.empty": "No games yet. Start one below; every tap is saved as you play.",
        "ui.home.new_game": "+ New game",
        "ui.home.quarantined": "{count} saved game {count:file|files} could not be read and {count:was|were} set aside "
        "in the quarantine folder; every other game is here.",
        "ui.home.lost_damaged": "{game}: {count} {count:change|changes} could not be read; the damaged file is kept "
        "in {path}.",
        "ui.home.lost_torn": "{game}: its last change was cut short and probably never saved; the file as it was is "
        "kept in {path}.",
        "ui.home.lost_altered": "{game}: its saved file was changed on the disk and may not be exactly as played; the "
        "damaged file is kept in {path}.",
        # A side file read damaged (store/side_file.py): which one, and what statistics lost with it.
        "ui.home.side.players.damaged": "Renamed players (players.json): {count} {count:rename|renames} could not be "
        "read, so {count:that player appears|those players appear} under the name they played with. The damaged file "
        "is "
        "kept in {path}; restoring an earlier backup brings back what it lost.",
        "ui.home.side.players.unknown": "Renamed players (players.json): the file was damaged and its renames could "
        "not "
        "all be read; a player whose rename was lost appears under the name they played with. The damaged file is kept "
        "in {path}; restoring an earlier backup brings back what it lost.",
        "ui.home.side.players.altered": "Renamed players (players.json): the file was changed on the disk; its renames "
        "were read but may not be exactly as made. The damaged file is kept in {path}.",
        "ui.home.side.counted.damaged": "Games counted in statistics (counted.json): {count} {count:choice|choices} to "
        "count a game or leave it out could not be read, so {count:that game counts|those games count} as by default. "
        "The damaged file is kept in {path}; restoring an earlier backup brings back what it lost.",
        "ui.home.side.counted.unknown": "Games counted in statistics (counted.json): the file was damaged and its "
        "choices "
        "to count a game or leave it out could not all be read; a game whose choice was lost counts as by default. The "
        "damaged file is kept in {path}; restoring an earlier backup brings back what it lost.",
        "ui.home.side.counted.altered": "Games counted in statistics (counted.json): the file was changed on the disk; "
        "its choices were read but may not be exactly as made. The damaged file is kept in {path}.",
        "ui.home.side.copies.damaged": "Imported copies (copies.json): {count} {count:game|games} imported as a copy "
        "{count:is|are} no longer known as such and may be counted twice in statistics. The damaged file is kept in "
        "{path}; restoring an earlier backup brings back what it lost.",
        "ui.home.side.copies.unknown": "Imported copies (copies.json): the file was damaged and the games imported "
        "as a "
        "copy could not all be read; one whose note was lost may be counted twice in statistics. The damaged file is "
        "kept in {path}; restoring an earlier backup brings back what it lost.",
        "ui.home.side.copies.altered": "Imported copies (copies.json): the file was changed on the disk; its copies "
        "were "
        "read but may not be exactly as imported. The damaged file is kept in {path}.",
        "ui.home.side.titles.damaged": "Title changes (titles.json): when {count} {count:title was|titles were} "
        "changed "
        "could not be read; an import may then give {count:that game|those games} the other device's title. The "
        "damaged "
        "file is kept in {path}; restoring an earlier backup brings back what it lost.",
        "ui.home.side.titles.unknown": "Title changes (titles.json): the file was damaged and when titles were changed "
        "could not all be read; an import may then give such a game the other device's title. The damaged file is kept "
        "in {path}; restoring an earlier backup brings back what it lost.",
        "ui.home.side.titles.altered": "Title changes (titles.json): the file was changed on the disk; when titles "
        "were "
        "changed was read but may not be exactly as saved. The damaged file is kept in {path}.",
        "ui.home.newer": "{count} saved {count:game was|games were} made by a newer version of Companion: update the "
        "app "
        "to see {count:it|them}. Nothing was changed.",
        "ui.home.won": "{players} won {score}",
        "ui.home.shared": "{players} shared the win {score}",
        "ui.home.last_played": "last played {date} ({ago})",
        "ui.home.delete": "Delete",
        "ui.home.delete.tip": "Delete {title}",
        "ui.home.delete.confirm": "Delete {title}? This cannot be undone.",
        "ui.home.keep": "Keep",
        "ui.ago.now": "just now",
        "ui.ago.minutes": "{count} {count:minute|minutes} ago",
        "ui.ago.hours": "{count} {count:hour|hours} ago",
        "ui.ago.days": "{count} {count:day|days} ago",
        # --- settings ----------------------------------------------------------------------
        "ui.settings": "Settings",
        "ui.settings.language": "Language",
        "ui.settings.device": "As the device ({name})",
        "ui.settings.language.tip": "Show Companion in {name}",
        # --- new game ----------------------------------------------------------------------
        "ui.new.title": "New game",
        "ui.new.game": "Game",
        "ui.new.players_range": "{low}–{high} players",
        "ui.new.players_exact": "{count} players",
        "ui.new.players": "Players, in seat order (the first plays first)",
        "ui.new.player_name": "Player name",
        "ui.new.add": "Add",
        "ui.new.played_before": "Played before:",
        "ui.new.add_known": "Add {name}",
        "ui.new.playing": "{name} is playing",
        "ui.new.colour": "{name}'s colour: {colour}. Tap for the next free colour",
        "ui.new.random_first": "Random first player",
        "ui.new.random_first.tip": "Draws who plays first; the seats turn so they sit first",
        "ui.new.drawn": "Drawn at random: {player} plays first.",
        "ui.new.options_below": "Options below",
        "ui.new.up": "Move {name} up",
        "ui.new.down": "Move {name} down",
        "ui.new.remove": "Remove {name}",
        "ui.new.type_a_name": "Type a name first.",
        "ui.new.already_playing": "{name} is already playing; each name must be different.",
        "ui.new.start": "Start game",
        # --- after the game: a game's detail, statistics, export and import -----------------
        "ui.detail.title": "Finished game",
        "ui.detail.show": "Chart, log, BG Stats",
        "ui.detail.bgstats": "Send to BG Stats",
        "ui.detail.bgstats.tip": "Opens BG Stats with this play filled in",
        "ui.detail.bgstats.failed": "BG Stats could not be opened here. The link: {url}",
        "ui.detail.open_game": "Open the game",
        "ui.detail.open_game.tip": "Open it as it was played: undo its last act, or play again",
        "ui.chart.title": "Score over the game",
        "ui.chart.caption.final": "The final scores.",
        "ui.chart.start": "Start",
        "ui.chart.round": "R{number}",
        "ui.chart.zone": "Z{number}",
        "ui.chart.cargo": "Cargo",
        "ui.chart.end": "End",
        "ui.chart.legend": "{player}: {score}",
        "ui.chart.nothing": "Nothing was scored in this game.",
        "ui.stats": "Statistics",
        "ui.stats.all_games": "All games",
        "ui.stats.period.all": "All time",
        "ui.stats.period.month": "Last 30 days",
        "ui.stats.period.year": "This year",
        "ui.stats.period.last_year": "Last year",
        "ui.stats.period.of_year": "The games of {year}",
        "ui.stats.none": "No finished game here yet.",
        "ui.stats.from": "From {day}",
        "ui.stats.from.none": "From …",
        "ui.stats.to": "to {day}",
        "ui.stats.to.none": "to …",
        "ui.stats.from.tip": "The first day of the games counted",
        "ui.stats.to.tip": "The last day of the games counted (included)",
        "ui.stats.range.reversed": "The last day, {end}, is before the first, {start}: pick a day on or after {start}.",
        "ui.stats.plays": "{count} {count:game|games} played",
        "ui.stats.overview": "{plays} · {length}",
        "ui.stats.length.rounds": "rounds per game: {length}",
        "ui.stats.length.zones": "zones per game: {length}",
        "ui.stats.record": "{plays} played · {wins} won ({percent}%)",
        "ui.stats.scores": "Average score {average} · best {best}",
        "ui.stats.head_to_head": "Head to head",
        "ui.stats.rename": "Rename",
        "ui.stats.rename.tip": "Rename {player}: their games come along",
        "ui.stats.rename.title": "Rename {player}",
        "ui.stats.rename.hint": "{player}'s games count under the new name; a name already played merges the two.",
        "ui.stats.rename.new": "New name",
        "ui.stats.renamed": "{old} is now {new}; their games came along.",
        "ui.archive": "Your games: export, import, backups",
        "ui.settings.sync": "Sync",
        "ui.settings.sync.about": "Keep your games on every device through your own CouchDB server. Nothing is sent "
        "anywhere until you turn sync on.",
        "ui.settings.sync.url": "Server address",
        "ui.settings.sync.url.hint": "https://couch.example.org:6984, or a setup link",
        "ui.settings.sync.database": "Database",
        "ui.settings.sync.user": "User name",
        "ui.settings.sync.password": "Password",
        "ui.settings.sync.test": "Test",
        "ui.settings.sync.on": "Turn sync on",
        "ui.settings.sync.now": "Sync now",
        "ui.settings.sync.off": "Turn sync off",
        "ui.settings.sync.status.never": "Syncing with {server}: not synced yet.",
        "ui.settings.sync.status.ok": "Syncing with {server}: last synced {when}.",
        "ui.settings.sync.status.busy": "Syncing with {server}…",
        "ui.settings.sync.progress.taking": "Taking what changed there: {done} of {total}",
        "ui.settings.sync.progress.sending": "Sending what changed here: {done} of {total}",
        "ui.settings.sync.fault": "Not synced: {reason}",
        "ui.settings.sync.not_encrypted": "This address is not encrypted: use it only on this device or your own "
        "network.",
        "ui.settings.sync.link": "To set up another device, paste this link as its server address (the password is "
        "typed there):",
        "ui.archive.export": "Export",
        "ui.archive.export_json": "Every game (JSON)",
        "ui.archive.export_csv": "Results (CSV)",
        "ui.archive.export_xlsx": "Results (Excel)",
        "ui.archive.saved": "Saved in {path}",
        "ui.archive.save_copy": "Save a copy elsewhere",
        "ui.archive.no_dialog": "No file dialog here: use the files in the exports folder of the data folder.",
        "ui.archive.import": "Import",
        "ui.archive.pick": "Choose a file",
        "ui.archive.import_this.tip": "Import {name}",
        "ui.archive.unreadable": "{name} could not be read: {reason}",
        "ui.archive.upload_timeout": "it did not arrive in 10 minutes",
        "ui.archive.not_received": "the browser could not send it to the app",
        "ui.archive.progress.exporting": "Exporting: {done} of {total} games",
        "ui.archive.progress.receiving": "Receiving the file: {done} of {total} MB",
        "ui.archive.progress.replaying": "Replaying by the rules: {done} of {total} games",
        "ui.archive.progress.exporting_start": "Exporting…",
        "ui.archive.progress.replaying_start": "Replaying by the rules…",
        "ui.archive.progress.saving_start": "Saving…",
        "ui.archive.progress.saving": "Saving {total} {total:game|games}…",
        "ui.archive.busy_import": "An import is under way: import the next file once it is done.",
        "ui.archive.busy_export": "An export is under way: export again once it is done.",
        "ui.archive.importing": "Importing {name} ({size} MB): every game is replayed by the rules first…",
        "ui.archive.report": "{imported} imported · {duplicates} already here · {refused} refused",
        "ui.archive.refused": "Refused, {session}: {reason}",
        "ui.archive.updated": "Brought up to date, {game}: the file holds it played on further; the longer one is "
        "kept.",
        "ui.archive.kept": "Kept as it is here, {game}: the file holds the same game, no further along.",
        "ui.archive.copies": "Added as a copy, {game}: it parts ways with the one here, which is kept; "
        "statistics count the game once.",
        "ui.archive.changed": "Left as it is, {game}: it changed since the backup.",
        "ui.archive.retitled": "Retitled, {game}: the file's title is the later change (it was {title} here).",
        "ui.archive.titles_kept": "Kept as it is here, {game}: the title here is kept; the file's, {title}, is not a "
        "later change.",
        "ui.archive.name_kept": "{player} is counted as {here} here and as {file} in the file: {here} is kept.",
        "ui.archive.side_taken.players": "From the file: {count} {count:rename|renames} of players.",
        "ui.archive.side_taken.counted": "From the file: {count} {count:choice|choices} to count a game or leave it "
        "out.",
        "ui.archive.side_taken.copies": "From the file: {count} {count:note|notes} of a game imported as a copy, so "
        "statistics count each game once.",
        "ui.archive.side_restored.players": "Brought back from the backup: {count} {count:rename|renames} that "
        "players.json had lost.",
        "ui.archive.side_restored.counted": "Brought back from the backup: {count} {count:choice|choices} to count a "
        "game or leave it out that counted.json had lost.",
        "ui.archive.side_restored.copies": "Brought back from the backup: {count} {count:note|notes} of a game "
        "imported as a copy that copies.json had lost.",
        "ui.archive.side_restored.titles": "Brought back from the backup: when {count} {count:title was|titles were} "
        "changed, which titles.json had lost.",
        "ui.archive.backups": "Backups (one a day the app is used, the last 7 kept)",
        "ui.archive.no_backups": "No backup yet: one is made each day the app is used.",
        "ui.archive.restore": "Restore",
        "ui.archive.restore.tip": "Bring back the games of {day} that are missing; a game changed since stays as it is",
    },
)

"""Companion: follows a physical board game in progress, one event at a time.

The house in layers, lowest first, each importing only its own and those below it
(tests/test_layers.py): `text` (every word; the rules hand their games down), `rules` (the
games: pure functions), `clock`, `session` (with `session_states`), `store`, `aftergame`,
then `app` (the Flet UI and the web door), `browser` and `publish` (the phone build), and
the ways in, `cli` and `__main__`. Each package's docstring says how it is built.

`session.py`: a session is an event log plus an undo cursor; the state is always the replay
of the applied events. `apply`, `undo` and `redo` are the only ways to change it; a refused
event raises `RuleError` with a sentence a player understands (and `overridable` when the
table may record it anyway), and changes nothing. Every change bumps `version`; a screen
passes the version it was drawn from (`at=`), so a tap on a screen another tab or phone has
overtaken records nothing (`StaleError`: "This game changed on another screen; nothing was
recorded."), even when two threads change it at the same moment (a session makes one change
at a time). An open session keeps a state every 64 events and replays the rest on demand
(`session_states.py`, with the two caches that pay for a long log and the figures they buy).

`clock.py`: the table clock, a game's marks (start, pause, resume, end…) read into its
playing time, pure functions; a session keeps them beside its events, outside the undo
cursor, and every clock change goes through `session.apply` like a move (`{"type": "clock",
"mark": "pause"}`). The index keeps each finished game's end (`finished`) and playing time
(`played`, seconds), so statistics never replay a game; `SessionSummary.finished` /
`.played` carry them. `app/clock_chip.py` draws it (it alone is redrawn every 15 s while the
clock runs).

`app/` (a namespace package: no `__init__`) is the Flet 1.0 UI, as components. The page's
state is observable (`state.py`) and changed only by intents (`intents.py`,
`after_intents.py`: the one write path for games stays `Session.apply/undo/redo` with the
stale check, `stale.py`); each screen is a component of a frozen `View` (state, language,
theme, intents; `view.py`), language and theme come by context (`shell.py`), the share glue
has its own room (`share_glue.py`); a screen writes nothing itself (tests/test_layers.py
checks it). A game's screen is `screens/<game>.py`, found through `screens/registry.py`;
keyed controls and memoized cards mean a change sends only the difference: nothing moves
under the finger. `flet_diff.py` walks the controls Flet 1.0.5's diff adds and removes the
same way Flet does, only quicker (each class's fields named once, plain values stepped
over); a test checks it against Flet's own walks, and another Flet keeps them. `mirror.py`
draws the phones on the shared game once for all phones alike: a page with no browser per
kind (watching or keeping score, language, theme, layout) is drawn as such a phone, and its
patches go as the same bytes to every phone of that kind; a phone's own tap, a sheet or a
new role gives it a drawing of its own, taking over what its client holds (nothing moves,
nothing is sent again), and it follows again from its socket's next drop. Every name of
Flet's inside these use is in `flet_private.py`, with the Flet it was read from: on another,
the app starts all the same and each phone draws its own page. A scorekeeper's
tap still acts only on a version its own browser confirmed. Input sheets are modal dialogs
with Close and the confirm button pinned at the bottom; a refusal shows in a fixed slot with
"Record anyway" when the table may overrule it. From 900 px (`widgets.WIDE`: a desktop
window, a tablet) a game's screen stands in three columns (`layout.screen(...,
beside=...)`); Home, New game, the statistics, a player's page and a finished game's detail
stand in columns of their own (`wide.py`), each as tall as the window, and a sheet is a
centred dialog 600 px wide. The layout is chosen by width alone (so it is part of a phone's
kind in `mirror.py`) from the same state: a window resized across the line keeps what was
shown and typed. A dropped socket keeps the game; a reload or a server restart reopens the
same game and sheet and takes the wake lock again. `theme.py` pairs each player colour with
a shade per theme (4.5:1 contrast in light and dark). `web/` is the web door, uvicorn in
front of Flet's FastAPI app (its rooms: `app/web/__init__.py`); `share.py` holds join
codes, guests and roles. Home draws a page of each part of the list (unfinished games
first, newest first) in a `ListView`; each card is a memoized component, so a tap redraws
only the cards that changed. `companion` reads the list once in the background while the
client loads.
"""

from companion.rules import GAMES
from companion.rules.base import Standing
from companion.session import Session
from companion.text.messages import Message, RuleError

__all__ = ["GAMES", "Message", "RuleError", "Session", "Standing"]

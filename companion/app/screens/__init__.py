"""The screens: home, new game, settings, one screen module per game, and after the game a
finished game's detail and the statistics (with export, import and backups).

`dispatch` says which screen shows what and `registry` finds a game's screen (its module's
`SCREEN`). Nothing is imported here: the screens import each other through this package.
"""

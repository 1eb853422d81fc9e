"""After the game, above the store: export, import and backups (`archive`), statistics
(`stats`) and the BG Stats link (`bgstats`). They read the saved games through the store;
a finished game's result is kept in the index by the store itself (`store/results.py`).
"""

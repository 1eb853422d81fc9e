"""Where the saved games live.

1. `--data DIR` on the command line, when given;
2. `FLET_APP_STORAGE_DATA`, set by Flet for built apps and `flet run`;
3. the platform's user data folder (`platformdirs`), e.g. `~/.local/share/Companion`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

APP_NAME = "Companion"
ENV_VAR = "FLET_APP_STORAGE_DATA"


def data_option(argv: Sequence[str]) -> str | None:
    """The value of `--data DIR` or `--data=DIR` in `argv` (the last one wins), else None."""
    found: str | None = None
    for position, argument in enumerate(argv):
        if argument == "--data" and position + 1 < len(argv):
            found = argv[position + 1]
        elif argument.startswith("--data="):
            found = argument[len("--data=") :]
    return found or None


def default_data_dir(
    argv_override: str | os.PathLike[str] | None = None, *, environ: Mapping[str, str] | None = None
) -> Path:
    """The data folder: `argv_override` (the `--data` value) if given, else the Flet folder, else the user's."""
    if argv_override:
        return Path(argv_override).expanduser()
    env = os.environ if environ is None else environ
    flet_dir = env.get(ENV_VAR)
    if flet_dir:
        return Path(flet_dir)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))

"""Shared steps for the in-process screen tests: an app on a fresh store, a game set up
through the New game screen the way a player would, and what the screen says."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from typing import Any

from flet_harness import Screen, run, wait_for

from companion.app.data import AppData
from companion.app.main import make_main
from companion.app.widgets import slug
from companion.store import Store

GAME_KEYS = {"heartland": "game-heartland", "transamerica": "game-transamerica", "great_plains": "game-great_plains"}


def table(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async scenario as a plain (sync) pytest test; fixtures still reach it."""

    @functools.wraps(test)
    def sync(*args: Any, **kwargs: Any) -> None:
        run(test(*args, **kwargs))

    return sync


def memory_app() -> AppData:
    return AppData(Store.in_memory())


@contextlib.asynccontextmanager
async def app_screen(data: AppData | None = None) -> AsyncIterator[Screen]:
    async with Screen(make_main(data if data is not None else memory_app())) as screen:
        yield screen


async def add_players(screen: Screen, players: Iterable[str]) -> None:
    for name in players:
        await screen.type("player-name", name)
        await screen.tap("add-player")


async def set_up(
    screen: Screen,
    game: str,
    players: Iterable[str],
    *,
    target: str | None = None,
    switches: Iterable[str] = (),
    fox: str | None = None,
) -> None:
    """From the home screen: New game, pick the game, add the players, set the options."""
    await screen.tap("new-game")
    await screen.tap(GAME_KEYS[game])
    await add_players(screen, players)
    if target is not None:
        await screen.tap(f"target-{target}")
    for name in switches:
        await screen.toggle(f"option-{name}", True)
    if fox is not None:
        await screen.tap(f"fox-{slug(fox)}")


async def start_game(screen: Screen, game: str, players: Iterable[str], **options: Any) -> None:
    await set_up(screen, game, players, **options)
    await screen.tap("start")
    assert not screen.exists("start"), notice(screen)


@contextlib.asynccontextmanager
async def playing(
    game: str, players: Iterable[str], data: AppData | None = None, **options: Any
) -> AsyncIterator[Screen]:
    """A fresh app with one game started through the New game screen."""
    async with app_screen(data) as screen:
        await start_game(screen, game, players, **options)
        yield screen


def notice(screen: Screen) -> str | None:
    """The refusal or warning on screen (in the floating slot, or an open sheet's), if any."""
    shown = [text for control in screen.find_all("notice", visible_only=True) if (text := control.value)]
    assert len(shown) <= 1, f"two notices at once: {shown}"
    return shown[0] if shown else None


def last_act(screen: Screen) -> str:
    return screen.text_of("last-act")


def undo_tip(screen: Screen) -> str:
    return str(screen.find("undo").tooltip)


def redo_tip(screen: Screen) -> str:
    return str(screen.find("redo").tooltip)


def log_blocks(screen: Screen) -> list[Any]:
    """The log's Texts as shown, newest first: each holds up to 50 lines, one sentence a line."""
    return screen.find_all(where=lambda c: str(getattr(c, "key", None)).startswith("log-block-"), visible_only=True)


def log_lines(screen: Screen) -> list[str]:
    """The session log as shown, newest first: every line the reader sees, top to bottom."""
    return [line for block in log_blocks(screen) for line in str(block.value).split("\n")]


def log_line(screen: Screen, number: int) -> str | None:
    """Line `number` of the log as the reader sees it ("3. Ann ended the turn ..."), or None when not shown."""
    return next((line for line in log_lines(screen) if line.startswith(f"{number}. ")), None)


async def refused(screen: Screen, key: str) -> str:
    """Tap a button the rules refuse right now: nothing is recorded and the notice says why."""
    before = last_act(screen), undo_tip(screen)
    await screen.tap(key)
    why = notice(screen)
    assert why, f"tapping {key!r} showed no refusal"
    assert (last_act(screen), undo_tip(screen)) == before, f"tapping {key!r} recorded something"
    return why


async def pick_count(screen: Screen, key: str, count: int) -> int:
    """A count in a sheet: its chip when there is one, else typed in the field beside; the taps it took."""
    if screen.exists(f"{key}-{count}"):
        await screen.tap(f"{key}-{count}")
    else:
        await screen.type(f"{key}-typed", str(count))
    return 1


async def exported(screen: Screen, key: str, timeout: float = 20.0) -> None:
    """Tap an export button and wait until the export it started is done (it runs off the page's
    thread): the sheet says where it was saved, or the notice says why not."""
    before = screen.text_of("export-saved") if screen.exists("export-saved") else None
    await screen.tap(key)

    def done() -> bool:
        saved = screen.text_of("export-saved") if screen.exists("export-saved") else None
        return (saved is not None and saved != before) or notice(screen) is not None

    await wait_for(done, timeout=timeout)


async def imported(screen: Screen, data: Any, timeout: float = 20.0) -> str:
    """The report line once the import the last tap started is done (it runs off the page's thread)."""
    await screen.settle()
    await wait_for(lambda: data.importing == 0, timeout=timeout)
    await screen.settle()
    return screen.text_of("import-report")

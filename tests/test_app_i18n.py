"""The screens in the table's language: French and Spanish tables see their own words,
money as they write it, and the rules reference opening where they are.

The language is chosen as a player would (Settings) or as the app was started
(`companion --lang`); the environment is pinned to English so the machine's own locale
cannot leak in.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest
from app_helpers import last_act, log_lines, memory_app, notice, refused, start_game, table
from flet_harness import Screen

from companion.app.data import AppData
from companion.app.inputs import is_filled
from companion.app.main import make_main

NBSP = "\u00a0"


@pytest.fixture(autouse=True)
def english_machine(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    yield


def device(kept: dict[str, Any]) -> dict[str, Any]:
    """A client's own storage (a browser's localStorage), as the harness's client methods."""

    def get(control: Any, args: Any) -> Any:
        assert isinstance(control, ft.SharedPreferences)
        return kept.get(args["key"])

    def set_(control: Any, args: Any) -> bool:
        assert isinstance(control, ft.SharedPreferences)
        kept[args["key"]] = args["value"]
        return True

    return {"get": get, "set": set_}


@contextlib.asynccontextmanager
async def app_in(
    language: str | None,
    data: AppData | None = None,
    *,
    on: dict[str, Any] | None = None,
    main: Callable[[ft.Page], None] | None = None,
) -> AsyncIterator[Screen]:
    """The app as `companion --lang <language>` starts it (None: no --lang), on a device keeping `on`
    (a page of the run `main` when given)."""
    main = main or make_main(data if data is not None else memory_app(), language=language)
    async with Screen(main, methods=device(on if on is not None else {})) as screen:
        await screen.settle()
        yield screen


async def bob_misses_everything(screen: Screen) -> None:
    """In the end-of-round sheet: Bob misses 13 segments (typed: the chips stop at 12), which ends the game."""
    await screen.type("missing-bob-typed", "13")


async def pick_language(screen: Screen, choice: str) -> None:
    """From home: Settings, a language ("es", or "device"), back home."""
    await screen.tap("settings")
    await screen.tap(f"language-{choice}")
    await screen.tap("back")


# --- French -------------------------------------------------------------------------------------


@table
async def test_a_french_table_plays_heartland_in_french() -> None:
    async with app_in("fr") as screen:
        assert screen.text_of("new-game") == "+ Nouvelle partie"
        await start_game(screen, "heartland", ["Ann", "Bob"])
        assert screen.text_of("subtitle") == "Manche 1 · au tour d'Ann"
        assert screen.text_of("target") == f"Objectif 50{NBSP}$ (règle) · en tête Ann 5{NBSP}$"
        assert screen.text_of("money-ann") == f"5{NBSP}$"
        assert screen.text_of("move-cash-2") == f"2 · 2{NBSP}$"
        assert screen.text_of("end-turn") == "Fin du tour d'Ann (Bob ensuite)"
        assert await refused(screen, "unload") == "Ann ne transporte rien à décharger."

        await screen.tap("move-cash-1")
        await screen.tap("load")
        assert screen.text_of("panel-title") == "Charger · Ann"
        assert "Ann a de la place pour 8 cubes. Touchez le nombre voulu\u00a0:" in screen.texts()
        assert {"maïs", "soja", "bétail", "porcs"} <= set(screen.texts())
        await screen.tap("load-corn-2")
        assert last_act(screen) == f"Dernière action{NBSP}: Ann a chargé 2 cubes de maïs"
        assert screen.text_of("cargo-ann") == "2 maïs"
        assert str(screen.find("undo").tooltip) == f"Annuler{NBSP}: Ann a chargé 2 cubes de maïs"

        # A second action: the rules refuse it, in French, and the table may record it anyway.
        assert await refused(screen, "discard") == (
            f"Ann a déjà choisi de charger ce tour-ci{NBSP}; une seule action par tour."
        )
        assert screen.text_of("record-anyway") == "Enregistrer quand même"


@table
async def test_a_french_great_plains_names_its_tribes_and_spirits() -> None:
    async with app_in("fr") as screen:
        await start_game(screen, "great_plains", ["Ann", "Bob"])
        assert screen.text_of("subtitle") == "Au tour du Renard (Ann) · grotte"
        assert screen.text_of("place-cave") == "Poser une grotte (1 sur 6) · Ann"
        for _ in range(6):
            await screen.tap("place-cave")
        assert screen.text_of("token-horse") == "+ Cheval"
        await screen.tap("token-eagle")
        assert last_act(screen) == (f"Dernière action{NBSP}: Ann a posé un jeton (1 sur 20) et pris un esprit Aigle")
        assert screen.text_of("spirit-eagle-fox") == "Aigle 1"


# --- Spanish ------------------------------------------------------------------------------------


@table
async def test_a_spanish_table_plays_transamerica_to_its_end_in_spanish() -> None:
    async with app_in("es") as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob", "Inés"])
        assert screen.text_of("subtitle") == "Ronda 1 · empieza Ann"
        assert screen.text_of("starter") == "La ronda 1 empieza con Ann."
        await screen.tap("end-round")
        assert screen.text_of("panel-title") == "Fin de la ronda 1"
        for player in ("ann", "bob", "inés"):
            await screen.tap(f"missing-{player}-1")
        await screen.tap("save-round")
        assert notice(screen) == (
            "Alguien debe tener 0 tramos pendientes: una ronda termina cuando todas las "
            "ciudades de un jugador están conectadas."
        )
        await screen.tap("missing-ann-0")
        await screen.tap("missing-inés-0")
        await bob_misses_everything(screen)
        assert screen.text_of("after-bob") == "13 a 0"
        assert screen.text_of("ends-game") == "Esto termina la partida: Bob a 0 o menos."
        await screen.tap("save-round")
        assert screen.text_of("subtitle") == "Partida terminada tras 1 ronda"
        assert screen.text_of("winner") == "Ann e Inés comparten la victoria con 13 puntos cada uno"
        assert screen.text_of("rank-ann") == "1.º Ann"
        assert screen.text_of("tie-break") == "Ann e Inés empatan a 13 puntos: comparten el 1.º puesto (sin desempate)."
        await screen.tap("log")
        assert log_lines(screen) == [
            "1. Fin de la ronda 1 — todas sus ciudades conectadas: Ann e Inés; Bob -13 · ronda 1"
        ]


# --- the rules reference -------------------------------------------------------------------------


@table
async def test_the_rules_open_at_the_turn_from_the_top_bar_and_at_loading_from_the_load_sheet() -> None:
    async with app_in(None) as screen:
        await start_game(screen, "heartland", ["Ann", "Bob"])
        assert str(screen.find("rules").tooltip) == "The rules of The Great Heartland Hauling Co."
        await screen.tap("rules")
        assert screen.text_of("rules-section") == "A turn"
        await screen.tap("rules-decisions")  # any other part is one tap away
        assert screen.text_of("rules-section") == "What the app decides"
        await screen.tap("panel-close")

        await screen.tap("move-fuel-1")
        await screen.tap("load")
        await screen.tap("rules-load")
        assert screen.text_of("rules-section") == "Loading"
        assert "A truck carries at most 8 cubes (6 with Short Haul). A Location holds at most 8 cubes." in (
            screen.texts()
        )
        await screen.tap("rules-back")  # back to the Load sheet, where the table was
        assert screen.text_of("panel-title") == "Load · Ann"


@table
async def test_the_end_screen_opens_the_rules_at_the_winner_and_its_ties_in_french() -> None:
    async with app_in("fr") as screen:
        await start_game(screen, "transamerica", ["Ann", "Bob"])
        await screen.tap("end-round")
        await bob_misses_everything(screen)
        await screen.tap("save-round")
        await screen.tap("rules-end")
        assert screen.text_of("rules-section") == "Vainqueur et égalités"
        assert (
            f"Le joueur à qui il reste le plus de points gagne. En cas d'égalité, tous les joueurs à égalité "
            f"gagnent{NBSP}; il n'y a pas de départage."
        ) in screen.texts()
        assert not screen.exists("rules-back")  # opened from the screen, not from a sheet


@table
async def test_a_zone_sheet_opens_the_rules_at_majorities_and_water() -> None:
    async with app_in("es") as screen:
        await start_game(screen, "great_plains", ["Ann", "Bob"])
        await screen.tap("add-zone")
        await screen.tap("rules-zone")
        assert screen.text_of("rules-section") == "Mayorías y agua"


# --- choosing the language -----------------------------------------------------------------------


@table
async def test_settings_switch_the_language_at_once_and_the_next_start_keeps_it_on_that_device_only() -> None:
    data, phone = memory_app(), {}
    async with app_in(None, data, on=phone) as screen:
        assert screen.text_of("new-game") == "+ New game"
        await screen.tap("settings")
        assert screen.text_of("language-device") == "As the device (English)"
        await screen.tap("language-es")
        assert screen.text_of("language-device") == "Como el dispositivo (English)"
        assert is_filled(screen.find("language-es"))
        await screen.tap("back")
        assert screen.text_of("new-game") == "+ Nueva partida"
        await screen.settle()
    assert "companion.language" in phone  # kept by the device, not in the data folder
    async with app_in(None, data, on=phone) as screen:  # the app started again: the phone keeps Spanish
        assert screen.text_of("new-game") == "+ Nueva partida"
    async with app_in(None, data, on={}) as screen:  # another phone at the table keeps its own language
        assert screen.text_of("new-game") == "+ New game"
    async with app_in(None, data, on=phone) as screen:
        await pick_language(screen, "device")
        assert screen.text_of("new-game") == "+ New game"
        await screen.settle()
    async with app_in(None, data, on=phone) as screen:
        assert screen.text_of("new-game") == "+ New game"


@table
async def test_the_command_line_outranks_an_older_choice_and_a_choice_made_during_the_run_outranks_it() -> None:
    data, phone = memory_app(), {}
    async with app_in(None, data, on=phone) as screen:
        await pick_language(screen, "es")
        await screen.settle()
    run = make_main(data, language="fr")  # `companion --lang fr`, started after Spanish was chosen
    async with app_in("fr", on=phone, main=run) as screen:
        assert screen.text_of("new-game") == "+ Nouvelle partie"
        await screen.tap("settings")
        await screen.tap("language-en")
        assert screen.text_of("language-device") == "As the device (English)"
        await screen.tap("back")  # Home, where the next page opens (Settings would come back too)
        await screen.settle()
    async with app_in("fr", on=phone, main=run) as screen:  # the page loaded again, same run: still English
        assert screen.text_of("new-game") == "+ New game"
    async with app_in("fr", on={}, main=run) as screen:  # a phone that chose nothing: the run's language
        assert screen.text_of("new-game") == "+ Nouvelle partie"
    async with app_in("fr", data, on=phone) as screen:  # started again with --lang fr: French wins once more
        assert screen.text_of("new-game") == "+ Nouvelle partie"


@table
async def test_the_app_follows_the_device_language_when_nothing_else_was_chosen() -> None:
    async with app_in(None) as screen:
        screen.page.on_locale_change(SimpleNamespace(locales=[ft.Locale("de"), ft.Locale("es", "MX")]))
        await screen.settle()
        assert screen.text_of("new-game") == "+ Nueva partida"
        await start_game(screen, "heartland", ["Ann", "Bob"])
        assert screen.text_of("money-ann") == f"5{NBSP}$"


@table
async def test_a_game_played_in_french_reads_in_spanish_after_a_switch() -> None:
    data = memory_app()
    async with app_in(None, data) as screen:
        await pick_language(screen, "fr")
        await start_game(screen, "heartland", ["Ann", "Bob"])
        await screen.tap("move-cash-2")
        assert last_act(screen) == f"Dernière action{NBSP}: Ann a avancé de 2 cases pour 2{NBSP}$"
        await screen.tap("back")
        await pick_language(screen, "es")
        (game,) = [summary.id for summary in data.sessions()]
        assert "(ahora mismo)" in screen.text_of(f"when-{game}")
        assert screen.text_of(f"when-{game}").startswith("jugada el ")
        await screen.tap(f"session-{game}")
        assert last_act(screen) == f"Última acción: Ann avanzó 2 espacios por 2{NBSP}$"
        await screen.tap("log")
        assert log_lines(screen) == [f"1. Ann avanzó 2 espacios por 2{NBSP}$ · ronda 1"]


# --- a phone joining a shared game ------------------------------------------------------------


def test_the_join_page_speaks_the_phone_language() -> None:
    from starlette.testclient import TestClient

    from companion.app import web
    from companion.app.share import Sharing

    lan = web.Address("127.0.0.2", 8550)

    class Listener:  # the share listener without a socket: the client arrives at the LAN address itself
        def open(self, host: str) -> str:
            door.lan = lan
            return lan.url

        def close(self) -> None:
            pass

    sharing = Sharing(None, lan.host)
    door = web.create_app(lambda page: None, [web.Address("127.0.0.1", 8550)], sharing=sharing)
    sharing.listener = Listener()
    shared = sharing.start("g1")
    wrong = "AAAAAA" if shared.code != "AAAAAA" else "BBBBBB"
    try:
        with TestClient(door, base_url=lan.origin, follow_redirects=False) as phone:
            french = phone.get("/", headers={"accept-language": "fr-CA,fr;q=0.9,en;q=0.5"}).text
            assert '<html lang="fr">' in french and "<h1>Rejoindre la partie</h1>" in french
            assert "Tapez le code affiché sur l'écran de l'hôte, et votre nom." in french
            refused = phone.post(
                "/join", data={"code": wrong, "name": "Ana"}, headers={"accept-language": "es-ES,es;q=0.9"}
            ).text
            assert "Ese no es el código de la pantalla del anfitrión." in refused
            assert "<h1>Join the game</h1>" in phone.get("/", headers={"accept-language": "de-DE"}).text
    finally:
        sharing.stop()

"""A whole TransAmerica game in French, as `companion --web --lang fr` serves it to Chromium:
every button tapped and every sentence checked in French, the rules reference opened from
the end screen at the winner and its ties."""

from __future__ import annotations

import re
from pathlib import Path

from harness import open_browser, require_browser, serve_cli
from test_app_e2e import see, tap, tap_icon, type_text

NBSP = "\u00a0"


def test_a_transamerica_game_in_french(tmp_path: Path) -> None:
    require_browser()
    with serve_cli(["--lang", "fr"], data_dir=tmp_path / "data") as server, open_browser(server.url) as ui:
        see(
            ui,
            "Companion",
            f"Aucune partie pour l'instant. Commencez-en une ci-dessous{NBSP}; chaque geste est "
            "enregistré au fil du jeu.",
        )
        tap(ui, "+ Nouvelle partie")
        see(ui, "Nouvelle partie")
        tap(ui, "TransAmerica · 2 à 6 joueurs")
        for seat, name in enumerate(("Ann", "Bob", "Cid"), start=1):
            type_text(ui, "Nom du joueur", name)
            tap(ui, "Ajouter")
            see(ui, f"{seat}. {name}")
        see(ui, f"Chacun commence avec 13 points{NBSP}; le premier joueur avance d'une place à chaque manche.")
        see(ui, f"30{NBSP}caractères restants")  # Flutter's own words follow the app's language
        tap(ui, "Commencer la partie")
        see(ui, "Manche 1 · Ann commence", "La manche 1 commence avec Ann.", "Aucune manche jouée pour l'instant.")

        tap(ui, "Fin de la manche 1")
        see(ui, "Fin de la manche 1")
        tap(ui, "1", nth=0)
        tap(ui, "4", nth=1)
        tap(ui, "6", nth=2)
        tap(ui, "Enregistrer la manche 1")  # nobody connected everything: refused, in French
        see(
            ui,
            f"Quelqu'un doit avoir 0 voie manquante{NBSP}: une manche se termine quand toutes les villes "
            "d'un joueur sont reliées.",
        )
        tap(ui, "0", nth=0)
        see(ui, "13 à 13", "13 à 9", "13 à 7")
        tap(ui, "Enregistrer la manche 1")
        see(
            ui,
            "Manche 2 · Bob commence",
            f"Dernière action{NBSP}: Fin de la manche 1 — toutes les villes reliées{NBSP}: Ann{NBSP}; Bob -4, Cid -6",
        )

        tap(ui, "Fin de la manche 2")
        tap(ui, "2", nth=1)
        tap(ui, "7", nth=2)
        see(ui, f"Cela termine la partie{NBSP}: Cid à 0 ou moins.")
        tap(ui, "Enregistrer la manche 2")
        see(ui, "Partie terminée après 2 manches", "Ann gagne avec 13 points", "1er Ann", "2e Bob", "3e Cid")
        assert not ui.has_text(re.compile(r"^Fin de la manche"))
        ui.screenshot("19-transamerica-game-over-fr")

        tap(ui, "Règles")  # the end screen opens the reference at the winner and its ties
        see(
            ui,
            "Les règles de TransAmerica",
            "Vainqueur et égalités",
            f"Le joueur à qui il reste le plus de points gagne. En cas d'égalité, tous les joueurs à égalité "
            f"gagnent{NBSP}; il n'y a pas de départage.",
        )
        ui.screenshot("20-rules-reference-fr")
        tap(ui, "Le compte à rebours")  # every other part is one tap away
        see(
            ui,
            "Chaque joueur commence la partie avec 13 points. À la fin de chaque manche, chacun perd un point "
            "par voie manquante (2 pour une voie difficile).",
        )
        tap(ui, "Fermer")
        tap_icon(ui, "Retour à toutes les parties")
        see(ui, "Terminées")

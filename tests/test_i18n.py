"""The table's language: the same game reads in English, French and Spanish.

A session's log is data; its sentences are chosen only when shown, so a game recorded
while the app spoke French reads in Spanish after a switch. Words of the game (goods,
spirits, actions) are translated with the sentence, numbers pick their plural by each
language's rule, and money is written as each language's tables write it.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion import RuleError, Session
from companion.app.screens import great_plains_words, heartland_words, transamerica_words  # noqa: F401 - their words
from companion.text.i18n import choose, from_accept_language, from_environment, money, number, supported, t
from companion.text.locale import catalogues
from companion.text.messages import Message, join_names, term, translations

NBSP = "\u00a0"


def heartland_turns() -> Session:
    """Ann moves and loads pigs, Bob unloads nothing and discards, Inés is towed and discards for free."""
    session = Session.new("heartland", ["Ann", "Bob", "Inés"])
    for event in (
        {"type": "move", "player": "Ann", "spaces": 2, "pay": "cash"},
        {"type": "load", "player": "Ann", "good": "pigs", "cubes": 3},
        {"type": "end_turn", "player": "Ann"},
        {"type": "move", "player": "Bob", "spaces": 1, "pay": "fuel"},
        {"type": "load", "player": "Bob", "good": "corn", "cubes": 1},
        {"type": "end_turn", "player": "Bob"},
        {"type": "adjust", "player": "Inés", "amount": -5, "note": "bank"},
        {"type": "tow", "player": "Inés"},
        {"type": "discard", "player": "Inés", "forced": True},
    ):
        session.apply(event)
    return session


def test_one_heartland_log_reads_in_all_three_languages() -> None:
    sentences = heartland_turns().sentences
    assert [sentence.text("en") for sentence in sentences] == [
        "Ann moved 2 spaces for $2",
        "Ann loaded 3 pigs",
        "Ann ended the turn; Bob plays",
        "Bob moved 1 space with fuel",
        "Bob loaded 1 corn",
        "Bob ended the turn; Inés plays",
        "Inés -$5 (bank), now $0",
        "Inés was towed to the Distribution Center",
        "Inés discarded for free (forced, with $0)",
    ]
    assert [sentence.text("fr") for sentence in sentences] == [
        f"Ann a avancé de 2 cases pour 2{NBSP}$",
        "Ann a chargé 3 cubes de porcs",
        f"Ann a fini son tour{NBSP}; au tour de Bob",
        "Bob a avancé de 1 case avec du carburant",
        "Bob a chargé 1 cube de maïs",
        f"Bob a fini son tour{NBSP}; au tour d'Inés",
        f"Inés -5{NBSP}$ (bank), désormais 0{NBSP}$",
        "Le camion d'Inés a été remorqué au Centre de distribution",
        f"Inés a défaussé gratuitement (défausse forcée, à 0{NBSP}$)",
    ]
    assert [sentence.text("es") for sentence in sentences] == [
        f"Ann avanzó 2 espacios por 2{NBSP}$",
        "Ann cargó 3 cubos de cerdos",
        "Ann terminó su turno; juega Bob",
        "Bob avanzó 1 espacio con combustible",
        "Bob cargó 1 cubo de maíz",
        "Bob terminó su turno; juega Inés",
        f"Inés -5{NBSP}$ (bank), ahora 0{NBSP}$",
        "El camión de Inés fue remolcado al Centro de Distribución",
        f"Inés descartó gratis (descarte forzoso, con 0{NBSP}$)",
    ]


def test_a_game_saved_while_speaking_french_reads_in_spanish_from_the_same_file() -> None:
    saved = heartland_turns().to_dict()
    assert "porcs" not in repr(saved) and "cerdos" not in repr(saved)  # the log holds data, not sentences
    reopened = Session.from_dict(saved)
    assert reopened.sentences[1].text("es") == "Ann cargó 3 cubos de cerdos"
    assert reopened.sentences[1].text("fr") == "Ann a chargé 3 cubes de porcs"


def test_transamerica_and_great_plains_logs_read_in_all_three_languages() -> None:
    rail = Session.new("transamerica", ["Ann", "Bob", "Inés"])
    rail.apply({"type": "end_round", "missing": {"Ann": 0, "Bob": 0, "Inés": 4}})
    assert rail.sentences[0].text("en") == "Round 1 ended: Ann and Bob connected all cities; Inés -4"
    assert rail.sentences[0].text("fr") == (
        f"Fin de la manche 1 — toutes les villes reliées{NBSP}: Ann et Bob{NBSP}; Inés -4"
    )
    assert rail.sentences[0].text("es") == "Fin de la ronda 1 — todas sus ciudades conectadas: Ann y Bob; Inés -4"

    plains = Session.new("great_plains", ["Ann", "Bob"])
    for _ in range(3):
        for player in ("Ann", "Bob"):
            plains.apply({"type": "place_cave", "player": player})
    plains.apply({"type": "place_token", "player": "Ann", "spirit": "horse"})
    plains.apply({"type": "place_token", "player": "Bob", "spirit": "eagle"})
    assert [sentence.text("en") for sentence in plains.sentences[-2:]] == [
        "Ann placed a token (1 of 20) and took a horse spirit",
        "Bob placed a token (1 of 20) and took an eagle spirit",
    ]
    assert [sentence.text("fr") for sentence in plains.sentences[-2:]] == [
        "Ann a posé un jeton (1 sur 20) et pris un esprit Cheval",
        "Bob a posé un jeton (1 sur 20) et pris un esprit Aigle",
    ]
    assert [sentence.text("es") for sentence in plains.sentences[-2:]] == [
        "Ann colocó una ficha (1 de 20) y tomó un espíritu Caballo",
        "Bob colocó una ficha (1 de 20) y tomó un espíritu Águila",
    ]


def test_goods_are_the_words_each_table_uses() -> None:
    words = {
        good: [
            Message("heartland.not_carried", {"player": "Ann", "carried": 0, "good": good, "wanted": 1}).text(lang)
            for lang in ("fr", "es")
        ]
        for good in ("corn", "soybeans", "cattle", "pigs")
    }
    assert [word for pair in words.values() for word in pair] == [
        "Ann transporte 0 cube de maïs et ne peut pas en décharger 1.",
        "Ann lleva 0 cubos de maíz y no puede descargar 1.",
        "Ann transporte 0 cube de soja et ne peut pas en décharger 1.",
        "Ann lleva 0 cubos de soja y no puede descargar 1.",
        "Ann transporte 0 cube de bétail et ne peut pas en décharger 1.",
        "Ann lleva 0 cubos de ganado y no puede descargar 1.",
        "Ann transporte 0 cube de porcs et ne peut pas en décharger 1.",
        "Ann lleva 0 cubos de cerdos y no puede descargar 1.",
    ]


@pytest.mark.parametrize(
    ("cubes", "english", "french", "spanish"),
    [
        (0, "0 cubes", "0 cube", "0 cubos"),  # French counts zero as one
        (1, "1 cube", "1 cube", "1 cubo"),
        (3, "3 cubes", "3 cubes", "3 cubos"),
    ],
)
def test_plurals_follow_each_language_rule(cubes: int, english: str, french: str, spanish: str) -> None:
    sentence = Message("heartland.log.weigh_station", {"player": "Ann", "cubes": cubes, "cost": 0})
    assert f"with {english} " in sentence.text("en")
    assert f"avec {french} " in sentence.text("fr")
    assert f"con {spanish} " in sentence.text("es")


def test_money_is_written_as_each_language_writes_it() -> None:
    assert [money(12, lang) for lang in ("en", "fr", "es")] == ["$12", f"12{NBSP}$", f"12{NBSP}$"]
    assert [money(-3, lang) for lang in ("en", "fr", "es")] == ["-$3", f"-3{NBSP}$", f"-3{NBSP}$"]


def test_long_counts_are_grouped_as_each_language_groups_them() -> None:
    assert [number(12345, lang) for lang in ("en", "fr", "es")] == ["12,345", "12\u202f345", "12.345"]
    assert number(999, "fr") == "999"


def test_a_refusal_the_table_overrules_reads_whole_in_the_chosen_language() -> None:
    session = Session.new("heartland", ["Ann", "Bob"], {"short_haul": True})
    session.apply({"type": "move", "player": "Ann", "spaces": 1, "pay": "fuel"})
    with pytest.raises(RuleError) as caught:
        session.apply({"type": "load", "player": "Ann", "good": "cattle", "cubes": 7})
    assert caught.value.message.text("es") == "El camión de Ann lleva 0 de 6 cubos y no puede cargar 7 más."
    sentence = session.apply({"type": "load", "player": "Ann", "good": "cattle", "cubes": 7, "override": True})
    assert sentence.text("fr") == (
        f"Ann a chargé 7 cubes de bétail — enregistré contre la règle{NBSP}: "
        "Le camion d'Ann porte 0 cube sur 6 et ne peut pas en charger 7 de plus"
    )


def test_an_action_already_chosen_is_named_in_the_table_language() -> None:
    session = Session.new("heartland", ["Ann", "Bob"])
    session.apply({"type": "move", "player": "Ann", "spaces": 1, "pay": "fuel"})
    session.apply({"type": "discard", "player": "Ann", "forced": False})
    with pytest.raises(RuleError) as caught:
        session.apply({"type": "load", "player": "Ann", "good": "corn", "cubes": 1})
    assert caught.value.message.text("fr") == (
        f"Ann a déjà choisi de défausser ce tour-ci{NBSP}; une seule action par tour."
    )
    assert caught.value.message.text("es") == "Ann ya eligió descartar en este turno; solo una acción por turno."


def test_french_drops_the_e_of_de_before_a_name_that_starts_with_a_vowel() -> None:
    assert Message("turn.not_yours", {"current": "Ann", "player": "Éric"}).text("fr") == (
        "C'est au tour d'Ann, pas d'Éric."
    )
    assert Message("turn.not_yours", {"current": "Bob", "player": "Hugo"}).text("fr") == (
        "C'est au tour de Bob, pas de Hugo."
    )
    assert Message("turn.not_yours", {"current": "Ann", "player": "Éric"}).text("es") == (
        "Es el turno de Ann, no de Éric."
    )


def test_names_are_joined_with_each_language_and() -> None:
    assert join_names(["Ann", "Bob", "Cy"]) == "Ann, Bob and Cy"
    assert join_names(["Ann", "Bob", "Cy"], "fr") == "Ann, Bob et Cy"
    assert join_names(["Ann", "Bob"], "es") == "Ann y Bob"
    assert join_names(["Ann", "Inés"], "es") == "Ann e Inés"  # 'y' before an i sound is 'e'
    assert join_names(["Ann", "Hilda"], "es") == "Ann e Hilda"
    assert join_names(["Ann", "Hielo"], "es") == "Ann y Hielo"


def test_a_language_without_a_catalogue_reads_in_english() -> None:
    sentence = Message("heartland.log.toll", {"player": "Ann"})
    assert sentence.text("de") == "Ann paid a $1 toll"
    assert t("heartland.log.toll", "fr", player="Ann") == f"Ann a payé un péage de 1{NBSP}$"


def test_the_catalogues_ship_inside_the_package() -> None:
    for language in ("fr", "es"):
        catalogue = translations(language)
        assert catalogue.info()["language"] == language
        assert catalogue.pgettext("term.good.corn", "corn|corn") == {"fr": "maïs|maïs", "es": "maíz|maíz"}[language]


# --- which language ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("fr_FR.UTF-8", "fr"),
        ("fr_CA", "fr"),
        ("es-419", "es"),
        ("es_ES@euro", "es"),
        ("EN", "en"),
        ("de_DE.UTF-8", None),
        ("C", None),
        ("POSIX", None),
        ("", None),
        (None, None),
    ],
)
def test_a_locale_tag_names_a_supported_language_or_none(tag: str | None, language: str | None) -> None:
    assert supported(tag) == language


def test_the_command_line_wins_then_settings_then_the_device_then_the_environment() -> None:
    environ = {"LANG": "es_ES.UTF-8"}
    assert choose("en", "fr", ["es"], environ) == "en"
    assert choose(None, "fr", ["es"], environ) == "fr"
    assert choose(None, None, ["de", "es"], {"LANG": "fr_FR.UTF-8"}) == "es"  # the first device language we speak
    assert choose(None, None, ["de"], environ) == "es"
    assert choose(None, None, [], {}) == "en"
    assert choose("xx", None, [], {"LANG": "fr_BE.UTF-8"}) == "fr"


def test_a_browser_asks_for_its_languages_in_order_of_preference() -> None:
    assert from_accept_language("fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5") == ["fr-CH", "fr", "en", "*"]
    assert from_accept_language("en;q=0.4, es") == ["es", "en"]
    assert from_accept_language("de;q=0, es;q=x") == []
    assert from_accept_language("") == []


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "es"),
        ({"LANG": "es_ES.UTF-8", "LC_ALL": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "es_ES.UTF-8", "LANGUAGE": "de:fr:en"}, "fr"),
        ({"LANG": "es_ES.UTF-8", "LANGUAGE": "de"}, "es"),
        ({"LANG": "C.UTF-8"}, None),
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"}, None),
    ],
)
def test_the_environment_follows_posix_order(environ: dict[str, Any], language: str | None) -> None:
    assert from_environment(environ) == language


# Words that follow a count, for 0, 1 and 2 in each language (French counts 0 as one; Spanish does not).
COUNTED = {
    ("ui.stats.record", "fr"): ("0 jouée · 0 gagnée", "1 jouée · 1 gagnée", "2 jouées · 2 gagnées"),
    ("ui.stats.record", "es"): ("0 jugadas · 0 ganadas", "1 jugada · 1 ganada", "2 jugadas · 2 ganadas"),
    ("ui.archive.report", "fr"): (
        "0 importée · 0 déjà là · 0 refusée",
        "1 importée · 1 déjà là · 1 refusée",
        "2 importées · 2 déjà là · 2 refusées",
    ),
    ("ui.archive.report", "es"): (
        "0 importadas · 0 ya estaban · 0 rechazadas",
        "1 importada · 1 ya estaba · 1 rechazada",
        "2 importadas · 2 ya estaban · 2 rechazadas",
    ),
    ("ui.transamerica.misses", "es"): ("A Eve le faltan 0", "A Eve le falta 1", "A Eve le faltan 2"),
    ("ui.heartland.adjust_amount", "en"): ("+0 dollars", "+1 dollar", "+2 dollars"),
    ("ui.heartland.adjust_amount", "fr"): ("+0 dollar", "+1 dollar", "+2 dollars"),
    ("ui.heartland.adjust_amount", "es"): ("+0 dólares", "+1 dólar", "+2 dólares"),
}


def counted_params(message_id: str, count: int) -> dict[str, Any]:
    return {
        "plays": count,
        "wins": count,
        "percent": 50,
        "imported": count,
        "duplicates": count,
        "refused": count,
        "player": "Eve",
        "count": count,
        "amount": f"{count:+d}",
        "dollars": count,
    }


@pytest.mark.parametrize(("message_id", "language"), sorted(COUNTED))
def test_a_count_and_its_words_agree_for_0_1_and_2(message_id: str, language: str) -> None:
    shown = tuple(t(message_id, language, **counted_params(message_id, count)) for count in (0, 1, 2))
    assert all(expected in line for expected, line in zip(COUNTED[message_id, language], shown, strict=True)), shown


# "toutes ses villes" is wrong for several players; "toutes les villes" is right for one and for several.
@pytest.mark.parametrize(
    ("names", "french"),
    [
        (["Eve"], "toutes les villes reliées\u00a0: Eve\u00a0;"),
        (["Eve", "Fatima", "Bob"], "toutes les villes reliées\u00a0: Eve, Fatima et Bob\u00a0;"),
    ],
)
def test_who_connected_all_cities_agrees_with_how_many_did(names: list[str], french: str) -> None:
    session = Session.new("transamerica", ["Eve", "Fatima", "Bob", "Cid"])
    session.apply(
        {"type": "end_round", "missing": {name: 0 if name in names else 2 for name in ("Eve", "Fatima", "Bob", "Cid")}}
    )
    assert french in session.sentences[-1].text("fr")


# Goods are counted like any other word: "1 pig", "2 pigs", never "1 pigs" nor "+1 porcs".
GOODS_BY_COUNT = {
    "en": {
        "pigs": ("0 pigs", "1 pig", "2 pigs"),
        "soybeans": ("0 soybeans", "1 soybean", "2 soybeans"),
        "corn": ("0 corn", "1 corn", "2 corn"),
        "cattle": ("0 cattle", "1 cattle", "2 cattle"),
    },
    "fr": {
        "pigs": ("0 porc", "1 porc", "2 porcs"),
        "soybeans": ("0 soja", "1 soja", "2 soja"),
        "corn": ("0 maïs", "1 maïs", "2 maïs"),
        "cattle": ("0 bétail", "1 bétail", "2 bétail"),
    },
    "es": {
        "pigs": ("0 cerdos", "1 cerdo", "2 cerdos"),
        "soybeans": ("0 soja", "1 soja", "2 soja"),
        "corn": ("0 maíz", "1 maíz", "2 maíz"),
        "cattle": ("0 ganado", "1 ganado", "2 ganado"),
    },
}


@pytest.mark.parametrize("language", sorted(GOODS_BY_COUNT))
def test_goods_take_their_singular_or_plural_by_count_in_every_sentence_that_counts_them(language: str) -> None:
    for good, expected in GOODS_BY_COUNT[language].items():
        for count, words in zip((0, 1, 2), expected, strict=True):
            cargo = t("ui.heartland.load_of", language, count=count, good=good)
            assert cargo == words, (good, cargo)
            change = t("ui.heartland.cargo_change", language, change=f"+{count}", cubes=count, good=good)
            assert change.startswith(f"+{words}"), change
            log = Message(
                "heartland.log.correct_cargo_up",
                {"player": "Ann", "cubes": count, "good": good, "note": "x", "carried": count},
            ).text(language)
            assert f"+{words} " in log and log.endswith(f" {words}"), log
    assert Message("heartland.log.load", {"player": "Ann", "cubes": 1, "good": "pigs"}).text("en") == "Ann loaded 1 pig"
    assert (
        Message("heartland.log.load", {"player": "Ann", "cubes": 1, "good": "soybeans"}).text("en")
        == "Ann loaded 1 soybean"
    )


def test_a_good_named_on_its_own_keeps_its_name() -> None:
    assert [term("good", "pigs", language) for language in ("en", "fr", "es")] == ["pigs", "porcs", "cerdos"]
    assert t("ui.heartland.price", "fr", good="pigs", price="5 $").startswith("porcs")


# Spanish reads one o'clock as singular: "a la 1:40", but "a las 2:40", "a las 13:40".
@pytest.mark.parametrize(
    ("hour", "english", "french", "spanish"),
    [
        (1, "at 1:40", "à 1:40", "a la 1:40"),
        (2, "at 2:40", "à 2:40", "a las 2:40"),
        (0, "at 0:40", "à 0:40", "a las 0:40"),
        (13, "at 13:40", "à 13:40", "a las 13:40"),
    ],
)
def test_a_time_of_day_takes_the_article_of_its_hour(hour: int, english: str, french: str, spanish: str) -> None:
    from datetime import datetime

    from companion.app import dates
    from companion.app.screens import detail  # noqa: F401 - registers "ui.detail.when.untimed"

    moment = datetime(2026, 3, 5, hour, 40).timestamp()
    assert [dates.at_time_of_day(moment, language) for language in ("en", "fr", "es")] == [english, french, spanish]
    assert (
        t("ui.detail.when.untimed", "es", date="5 de marzo de 2026", at_time=spanish)
        == f"5 de marzo de 2026 · empezó {spanish}"
    )


def test_stopping_a_phone_keeping_score_says_it_then_watches_not_that_it_loses_points() -> None:
    for language, taken in (("fr", ("score", "point", "retirer")), ("es", ("puntuación", "punto", "quitar"))):
        label = t("ui.share.stop_keeping", language, name="Eve").casefold()
        assert "eve" in label and not any(word in label for word in taken), label
    assert t("ui.share.stop_keeping", "fr", name="Eve") == "Passer Eve en spectateur"
    assert t("ui.share.stop_keeping", "es", name="Eve") == "Dejar a Eve como espectador"


def test_words_a_table_would_not_say_are_gone() -> None:
    """The rulebook is "la règle" at a French table; the trailing TransAmerica player has the
    fewest points, not "the lowest"; the Spanish rulebook never says "grúa"; upgrades make
    exceptions to rules, they do not "fold" them; a card's date is when the game was played."""
    unsaid = {
        "fr": ("livret", "le plus bas", "plier", "dernière partie le"),
        "es": ("grúa", "el más bajo", "doblar", "última jugada"),
    }
    for language, words in unsaid.items():
        found = [
            (message.context, word)
            for message in catalogues.read(language)
            if message.id
            for word in words
            if word in str(message.string).casefold()
        ]
        assert found == [], found
    assert t("ui.new.heartland.rulebook", "fr", value="40 $") == "Règle 40 $"
    assert t("ui.heartland.source.rulebook", "es") == "reglamento"


def test_a_zone_s_water_is_counted_in_sources_not_as_water() -> None:
    params = {"number": 2, "spaces": 5, "score": "1–0", "outcome": "Renard +7"}
    assert "+1 source ·" in t("ui.great_plains.zone_line_water", "fr", water=1, **params)
    assert "+2 sources ·" in t("ui.great_plains.zone_line_water", "fr", water=2, **params)
    assert "+1 fuente ·" in t("ui.great_plains.zone_line_water", "es", water=1, **params)
    assert "+2 fuentes ·" in t("ui.great_plains.zone_line_water", "es", water=2, **params)

"""The rules reference: every game, every section, in every language, opening where the table is."""

from __future__ import annotations

import pytest

from companion.rules import GAMES, great_plains, heartland, transamerica
from companion.text import reference
from companion.text.i18n import money
from companion.text.messages import LANGUAGES

REQUIRED = {
    # what a turn is, money and costs, targets, final round, penalties, tie-breaks, variants, decisions
    "heartland": {"turn", "money", "target", "final_round", "penalties", "winner", "variants", "decisions"},
    # the countdown, the end, ties, variants, decisions
    "transamerica": {"round", "countdown", "end", "winner", "variants", "decisions"},
    # spirits, majorities and water, tie-breaks, decisions
    "great_plains": {"turn", "spirits", "scoring", "winner", "decisions"},
}


def shape(game_id: str, language: str) -> list[tuple[str, list[int]]]:
    """Each section's id and, per paragraph, how many lines (list items) it has."""
    sections = reference.sections(game_id, language)
    return [(section.id, [len(lines) for lines in section.lists()]) for section in sections]


def text(game_id: str, section_id: str, language: str) -> str:
    return "\n".join(reference.section(game_id, section_id, language).paragraphs)


def test_every_game_has_a_reference_with_the_sections_a_table_asks_about() -> None:
    assert set(reference.SECTIONS) <= set(GAMES)  # a game added later may come without one (no sections)
    for game_id, needed in REQUIRED.items():
        assert needed <= set(reference.SECTIONS[game_id])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", sorted(reference.SECTIONS))
def test_every_section_is_written_in_every_language_with_every_paragraph_and_item(game_id: str, language: str) -> None:
    sections = reference.sections(game_id, language)
    assert [section.id for section in sections] == list(reference.SECTIONS[game_id])
    assert all(section.title and section.paragraphs for section in sections)
    # The same paragraphs and list items as the English: no decision is lost in translation.
    assert shape(game_id, language) == shape(game_id, "en")
    if language != "en":
        english = reference.sections(game_id, "en")
        assert [s.title for s in sections if s.title in {e.title for e in english}] == []
        assert [s.id for s, e in zip(sections, english, strict=True) if s.paragraphs == e.paragraphs] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_heartland_figures_are_the_rules_own(language: str) -> None:
    targets = text("heartland", "target", language)
    for source in heartland.TARGETS.values():
        assert all(money(amount, language) in targets for amount in source.values())
    penalties = text("heartland", "penalties", language)
    assert all(money(cost, language) in penalties for cost in set(heartland.PENALTY_PER_CUBE.values()))
    loading = text("heartland", "loading", language)
    assert f"{heartland.CAPACITY} " in loading and f"{heartland.SHORT_HAUL_CAPACITY} " in loading
    assert money(heartland.STARTING_MONEY, language) in text("heartland", "money", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_transamerica_and_great_plains_figures_are_the_rules_own(language: str) -> None:
    assert f"{transamerica.STARTING_POINTS} " in text("transamerica", "countdown", language)
    setup = text("great_plains", "setup", language)
    assert f"{great_plains.TOKENS} " in setup and f"{great_plains.CAVES} " in setup
    assert f"{great_plains.SPIRITS_PER_KIND * len(great_plains.SPIRITS)} " in setup


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["$30 for 4", "below $0", "Record anyway", "Stopping early"]),
        ("fr", ["30\u00a0$ à 4", "sous 0\u00a0$", "Enregistrer quand même", "Arrêter avant la fin"]),
        ("es", ["30\u00a0$ con 4", "por debajo de 0\u00a0$", "Registrar de todos modos", "Parar antes de tiempo"]),
    ],
)
def test_the_heartland_decisions_state_the_choices_the_app_makes(language: str, words: list[str]) -> None:
    decisions = text("heartland", "decisions", language)
    assert [word for word in words if word not in decisions] == []


def test_each_place_opens_the_part_that_matters_there() -> None:
    assert reference.opening("heartland", "load") == "loading"
    assert reference.opening("heartland", "unload") == "unloading"
    assert reference.opening("transamerica", "end_round") == "round_end"
    assert reference.opening("great_plains", "zone") == "scoring"
    assert {reference.opening(game_id, "end") for game_id in GAMES} == {"winner"}
    assert reference.opening("heartland", "somewhere new") == "turn"  # a place without its own part: the start
    assert reference.opening("a game without a reference", "end") is None
    for game_id, game in GAMES.items():
        assert game.reference is not None
        assert set(game.reference.places.values()) <= set(reference.SECTIONS[game_id])


def test_a_section_a_game_does_not_have_is_refused() -> None:
    with pytest.raises(KeyError, match="loading"):
        reference.section("transamerica", "loading")


# In each language: the words for "the final round starts" and for "the sources differ on fuel".
FINAL_ROUND_STARTS = {
    "en": "starts the final round",
    "fr": "lance le dernier tour de table",
    "es": "inicia la última ronda",
}
FUEL_SOURCES = {
    "en": "the Spanish rulebook lets the cards add up to more",
    "fr": "la règle espagnole permet un total",
    "es": "el reglamento en español permite que sumen más",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_heartland_reaching_the_target_starts_the_final_round_and_fuel_says_both_sources(language: str) -> None:
    # Reaching the target never ends the game at once (RULES: it triggers the final round).
    assert FINAL_ROUND_STARTS[language] in text("heartland", "target", language)
    moving = text("heartland", "moving", language)
    assert FUEL_SOURCES[language] in moving
    assert "3" in moving


# The free forced discard at $0 is the French how-to blog's rule, not the rulebook's: the
# reference says whose rule it is, as it does for fuel.
BLOG_SAYS_FREE = {
    "en": "The French how-to blog adds that a forced discard",
    "fr": "Le blog en français ajoute",
    "es": "El blog en francés añade",
}
BLOG_RULE = {
    "en": "is free (the how-to blog's rule)",
    "fr": "est gratuite (règle du blog)",
    "es": "es gratis (regla del blog)",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_free_forced_discard_is_named_as_the_blogs_rule(language: str) -> None:
    assert BLOG_SAYS_FREE[language] in text("heartland", "discarding", language)
    assert BLOG_RULE[language] in text("heartland", "money", language)


def test_spanish_trucks_move_north_south_east_or_west_as_the_rulebook_says_not_in_a_straight_line() -> None:
    moving = text("heartland", "moving", "es")
    assert "línea recta" not in moving
    assert "hacia el norte, el sur, el este o el oeste" in moving


def test_french_trucks_move_to_the_next_space_north_south_east_or_west_as_the_blog_says() -> None:
    assert "au nord, au sud, à l'est ou à l'ouest (jamais en diagonale)" in text("heartland", "moving", "fr")


def test_great_plains_water_is_a_source_d_eau_as_in_the_french_rules() -> None:
    from companion.app.screens import great_plains_words  # noqa: F401 - registers its screen's words
    from companion.text.i18n import t

    assert t("great_plains.field.water", "fr") == t("ui.great_plains.water", "fr") == "Sources d'eau"

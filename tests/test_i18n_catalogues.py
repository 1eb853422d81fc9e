"""The catalogues and the code agree: every id the code uses is translated in every
language, no catalogue keeps an id the code no longer has, and each translation takes the
same parameters as its English."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

import companion
from companion.text.locale import catalogues
from companion.text.messages import package_templates

PACKAGE = Path(companion.__file__).parent
catalogues.register_all()
ENGLISH = package_templates()  # a test's own game (a fourth one) registers templates the catalogues leave out
TRANSLATED = ("fr", "es")
# English grammar a translation may leave out: the article before a spirit ("a horse", "an eagle").
ENGLISH_ONLY = {"article"}
ID_SHAPE = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")
FILE_NAME = re.compile(r"\.(json|jsonl|lock|tmp|txt|md|py|po|mo|png|html|js|css)$")  # "players.json" names a file
NAMESPACES = {message_id.split(".")[0] for message_id in ENGLISH}
# Reached through data rather than named in code: words filling a sentence, the reference's text.
REACHED_THROUGH_DATA = ("term.", "reference.")


def fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def plural_forms(template: str) -> list[tuple[str, int]]:
    return [
        (name, spec.count("|") + 1)
        for _, name, spec, _ in string.Formatter().parse(template)
        if name and spec and "|" in spec
    ]


@pytest.fixture(scope="module", params=TRANSLATED)
def catalogue(request: pytest.FixtureRequest) -> Catalog:
    return catalogues.read(request.param)


def entries(catalog: Catalog) -> dict[str, tuple[str, str]]:
    return {message.context: (message.id, message.string) for message in catalog if message.id}


def test_every_english_template_has_a_translation_of_that_very_english(catalogue: Catalog) -> None:
    found = entries(catalogue)
    assert sorted(set(ENGLISH) - set(found)) == []
    behind = [message_id for message_id, (english, _) in found.items() if ENGLISH.get(message_id) != english]
    assert behind == []
    assert [message_id for message_id, (_, text) in found.items() if not text] == []
    assert [message.context for message in catalogue if message.id and message.fuzzy] == []


def test_no_catalogue_keeps_an_id_the_code_no_longer_has(catalogue: Catalog) -> None:
    assert sorted(set(entries(catalogue)) - set(ENGLISH)) == []


def test_each_translation_takes_the_parameters_of_its_english(catalogue: Catalog) -> None:
    plurals = int(catalogue.plural_forms.split("nplurals=")[1].split(";")[0])
    for message_id, (english, text) in entries(catalogue).items():
        assert fields(text) <= fields(english), (message_id, text)
        assert fields(english) - fields(text) <= ENGLISH_ONLY, (message_id, text)
        for name, forms in plural_forms(text):
            assert forms == plurals, (message_id, name, text)


def test_the_compiled_catalogues_are_those_of_the_sources() -> None:
    assert catalogues.main(["--check"]) == 0


# --- the code ------------------------------------------------------------------------------


def source_strings() -> tuple[set[str], list[str]]:
    """String constants and f-string openings in the package, leaving out the keys of the
    template tables themselves (a key there registers an id; it does not use one) and the
    pieces of f-strings (an f-string is one opening)."""
    constants: set[str] = set()
    openings: list[str] = []
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        keys = {id(key) for node in ast.walk(tree) if isinstance(node, ast.Dict) for key in node.keys}
        keys |= {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in keys:
                constants.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                openings.append(str(node.values[0].value))
    return constants, openings


def message_like(text: str) -> bool:
    return bool(ID_SHAPE.match(text)) and text.split(".")[0] in NAMESPACES and not FILE_NAME.search(text)


def test_every_id_the_code_names_is_registered() -> None:
    constants, _ = source_strings()
    assert sorted(text for text in constants if message_like(text) and text not in ENGLISH) == []


def test_every_registered_id_is_used_by_the_code() -> None:
    constants, openings = source_strings()
    openings = [opening for opening in openings if message_like(opening.rstrip("._") + ".x")]
    unused = [
        message_id
        for message_id in ENGLISH
        if not message_id.startswith(REACHED_THROUGH_DATA)
        and message_id not in constants
        and not any(message_id.startswith(opening) for opening in openings)
    ]
    assert unused == []


def test_every_word_of_a_game_is_a_value_the_rules_use() -> None:
    from companion.rules import great_plains, heartland
    from companion.rules.base import COLOURS

    values = {
        "colour": set(COLOURS),
        "good": set(heartland.GOODS),
        "action": {"load", "unload", "discard"},
        "spirit": set(great_plains.SPIRITS),
        "what": {"toll", "toll road", "weigh station", "event", "list of players", "set of options", "saved session"},
    }
    terms = {message_id for message_id in ENGLISH if message_id.startswith("term.")}
    assert terms == {f"term.{kind}.{value.replace(' ', '_')}" for kind, words in values.items() for value in words}
    assert all(
        ENGLISH[f"term.{kind}.{value.replace(' ', '_')}"].split("|")[-1] == value
        for kind, words in values.items()
        for value in words
    )


def test_a_term_with_forms_by_number_has_as_many_as_the_language(catalogue: Catalog) -> None:
    """A good counted in a sentence ("1 pig", "2 pigs") has each form its language counts with."""
    plurals = int(catalogue.plural_forms.split("nplurals=")[1].split(";")[0])
    found = entries(catalogue)
    for message_id, english in ENGLISH.items():
        if message_id.startswith("term.") and "|" in english:
            assert english.count("|") + 1 == 2, message_id
            assert found[message_id][1].count("|") + 1 == plurals, (message_id, found[message_id])
    assert all("|" in ENGLISH[f"term.good.{good}"] for good in ("corn", "soybeans", "cattle", "pigs"))


def counts_picking_forms(template: str) -> set[str]:
    return {
        spec[1:] for _, name, spec, _ in string.Formatter().parse(template) if name and spec and spec.startswith("#")
    }


def test_a_form_picked_by_a_count_uses_a_count_the_english_is_given(catalogue: Catalog) -> None:
    for message_id, (english, text) in entries(catalogue).items():
        assert counts_picking_forms(text) <= counts_picking_forms(english) | fields(english), (message_id, text)

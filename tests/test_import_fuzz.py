"""Import fuzzing through the Import sheet: whatever value an archive holds, wherever it sits,
the page answers with a report (never Flet's crash screen), a refusal is one short sentence,
and a refused game writes nothing.

Each value is put in each place of a real archive entry, one at a time: numbers no clock
can show (10**400, 1e300, NaN, infinities), half of a UTF-16 pair ("\\ud800") in names,
titles, notes and ids, a 100,000-character text, and wrong types. Every value in every place
is imported below the sheet (`archive.import_json`, a millisecond each); through the sheet,
every place with two of the values in turn and every value that once crashed an import
where it crashed it (each import through the page takes a hundred times longer; every value
in every place through the sheet: tests/bench/import_fuzz.py).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from app_helpers import imported, memory_app, table
from flet_harness import Screen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.aftergame import archive
from companion.app.data import AppData
from companion.app.main import make_main
from companion.store import Store

BAD_VALUES: dict[str, Any] = {
    "10**400": 10**400,
    "1e300": 1e300,
    "NaN": float("nan"),
    "infinity": float("inf"),
    "-infinity": float("-inf"),
    "2**70": 2**70,
    "-1": -1,
    "a lone high surrogate": "\ud800",
    "a lone low surrogate in a name": "A\udfffnn",
    "two high surrogates": "\udbff\udbff",
    "100,000 characters": "x" * 100_000,
    "true": True,
    "null": None,
    "a list": [1, "\ud800"],
    "named fields": {"\ud800": 10**400},
}
DESKTOP = {"platform": "linux"}


def one_archive() -> dict[str, Any]:
    """An archive of one Heartland game with a move and a correction with a note."""
    store = Store.in_memory()
    session = store.new("heartland", ["Ann", "Bob"], title="Friday")
    session.apply({"type": "move", "player": "Ann", "spaces": 2, "pay": "cash"})
    session.apply({"type": "adjust", "player": "Ann", "amount": 3, "note": "found a coin"})
    result: dict[str, Any] = json.loads(archive.export_json(store))
    return result


def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value (its own, each field, each item), deepest last."""
    if path:
        yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from places(inner, (*path, index))


ARCHIVE = one_archive()
PLACES = [("sessions", 0, *place) for place in places(ARCHIVE["sessions"][0])]


def with_value(path: tuple[Any, ...], value: Any) -> bytes:
    document = copy.deepcopy(ARCHIVE)
    node = document
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    # As a file can hold them: NaN and Infinity spelled out, surrogates as \u escapes.
    return json.dumps(document, ensure_ascii=True, allow_nan=True).encode()


def report_of(screen: Screen) -> tuple[str, list[str]]:
    lines = []
    number = 1
    while screen.exists(f"refused-{number}"):
        lines.append(screen.text_of(f"refused-{number}"))
        number += 1
    return screen.text_of("import-report"), lines


class Importer:
    """The archive sheet open on an empty store; each import picks the file given."""

    def __init__(self) -> None:
        self.data: AppData = memory_app()
        self.chosen = [b""]

        def pick(_: Any, args: dict[str, Any]) -> list[dict[str, Any]]:
            return [{"id": 1, "name": "games.json", "size": len(self.chosen[0]), "bytes": self.chosen[0]}]

        self.screen = Screen(make_main(self.data), methods={"pick_files": pick}, page_props=DESKTOP)

    async def start(self) -> Importer:
        await self.screen.start()
        await self.screen.tap("archive")
        return self

    async def bring(self, raw: bytes) -> tuple[str, list[str]]:
        self.chosen[0] = raw
        await self.screen.tap("import-pick")
        await imported(self.screen, self.data)
        self.screen.check()  # no crash screen, no traceback
        return report_of(self.screen)


def check_answer(importer: Importer, summary: str, refusals: list[str], label: str) -> None:
    listed = importer.data.store.listing()
    if summary == "1 imported · 0 already here · 0 refused":
        # Taken as it is (a value the archive may hold there): listed, and Home can draw it.
        assert len(listed) == 1, label
        for game in listed:
            importer.data.store.delete(game.id)
        return
    assert summary == "0 imported · 0 already here · 1 refused", (label, summary, refusals)
    (refusal,) = refusals
    refusal.encode("utf-8")  # sendable: the page showed it
    assert len(refusal) < 400 and "x" * 61 not in refusal, (label, refusal[:500])
    assert listed == [], label  # nothing written


# The values that crashed an import, where they crashed it, and the words each is refused in.
CRASHED: list[tuple[tuple[Any, ...], Any, str]] = [
    (("created",), 10**400, "Its creation time is not a time."),
    (("created",), float("nan"), "Its creation time is not a time."),
    (("updated",), 10**400, "The time of its last change is not a time."),
    (("updated",), 1e300, "The time of its last change is not a time."),
    (("finished",), float("inf"), "Its finishing time is not a time."),
    (("players", 1), "\ud800", "It holds a broken character (half of a pair) that no file can keep."),
    (("title",), "Fri\udc00day", "It holds a broken character (half of a pair) that no file can keep."),
    (("events", 1, "note"), "\ud800", "It holds a broken character (half of a pair) that no file can keep."),
    (("events", 1, "amount"), float("nan"), "not nan"),
    (("players", 0), "x" * 100_000, "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'"),
]
Case = tuple[str, tuple[Any, ...], Any]  # a label, a place, the value put there


def every_case() -> list[Case]:
    return [
        (f"{name} at {'/'.join(map(str, path[2:]))}", path, value)
        for path in PLACES
        for name, value in BAD_VALUES.items()
    ]


def sheet_sample() -> list[Case]:
    """Each place with two of the values, turning (so each value comes at four or five places),
    then each value that crashed an import where it crashed it."""
    names = list(BAD_VALUES)
    sample: list[Case] = []
    for number, path in enumerate(PLACES):
        for name in (names[number % len(names)], names[(number + len(names) // 2) % len(names)]):
            sample.append((f"{name} at {'/'.join(map(str, path[2:]))}", path, BAD_VALUES[name]))
    sample.extend(
        (f"{value!r:.20} at {'/'.join(map(str, place))}", ("sessions", 0, *place), value) for place, value, _ in CRASHED
    )
    return sample


async def through_the_sheet(cases: list[Case]) -> dict[str, int]:
    """Each case imported through the Import sheet, checked; how many of each report line."""
    importer = await Importer().start()
    answers: dict[str, int] = {}
    try:
        for label, path, value in cases:
            summary, refusals = await importer.bring(with_value(path, value))
            check_answer(importer, summary, refusals, label)
            answers[summary] = answers.get(summary, 0) + 1
    finally:
        await importer.screen.close()
    return answers


@table
async def test_bad_values_through_the_import_sheet_are_one_sentence_and_write_nothing() -> None:
    sample = sheet_sample()
    assert {path for _, path, _ in sample} == set(PLACES)
    assert {repr(value) for _, _, value in sample} >= {repr(value) for value in BAD_VALUES.values()}
    answers = await through_the_sheet(sample)
    print(f"{len(sample)} imports through the sheet: {answers}")
    assert answers.get("0 imported · 0 already here · 1 refused", 0) > len(sample) // 2


def test_every_bad_value_in_every_place_is_imported_or_refused_in_one_sentence() -> None:
    refused = 0
    for label, path, value in every_case():
        store = Store.in_memory()
        report = archive.import_json(store, with_value(path, value))
        assert len(report.imported) + len(report.refused) == 1, label
        if not report.refused:
            (summary,) = store.listing()
            store.peek(summary.id)
            archive.export_csv(store)  # its dates can be shown
            continue
        refused += 1
        (refusal,) = report.refused
        named = refusal.named.text() if refusal.named else refusal.session
        line = f"{named}: {refusal.reason}"
        line.encode("utf-8")  # sendable
        assert len(line) < 400 and "x" * 61 not in line, (label, line[:500])
        assert store.listing() == [], label  # nothing written
    print(f"{len(PLACES)} places x {len(BAD_VALUES)} values: {refused} refused")
    assert refused > len(PLACES) * len(BAD_VALUES) // 2


@pytest.mark.parametrize(("place", "value", "sentence"), CRASHED)
def test_the_values_that_crashed_an_import_are_refused_in_their_own_words(
    place: tuple[Any, ...], value: Any, sentence: str
) -> None:
    store = Store.in_memory()
    report = archive.import_json(store, with_value(("sessions", 0, *place), value))
    (refusal,) = report.refused
    assert sentence in refusal.reason
    assert report.imported == [] and store.listing() == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(PLACES),
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats()
        | st.text(max_size=8)
        | st.sampled_from(["\ud800", "\udfff", 10**400, -(10**400)]),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
        max_leaves=6,
    ),
)
def test_any_json_value_anywhere_in_an_archive_is_imported_or_refused_in_words(
    path: tuple[Any, ...], value: Any
) -> None:
    store = Store.in_memory()
    report = archive.import_json(store, with_value(path, value))
    assert len(report.imported) + len(report.refused) == 1
    for refusal in report.refused:
        refusal.reason.encode("utf-8")
        assert len(refusal.reason) < 400
    if report.refused:
        assert store.listing() == []
    else:
        (summary,) = store.listing()
        store.peek(summary.id)
        archive.export_csv(store)  # its dates can be shown
        archive.export_json(store)

"""What a page shows is one frozen value: a change is a new `UiState`, and the page's
observable state says so by itself (no change can be made unseen, or half made)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from companion.app.state import NO_NOTICE, PageState, UiState, with_value

LISTENERS: list[Any] = []  # Flet holds listeners weakly: kept alive here


def watched() -> tuple[PageState, list[Any]]:
    state = PageState()
    told: list[Any] = []

    def listener(_sender: Any, field: Any) -> None:
        told.append(field)

    LISTENERS.append(listener)
    state.subscribe(listener)  # type: ignore[attr-defined]
    return state, told


def test_a_page_s_screen_cannot_be_changed_in_place() -> None:
    ui = UiState(screen="game", panel="log")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ui.panel = None  # type: ignore[misc]


def test_a_new_sheet_or_notice_is_told_by_the_state_itself() -> None:
    state, told = watched()
    state.show(panel="end_round", draft={"missing": {"Ann": 2}})
    assert told == ["ui"] and state.ui.panel == "end_round"
    state.show(notice="Ann cannot pay", refused="pay")
    assert told == ["ui", "ui"] and state.ui.draft == {"missing": {"Ann": 2}}
    state.show(**NO_NOTICE)
    assert told == ["ui", "ui", "ui"] and state.ui.notice is None and state.ui.panel == "end_round"
    state.show(**NO_NOTICE)  # nothing new: nothing to draw
    assert told == ["ui", "ui", "ui"]


def test_a_value_set_deep_in_a_draft_leaves_the_draft_shown_before_as_it_was() -> None:
    before = {"missing": {"Ann": 2}, "note": "x"}
    after = with_value(before, ("missing", "Bob"), 4)
    assert after == {"missing": {"Ann": 2, "Bob": 4}, "note": "x"}
    assert before == {"missing": {"Ann": 2}, "note": "x"}  # what an earlier drawing holds is unchanged
    assert with_value({}, ("typed", "missing/Ann"), "1") == {"typed": {"missing/Ann": "1"}}

"""A refusal is read whole on a phone, in Chromium at 412x915.

Tried by a table: the notice showed three lines ("…discarded this turn; a") and the rest only
in a hover tooltip, which a phone has not. The notice keeps its fixed slot (it moves nothing)
and its words scroll inside it: here a thumb's swipe on the slot brings the last line in view,
in English and in French (the longer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import Browsers, serve_cli
from test_app_e2e import see
from watch import find, open_watched, press, settle, view

from companion.app.data import AppData
from companion.store import Store
from companion.text import i18n

PHONE = {"width": 412, "height": 915}

# The refusal's text and the list it scrolls in (the nearest scrolling ancestor), as drawn.
NOTICE_JS = """(wanted) => {
    const span = Array.from(document.querySelectorAll("flt-semantics > span"))
        .find((s) => s.textContent.trim() === wanted);
    if (!span) return null;
    let list = span.parentElement.parentElement;
    while (list && !((list.getAttribute("style") || "").includes("scrollbar-width"))) list = list.parentElement;
    const box = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, x: r.x,
                                                                       y: r.y, width: r.width}; };
    return {text: box(span.parentElement), list: list ? box(list) : null};
}"""


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_long_refusal_scrolls_whole_inside_its_slot(browsers: Browsers, tmp_path: Path, language: str) -> None:
    data_dir = tmp_path / "data"
    store = Store(data_dir)
    data = AppData(store)
    session = data.new("heartland", ["Ann", "Bob", "Cid"], {})
    data.remember_screen(session.id)
    store.close()
    refusal = i18n.t("heartland.no_action", language, player="Ann")
    with serve_cli(["--lang", language], data_dir=data_dir) as server:
        server.wait_for_log(r"serving at")
        ui = open_watched(browsers, server.url, viewport=PHONE)
        try:
            see(ui, i18n.t("ui.heartland.subtitle_round", language, number=1, player="Ann"))
            settle(ui, None, quiet_ms=300)
            label = i18n.t("ui.heartland.end_turn", language, player="Ann", next="Bob")
            end_turn = find(view(ui).buttons, label)
            assert end_turn is not None, [button.label for button in view(ui).buttons]
            press(ui, end_turn)  # no action yet: the table's call, said with Record anyway beside it
            see(ui, refusal)
            settle(ui, None, quiet_ms=300)
            shown = ui.page.evaluate(NOTICE_JS, refusal)
            assert shown is not None and shown["list"] is not None, shown
            slot = shown["list"]
            # Flutter gives a screen reader the whole sentence; the eye reads it by swiping the
            # slot: what it shows changes, and after enough swipes stops changing (the last line).
            clip = {"x": slot["x"], "y": slot["top"], "width": slot["width"], "height": slot["bottom"] - slot["top"]}
            first = ui.page.screenshot(clip=clip)
            seen = [first]
            for _ in range(8):
                ui.page.mouse.move(slot["x"] + slot["width"] / 2, (slot["top"] + slot["bottom"]) / 2)
                ui.page.mouse.wheel(0, 60)
                ui.page.wait_for_timeout(1500)  # the scroll bar fades
                seen.append(ui.page.screenshot(clip=clip))
                if seen[-1] == seen[-2]:
                    break
            assert seen[1] != first, "the notice did not scroll: its last lines cannot be read"
            assert seen[-1] == seen[-2], "the notice still scrolls after eight swipes"
            after = ui.page.evaluate(NOTICE_JS, refusal)
            assert after["list"] == slot, (after, shown)  # the slot itself never moved
            # Nothing else moved: End turn is where it was.
            again = find(view(ui).buttons, label)
            assert again is not None and again.y == end_turn.y
        finally:
            ui.page.context.close()

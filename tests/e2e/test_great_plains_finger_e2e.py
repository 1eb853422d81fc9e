"""Great Plains' cave -> token change under a resting finger, in Chromium.

Tried by a table: the cave button filled the turn area, and once the sixth cave was down
"+ Eagle" sat under the spot tapped six times, so the seventh tap there recorded "placed a
token (1 of 20) and took an eagle spirit". Here one point is tapped seven times, on a phone
and in a desktop window: six caves, then one plain token."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from finger import Finger
from harness import Browsers, FlutterPage, serve_app, serve_cli
from seeds import great_plains_scoring, seed
from test_app_e2e import see
from test_nothing_moves import new_game
from watch import find, frames, in_view, open_from_home, open_watched, settle, view

APP = "companion.app.main:main"


@pytest.fixture(params=[{"width": 412, "height": 915}, {"width": 1280, "height": 800}], ids=["phone", "desktop"])
def ui(
    request: pytest.FixtureRequest, browsers: Browsers, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FlutterPage]:
    with serve_app(APP, data_dir=tmp_path_factory.mktemp("plains") / "data") as server:
        page = open_watched(browsers, server.url, viewport=request.param)
        try:
            yield page
        finally:
            page.page.context.close()


def test_seven_taps_on_one_spot_place_six_caves_then_a_plain_token(ui: FlutterPage) -> None:
    finger = Finger(ui, names=("Ann", "Bob"))
    new_game(finger, "Great Plains · 2 players", "Ann", "Bob")
    finger.tap("Start game")
    see(ui, "Place cave (1 of 6) · Ann")
    cave = find(view(ui).buttons, "Place cave (1 of 6) · Ann")
    assert cave is not None
    spot = (cave.x + cave.width / 2, cave.y + cave.height / 2)  # where the thumb rests
    for _ in range(7):
        mark = frames(ui)
        ui.page.mouse.click(*spot)
        assert settle(ui, mark), "the server did not answer a tap"
    see(ui, "Last: Ann placed a token (1 of 20)")
    shown = view(ui)
    undo = find(shown.buttons, "Undo: Ann placed a token (1 of 20)")
    assert undo is not None, [button.label for button in shown.buttons]
    assert not any("spirit" in text for text in shown.texts if text.startswith("Last:"))
    # The spot that placed caves places tokens: it is Place token's box now.
    token = find(shown.buttons, "Place token · Bob")
    assert (
        token is not None
        and token.x <= spot[0] <= token.x + token.width
        and token.y <= spot[1] <= token.y + token.height
    )


@pytest.mark.parametrize(
    "viewport", [{"width": 412, "height": 915}, {"width": 1280, "height": 800}], ids=["phone", "desktop"]
)
def test_scoring_shows_add_zone_whole_and_in_view(
    browsers: Browsers, tmp_path_factory: pytest.TempPathFactory, viewport: dict[str, int]
) -> None:
    """Once every token is down, "+ Zone" is whole (it showed 38 of its 48 px on a phone)."""
    data_dir = tmp_path_factory.mktemp("scoring") / "data"
    seed(data_dir, [("great_plains", 2, {}, great_plains_scoring)])
    with serve_cli([], data_dir=data_dir) as server:
        server.wait_for_log(r"serving at")
        ui = open_watched(browsers, server.url, viewport=viewport)
        try:
            open_from_home(ui, "Great Plains · Ann and Bob")
            see(ui, "Scoring the prairies")
            add = find(view(ui).buttons, "+ Zone")
            assert add is not None and add.height >= 48 and add.width >= 48, add
            assert in_view(add) and add.bottom <= viewport["height"], add
        finally:
            ui.page.context.close()

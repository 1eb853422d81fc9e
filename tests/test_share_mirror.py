"""Phones on the shared game share one drawing (companion.app.mirror), in-process.

Alike phones (watching or keeping score, in one language, theme and layout) are sent the
very same bytes for a host's tap, from one drawing; a phone's own tap or a new role takes
it out of the group into a drawing of its own, with nothing it shows lost and the tap acted
on; a new theme or width moves it to the drawing of its kind; its socket coming back sends
it the shared drawing whole. The harness reads what the client holds (`Screen.shared_view`),
and fails any patch sent to a control the client never had.
"""

from __future__ import annotations

import dataclasses

import pytest
from app_helpers import notice, table
from flet.components.component import Component
from flet.messaging.protocol import MessageAction
from flet_harness import Screen, wait_for
from test_share_app import STALE, VIEWER_REFUSAL, Table, events_of, keeping, shared_heartland

from companion.app import mirror
from companion.app.share import SCOREKEEPER, Share


def mirror_of(phone: Screen) -> mirror.Mirror:
    follower = mirror._FOLLOWING.get(phone.page.session)
    assert follower is not None, "the phone draws its own page"
    return follower.mirror


def patches_after(phone: Screen, mark: int) -> list[bytes]:
    return [m.raw for m in phone.conn.messages[mark:] if m.action == MessageAction.PATCH_CONTROL]


def keyed_ids(phone: Screen) -> dict[str, int]:
    """The id of each control whose key is used once on the page (the sheet's own are left out)."""
    shown = [control for control in phone.walk() if isinstance(control.key, str) and not isinstance(control, Component)]
    keys = [control.key for control in shown]
    return {
        control.key: control._i
        for control in shown
        if keys.count(control.key) == 1 and not phone.in_top_dialog(control.key)
    }


async def host_moves(table_: Table, host: Screen, shared: Share, *phones: Screen) -> None:
    """The host closes its share sheet and moves; every phone shows what the host shows."""
    await host.tap("panel-close")
    await host.tap("move-fuel-1")
    await wait_for(lambda: "move" in events_of(table_, shared))
    for phone in phones:
        await phone.settle()
        assert phone.text_of("undo-strip") == host.text_of("undo-strip")


async def watching(table_: Table, shared: Share, *names: str) -> list[Screen]:
    phones = []
    for name in names:
        guest = shared.join_by_code(shared.code, name)
        phones.append(await table_.page(guest))
    return phones


@table
async def test_alike_phones_show_one_drawing_and_are_sent_the_same_bytes_for_a_tap() -> None:
    async with shared_heartland() as (table_, host, shared):
        vera, walt = await watching(table_, shared, "Vera", "Walt")
        assert Screen.shared_view(vera.page) is not None
        assert Screen.shared_view(vera.page) is Screen.shared_view(walt.page)
        assert len(mirror_of(vera).leads) == 1
        marks = [len(vera.conn.messages), len(walt.conn.messages)]
        await host_moves(table_, host, shared, vera, walt)
        assert vera.text_of("guest-role") == walt.text_of("guest-role") == VIEWER_REFUSAL
        sent = patches_after(vera, marks[0])
        assert sent and sent == patches_after(walt, marks[1])


@table
async def test_a_phone_that_opens_the_log_draws_its_own_and_the_others_still_share() -> None:
    async with shared_heartland() as (table_, host, shared):
        await host.tap("panel-close")
        await host.tap("move-fuel-1")
        vera, walt = await watching(table_, shared, "Vera", "Walt")
        shared_mirror = mirror_of(vera)
        before = vera.texts()
        held = keyed_ids(vera)
        await vera.tap("log")  # a tap on the shared drawing: acted on in a drawing of its own
        assert vera.in_top_dialog("log-panel")
        # Its own drawing took the ids the client holds: nothing on the screen is built anew.
        own = keyed_ids(vera)
        both = held.keys() & own.keys()
        assert len(both) > 40 and {key: own[key] for key in both} == {key: held[key] for key in both}
        assert Screen.shared_view(vera.page) is None and Screen.shared_view(walt.page) is not None
        await vera.tap("panel-close")
        assert not vera.dialogs and vera.texts() == before  # the same screen, now its own
        # The host's next tap reaches both: one through the shared drawing, one through its own.
        await host.tap("undo")
        await wait_for(lambda: events_of(table_, shared) == [])
        for phone in (vera, walt):
            await phone.settle()
            assert phone.text_of("undo-strip") == host.text_of("undo-strip")
        # The last phone of a kind to leave takes its drawing with it.
        await walt.tap("log")
        assert walt.in_top_dialog("log-panel") and shared_mirror.leads == {}


@table
async def test_scorekeepers_share_a_drawing_of_their_own_and_a_keeper_s_tap_records() -> None:
    async with shared_heartland() as (table_, host, shared):
        sam, tess = await keeping(table_, shared, "Sam", "Tess")
        (vera,) = await watching(table_, shared, "Vera")
        assert Screen.shared_view(sam.page) is Screen.shared_view(tess.page) is not None
        assert Screen.shared_view(vera.page) is not Screen.shared_view(sam.page)
        assert sam.text_of("guest-role") == "You keep score with the host." and not sam.is_disabled("discard")
        marks = [len(sam.conn.messages), len(tess.conn.messages)]
        await host_moves(table_, host, shared, sam, tess, vera)
        assert patches_after(sam, marks[0]) == patches_after(tess, marks[1])
        await tess.tap("discard")  # acted on in her own drawing, once her browser showed the move
        assert notice(tess) is None and events_of(table_, shared) == ["move", "discard"]
        assert Screen.shared_view(tess.page) is None and Screen.shared_view(sam.page) is not None
        await sam.settle()
        assert sam.text_of("undo-strip") == tess.text_of("undo-strip") == host.text_of("undo-strip")


@table
async def test_a_keeper_s_tap_on_a_shared_drawing_its_browser_has_not_shown_is_refused_as_stale() -> None:
    """The shared drawing reaches a keeper's phone at once, but a tap it sent before its browser
    showed the host's move acts on what it showed: refused, nothing recorded, and said."""
    async with shared_heartland() as (table_, host, shared):
        sam, tess = await keeping(table_, shared, "Sam", "Tess")
        assert tess.session is not None
        answer = tess.session.handle_invoke_method_results
        held: list[tuple[object, ...]] = []
        tess.session.handle_invoke_method_results = lambda *reply: held.append(reply)  # type: ignore[method-assign]
        await host_moves(table_, host, shared, sam, tess)
        assert Screen.shared_view(tess.page) is not None  # still following the shared drawing
        await tess.tap("discard")  # her browser has not yet said it shows the move
        assert notice(tess) == STALE
        assert events_of(table_, shared) == ["move"]
        for reply in held:  # the browser answers: it shows the move now
            answer(*reply)
        tess.session.handle_invoke_method_results = answer  # type: ignore[method-assign]
        await tess.settle()
        await tess.tap("discard")
        assert notice(tess) is None and events_of(table_, shared) == ["move", "discard"]


@table
async def test_a_viewer_made_scorekeeper_draws_its_own_and_records() -> None:
    async with shared_heartland() as (table_, host, shared):
        (sam,) = await watching(table_, shared, "Sam")
        assert Screen.shared_view(sam.page) is not None
        table_.sharing.set_role(next(iter(shared.guests)), SCOREKEEPER)
        await wait_for(lambda: Screen.shared_view(sam.page) is None)
        await sam.settle()
        assert sam.text_of("guest-role") == "You keep score with the host."
        await sam.tap("move-fuel-1")
        assert notice(sam) is None and events_of(table_, shared) == ["move"]


@table
async def test_a_phone_turned_dark_or_wide_follows_a_drawing_of_its_kind() -> None:
    async with shared_heartland() as (table_, host, shared):
        vera, walt = await watching(table_, shared, "Vera", "Walt")
        await walt.brightness("dark")
        assert Screen.shared_view(walt.page) is not None
        assert Screen.shared_view(walt.page) is not Screen.shared_view(vera.page)
        await vera.resize(1200, 800)
        wide = Screen.shared_view(vera.page)
        assert wide is not None and wide is not Screen.shared_view(walt.page)
        assert len(mirror_of(vera).leads) == 2  # the light, narrow one went with its last phone
        await host_moves(table_, host, shared, vera, walt)


@table
async def test_a_phone_set_to_large_text_follows_a_drawing_sized_for_its_text() -> None:
    async with shared_heartland() as (table_, host, shared):
        vera, walt = await watching(table_, shared, "Vera", "Walt")
        assert Screen.shared_view(walt.page) is Screen.shared_view(vera.page)
        await walt.event("probe", "size_change", {"w": 175.0, "h": 200.0})  # Walt's phone: text at 200 %
        large = Screen.shared_view(walt.page)
        assert large is not None and large is not Screen.shared_view(vera.page)
        assert walt.find("undo-strip").height == 2 * vera.find("undo-strip").height
        await host_moves(table_, host, shared, vera, walt)


@table
async def test_a_phone_whose_socket_comes_back_is_sent_the_shared_drawing_whole() -> None:
    async with shared_heartland() as (table_, host, shared):
        vera, walt = await watching(table_, shared, "Vera", "Walt")
        await vera.drop()
        await host.tap("panel-close")
        await host.tap("move-fuel-1")  # while Vera's phone sleeps
        await wait_for(lambda: "move" in events_of(table_, shared))
        mark = len(vera.conn.messages)
        await vera.come_back()
        whole = patches_after(vera, mark)
        assert any(b"Ann" in raw and b"Bob" in raw for raw in whole)
        assert Screen.shared_view(vera.page) is Screen.shared_view(walt.page)
        assert vera.text_of("undo-strip") == host.text_of("undo-strip")
        mark = len(vera.conn.messages)
        await host.tap("undo")
        await wait_for(lambda: events_of(table_, shared) == [])
        await vera.settle()
        assert patches_after(vera, mark) and vera.text_of("undo-strip") == host.text_of("undo-strip")


@table
async def test_a_phone_s_refused_tap_is_told_in_its_own_drawing_and_records_nothing() -> None:
    async with shared_heartland() as (table_, host, shared):
        (vera,) = await watching(table_, shared, "Vera")
        await vera.tap("move-fuel-1", force=True)
        assert notice(vera) == VIEWER_REFUSAL and events_of(table_, shared) == []
        assert Screen.shared_view(vera.page) is None


@table
async def test_a_phone_drawn_as_its_own_shares_again_when_its_socket_comes_back() -> None:
    async with shared_heartland() as (table_, host, shared):
        vera, walt = await watching(table_, shared, "Vera", "Walt")
        await vera.tap("log")
        await vera.tap("panel-close")
        assert Screen.shared_view(vera.page) is None
        await vera.reconnect()
        assert Screen.shared_view(vera.page) is Screen.shared_view(walt.page)
        mark = len(vera.conn.messages)
        await host_moves(table_, host, shared, vera, walt)
        assert patches_after(vera, mark)
        await vera.tap("log")  # and its taps act as before
        assert vera.in_top_dialog("log-panel")


@pytest.mark.parametrize(("game", "players"), [("heartland", 3), ("transamerica", 3), ("great_plains", 2)])
@table
async def test_every_control_a_watching_phone_can_tap_is_keyed_so_its_tap_is_never_lost(
    game: str, players: int
) -> None:
    # A tap on the shared drawing is passed to the control with the same key in the phone's
    # own drawing: a control with a handler and no key would lose it.
    async with shared_heartland(game, ("Ann", "Bob", "Cid")[:players]) as (table_, _host, shared):
        (vera,) = await watching(table_, shared, "Vera")
        assert Screen.shared_view(vera.page) is not None
        handled = [
            control
            for control in vera.walk()
            if control is not vera.page
            and any(
                getattr(control, field.name, None) is not None
                for field in dataclasses.fields(control)
                if field.name.startswith("on_")
            )
        ]
        assert handled and [control for control in handled if control.key is None] == []


@pytest.mark.parametrize("flet_version", ["1.0.5", "1.1.0"])
def test_the_live_table_works_with_the_mirror_and_without_it_on_another_flet(
    monkeypatch: pytest.MonkeyPatch, flet_version: str
) -> None:
    """On a Flet other than the one mirror.py reaches into (flet_private.py), the app starts
    all the same and each phone draws its own page: it follows the host's moves either way."""
    import flet.version

    from companion.app import flet_private

    monkeypatch.setattr(flet.version, "flet_version", flet_version)
    assert flet_private.mirror_usable() == (flet_version == flet_private.FOR_FLET)

    @table
    async def played() -> None:
        async with shared_heartland() as (table_, host, shared):
            vera, walt = await watching(table_, shared, "Vera", "Walt")
            shared_drawing = Screen.shared_view(vera.page)
            if flet_private.mirror_usable():
                assert shared_drawing is not None and shared_drawing is Screen.shared_view(walt.page)
            else:
                assert shared_drawing is None and mirror._FOLLOWING.get(vera.page.session) is None
            await host_moves(table_, host, shared, vera, walt)
            await vera.tap("log")  # a phone's own tap works either way
            assert vera.in_top_dialog("log-panel")

    played()

"""Small building blocks shared by every screen: bars, buttons, numbers, notices, the end screen's buttons."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import theme
from companion.app.clock_chip import clock_chip
from companion.rules.base import COLOURS, Standing
from companion.text import i18n, reference
from companion.text.messages import join_names

if TYPE_CHECKING:
    from companion.app.view import View

BIG = 36  # scores and money: readable across a table
BUTTON_HEIGHT = 48
TARGET = 48  # the smallest tappable size, both ways
CHIP_SPACING = 4
QUIET = ft.Colors.ON_SURFACE_VARIANT
MUTED_BG = ft.Colors.with_opacity(0.08, ft.Colors.ON_SURFACE)  # a refused button's tint, either theme
ERROR_BG = ft.Colors.ERROR_CONTAINER
INFO_BG = ft.Colors.SECONDARY_CONTAINER
NOTICE_HEIGHT = 72  # a screen's room for a refusal or warning: four lines, more scroll inside it
STRIP_HEIGHT = 56  # the last act in up to three lines (two cut a long one at 412 px), and Undo
WIDE = 900  # from this width (a desktop window, a tablet) a game's parts stand side by side
WIDE_CONTENT = 960  # the widest a screen of lists and forms grows: lines stay readable


# A game whose players' colours follow something else than their seats (Great Plains: the
# tribe) registers (players, options, player) -> the player's place in the palette, so the
# player has that one colour on every screen: the game, its end, its chart, the set-up.
COLOUR_PLACES: dict[str, Callable[[Sequence[str], Mapping[str, Any], str], int]] = {}


def colour_place(game_id: str, players: Sequence[str], options: Mapping[str, Any], player: str) -> int:
    chosen = options.get("colours")
    if isinstance(chosen, Mapping) and chosen.get(player) in COLOURS:  # picked at New game
        return COLOURS.index(chosen[player])
    place = COLOUR_PLACES.get(game_id)
    return place(players, options, player) if place is not None else list(players).index(player)


def player_colour(view: View, players: Sequence[str], player: str) -> str:
    """The player's colour in a shade that reads on this page's theme."""
    session = view.session
    if session is not None and player in session.players:
        place = colour_place(session.game.id, session.players, session.options, player)
        return theme.seat_colour(place, dark=view.dark)
    return theme.player_colour(players, player, dark=view.dark)


def slug(text: str) -> str:
    """A control key from a player's name; distinct names (ignoring case) give distinct keys."""
    return "".join(char if char.isalnum() else f"-{ord(char):x}" for char in text.casefold())


def t(view: View, message_id: str, **params: Any) -> str:
    """The screen's words for `message_id` in the page's language."""
    return view.t(message_id, **params)


def money(view: View, amount: int) -> str:
    """$5 (12 $ in French and Spanish), or -$3 for a final score the cargo penalty took below zero."""
    return i18n.money(amount, view.language)


def result_line(standings: Sequence[Standing], score: str, language: str) -> str:
    """'Ann won ($44)' or 'Ann and Cy shared the win ($40)', for the home screen."""
    winners = [standing.player for standing in standings if standing.winner]
    message_id = "ui.home.won" if len(winners) == 1 else "ui.home.shared"
    return i18n.t(message_id, language, players=join_names(winners, language), score=score)


def names(view: View, items: Sequence[str]) -> str:
    return join_names(list(items), view.language)


def text(
    value: str,
    size: float = 16,
    *,
    bold: bool = False,
    colour: str | None = None,
    key: str | None = None,
    expand: bool = False,
) -> ft.Text:
    return ft.Text(
        value, size=size, weight=ft.FontWeight.BOLD if bold else None, color=colour, key=key, expand=expand or None
    )


def one_line(
    words: str,
    size: float,
    *,
    bold: bool = False,
    colour: str | None = None,
    key: str | None = None,
    lines: int = 1,
) -> ft.Text:
    """A line that never wraps: a card or bar keeps its height whatever it says (`lines`: a
    few, where a large text size left a line a few letters wide)."""
    return ft.Text(
        words,
        size=size,
        weight=ft.FontWeight.BOLD if bold else None,
        color=colour,
        key=key,
        max_lines=lines,
        overflow=ft.TextOverflow.ELLIPSIS,
    )


def is_large(view: View) -> bool:
    """Text at 150 % or more: a line holds half the words it was laid out for."""
    return view.text_scale >= 1.5


def big_number(value: str, *, key: str | None = None, view: View | None = None) -> ft.Text:
    """A score or money, readable across a table: at a large text size it grows half as much
    (in ratio: √2 at 200 %), or "$999" left no room for the name beside it."""
    return ft.Text(
        value, size=BIG if view is None else round(BIG / view.text_scale**0.5), weight=ft.FontWeight.BOLD, key=key
    )


def action(
    label: str,
    on_tap: Callable[[], None],
    *,
    key: str,
    refusal: str | None = None,
    view: View | None = None,
    primary: bool = False,
    expand: bool | int = False,
    describe: str | None = None,
    compact: bool = False,
    chosen: bool = False,
    overrule: dict[str, Any] | None = None,
    icon: ft.IconData | None = None,
) -> ft.Control:
    """A big button. When the rules refuse it right now it stays tappable but muted, and a
    tap explains why instead of recording anything. `describe` (what it does, in words) is
    its tooltip, which screen readers announce too. `compact` buttons (a count, a price)
    are 48 px square, so a row of seven fits a phone. A refused tap marks the button
    itself (an error outline and icon) besides saying why in the notice slot. `overrule`
    is the event the table may record anyway when the refusal is its call. A button given
    an `icon` keeps its size when a refused tap swaps that icon for the mark."""

    def tapped(_: ft.Event[Any]) -> None:
        if refusal is not None and view is not None:
            view.act.show_notice(refusal, tapped=key, override=overrule)
        else:
            on_tap()

    marked = view is not None and view.ui.refused == key and view.ui.notice is not None
    muted = refusal is not None
    filled = (primary or chosen) and not muted
    if marked:
        side: ft.BorderSide | None = ft.BorderSide(2, ft.Colors.ERROR)
    else:
        side = ft.BorderSide(1, ft.Colors.PRIMARY) if filled else None
    # A button not for now keeps its outline and says so in quieter words, that still read as
    # well as any text (a faded button's words did not: 2.2:1). Colour alone was not enough,
    # and it reversed between themes (near-white words in dark looked stronger than the green
    # ones): its words are struck through and it sits on a grey tint, alike in both themes,
    # and neither changes its size.
    style = ft.ButtonStyle(
        padding=ft.Padding.symmetric(horizontal=0 if compact else 12, vertical=8),
        side=side,
        color=QUIET if muted else (ft.Colors.ON_PRIMARY if filled else None),
        bgcolor=ft.Colors.PRIMARY if filled else (MUTED_BG if muted else None),
        # Given whole in every state: a button style's text style replaces the theme's rather
        # than adding to it, so a muted one alone lost its weight and moved the sheet by 2 px.
        text_style=ft.TextStyle(
            size=14,
            weight=ft.FontWeight.W_500,
            letter_spacing=0.1,
            decoration=ft.TextDecoration.LINE_THROUGH if muted else None,
        ),
    )
    # One kind of button whatever its state, filled by its style: a button that changed kind
    # would be a new control, and a second tap at the same spot would reach one that is gone.
    return ft.OutlinedButton(
        content=label,
        icon=ft.Icons.ERROR_OUTLINE if marked and not compact else (ft.Icons.CHECK if chosen and not compact else icon),
        on_click=tapped,
        key=key,
        height=BUTTON_HEIGHT if view is None else view.grown(BUTTON_HEIGHT),
        width=(TARGET if view is None else view.grown(TARGET)) if compact else None,
        style=style,
        expand=expand or None,  # an explicit expand=False breaks layout inside a wrapping Row
        tooltip=refusal or describe,
    )


def event_button(
    view: View,
    label: str,
    event: dict[str, Any],
    *,
    key: str,
    primary: bool = False,
    expand: bool | int = False,
    after: Callable[[], None] | None = None,
    compact: bool = False,
    icon: ft.IconData | None = None,
) -> ft.Control:
    """A button that records one event; the rules are asked first whether it is allowed,
    and the sentence it would log becomes its tooltip. `after` runs once it is recorded."""
    sentence, refusal, overridable = view.verdict(event)

    def record() -> None:
        if view.act.apply(event, tapped=key) and after is not None:
            after()

    return action(
        label,
        record,
        key=key,
        refusal=refusal,
        describe=sentence,
        view=view,
        primary=primary,
        expand=expand,
        compact=compact,
        overrule=dict(event, override=True) if overridable else None,
        icon=icon,
    )


def record_anyway(view: View) -> ft.Control:
    """Overrule a refusal that is the table's call: an outlined button, never the default."""
    return ft.OutlinedButton(
        t(view, "ui.record_anyway"),
        key="record-anyway",
        height=view.grown(TARGET),
        on_click=lambda _: view.act.record_anyway(),
        visible=view.ui.override is not None,
        tooltip=t(view, "ui.record_anyway.tip"),
    )


def icon_button(
    icon: ft.IconData, tooltip: str, on_tap: Callable[[], None], *, key: str, disabled: bool = False
) -> ft.Control:
    """An icon with its words as tooltip and screen-reader label, in a 48 px square."""
    return ft.IconButton(
        icon,
        tooltip=tooltip,
        on_click=lambda _: on_tap(),
        key=key,
        disabled=disabled,
        width=TARGET,
        height=TARGET,
        size_constraints=ft.BoxConstraints(min_width=TARGET, min_height=TARGET),
    )


def open_rules(view: View, place: str) -> None:
    """Open the rules reference at the part for `place` ("load", "end"…), keeping the open sheet to go back to."""
    assert view.session is not None
    came_from = None
    if view.ui.panel not in (None, "rules"):
        came_from = {"panel": view.ui.panel, "draft": dict(view.ui.draft)}
    view.act.open_panel("rules", section=reference.opening(view.session.game.id, place), came_from=came_from)


def rules_button(view: View, place: str, *, key: str) -> ft.Control:
    """The rules reference from a sheet or an end screen, opening at the part for `place`."""
    return ft.OutlinedButton(
        t(view, "ui.rules"),
        icon=ft.Icons.MENU_BOOK_OUTLINED,
        key=key,
        height=view.grown(TARGET),
        on_click=lambda _: open_rules(view, place),
    )


def rules_icon(view: View, place: str) -> ft.Control | None:
    """The rules reference from the top bar (a game without one has no button)."""
    session = view.session
    assert session is not None
    if session.game.id not in reference.SECTIONS:
        return None
    return icon_button(
        ft.Icons.MENU_BOOK_OUTLINED,
        t(view, "ui.rules.open", title=session.game.title),
        lambda: open_rules(view, place),
        key="rules",
    )


def turn_lines(view: View) -> int:
    """Lines whose turn it is may take: one at the designed size; three from 150 % text, where
    one line held a few letters ("Round 1 · B…") beside the clock."""
    return 3 if is_large(view) else 1


def top_bar(view: View, title: str, subtitle: str | None = None, *, rules: str = "game") -> ft.Control:
    """Back, the title, Undo, Redo, the rules (opening at the part for `rules`) and the log."""
    session = view.session
    assert session is not None
    undo, redo = session.undo_sentence, session.redo_sentence
    undo_label = t(view, "ui.undo.what", sentence=undo) if undo else t(view, "ui.undo.nothing")
    redo_label = t(view, "ui.redo.what", sentence=redo) if redo else t(view, "ui.redo.nothing")
    # One line, whatever the icons beside it leave: "TransAmerica" beside six icons on a phone.
    heading: list[ft.Control] = [
        ft.Text(title, size=16, weight=ft.FontWeight.BOLD, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)
    ]
    read_only = view.read_only() is not None
    # A phone that joined follows this game only: no way back to the host's other games.
    back = (
        None
        if view.guest is not None
        else icon_button(ft.Icons.ARROW_BACK, t(view, "ui.back_home"), view.act.go_home, key="back")
    )
    share = (
        icon_button(
            ft.Icons.QR_CODE_2 if view.shared is None else ft.Icons.CAST_CONNECTED,
            t(view, "ui.share"),
            view.act.share_game if view.shared is None else lambda: view.act.open_panel("share"),
            key="share",
        )
        if view.can_share
        else None
    )
    bar = ft.Row(
        present(
            back,
            ft.Column(heading, spacing=0, expand=True, alignment=ft.MainAxisAlignment.CENTER),
            share,
            icon_button(
                ft.Icons.UNDO,
                undo_label,
                lambda: view.act.undo(tapped="undo"),
                key="undo",
                disabled=read_only or not session.can_undo,
            ),
            icon_button(
                ft.Icons.REDO,
                redo_label,
                lambda: view.act.redo(tapped="redo"),
                key="redo",
                disabled=read_only or not session.can_redo,
            ),
            rules_icon(view, rules),
            icon_button(ft.Icons.MENU, t(view, "ui.log"), lambda: view.act.open_panel("log"), key="log"),
        ),
        spacing=0,
        height=view.grown(TARGET),
        key="top-bar",
    )
    # Whose turn it is gets a line of its own with the clock: beside five icons on a phone it
    # was cut ("Round 1 · Ann's …"), and the clock beside the last act cut that at two lines.
    turn = ft.Text(
        subtitle or "",
        size=14,
        weight=ft.FontWeight.W_600,
        key="subtitle",
        max_lines=turn_lines(view),
        overflow=ft.TextOverflow.ELLIPSIS,
    )
    line = ft.Row(
        present(
            ft.Container(turn, expand=True, alignment=ft.Alignment.CENTER_LEFT, padding=ft.Padding.only(left=8)),
            clock_chip(view),
        ),
        height=view.grown(TARGET) * (1.5 if turn_lines(view) > 1 else 1),  # three lines of 14 px at 200 %
        spacing=0,
        key="turn-line",
    )
    return ft.Column([bar, line], spacing=0, key="top")


def guest_banner(view: View) -> ft.Control | None:
    """On a phone that joined: whether it only follows the game or keeps score too."""
    if view.guest is None:
        return None
    words = view.read_only() or t(view, "ui.share.keeper")
    return ft.Container(
        text(words, 14, key="guest-role"),
        bgcolor=INFO_BG,
        border_radius=8,
        padding=ft.Padding.symmetric(horizontal=12, vertical=8),
        key="guest-banner",
    )


def undo_strip(view: View) -> ft.Control:
    """The last recorded act in words, so a mis-tap is seen and undone in one tap."""
    session = view.session
    assert session is not None
    if session.undo_sentence is None:
        words, colour = t(view, "ui.log.nothing"), QUIET
    else:
        words, colour = t(view, "ui.log.last", sentence=session.undo_sentence), None
    if session.clock.paused and not session.is_over:
        words, colour = t(view, "ui.clock.paused_note"), None
    large = is_large(view)
    # Three lines at most; at a large text size three held half a sentence: it is whole then,
    # and scrolls inside the strip as a long notice does in its slot.
    last = ft.Text(
        words,
        size=13,
        color=colour,
        key="last-act",
        max_lines=None if large else 3,
        overflow=ft.TextOverflow.CLIP
        if large
        else ft.TextOverflow.ELLIPSIS,  # CLIP: the default, nothing cut with no line limit
    )
    # Always there and always this tall: appearing after the first act, or wrapping a long
    # sentence, it pushed End turn up under the finger.
    undo = ft.TextButton(
        t(view, "ui.undo"),
        on_click=lambda _: view.act.undo(tapped="undo-last"),
        key="undo-last",
        height=view.grown(TARGET),
        disabled=not session.can_undo,
    )
    # Aligned, so the words take their own width (a test reads from it that they are whole).
    return ft.Container(
        ft.Row(
            [
                ft.Column([last], scroll=ft.ScrollMode.AUTO, expand=True, key="last-act-scroll")
                if large
                else ft.Container(last, expand=True, alignment=ft.Alignment.CENTER_LEFT),
                undo,
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        height=view.grown(STRIP_HEIGHT),
        key="undo-strip",
    )


def notice_box(view: View, *, key: str = "notice") -> ft.Control:
    """The last refusal or warning, dismissible, in a slot of its own between the body and
    the footer: always there and always this tall (empty when there is nothing to say), so a
    notice covers nothing and moves nothing. A long one scrolls inside the slot. With a
    sheet open the sheet says it in its own slot, and this one stays empty."""
    shown = "" if view.ui.panel else view.ui.notice or ""
    is_error = view.ui.notice_is_error
    words = ft.Column(
        [
            ft.Text(
                shown,
                key=key,
                size=14,
                color=ft.Colors.ON_ERROR_CONTAINER if is_error else ft.Colors.ON_SECONDARY_CONTAINER,
            )
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        alignment=ft.MainAxisAlignment.CENTER,
    )
    box = ft.Container(
        ft.Row(
            [
                ft.Icon(
                    ft.Icons.ERROR_OUTLINE if is_error else ft.Icons.INFO_OUTLINE,
                    color=ft.Colors.ON_ERROR_CONTAINER if is_error else None,
                ),
                words,
                *([] if view.ui.panel else [record_anyway(view)]),  # an open sheet offers it in its own slot
                icon_button(ft.Icons.CLOSE, t(view, "ui.dismiss"), view.act.clear_notice, key=f"{key}-close"),
            ],
        ),
        bgcolor=ERROR_BG if is_error else INFO_BG,
        border_radius=8,
        padding=ft.Padding.only(left=12, right=0, top=4, bottom=4),
        visible=bool(shown),
        expand=True,
        key=f"{key}-box",
    )
    return ft.Container(box, height=view.grown(NOTICE_HEIGHT), key=f"{key}-slot")


def stopped_line(view: View) -> ft.Control | None:
    """On an end screen: the game did not end by its rules, and why."""
    assert view.session is not None
    note = view.session.stopped_note
    return text(t(view, "ui.stop.stopped", note=note), 16, bold=True, key="stopped") if note else None


def play_again(view: View) -> ft.Control:
    assert view.session is not None
    players = names(view, view.session.players)
    return action(
        t(view, "ui.play_again"),
        view.act.play_again,
        key="play-again",
        primary=True,
        describe=t(view, "ui.play_again.tip", players=players),
        view=view,
    )


def details_button(view: View) -> ft.Control | None:
    """On an end screen: the game's score chart, whole log and Send to BG Stats (not on a phone that joined)."""
    session = view.session
    if session is None or session.id is None or view.guest is not None:
        return None
    session_id = session.id
    return ft.TextButton(
        t(view, "ui.detail.show"),
        icon=ft.Icons.INSIGHTS,
        key="details",
        height=view.grown(TARGET),
        on_click=lambda _: view.act.after.open_detail(session_id),
    )


def is_wide(view: View) -> bool:
    """A desktop window or a tablet: wide enough for a game's parts side by side."""
    return view.width >= WIDE


def present(*controls: ft.Control | None) -> list[ft.Control]:
    return [control for control in controls if control is not None]

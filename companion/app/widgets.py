"""Small building blocks shared by every screen: bars, buttons, numbers, the log."""

from __future__ import annotations

import functools
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
SHEET_INSET = 8  # a sheet leaves this much of the page visible at each side
SHEET_PADDING = 16
SHEET_WIDE_WIDTH = 600.0  # a sheet's inputs in a wide window: a dialog, not a phone's width or the window's
SHEET_WIDE_HEIGHT = 560.0  # and at most this tall there, so a tall window shows a dialog, not a wall
QUIET = ft.Colors.ON_SURFACE_VARIANT
MUTED_BG = ft.Colors.with_opacity(0.08, ft.Colors.ON_SURFACE)  # a refused button's tint, either theme
ERROR_BG = ft.Colors.ERROR_CONTAINER
INFO_BG = ft.Colors.SECONDARY_CONTAINER
NOTICE_SLOT_HEIGHT = 60  # a sheet keeps this room for a refusal, so it never pushes its buttons
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
    words: str, size: float, *, bold: bool = False, colour: str | None = None, key: str | None = None
) -> ft.Text:
    """A line that never wraps: a card or bar keeps its height whatever it says."""
    return ft.Text(
        words,
        size=size,
        weight=ft.FontWeight.BOLD if bold else None,
        color=colour,
        key=key,
        max_lines=1,
        overflow=ft.TextOverflow.ELLIPSIS,
    )


def big_number(value: str, *, key: str | None = None) -> ft.Text:
    return ft.Text(value, size=BIG, weight=ft.FontWeight.BOLD, key=key)


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
        height=BUTTON_HEIGHT,
        width=TARGET if compact else None,
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
        height=TARGET,
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
        height=TARGET,
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
        height=TARGET,
        key="top-bar",
    )
    # Whose turn it is gets a line of its own with the clock: beside five icons on a phone it
    # was cut ("Round 1 · Ann's …"), and the clock beside the last act cut that at two lines.
    turn = ft.Text(
        subtitle or "",
        size=14,
        weight=ft.FontWeight.W_600,
        key="subtitle",
        max_lines=1,
        overflow=ft.TextOverflow.ELLIPSIS,
    )
    line = ft.Row(
        present(
            ft.Container(turn, expand=True, alignment=ft.Alignment.CENTER_LEFT, padding=ft.Padding.only(left=8)),
            clock_chip(view),
        ),
        height=TARGET,
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
    last = ft.Text(words, size=13, color=colour, key="last-act", max_lines=3, overflow=ft.TextOverflow.ELLIPSIS)
    # Always there and always this tall: appearing after the first act, or wrapping a long
    # sentence, it pushed End turn up under the finger.
    undo = ft.TextButton(
        t(view, "ui.undo"),
        on_click=lambda _: view.act.undo(tapped="undo-last"),
        key="undo-last",
        height=TARGET,
        disabled=not session.can_undo,
    )
    # Aligned, so the words take their own width (a test reads from it that they are whole).
    return ft.Container(
        ft.Row(
            [ft.Container(last, expand=True, alignment=ft.Alignment.CENTER_LEFT), undo],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        height=STRIP_HEIGHT,
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
    return ft.Container(box, height=NOTICE_HEIGHT, key=f"{key}-slot")


LOG_LINES = 100  # the newest lines shown at first; older ones on request
LOG_BLOCK = 50  # lines per Text: Flet diffs a handful of controls instead of one per line


def log_lines(view: View, context: Callable[[int], str] | None = None, *, prefix: str = "log") -> list[ft.Control]:
    """The session's events as sentences, newest first, and the newest `LOG_LINES` until asked for more.

    One Text per block of `LOG_BLOCK` lines, a sentence a line: one Text per line made
    thousands of controls to build and diff once the whole log was shown. Blocks hold
    fixed line numbers (1-50, 51-100, ...) so a new event changes only the newest.
    """
    session = view.session
    assert session is not None
    total = session.cursor
    shown = total if view.ui.draft.get("log_all") else min(total, LOG_LINES)
    oldest = total - shown + 1
    rows: list[ft.Control] = []
    for block in range((total - 1) // LOG_BLOCK, (oldest - 1) // LOG_BLOCK - 1, -1):
        first = max(block * LOG_BLOCK + 1, oldest)
        last = min(block * LOG_BLOCK + LOG_BLOCK, total)
        lines = []
        for number in range(last, first - 1, -1):
            where = f" · {context(number)}" if context else ""
            lines.append(f"{number}. {session.sentence(number).text(view.language)}{where}")
        rows.append(ft.Text("\n".join(lines), size=15, key=f"{prefix}-block-{block}"))
    drawn = session.game.setup_sentence(session.options)
    if drawn is not None and oldest == 1:  # the set-up, below the first event
        rows.append(ft.Text(drawn.text(view.language), size=15, key=f"{prefix}-setup"))
    if shown < total:
        rows.append(
            ft.TextButton(
                t(view, "ui.log.older", count=total - shown),
                key=f"{prefix}-older",
                height=TARGET,
                on_click=lambda _: view.act.set_draft(log_all=True),
            )
        )
    if not rows:
        rows.append(text(t(view, "ui.log.nothing"), 15))
    return rows


def round_context(view: View, round_of: Callable[[Any], int], message_id: str) -> Callable[[int], str]:
    """Line `number` of the log -> "round 3": the round of the state before its event.

    `round_of` reads a state's round; its values are kept by the session (`state_fact`), so
    the whole log is not replayed each time it is shown, and the words are made once per
    round, not once per line.
    """
    session = view.session
    assert session is not None
    words: dict[int, str] = {}

    def context(number: int) -> str:
        round_number = session.state_fact(round_of, number - 1)
        said = words.get(round_number)
        if said is None:
            said = words[round_number] = t(view, message_id, number=round_number)
        return said

    return context


def log_panel(view: View, context: Callable[[int], str] | None = None) -> ft.DialogControl:
    """The log, and from there the rare "Stop game" (kept off the game screen, away from the thumb)."""
    assert view.session is not None
    footer: list[ft.Control] = []
    if not view.session.is_over:
        footer.append(
            ft.OutlinedButton(
                t(view, "ui.stop"),
                key="stop-game",
                height=TARGET,
                on_click=lambda _: view.act.open_panel("stop", note=""),
                tooltip=t(view, "ui.stop.tip"),
            )
        )
    return sheet(view, t(view, "ui.log"), log_lines(view, context), key="log-panel", footer=footer)


def stop_panel(view: View) -> ft.DialogControl:
    """Stop the game early (the pizza came, someone left): the standings as they stand are final."""
    note_field = ft.TextField(
        label=t(view, "ui.stop.why"),
        value=view.ui.draft.get("note", ""),
        key="stop-note",
        max_length=60,
        on_change=lambda e: view.act.set_draft(quiet=True, note=e.control.value),
    )

    def stop() -> None:
        note = " ".join(str(view.ui.draft.get("note", "")).split()) or t(view, "ui.stop.default_note")
        view.act.apply({"type": "end_game", "note": note}, tapped="stop-confirm")

    confirm = ft.FilledButton(
        t(view, "ui.stop.confirm"),
        key="stop-confirm",
        height=TARGET,
        on_click=lambda _: stop(),
        style=ft.ButtonStyle(bgcolor=ft.Colors.ERROR, color=ft.Colors.ON_ERROR),
    )
    body: list[ft.Control] = [
        text(t(view, "ui.stop.hint"), 15),
        note_field,
    ]
    return sheet(view, t(view, "ui.stop.title"), body, key="stop-panel", footer=[confirm])


def stopped_line(view: View) -> ft.Control | None:
    """On an end screen: the game did not end by its rules, and why."""
    assert view.session is not None
    note = view.session.stopped_note
    return text(t(view, "ui.stop.stopped", note=note), 16, bold=True, key="stopped") if note else None


def sheet_width(view: View) -> float:
    """The content width of a sheet on this page: the page less the sheet's margins; in a
    wide window a dialog's width (its chips in longer rows), not the window's."""
    if is_wide(view):
        return SHEET_WIDE_WIDTH
    page_width = view.width or 412
    return min(480.0, float(page_width) - 2 * SHEET_INSET - 2 * SHEET_PADDING)


SHEET_FRAME = 236  # the page's height a sheet's inputs leave: its margins, title, notice slot and buttons


def sheet_height(view: View) -> float:
    """The height of a sheet's inputs: the page less the sheet's frame, whatever they hold, so
    the sheet never grows under the finger and its buttons stay where they are."""
    tall = max(160.0, float(view.height or 915) - SHEET_FRAME)
    return min(tall, SHEET_WIDE_HEIGHT) if is_wide(view) else tall


class Sheet(ft.AlertDialog):
    """An AlertDialog that is never frozen. Flet marks controls it reached through a redrawn
    component as frozen, and one page patch can reach an open dialog that way; closing a
    frozen dialog then fails inside Flet ("Frozen controls cannot be updated"). A sheet is
    redrawn whole on every change anyway, and only its `open` and `on_dismiss` are ever set
    after it is built."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "_frozen":
            super().__setattr__(name, value)


def sheet(
    view: View, title: str, body: list[ft.Control], *, key: str, footer: list[ft.Control] | None = None
) -> ft.DialogControl:
    """An input sheet as a modal dialog: the title on top, the inputs scrolling below it,
    Close and the confirm button pinned at the bottom (always in view, within thumb reach),
    with a fixed slot above them for a refusal, so a refusal never moves them."""
    number = view.ui.sheet_number
    slot = ft.Container(
        ft.Row(
            [
                # Whole, scrolling inside the fixed slot (as the page's notice does): cut at three
                # lines, the rest of the reason was only in a tooltip, which a phone has not.
                ft.Column(
                    [
                        ft.Text(
                            view.ui.notice or "",
                            size=14,
                            key="notice" if view.ui.notice else "sheet-notice-empty",
                            color=ft.Colors.ERROR if view.ui.notice_is_error else None,
                        )
                    ],
                    scroll=ft.ScrollMode.AUTO,
                    expand=True,
                    alignment=ft.MainAxisAlignment.CENTER,
                ),
                record_anyway(view),
            ]
        ),
        height=NOTICE_SLOT_HEIGHT,
        alignment=ft.Alignment.CENTER_LEFT,
        key="sheet-notice",
    )
    close = ft.OutlinedButton(
        t(view, "ui.close"),
        key="panel-close",
        height=TARGET,
        on_click=lambda _: view.act.close_panel(),
        tooltip=t(view, "ui.close.tip"),
    )
    bottom: list[ft.Control] = [
        slot,
        ft.Row([close, *(footer or [])], wrap=True, alignment=ft.MainAxisAlignment.END, spacing=8, run_spacing=8),
    ]
    width = sheet_width(view)
    return Sheet(
        title=ft.Text(title, size=18, weight=ft.FontWeight.BOLD, key="panel-title"),
        # Inputs of one height that scroll within it, the title above and the buttons pinned
        # below: nothing on a sheet moves when what it holds grows (a price tapped, a count
        # that ends the game).
        content=ft.Column(body, spacing=8, width=width, height=sheet_height(view), scroll=ft.ScrollMode.AUTO, key=key),
        actions=[ft.Column(bottom, spacing=4, width=width, tight=True)],
        modal=True,  # a stray tap beside a half-filled sheet must not throw its inputs away
        # Anchored at the top: a centred dialog moved every chip up when the sheet grew (a price tapped).
        # A wide window: a dialog of its own size in the middle (its height is fixed too, so it never moves).
        alignment=ft.Alignment.CENTER if is_wide(view) else ft.Alignment.TOP_CENTER,
        inset_padding=ft.Padding.symmetric(horizontal=SHEET_INSET, vertical=16),
        title_padding=ft.Padding.only(left=SHEET_PADDING, right=SHEET_PADDING, top=16, bottom=4),
        content_padding=ft.Padding.symmetric(horizontal=SHEET_PADDING, vertical=4),
        actions_padding=ft.Padding.only(left=SHEET_PADDING, right=SHEET_PADDING, bottom=12),
        on_dismiss=lambda _: view.act.sheet_dismissed(number),
    )


def chips(
    view: View,
    values: Sequence[int],
    chosen: int | None,
    on_pick: Callable[[int], None],
    *,
    key: str,
    label: Callable[[int], str] = str,
    describe: Callable[[int], str] | None = None,
    suggested: int | None = None,
) -> ft.Control:
    """A wrapping row of one-tap values, 48 px square. The chosen one is filled, a suggestion
    has a thick outline; the screen also says both in words (e.g. "corn: at $4 (last paid)"),
    so neither is told by colour alone. (No tick or star: the bundled web font lacks them.)"""
    buttons = []
    for value in values:
        button = action(
            label(value),
            functools.partial(on_pick, value),
            key=f"{key}-{value}",
            compact=True,
            chosen=value == chosen,
            view=view,
            describe=describe(value) if describe else None,
        )
        if value == suggested and value != chosen and isinstance(button, ft.OutlinedButton) and button.style:
            button.style.side = ft.BorderSide(3, ft.Colors.PRIMARY)
        buttons.append(button)
    return ft.Row(buttons, wrap=True, spacing=CHIP_SPACING, run_spacing=CHIP_SPACING, key=f"{key}-chips")


def is_filled(button: ft.Control) -> bool:
    """Whether a button made here is drawn filled (the main action, or the chosen value)."""
    style = getattr(button, "style", None)
    return style is not None and style.bgcolor == ft.Colors.PRIMARY


def choice(label: str, chosen: bool, on_tap: Callable[[], None], *, key: str, expand: bool = False) -> ft.Control:
    """One of a few options (a game, a target, a language): filled with a tick when chosen.
    `expand` shares a row's width among its options, so a tick or a label changing moves none."""
    return action(label, on_tap, key=key, chosen=chosen, expand=expand)


def number_field(
    view: View,
    label: str,
    path: tuple[str, ...],
    *,
    key: str,
    low: int,
    high: int,
    width: float = 96,
    on_number: Callable[[int], None] | None = None,
    spoken: str | None = None,
) -> ft.Control:
    """A number typed on the phone's number pad, for what the chips beside it do not reach.

    Each keystroke is kept and the sheet drawn again, so what a button beside it would
    record is always what the field shows. The field is drawn with exactly the text the
    browser sent, so the redraw changes nothing in it and never moves the cursor. A value
    out of `low`..`high` is not kept, and the field says which values it takes. `on_number`
    keeps a typed number some other way than at `path`."""
    typed_key = "/".join(path)
    raw = view.draft_get(("typed", typed_key), None)
    value = view.draft_get(path, None)
    shown = str(raw) if raw is not None else (str(value) if isinstance(value, int) else "")

    def typed(event: ft.Event[Any]) -> None:
        text = str(event.control.value or "")
        view.act.draft_set(("typed", typed_key), text, quiet=True)
        number = parse_number(text)
        if number is not None and low <= number <= high:
            if on_number is not None:
                on_number(number)
            else:
                view.act.draft_set(path, number, quiet=True)
        view.act.set_draft()

    number = parse_number(shown)
    wrong = shown.strip() not in ("", "-") and (number is None or not low <= number <= high)
    # A screen reader reads the field by `spoken` (what it is the number of: "Spaces, another
    # number"), where the eye has the heading beside it and reads "Other".
    return ft.TextField(
        label=ft.Text(label, semantics_label=spoken) if spoken else label,
        value=shown,
        key=key,
        width=width,
        dense=True,
        keyboard_type=ft.KeyboardType.NUMBER,
        input_filter=ft.InputFilter(regex_string=r"^-?[0-9]{0,4}$" if low < 0 else r"^[0-9]{0,4}$"),
        error=t(view, "ui.number.range", low=low, high=high) if wrong else None,
        on_change=typed,
    )


def pick_number(view: View, path: tuple[str, ...], value: int) -> None:
    """A chip tapped: its value, and the typed one beside it forgotten."""
    typed = view.ui.draft.get("typed")
    if isinstance(typed, dict):
        typed.pop("/".join(path), None)
    view.act.draft_set(path, value)


def parse_number(raw: str) -> int | None:
    text = raw.strip()
    if not text or text == "-":
        return None
    try:
        return int(text)
    except ValueError:
        return None


def count_picker(
    view: View,
    label: str,
    path: tuple[str, ...],
    values: Sequence[int],
    *,
    key: str,
    low: int,
    high: int,
    default: int | None = None,
    chip_label: Callable[[int], str] = str,
    describe: Callable[[int], str] | None = None,
    colour: str | None = None,
) -> ft.Control:
    """A number of the open sheet's draft: one tap on a chip for the usual values, or typed
    in the field beside the label for any other. The chips read the live draft."""
    chosen = view.draft_get(path, default)
    heading = ft.Row(
        [
            ft.Text(label, size=16, weight=ft.FontWeight.BOLD, color=colour, expand=True),
            number_field(
                view,
                t(view, "ui.number.other"),
                path,
                key=f"{key}-typed",
                low=low,
                high=high,
                spoken=t(view, "ui.number.other_for", what=label),
            ),
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    if describe is None:  # a chip reads "6"; a screen reader moving from chip to chip needs "Spaces: 6"
        describe = lambda value: t(view, "ui.number.chip", what=label, value=chip_label(value))  # noqa: E731
    picker = chips(
        view, values, chosen, functools.partial(pick_number, view, path), key=key, label=chip_label, describe=describe
    )
    return ft.Column([heading, picker], spacing=4, key=f"{key}-picker")


def play_again(view: View) -> ft.Control:
    assert view.session is not None
    players = names(view, view.session.players)
    return action(
        t(view, "ui.play_again"),
        view.act.play_again,
        key="play-again",
        primary=True,
        describe=t(view, "ui.play_again.tip", players=players),
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
        height=TARGET,
        on_click=lambda _: view.act.after.open_detail(session_id),
    )


def is_wide(view: View) -> bool:
    """A desktop window or a tablet: wide enough for a game's parts side by side."""
    return view.width >= WIDE


def screen(
    view: View,
    header: list[ft.Control],
    body: list[ft.Control],
    footer: list[ft.Control] | None = None,
    *,
    key: str,
    beside: list[ft.Control] | None = None,
    log: Callable[[int], str] | None = None,
) -> ft.Control:
    """Header fixed on top, scrolling body, a slot for notices, and the footer within thumb
    reach. `key` names the screen, so redrawing the same screen diffs it in place.

    A game's screen passes `beside` (its actions): on a phone they follow the body in one
    scrolling column; in a wide window the body (the players), the actions with the notice
    and footer under them, and the log (`log` gives each line its round) stand side by side."""
    muted = view.read_only() is not None  # a phone that only follows sees every button muted
    ends = footer_of(footer or [], muted)
    banner = present(guest_banner(view))
    if beside is not None and is_wide(view):
        middle = ft.Column(
            [scrolling(beside, key="beside", muted=muted), notice_box(view), *ends],
            expand=3,
            spacing=8,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        )
        columns = ft.Row(
            [ft.Column([scrolling(body, key="body", muted=muted)], expand=3), middle, log_pane(view, log)],
            expand=True,
            spacing=16,
            vertical_alignment=ft.CrossAxisAlignment.STRETCH,
            key="columns",
        )
        parts: list[ft.Control] = [*header, *banner, columns]
        return frame(view, parts, key, full_width=True)
    parts = [*header, *banner, scrolling([*body, *(beside or [])], key="body", muted=muted), notice_box(view), *ends]
    return frame(view, parts, key)


def scrolling(controls: list[ft.Control], *, key: str, muted: bool = False) -> ft.Control:
    return ft.Column(
        controls,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
        key=key,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        disabled=muted,
    )


def footer_of(footer: list[ft.Control], muted: bool) -> list[ft.Control]:
    if footer and muted:
        return [
            ft.Column(
                footer,
                spacing=8,
                disabled=True,
                opacity=0.5,
                key="footer",
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
            )
        ]
    return footer


def frame(view: View, parts: list[ft.Control], key: str, *, full_width: bool = False) -> ft.Control:
    """The screen's column on the page; in a wide window a screen of lists and forms keeps a
    readable width in the middle instead of stretching its lines across it."""
    column = ft.Column(parts, expand=True, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    narrow = full_width or not is_wide(view)
    # One shape at every width (only the width changes), so a window resized keeps every control.
    centred = ft.Row(
        [ft.Container(column, padding=8, expand=narrow or None, width=None if narrow else WIDE_CONTENT)],
        alignment=ft.MainAxisAlignment.CENTER,
        vertical_alignment=ft.CrossAxisAlignment.STRETCH,
        expand=True,
    )
    return ft.SafeArea(centred, expand=True, key=key)


def log_pane(view: View, context: Callable[[int], str] | None) -> ft.Control:
    """The log beside the game in a wide window, newest first (the sheet stays for Stop game)."""
    lines = log_lines(view, context, prefix="pane")
    return ft.Column(
        [text(t(view, "ui.log"), 15, bold=True), *lines], scroll=ft.ScrollMode.AUTO, expand=2, spacing=6, key="log-pane"
    )


def present(*controls: ft.Control | None) -> list[ft.Control]:
    return [control for control in controls if control is not None]

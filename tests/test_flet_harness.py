"""Tests of the in-process Flet harness (tests/flet_harness.py) against tiny apps."""

from __future__ import annotations

import asyncio

import flet as ft
import pytest
from flet_harness import AppCrashed, Screen, run, wait_for

# --------------------------------------------------------------------------- apps


def counter_app(page: ft.Page) -> None:
    """Imperative app: a counter, a name field, a switch, a dropdown, dialogs."""
    page.title = "Counter"
    count = ft.Text("Count: 0", key="count")
    greeting = ft.Text("", key="greeting")
    sound = ft.Text("Sound off", key="sound-state")
    level = ft.Text("Level: none", key="level")

    def add(e: ft.Event[ft.Button]) -> None:
        count.value = f"Count: {int(count.value.split()[-1]) + 1}"

    def rename(e: ft.Event[ft.TextField]) -> None:
        greeting.value = f"{e.control.value}'s turn" if e.control.value else ""

    def submitted(e: ft.Event[ft.TextField]) -> None:
        greeting.value = f"{e.data} is ready"

    def toggle_sound(e: ft.Event[ft.Switch]) -> None:
        sound.value = "Sound on" if e.control.value else "Sound off"

    def pick(e: ft.Event[ft.Dropdown]) -> None:
        level.value = f"Level: {e.control.value}"

    def confirm_reset(e: ft.Event[ft.Button]) -> None:
        def reset(e: ft.Event[ft.TextButton]) -> None:
            count.value = "Count: 0"
            page.pop_dialog()

        page.show_dialog(
            ft.AlertDialog(
                key="reset-dialog",
                title=ft.Text("Reset the count?"),
                actions=[
                    ft.TextButton("Reset", key="reset-yes", on_click=reset),
                    ft.TextButton("Cancel", key="reset-no", on_click=lambda e: page.pop_dialog()),
                ],
            )
        )

    def boom(e: ft.Event[ft.Button]) -> None:
        raise ValueError("score went negative")

    page.add(
        count,
        ft.Button("Add one", key="add", on_click=add),
        ft.Button("Reset", key="reset", on_click=confirm_reset),
        ft.Button("Locked", key="locked", disabled=True, on_click=add),
        ft.Button("Crash", key="crash", on_click=boom),
        ft.TextField(label="Name", key="name", on_change=rename, on_submit=submitted),
        greeting,
        ft.Switch(label="Sound", key="sound", on_change=toggle_sound),
        sound,
        ft.Dropdown(
            key="difficulty",
            label="Difficulty",
            options=[ft.DropdownOption(key="easy", text="Easy"), ft.DropdownOption(key="hard", text="Hard")],
            on_select=pick,
        ),
        level,
        ft.Button("Toast", key="toast", on_click=lambda e: page.show_dialog(ft.SnackBar(ft.Text("Saved")))),
        ft.Column([ft.Text("Hidden text", key="hidden")], visible=False),
    )


def routed_app(page: ft.Page) -> None:
    """Views per route, navigation by page.navigate and by the URL."""

    def route_change(e: ft.RouteChangeEvent | None = None) -> None:
        page.views.clear()
        page.views.append(
            ft.View(
                route="/",
                controls=[
                    ft.Text("Home", key="title"),
                    ft.Button("Settings", key="to-settings", on_click=lambda e: page.navigate("/settings")),
                ],
            )
        )
        if page.route == "/settings":
            page.views.append(
                ft.View(
                    route="/settings",
                    controls=[
                        ft.Text("Settings page", key="settings-title"),
                        ft.Button("Home", key="to-home", on_click=lambda e: page.navigate("/")),
                    ],
                )
            )
        page.update()

    async def view_pop(e: ft.ViewPopEvent) -> None:
        page.views.pop()
        await page.push_route(page.views[-1].route)

    page.on_route_change = route_change
    page.on_view_pop = view_pop
    route_change()


@ft.component
def Counter() -> ft.Control:
    count, set_count = ft.use_state(0)
    return ft.Column(
        [
            ft.Text(f"Clicks: {count}", key="clicks"),
            ft.Button("Click", key="click", on_click=lambda: set_count(count + 1)),
        ]
    )


def component_app(page: ft.Page) -> None:
    page.render(Counter)


# --------------------------------------------------------------------------- tests


def test_tap_updates_text_and_sends_a_patch() -> None:
    async def scenario() -> None:
        async with Screen(counter_app) as screen:
            assert screen.text_of("count") == "Count: 0"
            d = await screen.tap("add")
            await screen.tap("add")
            assert screen.text_of("count") == "Count: 2"
            assert "Count: 2" in screen.texts()
            assert len(d.patches) == 1
            assert d.elapsed >= 0 and d.bytes_sent > 0

    run(scenario())


def test_page_is_mounted_with_phone_size_by_default_and_custom_size() -> None:
    async def scenario() -> None:
        async with Screen(counter_app) as screen:
            assert (screen.page.width, screen.page.height) == (412, 915)
            assert screen.route == "/"
        async with Screen(counter_app, width=1280, height=800) as screen:
            assert (screen.page.width, screen.page.height) == (1280, 800)

    run(scenario())


def test_find_reports_available_keys() -> None:
    async def scenario() -> None:
        async with Screen(counter_app) as screen:
            assert screen.exists("add") and not screen.exists("nope")
            with pytest.raises(AssertionError, match=r"No control matches 'nope'.*'add'"):
                screen.find("nope")
            assert [c.content for c in screen.find_all(type=ft.Button) if c.content == "Add one"] == ["Add one"]
            assert screen.find(text="Add one") is screen.find("add")

    run(scenario())


def test_hidden_and_disabled_controls() -> None:
    async def scenario() -> None:
        async with Screen(counter_app) as screen:
            assert "Hidden text" not in screen.texts()
            assert screen.exists("hidden") and not screen.is_visible("hidden")
            assert screen.is_disabled("locked") and not screen.is_disabled("add")
            with pytest.raises(AssertionError, match="disabled"):
                await screen.tap("locked")
            assert screen.text_of("count") == "Count: 0"

    run(scenario())


def test_type_and_submit_text_field() -> None:
    async def scenario() -> None:
        async with Screen(counter_app) as screen:
            await screen.type("name", "Ann")
            assert screen.find("name").value == "Ann"
            assert "Ann's turn" in screen.texts()
            await screen.type("name", "Bob", submit=True)
            assert screen.text_of("greeting") == "Bob is ready"

    run(scenario())


def test_switch_and_dropdown() -> None:
    async def scenario() -> None:
        async with Screen(counter_app) as screen:
            await screen.toggle("sound")
            assert screen.find("sound").value is True
            assert screen.text_of("sound-state") == "Sound on"
            await screen.toggle("sound", False)
            assert screen.text_of("sound-state") == "Sound off"

            await screen.select("difficulty", "hard")
            assert screen.text_of("level") == "Level: hard"
            assert "Hard" in screen.texts() and "Easy" not in screen.texts()
            with pytest.raises(AssertionError, match="no option"):
                await screen.select("difficulty", "medium")

    run(scenario())


def test_dialog_opens_is_tappable_and_closes() -> None:
    async def scenario() -> None:
        async with Screen(counter_app) as screen:
            await screen.tap("add")
            await screen.tap("reset")
            assert "Reset the count?" in screen.texts()
            assert [d.key for d in screen.dialogs] == ["reset-dialog"]
            await screen.tap("reset-yes")
            assert screen.dialogs == []
            assert not screen.exists("reset-dialog")  # removed after the emulated dismiss
            assert screen.text_of("count") == "Count: 0"

            await screen.tap("reset")
            await screen.dismiss_dialog()  # tap outside
            assert screen.dialogs == [] and "Reset the count?" not in screen.texts()

            await screen.tap("toast")
            assert "Saved" in screen.texts()
            await screen.dismiss_dialog()  # snack bar timed out
            assert "Saved" not in screen.texts()

    run(scenario())


def test_handler_exception_fails_the_test_with_traceback() -> None:
    async def scenario() -> None:
        async with Screen(counter_app) as screen:
            with pytest.raises(AppCrashed, match=r"(?s)score went negative.*Traceback.*in boom"):
                await screen.tap("crash")
            await screen.tap("add")  # the crash was reported once; the screen keeps working
            assert screen.text_of("count") == "Count: 1"

    run(scenario())


def test_crash_in_main_and_in_background_task() -> None:
    def broken(page: ft.Page) -> None:
        raise RuntimeError("no rules loaded")

    async def with_task(page: ft.Page) -> None:
        async def later() -> None:
            raise KeyError("lost player")

        page.add(ft.Button("Go", key="go", on_click=lambda e: page.run_task(later)))

    async def scenario() -> None:
        with pytest.raises(AppCrashed, match="no rules loaded"):
            async with Screen(broken):
                pass
        with pytest.raises(AppCrashed, match="lost player"):
            async with Screen(with_task) as screen:
                await screen.tap("go")
                await wait_for(lambda: bool(screen.crashes))
                screen.check()

    run(scenario())


def test_route_changes_navigate_url_and_back() -> None:
    async def scenario() -> None:
        async with Screen(routed_app) as screen:
            assert screen.texts() == ["Home", "Settings"]
            await screen.tap("to-settings")  # page.navigate -> push_route -> route_change
            assert screen.route == "/settings"
            assert "Settings page" in screen.texts() and "Home" in screen.texts()  # "Home" button label
            assert not screen.is_visible("title")  # lower view is covered
            with pytest.raises(AssertionError, match="not on screen"):
                await screen.tap("to-settings")
            await screen.back()
            assert screen.route == "/" and screen.text_of("title") == "Home"
            await screen.go("/settings")  # typed URL / deep link
            assert screen.exists("settings-title")
            assert [c for c, name, _ in screen.method_calls if name == "push_route"]

        async with Screen(routed_app, route="/settings") as screen:
            # the initial route is registered by the client; the app reads page.route in main
            assert screen.exists("settings-title")

    run(scenario())


def test_declarative_component_app() -> None:
    async def scenario() -> None:
        async with Screen(component_app) as screen:
            assert screen.text_of("clicks") == "Clicks: 0"
            d = await screen.tap("click")
            await screen.tap("click")
            assert screen.text_of("clicks") == "Clicks: 2"
            assert d.patches, "the re-render must reach the client"

    run(scenario())


def test_timed_block_and_method_fakes() -> None:
    async def prefs_app(page: ft.Page) -> None:
        prefs = ft.SharedPreferences()
        name = await prefs.get("player")
        page.add(ft.Text(f"Hello {name}", key="hello"))

    async def scenario() -> None:
        async with Screen(prefs_app, methods={"get": lambda control, args: "Ann"}) as screen:
            assert screen.text_of("hello") == "Hello Ann"
        async with Screen(counter_app) as screen:
            async with screen.timed("three taps") as t:
                for _ in range(3):
                    await screen.tap("add")
            assert len(t.patches) == 3 and t.elapsed >= t.first_patch_elapsed >= 0

    run(scenario())


def test_run_helper_is_plain_asyncio() -> None:
    assert run(asyncio.sleep(0, result=7)) == 7

"""A tiny Flet app served by the e2e self-test (tests/e2e/test_e2e_harness.py)."""

import os

import flet as ft


def main(page: ft.Page) -> None:
    page.title = "E2E sample"
    count = ft.Text("Count: 0")
    greeting = ft.Text("")
    data_dir = os.environ.get("FLET_APP_STORAGE_DATA", "")

    def add(e: ft.Event[ft.Button]) -> None:
        count.value = f"Count: {int(count.value.split()[-1]) + 1}"

    def rename(e: ft.Event[ft.TextField]) -> None:
        greeting.value = f"Hello {e.control.value}"

    page.add(
        count,
        ft.Button("Add one", on_click=add),
        ft.TextField(label="Name", on_change=rename),
        greeting,
        ft.Text(f"Data dir set: {'yes' if data_dir else 'no'}"),
    )


if __name__ == "__main__":
    ft.run(main)

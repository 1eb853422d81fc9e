"""Which language a page speaks: the first of `--lang`, the one chosen in Settings, the
device's preferred languages, then English (`i18n.choose`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion import i18n
from companion.messages import LANGUAGES

if TYPE_CHECKING:
    from companion.app.data import AppData

# Settings' language, kept among the table's habits (numbers) as its place in LANGUAGES; -1 follows the device.
LANGUAGE_HABIT = "language"
FOLLOW_DEVICE = -1
ASK_TIMEOUT_S = 3  # a client that does not say its languages is left as it is after this


class LanguageChoice:
    def __init__(self, page: ft.Page, data: AppData, command_line: str | None,
                 use: Callable[[str], None]) -> None:
        self.page = page
        self.data = data
        self.command_line = i18n.supported(command_line)
        self.device_languages: list[str] = []
        self._use = use  # shows the page in a language (it is drawn again)

    @property
    def chosen(self) -> str | None:
        """The language picked in Settings, or None to follow the device."""
        index = self.data.recall(LANGUAGE_HABIT)
        return LANGUAGES[index] if index is not None and 0 <= index < len(LANGUAGES) else None

    @property
    def device(self) -> str:
        return i18n.choose(device=self.device_languages)

    def pick(self) -> str:
        return i18n.choose(self.command_line, self.chosen, self.device_languages)

    def choose(self, language: str | None) -> None:
        """Settings: show the app in `language` from now on (None: as the device), and keep the choice."""
        self.data.remember(LANGUAGE_HABIT, FOLLOW_DEVICE if language is None else LANGUAGES.index(language))
        self.command_line = None  # the table's own choice outranks how the app was started
        self._use(self.pick())

    def device_locales(self, locales: list[Any]) -> None:
        """The device's preferred languages (Flet's locales), in order; the app follows them unless told otherwise."""
        self.device_languages = [locale.language_code for locale in locales]
        self._use(self.pick())

    async def learn_device_locales(self) -> None:
        # Some clients never answer (a test client, an old browser): the app stays as it is.
        with contextlib.suppress(Exception):
            info = await asyncio.wait_for(self.page.get_device_info(), ASK_TIMEOUT_S)
            self.device_locales(list(info.locales))

    def localise_page(self, language: str) -> None:
        """Flutter's own words (a text field's "30 characters remaining") in the page's language too."""
        self.page.locale_configuration = ft.LocaleConfiguration(
            supported_locales=[ft.Locale(code) for code in LANGUAGES], current_locale=ft.Locale(language))
        with contextlib.suppress(Exception):  # a page not yet (or no longer) connected takes it with the next patch
            self.page.update()

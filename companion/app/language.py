"""Which language a page speaks: the first of the one chosen in Settings during this run,
`--lang`, the one chosen in Settings on this device before, the device's preferred
languages, then English (`i18n.choose`).

The choice is the device's (a browser, a window), not the data folder's: it is kept in the
client's own storage (`SharedPreferences`: a browser's localStorage), so each phone at the
table keeps its own language and the host's choice does not override theirs. It is kept with
the time it was made: `--lang` outranks a choice made before this run, and a choice made
during the run outranks `--lang` from then on, reloads included.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.text import i18n
from companion.text.messages import LANGUAGES

if TYPE_CHECKING:
    from companion.app.data import AppData

DEVICE_KEY = "companion.language"  # on the device: "<language>@<time>"; "device" for the device's own
FOLLOW_DEVICE = "device"
ASK_TIMEOUT_S = 3  # a client that does not say its languages (or its storage) is left as it is after this


def stored_choice(value: Any) -> tuple[str | None, float] | None:
    """A stored "<language>@<time>" as (language or None for the device's, time); None when unreadable."""
    if not isinstance(value, str) or "@" not in value:
        return None
    language, _, moment = value.partition("@")
    try:
        when = float(moment)
    except ValueError:
        return None
    if language == FOLLOW_DEVICE:
        return None, when
    return (language, when) if language in LANGUAGES else None


class LanguageChoice:
    def __init__(
        self,
        page: ft.Page,
        data: AppData,
        command_line: str | None,
        use: Callable[[str], None],
        run_started: float | None = None,
    ) -> None:
        self.page = page
        self.data = data
        self.command_line = i18n.supported(command_line)
        self.run_started = time.time() if run_started is None else run_started
        self.device_languages: list[str] = []
        self._chosen: str | None = None  # Settings' choice on this device; None: the device's languages
        self._chosen_at: float | None = None  # when it was made; None: never
        self._use = use  # shows the page in a language (it is drawn again)

    @property
    def chosen(self) -> str | None:
        """The language picked in Settings on this device, or None to follow the device."""
        return self._chosen

    @property
    def device(self) -> str:
        return i18n.choose(device=self.device_languages)

    def pick(self) -> str:
        chosen_this_run = self._chosen_at is not None and self._chosen_at >= self.run_started
        if chosen_this_run:  # the table's own choice outranks how the app was started
            return i18n.choose(None, self._chosen, self.device_languages)
        return i18n.choose(self.command_line, self._chosen, self.device_languages)

    def choose(self, language: str | None) -> None:
        """Settings: show the app in `language` from now on (None: as the device), and keep it on this device."""
        self._chosen, self._chosen_at = language, time.time()
        self._use(self.pick())
        self.page.run_task(self._keep, f"{language or FOLLOW_DEVICE}@{self._chosen_at!r}")

    async def _keep(self, value: str) -> None:
        # A client that cannot keep it (storage refused, a test client) still shows the choice now.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._preferences().set(DEVICE_KEY, value), ASK_TIMEOUT_S)

    async def _recall(self) -> None:
        with contextlib.suppress(Exception):
            found = stored_choice(await asyncio.wait_for(self._preferences().get(DEVICE_KEY), ASK_TIMEOUT_S))
            if found is not None and self._chosen_at is None:  # a choice made meanwhile is newer
                self._chosen, self._chosen_at = found
                self._use(self.pick())

    def _preferences(self) -> ft.SharedPreferences:
        found = next((service for service in self.page.services if isinstance(service, ft.SharedPreferences)), None)
        if found is None:
            found = ft.SharedPreferences()
            self.page.services.append(found)
            self.page.update()  # a service answers calls once the page has it
        return found

    def device_locales(self, locales: list[Any]) -> None:
        """The device's preferred languages (Flet's locales), in order; the app follows them unless told otherwise."""
        self.device_languages = [locale.language_code for locale in locales]
        self._use(self.pick())

    async def learn_device_locales(self) -> None:
        """What this device chose before, then its own languages."""
        await self._recall()
        # Some clients never answer (a test client, an old browser): the app stays as it is.
        with contextlib.suppress(Exception):
            info = await asyncio.wait_for(self.page.get_device_info(), ASK_TIMEOUT_S)
            if info is not None:  # a client that answers with nothing is left as it is too
                self.device_locales(list(info.locales))

    def localise_page(self, language: str) -> None:
        """Flutter's own words (a text field's "30 characters remaining") in the page's language too."""
        self.page.locale_configuration = ft.LocaleConfiguration(
            supported_locales=[ft.Locale(code) for code in LANGUAGES], current_locale=ft.Locale(language)
        )
        with contextlib.suppress(Exception):  # a page not yet (or no longer) connected takes it with the next patch
            self.page.update()

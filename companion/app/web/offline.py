"""Offline: the web client fetches nothing from the internet, only from this server.

Flet is made with `no_cdn` (see `serving`); what its client still asks of the internet is
answered here, as one of the door's `answers`:

1. The client's hard-coded Rive CDN address (in main.dart.js and main.dart.wasm) is
   rewritten to a local path of the same length, so the wasm binary stays valid; that path
   answers 404 (nothing here uses Rive).
2. The patched files are read once and kept, with an ETag: a browser holding the same copy
   is answered 304, and revalidates every time (`no-cache`).
3. A client that no longer names the CDN is served unchanged, with a warning in the log
   (the door's Content-Security-Policy still keeps the page from reaching out).
4. The fallback fonts Flutter looks up by their Google Fonts paths are answered with the
   fonts shipped in `companion/assets/fonts/`: one redirect per family to one file that
   covers every slice, so the browser downloads it once. A family (or file) not shipped
   is left to Flet.
"""

from __future__ import annotations

import hashlib
import logging
import re
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from companion.app.web.door import ASSETS_DIR

log = logging.getLogger(__name__)

FONTS_URL = "fonts/"  # where companion/assets/fonts/ is served

# Flet's web client (main.dart.js and main.dart.wasm) loads rive_native.js from this CDN
# on every page load. The replacement has the same length, so the wasm binary stays valid;
# it is a path relative to the page that this server answers with 404.
RIVE_CDN = b"https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"
RIVE_LOCAL_PREFIX = "no-cdn/rive/"
RIVE_LOCAL = (RIVE_LOCAL_PREFIX + "-" * (len(RIVE_CDN) - len(RIVE_LOCAL_PREFIX) - 1) + "/").encode()
PATCHED_CLIENT = {"/main.dart.js": "text/javascript", "/main.dart.wasm": "application/wasm"}

# With no CDN, Flutter asks for its Noto fallback fonts under assets/fonts/<Google Fonts
# path>, one path per font or per slice of a big one. Each family is answered with one
# shipped file that covers every slice (the browser then downloads it once).
FALLBACK_FONTS = {
    "notosans": "NotoSans-Regular.woff2",  # Latin with accents, Greek, Cyrillic
    "notocoloremoji": "NotoColorEmoji.woff2",
    # One subset of Noto Sans CJK SC (GB 2312, JIS X 0208 kanji, KS X 1001 hangul, kana).
    **dict.fromkeys(
        ("notosanssc", "notosanstc", "notosanshk", "notosansjp", "notosanskr"), "NotoSansCJK-Regular-subset.woff2"
    ),
}
_FALLBACK_FONT_PATH = re.compile(r"^/assets/fonts/([a-z0-9]+)/v\d+/[A-Za-z0-9_.-]+\.woff2$")


class OfflineClient:
    """Flet's web client (in `web_dir`) made local; `answer` is one of the door's answers."""

    def __init__(self, web_dir: str | Path, fonts_dir: Path = ASSETS_DIR / "fonts") -> None:
        self.web_dir = Path(web_dir)
        self.fonts_dir = fonts_dir
        self._client: dict[str, tuple[bytes, str]] = {}

    def answer(self, path: str, headers: Headers) -> Response | None:
        """The local Rive path, the patched client, the fallback fonts; None for any other path."""
        if path.startswith("/" + RIVE_LOCAL_PREFIX):  # rule 1
            return PlainTextResponse("Not found", status_code=404)
        if path in PATCHED_CLIENT:
            body, etag = self.client_file(path)
            if headers.get("if-none-match") == etag:  # rule 2
                return Response(status_code=304, headers={"etag": etag})
            return Response(body, media_type=PATCHED_CLIENT[path], headers={"etag": etag, "cache-control": "no-cache"})
        match = _FALLBACK_FONT_PATH.match(path)
        if match and match.group(1) in FALLBACK_FONTS and (self.fonts_dir / FALLBACK_FONTS[match.group(1)]).is_file():
            # Rule 4: one URL per shipped file, so the browser's cache holds each font once.
            return RedirectResponse(f"/{FONTS_URL}{FALLBACK_FONTS[match.group(1)]}", status_code=307)
        return None

    def client_file(self, path: str) -> tuple[bytes, str]:
        """The web client's file with the Rive CDN address made local (read once, kept: rule 2)."""
        if path not in self._client:
            body = (self.web_dir / path.lstrip("/")).read_bytes()
            if RIVE_CDN in body:  # rule 1
                body = body.replace(RIVE_CDN, RIVE_LOCAL)
            else:  # rule 3: another client version; the CSP still keeps the page from reaching out
                log.warning("%s no longer names the Rive CDN; served unchanged", path)
            self._client[path] = (body, f'"{hashlib.sha256(body).hexdigest()[:32]}"')
        return self._client[path]

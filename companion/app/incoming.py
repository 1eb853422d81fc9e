"""Where a file picked in a browser comes in: the web server's upload folder.

A picked file reaches the server as one plain HTTP PUT to `/upload` (Flet's signed upload
URL), streamed to a folder of this process, rather than as one message on the page's
socket, which carries it as a list of numbers (a second a megabyte, several times its size
in memory). The folder is made on first use, private to this user, and removed when the
process ends; each file is deleted once read.
"""

from __future__ import annotations

import atexit
import secrets
import shutil
import tempfile

UPLOAD_PATH = "upload"
_folder: list[str] = []
_secret = secrets.token_urlsafe(32)  # signs this process's upload URLs (they expire in minutes)


def folder() -> str:
    if not _folder:
        _folder.append(tempfile.mkdtemp(prefix="companion-incoming-"))
        atexit.register(shutil.rmtree, _folder[0], True)
    return _folder[0]


def secret() -> str:
    return _secret

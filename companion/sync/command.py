"""`companion sync URL [--data DIR] [--database NAME] [--user NAME]`: one round of sync from the
command line (a cron job, a check), printing what it sent and took.

URL is the server's address (its last path segment, if any, names the database) or a setup
link. The password comes from COMPANION_SYNC_PASSWORD, else from this data folder's sync
settings when they name the same server and user, else it is asked (when there is a terminal).
Every fault is one line on stderr and exit code 1.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
import urllib.parse
from collections.abc import Sequence

from companion.store import Store, StoreError, default_data_dir
from companion.sync.couch import Couch, SyncError
from companion.sync.engine import sync_round
from companion.sync.settings import DEFAULT_DATABASE, LINK_PREFIX, read_password, read_settings, read_setup_link


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="companion sync",
        description="One round of sync with a CouchDB database: take what changed there, send what changed here.",
    )
    parser.add_argument(
        "url", metavar="URL", help="the server, such as https://couch.example.org:6984/games (or a setup link)"
    )
    parser.add_argument("--data", metavar="DIR", help="the data folder (default: the app's)")
    parser.add_argument(
        "--database", metavar="NAME", help=f"the database (default: the URL's path, else {DEFAULT_DATABASE})"
    )
    parser.add_argument("--user", metavar="NAME", default=None, help="the user name (default: none, or the link's)")
    return parser.parse_args(argv)


def where(args: argparse.Namespace) -> tuple[str, str, str]:
    """(server address, database, user) from the arguments."""
    if args.url.startswith(LINK_PREFIX):
        linked = read_setup_link(args.url)
        return linked.url, args.database or linked.database, args.user if args.user is not None else linked.user
    parts = urllib.parse.urlsplit(args.url)
    path = parts.path.strip("/")
    url = urllib.parse.urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    return url, args.database or urllib.parse.unquote(path) or DEFAULT_DATABASE, args.user or ""


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    try:
        url, database, user = where(args)
        store = Store(default_data_dir(args.data))
        store.check_usable()
        password = os.environ.get("COMPANION_SYNC_PASSWORD")
        if password is None:
            saved = read_settings(store.folder)
            if saved is not None and (saved.url.rstrip("/"), saved.user) == (url.rstrip("/"), user):
                password = read_password(store.folder)
            elif user and sys.stdin.isatty():
                password = getpass.getpass(f"Password of {user}: ")
        couch = Couch(url, database, user, password or "")
        report = sync_round(store, couch)
    except (SyncError, StoreError) as error:
        print(f"companion: {error}", file=sys.stderr, flush=True)
        return 1
    print(f"companion: synced with {couch.server}/{database}: {report.summary().text()}", flush=True)
    for refused in report.refused:
        print(f"companion: {refused.text()}", flush=True)
    if report.waiting:
        print(f"companion: {report.waiting} open in the app, taken next time", flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

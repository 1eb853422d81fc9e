"""Command line: `companion [--web] [--share] [--share-host ADDRESS] [--port N] [--data DIR] [--lang en|fr|es]`,
`companion publish DIR` (the phone app as a static site: companion/publish), and `companion sync URL`
(one round of sync with a CouchDB database: companion/sync).

Every problem ends as one line on stderr and exit code 1 (2 for a bad argument), never a
traceback: the data folder, the port and the address to share on are checked before the
address is announced. `--share` serves in the browser and opens the game last open to the
phones at the table: its QR code, link and typed code are printed here.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TextIO

import flet as ft

from companion.app.data import AppData
from companion.app.desktop import desktop_problem
from companion.app.main import make_main, run_kwargs
from companion.app.share import Listener, ShareError, Sharing, display_code, lan_address
from companion.store import Store, StoreError, default_data_dir
from companion.text.messages import LANGUAGES

log = logging.getLogger(__name__)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="A table-side companion for board games.",
        epilog="companion publish DIR builds the phone app: a static site that runs "
        "offline (see companion publish --help); companion sync URL runs one "
        "round of sync with a CouchDB database (companion sync --help).",
    )
    parser.add_argument(
        "--web", action="store_true", help="serve the app to a browser on 127.0.0.1 instead of opening a window"
    )
    parser.add_argument(
        "--port", type=int, default=8550, help="the web port, on 127.0.0.1 and on the shared address (default 8550)"
    )
    parser.add_argument("--data", metavar="DIR", help="where games are saved (default: the app's data folder)")
    parser.add_argument(
        "--share",
        action="store_true",
        help="serve in the browser and share the game last open with the phones at the table (local network)",
    )
    parser.add_argument(
        "--share-host",
        metavar="ADDRESS",
        help="the local-network address to share on (default: this device's address on its network)",
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, help="the language of the app (default: as chosen in Settings, else the device's)"
    )
    return parser.parse_args(argv)


def fail(sentence: str) -> int:
    print(f"companion: {sentence}", file=sys.stderr, flush=True)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] == "publish":  # `companion publish DIR`: the phone app as a static site
            from companion.publish import main as publish

            return publish(list(argv[1:]))
        if argv and argv[0] == "sync":  # `companion sync URL`: one round of sync with a CouchDB database
            from companion.sync.command import main as sync

            return sync(list(argv[1:]))
        return run(parse(argv))
    except KeyboardInterrupt:  # Ctrl-C before the server took over the signal
        return 130
    except Exception as error:  # a bug: still one line for the user; the details go to the log
        log.debug("unexpected error", exc_info=True)
        return fail(f"stopped by an unexpected error ({type(error).__name__}: {error})")


def bad_argument(sentence: str) -> int:
    print(f"companion: {sentence}", file=sys.stderr)
    return 2


def share_host_problem(host: str) -> str | None:
    try:
        address = ipaddress.IPv4Address(host)
    except ValueError:
        return f"--share-host must be an IPv4 address of this device, such as 192.168.1.20, not {host!r}"
    if address.is_unspecified or str(address) == "127.0.0.1":  # web.LOOPBACK, the host's own address
        return f"--share-host must be this device's address on the table's network, not {host}"
    return None


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        return bad_argument(f"--port must be between 1 and 65535, not {args.port}")
    if args.share_host is not None and (problem := share_host_problem(args.share_host)):
        return bad_argument(problem)
    data_dir = default_data_dir(args.data)
    try:
        store = Store(data_dir)
        store.check_usable()
    except StoreError as error:
        return fail(str(error))
    data = AppData(store)

    def warm() -> None:
        # While the client loads, look at every game once, so that the first Home finds the
        # list ready (a big archive would otherwise keep it waiting).
        threading.Thread(target=data.warm, name="companion-warm", daemon=True).start()

    # The local network is looked for only when a game is shared (from its screen, or now).
    sharing = Sharing(None, args.share_host, find_host=lambda: lan_address())
    shared_game = None
    if args.share:
        sharing.host = sharing.host or lan_address()
        shared_game = data.last_screen()
        if shared_game is None or not data.exists(shared_game):
            return fail("no game to share: open one (companion --web), then tap Share on its screen")
        if sharing.host is None:
            return fail(
                "no local network found to share on: join the table's Wi-Fi, or name the address with --share-host"
            )
    app = make_main(data, sharing, language=args.lang)
    problem = None if args.web or args.share else desktop_problem()
    if not args.web and not args.share and problem is None:
        sharing.listener = window_share_listener(app, sharing, args.port)
        warm()
        try:
            ft.run(app, **run_kwargs(ft.AppView.FLET_APP))
        except OSError as error:
            return fail(f"the desktop window could not be opened ({error.strerror or error})")
        return 0
    # Only here: the web server's packages are not part of phone builds.
    from companion.app import web

    try:
        sock = web.listen(web.LOOPBACK, args.port)
    except web.PortError as error:
        return fail(str(error))
    if shared_game is not None:
        assert sharing.host is not None
        try:  # said now rather than after "serving at": the address is free and ours
            web.listen(sharing.host, args.port).close()
        except web.PortError as error:
            sock.close()
            return fail(f"cannot share on {sharing.host}: {error}")
    address = web.Address(web.LOOPBACK, args.port)
    where = f"games saved in {data_dir}; press Ctrl-C to stop"
    if problem is None:
        print(f"companion: serving at {address.url} ({where})", flush=True)
    else:
        print(f"companion: {problem}; serving in a browser instead at {address.url} ({where})", flush=True)
    announce_shares(sharing, sys.stdout)

    def started() -> None:  # once the server is up (its imports done): the client is loading now
        warm()
        if shared_game is not None:
            start_sharing(sharing, shared_game)

    web.serve(app, sock, sharing=sharing, on_started=started)
    return 0


def window_share_listener(app: Callable[[ft.Page], None], sharing: Sharing, port: int) -> Listener | None:
    """What a desktop window shares through: a web door of its own for the phones, when the
    web server's packages are installed (a phone build leaves them out: no Share button)."""
    try:
        from companion.app import web
    except ImportError:
        return None
    return web.WindowShareListener(app, sharing, port)


def start_sharing(sharing: Sharing, session_id: str) -> None:
    try:
        sharing.start(session_id)
    except ShareError as error:
        fail(str(error))


def announce_shares(sharing: Sharing, out: TextIO) -> None:
    """Print the QR code, link and code each time sharing starts, and a line when it stops."""
    import segno

    shown: list[str | None] = [None]

    def told() -> None:
        share = sharing.current
        link = share.link if share is not None else None
        if link == shown[0]:
            return
        if share is None:
            print("companion: sharing stopped; the app answers only on this device again", file=out, flush=True)
        else:
            print(
                f"companion: sharing a game with the table at {share.url} (code {display_code(share.code)}); "
                "scan the code below, or open the address and type the code",
                file=out,
                flush=True,
            )
            segno.make(share.link, error="m").terminal(out=out, compact=True)
            print(f"companion: or open {share.link}", file=out, flush=True)
        shown[0] = link

    sharing.subscribe(told)

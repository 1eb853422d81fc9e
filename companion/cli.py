"""Command line: `companion [--web] [--port N] [--data DIR]`.

Every problem ends as one line on stderr and exit code 1 (2 for a bad argument), never a
traceback: the data folder and the port are checked before the address is announced.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

import flet as ft

from companion.app.data import AppData
from companion.app.desktop import desktop_problem
from companion.app.main import make_main, run_kwargs
from companion.store import Store, StoreError, default_data_dir

log = logging.getLogger(__name__)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="companion", description="A table-side companion for board games.")
    parser.add_argument("--web", action="store_true", help="serve the app to a browser on 127.0.0.1 instead "
                                                           "of opening a window")
    parser.add_argument("--port", type=int, default=8550, help="the web port (default 8550)")
    parser.add_argument("--data", metavar="DIR", help="where games are saved (default: the app's data folder)")
    return parser.parse_args(argv)


def fail(sentence: str) -> int:
    print(f"companion: {sentence}", file=sys.stderr, flush=True)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(parse(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:  # Ctrl-C before the server took over the signal
        return 130
    except Exception as error:  # a bug: still one line for the user; the details go to the log
        log.debug("unexpected error", exc_info=True)
        return fail(f"stopped by an unexpected error ({type(error).__name__}: {error})")


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        print(f"companion: --port must be between 1 and 65535, not {args.port}", file=sys.stderr)
        return 2
    data_dir = default_data_dir(args.data)
    try:
        store = Store(data_dir)
        store.check_usable()
    except StoreError as error:
        return fail(str(error))
    app = make_main(AppData(store))
    problem = None if args.web else desktop_problem()
    if not args.web and problem is None:
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
    address = web.Address(web.LOOPBACK, args.port)
    if problem is None:
        print(f"companion: serving at {address.url} (data in {data_dir})", flush=True)
    else:
        print(f"companion: {problem}; serving in a browser instead at {address.url}", flush=True)
    web.serve(app, sock)
    return 0

"""Command line: `companion [--web] [--port N] [--data DIR]`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import flet as ft

from companion.app.data import AppData
from companion.app.desktop import desktop_problem
from companion.app.main import make_main, run_kwargs
from companion.store import Store, default_data_dir


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="companion", description="A table-side companion for board games.")
    parser.add_argument("--web", action="store_true", help="serve the app to a browser on 127.0.0.1 instead "
                                                           "of opening a window")
    parser.add_argument("--port", type=int, default=8550, help="the web port (default 8550)")
    parser.add_argument("--data", metavar="DIR", help="where games are saved (default: the app's data folder)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    if not 0 < args.port < 65536:
        print(f"companion: --port must be between 1 and 65535, not {args.port}", file=sys.stderr)
        return 2
    data_dir = default_data_dir(args.data)
    app = make_main(AppData(Store(data_dir)))
    if not args.web:
        problem = desktop_problem()
        if problem is None:
            ft.run(app, **run_kwargs(ft.AppView.FLET_APP))
            return 0
        print(f"companion: {problem}; serving in a browser instead at http://127.0.0.1:{args.port}/", flush=True)
    else:
        print(f"companion: serving at http://127.0.0.1:{args.port}/ (data in {data_dir})", flush=True)
    ft.run(app, **run_kwargs(ft.AppView.WEB_BROWSER, args.port))
    return 0

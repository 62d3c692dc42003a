"""``ludoteca companion``: open the table companion app."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``ludoteca companion``."""
    parser = sub.add_parser("companion", help="open the table companion app (Kivy)",
                            description="Open the table companion app in a window.")
    parser.add_argument("--db", metavar="PATH", help="the games database (default: $LUDOTECA_DB "
                        "or ludoteca.db in the user's data folder)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Open the app on the given database; the exit code."""
    from ludoteca.companion.app import run as run_app

    return run_app(args.db)

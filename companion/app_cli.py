"""``ludoteca companion`` and the ``ludoteca-companion`` launcher: open the table companion app."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

DESCRIPTION = "Open the table companion app in a window."
MISSING_KIVY = ("ludoteca: error: the companion app needs Kivy, which comes with the app extra: "
                "pip install 'ludoteca[app]'")


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", help="the games database (default: $LUDOTECA_DB "
                        "or ludoteca.db in the user's data folder)")


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``ludoteca companion``."""
    parser = sub.add_parser("companion", help="open the table companion app (Kivy)",
                            description=DESCRIPTION)
    _add_arguments(parser)
    parser.set_defaults(func=run)


def kivy_missing() -> bool:
    """True when Kivy cannot be imported (the app extra is not installed)."""
    import importlib.util
    try:
        return importlib.util.find_spec("kivy") is None
    except (ImportError, ValueError):
        return True


def run(args: argparse.Namespace) -> int:
    """Open the app on the given database; the exit code (2, with one line, without Kivy)."""
    if kivy_missing():
        print(MISSING_KIVY, file=sys.stderr)
        return 2
    from .app import run as run_app

    return run_app(args.db)


def main(argv: Sequence[str] | None = None, prog: str = "ludoteca-companion") -> int:
    """``ludoteca-companion`` and ``python -m ludoteca.companion``: the app on its own."""
    from ludoteca.cli import Parser

    parser = Parser(prog=prog, description=DESCRIPTION)
    _add_arguments(parser)
    return run(parser.parse_args(argv))

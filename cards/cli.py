"""``ludoteca validate``: check the card data and count it."""

from __future__ import annotations

import argparse
import json
import sys

from .catalog import load


def add_cards_option(parser: argparse.ArgumentParser) -> None:
    """The ``--cards DIR`` option every data-reading command shares."""
    parser.add_argument("--cards", metavar="DIR", default=None,
                        help="read this copy of the card data instead of the built-in one")


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``validate`` to the ``ludoteca`` command."""
    p = sub.add_parser("validate", help="check the card data and print its counts",
                       description="Check every YAML file of the card data; print counts per game and kind.")
    add_cards_option(p)
    p.add_argument("--json", action="store_true", help="print the counts as one JSON object")
    p.set_defaults(func=run_validate)


def run_validate(args: argparse.Namespace) -> int:
    """Load and check the data; print the counts (table or JSON). Bad data raises DataError (exit 2)."""
    catalog = load(args.cards)
    counts = {game_id: game.counts() for game_id, game in catalog.items()}
    if args.json:
        json.dump(counts, sys.stdout, ensure_ascii=False, sort_keys=False)
        print()
        return 0
    for game_id, game_counts in counts.items():
        print(game_id)
        for key, value in game_counts.items():
            if isinstance(value, dict):
                value = "  ".join(f"{k}: {v}" for k, v in value.items())
            print(f"  {key:<28} {value}")
    print("ok: the data is valid")
    return 0

"""``ludoteca score FILE``: the final scores of a finished game, with the reasons."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ludoteca.cards.names import json_text, shown

if TYPE_CHECKING:
    from .engine.scoring import Result

HEAD = {"es": "puntuación final", "en": "final scores"}
TOTAL = {"es": "Total", "en": "Total"}
RANK = {"es": "Puesto", "en": "Rank"}
WINNER = {"es": "Gana", "en": "Winner"}
WINNERS = {"es": "Ganan", "en": "Winners"}
NOBODY = {"es": "Nadie gana", "en": "No winner"}
NOTES = {"es": "Notas", "en": "Notes"}


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``score`` to the ``ludoteca`` command."""
    p = sub.add_parser("score", help="score the end of a game from a YAML or JSON record",
                       description="Score a finished game of Ciudadelas, El Mapa or Gladiadores from a "
                                   "YAML or JSON record: a table per player with the breakdown, the "
                                   "ranking and the winner.")
    p.add_argument("file", metavar="FILE", nargs="?",
                   help="the record of the end of the game (.yaml or .json)")
    p.add_argument("--example", metavar="GAME", choices=("ciudadelas", "el_mapa", "gladiadores"),
                   help="score the example record shipped with Ludoteca for GAME (a starting point "
                        "for your own records)")
    p.add_argument("--json", action="store_true",
                   help='print {"game", "players": [{"name", "total", "rank", "breakdown"}], "winners"}')
    p.add_argument("--lang", choices=("both", "es", "en"), default="both",
                   help="language of the table's labels (default: Spanish / English)")
    p.add_argument("--lenient", action="store_true",
                   help="score an end state the physical game does not allow (a house rule), with a warning")
    p.add_argument("--cards", metavar="DIR", default=None,
                   help="read this copy of the card data instead of the built-in one")
    p.set_defaults(func=run_score)


def run_score(args: argparse.Namespace) -> int:
    """Read, check and score a record; print the table or the JSON. Exit 2 on a bad record."""
    from ludoteca.cards import load

    from .engine.scoring import RecordError, game_of, read_record, score_record
    if (args.file is None) == (args.example is None):
        print("ludoteca score: error: give a FILE or --example GAME (not both)", file=sys.stderr)
        return 2
    if args.example is not None:
        from importlib import resources
        args.file = str(resources.files("ludoteca.examples") / f"{args.example}.yaml")
    try:
        record = read_record(args.file)
        game_id = game_of(record, args.file)
        catalog = load(args.cards, games=(game_id,))
        result = score_record(record, catalog, path=args.file, lenient=args.lenient)
    except RecordError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 2
    for note in result.notes:
        if note["en"].startswith("House rule"):
            print(f"ludoteca: warning: {note['en']}", file=sys.stderr)
    if args.json:
        print(json_text(result.as_json()))
    else:
        sys.stdout.write(format_table(result, catalog[game_id].meta.get("name", {}), args.lang))
    return 0


def say(text: dict | str, lang: str) -> str:
    """A {es, en} text in the chosen language; ``both`` gives "Spanish / English"."""
    if not isinstance(text, dict):
        return str(text)
    if lang in text:
        return str(text[lang])
    es, en = text.get("es", ""), text.get("en", "")
    return es if es == en else f"{es} / {en}"


def format_table(result: Result, game_name: dict, lang: str = "both") -> str:
    """The readable table: one column per player, one row per kind of points, then total and rank."""
    keys: list[str] = []
    for p in result.players:
        keys.extend(k for k in p.breakdown if k not in keys)
    rows = [(say(result.labels.get(k, k), lang), [str(p.breakdown.get(k, 0)) for p in result.players])
            for k in keys]
    rows.append((say(TOTAL, lang), [str(p.total) for p in result.players]))
    rows.append((say(RANK, lang), [str(p.rank) for p in result.players]))
    names = [shown(p.name) for p in result.players]
    label_w = max(len(r[0]) for r in rows)
    widths = [max(len(n), *(len(r[1][i]) for r in rows)) for i, n in enumerate(names)]
    lines = [f"{say(game_name, lang)}: {say(HEAD, lang)}", ""]
    lines.append(" " * label_w + "".join(f"  {n:>{w}}" for n, w in zip(names, widths)))
    for k, (label, cells) in enumerate(rows):
        if k == len(rows) - 2:
            lines.append("-" * (label_w + sum(w + 2 for w in widths)))
        lines.append(f"{label:<{label_w}}" + "".join(f"  {c:>{w}}" for c, w in zip(cells, widths)))
    lines.append("")
    if result.winners:
        title = WINNER if len(result.winners) == 1 else WINNERS
        lines.append(f"{say(title, lang)}: {', '.join(shown(w) for w in result.winners)}")
    else:
        lines.append(say(NOBODY, lang))
    notes = [f"{shown(p.name)}: {say(n, lang)}" for p in result.players for n in p.notes]
    notes += [say(n, lang) for n in result.notes]
    if notes:
        lines.append(f"{say(NOTES, lang)}:")
        lines.extend(f"  - {n}" for n in notes)
    return "\n".join(lines) + "\n"

"""End-of-game scoring for the three games: pure functions over plain data and the card data.

>>> from ludoteca.cards import load
>>> catalog = load(games=("ciudadelas",))
>>> record = {"game": "ciudadelas", "players": [
...     {"name": "Ana", "gold": 1, "city": ["Templo", "Castle", "tavern"]},
...     {"name": "Luis", "gold": 0, "city": ["University"]}]}
>>> result = score_record(record, catalog)
>>> [(p.name, p.total, p.rank) for p in result.players], result.winners
([('Ana', 6, 2), ('Luis', 8, 1)], ('Luis',))

Each game has a module (``ciudadelas``, ``el_mapa``, ``gladiadores``) with a pure
``score(...)`` over its own small dataclasses, for the engine, and ``score_record`` that
checks a record first.  Card facts and rule numbers all come from ``cards/``.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ludoteca.cards import fold
from ludoteca.cards.schema import describe

from . import ciudadelas, el_mapa, gladiadores
from .ranking import PlayerScore, Result, competition_ranks
from .records import Reader, RecordError, RecordProblem, line_of, read_record

SCORERS = {"ciudadelas": ciudadelas, "el_mapa": el_mapa, "gladiadores": gladiadores}

__all__ = ["PlayerScore", "RecordError", "RecordProblem", "Result", "SCORERS", "competition_ranks",
           "game_of", "read_record", "score_record"]


def game_of(record: Any, path: str = "<record>") -> str:
    """The game id a record names in ``game`` (id or name, any case, accents ignored)."""
    if not isinstance(record, dict):
        raise RecordError([RecordProblem(path, getattr(record, "line", None) or None, "",
                                         f"expected a mapping with 'game' and 'players', got {describe(record)}")])
    if "game" not in record:
        raise RecordError([RecordProblem(path, getattr(record, "line", None) or None, "game",
                                         f"missing (one of: {', '.join(SCORERS)})")])
    name = record["game"]
    wanted = fold(name).replace(" ", "_").replace("-", "_") if isinstance(name, str) else None
    if wanted not in SCORERS:
        raise RecordError([RecordProblem(path, line_of(record, "game"), "game",
                                         f"unknown game {describe(name)} (one of: {', '.join(SCORERS)})")])
    return wanted


def score_record(record: Any, catalog: Mapping[str, Any], path: str = "<record>", lenient: bool = False,
                 trusted: bool = False) -> Result:
    """Check a record of the end of a game and score it.

    ``catalog`` is what :func:`cards.load` returns (it needs at least the record's game).
    Raises :class:`RecordError` listing every problem, each with its field (and line, for YAML),
    including an end state the physical game does not allow (support rule, copies, unique cards,
    variants); ``lenient`` scores such a state anyway (a house rule) with a note for each.
    ``trusted`` (a record the engine built from its own state) lifts the size limits meant for files.
    """
    game_id = game_of(record, path)
    if game_id not in catalog:
        raise RecordError([RecordProblem(path, line_of(record, "game"), "game",
                                         f"no card data loaded for '{game_id}'")])
    return SCORERS[game_id].score_record(record, catalog[game_id], Reader(path, bounded=not trusted), lenient=lenient)

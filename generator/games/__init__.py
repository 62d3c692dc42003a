"""One module per game: each turns its ``cards/`` data into the kit's components.

Shared here: :func:`plain`, how every game hands data entries to a template, and
:func:`card_size`, the printed size a game's data names for its cards.
"""

from __future__ import annotations

from typing import Any

from ludoteca.cards import Game
from ludoteca.generator.model import GeneratorError
from ludoteca.generator.sheets import item_size


def card_size(game: Game, key: str = "card") -> tuple[float, float]:
    """(w, h) mm of a game's cards: ``print.<key>`` of its game.yaml names an item size of
    sheets.yaml (``poker``), so a size is written once for every game and for ``ludoteca deck``.
    How many fit on a sheet is left to the paper (3 x 3 poker cards on A4 and Letter, 4 x 4 on A3)."""
    printing = game.meta.get("print") or {}
    name = printing.get(key)
    try:
        return item_size(str(name))
    except GeneratorError as err:
        line = printing.line_of(key) if hasattr(printing, "line_of") else 0
        raise GeneratorError(f"{game.folder / 'game.yaml'}:{line}: game: print.{key}: {err}") from None


def plain(value: Any) -> Any:
    """Entries are dict/list subclasses that remember their lines: plain JSON values for a Face
    (mappings with text keys, lists for sequences), without the data's ``note:`` fields.

    >>> plain({"name": {"es": "Templo", "en": "Temple"}, "note": "ours", 3: (1, 2)})
    {'name': {'es': 'Templo', 'en': 'Temple'}, '3': [1, 2]}
    """
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items() if k != "note"}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value

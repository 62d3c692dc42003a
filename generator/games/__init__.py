"""One module per game: each turns its ``cards/`` data into the kit's components.

Shared here: :func:`plain`, how every game hands data entries to a template.
"""

from __future__ import annotations

from typing import Any


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

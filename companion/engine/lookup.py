"""Finding a saved game from what a person types: its full id, ``last``, or a unique part of it.

>>> from ludoteca.companion.engine import Store
>>> store = Store(":memory:")
>>> first = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
>>> find_game(store, "last") == first.id, find_game(store, first.id[-6:]) == first.id
(True, True)
"""

from __future__ import annotations

from typing import Any

from .common import text
from .errors import BadArgument

LAST = ("last", "ultima", "última")


def find_game(store: Any, wanted: str) -> str:
    """The id of the game ``wanted`` names: an exact id, ``last`` (the game changed most recently),
    or a part that only one id starts or ends with (the hex after the date, as ``history`` shows)."""
    games = store.history()  # newest change first
    key = str(wanted).strip()
    if key.casefold() in LAST:
        if not games:
            raise BadArgument(text("no hay partidas guardadas", "there are no saved games"))
        return games[0]["id"]
    ids = [g["id"] for g in games]
    if key in ids:
        return key
    hits = [i for i in ids if key and (i.startswith(key) or i.endswith(key))]
    if len(hits) == 1:
        return hits[0]
    if hits:
        shown = ", ".join(hits[:5])
        raise BadArgument(text(f"'{key}' vale para varias partidas ({shown}); escribe más del id",
                               f"'{key}' matches several games ({shown}); type more of the id"))
    raise BadArgument(text(f"no hay ninguna partida con id '{key}' (mira `ludoteca history`, o usa 'last')",
                           f"no game with id '{key}' (see `ludoteca history`, or use 'last')"))

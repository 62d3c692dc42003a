"""The companion's game engine: plain Python, no Kivy.

>>> from ludoteca.companion.engine import Store
>>> store = Store(":memory:")
>>> session = store.new_game("ciudadelas", ["Ana", "Luis", "Eva", "Pablo"], seed=3)
>>> session.state["phase"]
'choose'

See ``API.md`` in this folder for the whole contract.

The names below are imported on first use (PEP 562): a module that needs only the errors
(``ludoteca scan``'s) does not load the games, the session and the store with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ludoteca import lazy_names

if TYPE_CHECKING:
    from .errors import (BadArgument, Duplicate, GameOver, IllegalAction, LimitReached, NotAllowed,
                         NotEnough, NothingToUndo, NotYourTurn, StoreError, UnknownAction, UnknownPlayer,
                         WrongPhase)
    from .games import GAME_MODULES
    from .session import Session
    from .store import Store, default_db_path

#: each public name and the module that defines it
_HOMES = {**dict.fromkeys(("BadArgument", "Duplicate", "GameOver", "IllegalAction", "LimitReached", "NotAllowed",
                           "NotEnough", "NothingToUndo", "NotYourTurn", "StoreError", "UnknownAction",
                           "UnknownPlayer", "WrongPhase"), "errors"),
          "GAME_MODULES": "games", "Session": "session", "Store": "store", "default_db_path": "store"}

__all__ = ["BadArgument", "Duplicate", "GAME_MODULES", "GameOver", "IllegalAction", "LimitReached",
           "NotAllowed", "NotEnough", "NotYourTurn", "NothingToUndo", "Session", "Store", "StoreError",
           "UnknownAction", "UnknownPlayer", "WrongPhase", "default_db_path"]

__getattr__ = lazy_names(__name__, _HOMES)

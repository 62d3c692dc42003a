"""The companion's game engine: plain Python, no Kivy.

>>> from ludoteca.companion.engine import Store
>>> store = Store(":memory:")
>>> session = store.new_game("ciudadelas", ["Ana", "Luis", "Eva", "Pablo"], seed=3)
>>> session.state["phase"]
'choose'

See ``API.md`` in this folder for the whole contract.
"""

from .errors import (BadArgument, Duplicate, GameOver, IllegalAction, LimitReached, NotAllowed,
                     NotEnough, NothingToUndo, NotYourTurn, StoreError, UnknownAction, UnknownPlayer,
                     WrongPhase)
from .games import GAME_MODULES
from .session import Session
from .store import Store, default_db_path

__all__ = ["BadArgument", "Duplicate", "GAME_MODULES", "GameOver", "IllegalAction", "LimitReached",
           "NotAllowed", "NotEnough", "NotYourTurn", "NothingToUndo", "Session", "Store", "StoreError",
           "UnknownAction", "UnknownPlayer", "WrongPhase", "default_db_path"]

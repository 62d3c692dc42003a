"""El Mapa: the table companion keeps each realm's resources, castles, troops and points.

The map itself lies on the table; the engine keeps what the players need counted.  A turn begins
(automatically) with recruitment, every castle's timers moving on (levy every turn from the castle,
soldier/archer/knight from their buildings every ``recruit_every`` turns; the Armería variant
doubles), scattered troops coming home, and production (mines, gold buildings, spells).  Then the
active player hires, trades with the bank (a Market needed; limit villages + Markets), builds (one
per castle per turn, slot level and the "two below" rule from the castle board), reports revealed
tiles, claimed villages/mines/spell tiles, treasures (rolled on the seeded die) and battles.  The
turn in which a wonder is built or the last tile is revealed is the last.  Numbers come from
``cards/el_mapa``.

The game is declared once (``DEFINITION``), its parts one module each: ``state`` (the TypedDicts),
``start`` (setup), ``turns`` (the turn-start hook, the end condition, the record scoring reads),
``moves`` and ``battle`` (the moves with their preconditions), ``live`` (derived numbers for the
screen), over ``realm`` (the data's lookups and a realm's limits). What the screens and tests ask
is imported here.
"""

from __future__ import annotations

from ...definition import GameDefinition
from .live import derive
from .moves import MOVES, TROOPS
from .realm import (TALLIES, adjustable, amounts_text, buildings_in_play, counter_ids, may_trade, resources,
                    spell_id, spell_levels, trade_building, trade_lines, treasures_in_game)
from .start import setup
from .state import GAME, ElMapaState, Player
from .turns import REASONS, _start_turn, end, record

__all__ = ["ACTIONS", "DEFINITION", "GAME", "MOVES", "REASONS", "TALLIES", "TROOPS", "ElMapaState", "Player",
           "adjustable", "amounts_text", "buildings_in_play", "counter_ids", "derive", "end", "may_trade",
           "record", "resources", "setup", "spell_id", "spell_levels", "trade_building", "trade_lines",
           "treasures_in_game"]


DEFINITION = GameDefinition(GAME, MOVES, setup, record, _start_turn, end, ElMapaState, Player,
                            derive=derive)

ACTIONS = DEFINITION.actions

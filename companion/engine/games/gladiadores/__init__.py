"""Gladiadores (Ludi Gladiatorii): each turn is start, main phase, auction and end.

Start (applied by the engine when a turn begins): stand every gladiator up, start-of-turn buildings
(coins, a free Tiro), refill to ``limits.refill_min_gladiators`` Tiros and ``refill_min_buildings``
starting buildings.  Main: each ready gladiator acts once (fight, work; build/demolish/destroy pool
several; chain with the Officina).  Auction: discard down to the room you have, or, with room to
spare, reveal veterans, pick one and take bids from the left of the active player round to the
active player last.  End: reaching the target points wins.  Every number is in ``cards/gladiadores``.

Gladiators are card instances with a ``uid`` (``"g7"``) since Tiros come in copies.  A fight's
combat card is the one the table reveals (``card``: the app always asks for it, and it leaves the
engine's pile) or, when not given (``ludoteca play``, simulations), the top of the engine's seeded
combat deck.

The game is declared once (``DEFINITION``), its parts one module each: ``state`` (the TypedDicts),
``start`` (setup), ``turns`` (the turn-start hook, the end condition, the record scoring reads),
``moves`` with ``combat``, ``construction``, ``auction`` and ``adjust`` (the moves with their
preconditions), ``live`` (derived numbers for the screen), over ``ludus`` (the data's lookups and a
gladiator's stats). What the screens and tests ask is imported here.
"""

from __future__ import annotations

from ...definition import GameDefinition
from .adjust import OLD_RESOURCES, RESOURCES
from .auction import min_bid
from .combat import attacker_wins, fight_cost
from .live import derive
from .ludus import capacity, pooled_construction, removable, stat
from .moves import MOVES
from .start import setup
from .state import GAME, GladiadoresState, Player
from .turns import _start_turn, end, points, record

__all__ = ["ACTIONS", "DEFINITION", "GAME", "MOVES", "OLD_RESOURCES", "RESOURCES", "GladiadoresState", "Player",
           "attacker_wins", "capacity", "derive", "end", "fight_cost", "min_bid", "points", "pooled_construction",
           "record", "removable", "setup", "stat"]


DEFINITION = GameDefinition(GAME, MOVES, setup, record, _start_turn, end, GladiadoresState, Player, derive=derive)

ACTIONS = DEFINITION.actions

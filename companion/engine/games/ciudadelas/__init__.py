"""Ciudadelas (classic Citadels): rounds of secret character picks, then the characters called 1 to 8.

Phases of a round: ``choose`` (the draft: discards from ``game.character_draft`` for the player count,
then picks from the crown holder to the left), ``call`` (the crown calls every number 1..8; nobody
answers for a character nobody took or the murdered one), ``turn`` (the revealed player's turn).
A city reaching ``complete_city`` districts makes the round the last; then the game is scored by
``companion.engine.scoring``.  Every number comes from ``cards/ciudadelas``.

Cards in hand are hidden at the table: the state only keeps how many each player holds.

The game is declared once (``DEFINITION``), its parts one module each: ``state`` (the TypedDicts),
``start`` (setup), ``turns`` (the rounds: the turn-start hook, the end condition, the record scoring
reads), ``moves``, ``draft`` and ``powers`` (the moves with their preconditions), ``live`` (derived
numbers for the screen), over ``city`` (the data's lookups and prices). What the screens and tests
ask is imported here.
"""

from __future__ import annotations

from ...definition import GameDefinition
from .city import (RESOURCES, build_cost, destroy_price, district, districts_in_play, districts_of_deck,
                   draw_terms, may_add_duplicate)
from .draft import face_down_choices
from .live import derive, destroy_targets
from .moves import MOVES
from .powers import POWER_MOVES, _graveyard_passes, character_moves
from .start import setup
from .state import GAME, CiudadelasState, Player
from .turns import _start_turn, end, record

__all__ = ["ACTIONS", "DEFINITION", "GAME", "MOVES", "POWER_MOVES", "RESOURCES", "CiudadelasState", "Player",
           "build_cost", "character_moves", "derive", "destroy_price", "destroy_targets", "district",
           "districts_in_play", "districts_of_deck", "draw_terms", "end", "face_down_choices", "may_add_duplicate",
           "record", "setup"]


DEFINITION = GameDefinition(GAME, MOVES, setup, record, _start_turn, end, CiudadelasState, Player,
                            derive=derive, before_move=_graveyard_passes)

ACTIONS = DEFINITION.actions

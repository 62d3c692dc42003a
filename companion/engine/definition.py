"""A game, declared (in the spirit of boardgame.io's game object): how it is set up, its moves, what
is derived from its state after every action, the record scoring reads, the hook that starts a
player's turn and the condition that ends the game, with the end as an :class:`Outcome` (as
python-chess's ``Outcome`` says why a game ended).

Each game's package (``games/<game>/``, one file per part: ``state``, ``start``, ``turns``, ``moves``,
``live``) builds one :class:`GameDefinition` (``DEFINITION``) in its ``__init__``; the session plays a
game only through it. The state stays plain JSON (it is saved and replayed); its shape is declared by
TypedDicts (:class:`State`, and each game's own), which the tests check every state against.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

from .common import Move, actions_table, apply_move, legal_moves
from .outcome import Outcome


class _Added(TypedDict, total=False):
    """Keys added on the way: the session's own, and the outcome once the game has ended."""

    outcome: str   # an Outcome's value
    game: str
    can_undo: bool
    can_redo: bool


class State(_Added):
    """What every game's state holds (besides the keys added on the way)."""

    phase: str
    players: list[dict[str, Any]]
    active: int | None
    first_player: int
    round: int
    finished: bool
    final: dict[str, Any] | None
    log: list[dict[str, Any]]


Setup = Callable[[list[str], dict, random.Random, Any], dict]
TurnStart = Callable[[dict, int, random.Random, Any], None]


@dataclass(frozen=True)
class GameDefinition:
    """One game, declared: everything the session needs to play it."""

    game: str
    #: ``{name: Move}``: typed, ranged arguments, one precondition, one effect each (``adjust``
    #: among them, with what it may correct).
    moves: dict[str, Move]
    #: ``(players, options, rng, data) -> state``: the options are checked against ``schema.yaml``.
    setup: Setup
    #: ``(state, data) -> record``: the facts scoring reads at the end.
    record: Callable[[dict, Any], dict]
    #: ``(state, seat, rng, data)``: what happens when ``seat``'s turn begins.
    turn_start: TurnStart
    #: ``(state, data) -> Outcome | None``: the end condition, asked when a turn (Ciudadelas: a
    #: round) closes.
    end: Callable[[dict, Any], Outcome | None]
    #: The TypedDict of the game's state, and of one of its players.
    state: type
    player: type
    #: ``(state, data)``: fills in what screens show (live scores...) after every fold.
    derive: Callable[[dict, Any], None] | None = None
    #: ``(state, move)``: a rule that comes with every move, run before its effect.
    before_move: Callable[[dict, Move], None] | None = None

    @functools.cached_property
    def actions(self) -> dict[str, dict]:
        """``{name: {"args": ..., "help": ...}}``: the moves plus undo and redo (``play --actions``)."""
        return actions_table(self.moves)

    def apply(self, state: dict, action: dict, rng: random.Random, data: Any) -> dict:
        """Apply one action (see :attr:`moves`); raise ``IllegalAction`` before changing anything."""
        return apply_move(self.moves, state, action, rng, data, before=self.before_move)

    def legal_actions(self, state: dict, data: Any) -> list[dict]:
        """The moves open now, derived from :attr:`moves` (no rule of their own)."""
        return legal_moves(self.moves, state, data)

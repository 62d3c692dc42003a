"""One module per game, each declaring its setup, phases, turn order, actions and scoring.

A game module provides:

- ``GAME``: its id; ``RESOURCES``: what ``adjust`` may correct, ``{key: {es, en}}``;
- ``MOVES``: ``{name: Move}``, each move declared once: its typed arguments with their ranges, the
  phases it belongs to, its one precondition (which raises the reason it is refused) and its effect
  (see ``companion.engine.common.Move``);
- ``ACTIONS``: ``{name: {"args": {arg: description}, "help": {es, en}}}`` (``play --actions``),
  derived from ``MOVES`` plus ``undo`` and ``redo``;
- ``setup(players, options, rng, data) -> state``; the player count and the options (declared in
  the game's ``schema.yaml`` ``setup: options:``) are read by ``companion.engine.setup``;
- ``apply(state, action, rng, data) -> state``, raising ``IllegalAction`` before changing anything;
- ``legal_actions(state, data) -> [action, ...]``: derived from ``MOVES`` (no rule of its own).
"""

from __future__ import annotations

from types import ModuleType

from . import ciudadelas, el_mapa, gladiadores

GAME_MODULES: dict[str, ModuleType] = {
    "ciudadelas": ciudadelas,
    "el_mapa": el_mapa,
    "gladiadores": gladiadores,
}

"""One package per game, each declaring the game once as a
:class:`~ludoteca.companion.engine.definition.GameDefinition` (``DEFINITION``): its setup, its
moves (typed, ranged arguments, one precondition, one effect each; ``adjust`` among them), what is
derived after every action, the record scoring reads, the turn-start hook and the end condition
(an :class:`~ludoteca.companion.engine.definition.Outcome`). The session plays a game only
through its definition (:data:`DEFINITIONS`); the package also keeps the helpers its screen asks
(``MOVES``, ``ACTIONS``, names and prices), and ``GAME``. A game's files follow its definition
(``state``, ``start``, ``turns``, ``moves``, ``live``; see ``engine/API.md``); import from the
package, not from its files.
"""

from __future__ import annotations

from types import ModuleType

from ..definition import GameDefinition

from . import ciudadelas, el_mapa, gladiadores

GAME_MODULES: dict[str, ModuleType] = {
    "ciudadelas": ciudadelas,
    "el_mapa": el_mapa,
    "gladiadores": gladiadores,
}
DEFINITIONS: dict[str, GameDefinition] = {game: module.DEFINITION for game, module in GAME_MODULES.items()}

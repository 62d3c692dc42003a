"""One module per game, each declaring its setup, phases, turn order, actions and scoring.

A game module provides:

- ``GAME``: its id; ``RESOURCES``: what ``adjust`` may correct, ``{key: {es, en}}``;
- ``ACTIONS``: ``{name: {"args": {arg: description}, "help": {es, en}}}`` (``play --actions``);
- ``setup(players, options, rng, data) -> state``;
- ``apply(state, action, rng, data) -> state``, raising ``IllegalAction`` before changing anything;
- ``legal_actions(state, data) -> [action, ...]``: what the active player may do now.
"""

from __future__ import annotations

from types import ModuleType

from . import ciudadelas, el_mapa, gladiadores

GAME_MODULES: dict[str, ModuleType] = {
    "ciudadelas": ciudadelas,
    "el_mapa": el_mapa,
    "gladiadores": gladiadores,
}

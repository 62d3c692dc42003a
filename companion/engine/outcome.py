"""How a game ends (:class:`Outcome`): a module of its own, so that the final scoring and the
game definition both name it without importing each other."""

from __future__ import annotations

from enum import Enum


class Outcome(Enum):
    """Why a game ended: the end condition that was met (kept in ``state["outcome"]``)."""

    #: Ciudadelas: a city reached the data's size (``complete_city``) and that round was played out.
    CITY_COMPLETE = "city_complete"
    #: El Mapa: a wonder was built, and the round was played out to the first player.
    WONDER_BUILT = "maravilla"
    #: El Mapa: the last map tile was revealed, and the round was played out.
    LAST_TILE = "ultima_ficha"
    #: Gladiadores: a player ended their turn with the target's points (``target``).
    TARGET_REACHED = "target_reached"

"""How a game of Ciudadelas starts: gold and cards dealt, the crown handed, round 1 begun."""

from __future__ import annotations

import random
from typing import Any

from ...common import player_index
from ...setup import setup_options
from .city import _meta
from .state import GAME
from .turns import _start_round


def setup(players: list[str], options: dict, rng: random.Random, data) -> dict:
    """Deal gold and cards, hand the crown (``options["crown"]`` or at random), start round 1."""
    meta = _meta(data)
    options = setup_options(data, players, options)
    state: dict[str, Any] = {
        "game": GAME,
        "options": {"dark_city": bool(options["dark_city"])},
        "players": [{"name": n, "gold": meta["starting_gold"], "hand": meta["starting_cards"],
                     "city": [], "built_round": {}} for n in players],
        "round": 0, "phase": "choose", "active": None, "finished": False, "final": None,
        "first_complete": None, "last_round": False, "log": [],
    }
    if options["crown"] is not None:
        state["crown"] = player_index(state, options["crown"], "crown")
    else:
        state["crown"] = rng.randrange(len(players))
    state["first_player"] = state["crown"]
    _start_round(state, rng, data)
    return state

"""How a game of El Mapa starts: starting resources, a village with its castle, two mines and a levy
per realm; the map for the player count; a first player, whose turn begins."""

from __future__ import annotations

import random
from typing import Any

from ...common import player_index
from ...setup import setup_options
from .realm import _take_tile, _troops, counter_ids, resources, spell_levels
from .state import GAME
from .turns import _start_turn


def setup(players: list[str], options: dict, rng: random.Random, data) -> dict:
    """Starting resources, a village with its castle, two mines and a levy; a random first player."""
    meta = data.meta
    options = setup_options(data, players, options)
    variants = options["variants"]
    the_map = next(m for m in data.entries("map") if m["players"] == len(players))
    cells = [c for row in the_map["grid"] for c in row]
    face_down = {str(t["level"]) for t in data.entries("tile")}  # a cell coded by a level: a face-down tile
    hidden = sum(1 for c in cells if str(c) in face_down)
    start = meta["starting"]
    state: dict[str, Any] = {
        "game": GAME, "variants": sorted(variants), "map": {"id": the_map["id"], "hidden": hidden, "tiles": hidden},
        "players": [], "phase": "turn", "active": None, "turn": 0, "round": 1, "finished": False,
        "final": None, "log": [], "next_army": 1, "wonders": {}, "last_turn_reason": None,
        "scattered": [], "turn_start": None,
    }
    for name in players:
        p = {"name": name, **{r: 0 for r in resources(data)}, "tiles_revealed": 0,
             "villages": 0, "mines": {r: 0 for r in counter_ids(data)},
             "spell_tiles": {str(level): 0 for level in spell_levels(data)},
             "castles": [], "reserve": {t["id"]: 0 for t in _troops(data)}, "armies": [],
             "defeated": {}, "trained_troops": 0, "trades_used": 0, "turns_played": 0}
        for res, n in start["resources"].items():
            p[res] += n
        for tile in start["tiles"]:
            _take_tile(p, data.get("tile", tile), data)
        state["players"].append(p)
    for p in state["players"]:
        troops = dict(start["troops"])
        p["armies"].append({"id": f"a{state['next_army']}", "troops": troops, "storehouse": False})
        state["next_army"] += 1
    first = options["first"]
    seat = player_index(state, first, "first") if first is not None else rng.randrange(len(players))
    state["first_player"] = seat
    _start_turn(state, seat, rng, data)
    return state

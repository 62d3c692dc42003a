"""How a game of Gladiadores starts: buildings dealt (the Casula's holder starts), Tiros and coins;
veterans and combat cards shuffled; the first turn begun."""

from __future__ import annotations

import random
from typing import Any

from ...common import text
from ...errors import BadArgument
from ...setup import setup_options
from .ludus import _new_glad
from .state import GAME
from .turns import _start_turn


def setup(players: list[str], options: dict, rng: random.Random, data) -> dict:
    """Deal buildings (the Casula's holder starts), Tiros and coins; shuffle veterans and combat cards."""
    meta = data.meta
    options = setup_options(data, players, options)
    target = options["target"] or meta["target_points"]["quick_start" if options["quick"] else "standard"]
    from ...scoring.gladiadores import player_count_row  # the row scoring's box check reads too

    row = player_count_row(data, len(players))
    if row is None:
        raise BadArgument(
            text(
                f"los datos no tienen fila de player_counts para {len(players)} jugadores",
                f"the data has no player_counts row for {len(players)} players",
            )
        )
    pool = [b for b in data.entries("building") if b["symbol"] in row["symbols"] for _ in range(b.get("copies", 1))]
    first_id = meta["setup"]["first_player_building"]
    starting = [b["id"] for b in pool if b["starting"] and b["id"] != first_id]
    rng.shuffle(starting)
    dealt = [first_id] + starting[: row["starting_buildings"] - 1]
    rng.shuffle(dealt)
    per = meta["setup"]["buildings_per_player"]
    tiros = [g["id"] for g in data.entries("gladiator") if g["kind"] == "tiro" for _ in range(g.get("copies", 1))]
    rng.shuffle(tiros)
    veterans = [g["id"] for g in data.entries("gladiator") if g["kind"] == "veteran" for _ in range(g.get("copies", 1))]
    rng.shuffle(veterans)
    combat = [c["id"] for c in data.entries("combat_card") for _ in range(c.get("copies", 1))]
    rng.shuffle(combat)
    state: dict[str, Any] = {
        "game": GAME,
        "target": target,
        "expansion": options["expansion"],
        "players": [],
        "next_uid": 1,
        "phase": "start",
        "active": None,
        "turn": 0,
        "round": 1,
        "finished": False,
        "final": None,
        "log": [],
        "centre": {
            "tiros": [],
            "buildings": [],
            "veterans": veterans,
            "veteran_discard": [],
            "combat": combat,
            "combat_discard": [],
        },
        "auction": None,
        "chained": [],
        "turn_flags": {},
    }
    for i, name in enumerate(players):
        state["players"].append(
            {
                "name": name,
                "coins": meta["setup"]["starting_coins"],
                "combat_wins": 0,
                "defence_wins": 0,
                "buildings": dealt[i * per : (i + 1) * per],
                "gladiators": [],
            }
        )
    for p in state["players"]:
        for _ in range(meta["setup"]["starting_tiros"]):
            p["gladiators"].append(_new_glad(state, tiros.pop()))
    state["centre"]["tiros"] = sorted(tiros)
    leftover = dealt[len(players) * per :] + starting[row["starting_buildings"] - 1 :]
    state["centre"]["buildings"] = sorted(leftover + [b["id"] for b in pool if not b["starting"]])
    first = next(i for i, p in enumerate(state["players"]) if first_id in p["buildings"])
    state["first_player"] = first
    _start_turn(state, first, rng, data)
    return state

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
    row = _player_count_row(data, len(players))
    hands, centre_buildings = _deal_buildings(data, row, len(players), rng)
    gladiators = data.entries("gladiator")
    tiros = _pile([g for g in gladiators if g["kind"] == "tiro"], rng)
    veterans = _pile([g for g in gladiators if g["kind"] == "veteran"], rng)
    combat = _pile(data.entries("combat_card"), rng)
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
            "buildings": centre_buildings,
            "veterans": veterans,
            "veteran_discard": [],
            "combat": combat,
            "combat_discard": [],
        },
        "auction": None,
        "chained": [],
        "turn_flags": {},
    }
    for name, hand in zip(players, hands):
        state["players"].append(
            {
                "name": name,
                "coins": meta["setup"]["starting_coins"],
                "combat_wins": 0,
                "defence_wins": 0,
                "buildings": hand,
                "gladiators": [],
            }
        )
    for p in state["players"]:
        for _ in range(meta["setup"]["starting_tiros"]):
            p["gladiators"].append(_new_glad(state, tiros.pop()))
    state["centre"]["tiros"] = sorted(tiros)
    first_id = meta["setup"]["first_player_building"]
    first = next(i for i, p in enumerate(state["players"]) if first_id in p["buildings"])
    state["first_player"] = first
    _start_turn(state, first, rng, data)
    return state


def _player_count_row(data, players: int) -> dict:
    """The data's ``player_counts`` row for this many players (which buildings are in play), or the refusal."""
    from ...scoring.gladiadores import player_count_row  # the row scoring's box check reads too

    row = player_count_row(data, players)
    if row is None:
        raise BadArgument(
            text(
                f"los datos no tienen fila de player_counts para {players} jugadores",
                f"the data has no player_counts row for {players} players",
            )
        )
    return row


def _deal_buildings(data, row: dict, players: int, rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """Each player's starting buildings (one hand holds the first player's building) and the centre's
    (the starting buildings not dealt, then every other one), from the buildings of ``row``'s symbols."""
    meta = data.meta
    pool = [b for b in data.entries("building") if b["symbol"] in row["symbols"] for _ in range(b.get("copies", 1))]
    first_id = meta["setup"]["first_player_building"]
    starting = [b["id"] for b in pool if b["starting"] and b["id"] != first_id]
    rng.shuffle(starting)
    dealt = [first_id] + starting[: row["starting_buildings"] - 1]
    rng.shuffle(dealt)
    per = meta["setup"]["buildings_per_player"]
    hands = [dealt[i * per : (i + 1) * per] for i in range(players)]
    leftover = dealt[players * per :] + starting[row["starting_buildings"] - 1 :]
    return hands, sorted(leftover + [b["id"] for b in pool if not b["starting"]])


def _pile(cards: list[dict], rng: random.Random) -> list[str]:
    """The cards' ids, each as many times as its copies, shuffled."""
    pile = [c["id"] for c in cards for _ in range(c.get("copies", 1))]
    rng.shuffle(pile)
    return pile

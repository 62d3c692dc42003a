"""``adjust`` in Gladiadores: the table is the truth. Besides the counters (coins, combats and
defences won, by their names or the old one), a correction may give a player a building, from the
centre or from whoever has it, or send one of theirs back to the centre."""

from __future__ import annotations

import random
from typing import Any

from ...common import CORRECTION, Arg, Move, adjust_move, log, name_of, player_index, text
from ...errors import BadArgument, Duplicate, NotAllowed


RESOURCES = {
    "coins": text("monedas", "coins"),
    "combat_wins": text("combates ganados", "combats won"),
    "defence_wins": text("defensas ganadas", "defences won"),
}

#: What ``adjust`` called the combat-wins counter before the engine kept wins instead of points
#: (saved games replay with it; the shipped data gives one point a win).
OLD_RESOURCES = {"points": "combat_wins", "puntos de combate": "combat_wins", "combat points": "combat_wins"}


def _is_resource(name: Any) -> bool:
    return isinstance(name, str) and name.strip().casefold() in {k for k in RESOURCES} | set(OLD_RESOURCES) | {
        n.casefold() for t in RESOURCES.values() for n in t.values()
    }


def _renamed(a: dict) -> dict:
    """An ``adjust`` with the counter's old name given its current one."""
    old = OLD_RESOURCES.get(a["resource"].strip().casefold()) if isinstance(a["resource"], str) else None
    return {**a, "resource": old} if old else a


def _adjusted_building(state: dict, a: dict, data) -> tuple[int, dict]:
    """The player and the building an ``adjust`` of a building names, or the refusal."""
    seat = player_index(state, a["player"])
    player = state["players"][seat]
    try:
        building = data.find("building", a["resource"])
    except LookupError as exc:
        raise BadArgument(
            text(
                f"recurso desconocido: se puede ajustar coins, combat_wins, defence_wins o un edificio ({exc})",
                f"unknown resource: adjust coins, combat_wins, defence_wins or a building ({exc})",
            )
        ) from None
    bid = building["id"]
    if a["delta"] == 1:
        if bid in player["buildings"]:
            raise Duplicate(
                text(
                    f"{player['name']} ya tiene {name_of(building)}",
                    f"{player['name']} already has {name_of(building, 'en')}",
                )
            )
        if not any(bid in p["buildings"] for p in state["players"]) and bid not in state["centre"]["buildings"]:
            raise NotAllowed(text(f"{name_of(building)} no está en juego", f"{name_of(building, 'en')} is not in play"))
    elif a["delta"] == -1:
        if bid not in player["buildings"]:
            raise BadArgument(
                text(
                    f"{player['name']} no tiene {name_of(building)}",
                    f"{player['name']} has no {name_of(building, 'en')}",
                )
            )
    else:
        raise BadArgument(text("un edificio se ajusta con delta +1 o -1", "a building is adjusted by delta +1 or -1"))
    return seat, building


def _adjust_check(state: dict, a: dict, data) -> None:
    if _is_resource(a["resource"]):
        _BASE_ADJUST.precondition(state, _renamed(a), data)
    else:
        _adjusted_building(state, a, data)


def _adjust(state: dict, a: dict, rng: random.Random, data) -> None:
    """The table is the truth: correct coins or combats won, give a player a building (from the centre or
    from whoever has it) or send one of theirs back to the centre."""
    if _is_resource(a["resource"]):
        _BASE_ADJUST.effect(state, _renamed(a), rng, data)
        return
    seat, building = _adjusted_building(state, a, data)
    player, bid = state["players"][seat], building["id"]
    if a["delta"] == 1:
        owner = next((p for p in state["players"] if bid in p["buildings"]), None)
        (owner["buildings"] if owner is not None else state["centre"]["buildings"]).remove(bid)
        player["buildings"].append(bid)
        es, en = f"recibe {name_of(building)}", f"gets {name_of(building, 'en')}"
    else:
        player["buildings"].remove(bid)
        state["centre"]["buildings"].append(bid)
        state["centre"]["buildings"].sort()
        es, en = f"devuelve {name_of(building)} al centro", f"returns {name_of(building, 'en')} to the centre"
    log(state, f"Ajuste: {player['name']} {es}", f"Adjusted: {player['name']} {en}")


_BASE_ADJUST = adjust_move(lambda data: RESOURCES, "coins|combat_wins|defence_wins|a building")

ADJUST = Move(
    "adjust",
    text(
        "Corrige a mano un recurso de un jugador, o qué edificios tiene (+1 lo toma del centro "
        "o de otro jugador, -1 lo devuelve al centro).",
        "Correct a player's resource by hand, or which buildings they own (+1 takes it from "
        "the centre or another player, -1 returns it to the centre).",
    ),
    {**_BASE_ADJUST.args, "delta": Arg("int", "int (+1/-1 for a building)", lo=-CORRECTION, hi=CORRECTION)},
    _adjust_check,
    _adjust,
    active=False,
)

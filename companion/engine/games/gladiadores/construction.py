"""The moves gladiators build with, pooling their construction: ``build`` from the centre,
``demolish`` one's own building, ``destroy`` a rival's (the Aries, once a turn)."""

from __future__ import annotations

import random

from ...common import log, name_of, player_index, text
from ...errors import BadArgument, Duplicate, LimitReached, NotAllowed, NotEnough
from .ludus import _building, _building_effects, _me, _own_glad, removable, stat


def _pool(state: dict, a: dict, data) -> tuple[list[dict], int]:
    """The ready gladiators ``gladiators`` names and the construction they pool (with bonuses)."""
    seat, player = _me(state)
    uids = a["gladiators"]
    if not uids or len(set(uids)) != len(uids):
        raise BadArgument(
            text("'gladiators' es una lista de gladiadores distintos", "'gladiators' is a list of different gladiators")
        )
    glads = [_own_glad(player, u) for u in uids]
    total = sum(stat(state, seat, g, "construction", data) for g in glads)
    total += sum(e.get("amount", 0) for e in _building_effects(state, seat, data, "construction_bonus"))
    return glads, total


def _construction_check(state: dict, a: dict, cost: int, what_es: str, what_en: str, data) -> None:
    glads, total = _pool(state, a, data)
    if total < cost:
        raise NotEnough(
            text(
                f"{what_es} cuesta {cost} y tus gladiadores suman {total}",
                f"{what_en} costs {cost}; your gladiators add up to {total}",
            )
        )


def _use_up(state: dict, a: dict, data) -> None:
    """The named gladiators have pooled their construction: they are used up."""
    for g in _pool(state, a, data)[0]:
        g["ready"] = False


def _build_check(state: dict, a: dict, data) -> None:
    seat, player = _me(state)
    building = _building(data, a["building"])
    limits = data.meta["limits"]
    if limits["unique_building_names"] and building["id"] in player["buildings"]:
        raise Duplicate(
            text(
                f"{player['name']} ya tiene {name_of(building)}",
                f"{player['name']} already has {name_of(building, 'en')}",
            )
        )
    if building["id"] not in state["centre"]["buildings"]:
        raise NotAllowed(
            text(f"{name_of(building)} no está en el centro", f"{name_of(building, 'en')} is not in the centre")
        )
    if len(player["buildings"]) >= limits["max_buildings"]:
        raise LimitReached(
            text(
                f"ya tienes {limits['max_buildings']} edificios",
                f"you already have {limits['max_buildings']} buildings",
            )
        )
    _construction_check(state, a, building["cost"], name_of(building), name_of(building, "en"), data)


def _build(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _me(state)
    building = _building(data, a["building"])
    _use_up(state, a, data)
    state["centre"]["buildings"].remove(building["id"])
    player["buildings"].append(building["id"])
    log(state, f"{player['name']} construye {name_of(building)}", f"{player['name']} builds {name_of(building, 'en')}")


def _build_candidates(state: dict, data) -> list[dict]:
    """Each building in the centre, paid by the strongest ready builders."""
    seat, p = _me(state)
    ready = [g for g in p["gladiators"] if g["ready"]]
    return [
        {"building": b, "gladiators": _cheapest(state, seat, ready, data.get("building", b)["cost"], data)}
        for b in dict.fromkeys(state["centre"]["buildings"])
    ]


def _removal_check(state: dict, a: dict, owner: int, data) -> dict:
    building = _building(data, a["building"])
    victim = state["players"][owner]
    if building["id"] not in victim["buildings"]:
        raise BadArgument(
            text(f"{victim['name']} no tiene {name_of(building)}", f"{victim['name']} has no {name_of(building, 'en')}")
        )
    if not removable(building, data):
        raise NotAllowed(
            text(
                f"{name_of(building)} da puntos: no se puede derribar",
                f"{name_of(building, 'en')} gives points: it cannot be demolished",
            )
        )
    _construction_check(
        state, a, building["cost"], f"derribar {name_of(building)}", f"demolishing {name_of(building, 'en')}", data
    )
    return building


def _remove_building(state: dict, a: dict, owner: int, data) -> None:
    player = state["players"][state["active"]]
    building = _building(data, a["building"])
    _use_up(state, a, data)
    state["players"][owner]["buildings"].remove(building["id"])
    state["centre"]["buildings"].append(building["id"])
    state["centre"]["buildings"].sort()
    log(
        state, f"{player['name']} derriba {name_of(building)}", f"{player['name']} pulls down {name_of(building, 'en')}"
    )


def _demolish_check(state: dict, a: dict, data) -> None:
    _removal_check(state, a, state["active"], data)


def _demolish(state: dict, a: dict, rng: random.Random, data) -> None:
    _remove_building(state, a, state["active"], data)


def _destroy_check(state: dict, a: dict, data) -> None:
    seat, player = _me(state)
    if not _building_effects(state, seat, data, "destroy"):
        raise NotAllowed(text("necesitas el Aries para destruir", "you need the Aries to destroy"))
    if state["turn_flags"].get("destroy"):
        raise LimitReached(text("ya destruiste un edificio este turno", "you already destroyed a building this turn"))
    other = player_index(state, a["target"], "target")
    if other == seat:
        raise NotAllowed(text("para tus edificios, derriba", "to remove your own building, demolish it"))
    _removal_check(state, a, other, data)


def _destroy(state: dict, a: dict, rng: random.Random, data) -> None:
    _remove_building(state, a, player_index(state, a["target"], "target"), data)
    state["turn_flags"]["destroy"] = True


def _cheapest(state: dict, seat: int, ready: list[dict], cost: int, data) -> list[str]:
    """Ready gladiators whose construction reaches ``cost``, strongest builders first."""
    chosen, total = [], 0
    for g in sorted(ready, key=lambda g: -stat(state, seat, g, "construction", data)):
        if total >= cost:
            break
        chosen.append(g["uid"])
        total += stat(state, seat, g, "construction", data)
    return chosen

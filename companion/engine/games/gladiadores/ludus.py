"""A ludus read against the data (``cards/gladiadores``): gladiators and buildings by id or name, the
effects its buildings and gladiators carry, a gladiator's stats with their bonuses, the room for
gladiators, what may be pulled down. Setup, the turns, the moves and the live numbers all read
these, so each rule is written once."""

from __future__ import annotations

from typing import Any

from ...common import find_entry, text
from ...errors import BadArgument, NotAllowed


def _glad(data, card_id: str) -> dict:
    return data.get("gladiator", card_id)


def _building(data, name: Any) -> dict:
    return find_entry(
        data,
        "building",
        name,
        text("'building' debe ser un nombre de edificio", "'building' must be a building name"),
        text("edificio desconocido", "unknown building"),
    )


def _effects(entry: dict) -> list[dict]:
    return list(entry.get("effects") or [])


def _building_effects(state: dict, seat: int, data, kind: str) -> list[dict]:
    return [
        e for b in state["players"][seat]["buildings"] for e in _effects(data.get("building", b)) if e["kind"] == kind
    ]


def _applies(effect: dict, card: dict) -> bool:
    to = effect.get("applies_to", "all")
    return to == "all" or (to == "tiros" and card["kind"] == "tiro") or (to == "veterans" and card["kind"] == "veteran")


def stat(state: dict, seat: int, g: dict, name: str, data, when: str = "always") -> int:
    """A gladiator's stat with its owner's building bonuses and its own (``when``: attack/defence)."""
    card = _glad(data, g["card"])
    value = card[name]
    for e in _building_effects(state, seat, data, "stat_bonus"):
        if e.get("stat") == name and e.get("when", "always") in ("always", when) and _applies(e, card):
            value += e.get("amount", 0)
    for e in _effects(card):
        if e["kind"] == "stat_bonus" and e.get("stat") == name and e.get("when", "always") in ("always", when):
            value += e.get("amount", 0)
    return value


def capacity(state: dict, seat: int, data) -> int:
    """How many gladiators a player can house."""
    per = data.meta["limits"]["gladiators_per_building"]
    p = state["players"][seat]
    return per * len(p["buildings"]) + sum(e.get("amount", 0) for e in _building_effects(state, seat, data, "housing"))


def pooled_construction(state: dict, seat: int, uids: list[str], data) -> int:
    """The construction the named ready gladiators of ``seat`` add up to (what build, demolish and
    destroy may spend)."""
    glads = [g for g in state["players"][seat]["gladiators"] if g["uid"] in uids and g["ready"]]
    return sum(stat(state, seat, g, "construction", data) for g in glads)


def removable(building: dict, data) -> bool:
    """Whether a building may be demolished or destroyed (never one that gives points)."""
    return bool(building["demolishable"]) and not (
        data.meta["building_rules"]["points_block_demolish"] and building.get("points")
    )


def _new_glad(state: dict, card: str, ready: bool = True) -> dict:
    uid = f"g{state['next_uid']}"
    state["next_uid"] += 1
    return {"uid": uid, "card": card, "ready": ready}


def _me(state: dict) -> tuple[int, dict]:
    seat = state["active"]
    return seat, state["players"][seat]


def _own_glad(player: dict, uid: Any, ready: bool = True) -> dict:
    for g in player["gladiators"]:
        if g["uid"] == uid:
            if ready and not g["ready"]:
                raise NotAllowed(text(f"el gladiador {uid} está agotado", f"gladiator {uid} is exhausted"))
            return g
    raise BadArgument(
        text(f"{player['name']} no tiene el gladiador '{uid}'", f"{player['name']} has no gladiator '{uid}'")
    )

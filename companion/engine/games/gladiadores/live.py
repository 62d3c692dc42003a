"""What Gladiadores' screen shows live, worked out after every action (the screen does no rules)."""

from __future__ import annotations

from .auction import min_bid
from .ludus import _glad, capacity, removable, stat
from .turns import points


def derive(state: dict, data) -> None:
    """Numbers the table shows, worked out here so the screens do no rules: per player the score,
    room for gladiators, each gladiator's stats with bonuses, the buildings that can be pulled down;
    the building limit and the auction's lowest bid.  Whether a move is open now (chain, destroy)
    is its precondition's answer (``refusals``), never a field here."""
    state["max_buildings"] = data.meta["limits"]["max_buildings"]
    for seat, p in enumerate(state["players"]):
        p["score"] = points(state, seat, data)
        p["capacity"] = capacity(state, seat, data)
        p["glad_stats"] = {
            g["uid"]: {k: stat(state, seat, g, k, data) for k in ("combat", "work", "construction")}
            | {"fight_cost": _glad(data, g["card"])["fight_cost"]}
            for g in p["gladiators"]
        }
        p["removable"] = [b for b in p["buildings"] if removable(data.get("building", b), data)]
    auc = state.get("auction")
    if auc and auc.get("gladiator"):
        auc["min_bid"] = min_bid(state, data)

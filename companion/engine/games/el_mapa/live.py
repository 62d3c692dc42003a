"""What El Mapa's screen shows live, worked out after every action (the screen does no rules)."""

from __future__ import annotations

from .realm import _army_limit, _trade_limit, _troops, may_trade
from .turns import record


def derive(state: dict, data) -> None:
    """Numbers the table shows, worked out here so the screens do no rules: per player the bank-trade
    limit and what is left of it, the army limit, the score and battle points (the end-of-game
    scoring of the state now); per castle the turns until each troop is recruited (1 = at the start
    of the owner's next turn)."""
    from ...scoring.el_mapa import RealmEnd, breakdown  # the scoring package loads when first needed

    troops = {t["id"]: t for t in _troops(data)}
    for p, end in zip(state["players"], record(state, data)["players"]):
        lines = breakdown(RealmEnd(end["name"], tuple(end["buildings"]), end["tiles_revealed"], end["defeated"],
                                   end["resources"], end["trained_troops"]), data)
        p["score"], p["battle_points"] = sum(lines.values()), lines["battles"]
    for seat, p in enumerate(state["players"]):
        p["trade_limit"] = _trade_limit(state, seat, data)
        p["trades_left"] = max(0, p["trade_limit"] - p["trades_used"]) if may_trade(p, data) else 0
        p["army_limit"] = _army_limit(state, seat, data)
        for castle in p["castles"]:
            castle["timers_left"] = {tid: max(1, troops[tid]["recruit_every"] - n) for tid,
                                     n in castle["timers"].items()}

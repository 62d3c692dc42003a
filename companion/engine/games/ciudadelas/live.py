"""What Ciudadelas' screen shows live, worked out from the state (the screen does no rules): scores,
city colours, usable districts, the draft's next pick, the Warlord's targets."""

from __future__ import annotations

from ...common import player_index
from ...errors import NotEnough
from .city import _abilities, _district_by_id, _draft_rule, destroy_price
from .draft import face_down_choices
from .moves import MOVES
from .powers import _destroy_candidates
from .turns import record


def destroy_targets(state: dict, data) -> list[dict]:
    """Every district the active Warlord may destroy now, with its price and whether it is affordable:
    ``[{"target": name, "seat": i, "district": id, "price": n, "affordable": bool}]``; derived from
    the ``destroy`` move's precondition (what it refuses only for want of gold is listed unaffordable)."""
    if state["phase"] != "turn" or state.get("active") is None:
        return []
    char = data.get("character", state["turn"]["character"])
    out = []
    for candidate in _destroy_candidates(state, data):
        reason = MOVES["destroy"].refusal(state, {"action": "destroy", **candidate}, data)
        if reason is None or isinstance(reason, NotEnough):  # listed, disabled, when only gold is short
            other = player_index(state, candidate["target"])
            price = destroy_price(state, data, other, _district_by_id(data, candidate["district"]), char)
            out.append({**candidate, "seat": other, "price": price, "affordable": reason is None})
    return out


def _usable(district: dict) -> bool:
    return bool({"discard_for_gold", "pay_for_cards"} & set(_abilities(district)))


def derive(state: dict, data) -> None:
    """Numbers the table shows, worked out here so the screens do no rules: each player's score and
    city points (the end-of-game scoring of the state now), each city's colours, each player's
    ``usable`` districts, and whether the next draft pick also discards."""
    from ...scoring.ciudadelas import CityEnd, breakdown  # the scoring package loads when first needed

    now = record(state, data)
    for p, end in zip(state["players"], now["players"]):
        lines = breakdown(CityEnd(end["name"], tuple(end["city"]), end["gold"], frozenset(end["built_last_round"]),
                                  end["hand"], 0, tuple(end["characters"])), data, now.get("first_complete"))
        p["score"], p["city_points"] = sum(lines.values()), lines["districts"]
    for p in state["players"]:
        city = [_district_by_id(data, d) for d in p["city"]]
        p["city_colours"] = sorted({d["colour"] for d in city})
        p["usable"] = [d["id"] for d in city if _usable(d)]
    draft = state.get("draft")
    if draft is not None:
        rule = _draft_rule(data, len(state["players"]))
        draft["needs_discard"] = (state["phase"] == "choose"
                                  and draft["picks_made"] + 1 in (rule.get("discards_after_picks") or []))
        draft["face_down_choices"] = face_down_choices(state, data)

"""The ``choose`` move, the draft of a round: each player picks a character in secret, from the crown
holder to the left; some picks also discard (2 players), the last may take a face-down one (7)."""

from __future__ import annotations

import random

from ...common import log, name_of, next_seat, text
from ...errors import BadArgument, NotAllowed
from .city import _character, _characters, _draft_rule, _seat


def face_down_choices(state: dict, data) -> list[str]:
    """The face-down characters the player picking now may take instead (the draft table's
    ``last_may_take_face_down``: the last pick, 7 players); none otherwise."""
    draft = state.get("draft")
    if state["phase"] != "choose" or not draft or draft["picks_made"] + 1 != draft["picks_total"]:
        return []
    return list(draft["face_down"]) if _draft_rule(data, len(state["players"])).get("last_may_take_face_down") else []


def _needs_discard(state: dict, data) -> bool:
    rule = _draft_rule(data, len(state["players"]))
    return state["draft"]["picks_made"] + 1 in (rule.get("discards_after_picks") or [])


def _choose_check(state: dict, a: dict, data) -> None:
    draft = state["draft"]
    char = _character(data, a["character"])
    if char["id"] not in draft["available"] + face_down_choices(state, data):
        where = "boca arriba" if char["id"] in draft["face_up"] else "ya elegido o boca abajo"
        where_en = "face up" if char["id"] in draft["face_up"] else "already taken or face down"
        raise NotAllowed(text(f"{name_of(char)} no se puede elegir ({where})",
                              f"{name_of(char, 'en')} cannot be picked ({where_en})"))
    if _needs_discard(state, data):
        if a["discard"] is None:
            raise BadArgument(text("a la acción 'choose' le falta 'discard' (esta elección también descarta)",
                                   "action 'choose' needs 'discard' (this pick also discards)"))
        discard = _character(data, a["discard"])
        if discard["id"] == char["id"] or discard["id"] not in draft["available"]:
            raise NotAllowed(text(f"{name_of(discard)} no se puede descartar",
                                  f"{name_of(discard, 'en')} cannot be discarded"))


def _choose(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, _ = _seat(state)
    draft = state["draft"]
    cid = _character(data, a["character"])["id"]
    discard = _character(data, a["discard"])["id"] if _needs_discard(state, data) else None
    if cid in draft["available"]:
        draft["available"].remove(cid)
    else:
        draft["face_down"].remove(cid)
        draft["face_down"].extend(draft["available"])
        draft["available"] = []
    if discard is not None:
        draft["available"].remove(discard)
        draft["discarded_during"].append(discard)
    state["picks"][seat].append(cid)
    draft["picks_made"] += 1
    player = state["players"][seat]["name"]
    log(state, f"{player} elige personaje", f"{player} picks a character")
    if draft["picks_made"] == draft["picks_total"]:
        draft["face_down"].extend(draft["available"])
        draft["available"] = []
        state["phase"] = "call"
        state["active"] = None
    else:
        state["active"] = next_seat(state, seat)


def _choose_candidates(state: dict, data) -> list[dict]:
    name = state["players"][state["active"]]["name"]
    ids = [c["id"] for c in _characters(data)]
    if _needs_discard(state, data):
        return [{"player": name, "character": c, "discard": d} for c in ids for d in ids if d != c]
    return [{"player": name, "character": c} for c in ids]

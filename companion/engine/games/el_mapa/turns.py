"""El Mapa's turns: the hook that begins one (recruitment, scattered troops coming home,
production), the end condition, the record scoring reads, and ``end_turn``'s effect, which ends the
game or passes the turn."""

from __future__ import annotations

import random

from ...common import log, pass_turn, text
from ...definition import Outcome
from ...final import finish
from .realm import (_army_limit, _buildings_of, _log_amounts, _me, _new_army, _troops, counter_ids,
                    spell_id)
from .state import GAME


#: Why the last turn came (``state["last_turn_reason"]``), as words.
REASONS = {"maravilla": text("se construyó una maravilla", "a wonder was built"),
           "ultima_ficha": text("se reveló la última loseta", "the last tile was revealed")}


def _start_turn(state: dict, seat: int, rng: random.Random, data) -> None:
    """Recruitment timers, scattered troops coming home, then production."""
    state["active"] = seat
    state["turn"] += 1
    p = state["players"][seat]
    p["turns_played"] += 1
    p["trades_used"] = 0
    troops = {t["id"]: t for t in _troops(data)}
    recruited: dict[str, int] = {}
    per = data.meta["production"]["recruit_units_per_period"]
    for castle in p["castles"]:
        castle["built_this_turn"] = False
        factor = max((data.get("building", b).get("training_factor", 1) for b in castle["slots"].values()),
                     default=1)
        for tid in list(castle["timers"]):
            castle["timers"][tid] += 1
            if castle["timers"][tid] >= troops[tid]["recruit_every"]:
                castle["timers"][tid] = 0
                gain = per * factor
                p["reserve"][tid] += gain
                recruited[tid] = recruited.get(tid, 0) + gain
    returned: dict[str, int] = {}
    for group in [g for g in state["scattered"] if g["player"] == seat and g["returns_on"] <= p["turns_played"]]:
        state["scattered"].remove(group)
        for tid, n in group["troops"].items():
            returned[tid] = returned.get(tid, 0) + n
    if returned:
        _muster(state, seat, returned, data)
    prod = data.meta["production"]
    produced = {r: p["mines"][r] * prod["mine_output"] for r in counter_ids(data)}
    built = [data.get("building", b) for b in _buildings_of(p)]
    produced["oro"] += sum(b.get("gold_income", 0) for b in built)
    spells = sum(1 for b in built if b.get("spell_draw")) + prod["spell_mine_output"] * sum(p["spell_tiles"].values())
    for r, n in produced.items():
        p[r] += n
    p[spell_id(data)] += spells
    produced[spell_id(data)] = spells
    state["turn_start"] = {"player": seat, "recruited": recruited, "returned": returned, "produced": produced}
    for army in p["armies"]:
        army["tired"] = False
    gains = {**produced, **recruited}
    _log_amounts(state, f"Turno de {p['name']}: recibe {{}}", f"{p['name']}'s turn: receives {{}}", gains, data)


def _muster(state: dict, seat: int, troops: dict[str, int], data) -> None:
    """Scattered troops reappear at their owner's village: a new army if there is room, else the first."""
    p = state["players"][seat]
    fighting = [a for a in p["armies"] if not a.get("storehouse")]
    if len(p["armies"]) < _army_limit(state, seat, data) or not fighting:
        army = _new_army(state, seat, data)
    else:
        army = fighting[0]
    for tid, n in troops.items():
        army["troops"][tid] = army["troops"].get(tid, 0) + n
    log(state, f"Vuelven tropas dispersas de {p['name']} al ejército {army['id']}",
        f"{p['name']}'s scattered troops come back to army {army['id']}")


def record(state: dict, data) -> dict:
    """The end-of-game record the scoring reads."""
    return {"game": GAME, "players": [
        {"name": p["name"], "buildings": _buildings_of(p), "tiles_revealed": p["tiles_revealed"],
         "defeated": dict(p["defeated"]), "resources": {r: p[r] for r in counter_ids(data)},
         "trained_troops": p["trained_troops"]} for p in state["players"]]}


def end(state: dict, data) -> Outcome | None:
    """The end condition, asked when a turn closes: a wonder was built or the last tile revealed
    (``last_turn_reason``), and play has come round to the first player."""
    return Outcome(state["last_turn_reason"]) if state["last_turn_reason"] else None


def _end_turn(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, p = _me(state)
    outcome = end(state, data)
    if outcome is not None:
        finish(state, record(state, data), data, outcome)
        why = REASONS[outcome.value]
        winners = ", ".join(state["final"]["winners"])
        log(state, f"Fin de la partida ({why['es']}). Gana: {winners}", f"Game over ({why['en']}). Winner: {winners}")
        return
    _start_turn(state, pass_turn(state, seat), rng, data)

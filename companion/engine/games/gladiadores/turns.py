"""Gladiadores' turns: the start phase (the turn-start hook: stand up, start-of-turn buildings,
refills), the main phase's end, the end condition (the target's points) asked when ``end_turn``
closes a turn, and the record scoring reads."""

from __future__ import annotations

import random

from ...common import log, pass_turn, text
from ...definition import Outcome
from ...errors import NotAllowed, WrongPhase
from ...final import finish
from .ludus import _building_effects, _me, _new_glad, capacity
from .state import GAME


def points(state: dict, seat: int, data) -> int:
    """A player's score now: the end-of-game scoring of their combats won and buildings."""
    from ...scoring.gladiadores import LudusEnd, breakdown  # the scoring package loads when first needed

    now = record(state, data)["players"][seat]
    return sum(
        breakdown(
            LudusEnd(now["name"], now["combat_wins"], tuple(now["buildings"]), now["defence_wins"]), data
        ).values()
    )


def _start_turn(state: dict, seat: int, rng: random.Random, data) -> None:
    """The start phase: stand up, start-of-turn buildings, refill Tiros and buildings."""
    limits = data.meta["limits"]
    state["active"] = seat
    state["turn"] += 1
    state["phase"] = "main"
    state["chained"] = []
    state["turn_flags"] = {}
    state["auction"] = None
    p = state["players"][seat]
    for g in p["gladiators"]:
        g["ready"] = True
    for e in _building_effects(state, seat, data, "coins"):
        if e["timing"] == "start_of_turn":
            p["coins"] += e.get("amount", 0)
    for e in _building_effects(state, seat, data, "recruit_tiro"):
        if e["timing"] == "start_of_turn":
            for _ in range(e.get("amount", 1)):
                if state["centre"]["tiros"] and len(p["gladiators"]) < capacity(state, seat, data):
                    p["gladiators"].append(_new_glad(state, state["centre"]["tiros"].pop(0)))
    while len(p["gladiators"]) < limits["refill_min_gladiators"] and state["centre"]["tiros"]:
        p["gladiators"].append(_new_glad(state, state["centre"]["tiros"].pop(0)))
    while len(p["buildings"]) < limits["refill_min_buildings"]:
        spare = [
            b for b in state["centre"]["buildings"] if data.get("building", b)["starting"] and b not in p["buildings"]
        ]
        if not spare:
            break
        pick = rng.choice(spare)
        state["centre"]["buildings"].remove(pick)
        p["buildings"].append(pick)
    log(state, f"Turno de {p['name']}", f"{p['name']}'s turn")


def record(state: dict, data) -> dict:
    """The end-of-game record the scoring reads."""
    return {
        "game": GAME,
        "target": state["target"],
        "expansion": state["expansion"],
        "players": [
            {
                "name": p["name"],
                "combat_wins": p["combat_wins"],
                "defence_wins": p["defence_wins"],
                "buildings": list(p["buildings"]),
                "coins": p["coins"],
                "gladiators": len(p["gladiators"]),
            }
            for p in state["players"]
        ],
    }


def _end_main(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _me(state)
    state["phase"] = "auction"
    log(state, f"{player['name']}: subasta", f"{player['name']}: auction")


def _end_turn_check(state: dict, a: dict, data) -> None:
    seat, player = _me(state)
    if state["auction"] is not None:
        raise WrongPhase(text("la subasta no ha terminado", "the auction is not over"))
    if len(player["gladiators"]) > capacity(state, seat, data):
        raise NotAllowed(
            text("descarta antes los gladiadores que no caben", "first discard the gladiators you cannot house")
        )


def end(state: dict, data) -> Outcome | None:
    """The end condition, asked when a turn closes: its player has the target's points."""
    return Outcome.TARGET_REACHED if points(state, state["active"], data) >= state["target"] else None


def _end_turn(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _me(state)
    outcome = end(state, data)
    if outcome is not None:
        finish(state, record(state, data), data, outcome)
        log(
            state,
            f"¡{player['name']} alcanza {state['target']} puntos y gana!",
            f"{player['name']} reaches {state['target']} points and wins!",
        )
        return
    _start_turn(state, pass_turn(state, seat), rng, data)

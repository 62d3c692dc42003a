"""Ciudadelas' rounds: a round starts with the draft's discards, the crown calls the characters 1 to 8
(``call``), the called character's turn begins (the turn-start hook: its income of cards, the crown,
the thief's take, the bishop's protection) and ends (``end_turn``); after the last call the round
closes, with the end condition asked, and the game ends with the record scoring reads."""

from __future__ import annotations

import random
from typing import Any

from ...caller import next_call
from ...common import log, name_of, text
from ...definition import Outcome
from ...errors import WrongPhase
from ...final import finish
from .city import _characters, _draft_rule, _meta, _seat
from .state import GAME


def _start_round(state: dict, rng: random.Random, data) -> None:
    """Shuffle the characters and make the discards for the player count; the crown picks first."""
    n = len(state["players"])
    rule = _draft_rule(data, n)
    king_safe = _meta(data)["character_draft"].get("king_never_face_up", True)
    deck = [c["id"] for c in _characters(data)]
    rng.shuffle(deck)
    face_down = deck[: rule["face_down_before"]]
    rest = deck[rule["face_down_before"]:]
    face_up: list[str] = []
    for cid in list(rest):
        if len(face_up) == rule["face_up"]:
            break
        if king_safe and "take_crown" in (data.get("character", cid).get("powers") or []):
            continue
        face_up.append(cid)
        rest.remove(cid)
    state["round"] += 1
    state["phase"] = "choose"
    state["active"] = state["crown"]
    state["draft"] = {"face_up": face_up, "face_down": face_down, "available": sorted(
        rest, key=lambda c: data.get("character", c)["number"]), "picks_made": 0,
        "picks_total": n * rule["characters_each"], "discarded_during": []}
    state["picks"] = [[] for _ in range(n)]
    state["called"] = 0
    state["calling"] = None
    state["murdered"] = None
    state["robbed"] = None
    state["robbed_by"] = None
    state["protected"] = None
    state["turn"] = None
    state["pending_reclaim"] = None
    for p in state["players"]:
        p["characters"] = []
    up = ", ".join(name_of(data.get("character", c)) for c in face_up) or "ninguno"
    up_en = ", ".join(name_of(data.get("character", c), "en") for c in face_up) or "none"
    log(state, f"Ronda {state['round']}: boca arriba {up}; {len(face_down)} boca abajo",
        f"Round {state['round']}: face up {up_en}; {len(face_down)} face down")


def _end_round(state: dict, rng: random.Random, data) -> None:
    """Late crown for a murdered King; the end of the game after the last round; else a new round."""
    if state["murdered"]:
        victim = data.get("character", state["murdered"])
        owner = _owner(state, state["murdered"])
        if owner is not None and "take_crown" in (victim.get("powers") or []) \
                and victim.get("crown_if_murdered") == "end_of_round":
            _give_crown(state, owner)
    outcome = end(state, data)
    if outcome is not None:
        _finish(state, data, outcome)
        return
    _start_round(state, rng, data)


def end(state: dict, data) -> Outcome | None:
    """The end condition, asked when a round closes: a city was completed this round."""
    return Outcome.CITY_COMPLETE if state["last_round"] else None


def _give_crown(state: dict, seat: int) -> None:
    state["crown"] = seat
    name = state["players"][seat]["name"]
    log(state, f"{name} toma la corona", f"{name} takes the crown")


def _owner(state: dict, character_id: str) -> int | None:
    for seat, picks in enumerate(state["picks"]):
        if character_id in picks:
            return seat
    return None


def record(state: dict, data) -> dict:
    """The end-of-game record the scoring reads (see ``ludoteca score``)."""
    rnd = state["round"]
    out: dict[str, Any] = {"game": GAME, "dark_city": state["options"]["dark_city"], "players": [
        {"name": p["name"], "gold": p["gold"], "hand": p["hand"], "city": list(p["city"]),
         "built_last_round": [d for d in p["city"] if p["built_round"].get(d) == rnd],
         "characters": list(p["characters"])}
        for i, p in enumerate(state["players"])]}
    if state["first_complete"] is not None:
        out["first_complete"] = state["players"][state["first_complete"]]["name"]
    return out


def _finish(state: dict, data, outcome: Outcome) -> None:
    finish(state, record(state, data), data, outcome)
    winners = ", ".join(state["final"]["winners"])
    log(state, f"Fin de la partida. Gana: {winners}", f"Game over. Winner: {winners}")


def _call(state: dict, a: dict, rng: random.Random, data) -> None:
    call = next_call(state, data)
    if call is None:
        raise WrongPhase(text("ya se han llamado todos los personajes", "every character has been called"))
    number, cid, owner, murdered = call["number"], call["character"], call["owner"], call["murdered"]
    char = data.get("character", cid)
    state["called"] = number
    state["calling"] = {"number": number, "character": cid, "answered": call["answered"]}
    state["last_call"] = state["calling"]
    if owner is None or murdered:
        if murdered and owner is not None and "protect_city" in (char.get("powers") or []) \
                and char.get("protects_if_murdered"):
            state["protected"] = owner
        log(state, f"{number}. {name_of(char)}: nadie responde", f"{number}. {name_of(char, 'en')}: no answer")
        if number == len(_characters(data)):
            _end_round(state, rng, data)
        return
    _start_turn(state, owner, rng, data)


def _start_turn(state: dict, seat: int, rng: random.Random, data) -> None:
    """The called character's turn begins for ``seat``: its income of cards, the crown, the thief's
    take, the bishop's protection."""
    number, cid = state["calling"]["number"], state["calling"]["character"]
    char = data.get("character", cid)
    owner = seat
    player = state["players"][owner]
    player["characters"].append(cid)
    state["phase"] = "turn"
    state["active"] = owner
    max_builds = char.get("max_builds")
    state["turn"] = {"character": cid, "resource": False, "income": False, "builds": 0,
                     "max_builds": _meta(data)["builds_per_turn"] if max_builds is None else max_builds,
                     "power_used": False, "districts_used": []}
    log(state, f"{number}. {name_of(char)}: {player['name']}", f"{number}. {name_of(char, 'en')}: {player['name']}")
    if state["robbed"] == cid:
        thief = _owner(state, state["robbed_by"])
        if thief is not None and thief != owner:
            amount = player["gold"]
            player["gold"] = 0
            state["players"][thief]["gold"] += amount
            log(state, f"{state['players'][thief]['name']} roba {amount} de oro a {player['name']}",
                f"{state['players'][thief]['name']} steals {amount} gold from {player['name']}")
    powers = char.get("powers") or []
    if "take_crown" in powers:
        _give_crown(state, owner)
    if "protect_city" in powers:
        state["protected"] = owner
    if char.get("extra_cards"):
        player["hand"] += char["extra_cards"]
        log(state, f"{player['name']} roba {char['extra_cards']} cartas más",
            f"{player['name']} draws {char['extra_cards']} more cards")


def _end_turn(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    state["phase"] = "call"
    state["active"] = None
    state["turn"] = None
    log(state, f"{player['name']} termina su turno", f"{player['name']} ends their turn")
    if state["called"] == len(_characters(data)):
        _end_round(state, rng, data)

"""The characters' powers, one move each (murder, steal, exchange hands, discard and draw, destroy),
open only to the character whose power it is, once a turn; and the Graveyard's ``reclaim`` of a
district just destroyed, which passes with the next action."""

from __future__ import annotations

import random

from ...common import Move, Text, log, name_of, need, player_index, text
from ...errors import BadArgument, LimitReached, NotAllowed, NotEnough, NotYourTurn, WrongPhase
from .city import _abilities, _character, city_complete, _characters, _city_has, _district, _seat, destroy_price


#: Each character move and the power (a character's ``powers`` in the data) that allows it.
POWER_MOVES = {"murder": "murder", "steal": "steal_gold", "exchange_hand": "exchange_hand",
               "discard_and_draw": "discard_and_draw", "destroy": "destroy_district"}


def character_moves(state: dict, data) -> list[str]:
    """The moves the power of the character whose turn it is allows (used or not), in ``POWER_MOVES``
    order: the power buttons a screen shows, each asking the move's precondition whether it is open."""
    if state.get("phase") != "turn" or not state.get("turn"):
        return []
    powers = data.get("character", state["turn"]["character"]).get("powers") or []
    return [move for move, power in POWER_MOVES.items() if power in powers]


def _power(state: dict, data, move: str) -> dict:
    power = POWER_MOVES[move]
    turn = state["turn"]
    char = data.get("character", turn["character"])
    if power not in (char.get("powers") or []):
        raise NotAllowed(text(f"{name_of(char)} no puede hacer eso", f"{name_of(char, 'en')} cannot do that"))
    if turn["power_used"]:
        raise LimitReached(text("ya usaste la habilidad de tu personaje", "you already used your character's ability"))
    return char


def _target_character(state: dict, a: dict, data, char: dict) -> dict:
    target = _character(data, a["character"])
    banned = set(char.get("cannot_target") or []) | {char["id"]}
    if char.get("cannot_target_murdered") and state["murdered"]:
        banned.add(state["murdered"])
    if target["id"] in banned:
        raise NotAllowed(text(f"{name_of(char)} no puede elegir a {name_of(target)}",
                              f"{name_of(char, 'en')} cannot name {name_of(target, 'en')}"))
    if target["number"] <= char["number"]:
        raise NotAllowed(text(f"{name_of(target)} ya ha jugado esta ronda",
                              f"{name_of(target, 'en')} has already played"))
    return target


def _other_player(state: dict, a: dict, refusal: Text) -> int:
    """The seat the action's ``target`` names, which must not be the active player's (else ``refusal``)."""
    other = player_index(state, a["target"], "target")
    if other == state["active"]:
        raise NotAllowed(refusal)
    return other


def _murder_check(state: dict, a: dict, data) -> None:
    _target_character(state, a, data, _power(state, data, "murder"))


def _murder(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    target = _character(data, a["character"])
    state["murdered"] = target["id"]
    state["turn"]["power_used"] = True
    log(state, f"{player['name']} asesina a {name_of(target)}", f"{player['name']} murders the {name_of(target, 'en')}")


def _steal_check(state: dict, a: dict, data) -> None:
    _target_character(state, a, data, _power(state, data, "steal"))


def _steal(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    target = _character(data, a["character"])
    state["robbed"] = target["id"]
    state["robbed_by"] = state["turn"]["character"]
    state["turn"]["power_used"] = True
    log(state, f"{player['name']} roba a {name_of(target)}", f"{player['name']} robs the {name_of(target, 'en')}")


def _character_candidates(state: dict, data) -> list[dict]:
    return [{"character": c["id"]} for c in _characters(data)]


def _exchange_check(state: dict, a: dict, data) -> None:
    _power(state, data, "exchange_hand")
    _other_player(state, a, text("elige a otro jugador", "pick another player"))


def _exchange_hand(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    them = state["players"][player_index(state, a["target"], "target")]
    player["hand"], them["hand"] = them["hand"], player["hand"]
    state["turn"]["power_used"] = True
    log(state, f"{player['name']} cambia su mano con {them['name']}",
        f"{player['name']} swaps hands with {them['name']}")


def _player_candidates(state: dict, data) -> list[dict]:
    return [{"target": p["name"]} for p in state["players"]]


def _discard_check(state: dict, a: dict, data) -> None:
    _power(state, data, "discard_and_draw")
    seat, player = _seat(state)
    if player["hand"] < 1:
        raise NotEnough(text(f"{player['name']} no tiene cartas en la mano", f"{player['name']} has no cards in hand"))
    if a["count"] > player["hand"]:
        raise NotEnough(text(f"{player['name']} solo tiene {player['hand']} cartas",
                             f"{player['name']} only has {player['hand']} cards"))


def _discard_and_draw(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    state["turn"]["power_used"] = True
    log(state, f"{player['name']} cambia {a['count']} cartas", f"{player['name']} exchanges {a['count']} cards")


def _count_candidates(state: dict, data) -> list[dict]:
    """Every count up to the hand (one card, refused, when the hand is empty: a screen says why)."""
    return [{"count": k} for k in range(1, max(1, state["players"][state["active"]]["hand"]) + 1)]


def _destroy_check(state: dict, a: dict, data) -> None:
    char = _power(state, data, "destroy")
    seat, player = _seat(state)
    other = _other_player(state, a, text("el Condotiero destruye distritos de otra ciudad, no de la suya",
                                         "the Warlord destroys districts in another city, not his own"))
    victim = state["players"][other]
    district = _district(state, data, a["district"])
    if district["id"] not in victim["city"]:
        raise BadArgument(text(f"{victim['name']} no tiene {name_of(district)}",
                               f"{victim['name']} has no {name_of(district, 'en')}"))
    if state["protected"] == other:
        raise NotAllowed(text(f"el Obispo protege la ciudad de {victim['name']}",
                              f"the Bishop protects {victim['name']}'s city"))
    if char.get("spares_complete_cities") and city_complete(data, victim["city"]):
        raise NotAllowed(text(f"la ciudad de {victim['name']} está completa", f"{victim['name']}'s city is complete"))
    if "indestructible" in _abilities(district):
        raise NotAllowed(text(f"{name_of(district)} no se puede destruir",
                              f"{name_of(district, 'en')} cannot be destroyed"))
    need(player, "gold", destroy_price(state, data, other, district, char), "oro", "gold")


def _destroy(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    char = data.get("character", state["turn"]["character"])
    other = player_index(state, a["target"], "target")
    victim = state["players"][other]
    district = _district(state, data, a["district"])
    price = destroy_price(state, data, other, district, char)
    player["gold"] -= price
    victim["city"].remove(district["id"])
    victim["built_round"].pop(district["id"], None)
    state["turn"]["power_used"] = True
    log(state, f"{player['name']} destruye {name_of(district)} de {victim['name']} por {price}",
        f"{player['name']} destroys {victim['name']}'s {name_of(district, 'en')} for {price}")
    yard = _city_has(state, data, other, "reclaim_destroyed")
    if yard:
        state["pending_reclaim"] = {"player": other, "district": district["id"],
                                    "pay": yard["params"].get("pay", 1)}


def _destroy_candidates(state: dict, data) -> list[dict]:
    """Every district of the other cities (the Warlord's own are no target, so they tell no reason)."""
    return [{"target": p["name"], "district": did} for seat, p in enumerate(state["players"])
            if seat != state["active"] for did in dict.fromkeys(p["city"])]


def _reclaim_check(state: dict, a: dict, data) -> None:
    pending = state.get("pending_reclaim")
    if not pending:
        raise WrongPhase(text("no hay ningún distrito recién destruido que recuperar",
                              "no district was just destroyed"))
    who = player_index(state, a["player"])
    if who != pending["player"]:
        raise NotYourTurn(text("solo el dueño del Cementerio puede recuperarlo",
                               "only the Graveyard's owner may reclaim it"))
    need(state["players"][who], "gold", pending["pay"], "oro", "gold")


def _reclaim(state: dict, a: dict, rng: random.Random, data) -> None:
    pending = state["pending_reclaim"]
    player = state["players"][pending["player"]]
    player["gold"] -= pending["pay"]
    player["hand"] += 1
    state["pending_reclaim"] = None
    log(state, f"{player['name']} recupera el distrito en su mano",
        f"{player['name']} takes the district into their hand")


def _reclaim_candidates(state: dict, data) -> list[dict]:
    return [{"player": p["name"]} for p in state["players"]] if state.get("pending_reclaim") else []


def _graveyard_passes(state: dict, move: Move) -> None:
    """The Graveyard's chance passes with the next action (other than reclaiming or a correction)."""
    if move.name not in ("reclaim", "adjust"):
        state["pending_reclaim"] = None

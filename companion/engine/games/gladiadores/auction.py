"""The auction phase's moves: discard the gladiators without room, or reveal veterans, pick one and
take bids from the left of the active player round to them last (``bid``, ``pass``)."""

from __future__ import annotations

import random

from ...common import log, name_of, next_seat, player_index, text
from ...errors import BadArgument, NotAllowed, NotEnough, NotYourTurn, WrongPhase
from .ludus import _building_effects, _effects, _glad, _me, _new_glad, _own_glad, capacity


def _opening_check(state: dict) -> None:
    if state["auction"] is not None:
        raise WrongPhase(
            text("eso se hace al empezar la fase de subasta", "that belongs to the start of the auction phase")
        )


def _discard_check(state: dict, a: dict, data) -> None:
    _opening_check(state)
    seat, player = _me(state)
    if len(player["gladiators"]) <= capacity(state, seat, data):
        raise NotAllowed(text("tienes sitio para todos tus gladiadores", "you have room for all your gladiators"))
    _own_glad(player, a["gladiator"], ready=False)


def _discard_gladiator(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _me(state)
    g = _own_glad(player, a["gladiator"], ready=False)
    player["gladiators"].remove(g)
    kind = _glad(data, g["card"])["kind"]
    (state["centre"]["tiros"] if kind == "tiro" else state["centre"]["veteran_discard"]).append(g["card"])
    log(state, f"{player['name']} descarta un gladiador", f"{player['name']} discards a gladiator")


def _start_auction_check(state: dict, a: dict, data) -> None:
    _opening_check(state)
    seat, player = _me(state)
    if len(player["gladiators"]) >= capacity(state, seat, data):
        raise NotAllowed(text("no tienes sitio para otro gladiador", "you have no room for another gladiator"))
    if not state["centre"]["veterans"] and not state["centre"]["veteran_discard"]:
        raise NotAllowed(text("no quedan veteranos", "no veterans are left"))


def _start_auction(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _me(state)
    count = data.meta["auction"]["reveal"] + sum(
        e.get("amount", 0) for e in _building_effects(state, seat, data, "auction_reveal")
    )
    centre = state["centre"]
    shown = []
    for _ in range(count):
        if not centre["veterans"]:
            centre["veterans"], centre["veteran_discard"] = centre["veteran_discard"], []
            rng.shuffle(centre["veterans"])
        if not centre["veterans"]:
            break
        shown.append(centre["veterans"].pop(0))
    state["auction"] = {"shown": shown, "gladiator": None, "order": [], "next": 0, "high": None, "bids": []}
    log(state, f"Se revelan {len(shown)} veteranos", f"{len(shown)} veterans are revealed")


def _picked(state: dict, a: dict, data) -> str:
    auc = state["auction"]
    if not auc or auc["gladiator"] is not None:
        raise WrongPhase(text("no hay veteranos por elegir", "there are no veterans to pick from"))
    try:
        card = data.find("gladiator", a["gladiator"])["id"]
    except LookupError as exc:
        raise BadArgument(text(f"gladiador desconocido: {exc}", f"unknown gladiator: {exc}")) from None
    if card not in auc["shown"]:
        raise NotAllowed(
            text(f"{a['gladiator']} no está entre los revelados", f"{a['gladiator']} is not among the revealed")
        )
    return card


def _pick_check(state: dict, a: dict, data) -> None:
    _picked(state, a, data)


def _pick(state: dict, a: dict, rng: random.Random, data) -> None:
    seat = state["active"]
    auc = state["auction"]
    card = _picked(state, a, data)
    auc["shown"].remove(card)
    state["centre"]["veteran_discard"].extend(auc["shown"])
    auc["shown"] = []
    auc["gladiator"] = card
    n = len(state["players"])
    order = [next_seat(state, seat, k) for k in range(1, n)] + [seat]
    if data.meta["auction"]["bidders_need_room"]:
        order = [s for s in order if len(state["players"][s]["gladiators"]) < capacity(state, s, data)]
    auc["order"] = order
    log(state, f"Se subasta {name_of(_glad(data, card))}", f"{name_of(_glad(data, card), 'en')} is up for auction")


def _pick_candidates(state: dict, data) -> list[dict]:
    auc = state["auction"]
    return [{"gladiator": c} for c in dict.fromkeys(auc["shown"])] if auc else []


def _bidder(state: dict, a: dict) -> tuple[int, dict]:
    """The seat whose bid it is now, which the action's ``player`` (when given) must name."""
    auc = state["auction"]
    if not auc or auc["gladiator"] is None:
        raise WrongPhase(text("no hay ninguna puja abierta", "no bidding is open"))
    seat = auc["order"][auc["next"]]
    if a["player"] is not None and player_index(state, a["player"]) != seat:
        raise NotYourTurn(
            text(f"puja ahora {state['players'][seat]['name']}", f"{state['players'][seat]['name']} bids now")
        )
    return seat, auc


def min_bid(state: dict, data) -> int:
    """The lowest bid the auction takes now: the veteran's minimum, or the high bid to equal."""
    auc = state["auction"]
    minimum = _glad(data, auc["gladiator"]).get("min_bid", 0) or 0
    return max(minimum, auc["high"]["amount"]) if auc["high"] is not None else minimum


def _bid_check(state: dict, a: dict, data) -> None:
    seat, auc = _bidder(state, a)
    player = state["players"][seat]
    minimum = min_bid(state, data)
    if a["amount"] < minimum:
        raise NotEnough(text(f"la puja mínima es {minimum}", f"the minimum bid is {minimum}"))
    if a["amount"] > player["coins"]:
        raise NotEnough(
            text(f"{player['name']} tiene {player['coins']} monedas", f"{player['name']} has {player['coins']} coins")
        )


def _bid(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, auc = _bidder(state, a)
    amount = a["amount"]
    player = state["players"][seat]
    high = auc["high"]
    if high is None or amount > high["amount"] or _wins_tie(state, seat, high["player"], data):
        auc["high"] = {"player": seat, "amount": amount}
    auc["bids"].append({"player": seat, "amount": amount})
    log(state, f"{player['name']} puja {amount}", f"{player['name']} bids {amount}")
    _next_bidder(state, rng, data)


def _bid_candidates(state: dict, data) -> list[dict]:
    auc = state["auction"]
    if not auc or auc["gladiator"] is None:
        return []
    return [{"player": state["players"][auc["order"][auc["next"]]]["name"], "amount": min_bid(state, data)}]


def _wins_tie(state: dict, seat: int, holder: int, data) -> bool:
    """On an equal bid: the later bidder wins unless the holder has the Atrium and the bidder not."""
    own = bool(_building_effects(state, seat, data, "auction_tie"))
    theirs = bool(_building_effects(state, holder, data, "auction_tie"))
    if own != theirs:
        return own
    return data.meta["auction"]["tie"] == "last_bidder"


def _pass_check(state: dict, a: dict, data) -> None:
    _bidder(state, a)


def _pass(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, auc = _bidder(state, a)
    log(state, f"{state['players'][seat]['name']} pasa", f"{state['players'][seat]['name']} passes")
    _next_bidder(state, rng, data)


def _pass_candidates(state: dict, data) -> list[dict]:
    auc = state["auction"]
    if not auc or auc["gladiator"] is None:
        return []
    return [{"player": state["players"][auc["order"][auc["next"]]]["name"]}]


def _next_bidder(state: dict, rng: random.Random, data) -> None:
    auc = state["auction"]
    auc["next"] += 1
    if auc["next"] < len(auc["order"]):
        return
    card = auc["gladiator"]
    if auc["high"] is None:
        state["centre"]["veteran_discard"].append(card)
        log(state, "Nadie puja", "Nobody bids")
    else:
        seat, amount = auc["high"]["player"], auc["high"]["amount"]
        winner = state["players"][seat]
        discount = sum(e.get("amount", 0) for e in _building_effects(state, seat, data, "auction_discount"))
        discount += sum(
            e.get("amount", 0)
            for g in winner["gladiators"]
            for e in _effects(_glad(data, g["card"]))
            if e["kind"] == "auction_discount"
        )
        pay = max(0, amount - discount)
        winner["coins"] -= pay
        winner["gladiators"].append(_new_glad(state, card, data.meta["auction"]["arrives"] == "ready"))
        log(
            state, f"{winner['name']} gana la subasta y paga {pay}", f"{winner['name']} wins the auction and pays {pay}"
        )
    state["auction"] = None
    state["phase"] = "end"

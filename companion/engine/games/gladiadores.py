"""Gladiadores (Ludi Gladiatorii): each turn is start, main phase, auction and end.

Start (applied by the engine when a turn begins): stand every gladiator up, start-of-turn buildings
(coins, a free Tiro), refill to ``limits.refill_min_gladiators`` Tiros and ``refill_min_buildings``
starting buildings.  Main: each ready gladiator acts once (fight, work; build/demolish/destroy pool
several; chain with the Officina).  Auction: discard down to the room you have, or, with room to
spare, reveal veterans, pick one and take bids from the left of the active player round to the
active player last.  End: reaching the target points wins.  Every number is in ``cards/gladiadores``.

Gladiators are card instances with a ``uid`` (``"g7"``) since Tiros come in copies.  A fight's
combat card is the one the table reveals (``card``) or, when not given, the top of the engine's
seeded combat deck.
"""

from __future__ import annotations

import random
from typing import Any

from ..common import (arg, declare_active_player, dispatch, find_entry, log, name_of, next_seat, pass_turn, player_index, require_active, spend,
                      text)
from ..errors import (BadArgument, Duplicate, GameOver, LimitReached, NotAllowed, NotEnough,
                      NotYourTurn, WrongPhase)
from ..final import finish

GAME = "gladiadores"
RESOURCES = {"coins": text("monedas", "coins"), "points": text("puntos de combate", "combat points")}

ACTIONS: dict[str, dict[str, Any]] = {
    "adjust": {"args": {"player": "name", "resource": "coins|points|a building", "delta": "int (+1/-1 for a building)"},
               "help": text("Corrige a mano un recurso de un jugador, o qué edificios tiene (+1 lo toma del centro "
                            "o de otro jugador, -1 lo devuelve al centro).",
                            "Correct a player's resource by hand, or which buildings they own (+1 takes it from "
                            "the centre or another player, -1 returns it to the centre).")},
    "undo": {"args": {}, "help": text("Deshace la última acción.", "Undo the last action.")},
    "redo": {"args": {}, "help": text("Rehace la acción deshecha.", "Redo the undone action.")},
    "fight": {"args": {"gladiator": "uid", "target": "name", "defender": "uid (the defender's choice)",
                       "card": "combat card id (optional: else the engine draws)", "redraw": "bool (optional)"},
              "help": text("Combate: paga y desafía a un rival.", "Fight: pay and challenge a rival.")},
    "work": {"args": {"gladiator": "uid"}, "help": text("Trabaja: gana monedas.", "Work: earn coins.")},
    "build": {"args": {"building": "building", "gladiators": "[uid, ...]"},
              "help": text("Construye un edificio del centro.", "Build a building from the centre.")},
    "demolish": {"args": {"building": "building", "gladiators": "[uid, ...]"},
                 "help": text("Derriba uno de tus edificios.", "Demolish one of your buildings.")},
    "destroy": {"args": {"target": "name", "building": "building", "gladiators": "[uid, ...]"},
                "help": text("Destruye un edificio rival (Aries).", "Destroy a rival's building (Aries).")},
    "chain": {"args": {"gladiator": "uid", "target": "name", "targets": "[uid, ...]"},
              "help": text("Encadena gladiadores rivales (Officina).", "Chain rival gladiators (Officina).")},
    "end_main": {"args": {}, "help": text("Termina la fase principal.", "End the main phase.")},
    "discard_gladiator": {"args": {"gladiator": "uid"},
                          "help": text("Descarta un gladiador que no cabe.", "Discard a gladiator you cannot house.")},
    "start_auction": {"args": {}, "help": text("Revela veteranos para subastar.", "Reveal veterans to auction.")},
    "pick": {"args": {"gladiator": "veteran id"},
             "help": text("Elige el veterano que se subasta.", "Pick the veteran to auction.")},
    "bid": {"args": {"player": "name", "amount": "int"},
            "help": text("Puja en la subasta.", "Bid in the auction.")},
    "pass": {"args": {"player": "name"}, "help": text("No pujes.", "Do not bid.")},
    "end_turn": {"args": {}, "help": text("Termina el turno.", "End the turn.")},
}
declare_active_player(ACTIONS, ("fight", "work", "build", "demolish", "destroy", "chain", "end_main",
                                "discard_gladiator", "start_auction", "pick", "end_turn"))


# -- data ----------------------------------------------------------------------------------------

def _glad(data, card_id: str) -> dict:
    return data.get("gladiator", card_id)


def _building(data, name: Any) -> dict:
    return find_entry(data, "building", name,
                      text("'building' debe ser un nombre de edificio", "'building' must be a building name"),
                      text("edificio desconocido", "unknown building"))


def _effects(entry: dict) -> list[dict]:
    return list(entry.get("effects") or [])


def _building_effects(state: dict, seat: int, data, kind: str) -> list[dict]:
    return [e for b in state["players"][seat]["buildings"] for e in _effects(data.get("building", b))
            if e["kind"] == kind]


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


def points(state: dict, seat: int, data) -> int:
    """A player's points: combat wins plus the points of their buildings."""
    p = state["players"][seat]
    return p["points"] + sum(data.get("building", b).get("points", 0) for b in p["buildings"])


def pooled_construction(state: dict, seat: int, uids: list[str], data) -> int:
    """The construction the named ready gladiators of ``seat`` add up to (what build, demolish and
    destroy may spend)."""
    glads = [g for g in state["players"][seat]["gladiators"] if g["uid"] in uids and g["ready"]]
    return sum(stat(state, seat, g, "construction", data) for g in glads)


def removable(building: dict, data) -> bool:
    """Whether a building may be demolished or destroyed (never one that gives points)."""
    return bool(building["demolishable"]) and not (
        data.meta["building_rules"]["points_block_demolish"] and building.get("points"))


def derive(state: dict, data) -> None:
    """Numbers the table shows, worked out here so the screens do no rules: per player the score,
    room for gladiators, each gladiator's stats with bonuses, the buildings that can be pulled down;
    for the active player which gladiators may chain and whether the Aries may destroy; the
    building limit and the auction's lowest bid."""
    state["max_buildings"] = data.meta["limits"]["max_buildings"]
    active = state.get("active")
    for seat, p in enumerate(state["players"]):
        p["score"] = points(state, seat, data)
        p["capacity"] = capacity(state, seat, data)
        p["glad_stats"] = {g["uid"]: {k: stat(state, seat, g, k, data) for k in ("combat", "work", "construction")}
                           | {"fight_cost": _glad(data, g["card"])["fight_cost"]} for g in p["gladiators"]}
        p["removable"] = [b for b in p["buildings"] if removable(data.get("building", b), data)]
        mine = seat == active and state["phase"] == "main" and not state.get("finished")
        chain_ok = mine and state["turn_flags"].get("chain", 0) < data.meta["chain"]["per_turn"]
        officina = bool(_building_effects(state, seat, data, "chain"))
        p["may_chain"] = [g["uid"] for g in p["gladiators"] if chain_ok and g["ready"] and (
            officina or any(e["kind"] == "chain" for e in _effects(_glad(data, g["card"]))))]
        p["may_destroy"] = bool(mine and _building_effects(state, seat, data, "destroy")
                                and not state["turn_flags"].get("destroy"))
    auc = state.get("auction")
    if auc and auc.get("gladiator"):
        auc["min_bid"] = max(_glad(data, auc["gladiator"]).get("min_bid", 0) or 0,
                             auc["high"]["amount"] if auc["high"] else 0)


# -- setup and turns -----------------------------------------------------------------------------

def setup(players: list[str], options: dict, rng: random.Random, data) -> dict:
    """Deal buildings (the Casula's holder starts), Tiros and coins; shuffle veterans and combat cards."""
    meta = data.meta
    unknown = set(options) - {"target", "quick", "expansion"}
    if unknown:
        raise BadArgument(text(f"opciones desconocidas: {', '.join(sorted(unknown))}",
                               f"unknown options: {', '.join(sorted(unknown))}"))
    top = meta["players"]["expansion_max"] if options.get("expansion") else meta["players"]["max"]
    if not meta["players"]["min"] <= len(players) <= top:
        raise BadArgument(text(f"Gladiadores se juega con {meta['players']['min']} a {top} jugadores, no {len(players)}",
                               f"Gladiadores takes {meta['players']['min']} to {top} players, not {len(players)}"))
    target = options.get("target") or meta["target_points"]["quick_start" if options.get("quick") else "standard"]
    if not isinstance(target, int) or isinstance(target, bool) or target < 1:
        raise BadArgument(text("el objetivo debe ser un número de puntos", "target must be a number of points"))
    row = next(r for r in meta["player_counts"] if r["players"] == len(players))
    pool = [b for b in data.entries("building") if b["symbol"] in row["symbols"] for _ in range(b.get("copies", 1))]
    first_id = meta["setup"]["first_player_building"]
    starting = [b["id"] for b in pool if b["starting"] and b["id"] != first_id]
    rng.shuffle(starting)
    dealt = [first_id] + starting[: row["starting_buildings"] - 1]
    rng.shuffle(dealt)
    per = meta["setup"]["buildings_per_player"]
    tiros = [g["id"] for g in data.entries("gladiator") if g["kind"] == "tiro" for _ in range(g.get("copies", 1))]
    rng.shuffle(tiros)
    veterans = [g["id"] for g in data.entries("gladiator") if g["kind"] == "veteran" for _ in range(g.get("copies", 1))]
    rng.shuffle(veterans)
    combat = [c["id"] for c in data.entries("combat_card") for _ in range(c.get("copies", 1))]
    rng.shuffle(combat)
    state: dict[str, Any] = {
        "game": GAME, "target": target, "expansion": bool(options.get("expansion")),
        "players": [], "next_uid": 1, "phase": "start", "active": None, "turn": 0, "round": 1,
        "finished": False, "final": None, "log": [],
        "centre": {"tiros": [], "buildings": [], "veterans": veterans, "veteran_discard": [],
                   "combat": combat, "combat_discard": []},
        "auction": None, "chained": [], "turn_flags": {},
    }
    for i, name in enumerate(players):
        state["players"].append({"name": name, "coins": meta["setup"]["starting_coins"], "points": 0,
                                 "buildings": dealt[i * per:(i + 1) * per], "gladiators": []})
    for p in state["players"]:
        for _ in range(meta["setup"]["starting_tiros"]):
            p["gladiators"].append(_new_glad(state, tiros.pop()))
    state["centre"]["tiros"] = sorted(tiros)
    leftover = dealt[len(players) * per:] + starting[row["starting_buildings"] - 1:]
    state["centre"]["buildings"] = sorted(leftover + [b["id"] for b in pool if not b["starting"]])
    first = next(i for i, p in enumerate(state["players"]) if first_id in p["buildings"])
    state["first_player"] = first
    _start_turn(state, first, rng, data)
    return state


def _new_glad(state: dict, card: str, ready: bool = True) -> dict:
    uid = f"g{state['next_uid']}"
    state["next_uid"] += 1
    return {"uid": uid, "card": card, "ready": ready}


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
        spare = [b for b in state["centre"]["buildings"]
                 if data.get("building", b)["starting"] and b not in p["buildings"]]
        if not spare:
            break
        pick = rng.choice(spare)
        state["centre"]["buildings"].remove(pick)
        p["buildings"].append(pick)
    log(state, f"Turno de {p['name']}", f"{p['name']}'s turn")


def record(state: dict) -> dict:
    """The end-of-game record the scoring reads."""
    return {"game": GAME, "target": state["target"], "expansion": state["expansion"], "players": [
        {"name": p["name"], "combat_wins": p["points"], "buildings": list(p["buildings"]),
         "coins": p["coins"], "gladiators": len(p["gladiators"])} for p in state["players"]]}


# -- actions -------------------------------------------------------------------------------------

def apply(state: dict, action: dict, rng: random.Random, data) -> dict:
    """Apply one action (see ``ACTIONS``); raise ``IllegalAction`` before changing anything."""
    if action["action"] == "adjust" and isinstance(action.get("resource"), str) \
            and action["resource"].strip().casefold() not in {k for k in RESOURCES} | {
                n.casefold() for t in RESOURCES.values() for n in t.values()}:
        _adjust_building(state, action, data)
        return state
    return dispatch(state, action, rng, data, _HANDLERS, RESOURCES)


def _adjust_building(state: dict, action: dict, data) -> None:
    """The table is the truth: give a player a building (from the centre or from whoever has it) or
    send one of theirs back to the centre."""
    if state.get("finished"):
        raise GameOver(text("la partida ha terminado", "the game is over"))
    seat = player_index(state, action.get("player"))
    player = state["players"][seat]
    try:
        building = data.find("building", action["resource"])
    except LookupError as exc:
        raise BadArgument(text(f"recurso desconocido: se puede ajustar coins, points o un edificio ({exc})",
                               f"unknown resource: adjust coins, points or a building ({exc})")) from None
    delta = arg(action, "delta", int)
    bid = building["id"]
    if delta == 1:
        if bid in player["buildings"]:
            raise Duplicate(text(f"{player['name']} ya tiene {name_of(building)}",
                                 f"{player['name']} already has {name_of(building, 'en')}"))
        owner = next((p for p in state["players"] if bid in p["buildings"]), None)
        if owner is not None:
            owner["buildings"].remove(bid)
        elif bid in state["centre"]["buildings"]:
            state["centre"]["buildings"].remove(bid)
        else:
            raise NotAllowed(text(f"{name_of(building)} no está en juego", f"{name_of(building, 'en')} is not in play"))
        player["buildings"].append(bid)
        es, en = f"recibe {name_of(building)}", f"gets {name_of(building, 'en')}"
    elif delta == -1:
        if bid not in player["buildings"]:
            raise BadArgument(text(f"{player['name']} no tiene {name_of(building)}",
                                   f"{player['name']} has no {name_of(building, 'en')}"))
        player["buildings"].remove(bid)
        state["centre"]["buildings"].append(bid)
        state["centre"]["buildings"].sort()
        es, en = f"devuelve {name_of(building)} al centro", f"returns {name_of(building, 'en')} to the centre"
    else:
        raise BadArgument(text("un edificio se ajusta con delta +1 o -1", "a building is adjusted by delta +1 or -1"))
    log(state, f"Ajuste: {player['name']} {es}", f"Adjusted: {player['name']} {en}")


def _main(state: dict, action: dict) -> tuple[int, dict]:
    seat = require_active(state, action)
    if state["phase"] != "main":
        raise WrongPhase(text("eso se hace en la fase principal", "that belongs to the main phase"))
    return seat, state["players"][seat]


def _own_glad(player: dict, uid: Any, ready: bool = True) -> dict:
    for g in player["gladiators"]:
        if g["uid"] == uid:
            if ready and not g["ready"]:
                raise NotAllowed(text(f"el gladiador {uid} está agotado", f"gladiator {uid} is exhausted"))
            return g
    raise BadArgument(text(f"{player['name']} no tiene el gladiador '{uid}'", f"{player['name']} has no gladiator '{uid}'"))


def _pool(state: dict, player: dict, action: dict, seat: int, data) -> tuple[list[dict], int]:
    uids = arg(action, "gladiators", list)
    if not uids or len(set(map(str, uids))) != len(uids):
        raise BadArgument(text("'gladiators' es una lista de gladiadores distintos", "'gladiators' is a list of different gladiators"))
    glads = [_own_glad(player, u) for u in uids]
    total = sum(stat(state, seat, g, "construction", data) for g in glads)
    total += sum(e.get("amount", 0) for e in _building_effects(state, seat, data, "construction_bonus"))
    return glads, total


def _fight(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, player = _main(state, action)
    rules = data.meta["combat"]
    att = _own_glad(player, action.get("gladiator"))
    other = player_index(state, action.get("target"), "target")
    if other == seat:
        raise NotAllowed(text("no puedes combatir contigo", "you cannot fight yourself"))
    rival = state["players"][other]
    free = [g for g in rival["gladiators"] if g["uid"] not in state["chained"] or rules["chained_may_defend"]]
    if not free:
        raise NotAllowed(text(f"{rival['name']} no tiene gladiadores libres para defenderse",
                              f"{rival['name']} has no free gladiator to defend"))
    dfd = _own_glad(rival, action.get("defender"), ready=not rules["defender_may_be_exhausted"])
    if dfd not in free:
        raise NotAllowed(text(f"{dfd['uid']} está encadenado", f"{dfd['uid']} is chained"))
    att_card = _glad(data, att["card"])
    cost = att_card[rules["cost_field"]]
    for e in _building_effects(state, seat, data, "fight_discount"):
        if _applies(e, att_card):
            cost = max(0, cost - e.get("amount", 0))
    card_id = action.get("card")
    if card_id is not None:
        try:
            card = data.get("combat_card", card_id)
        except KeyError:
            raise BadArgument(text(f"carta de combate desconocida '{card_id}'", f"unknown combat card '{card_id}'")) from None
    spend(player, "coins", cost, "monedas", "coins")
    if card_id is None:
        card = data.get("combat_card", _draw_combat(state, rng))
        if action.get("redraw") and _may_redraw(state, seat, att, data):
            state["centre"]["combat_discard"].append(card["id"])
            card = data.get("combat_card", _draw_combat(state, rng))
    state["centre"]["combat_discard"].append(card["id"])
    attack = stat(state, seat, att, rules["attack"]["stat"], data, "attack") + card[rules["attack"]["card"]]
    defence = stat(state, other, dfd, rules["defence"]["stat"], data, "defence") + card[rules["defence"]["card"]]
    attacker_wins = attack > defence or (attack == defence and rules["ties"] == "attacker")
    if rules["attacker_exhausts"]:
        att["ready"] = False
    if rules["defender_exhausts"]:
        dfd["ready"] = False
    win_seat, win_g, lose_seat, lose_g = (seat, att, other, dfd) if attacker_wins else (other, dfd, seat, att)
    who, whom = state["players"][win_seat]["name"], state["players"][lose_seat]["name"]
    log(state, f"Combate {attack} contra {defence} ({name_of(card)}): gana {who}",
        f"Fight {attack} against {defence} ({name_of(card, 'en')}): {who} wins")
    if attacker_wins:
        player["points"] += rules["points"]["attacker_wins"]
        for e in _building_effects(state, seat, data, "fight_reward") + [
                e for e in _effects(att_card) if e["kind"] == "fight_reward"]:
            player["coins"] += e.get("amount", 0)
    else:
        rival["points"] += rules["points"]["defender_wins"]
        for e in _building_effects(state, other, data, "defence_reward"):
            rival["coins"] += e.get("amount", 0)
    death = rules["death"]
    skulls = card[death["card"]]
    if skulls > stat(state, lose_seat, lose_g, death["loser_dies_if_card_exceeds"], data):
        spared = death["spared_if_favor_above_winner"] and \
            stat(state, lose_seat, lose_g, "favor", data) > stat(state, win_seat, win_g, "favor", data)
        loser = state["players"][lose_seat]
        saves = _building_effects(state, lose_seat, data, "save")
        if spared:
            log(state, "El público indulta al perdedor", "The crowd spares the loser")
        elif saves and loser["coins"] >= saves[0].get("cost_coins", 0):
            loser["coins"] -= saves[0].get("cost_coins", 0)
            lose_g["ready"] = False
            log(state, f"{whom} paga para salvar a su gladiador", f"{whom} pays to save their gladiator")
        else:
            loser["gladiators"].remove(lose_g)
            kind = _glad(data, lose_g["card"])["kind"]
            if kind == "tiro":
                state["centre"]["tiros"].append(lose_g["card"])
            else:
                state["centre"]["veteran_discard"].append(lose_g["card"])
            log(state, f"Muere el gladiador de {whom}", f"{whom}'s gladiator dies")


def _may_redraw(state: dict, seat: int, att: dict, data) -> bool:
    flags = state["turn_flags"]
    own = [e for e in _effects(_glad(data, att["card"])) if e["kind"] == "redraw"]
    if (own or _building_effects(state, seat, data, "redraw")) and not flags.get("redraw"):
        flags["redraw"] = True
        return True
    return False


def _draw_combat(state: dict, rng: random.Random) -> str:
    centre = state["centre"]
    if not centre["combat"]:
        centre["combat"] = centre["combat_discard"]
        centre["combat_discard"] = []
        rng.shuffle(centre["combat"])
    return centre["combat"].pop(0)


def _work(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, player = _main(state, action)
    g = _own_glad(player, action.get("gladiator"))
    amount = stat(state, seat, g, "work", data)
    if not state["turn_flags"].get("work_bonus"):
        bonus = [e for e in _building_effects(state, seat, data, "coins") if e["timing"] == "on_work"]
        if bonus:
            amount += sum(e.get("amount", 0) for e in bonus)
            state["turn_flags"]["work_bonus"] = True
    g["ready"] = False
    player["coins"] += amount
    log(state, f"{player['name']} trabaja: +{amount} monedas", f"{player['name']} works: +{amount} coins")


def _build(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, player = _main(state, action)
    building = _building(data, arg(action, "building"))
    limits = data.meta["limits"]
    if limits["unique_building_names"] and building["id"] in player["buildings"]:
        raise Duplicate(text(f"{player['name']} ya tiene {name_of(building)}",
                             f"{player['name']} already has {name_of(building, 'en')}"))
    if building["id"] not in state["centre"]["buildings"]:
        raise NotAllowed(text(f"{name_of(building)} no está en el centro", f"{name_of(building, 'en')} is not in the centre"))
    if len(player["buildings"]) >= limits["max_buildings"]:
        raise LimitReached(text(f"ya tienes {limits['max_buildings']} edificios", f"you already have {limits['max_buildings']} buildings"))
    _pay_construction(state, seat, action, building["cost"], name_of(building), name_of(building, "en"), data)
    state["centre"]["buildings"].remove(building["id"])
    player["buildings"].append(building["id"])
    log(state, f"{player['name']} construye {name_of(building)}", f"{player['name']} builds {name_of(building, 'en')}")


def _demolish(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, player = _main(state, action)
    building = _building(data, arg(action, "building"))
    if building["id"] not in player["buildings"]:
        raise BadArgument(text(f"{player['name']} no tiene {name_of(building)}", f"{player['name']} has no {name_of(building, 'en')}"))
    _remove_building(state, seat, seat, building, action, data)


def _destroy(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, player = _main(state, action)
    if not _building_effects(state, seat, data, "destroy"):
        raise NotAllowed(text("necesitas el Aries para destruir", "you need the Aries to destroy"))
    if state["turn_flags"].get("destroy"):
        raise LimitReached(text("ya destruiste un edificio este turno", "you already destroyed a building this turn"))
    other = player_index(state, action.get("target"), "target")
    if other == seat:
        raise NotAllowed(text("para tus edificios, derriba", "to remove your own building, demolish it"))
    building = _building(data, arg(action, "building"))
    if building["id"] not in state["players"][other]["buildings"]:
        raise BadArgument(text(f"{state['players'][other]['name']} no tiene {name_of(building)}",
                               f"{state['players'][other]['name']} has no {name_of(building, 'en')}"))
    _remove_building(state, seat, other, building, action, data)
    state["turn_flags"]["destroy"] = True


def _pay_construction(state: dict, seat: int, action: dict, cost: int, what_es: str, what_en: str, data) -> None:
    """The named gladiators pool their construction to pay ``cost``; they are used up."""
    glads, total = _pool(state, state["players"][seat], action, seat, data)
    if total < cost:
        raise NotEnough(text(f"construcción {total}, {what_es} cuesta {cost}",
                             f"construction {total}, {what_en} costs {cost}"))
    for g in glads:
        g["ready"] = False


def _remove_building(state: dict, seat: int, owner: int, building: dict, action: dict, data) -> None:
    player = state["players"][seat]
    if not removable(building, data):
        raise NotAllowed(text(f"{name_of(building)} da puntos: no se puede derribar",
                              f"{name_of(building, 'en')} gives points: it cannot be demolished"))
    _pay_construction(state, seat, action, building["cost"], f"derribar {name_of(building)}",
                      f"demolishing {name_of(building, 'en')}", data)
    state["players"][owner]["buildings"].remove(building["id"])
    state["centre"]["buildings"].append(building["id"])
    state["centre"]["buildings"].sort()
    log(state, f"{player['name']} derriba {name_of(building)}", f"{player['name']} pulls down {name_of(building, 'en')}")


def _chain(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, player = _main(state, action)
    rules = data.meta["chain"]
    g = _own_glad(player, action.get("gladiator"))
    own = any(e["kind"] == "chain" for e in _effects(_glad(data, g["card"])))
    if not own and not _building_effects(state, seat, data, "chain"):
        raise NotAllowed(text("necesitas la Officina para encadenar", "you need the Officina to chain"))
    if state["turn_flags"].get("chain", 0) >= rules["per_turn"]:
        raise LimitReached(text("ya encadenaste este turno", "you already chained this turn"))
    other = player_index(state, action.get("target"), "target")
    if other == seat:
        raise NotAllowed(text("encadena a un rival", "chain a rival"))
    uids = arg(action, "targets", list)
    rival = state["players"][other]
    targets = [_own_glad(rival, u, ready=False) for u in uids]
    if not targets or len({t["uid"] for t in targets}) != len(targets):
        raise BadArgument(text("'targets' es una lista de gladiadores distintos", "'targets' is a list of different gladiators"))
    for t in targets:
        if any(e["kind"] == "unchainable" for e in _effects(_glad(data, t["card"]))):
            raise NotAllowed(text(f"{name_of(_glad(data, t['card']))} no se puede encadenar",
                                  f"{name_of(_glad(data, t['card']), 'en')} cannot be chained"))
    power = stat(state, seat, g, rules["stat"], data)
    weight = sum(stat(state, other, t, "combat", data) for t in targets) if rules["limit"] == "combined_combat" else len(targets)
    if weight > power:
        raise NotEnough(text(f"encadenar cuesta {weight} y el gladiador tiene {power}",
                             f"chaining needs {weight} and the gladiator has {power}"))
    g["ready"] = False
    state["chained"].extend(t["uid"] for t in targets)
    state["turn_flags"]["chain"] = state["turn_flags"].get("chain", 0) + 1
    log(state, f"{player['name']} encadena {len(targets)} gladiador(es) de {rival['name']}",
        f"{player['name']} chains {len(targets)} of {rival['name']}'s gladiators")


def _end_main(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, player = _main(state, action)
    state["phase"] = "auction"
    log(state, f"{player['name']}: subasta", f"{player['name']}: auction")


def _auction_phase(state: dict, action: dict) -> tuple[int, dict]:
    seat = require_active(state, action)
    if state["phase"] != "auction" or state["auction"] is not None:
        raise WrongPhase(text("eso se hace al empezar la fase de subasta", "that belongs to the start of the auction phase"))
    return seat, state["players"][seat]


def _discard_gladiator(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, player = _auction_phase(state, action)
    if len(player["gladiators"]) <= capacity(state, seat, data):
        raise NotAllowed(text("tienes sitio para todos tus gladiadores", "you have room for all your gladiators"))
    g = _own_glad(player, action.get("gladiator"), ready=False)
    player["gladiators"].remove(g)
    kind = _glad(data, g["card"])["kind"]
    (state["centre"]["tiros"] if kind == "tiro" else state["centre"]["veteran_discard"]).append(g["card"])
    log(state, f"{player['name']} descarta un gladiador", f"{player['name']} discards a gladiator")


def _start_auction(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, player = _auction_phase(state, action)
    if len(player["gladiators"]) >= capacity(state, seat, data):
        raise NotAllowed(text("no tienes sitio para otro gladiador", "you have no room for another gladiator"))
    rules = data.meta["auction"]
    count = rules["reveal"] + sum(e.get("amount", 0) for e in _building_effects(state, seat, data, "auction_reveal"))
    centre = state["centre"]
    shown = []
    for _ in range(count):
        if not centre["veterans"]:
            centre["veterans"], centre["veteran_discard"] = centre["veteran_discard"], []
            rng.shuffle(centre["veterans"])
        if not centre["veterans"]:
            break
        shown.append(centre["veterans"].pop(0))
    if not shown:
        raise NotAllowed(text("no quedan veteranos", "no veterans are left"))
    state["auction"] = {"shown": shown, "gladiator": None, "order": [], "next": 0, "high": None, "bids": []}
    log(state, f"Se revelan {len(shown)} veteranos", f"{len(shown)} veterans are revealed")


def _pick(state: dict, action: dict, rng: random.Random, data) -> None:
    seat = require_active(state, action)
    auc = state["auction"]
    if state["phase"] != "auction" or not auc or auc["gladiator"] is not None:
        raise WrongPhase(text("no hay veteranos por elegir", "there are no veterans to pick from"))
    wanted = arg(action, "gladiator", str)
    try:
        card = data.find("gladiator", wanted)["id"]
    except LookupError as exc:
        raise BadArgument(text(f"gladiador desconocido: {exc}", f"unknown gladiator: {exc}")) from None
    if card not in auc["shown"]:
        raise NotAllowed(text(f"{wanted} no está entre los revelados", f"{wanted} is not among the revealed"))
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


def _bidder(state: dict, action: dict) -> tuple[int, dict]:
    if state.get("finished"):
        raise GameOver(text("la partida ha terminado", "the game is over"))
    auc = state["auction"]
    if state["phase"] != "auction" or not auc or auc["gladiator"] is None:
        raise WrongPhase(text("no hay ninguna puja abierta", "no bidding is open"))
    seat = auc["order"][auc["next"]]
    if action.get("player") is not None and player_index(state, action["player"]) != seat:
        raise NotYourTurn(text(f"puja ahora {state['players'][seat]['name']}", f"{state['players'][seat]['name']} bids now"))
    return seat, auc


def _bid(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, auc = _bidder(state, action)
    amount = arg(action, "amount", int)
    player = state["players"][seat]
    minimum = _glad(data, auc["gladiator"]).get("min_bid", 0) or 0
    if auc["high"] is not None:
        minimum = max(minimum, auc["high"]["amount"])
    if amount < minimum:
        raise NotEnough(text(f"la puja mínima es {minimum}", f"the minimum bid is {minimum}"))
    if amount > player["coins"]:
        raise NotEnough(text(f"{player['name']} tiene {player['coins']} monedas", f"{player['name']} has {player['coins']} coins"))
    high = auc["high"]
    if high is None or amount > high["amount"] or _wins_tie(state, seat, high["player"], data):
        auc["high"] = {"player": seat, "amount": amount}
    auc["bids"].append({"player": seat, "amount": amount})
    log(state, f"{player['name']} puja {amount}", f"{player['name']} bids {amount}")
    _next_bidder(state, rng, data)


def _wins_tie(state: dict, seat: int, holder: int, data) -> bool:
    """On an equal bid: the later bidder wins unless the holder has the Atrium and the bidder not."""
    own = bool(_building_effects(state, seat, data, "auction_tie"))
    theirs = bool(_building_effects(state, holder, data, "auction_tie"))
    if own != theirs:
        return own
    return data.meta["auction"]["tie"] == "last_bidder"


def _pass(state: dict, action: dict, rng: random.Random, data) -> None:
    seat, auc = _bidder(state, action)
    log(state, f"{state['players'][seat]['name']} pasa", f"{state['players'][seat]['name']} passes")
    _next_bidder(state, rng, data)


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
        discount += sum(e.get("amount", 0) for g in winner["gladiators"]
                        for e in _effects(_glad(data, g["card"])) if e["kind"] == "auction_discount")
        pay = max(0, amount - discount)
        winner["coins"] -= pay
        winner["gladiators"].append(_new_glad(state, card, data.meta["auction"]["arrives"] == "ready"))
        log(state, f"{winner['name']} gana la subasta y paga {pay}", f"{winner['name']} wins the auction and pays {pay}")
    state["auction"] = None
    state["phase"] = "end"


def _end_turn(state: dict, action: dict, rng: random.Random, data) -> None:
    seat = require_active(state, action)
    player = state["players"][seat]
    if state["phase"] == "main":
        raise WrongPhase(text("termina antes la fase principal", "end the main phase first"))
    if state["auction"] is not None:
        raise WrongPhase(text("la subasta no ha terminado", "the auction is not over"))
    if len(player["gladiators"]) > capacity(state, seat, data):
        raise NotAllowed(text("descarta antes los gladiadores que no caben", "first discard the gladiators you cannot house"))
    if points(state, seat, data) >= state["target"]:
        finish(state, record(state), data)
        log(state, f"¡{player['name']} alcanza {state['target']} puntos y gana!",
            f"{player['name']} reaches {state['target']} points and wins!")
        return
    _start_turn(state, pass_turn(state, seat), rng, data)


_HANDLERS = {"fight": _fight, "work": _work, "build": _build, "demolish": _demolish, "destroy": _destroy,
             "chain": _chain, "end_main": _end_main, "discard_gladiator": _discard_gladiator,
             "start_auction": _start_auction, "pick": _pick, "bid": _bid, "pass": _pass,
             "end_turn": _end_turn}


def legal_actions(state: dict, data) -> list[dict]:
    """The moves open now, with their arguments filled in."""
    seat = state["active"]
    p = state["players"][seat]
    out: list[dict] = []
    phase = state["phase"]
    if phase == "main":
        ready = [g for g in p["gladiators"] if g["ready"]]
        for g in ready:
            out.append({"action": "work", "gladiator": g["uid"]})
            cost = _glad(data, g["card"])["fight_cost"]
            if cost <= p["coins"]:
                for other, rival in enumerate(state["players"]):
                    free = [d for d in rival["gladiators"] if d["uid"] not in state["chained"]]
                    if other != seat and free:
                        weakest = min(free, key=lambda d: stat(state, other, d, "combat", data))
                        out.append({"action": "fight", "gladiator": g["uid"], "target": rival["name"],
                                    "defender": weakest["uid"]})
        power = sum(stat(state, seat, g, "construction", data) for g in ready)
        if len(p["buildings"]) < data.meta["limits"]["max_buildings"]:
            for b in state["centre"]["buildings"]:
                entry = data.get("building", b)
                if entry["cost"] <= power and b not in p["buildings"]:
                    out.append({"action": "build", "building": b, "gladiators": _cheapest(state, seat, ready, entry["cost"], data)})
        out.append({"action": "end_main"})
    elif phase == "auction" and state["auction"] is None:
        room = capacity(state, seat, data)
        if len(p["gladiators"]) > room:
            out += [{"action": "discard_gladiator", "gladiator": g["uid"]} for g in p["gladiators"]]
        else:
            if len(p["gladiators"]) < room and (state["centre"]["veterans"] or state["centre"]["veteran_discard"]):
                out.append({"action": "start_auction"})
            out.append({"action": "end_turn"})
    elif phase == "auction" and state["auction"]["gladiator"] is None:
        out += [{"action": "pick", "gladiator": c} for c in state["auction"]["shown"]]
    elif phase == "auction":
        auc = state["auction"]
        bidder = auc["order"][auc["next"]]
        b = state["players"][bidder]
        minimum = max(_glad(data, auc["gladiator"]).get("min_bid", 0) or 0,
                      auc["high"]["amount"] if auc["high"] else 0)
        if minimum <= b["coins"]:
            out.append({"action": "bid", "player": b["name"], "amount": minimum})
        out.append({"action": "pass", "player": b["name"]})
    elif phase == "end":
        out.append({"action": "end_turn"})
    return out


def _cheapest(state: dict, seat: int, ready: list[dict], cost: int, data) -> list[str]:
    """Ready gladiators whose construction reaches ``cost``, strongest builders first."""
    chosen, total = [], 0
    for g in sorted(ready, key=lambda g: -stat(state, seat, g, "construction", data)):
        if total >= cost:
            break
        chosen.append(g["uid"])
        total += stat(state, seat, g, "construction", data)
    return chosen

"""Gladiadores (Ludi Gladiatorii): each turn is start, main phase, auction and end.

Start (applied by the engine when a turn begins): stand every gladiator up, start-of-turn buildings
(coins, a free Tiro), refill to ``limits.refill_min_gladiators`` Tiros and ``refill_min_buildings``
starting buildings.  Main: each ready gladiator acts once (fight, work; build/demolish/destroy pool
several; chain with the Officina).  Auction: discard down to the room you have, or, with room to
spare, reveal veterans, pick one and take bids from the left of the active player round to the
active player last.  End: reaching the target points wins.  Every number is in ``cards/gladiadores``.

Gladiators are card instances with a ``uid`` (``"g7"``) since Tiros come in copies.  A fight's
combat card is the one the table reveals (``card``: the app always asks for it, and it leaves the
engine's pile) or, when not given (``ludoteca play``, simulations), the top of the engine's seeded
combat deck.
"""

from __future__ import annotations

import random
from typing import Any, TypedDict

from ..common import (
    CORRECTION,
    Arg,
    Move,
    adjust_move,
    declare,
    final_record_move,
    find_entry,
    log,
    name_of,
    need,
    next_seat,
    pass_turn,
    player_index,
    text,
)
from ..errors import BadArgument, Duplicate, LimitReached, NotAllowed, NotEnough, NotYourTurn, WrongPhase
from ..definition import GameDefinition, Outcome, State
from ..final import finish
from ..setup import setup_options

GAME = "gladiadores"
RESOURCES = {
    "coins": text("monedas", "coins"),
    "combat_wins": text("combates ganados", "combats won"),
    "defence_wins": text("defensas ganadas", "defences won"),
}
#: What ``adjust`` called the combat-wins counter before the engine kept wins instead of points
#: (saved games replay with it; the shipped data gives one point a win).
OLD_RESOURCES = {"points": "combat_wins", "puntos de combate": "combat_wins", "combat points": "combat_wins"}

# -- data ----------------------------------------------------------------------------------------


def _glad(data, card_id: str) -> dict:
    return data.get("gladiator", card_id)


def _building(data, name: Any) -> dict:
    return find_entry(
        data,
        "building",
        name,
        text("'building' debe ser un nombre de edificio", "'building' must be a building name"),
        text("edificio desconocido", "unknown building"),
    )


def _effects(entry: dict) -> list[dict]:
    return list(entry.get("effects") or [])


def _building_effects(state: dict, seat: int, data, kind: str) -> list[dict]:
    return [
        e for b in state["players"][seat]["buildings"] for e in _effects(data.get("building", b)) if e["kind"] == kind
    ]


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
    """A player's score now: the end-of-game scoring of their combats won and buildings."""
    from ..scoring.gladiadores import LudusEnd, breakdown  # the scoring package loads when first needed

    now = record(state, data)["players"][seat]
    return sum(
        breakdown(
            LudusEnd(now["name"], now["combat_wins"], tuple(now["buildings"]), now["defence_wins"]), data
        ).values()
    )


def pooled_construction(state: dict, seat: int, uids: list[str], data) -> int:
    """The construction the named ready gladiators of ``seat`` add up to (what build, demolish and
    destroy may spend)."""
    glads = [g for g in state["players"][seat]["gladiators"] if g["uid"] in uids and g["ready"]]
    return sum(stat(state, seat, g, "construction", data) for g in glads)


def removable(building: dict, data) -> bool:
    """Whether a building may be demolished or destroyed (never one that gives points)."""
    return bool(building["demolishable"]) and not (
        data.meta["building_rules"]["points_block_demolish"] and building.get("points")
    )


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


# -- setup and turns -----------------------------------------------------------------------------


def setup(players: list[str], options: dict, rng: random.Random, data) -> dict:
    """Deal buildings (the Casula's holder starts), Tiros and coins; shuffle veterans and combat cards."""
    meta = data.meta
    options = setup_options(data, players, options)
    target = options["target"] or meta["target_points"]["quick_start" if options["quick"] else "standard"]
    from ..scoring.gladiadores import player_count_row  # the row scoring's box check reads too

    row = player_count_row(data, len(players))
    if row is None:
        raise BadArgument(
            text(
                f"los datos no tienen fila de player_counts para {len(players)} jugadores",
                f"the data has no player_counts row for {len(players)} players",
            )
        )
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
        "game": GAME,
        "target": target,
        "expansion": options["expansion"],
        "players": [],
        "next_uid": 1,
        "phase": "start",
        "active": None,
        "turn": 0,
        "round": 1,
        "finished": False,
        "final": None,
        "log": [],
        "centre": {
            "tiros": [],
            "buildings": [],
            "veterans": veterans,
            "veteran_discard": [],
            "combat": combat,
            "combat_discard": [],
        },
        "auction": None,
        "chained": [],
        "turn_flags": {},
    }
    for i, name in enumerate(players):
        state["players"].append(
            {
                "name": name,
                "coins": meta["setup"]["starting_coins"],
                "combat_wins": 0,
                "defence_wins": 0,
                "buildings": dealt[i * per : (i + 1) * per],
                "gladiators": [],
            }
        )
    for p in state["players"]:
        for _ in range(meta["setup"]["starting_tiros"]):
            p["gladiators"].append(_new_glad(state, tiros.pop()))
    state["centre"]["tiros"] = sorted(tiros)
    leftover = dealt[len(players) * per :] + starting[row["starting_buildings"] - 1 :]
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


# -- moves: each declared once (arguments, phase, one precondition, effect) --------------------------


def _me(state: dict) -> tuple[int, dict]:
    seat = state["active"]
    return seat, state["players"][seat]


def _is_resource(name: Any) -> bool:
    return isinstance(name, str) and name.strip().casefold() in {k for k in RESOURCES} | set(OLD_RESOURCES) | {
        n.casefold() for t in RESOURCES.values() for n in t.values()
    }


def _renamed(a: dict) -> dict:
    """An ``adjust`` with the counter's old name given its current one."""
    old = OLD_RESOURCES.get(a["resource"].strip().casefold()) if isinstance(a["resource"], str) else None
    return {**a, "resource": old} if old else a


def _adjusted_building(state: dict, a: dict, data) -> tuple[int, dict]:
    """The player and the building an ``adjust`` of a building names, or the refusal."""
    seat = player_index(state, a["player"])
    player = state["players"][seat]
    try:
        building = data.find("building", a["resource"])
    except LookupError as exc:
        raise BadArgument(
            text(
                f"recurso desconocido: se puede ajustar coins, combat_wins, defence_wins o un edificio ({exc})",
                f"unknown resource: adjust coins, combat_wins, defence_wins or a building ({exc})",
            )
        ) from None
    bid = building["id"]
    if a["delta"] == 1:
        if bid in player["buildings"]:
            raise Duplicate(
                text(
                    f"{player['name']} ya tiene {name_of(building)}",
                    f"{player['name']} already has {name_of(building, 'en')}",
                )
            )
        if not any(bid in p["buildings"] for p in state["players"]) and bid not in state["centre"]["buildings"]:
            raise NotAllowed(text(f"{name_of(building)} no está en juego", f"{name_of(building, 'en')} is not in play"))
    elif a["delta"] == -1:
        if bid not in player["buildings"]:
            raise BadArgument(
                text(
                    f"{player['name']} no tiene {name_of(building)}",
                    f"{player['name']} has no {name_of(building, 'en')}",
                )
            )
    else:
        raise BadArgument(text("un edificio se ajusta con delta +1 o -1", "a building is adjusted by delta +1 or -1"))
    return seat, building


def _adjust_check(state: dict, a: dict, data) -> None:
    if _is_resource(a["resource"]):
        _BASE_ADJUST.precondition(state, _renamed(a), data)
    else:
        _adjusted_building(state, a, data)


def _adjust(state: dict, a: dict, rng: random.Random, data) -> None:
    """The table is the truth: correct coins or combats won, give a player a building (from the centre or
    from whoever has it) or send one of theirs back to the centre."""
    if _is_resource(a["resource"]):
        _BASE_ADJUST.effect(state, _renamed(a), rng, data)
        return
    seat, building = _adjusted_building(state, a, data)
    player, bid = state["players"][seat], building["id"]
    if a["delta"] == 1:
        owner = next((p for p in state["players"] if bid in p["buildings"]), None)
        (owner["buildings"] if owner is not None else state["centre"]["buildings"]).remove(bid)
        player["buildings"].append(bid)
        es, en = f"recibe {name_of(building)}", f"gets {name_of(building, 'en')}"
    else:
        player["buildings"].remove(bid)
        state["centre"]["buildings"].append(bid)
        state["centre"]["buildings"].sort()
        es, en = f"devuelve {name_of(building)} al centro", f"returns {name_of(building, 'en')} to the centre"
    log(state, f"Ajuste: {player['name']} {es}", f"Adjusted: {player['name']} {en}")


def _own_glad(player: dict, uid: Any, ready: bool = True) -> dict:
    for g in player["gladiators"]:
        if g["uid"] == uid:
            if ready and not g["ready"]:
                raise NotAllowed(text(f"el gladiador {uid} está agotado", f"gladiator {uid} is exhausted"))
            return g
    raise BadArgument(
        text(f"{player['name']} no tiene el gladiador '{uid}'", f"{player['name']} has no gladiator '{uid}'")
    )


def _pool(state: dict, a: dict, data) -> tuple[list[dict], int]:
    """The ready gladiators ``gladiators`` names and the construction they pool (with bonuses)."""
    seat, player = _me(state)
    uids = a["gladiators"]
    if not uids or len(set(uids)) != len(uids):
        raise BadArgument(
            text("'gladiators' es una lista de gladiadores distintos", "'gladiators' is a list of different gladiators")
        )
    glads = [_own_glad(player, u) for u in uids]
    total = sum(stat(state, seat, g, "construction", data) for g in glads)
    total += sum(e.get("amount", 0) for e in _building_effects(state, seat, data, "construction_bonus"))
    return glads, total


def _construction_check(state: dict, a: dict, cost: int, what_es: str, what_en: str, data) -> None:
    glads, total = _pool(state, a, data)
    if total < cost:
        raise NotEnough(
            text(
                f"{what_es} cuesta {cost} y tus gladiadores suman {total}",
                f"{what_en} costs {cost}; your gladiators add up to {total}",
            )
        )


def _use_up(state: dict, a: dict, data) -> None:
    """The named gladiators have pooled their construction: they are used up."""
    for g in _pool(state, a, data)[0]:
        g["ready"] = False


def _fighters(state: dict, a: dict, data) -> tuple[dict, int, dict]:
    """The attacker, the rival's seat and the defender a ``fight`` names, or the refusal."""
    seat, player = _me(state)
    rules = data.meta["combat"]
    att = _own_glad(player, a["gladiator"])
    other = player_index(state, a["target"], "target")
    if other == seat:
        raise NotAllowed(text("no puedes combatir contigo", "you cannot fight yourself"))
    rival = state["players"][other]
    free = [g for g in rival["gladiators"] if g["uid"] not in state["chained"] or rules["chained_may_defend"]]
    if not free:
        raise NotAllowed(
            text(
                f"{rival['name']} no tiene gladiadores libres para defenderse",
                f"{rival['name']} has no free gladiator to defend",
            )
        )
    dfd = _own_glad(rival, a["defender"], ready=not rules["defender_may_be_exhausted"])
    if dfd not in free:
        raise NotAllowed(text(f"{dfd['uid']} está encadenado", f"{dfd['uid']} is chained"))
    return att, other, dfd


def fight_cost(state: dict, seat: int, att: dict, data) -> int:
    """What the attacker's owner pays to fight with it (its card's cost less building discounts)."""
    att_card = _glad(data, att["card"])
    cost = att_card[data.meta["combat"]["cost_field"]]
    for e in _building_effects(state, seat, data, "fight_discount"):
        if _applies(e, att_card):
            cost = max(0, cost - e.get("amount", 0))
    return cost


def _fight_check(state: dict, a: dict, data) -> None:
    seat, player = _me(state)
    att, other, dfd = _fighters(state, a, data)
    if a["card"] is not None and a["card"] not in {c["id"] for c in data.entries("combat_card")}:
        raise BadArgument(text(f"carta de combate desconocida '{a['card']}'", f"unknown combat card '{a['card']}'"))
    need(player, "coins", fight_cost(state, seat, att, data), "monedas", "coins")


def attacker_wins(attack: int, defence: int, rules: dict) -> bool:
    """Whether the attack beats the defence: higher wins; a tie goes to whom ``combat.ties`` says."""
    return attack > defence or (attack == defence and rules["ties"] == "attacker")


def _fight(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _me(state)
    rules = data.meta["combat"]
    att, other, dfd = _fighters(state, a, data)
    rival = state["players"][other]
    att_card = _glad(data, att["card"])
    player["coins"] -= fight_cost(state, seat, att, data)
    if a["card"] is not None:  # revealed at the table: it leaves the pile the engine keeps in step
        card = data.get("combat_card", a["card"])
        if card["id"] in state["centre"]["combat"]:
            state["centre"]["combat"].remove(card["id"])
    else:
        card = data.get("combat_card", _draw_combat(state, rng))
        if a["redraw"] and _may_redraw(state, seat, att, data):
            state["centre"]["combat_discard"].append(card["id"])
            card = data.get("combat_card", _draw_combat(state, rng))
    state["centre"]["combat_discard"].append(card["id"])
    attack = stat(state, seat, att, rules["attack"]["stat"], data, "attack") + card[rules["attack"]["card"]]
    defence = stat(state, other, dfd, rules["defence"]["stat"], data, "defence") + card[rules["defence"]["card"]]
    won = attacker_wins(attack, defence, rules)
    if rules["attacker_exhausts"]:
        att["ready"] = False
    if rules["defender_exhausts"]:
        dfd["ready"] = False
    win_seat, win_g, lose_seat, lose_g = (seat, att, other, dfd) if won else (other, dfd, seat, att)
    who, whom = state["players"][win_seat]["name"], state["players"][lose_seat]["name"]
    log(
        state,
        f"Combate {attack} contra {defence} ({name_of(card)}): gana {who}",
        f"Fight {attack} against {defence} ({name_of(card, 'en')}): {who} wins",
    )
    if won:
        player["combat_wins"] += 1
        for e in _building_effects(state, seat, data, "fight_reward") + [
            e for e in _effects(att_card) if e["kind"] == "fight_reward"
        ]:
            player["coins"] += e.get("amount", 0)
    else:
        rival["defence_wins"] += 1
        for e in _building_effects(state, other, data, "defence_reward"):
            rival["coins"] += e.get("amount", 0)
    death = rules["death"]
    skulls = card[death["card"]]
    if skulls > stat(state, lose_seat, lose_g, death["loser_dies_if_card_exceeds"], data):
        spared = death["spared_if_favor_above_winner"] and stat(state, lose_seat, lose_g, "favor", data) > stat(
            state, win_seat, win_g, "favor", data
        )
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


def _fight_candidates(state: dict, data) -> list[dict]:
    """Each ready gladiator against each rival, facing the rival's weakest free gladiator (the
    defender is the rival's choice; the screen asks them)."""
    seat, p = _me(state)
    out = []
    for g in p["gladiators"]:
        for other, rival in enumerate(state["players"]):
            free = [d for d in rival["gladiators"] if d["uid"] not in state["chained"]]
            if other != seat and free:
                weakest = min(free, key=lambda d: stat(state, other, d, "combat", data))
                out.append({"gladiator": g["uid"], "target": rival["name"], "defender": weakest["uid"]})
    return out


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


def _work_check(state: dict, a: dict, data) -> None:
    _own_glad(_me(state)[1], a["gladiator"])


def _work(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _me(state)
    g = _own_glad(player, a["gladiator"])
    amount = stat(state, seat, g, "work", data)
    if not state["turn_flags"].get("work_bonus"):
        bonus = [e for e in _building_effects(state, seat, data, "coins") if e["timing"] == "on_work"]
        if bonus:
            amount += sum(e.get("amount", 0) for e in bonus)
            state["turn_flags"]["work_bonus"] = True
    g["ready"] = False
    player["coins"] += amount
    log(state, f"{player['name']} trabaja: +{amount} monedas", f"{player['name']} works: +{amount} coins")


def _my_gladiators(state: dict, data) -> list[dict]:
    return [{"gladiator": g["uid"]} for g in _me(state)[1]["gladiators"]]


def _build_check(state: dict, a: dict, data) -> None:
    seat, player = _me(state)
    building = _building(data, a["building"])
    limits = data.meta["limits"]
    if limits["unique_building_names"] and building["id"] in player["buildings"]:
        raise Duplicate(
            text(
                f"{player['name']} ya tiene {name_of(building)}",
                f"{player['name']} already has {name_of(building, 'en')}",
            )
        )
    if building["id"] not in state["centre"]["buildings"]:
        raise NotAllowed(
            text(f"{name_of(building)} no está en el centro", f"{name_of(building, 'en')} is not in the centre")
        )
    if len(player["buildings"]) >= limits["max_buildings"]:
        raise LimitReached(
            text(
                f"ya tienes {limits['max_buildings']} edificios",
                f"you already have {limits['max_buildings']} buildings",
            )
        )
    _construction_check(state, a, building["cost"], name_of(building), name_of(building, "en"), data)


def _build(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _me(state)
    building = _building(data, a["building"])
    _use_up(state, a, data)
    state["centre"]["buildings"].remove(building["id"])
    player["buildings"].append(building["id"])
    log(state, f"{player['name']} construye {name_of(building)}", f"{player['name']} builds {name_of(building, 'en')}")


def _build_candidates(state: dict, data) -> list[dict]:
    """Each building in the centre, paid by the strongest ready builders."""
    seat, p = _me(state)
    ready = [g for g in p["gladiators"] if g["ready"]]
    return [
        {"building": b, "gladiators": _cheapest(state, seat, ready, data.get("building", b)["cost"], data)}
        for b in dict.fromkeys(state["centre"]["buildings"])
    ]


def _removal_check(state: dict, a: dict, owner: int, data) -> dict:
    building = _building(data, a["building"])
    victim = state["players"][owner]
    if building["id"] not in victim["buildings"]:
        raise BadArgument(
            text(f"{victim['name']} no tiene {name_of(building)}", f"{victim['name']} has no {name_of(building, 'en')}")
        )
    if not removable(building, data):
        raise NotAllowed(
            text(
                f"{name_of(building)} da puntos: no se puede derribar",
                f"{name_of(building, 'en')} gives points: it cannot be demolished",
            )
        )
    _construction_check(
        state, a, building["cost"], f"derribar {name_of(building)}", f"demolishing {name_of(building, 'en')}", data
    )
    return building


def _remove_building(state: dict, a: dict, owner: int, data) -> None:
    player = state["players"][state["active"]]
    building = _building(data, a["building"])
    _use_up(state, a, data)
    state["players"][owner]["buildings"].remove(building["id"])
    state["centre"]["buildings"].append(building["id"])
    state["centre"]["buildings"].sort()
    log(
        state, f"{player['name']} derriba {name_of(building)}", f"{player['name']} pulls down {name_of(building, 'en')}"
    )


def _demolish_check(state: dict, a: dict, data) -> None:
    _removal_check(state, a, state["active"], data)


def _demolish(state: dict, a: dict, rng: random.Random, data) -> None:
    _remove_building(state, a, state["active"], data)


def _destroy_check(state: dict, a: dict, data) -> None:
    seat, player = _me(state)
    if not _building_effects(state, seat, data, "destroy"):
        raise NotAllowed(text("necesitas el Aries para destruir", "you need the Aries to destroy"))
    if state["turn_flags"].get("destroy"):
        raise LimitReached(text("ya destruiste un edificio este turno", "you already destroyed a building this turn"))
    other = player_index(state, a["target"], "target")
    if other == seat:
        raise NotAllowed(text("para tus edificios, derriba", "to remove your own building, demolish it"))
    _removal_check(state, a, other, data)


def _destroy(state: dict, a: dict, rng: random.Random, data) -> None:
    _remove_building(state, a, player_index(state, a["target"], "target"), data)
    state["turn_flags"]["destroy"] = True


def _chain_targets(state: dict, a: dict, data) -> tuple[dict, int, list[dict]]:
    """The chaining gladiator, the rival and the rival's gladiators a ``chain`` names, or the refusal."""
    seat, player = _me(state)
    rules = data.meta["chain"]
    g = _own_glad(player, a["gladiator"])
    own = any(e["kind"] == "chain" for e in _effects(_glad(data, g["card"])))
    if not own and not _building_effects(state, seat, data, "chain"):
        raise NotAllowed(text("necesitas la Officina para encadenar", "you need the Officina to chain"))
    if state["turn_flags"].get("chain", 0) >= rules["per_turn"]:
        raise LimitReached(text("ya encadenaste este turno", "you already chained this turn"))
    other = player_index(state, a["target"], "target")
    if other == seat:
        raise NotAllowed(text("encadena a un rival", "chain a rival"))
    rival = state["players"][other]
    targets = [_own_glad(rival, u, ready=False) for u in a["targets"]]
    if not targets or len({t["uid"] for t in targets}) != len(targets):
        raise BadArgument(
            text("'targets' es una lista de gladiadores distintos", "'targets' is a list of different gladiators")
        )
    return g, other, targets


def _chain_check(state: dict, a: dict, data) -> None:
    seat, player = _me(state)
    rules = data.meta["chain"]
    g, other, targets = _chain_targets(state, a, data)
    for t in targets:
        if any(e["kind"] == "unchainable" for e in _effects(_glad(data, t["card"]))):
            raise NotAllowed(
                text(
                    f"{name_of(_glad(data, t['card']))} no se puede encadenar",
                    f"{name_of(_glad(data, t['card']), 'en')} cannot be chained",
                )
            )
    power = stat(state, seat, g, rules["stat"], data)
    weight = (
        sum(stat(state, other, t, "combat", data) for t in targets)
        if rules["limit"] == "combined_combat"
        else len(targets)
    )
    if weight > power:
        raise NotEnough(
            text(
                f"encadenar cuesta {weight} y el gladiador tiene {power}",
                f"chaining needs {weight} and the gladiator has {power}",
            )
        )


def _chain(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _me(state)
    g, other, targets = _chain_targets(state, a, data)
    g["ready"] = False
    state["chained"].extend(t["uid"] for t in targets)
    state["turn_flags"]["chain"] = state["turn_flags"].get("chain", 0) + 1
    log(
        state,
        f"{player['name']} encadena {len(targets)} gladiador(es) de {state['players'][other]['name']}",
        f"{player['name']} chains {len(targets)} of {state['players'][other]['name']}'s gladiators",
    )


def _nothing(state: dict, a: dict, data) -> None:
    """A move with no precondition beyond its phase and whose turn it is."""


def _one(state: dict, data) -> list[dict]:
    return [{}]


def _end_main(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _me(state)
    state["phase"] = "auction"
    log(state, f"{player['name']}: subasta", f"{player['name']}: auction")


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


def _cheapest(state: dict, seat: int, ready: list[dict], cost: int, data) -> list[str]:
    """Ready gladiators whose construction reaches ``cost``, strongest builders first."""
    chosen, total = [], 0
    for g in sorted(ready, key=lambda g: -stat(state, seat, g, "construction", data)):
        if total >= cost:
            break
        chosen.append(g["uid"])
        total += stat(state, seat, g, "construction", data)
    return chosen


MAIN = ("main",)
IN_MAIN = text("eso se hace en la fase principal", "that belongs to the main phase")
GLADIATOR = Arg("name", "uid")
GLADIATORS = Arg("list", "[uid, ...]")
BUILDING = Arg("name", "building")
_BASE_ADJUST = adjust_move(lambda data: RESOURCES, "coins|combat_wins|defence_wins|a building")

MOVES: dict[str, Move] = declare(
    Move(
        "adjust",
        text(
            "Corrige a mano un recurso de un jugador, o qué edificios tiene (+1 lo toma del centro "
            "o de otro jugador, -1 lo devuelve al centro).",
            "Correct a player's resource by hand, or which buildings they own (+1 takes it from "
            "the centre or another player, -1 returns it to the centre).",
        ),
        {**_BASE_ADJUST.args, "delta": Arg("int", "int (+1/-1 for a building)", lo=-CORRECTION, hi=CORRECTION)},
        _adjust_check,
        _adjust,
        active=False,
    ),
    Move(
        "fight",
        text("Combate: paga y desafía a un rival.", "Fight: pay and challenge a rival."),
        {
            "gladiator": GLADIATOR,
            "target": Arg("player", "name"),
            "defender": Arg("name", "uid (the defender's choice)"),
            "card": Arg("name", "combat card id (optional: else the engine draws)", optional=True),
            "redraw": Arg("bool", "bool (optional)", optional=True, default=False),
        },
        _fight_check,
        _fight,
        phases=MAIN,
        candidates=_fight_candidates,
        wrong_phase=IN_MAIN,
    ),
    Move(
        "work",
        text("Trabaja: gana monedas.", "Work: earn coins."),
        {"gladiator": GLADIATOR},
        _work_check,
        _work,
        phases=MAIN,
        candidates=_my_gladiators,
        wrong_phase=IN_MAIN,
    ),
    Move(
        "build",
        text("Construye un edificio del centro.", "Build a building from the centre."),
        {"building": BUILDING, "gladiators": GLADIATORS},
        _build_check,
        _build,
        phases=MAIN,
        candidates=_build_candidates,
        wrong_phase=IN_MAIN,
    ),
    Move(
        "demolish",
        text("Derriba uno de tus edificios.", "Demolish one of your buildings."),
        {"building": BUILDING, "gladiators": GLADIATORS},
        _demolish_check,
        _demolish,
        phases=MAIN,
        wrong_phase=IN_MAIN,
    ),
    Move(
        "destroy",
        text("Destruye un edificio rival (Aries).", "Destroy a rival's building (Aries)."),
        {"target": Arg("player", "name"), "building": BUILDING, "gladiators": GLADIATORS},
        _destroy_check,
        _destroy,
        phases=MAIN,
        wrong_phase=IN_MAIN,
    ),
    Move(
        "chain",
        text("Encadena gladiadores rivales (Officina).", "Chain rival gladiators (Officina)."),
        {"gladiator": GLADIATOR, "target": Arg("player", "name"), "targets": GLADIATORS},
        _chain_check,
        _chain,
        phases=MAIN,
        wrong_phase=IN_MAIN,
    ),
    Move(
        "end_main",
        text("Termina la fase principal.", "End the main phase."),
        {},
        _nothing,
        _end_main,
        phases=MAIN,
        candidates=_one,
        wrong_phase=IN_MAIN,
    ),
    Move(
        "discard_gladiator",
        text("Descarta un gladiador que no cabe.", "Discard a gladiator you cannot house."),
        {"gladiator": GLADIATOR},
        _discard_check,
        _discard_gladiator,
        phases=("auction",),
        candidates=_my_gladiators,
        wrong_phase=text("eso se hace al empezar la fase de subasta", "that belongs to the start of the auction phase"),
    ),
    Move(
        "start_auction",
        text("Revela veteranos para subastar.", "Reveal veterans to auction."),
        {},
        _start_auction_check,
        _start_auction,
        phases=("auction",),
        candidates=_one,
        wrong_phase=text("eso se hace al empezar la fase de subasta", "that belongs to the start of the auction phase"),
    ),
    Move(
        "pick",
        text("Elige el veterano que se subasta.", "Pick the veteran to auction."),
        {"gladiator": Arg("name", "veteran id")},
        _pick_check,
        _pick,
        phases=("auction",),
        candidates=_pick_candidates,
        wrong_phase=text("no hay veteranos por elegir", "there are no veterans to pick from"),
    ),
    Move(
        "bid",
        text("Puja en la subasta.", "Bid in the auction."),
        {"player": Arg("player", "name"), "amount": Arg("int", "int", lo=0, hi=10_000)},
        _bid_check,
        _bid,
        phases=("auction",),
        active=False,
        candidates=_bid_candidates,
        wrong_phase=text("no hay ninguna puja abierta", "no bidding is open"),
    ),
    Move(
        "pass",
        text("No pujes.", "Do not bid."),
        {"player": Arg("player", "name")},
        _pass_check,
        _pass,
        phases=("auction",),
        active=False,
        candidates=_pass_candidates,
        wrong_phase=text("no hay ninguna puja abierta", "no bidding is open"),
    ),
    Move(
        "end_turn",
        text("Termina el turno.", "End the turn."),
        {},
        _end_turn_check,
        _end_turn,
        phases=("auction", "end"),
        candidates=_one,
        wrong_phase=text("termina antes la fase principal", "end the main phase first"),
    ),
    final_record_move(),
)


class Player(TypedDict):
    """A Gladiadores player: coins, wins, buildings, gladiators, and (derived) score and room."""

    name: str
    coins: int
    combat_wins: int
    defence_wins: int
    buildings: list[str]
    gladiators: list[dict[str, Any]]
    score: int
    capacity: int
    glad_stats: dict[str, dict[str, int]]
    removable: list[str]


class GladiadoresState(State):
    """A Gladiadores state: the centre's pools, the auction, the target."""

    target: int
    expansion: bool
    turn: int
    centre: dict[str, Any]
    next_uid: int
    auction: dict[str, Any] | None
    chained: list[Any]
    turn_flags: dict[str, Any]
    max_buildings: int


DEFINITION = GameDefinition(GAME, MOVES, setup, record, _start_turn, end, GladiadoresState, Player, derive=derive)
ACTIONS = DEFINITION.actions

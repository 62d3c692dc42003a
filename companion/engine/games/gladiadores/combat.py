"""The ``fight`` move: the attacker pays, the combat card is the table's or the top of the seeded pile
(one redraw with the right card or building), higher attack wins, the loser may die, be spared by
the crowd or be saved for coins."""

from __future__ import annotations

import random

from ...common import log, name_of, need, player_index, text
from ...errors import BadArgument, NotAllowed
from .ludus import _applies, _building_effects, _effects, _glad, _me, _own_glad, stat


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
    card = _combat_card(state, a, seat, att, rng, data)
    attack = stat(state, seat, att, rules["attack"]["stat"], data, "attack") + card[rules["attack"]["card"]]
    defence = stat(state, other, dfd, rules["defence"]["stat"], data, "defence") + card[rules["defence"]["card"]]
    won = attacker_wins(attack, defence, rules)
    if rules["attacker_exhausts"]:
        att["ready"] = False
    if rules["defender_exhausts"]:
        dfd["ready"] = False
    win_seat, win_g, lose_seat, lose_g = (seat, att, other, dfd) if won else (other, dfd, seat, att)
    who = state["players"][win_seat]["name"]
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
        _loser_falls(state, (win_seat, win_g), (lose_seat, lose_g), data)


def _combat_card(state: dict, a: dict, seat: int, att: dict, rng: random.Random, data) -> dict:
    """The fight's combat card, which ends on the discard: the one revealed at the table (it leaves the
    pile the engine keeps in step), else the top of the seeded pile, drawn again once when allowed."""
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
    return card


def _loser_falls(state: dict, winner: tuple[int, dict], loser: tuple[int, dict], data) -> None:
    """The losing gladiator would die: the crowd spares it (more favour than the winner's, when the
    rules say so), or its owner pays to save it (a building that saves), or it dies and goes back to
    the centre (a Tiro) or the veterans' discard."""
    (win_seat, win_g), (lose_seat, lose_g) = winner, loser
    death = data.meta["combat"]["death"]
    whom = state["players"][lose_seat]["name"]
    spared = death["spared_if_favor_above_winner"] and stat(state, lose_seat, lose_g, "favor", data) > stat(
        state, win_seat, win_g, "favor", data
    )
    owner = state["players"][lose_seat]
    saves = _building_effects(state, lose_seat, data, "save")
    if spared:
        log(state, "El público indulta al perdedor", "The crowd spares the loser")
    elif saves and owner["coins"] >= saves[0].get("cost_coins", 0):
        owner["coins"] -= saves[0].get("cost_coins", 0)
        lose_g["ready"] = False
        log(state, f"{whom} paga para salvar a su gladiador", f"{whom} pays to save their gladiator")
    else:
        owner["gladiators"].remove(lose_g)
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

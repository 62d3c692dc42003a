"""Ciudadelas' moves, each declared once (arguments, phases, one precondition, one effect): the
draft's pick, the crown's call, a turn's gold or cards, income, building, the characters' powers,
the purple districts' uses, the Graveyard, ending the turn; ``adjust`` and ``final_record`` as
every game has them."""

from __future__ import annotations

import random

from ...common import Arg, Move, adjust_move, declare, final_record_move, log, name_of, need, text
from ...errors import BadArgument, Duplicate, LimitReached, NotAllowed, NotEnough, WrongPhase
from .city import (RESOURCES, _abilities, city_complete, _district, _district_by_id, _meta, _seat, build_cost,
                   districts_in_play, districts_of_deck, draw_terms, may_add_duplicate)
from .draft import _choose, _choose_candidates, _choose_check
from .powers import (_character_candidates, _count_candidates, _destroy, _destroy_candidates, _destroy_check,
                     _discard_and_draw, _discard_check, _exchange_check, _exchange_hand, _murder, _murder_check,
                     _player_candidates, _reclaim, _reclaim_candidates, _reclaim_check, _steal, _steal_check)
from .turns import _call, _end_turn


def _nothing(state: dict, a: dict, data) -> None:
    """A move with no precondition beyond its phase and whose turn it is."""


def _resource_check(state: dict, a: dict, data) -> None:
    if state["turn"]["resource"]:
        raise LimitReached(text("ya cogiste oro o cartas este turno", "you already took gold or cards this turn"))


def _take_gold(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    amount = _meta(data)["take_gold"]
    player["gold"] += amount
    state["turn"]["resource"] = True
    log(state, f"{player['name']} coge {amount} de oro", f"{player['name']} takes {amount} gold")


def _draw_cards(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    draw, keep = draw_terms(state, data, seat)
    player["hand"] += keep
    state["turn"]["resource"] = True
    log(state, f"{player['name']} roba {draw} cartas y se queda {keep}",
        f"{player['name']} draws {draw} cards and keeps {keep}")


def _income_check(state: dict, a: dict, data) -> None:
    if state["turn"]["income"]:
        raise LimitReached(text("ya cobraste este turno", "you already collected income this turn"))
    char = data.get("character", state["turn"]["character"])
    if not char.get("income_colour") and not char.get("bonus_gold"):
        raise NotAllowed(text(f"{name_of(char)} no cobra por color", f"{name_of(char, 'en')} has no income"))


def _income(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    char = data.get("character", state["turn"]["character"])
    colour = char.get("income_colour")
    amount = char.get("bonus_gold", 0)
    if colour:
        for did in player["city"]:
            d = _district_by_id(data, did)
            if d["colour"] == colour or "income_any_colour" in _abilities(d):
                amount += 1
    player["gold"] += amount
    state["turn"]["income"] = True
    log(state, f"{player['name']} cobra {amount} de oro", f"{player['name']} collects {amount} gold")


def _build_check(state: dict, a: dict, data) -> None:
    seat, player = _seat(state)
    turn = state["turn"]
    district = _district(state, data, a["district"])
    if not turn["resource"]:
        raise WrongPhase(text("primero coge oro o cartas", "take gold or cards first"))
    if turn["builds"] >= turn["max_builds"]:
        raise LimitReached(text(f"ya construiste {turn['builds']} distrito(s) este turno",
                                f"you already built {turn['builds']} district(s) this turn"))
    if district["id"] in player["city"] and not may_add_duplicate(state, data, seat):
        raise Duplicate(text(f"{player['name']} ya tiene {name_of(district)}",
                             f"{player['name']} already has {name_of(district, 'en')}"))
    if player["hand"] < 1:
        raise NotEnough(text(f"{player['name']} no tiene cartas en la mano", f"{player['name']} has no cards in hand"))
    need(player, "gold", build_cost(state, data, seat, district), "oro", "gold")


def _build(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    district = _district(state, data, a["district"])
    cost = build_cost(state, data, seat, district)
    player["gold"] -= cost
    player["hand"] -= 1
    player["city"].append(district["id"])
    player["built_round"][district["id"]] = state["round"]
    state["turn"]["builds"] += 1
    log(state, f"{player['name']} construye {name_of(district)} ({cost})",
        f"{player['name']} builds {name_of(district, 'en')} ({cost})")
    built = sum(p["city"].count(district["id"]) for p in state["players"])
    if built > district.get("copies", 1):  # the table is the truth: recorded, and said
        from ...scoring.ciudadelas import too_many_copies

        words = too_many_copies(district["name"], district.get("copies", 1), built)
        log(state, words["es"], words["en"], notice=True)
    if city_complete(data, player["city"]) and state["first_complete"] is None:
        state["first_complete"] = seat
        state["last_round"] = True
        log(state, f"¡{player['name']} completa su ciudad! Esta es la última ronda",
            f"{player['name']} completes their city! This is the last round")


def _use_check(state: dict, a: dict, data) -> None:
    seat, player = _seat(state)
    district = _district(state, data, a["district"])
    if district["id"] not in player["city"]:
        raise BadArgument(text(f"{player['name']} no tiene {name_of(district)}",
                               f"{player['name']} has no {name_of(district, 'en')}"))
    if district["id"] in state["turn"]["districts_used"]:
        raise LimitReached(text(f"{name_of(district)} ya se usó este turno",
                                f"{name_of(district, 'en')} was used this turn"))
    abilities = _abilities(district)
    if "discard_for_gold" in abilities:
        if player["hand"] < 1:
            raise NotEnough(text(f"{player['name']} no tiene cartas", f"{player['name']} has no cards"))
    elif "pay_for_cards" in abilities:
        need(player, "gold", (district.get("params") or {}).get("pay", 0), "oro", "gold")
    else:
        raise NotAllowed(text(f"{name_of(district)} no se usa así", f"{name_of(district, 'en')} has no use like that"))


def _use_district(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    district = _district(state, data, a["district"])
    params = district.get("params") or {}
    if "discard_for_gold" in _abilities(district):
        player["hand"] -= 1
        player["gold"] += params.get("gold", 1)
    else:
        player["gold"] -= params.get("pay", 0)
        player["hand"] += params.get("draw", 1)
    state["turn"]["districts_used"].append(district["id"])
    log(state, f"{player['name']} usa {name_of(district)}", f"{player['name']} uses {name_of(district, 'en')}")


def _own_district_candidates(state: dict, data) -> list[dict]:
    return [{"district": did} for did in dict.fromkeys(state["players"][state["active"]]["city"])]


def _one(state: dict, data) -> list[dict]:
    return [{}]


def _districts(state: dict, data) -> list[dict]:
    return [{"district": d["id"]} for d in districts_in_play(state, data)]


NOT_A_TURN = text("no es el turno de ningún personaje", "no character's turn is under way")

CHARACTER = Arg("name", "character (name or number)")

TURN = ("turn",)

MOVES: dict[str, Move] = declare(
    adjust_move(lambda data: RESOURCES, "gold|hand"),
    final_record_move(),
    Move("choose", text("Elige en secreto un personaje.", "Pick a character in secret."),
         {"character": CHARACTER,
          "discard": Arg("name", "character (optional: needed by the picks that also discard, 2 players)",
                         optional=True)},
         _choose_check, _choose, phases=("choose",), candidates=_choose_candidates,
         wrong_phase=text("ahora no se eligen personajes", "characters are not being picked now")),
    Move("call", text("La corona llama al siguiente personaje.", "The crown calls the next character."), {},
         _nothing, _call, phases=("call",), active=False, candidates=_one,
         wrong_phase=text("ahora no se llama a personajes", "characters are not being called now")),
    Move("take_gold", text("Coge oro de la banca.", "Take gold from the bank."), {},
         _resource_check, _take_gold, phases=TURN, candidates=_one, wrong_phase=NOT_A_TURN),
    Move("draw_cards", text("Roba cartas de distrito y quédate las que toque.",
                            "Draw district cards and keep as many as allowed."),
         {}, _resource_check, _draw_cards, phases=TURN, candidates=_one, wrong_phase=NOT_A_TURN),
    Move("income", text("Cobra por los distritos del color de tu personaje.",
                        "Collect gold for your character's colour."),
         {}, _income_check, _income, phases=TURN, candidates=_one, wrong_phase=NOT_A_TURN),
    Move("build", text("Construye un distrito pagando su coste.", "Build a district, paying its cost."),
         {"district": Arg("name", "district")}, _build_check, _build, phases=TURN, candidates=_districts,
         wrong_phase=NOT_A_TURN),
    Move("murder", text("Asesina a un personaje.", "Murder a character."), {"character": CHARACTER},
         _murder_check, _murder, phases=TURN, candidates=_character_candidates, wrong_phase=NOT_A_TURN),
    Move("steal", text("Roba el oro de un personaje.", "Steal a character's gold."), {"character": CHARACTER},
         _steal_check, _steal, phases=TURN, candidates=_character_candidates, wrong_phase=NOT_A_TURN),
    Move("exchange_hand", text("Cambia tu mano por la de otro jugador.", "Swap hands with another player."),
         {"target": Arg("player", "name")}, _exchange_check, _exchange_hand, phases=TURN,
         candidates=_player_candidates, wrong_phase=NOT_A_TURN),
    Move("discard_and_draw", text("Descarta cartas y roba otras tantas.", "Discard cards and draw as many."),
         {"count": Arg("int", "int", lo=1, hi=lambda data: len(districts_of_deck(data)))},
         _discard_check, _discard_and_draw, phases=TURN, candidates=_count_candidates, wrong_phase=NOT_A_TURN),
    Move("destroy", text("Destruye un distrito de otra ciudad.", "Destroy a district in another city."),
         {"target": Arg("player", "name"), "district": Arg("name", "district")}, _destroy_check, _destroy,
         phases=TURN, candidates=_destroy_candidates, wrong_phase=NOT_A_TURN),
    Move("use_district", text("Usa un distrito púrpura (Laboratorio, Herrería).",
                              "Use a purple district (Laboratory, Smithy)."),
         {"district": Arg("name", "district")}, _use_check, _use_district, phases=TURN,
         candidates=_own_district_candidates, wrong_phase=NOT_A_TURN),
    Move("reclaim", text("Recupera en la mano el distrito destruido (Cementerio).",
                         "Take the destroyed district into your hand (Graveyard)."),
         {"player": Arg("player", "name")}, _reclaim_check, _reclaim, active=False, candidates=_reclaim_candidates),
    Move("end_turn", text("Termina el turno.", "End the turn."), {}, _nothing, _end_turn, phases=TURN,
         candidates=_one, wrong_phase=NOT_A_TURN),
)

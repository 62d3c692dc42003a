"""Gladiadores' moves, each declared once (arguments, phases, one precondition, one effect): in the
main phase fight, work, build, demolish, destroy, chain and its end; in the auction discard, reveal,
pick, bid, pass; end the turn. ``adjust`` corrects a counter or who owns a building;
``final_record`` as every game has it."""

from __future__ import annotations

import random

from ...common import Arg, Move, declare, final_record_move, log, name_of, player_index, text
from ...errors import BadArgument, LimitReached, NotAllowed, NotEnough
from .adjust import ADJUST
from .auction import (_bid, _bid_candidates, _bid_check, _discard_check, _discard_gladiator, _pass,
                      _pass_candidates, _pass_check, _pick, _pick_candidates, _pick_check, _start_auction,
                      _start_auction_check)
from .combat import _fight, _fight_candidates, _fight_check
from .construction import (_build, _build_candidates, _build_check, _demolish, _demolish_check, _destroy,
                           _destroy_check)
from .ludus import _building_effects, _effects, _glad, _me, _own_glad, stat
from .turns import _end_main, _end_turn, _end_turn_check


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


MAIN = ("main",)

IN_MAIN = text("eso se hace en la fase principal", "that belongs to the main phase")

GLADIATOR = Arg("name", "uid")

GLADIATORS = Arg("list", "[uid, ...]")

BUILDING = Arg("name", "building")

MOVES: dict[str, Move] = declare(
    ADJUST,
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

"""Ciudadelas (classic Citadels): rounds of secret character picks, then the characters called 1 to 8.

Phases of a round: ``choose`` (the draft: discards from ``game.character_draft`` for the player count,
then picks from the crown holder to the left), ``call`` (the crown calls every number 1..8; nobody
answers for a character nobody took or the murdered one), ``turn`` (the revealed player's turn).
A city reaching ``complete_city`` districts makes the round the last; then the game is scored by
``companion.engine.scoring``.  Every number comes from ``cards/ciudadelas``.

Cards in hand are hidden at the table: the state only keeps how many each player holds.
"""

from __future__ import annotations

import random
from typing import Any, TypedDict

from ..caller import characters, next_call
from ..common import (Arg, Move, Text, adjust_move, declare, final_record_move, find_entry, log,
                      name_of, need, next_seat, player_index, text)
from ..errors import BadArgument, Duplicate, LimitReached, NotAllowed, NotEnough, NotYourTurn, WrongPhase
from ..definition import GameDefinition, Outcome, State
from ..final import finish
from ..setup import setup_options

GAME = "ciudadelas"
RESOURCES = {"gold": text("oro", "gold"), "hand": text("cartas en mano", "cards in hand")}

# -- data access ---------------------------------------------------------------------------------

def _meta(data) -> dict:
    return data.meta


def _district_kinds(state: dict, data) -> tuple[str, ...]:
    return ("district", "dark_district") if state["options"].get("dark_city") else ("district",)


def districts_in_play(state: dict, data) -> list[dict]:
    """Every district kind that may be built in this game (the Dark City ones when it is on)."""
    return [d for kind in _district_kinds(state, data) for d in data.entries(kind)]


def district(data, district_id: str) -> dict:
    """A district of the base deck or of the Dark City by its id."""
    return _district_by_id(data, district_id)


def _district(state: dict, data, name: Any) -> dict:
    return find_entry(data, _district_kinds(state, data), name,
                      text("'district' debe ser un nombre de distrito", "'district' must be a district name"),
                      text("distrito desconocido", "unknown district"))


def _district_by_id(data, district_id: str) -> dict:
    for kind in ("district", "dark_district"):
        if kind in data.kinds:
            for d in data.entries(kind):
                if d["id"] == district_id:
                    return d
    raise KeyError(district_id)


def _character(data, name: Any) -> dict:
    if not isinstance(name, (str, int)) or isinstance(name, bool):
        raise BadArgument(text("'character' debe ser un personaje", "'character' must be a character"))
    if isinstance(name, int) or (isinstance(name, str) and name.isdigit()):
        for c in data.entries("character"):
            if c["number"] == int(name):
                return c
        raise BadArgument(text(f"no hay personaje número {name}", f"no character number {name}"))
    try:
        return data.find("character", name)
    except LookupError as exc:
        raise BadArgument(text(f"personaje desconocido: {exc}", f"unknown character: {exc}")) from None


def _characters(data) -> list[dict]:
    return characters(data)


def _draft_rule(data, players: int) -> dict:
    rules = _meta(data)["character_draft"]["by_players"]
    rule = rules.get(players, rules.get(str(players)))
    if rule is None:
        raise BadArgument(text(f"no hay reglas de reparto de personajes para {players} jugadores",
                               f"no character draft rules for {players} players"))
    return rule


def _abilities(district: dict) -> list[str]:
    return list(district.get("abilities") or [])


def _city_has(state: dict, data, seat: int, ability: str) -> dict | None:
    for did in state["players"][seat]["city"]:
        d = _district_by_id(data, did)
        if ability in _abilities(d):
            return d
    return None


# -- setup and rounds ----------------------------------------------------------------------------

def setup(players: list[str], options: dict, rng: random.Random, data) -> dict:
    """Deal gold and cards, hand the crown (``options["crown"]`` or at random), start round 1."""
    meta = _meta(data)
    options = setup_options(data, players, options)
    state: dict[str, Any] = {
        "game": GAME,
        "options": {"dark_city": bool(options["dark_city"])},
        "players": [{"name": n, "gold": meta["starting_gold"], "hand": meta["starting_cards"],
                     "city": [], "built_round": {}} for n in players],
        "round": 0, "phase": "choose", "active": None, "finished": False, "final": None,
        "first_complete": None, "last_round": False, "log": [],
    }
    if options["crown"] is not None:
        state["crown"] = player_index(state, options["crown"], "crown")
    else:
        state["crown"] = rng.randrange(len(players))
    state["first_player"] = state["crown"]
    _start_round(state, rng, data)
    return state


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


def destroy_price(state: dict, data, owner: int, district: dict, char: dict) -> int:
    """What the Warlord pays to destroy ``district`` in ``owner``'s city: its cost minus the
    character's discount, plus the surcharge of a Great Wall standing in that city (not itself)."""
    price = max(0, district["cost"] - char.get("destroy_discount", 0))
    wall = _city_has(state, data, owner, "destroy_surcharge")
    if wall and wall["id"] != district["id"]:
        price += wall["params"].get("surcharge", 0)
    return price


def destroy_targets(state: dict, data) -> list[dict]:
    """Every district the active Warlord may destroy now, with its price and whether it is affordable:
    ``[{"target": name, "seat": i, "district": id, "price": n, "affordable": bool}]``; derived from
    the ``destroy`` move's precondition (what it refuses only for want of gold is listed unaffordable)."""
    if state["phase"] != "turn" or state.get("active") is None:
        return []
    char = data.get("character", state["turn"]["character"])
    out = []
    for candidate in _destroy_candidates(state, data):
        reason = MOVES["destroy"].refusal(state, {"action": "destroy", **candidate}, data)
        if reason is None or isinstance(reason, NotEnough):  # listed, disabled, when only gold is short
            other = player_index(state, candidate["target"])
            price = destroy_price(state, data, other, _district_by_id(data, candidate["district"]), char)
            out.append({**candidate, "seat": other, "price": price, "affordable": reason is None})
    return out


def build_cost(state: dict, data, seat: int, district: dict) -> int:
    """What ``seat`` pays to build ``district`` (a purple discount from their city applies)."""
    cost = district["cost"]
    discount = _city_has(state, data, seat, "purple_discount")
    if discount and district["colour"] == "purple" and discount["id"] != district["id"]:
        cost = max(0, cost - discount["params"].get("discount", 0))
    return cost


def _usable(district: dict) -> bool:
    return bool({"discard_for_gold", "pay_for_cards"} & set(_abilities(district)))


def derive(state: dict, data) -> None:
    """Numbers the table shows, worked out here so the screens do no rules: each player's score and
    city points (the end-of-game scoring of the state now), each city's colours, each player's
    ``usable`` districts, and whether the next draft pick also discards."""
    from ..scoring.ciudadelas import CityEnd, breakdown  # the scoring package loads when first needed

    now = record(state, data)
    for p, end in zip(state["players"], now["players"]):
        lines = breakdown(CityEnd(end["name"], tuple(end["city"]), end["gold"], frozenset(end["built_last_round"]),
                                  end["hand"], 0, tuple(end["characters"])), data, now.get("first_complete"))
        p["score"], p["city_points"] = sum(lines.values()), lines["districts"]
    for p in state["players"]:
        city = [_district_by_id(data, d) for d in p["city"]]
        p["city_colours"] = sorted({d["colour"] for d in city})
        p["usable"] = [d["id"] for d in city if _usable(d)]
    draft = state.get("draft")
    if draft is not None:
        rule = _draft_rule(data, len(state["players"]))
        draft["needs_discard"] = (state["phase"] == "choose"
                                  and draft["picks_made"] + 1 in (rule.get("discards_after_picks") or []))
        draft["face_down_choices"] = face_down_choices(state, data)


def face_down_choices(state: dict, data) -> list[str]:
    """The face-down characters the player picking now may take instead (the draft table's
    ``last_may_take_face_down``: the last pick, 7 players); none otherwise."""
    draft = state.get("draft")
    if state["phase"] != "choose" or not draft or draft["picks_made"] + 1 != draft["picks_total"]:
        return []
    return list(draft["face_down"]) if _draft_rule(data, len(state["players"])).get("last_may_take_face_down") else []


def may_add_duplicate(state: dict, data, seat: int) -> bool:
    """Whether ``seat`` may build a district their city already holds (``duplicate_districts``, or a
    Quarry with a repeat left): the one rule the build move and the scoring share."""
    from ..scoring.ciudadelas import repeats_allowed  # the scoring package loads when first needed

    city = state["players"][seat]["city"]
    allowed = repeats_allowed(data, city)
    return allowed is None or len(city) - len(set(city)) < allowed


# -- moves: each declared once (arguments, phase, one precondition, effect) --------------------------

def _seat(state: dict) -> tuple[int, dict]:
    seat = state["active"]
    return seat, state["players"][seat]


def _needs_discard(state: dict, data) -> bool:
    rule = _draft_rule(data, len(state["players"]))
    return state["draft"]["picks_made"] + 1 in (rule.get("discards_after_picks") or [])


def _choose_check(state: dict, a: dict, data) -> None:
    draft = state["draft"]
    char = _character(data, a["character"])
    if char["id"] not in draft["available"] + face_down_choices(state, data):
        where = "boca arriba" if char["id"] in draft["face_up"] else "ya elegido o boca abajo"
        where_en = "face up" if char["id"] in draft["face_up"] else "already taken or face down"
        raise NotAllowed(text(f"{name_of(char)} no se puede elegir ({where})",
                              f"{name_of(char, 'en')} cannot be picked ({where_en})"))
    if _needs_discard(state, data):
        if a["discard"] is None:
            raise BadArgument(text("a la acción 'choose' le falta 'discard' (esta elección también descarta)",
                                   "action 'choose' needs 'discard' (this pick also discards)"))
        discard = _character(data, a["discard"])
        if discard["id"] == char["id"] or discard["id"] not in draft["available"]:
            raise NotAllowed(text(f"{name_of(discard)} no se puede descartar",
                                  f"{name_of(discard, 'en')} cannot be discarded"))


def _choose(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, _ = _seat(state)
    draft = state["draft"]
    cid = _character(data, a["character"])["id"]
    discard = _character(data, a["discard"])["id"] if _needs_discard(state, data) else None
    if cid in draft["available"]:
        draft["available"].remove(cid)
    else:
        draft["face_down"].remove(cid)
        draft["face_down"].extend(draft["available"])
        draft["available"] = []
    if discard is not None:
        draft["available"].remove(discard)
        draft["discarded_during"].append(discard)
    state["picks"][seat].append(cid)
    draft["picks_made"] += 1
    player = state["players"][seat]["name"]
    log(state, f"{player} elige personaje", f"{player} picks a character")
    if draft["picks_made"] == draft["picks_total"]:
        draft["face_down"].extend(draft["available"])
        draft["available"] = []
        state["phase"] = "call"
        state["active"] = None
    else:
        state["active"] = next_seat(state, seat)


def _choose_candidates(state: dict, data) -> list[dict]:
    name = state["players"][state["active"]]["name"]
    ids = [c["id"] for c in _characters(data)]
    if _needs_discard(state, data):
        return [{"player": name, "character": c, "discard": d} for c in ids for d in ids if d != c]
    return [{"player": name, "character": c} for c in ids]


def _nothing(state: dict, a: dict, data) -> None:
    """A move with no precondition beyond its phase and whose turn it is."""


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


def _resource_check(state: dict, a: dict, data) -> None:
    if state["turn"]["resource"]:
        raise LimitReached(text("ya cogiste oro o cartas este turno", "you already took gold or cards this turn"))


def _take_gold(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    amount = _meta(data)["take_gold"]
    player["gold"] += amount
    state["turn"]["resource"] = True
    log(state, f"{player['name']} coge {amount} de oro", f"{player['name']} takes {amount} gold")


def draw_terms(state: dict, data, seat: int) -> tuple[int, int]:
    """How many cards ``seat`` draws and keeps when taking cards (an Observatory draws more, a Library
    keeps them all): what ``draw_cards`` does and its button says."""
    meta = _meta(data)
    draw, keep = meta["draw_cards"], meta["keep_cards"]
    extra = _city_has(state, data, seat, "extra_draw")
    if extra:
        draw, keep = extra["params"].get("draw", draw), extra["params"].get("keep", keep)
    if _city_has(state, data, seat, "keep_all_drawn"):
        keep = draw
    return draw, keep


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
        from ..scoring.ciudadelas import too_many_copies

        words = too_many_copies(district["name"], district.get("copies", 1), built)
        log(state, words["es"], words["en"], notice=True)
    if len(player["city"]) >= _meta(data)["complete_city"] and state["first_complete"] is None:
        state["first_complete"] = seat
        state["last_round"] = True
        log(state, f"¡{player['name']} completa su ciudad! Esta es la última ronda",
            f"{player['name']} completes their city! This is the last round")


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
    if char.get("spares_complete_cities") and len(victim["city"]) >= _meta(data)["complete_city"]:
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


def _end_turn(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, player = _seat(state)
    state["phase"] = "call"
    state["active"] = None
    state["turn"] = None
    log(state, f"{player['name']} termina su turno", f"{player['name']} ends their turn")
    if state["called"] == len(_characters(data)):
        _end_round(state, rng, data)


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


def districts_of_deck(data) -> list[dict]:
    """Every district card of the base deck and the Dark City, each copy counted."""
    return [d for kind in ("district", "dark_district") if kind in data.kinds
            for d in data.entries(kind) for _ in range(d.get("copies", 1))]


def _graveyard_passes(state: dict, move: Move) -> None:
    """The Graveyard's chance passes with the next action (other than reclaiming or a correction)."""
    if move.name not in ("reclaim", "adjust"):
        state["pending_reclaim"] = None



class Player(TypedDict):
    """A Ciudadelas player: what they hold, and (derived) their score and city."""

    name: str
    gold: int
    hand: int
    city: list[str]
    built_round: dict[str, int]
    characters: list[str]
    score: int
    city_points: int
    city_colours: list[str]
    usable: list[str]


class _Called(State, total=False):
    last_call: dict[str, Any]   # from the first call of a character on


class CiudadelasState(_Called):
    """A Ciudadelas state: the draft, the characters called, who holds the crown."""

    options: dict[str, Any]
    crown: int
    draft: dict[str, Any] | None
    picks: list[list[str]]
    called: int
    calling: dict[str, Any] | None
    turn: dict[str, Any] | None
    murdered: str | None
    robbed: str | None
    robbed_by: str | None
    protected: int | None
    pending_reclaim: dict[str, Any] | None
    first_complete: int | None
    last_round: bool


DEFINITION = GameDefinition(GAME, MOVES, setup, record, _start_turn, end, CiudadelasState, Player,
                            derive=derive, before_move=_graveyard_passes)
ACTIONS = DEFINITION.actions

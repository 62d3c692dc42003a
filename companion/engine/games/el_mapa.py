"""El Mapa: the table companion keeps each realm's resources, castles, troops and points.

The map itself lies on the table; the engine keeps what the players need counted.  A turn begins
(automatically) with recruitment, every castle's timers moving on (levy every turn from the castle,
soldier/archer/knight from their buildings every ``recruit_every`` turns; the Armería variant
doubles), scattered troops coming home, and production (mines, gold buildings, spells).  Then the
active player hires, trades with the bank (a Market needed; limit villages + Markets), builds (one
per castle per turn, slot level and the "two below" rule from the castle board), reports revealed
tiles, claimed villages/mines/spell tiles, treasures (rolled on the seeded die) and battles.  The
turn in which a wonder is built or the last tile is revealed is the last.  Numbers come from
``cards/el_mapa``.
"""

from __future__ import annotations

import random
from typing import Any, TypedDict

from ..common import (Arg, Move, adjust_move, declare, final_record_move, find_entry, log, name_of,
                      pass_turn, player_index, text)
from ..errors import BadArgument, Duplicate, LimitReached, NotAllowed, NotEnough
from ..definition import GameDefinition, Outcome, State
from ..final import finish
from ..setup import setup_options

GAME = "el_mapa"
#: Beside the data's resources, ``adjust`` corrects the revealed-tile count (a tally, not a resource).
TALLIES = {"tiles_revealed": text("losetas reveladas", "revealed tiles")}

#: Why the last turn came (``state["last_turn_reason"]``), as words.
REASONS = {"maravilla": text("se construyó una maravilla", "a wonder was built"),
           "ultima_ficha": text("se reveló la última loseta", "the last tile was revealed")}

# -- data ----------------------------------------------------------------------------------------

def _troops(data) -> list[dict]:
    return data.entries("troop")


def resources(data) -> dict[str, dict]:
    """The data's resources by id (``oro``, ``madera``, ``piedra``, ``hechizo``): the players' stocks."""
    return {r["id"]: r for r in data.entries("resource")}


def counter_ids(data) -> list[str]:
    """Resources kept as counters (mined, traded, scored); the others are cards (spells)."""
    return [r["id"] for r in data.entries("resource") if r.get("form") == "counter"]


def spell_id(data) -> str:
    """The resource that spell tiles and magic buildings produce (the one drawn as cards)."""
    return next(r["id"] for r in data.entries("resource") if r.get("form") == "card")


def spell_levels(data) -> list[int]:
    """The spell levels: those of the tech cards (a spell tile gives a spell of its level)."""
    return sorted({c["level"] for c in data.entries("tech_card")})


def adjustable(data) -> dict[str, dict]:
    """What ``adjust`` may correct: every resource (its data name) and the revealed tiles."""
    return {**{rid: dict(r["name"]) for rid, r in resources(data).items()}, **TALLIES}


def trade_building(data) -> dict | None:
    """The building needed to trade with the bank (``trade.needs_building``), or None."""
    needs = data.meta["trade"].get("needs_building")
    return data.get("building", needs) if needs else None


def may_trade(player: dict, data) -> bool:
    """Whether a player owns what trading needs."""
    needs = trade_building(data)
    return needs is None or needs["id"] in _buildings_of(player)


def _bld(data, name: Any, state: dict | None = None) -> dict:
    entry = find_entry(data, "building", name,
                       text("'building' debe ser un nombre de edificio", "'building' must be a building name"),
                       text("edificio desconocido", "unknown building"))
    if state is not None and not _in_play(state, entry):
        raise NotAllowed(text(f"{name_of(entry)} es de una variante que no se juega",
                              f"{name_of(entry, 'en')} belongs to a variant not in play"))
    return entry


def _troop(data, name: Any) -> dict:
    return find_entry(data, "troop", name, text("'troop' debe ser una tropa", "'troop' must be a troop"),
                      text("tropa desconocida", "unknown troop"))


def _slots(data) -> list[dict]:
    return data.get("board", "castillo")["slots"]


def _counts(data, value: Any, field: str) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadArgument(text(f"'{field}' es un objeto {{tropa: número}}",
                               f"'{field}' is an object {{troop: number}}"))
    out: dict[str, int] = {}
    for name, n in value.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise BadArgument(text(f"'{field}.{name}' debe ser un número >= 0",
                                   f"'{field}.{name}' must be a number >= 0"))
        tid = _troop(data, name)["id"]
        out[tid] = out.get(tid, 0) + n
    return out


def amounts_text(amounts: dict[str, int], data, lang: str) -> str:
    """``{"oro": 2, "leva": 1}`` as readable words, e.g. "2 Oro, 1 Leva" / "2 Gold, 1 Levy" ("nada"/"nothing")."""
    troops = {t["id"]: t for t in _troops(data)}
    parts = []
    for key, n in amounts.items():
        if not n:
            continue
        names = adjustable(data)
        label = names[key][lang] if key in names else name_of(troops[key], lang) if key in troops else key
        parts.append(f"{n} {label}")
    return ", ".join(parts) or ("nada" if lang == "es" else "nothing")


def _log_amounts(state: dict, es: str, en: str, amounts: dict[str, int], data) -> None:
    """A log line ending in amounts, each language with its own words (``{}`` marks where)."""
    log(state, es.replace("{}", amounts_text(amounts, data, "es")), en.replace("{}", amounts_text(amounts, data, "en")))


def _buildings_of(player: dict) -> list[str]:
    return [b for c in player["castles"] for b in c["slots"].values()]


def _new_castle(data) -> dict:
    levy = [t["id"] for t in _troops(data) if t.get("source") == "castle"]
    return {"slots": {}, "timers": {t: 0 for t in levy}, "built_this_turn": False}


def _army_limit(state: dict, seat: int, data) -> int:
    p = state["players"][seat]
    extra = sum(data.get("building", b).get("extra_army", 0) for b in _buildings_of(p))
    return p["villages"] * data.meta["army_limit"]["per_village"] + extra


def _new_army(state: dict, seat: int, data) -> dict:
    """A new, empty army for ``seat`` (hired or mustered alike): beyond the villages' armies it is a
    Storehouse army, which fights only if the data's ``extra_army_can_fight`` says so."""
    p = state["players"][seat]
    storehouse = len(p["armies"]) >= p["villages"] * data.meta["army_limit"]["per_village"]
    army = {"id": f"a{state['next_army']}", "troops": {}, "storehouse": storehouse, "tired": False}
    state["next_army"] += 1
    p["armies"].append(army)
    return army


def _trade_limit(state: dict, seat: int, data) -> int:
    p = state["players"][seat]
    rules = data.meta["trade"]
    markets = sum(1 for b in _buildings_of(p) if data.get("building", b).get("trade_enabled"))
    return p["villages"] * rules["limit_per_village"] + markets * rules["limit_per_market"]


# -- setup and turns -----------------------------------------------------------------------------

def setup(players: list[str], options: dict, rng: random.Random, data) -> dict:
    """Starting resources, a village with its castle, two mines and a levy; a random first player."""
    meta = data.meta
    options = setup_options(data, players, options)
    variants = options["variants"]
    the_map = next(m for m in data.entries("map") if m["players"] == len(players))
    cells = [c for row in the_map["grid"] for c in row]
    face_down = {str(t["level"]) for t in data.entries("tile")}  # a cell coded by a level: a face-down tile
    hidden = sum(1 for c in cells if str(c) in face_down)
    start = meta["starting"]
    state: dict[str, Any] = {
        "game": GAME, "variants": sorted(variants), "map": {"id": the_map["id"], "hidden": hidden, "tiles": hidden},
        "players": [], "phase": "turn", "active": None, "turn": 0, "round": 1, "finished": False,
        "final": None, "log": [], "next_army": 1, "wonders": {}, "last_turn_reason": None,
        "scattered": [], "turn_start": None,
    }
    for name in players:
        p = {"name": name, **{r: 0 for r in resources(data)}, "tiles_revealed": 0,
             "villages": 0, "mines": {r: 0 for r in counter_ids(data)},
             "spell_tiles": {str(level): 0 for level in spell_levels(data)},
             "castles": [], "reserve": {t["id"]: 0 for t in _troops(data)}, "armies": [],
             "defeated": {}, "trained_troops": 0, "trades_used": 0, "turns_played": 0}
        for res, n in start["resources"].items():
            p[res] += n
        for tile in start["tiles"]:
            _take_tile(p, data.get("tile", tile), data)
        state["players"].append(p)
    for p in state["players"]:
        troops = dict(start["troops"])
        p["armies"].append({"id": f"a{state['next_army']}", "troops": troops, "storehouse": False})
        state["next_army"] += 1
    first = options["first"]
    seat = player_index(state, first, "first") if first is not None else rng.randrange(len(players))
    state["first_player"] = seat
    _start_turn(state, seat, rng, data)
    return state


def _take_tile(p: dict, tile: dict, data, sign: int = 1) -> None:
    for content in tile.get("contents") or []:
        if content["type"] == "village":
            p["villages"] += sign
            if sign > 0:
                p["castles"].append(_new_castle(data))
        elif content["type"] == "mine":
            p["mines"][content["resource"]] += sign
        elif content["type"] == "spell_mine":
            p["spell_tiles"][str(content.get("level", tile["level"]))] += sign


def _start_turn(state: dict, seat: int, rng: random.Random, data) -> None:
    """Recruitment timers, scattered troops coming home, then production."""
    state["active"] = seat
    state["turn"] += 1
    p = state["players"][seat]
    p["turns_played"] += 1
    p["trades_used"] = 0
    troops = {t["id"]: t for t in _troops(data)}
    recruited: dict[str, int] = {}
    per = data.meta["production"]["recruit_units_per_period"]
    for castle in p["castles"]:
        castle["built_this_turn"] = False
        factor = max((data.get("building", b).get("training_factor", 1) for b in castle["slots"].values()),
                     default=1)
        for tid in list(castle["timers"]):
            castle["timers"][tid] += 1
            if castle["timers"][tid] >= troops[tid]["recruit_every"]:
                castle["timers"][tid] = 0
                gain = per * factor
                p["reserve"][tid] += gain
                recruited[tid] = recruited.get(tid, 0) + gain
    returned: dict[str, int] = {}
    for group in [g for g in state["scattered"] if g["player"] == seat and g["returns_on"] <= p["turns_played"]]:
        state["scattered"].remove(group)
        for tid, n in group["troops"].items():
            returned[tid] = returned.get(tid, 0) + n
    if returned:
        _muster(state, seat, returned, data)
    prod = data.meta["production"]
    produced = {r: p["mines"][r] * prod["mine_output"] for r in counter_ids(data)}
    built = [data.get("building", b) for b in _buildings_of(p)]
    produced["oro"] += sum(b.get("gold_income", 0) for b in built)
    spells = sum(1 for b in built if b.get("spell_draw")) + prod["spell_mine_output"] * sum(p["spell_tiles"].values())
    for r, n in produced.items():
        p[r] += n
    p[spell_id(data)] += spells
    produced[spell_id(data)] = spells
    state["turn_start"] = {"player": seat, "recruited": recruited, "returned": returned, "produced": produced}
    for army in p["armies"]:
        army["tired"] = False
    gains = {**produced, **recruited}
    _log_amounts(state, f"Turno de {p['name']}: recibe {{}}", f"{p['name']}'s turn: receives {{}}", gains, data)


def _muster(state: dict, seat: int, troops: dict[str, int], data) -> None:
    """Scattered troops reappear at their owner's village: a new army if there is room, else the first."""
    p = state["players"][seat]
    fighting = [a for a in p["armies"] if not a.get("storehouse")]
    if len(p["armies"]) < _army_limit(state, seat, data) or not fighting:
        army = _new_army(state, seat, data)
    else:
        army = fighting[0]
    for tid, n in troops.items():
        army["troops"][tid] = army["troops"].get(tid, 0) + n
    log(state, f"Vuelven tropas dispersas de {p['name']} al ejército {army['id']}",
        f"{p['name']}'s scattered troops come back to army {army['id']}")


def record(state: dict, data) -> dict:
    """The end-of-game record the scoring reads."""
    return {"game": GAME, "players": [
        {"name": p["name"], "buildings": _buildings_of(p), "tiles_revealed": p["tiles_revealed"],
         "defeated": dict(p["defeated"]), "resources": {r: p[r] for r in counter_ids(data)},
         "trained_troops": p["trained_troops"]} for p in state["players"]]}


def derive(state: dict, data) -> None:
    """Numbers the table shows, worked out here so the screens do no rules: per player the bank-trade
    limit and what is left of it, the army limit, the score and battle points (the end-of-game
    scoring of the state now); per castle the turns until each troop is recruited (1 = at the start
    of the owner's next turn)."""
    from ..scoring.el_mapa import RealmEnd, breakdown  # the scoring package loads when first needed

    troops = {t["id"]: t for t in _troops(data)}
    for p, end in zip(state["players"], record(state, data)["players"]):
        lines = breakdown(RealmEnd(end["name"], tuple(end["buildings"]), end["tiles_revealed"], end["defeated"],
                                   end["resources"], end["trained_troops"]), data)
        p["score"], p["battle_points"] = sum(lines.values()), lines["battles"]
    for seat, p in enumerate(state["players"]):
        p["trade_limit"] = _trade_limit(state, seat, data)
        p["trades_left"] = max(0, p["trade_limit"] - p["trades_used"]) if may_trade(p, data) else 0
        p["army_limit"] = _army_limit(state, seat, data)
        for castle in p["castles"]:
            castle["timers_left"] = {tid: max(1, troops[tid]["recruit_every"] - n) for tid,
                                     n in castle["timers"].items()}


def _storehouse_may_fight(player: dict, data) -> bool:
    """Whether the player's Storehouse armies may fight (the data says they may not)."""
    return all(data.get("building", b).get("extra_army_can_fight", True) for b in _buildings_of(player)
               if data.get("building", b).get("extra_army"))


# -- moves: each declared once (arguments, phase, one precondition, effect) --------------------------

def _me(state: dict) -> tuple[int, dict]:
    seat = state["active"]
    return seat, state["players"][seat]


def _afford(p: dict, cost: dict[str, int], data, times: int = 1) -> None:
    """Raise :class:`NotEnough` unless the player can pay ``cost`` ``times`` over."""
    for res, n in cost.items():
        if p[res] < n * times:
            name = resources(data)[res]["name"]
            raise NotEnough(text(f"{p['name']} tiene {p[res]} de {name['es']} y necesita {n * times}",
                                 f"{p['name']} has {p[res]} {name['en']} and needs {n * times}"))


def _pay(p: dict, cost: dict[str, int], times: int = 1) -> None:
    for res, n in cost.items():
        p[res] -= n * times


def _army(p: dict, army_id: Any) -> dict:
    """Army ``army_id`` of player ``p``; refused when they have none of that id."""
    army = next((a for a in p["armies"] if a["id"] == army_id), None)
    if army is None:
        raise BadArgument(text(f"{p['name']} no tiene el ejército '{army_id}'", f"{p['name']} has no army '{army_id}'"))
    return army


def _hire_check(state: dict, a: dict, data) -> None:
    seat, p = _me(state)
    troop = _troop(data, a["troop"])
    count = a["count"]
    if p["reserve"][troop["id"]] < count:
        raise NotEnough(text(f"{name_of(troop)} entrenados: {p['reserve'][troop['id']]}, pides {count}",
                             f"{name_of(troop, 'en')} trained: {p['reserve'][troop['id']]}, you ask for {count}"))
    if a["army"] is None:
        limit = _army_limit(state, seat, data)
        if len(p["armies"]) >= limit:
            raise LimitReached(text(f"ya tienes {len(p['armies'])} ejércitos (límite {limit})",
                                    f"you already have {len(p['armies'])} armies (limit {limit})"))
    else:
        _army(p, a["army"])
    _afford(p, troop["cost"], data, count)


def _hire(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, p = _me(state)
    troop = _troop(data, a["troop"])
    count = a["count"]
    _pay(p, troop["cost"], count)
    p["reserve"][troop["id"]] -= count
    p["trained_troops"] += count
    army = _new_army(state, seat, data) if a["army"] is None else _army(p, a["army"])
    army["troops"][troop["id"]] = army["troops"].get(troop["id"], 0) + count
    log(state, f"{p['name']} contrata {count} {name_of(troop)}", f"{p['name']} hires {count} {name_of(troop, 'en')}")


def _hire_candidates(state: dict, data) -> list[dict]:
    """One of each troop: into a new army when there is room, else into the first army."""
    seat, p = _me(state)
    room = len(p["armies"]) < _army_limit(state, seat, data)
    out = []
    for t in _troops(data):
        if room:
            out.append({"troop": t["id"], "count": 1})
        elif p["armies"]:
            out.append({"troop": t["id"], "count": 1, "army": p["armies"][0]["id"]})
    return out


def _trade_line(a: dict, data) -> dict:
    """The bank's table line for ``give`` -> ``get`` (ids or names), or a BadArgument."""
    names = {r["id"]: r["id"] for r in data.entries("resource")}
    for r in data.entries("resource"):
        for label in r["name"].values():
            names[label.lower()] = r["id"]
    give, get = str(a["give"]).strip().lower(), str(a["get"]).strip().lower()
    give, get = names.get(give, give), names.get(get, get)
    line = next((t for t in data.meta["bank_trades"] if list(t["give"]) == [give] and list(t["get"]) == [get]), None)
    if line is None:
        rates = "; ".join(f"{list(t['give'].values())[0]} {list(t['give'])[0]} -> "
                          f"{list(t['get'].values())[0]} {list(t['get'])[0]}" for t in data.meta["bank_trades"])
        raise BadArgument(text(f"la banca no cambia {give} por {get} (tabla: {rates})",
                               f"the bank does not trade {give} for {get} (table: {rates})"))
    return line


def _trade_check(state: dict, a: dict, data) -> None:
    seat, p = _me(state)
    line = _trade_line(a, data)
    needs = trade_building(data)
    if needs is not None and not may_trade(p, data):
        raise NotAllowed(text(f"necesitas {name_of(needs)} para comerciar",
                              f"you need {name_of(needs, 'en')} to trade"))
    limit = _trade_limit(state, seat, data)
    if p["trades_used"] + a["times"] > limit:
        raise LimitReached(text(f"puedes comerciar {limit} vez/veces por turno y llevas {p['trades_used']}",
                                f"you may trade {limit} time(s) per turn and have used {p['trades_used']}"))
    _afford(p, line["give"], data, a["times"])


def _trade(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, p = _me(state)
    line, times = _trade_line(a, data), a["times"]
    _pay(p, line["give"], times)
    for res, n in line["get"].items():
        p[res] += n * times
    p["trades_used"] += times
    log(state, f"{p['name']} cambia {amounts_text(_times(line['give'], times), data, 'es')} por "
        f"{amounts_text(_times(line['get'], times), data, 'es')}",
        f"{p['name']} trades {amounts_text(_times(line['give'], times), data, 'en')} for "
        f"{amounts_text(_times(line['get'], times), data, 'en')}")


def trade_lines(data) -> list[dict]:
    """The bank's table (``bank_trades``), each line as ``{"give": {res: n}, "get": {res: n}, "action":
    the trade action that takes it once}``: what the trade move offers and a screen shows."""
    return [{"give": dict(t["give"]), "get": dict(t["get"]),
             "action": {"action": "trade", "give": list(t["give"])[0], "get": list(t["get"])[0]}}
            for t in data.meta["bank_trades"]]


def _trade_candidates(state: dict, data) -> list[dict]:
    return [{k: v for k, v in line["action"].items() if k != "action"} for line in trade_lines(data)]


def _times(amounts: dict[str, int], times: int) -> dict[str, int]:
    return {k: n * times for k, n in amounts.items()}


def _slot(state: dict, p: dict, a: dict, data) -> tuple[dict, dict, dict]:
    """The building, the castle and the slot a ``build`` names (the lowest open slot when it names
    none), or the refusal: a castle that built this turn, a duplicate, no slot with its two below."""
    building = _bld(data, a["building"], state)
    index = a["castle"]
    if index >= len(p["castles"]):
        raise BadArgument(text(f"{p['name']} tiene {len(p['castles'])} castillo(s)",
                               f"{p['name']} has {len(p['castles'])} castle(s)"))
    castle = p["castles"][index]
    if castle["built_this_turn"]:
        raise LimitReached(text("ya construiste en este castillo este turno",
                                "you already built in this castle this turn"))
    if building.get("scope") == "shared":
        if building["id"] in state["wonders"]:
            owner = state["players"][state["wonders"][building["id"]]]["name"]
            raise Duplicate(text(f"{name_of(building)} ya es de {owner}",
                                 f"{name_of(building, 'en')} already belongs to {owner}"))
    elif building["id"] in castle["slots"].values():
        raise Duplicate(text(f"este castillo ya tiene {name_of(building)}",
                             f"this castle already has {name_of(building, 'en')}"))
    slots = {s["id"]: s for s in _slots(data)}
    open_slots = [s for s in _slots(data) if s["id"] not in castle["slots"] and s["level"] >= building["level"]
                  and all(r in castle["slots"] for r in s.get("rests_on") or [])]
    wanted = a["slot"]
    if wanted is not None:
        if wanted not in slots:
            raise BadArgument(text(f"casilla desconocida '{wanted}' (hay {', '.join(slots)})",
                                   f"unknown slot '{wanted}' (known: {', '.join(slots)})"))
        slot = slots[wanted]
        if slot not in open_slots:
            why = ("ocupada" if wanted in castle["slots"] else "de nivel menor" if slot["level"] < building["level"]
                   else "sin las dos de debajo")
            why_en = ("taken" if wanted in castle["slots"] else "of a lower level" if slot["level"] < building["level"]
                      else "without the two below it")
            raise NotAllowed(text(f"la casilla {wanted} está {why}", f"slot {wanted} is {why_en}"))
        return building, castle, slot
    if not open_slots:
        raise NotAllowed(text(f"no hay casilla libre de nivel {building['level']} o más con sus dos de debajo",
                              f"no free slot of level {building['level']} or more with its two below filled"))
    return building, castle, min(open_slots, key=lambda s: (s["level"], s["id"]))


def _build_check(state: dict, a: dict, data) -> None:
    seat, p = _me(state)
    building, castle, slot = _slot(state, p, a, data)
    _afford(p, building["cost"], data)


def _build(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, p = _me(state)
    building, castle, slot = _slot(state, p, a, data)
    _pay(p, building["cost"])
    castle["slots"][slot["id"]] = building["id"]
    castle["built_this_turn"] = True
    produces = building.get("produces")
    if produces:
        castle["timers"].setdefault(produces, 0)
    if building.get("wonder"):
        state["wonders"][building["id"]] = seat
        state["last_turn_reason"] = "maravilla"
    log(state, f"{p['name']} construye {name_of(building)} (castillo {a['castle'] + 1}, nivel {slot['level']})",
        f"{p['name']} builds {name_of(building, 'en')} (castle {a['castle'] + 1}, level {slot['level']})")


def _in_play(state: dict, building: dict) -> bool:
    """Whether a building belongs to this game (it is of no variant, or of one in play)."""
    return not building.get("variant") or building["variant"] in state["variants"]


def buildings_in_play(state: dict, data) -> list[dict]:
    """Every building of this game: the data's, without those of a variant not in play."""
    return [b for b in data.entries("building") if _in_play(state, b)]


def _build_candidates(state: dict, data) -> list[dict]:
    castles = range(len(state["players"][state["active"]]["castles"]))
    return [{"building": b["id"], "castle": i} for i in castles for b in buildings_in_play(state, data)]


def _reveal_check(state: dict, a: dict, data) -> None:
    if a["count"] > state["map"]["hidden"]:
        raise NotAllowed(text(f"solo quedan {state['map']['hidden']} losetas boca abajo",
                              f"only {state['map']['hidden']} tiles are still face down"))


def _reveal(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, p = _me(state)
    count = a["count"]
    state["map"]["hidden"] -= count
    p["tiles_revealed"] += count
    if state["map"]["hidden"] == 0:
        state["last_turn_reason"] = state["last_turn_reason"] or "ultima_ficha"
    log(state, f"{p['name']} revela {count} loseta(s)", f"{p['name']} reveals {count} tile(s)")


def _claimed(state: dict, a: dict, data) -> tuple[dict, int | None]:
    """The tile a ``claim`` takes and the seat it is taken from (None: from the map), or the refusal."""
    seat, p = _me(state)
    what = a["what"]
    tile: dict[str, Any]
    if what == "village":
        tile = {"contents": [{"type": "village"}], "level": 1}
    elif what == "mine":
        res = a["resource"]
        if res not in counter_ids(data):
            known = ", ".join(counter_ids(data))
            raise BadArgument(text(f"mina de '{res}'? (hay: {known})", f"a '{res}' mine? (known: {known})"))
        tile = {"contents": [{"type": "mine", "resource": res}], "level": 1}
    elif what == "spell_mine":
        level = a["level"]
        levels = spell_levels(data)
        if level not in levels:
            raise BadArgument(text(f"los hechizos son de nivel {levels[0]} a {levels[-1]}",
                                   f"spell levels are {levels[0]} to {levels[-1]}"))
        tile = {"contents": [{"type": "spell_mine", "level": level}], "level": level}
    else:
        raise BadArgument(text("'what' es village, mine o spell_mine", "'what' is village, mine or spell_mine"))
    if a["from"] is None:
        return tile, None
    other = player_index(state, a["from"], "from")
    victim = state["players"][other]
    if other == seat:
        raise BadArgument(text("ya es tuyo", "it is already yours"))
    c = tile["contents"][0]
    have = (victim["villages"] if c["type"] == "village" else victim["mines"][c["resource"]] if c["type"] == "mine"
            else victim["spell_tiles"][str(c["level"])])
    if have < 1:
        raise NotAllowed(text(f"{victim['name']} no tiene eso", f"{victim['name']} does not own that"))
    return tile, other


def _claim_check(state: dict, a: dict, data) -> None:
    _claimed(state, a, data)


def _claim(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, p = _me(state)
    tile, other = _claimed(state, a, data)
    c = tile["contents"][0]
    if other is not None:
        victim = state["players"][other]
        _take_tile(victim, tile, data, -1)
        if c["type"] == "village" and victim["castles"]:
            victim["castles"].pop()
    _take_tile(p, tile, data)
    if c["type"] == "village":
        es, en = "un pueblo", "a village"
    elif c["type"] == "mine":
        mined = resources(data)[c["resource"]]["name"]
        es, en = f"una mina de {mined['es']}", f"a {mined['en']} mine"
    else:
        es, en = f"un hechizo de nivel {c['level']}", f"a level {c['level']} spell tile"
    if other is not None:
        es, en = f"{es} de {state['players'][other]['name']}", f"{en} from {state['players'][other]['name']}"
    log(state, f"{p['name']} se queda {es}", f"{p['name']} takes {en}")


def _treasure(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, p = _me(state)
    count = a["count"]
    table = data.meta["treasure_table"]
    rolls = []
    gained: dict[str, int] = {}
    for _ in range(count):
        roll = rng.randint(1, table["die"])
        outcome = next(o for o in table["outcomes"] if o["roll"] == roll)
        for res, n in outcome["gain"].items():
            p[res] += n
            gained[res] = gained.get(res, 0) + n
        rolls.append(roll)
    state["last_rolls"] = rolls
    dice = ", ".join(str(r) for r in rolls)
    _log_amounts(state, f"{p['name']} abre {count} tesoro(s) (dado: {dice}) y gana {{}}",
                 f"{p['name']} opens {count} treasure(s) (die: {dice}) and gains {{}}", gained, data)


def treasures_in_game(data) -> int:
    """How many treasures the tiles hold in all: no turn opens more (the ``treasure`` count's range)."""
    return sum(c.get("count", 1) * t.get("copies", 1) for t in data.entries("tile")
               for c in t.get("contents") or [] if c["type"] == "treasure")


def _battle_plans(state: dict, a: dict, data) -> tuple[int, int | None, dict[str, int], list]:
    """Who won and lost, the troops defeated and each named army's losses, or the refusal."""
    seat = state["active"]
    win = player_index(state, a["winner"], "winner")
    neutral = isinstance(a["loser"], str) and a["loser"].strip().lower() == "neutral"
    lose = None if neutral else player_index(state, a["loser"], "loser")
    if lose == win:
        raise BadArgument(text("el vencedor y el vencido son el mismo", "winner and loser are the same player"))
    if seat not in (win, lose):
        raise NotAllowed(text("las batallas se libran en el turno de quien ataca",
                              "battles are fought in the attacker's turn"))
    defeated = _counts(data, a["defeated"], "defeated")
    if a["winner_army"] is None and any(_counts(data, a["winner_losses"], "winner_losses").values()):
        raise BadArgument(text("las bajas del vencedor salen de un ejército: indica 'winner_army'",
                               "the winner's losses come out of an army: name 'winner_army'"))
    plans = []
    for who, army_key, loss_key in ((win, "winner_army", "winner_losses"), (lose, "loser_army", None)):
        if who is None or a[army_key] is None:
            continue
        army = _army(state["players"][who], a[army_key])
        losses = _counts(data, a[loss_key], loss_key) if loss_key else defeated
        for tid, n in losses.items():
            have = army["troops"].get(tid, 0)
            if have < n:
                troop = data.get("troop", tid)
                raise NotAllowed(text(f"el ejército {army['id']} tiene {have} {name_of(troop)} y no puede perder {n}",
                                      f"army {army['id']} has {have} {name_of(troop, 'en')} and cannot lose {n}"))
        plans.append((who, army, losses))
    for who, army, _ in plans:
        if who == seat and army.get("storehouse") and not _storehouse_may_fight(state["players"][who], data):
            raise NotAllowed(text(f"el ejército {army['id']} es del Almacén y no puede combatir",
                                  f"army {army['id']} comes from a Storehouse and may not fight"))
        if who == seat and army.get("tired"):
            raise LimitReached(text(f"el ejército {army['id']} ya combatió este turno",
                                    f"army {army['id']} has already fought this turn"))
    return win, lose, defeated, plans


def _battle_check(state: dict, a: dict, data) -> None:
    _battle_plans(state, a, data)


def _battle(state: dict, a: dict, rng: random.Random, data) -> None:
    seat = state["active"]
    win, lose, defeated, plans = _battle_plans(state, a, data)
    winner = state["players"][win]
    for _who, army, losses in plans:
        for tid, n in losses.items():
            army["troops"][tid] -= n
            if not army["troops"][tid]:
                del army["troops"][tid]
    for tid, n in defeated.items():
        winner["defeated"][tid] = winner["defeated"].get(tid, 0) + n
    if a["fled"] and lose is not None:
        army = next((army for who, army, _ in plans if who == lose), None)
        if army is not None and army["troops"]:
            span = data.meta["scatter_turns"]
            turns = rng.randint(span["min"], span["max"])
            loser = state["players"][lose]
            state["scattered"].append({"player": lose, "troops": dict(army["troops"]),
                                       "returns_on": loser["turns_played"] + turns, "turns": turns})
            army["troops"] = {}
            log(state, f"Las tropas de {loser['name']} se dispersan {turns} turno(s)",
                f"{loser['name']}'s troops scatter for {turns} turn(s)")
    for who, army, _ in plans:
        army["tired"] = army.get("tired") or who == seat
        if not army["troops"]:
            state["players"][who]["armies"].remove(army)
    from ..scoring.el_mapa import battle_points  # the scoring package loads when first needed

    points = battle_points(defeated, data)
    log(state, f"{winner['name']} gana la batalla (+{points})", f"{winner['name']} wins the battle (+{points})")


def _nothing(state: dict, a: dict, data) -> None:
    """A move with no precondition beyond whose turn it is."""


def _one(state: dict, data) -> list[dict]:
    return [{}]


def end(state: dict, data) -> Outcome | None:
    """The end condition, asked when a turn closes: a wonder was built or the last tile revealed
    (``last_turn_reason``), and play has come round to the first player."""
    return Outcome(state["last_turn_reason"]) if state["last_turn_reason"] else None


def _end_turn(state: dict, a: dict, rng: random.Random, data) -> None:
    seat, p = _me(state)
    outcome = end(state, data)
    if outcome is not None:
        finish(state, record(state, data), data, outcome)
        why = REASONS[outcome.value]
        winners = ", ".join(state["final"]["winners"])
        log(state, f"Fin de la partida ({why['es']}). Gana: {winners}", f"Game over ({why['en']}). Winner: {winners}")
        return
    _start_turn(state, pass_turn(state, seat), rng, data)


def _tiles_in_game(data) -> int:
    return data.pieces("tile")


#: A count of troops in one action: no more than the game's troop counters would make plausible.
TROOPS = Arg("counts", "{troop: n} (optional)", optional=True, lo=0, hi=1000)

MOVES: dict[str, Move] = declare(
    adjust_move(adjustable, "a resource (cards/el_mapa resources: id or name)|tiles_revealed"),
    final_record_move(),
    Move("hire", text("Contrata tropas entrenadas.", "Hire trained troops."),
         {"troop": Arg("name", "troop"), "count": Arg("int", "int", optional=True, default=1, lo=1, hi=1000),
          "army": Arg("name", "army id (optional: a new army)", optional=True)},
         _hire_check, _hire, candidates=_hire_candidates),
    Move("trade", text("Cambia con la banca según la tabla.", "Trade with the bank at the table's rates."),
         {"give": Arg("name", "resource"), "get": Arg("name", "resource"),
          "times": Arg("int", "int", optional=True, default=1, lo=1, hi=1000)},
         _trade_check, _trade, candidates=_trade_candidates),
    Move("build", text("Construye un edificio en un castillo.", "Build in a castle."),
         {"building": Arg("name", "building"), "castle": Arg("int", "int", optional=True, default=0, lo=0,
                                                             hi=_tiles_in_game),
          "slot": Arg("name", "slot id (optional)", optional=True)},
         _build_check, _build, candidates=_build_candidates),
    Move("reveal", text("Losetas del mapa reveladas por tus ejércitos.", "Map tiles your armies revealed."),
         {"count": Arg("int", "int", lo=1, hi=_tiles_in_game)}, _reveal_check, _reveal,
         candidates=lambda state, data: [{"count": 1}]),
    Move("claim", text("Te apropias de un pueblo, una mina o un hechizo del mapa.",
                       "Take a village, mine or spell tile."),
         {"what": Arg("name", "village|mine|spell_mine"),
          "resource": Arg("name", "mine resource (optional: for a mine)", optional=True),
          "level": Arg("int", "spell level (optional: for a spell_mine)", optional=True, lo=1, hi=100),
          "from": Arg("player", "name (optional)", optional=True)},
         _claim_check, _claim),
    Move("treasure", text("Abre tesoros: se tira el dado por cada uno.", "Open treasures: one die roll each."),
         {"count": Arg("int", "int", optional=True, default=1, lo=1, hi=treasures_in_game)}, _nothing, _treasure),
    Move("battle", text("Anota el resultado de una batalla.", "Record a battle's result."),
         {"winner": Arg("player", "name"), "loser": Arg("player", "name or 'neutral'"), "defeated": TROOPS,
          "winner_army": Arg("name", "army id (optional)", optional=True),
          "winner_losses": TROOPS, "loser_army": Arg("name", "army id (optional)", optional=True),
          "fled": Arg("bool", "bool (optional: the loser fled, survivors scatter)", optional=True, default=False)},
         _battle_check, _battle),
    Move("end_turn", text("Termina el turno.", "End the turn."), {}, _nothing, _end_turn, candidates=_one),
)


class Player(TypedDict, total=False):
    """An El Mapa player (besides these, one key per resource of the data: ``oro``, ``madera``...)."""

    name: str
    tiles_revealed: int
    villages: int
    mines: dict[str, int]
    spell_tiles: dict[str, int]
    castles: list[dict[str, Any]]
    reserve: dict[str, int]
    armies: list[dict[str, Any]]
    defeated: dict[str, int]
    trained_troops: int
    trades_used: int
    turns_played: int
    score: int
    battle_points: int
    trade_limit: int
    trades_left: int
    army_limit: int


class _Rolled(State, total=False):
    last_rolls: list[int]   # the die rolls of the last treasures opened


class ElMapaState(_Rolled):
    """An El Mapa state: the map, the wonders, why the last turn came."""

    variants: list[str]
    map: dict[str, Any]
    turn: int
    next_army: int
    wonders: dict[str, str]
    last_turn_reason: str | None
    scattered: list[dict[str, Any]]
    turn_start: dict[str, Any] | None


DEFINITION = GameDefinition(GAME, MOVES, setup, record, _start_turn, end, ElMapaState, Player,
                            derive=derive)
ACTIONS = DEFINITION.actions

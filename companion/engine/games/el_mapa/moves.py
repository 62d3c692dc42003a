"""El Mapa's moves, each declared once (arguments, one precondition, one effect): hire, trade with
the bank, build, reveal tiles, claim, open treasures, record a battle, end the turn; ``adjust`` and
``final_record`` as every game has them."""

from __future__ import annotations

import random
from typing import Any

from ...common import Arg, Move, adjust_move, declare, final_record_move, log, name_of, player_index, text
from ...errors import BadArgument, Duplicate, LimitReached, NotAllowed, NotEnough
from .battle import _battle, _battle_check
from .realm import (_army, _army_limit, _bld, _log_amounts, _me, _new_army, _slots, _take_tile, _tiles_in_game,
                    _trade_limit, _troop, _troops, adjustable, amounts_text, buildings_in_play, counter_ids,
                    may_trade, resources, spell_levels, trade_building, trade_lines, treasures_in_game)
from .turns import _end_turn


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


def _nothing(state: dict, a: dict, data) -> None:
    """A move with no precondition beyond whose turn it is."""


def _one(state: dict, data) -> list[dict]:
    return [{}]


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

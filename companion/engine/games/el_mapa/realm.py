"""A realm read against the data (``cards/el_mapa``): resources, troops and buildings by id or name,
what a player holds and the limits it gives (armies, bank trades), amounts as words. Setup, the
turns, the moves and the live numbers all read these, so each count is made once."""

from __future__ import annotations

from typing import Any

from ...common import find_entry, log, name_of, text
from ...errors import BadArgument, NotAllowed


#: Beside the data's resources, ``adjust`` corrects the revealed-tile count (a tally, not a resource).
TALLIES = {"tiles_revealed": text("losetas reveladas", "revealed tiles")}


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


def _storehouse_may_fight(player: dict, data) -> bool:
    """Whether the player's Storehouse armies may fight (the data says they may not)."""
    return all(data.get("building", b).get("extra_army_can_fight", True) for b in _buildings_of(player)
               if data.get("building", b).get("extra_army"))


def _me(state: dict) -> tuple[int, dict]:
    seat = state["active"]
    return seat, state["players"][seat]


def _army(p: dict, army_id: Any) -> dict:
    """Army ``army_id`` of player ``p``; refused when they have none of that id."""
    army = next((a for a in p["armies"] if a["id"] == army_id), None)
    if army is None:
        raise BadArgument(text(f"{p['name']} no tiene el ejército '{army_id}'", f"{p['name']} has no army '{army_id}'"))
    return army


def trade_lines(data) -> list[dict]:
    """The bank's table (``bank_trades``), each line as ``{"give": {res: n}, "get": {res: n}, "action":
    the trade action that takes it once}``: what the trade move offers and a screen shows."""
    return [{"give": dict(t["give"]), "get": dict(t["get"]),
             "action": {"action": "trade", "give": list(t["give"])[0], "get": list(t["get"])[0]}}
            for t in data.meta["bank_trades"]]


def _in_play(state: dict, building: dict) -> bool:
    """Whether a building belongs to this game (it is of no variant, or of one in play)."""
    return not building.get("variant") or building["variant"] in state["variants"]


def buildings_in_play(state: dict, data) -> list[dict]:
    """Every building of this game: the data's, without those of a variant not in play."""
    return [b for b in data.entries("building") if _in_play(state, b)]


def treasures_in_game(data) -> int:
    """How many treasures the tiles hold in all: no turn opens more (the ``treasure`` count's range)."""
    return sum(c.get("count", 1) * t.get("copies", 1) for t in data.entries("tile")
               for c in t.get("contents") or [] if c["type"] == "treasure")


def _tiles_in_game(data) -> int:
    return data.pieces("tile")

"""Gladiadores: every printable component, drawn from cards/gladiadores/ (see GENERATOR_API.md).

Numbers, names and rule texts come from the data; this module only holds the words of the print
layout itself (labels such as "Coste" or "Fase principal"), in Spanish and English, and the sentences
of the player aid into which the data's numbers are filled.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

from ludoteca.cards import Game
from ludoteca.generator.model import Component, Face, GeneratorError, Options

GAME = "gladiadores"
CARD = (63.0, 88.0)
CARD_GRID = (3, 3)
#: the gladiator stats in the order they are printed (field names of gladiators.yaml)
STATS = ("combat", "work", "construction", "shields", "favor")
#: the values of a combat card in the order they are printed (field names of combat.yaml)
CARD_VALUES = ("swords", "shields", "skulls")
NUMERALS = {"none": None, "iii": "III", "iv": "IV", "v": "V"}


def _l(es: str, en: str) -> dict:
    return {"es": es, "en": en}


#: the words of the layout (not rules: those are in the data)
LABELS: dict[str, Any] = {
    "game": _l("Gladiadores", "Gladiators"),
    "kind": {"tiro": _l("Tiro", "Tiro"), "veteran": _l("Veterano", "Veteran")},
    "fight_cost": _l("Lucha", "Fight"),
    "min_bid": _l("Puja mín.", "Min. bid"),
    "stat": {"combat": _l("Combate", "Combat"), "work": _l("Trabajo", "Work"),
             "construction": _l("Construcción", "Construction"), "shields": _l("Escudos", "Shields"),
             "favor": _l("Favor del público", "Crowd favour")},
    "card_value": {"swords": _l("Espadas", "Swords"), "shields": _l("Escudos", "Shields"),
                   "skulls": _l("Calaveras", "Skulls")},
    "no_ability": _l("Sin habilidad", "No ability"),
    "starting": _l("Edificio inicial", "Starting building"),
    "centre": _l("Edificio", "Building"),
    "cost": _l("Coste", "Cost"),
    "points": _l("Puntos", "Points"),
    "houses": _l("Aloja", "Houses"),
    "demolishable": _l("Se puede derribar por su coste", "Can be demolished at its cost"),
    "not_demolishable": _l("No se puede derribar ni destruir", "Cannot be demolished or destroyed"),
    "start_of_turn": _l("Inicio del turno", "Start of turn"),
    "combat_deck": _l("Combate", "Combat"),
    "gladiator_deck": _l("Gladiador", "Gladiator"),
    "players": _l("jugadores", "players"),
}

#: the player aid's sentences; {names} are filled from the data
AID = {
    "title": _l("Gladiadores · ayuda de juego", "Gladiators · player aid"),
    "setup": _l("Preparación", "Setup"),
    "setup_text": _l(
        "Cada jugador: {coins} monedas, {tiros} tiros y {buildings} edificios iniciales bocabajo "
        "(sin repetidos). Empieza quien recibe el edificio {first}.",
        "Each player: {coins} coins, {tiros} Tiros and {buildings} starting buildings face down "
        "(no duplicates). Whoever gets the {first} starts."),
    "pool": _l("Edificios en juego según el número de jugadores:",
               "Buildings in play by player count:"),
    "no_symbol": _l("sin símbolo", "no symbol"),
    "expansion": _l("opcional", "optional"),
    "goal": _l("Gana quien llega a {standard} puntos en su turno (partida rápida: {quick}).",
               "The first to reach {standard} points on their turn wins (quick game: {quick})."),
    "phase": {"start": _l("1. Inicio", "1. Start"), "main": _l("2. Fase principal", "2. Main phase"),
              "auction": _l("3. Subasta", "3. Auction"), "end": _l("4. Final", "4. End")},
    "step": {
        "ready_gladiators": _l("Endereza todos tus gladiadores.", "Stand all your gladiators up."),
        "start_of_turn_effects": _l(
            "Resuelve los efectos de inicio de turno ({names}) en el orden que quieras.",
            "Resolve start-of-turn effects ({names}) in any order."),
        "refill_tiros": _l(
            "Si tienes menos de {n} gladiadores, toma tiros del centro hasta tener {n}.",
            "With fewer than {n} gladiators, take Tiros from the centre up to {n}."),
        "refill_buildings": _l(
            "Si tienes menos de {n} edificios, toma edificios iniciales al azar del centro hasta tener {n}.",
            "With fewer than {n} buildings, take random starting buildings from the centre up to {n}."),
    },
    "main_text": _l(
        "Cada gladiador preparado hace una acción y queda girado. Construir y derribar admiten "
        "varios gladiadores a la vez; lo que sobra se pierde. Máximo {max} edificios, sin nombres "
        "repetidos; cada edificio aloja {per} gladiador.",
        "Each ready gladiator takes one action and is turned sideways. Building and demolishing "
        "may use several gladiators at once; any excess is lost. At most {max} buildings, no two "
        "with the same name; each building houses {per} gladiator."),
    "auction_text": _l(
        "Si tienes más gladiadores que sitio, descarta hasta tener sitio. Si te queda sitio, "
        "puedes subastar: revela {reveal} veteranos y elige {choose}; el resto va al descarte. "
        "{order} Cada uno puja una vez o pasa: como mínimo la puja impresa en la carta, como "
        "máximo sus monedas. {tie} {nobid} El ganador paga a la banca y el veterano llega {arrives}.",
        "If you have more gladiators than room, discard down to your room. If you have room "
        "left, you may auction: reveal {reveal} veterans and choose {choose}; the rest go to the "
        "discard pile. {order} Each bids once or passes: at least the bid printed on the card, "
        "at most their coins. {tie} {nobid} The winner pays the bank and the veteran arrives "
        "{arrives}."),
    "order": {"left_of_active_clockwise_active_last": _l(
        "Pujan los jugadores con sitio, desde tu izquierda; tú, el último.",
        "Players with room bid, from your left; you bid last.")},
    "tie": {"last_bidder": _l("En empate gana quien pujó después.", "On a tie the later bidder wins."),
            "first_bidder": _l("En empate gana quien pujó antes.", "On a tie the earlier bidder wins."),
            "active_player": _l("En empate gana el jugador activo.", "On a tie the active player wins.")},
    "no_bids": {"veteran_discard": _l("Si nadie puja, va al descarte.",
                                      "If nobody bids, it goes to the discard pile.")},
    "arrives": {"ready": _l("preparado", "ready"), "exhausted": _l("girado", "exhausted")},
    "combat": _l("El combate", "The fight"),
    "formula": _l("Ataque: {a_stat} + {a_card}   ·   Defensa: {d_stat} + {d_card}",
                  "Attack: {a_stat} + {a_card}   ·   Defence: {d_stat} + {d_card}"),
    "end_text": _l("Si tienes {standard} puntos o más (partida rápida: {quick}), ganas la partida.",
                   "With {standard} points or more (quick game: {quick}) you win the game."),
    "optional": _l("Reglas opcionales", "Optional rules"),
    "icons": _l("Iconos", "Icons"),
}

#: the marks of the cards, explained in the aid's legend
LEGEND_MARKS = {
    "fight_cost": _l("Monedas para combatir", "Coins to fight"),
    "min_bid": _l("Puja mínima en la subasta", "Minimum auction bid"),
    "cost": _l("Coste de construcción", "Construction cost"),
    "points": _l("Puntos de victoria", "Victory points"),
    "houses": _l("Aloja a un gladiador", "Houses one gladiator"),
    "start_of_turn": _l("Efecto al inicio del turno", "Start-of-turn effect"),
    "demolishable": _l("Se puede derribar", "Can be demolished"),
    "not_demolishable": _l("No se puede derribar", "Cannot be demolished"),
    "players": _l("Solo con 3 / 4 / 5 jugadores", "Only with 3 / 4 / 5 players"),
}

SCORE = {
    "title": _l("Gladiadores · hoja de puntuación", "Gladiators · score sheet"),
    "goal": _l("Objetivo: {standard} puntos (partida rápida: {quick})",
               "Target: {standard} points (quick game: {quick})"),
    "game": _l("Partida", "Game"),
    "player": _l("Jugador", "Player"),
    "rows": [_l("Combates ganados", "Fights won"), _l("Edificios", "Buildings"), _l("Total", "Total")],
    "winner": _l("Ganador", "Winner"),
}


def _plain(value: Any) -> Any:
    """Entries are dict subclasses that remember lines: give templates plain JSON values."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def _fill(text: dict, **values: Any) -> dict:
    """An {es, en} sentence with ``values`` filled in (values may be {es, en} too)."""
    out = {}
    for lang in ("es", "en"):
        vals = {k: (v[lang] if isinstance(v, dict) else v) for k, v in values.items()}
        out[lang] = text[lang].format(**vals)
    return out


def _expand(entries: Iterable[dict]) -> list[dict]:
    """One item per physical copy, in the data's order."""
    return [e for e in entries for _ in range(int(e.get("copies", 1)))]


def _targets(meta: dict) -> dict:
    tp = meta["target_points"]
    return {"standard": tp["standard"], "quick": tp["quick_start"]}


def _join(names: list[dict]) -> dict:
    return {lang: ", ".join(n[lang] for n in names) for lang in ("es", "en")}


# ---------------------------------------------------------------- gladiators
def gladiator_context(g: Game, entry: dict) -> dict:
    """What a gladiator card shows."""
    origin = g.get("origin", entry["origin"])
    return {"name": entry["name"], "kind": entry["kind"], "origin": entry["origin"],
            "origin_name": origin["name"],
            "stats": [{"id": s, "value": entry[s]} for s in STATS],
            "fight_cost": entry["fight_cost"], "min_bid": entry.get("min_bid"),
            "ability": entry.get("ability"),
            "labels": {k: LABELS[k] for k in ("kind", "fight_cost", "min_bid", "no_ability", "game")}}


def gladiators(g: Game) -> Component:
    fronts, backs = [], []
    for entry in _expand(g.entries("gladiator")):
        fronts.append(Face("gladiadores/gladiator.svg.j2", _plain(gladiator_context(g, entry)),
                           entry["id"]))
        backs.append(Face("gladiadores/gladiator_back.svg.j2",
                          _plain({"kind": entry["kind"],
                                  "labels": {k: LABELS[k] for k in ("kind", "game")}}),
                          f"back_{entry['kind']}"))
    return Component(GAME, "gladiators", _l("Gladiadores", "Gladiators"), CARD, fronts, backs,
                     grid=CARD_GRID, deck=True)


# ---------------------------------------------------------------- buildings
def capacity(g: Game, entry: dict) -> int:
    """How many gladiators the building houses: the rule's number plus its housing effects."""
    base = int(g.meta["limits"]["gladiators_per_building"])
    return base + sum(int(e.get("amount", 0)) for e in entry.get("effects", [])
                      if e["kind"] == "housing")


def facade(entry: dict) -> str:
    """Which outline the art shows: a temple gives points, a house starts, an arch is built."""
    if entry.get("points", 0):
        return "temple"
    return "house" if entry["starting"] else "arch"


#: The drawing beside a building's facade, by the kind of its first effect (stat bonuses show
#: their stat's icon; a building with no effect shows a laurel: it is there for its points).
EMBLEMS = {"first_player": "first", "coins": "coins", "recruit_tiro": "recruit",
           "housing": "housing", "construction_bonus": "quarry", "chain": "chain",
           "destroy": "destroy", "auction_discount": "auction", "auction_reveal": "auction",
           "auction_tie": "auction", "fight_discount": "discount", "fight_reward": "reward",
           "defence_reward": "reward", "redraw": "redraw", "save": "save"}


def building_emblem(entry: dict) -> str:
    """Which emblem (templates/gladiadores/_icons.svg.j2 ``emblem``) shows what the building does."""
    effects = entry.get("effects", [])
    if not effects:
        return "points"
    first = effects[0]
    if first["kind"] == "stat_bonus":
        return first["stat"]
    return EMBLEMS.get(first["kind"], "points")


def building_context(g: Game, entry: dict) -> dict:
    return {"name": entry["name"], "gloss": entry["gloss"], "starting": entry["starting"],
            "numeral": NUMERALS[entry["symbol"]], "cost": entry["cost"],
            "points": entry.get("points", 0), "demolishable": entry["demolishable"],
            "ability": entry["ability"], "capacity": capacity(g, entry),
            "start_of_turn": any(e.get("timing") == "start_of_turn"
                                 for e in entry.get("effects", [])),
            "facade": facade(entry), "emblem": building_emblem(entry),
            "labels": {k: LABELS[k] for k in ("starting", "centre", "cost", "points", "houses",
                                              "demolishable", "not_demolishable",
                                              "start_of_turn", "game")}}


def buildings(g: Game) -> Component:
    fronts, backs = [], []
    for entry in _expand(g.entries("building")):
        fronts.append(Face("gladiadores/building.svg.j2", _plain(building_context(g, entry)),
                           entry["id"]))
        numeral = NUMERALS[entry["symbol"]]
        kind = "starting" if entry["starting"] else "centre"
        backs.append(Face("gladiadores/building_back.svg.j2",
                          _plain({"starting": entry["starting"], "numeral": numeral,
                                  "labels": {k: LABELS[k] for k in ("starting", "centre", "game")}}),
                          f"back_{kind}_{entry['symbol']}"))
    return Component(GAME, "buildings", _l("Edificios", "Buildings"), CARD, fronts, backs,
                     grid=CARD_GRID, deck=True)


# ---------------------------------------------------------------- combat cards
def combat_cards(g: Game) -> Component:
    fronts, backs = [], []
    for entry in _expand(g.entries("combat_card")):
        ctx = {"name": entry.get("name"),
               "values": [{"id": v, "value": entry[v]} for v in CARD_VALUES],
               "labels": {"card_value": LABELS["card_value"], "combat_deck": LABELS["combat_deck"]}}
        fronts.append(Face("gladiadores/combat.svg.j2", _plain(ctx), entry["id"]))
        backs.append(Face("gladiadores/combat_back.svg.j2",
                          _plain({"labels": {k: LABELS[k] for k in ("combat_deck", "game")}}),
                          "back"))
    return Component(GAME, "combat", _l("Cartas de combate", "Combat cards"), CARD, fronts, backs,
                     grid=CARD_GRID, deck=True)


# ---------------------------------------------------------------- tokens
def tokens(g: Game) -> list[Component]:
    """The tokens at the data's sizes, one sheet per size (discs round, cube labels square).

    Tokens of the same size share a sheet, in the data's order; the component is named after them.
    """
    by_size: dict[float, list[dict]] = {}
    for entry in g.entries("token"):
        by_size.setdefault(float(entry["size_mm"]), []).append(entry)
    comps = []
    for size, entries in by_size.items():
        fronts = []
        for entry in entries:
            ctx = _plain({"id": entry["id"], "shape": entry["shape"], "colour": entry["colour"],
                          "points": entry.get("points", 0), "name": entry["name"]})
            fronts += [Face("gladiadores/token.svg.j2", ctx, entry["id"])] * int(entry["copies"])
        ids = "_".join(e["id"] for e in entries)
        title = _join_with([e["name"] for e in entries], " + ")
        comps.append(Component(GAME, f"tokens_{ids}", title, (size, size), fronts))
    return comps


# ---------------------------------------------------------------- player aid
def _start_effect_buildings(g: Game) -> list[dict]:
    return [b["name"] for b in g.entries("building")
            if any(e.get("timing") == "start_of_turn" for e in b.get("effects", []))]


def aid_sections(g: Game) -> list[dict]:
    """The player aid as titled blocks of {es, en} lines, every number from the data."""
    m = g.meta
    setup, limits, auction, combat = m["setup"], m["limits"], m["auction"], m["combat"]
    first = g.get("building", setup["first_player_building"])["name"]
    pool = []
    for pc in m["player_counts"]:
        marks = [NUMERALS[s] for s in pc["symbols"] if NUMERALS[s]]
        label = " + ".join(marks) if marks else None
        pool.append({"players": pc["players"], "marks": marks, "expansion": pc["expansion"],
                     "label": label})
    steps = []
    for step in m["turn"]["start_steps"]:
        text = AID["step"][step]
        if step == "start_of_turn_effects":
            steps.append(_fill(text, names=_join(_start_effect_buildings(g))))
        elif step == "refill_tiros":
            steps.append(_fill(text, n=limits["refill_min_gladiators"]))
        elif step == "refill_buildings":
            steps.append(_fill(text, n=limits["refill_min_buildings"]))
        else:
            steps.append(text)
    actions = [{"letter": chr(ord("a") + i), "name": a["name"], "text": a["text"]}
               for i, a in enumerate(g.entries("action"))]
    stat, card = LABELS["stat"], LABELS["card_value"]
    try:
        auction_text = _fill(AID["auction_text"], reveal=auction["reveal"], choose=auction["choose"],
                             order=AID["order"][auction["order"]], tie=AID["tie"][auction["tie"]],
                             nobid=AID["no_bids"][auction["no_bids"]],
                             arrives=AID["arrives"][auction["arrives"]])
    except KeyError as exc:
        raise GeneratorError(f"cards/gladiadores/game.yaml: auction: no player-aid text for "
                             f"{exc.args[0]!r}") from None
    formula = _fill(AID["formula"], a_stat=stat[combat["attack"]["stat"]],
                    a_card=card[combat["attack"]["card"]], d_stat=stat[combat["defence"]["stat"]],
                    d_card=card[combat["defence"]["card"]])
    optional = [{"name": r["name"], "text": r["rule"]} for r in m["optional_rules"].values()]
    return [
        {"id": "setup", "title": AID["setup"],
         "lines": [_fill(AID["setup_text"], coins=setup["starting_coins"],
                         tiros=setup["starting_tiros"], buildings=setup["buildings_per_player"],
                         first=first),
                   _fill(AID["goal"], **_targets(m))],
         "pool_title": AID["pool"], "pool": pool, "no_symbol": AID["no_symbol"],
         "expansion": AID["expansion"], "players": LABELS["players"]},
        {"id": "start", "title": AID["phase"]["start"], "lines": steps},
        {"id": "main", "title": AID["phase"]["main"],
         "lines": [_fill(AID["main_text"], max=limits["max_buildings"],
                         per=limits["gladiators_per_building"])],
         "actions": actions},
        {"id": "auction", "title": AID["phase"]["auction"], "lines": [auction_text]},
        {"id": "end", "title": AID["phase"]["end"],
         "lines": [_fill(AID["end_text"], **_targets(m))]},
        {"id": "combat", "title": AID["combat"], "formula": formula,
         "lines": [{lang: line.strip() for lang, line in zip(("es", "en"), pair)}
                   for pair in zip(_steps(combat["rule"]["es"]), _steps(combat["rule"]["en"]))]},
        {"id": "optional", "title": AID["optional"], "rules": optional},
    ]


def _steps(text: str) -> list[str]:
    """The numbered steps of a rule text ("1) ... 2) ...") as separate lines."""
    return [p.strip() for p in re.split(r"(?=\b\d\)\s)", text) if p.strip()]


#: combat-card values drawn with the same icon as a gladiator stat (one legend line for both)
SHARED_ICON = {"swords": "combat", "shields": "shields"}


def legend() -> list[dict]:
    """The icons printed on the cards and what they mean, for the player aid."""
    items = []
    for s in STATS:
        names = [LABELS["stat"][s]] + [LABELS["card_value"][v] for v, st in SHARED_ICON.items()
                                      if st == s and LABELS["card_value"][v] != LABELS["stat"][s]]
        items.append({"kind": "stat", "id": s, "name": _join_with(names, " / ")})
    items += [{"kind": "card", "id": v, "name": LABELS["card_value"][v]}
              for v in CARD_VALUES if v not in SHARED_ICON]
    items += [{"kind": "mark", "id": k, "name": LEGEND_MARKS[k]} for k in LEGEND_MARKS]
    return items


def _join_with(names: list[dict], sep: str) -> dict:
    return {lang: sep.join(n[lang] for n in names) for lang in ("es", "en")}


def player_aid(g: Game) -> Component:
    ctx = {"title": AID["title"], "sections": aid_sections(g), "legend_title": AID["icons"],
           "legend": legend()}
    return Component(GAME, "player_aid", _l("Ayuda de juego", "Player aid"), (0, 0),
                     [Face("gladiadores/player_aid.svg.j2", _plain(ctx), "player_aid")],
                     layout="page")


# ---------------------------------------------------------------- score pad
def score_pad(g: Game) -> Component:
    m = g.meta
    ctx = {"title": SCORE["title"], "goal": _fill(SCORE["goal"], **_targets(m)),
           "players": m["players"]["expansion_max"], "labels": SCORE}
    return Component(GAME, "score_pad", _l("Hoja de puntuación", "Score sheet"), (0, 0),
                     [Face("gladiadores/score_pad.svg.j2", _plain(ctx), "score_pad")],
                     layout="page")


def components(game: Game, opts: Options) -> list[Component]:
    """Every printable component of Gladiadores, in print order."""
    return [gladiators(game), buildings(game), combat_cards(game), *tokens(game),
            player_aid(game), score_pad(game)]

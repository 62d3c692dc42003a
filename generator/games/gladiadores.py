"""Gladiadores: every printable component, drawn from cards/gladiadores/ (see generator/API.md).

Numbers, names and rule texts come from the data; this module only holds the words of the print
layout itself (labels such as "Coste" or "Fase principal"), in Spanish and English, and the sentences
of the player aid into which the data's numbers are filled.
"""

from __future__ import annotations

import difflib
import functools
import re
from typing import Any
from collections.abc import Iterable

from ludoteca.cards import Game
from ludoteca.cards.problems import Problem
from ludoteca.companion.engine.scoring.gladiadores import LABELS as SCORE_LINES
from ludoteca.generator.games import card_size, plain
from ludoteca.generator.model import Component, Face, GeneratorError, Options
from ludoteca.generator.pack import packed
from ludoteca.generator.words import words

GAME = "gladiadores"
#: the gladiator stats in the order they are printed (field names of gladiators.yaml)
STATS = ("combat", "work", "construction", "shields", "favor")
#: the values of a combat card in the order they are printed (field names of combat.yaml)
CARD_VALUES = ("swords", "shields", "skulls")
NUMERALS = {"none": None, "iii": "III", "iv": "IV", "v": "V"}


#: the words of the layout (not rules: those are in the data), from generator/words.yaml
LABELS: dict[str, Any] = {**words(GAME, "labels"), "kind": words(GAME, "kind"), "stat": words(GAME, "stat"),
                          "card_value": words(GAME, "card_value")}

#: What each component is called (the kit's contents list).
TITLES = words(GAME, "titles")

#: the player aid's sentences; {names} are filled from the data
AID: dict[str, Any] = {**words(GAME, "aid"), **{part: words(GAME, f"aid_{part}") for part in (
    "phase", "step", "order", "tie", "no_bids", "arrives")}}

#: the marks of the cards, explained in the aid's legend
LEGEND_MARKS = words(GAME, "legend")

#: the score pad's words; its rows in the order they are printed
#: The score sheet's words; its rows are scoring's lines in scoring's words, then the total.
SCORE: dict[str, Any] = {**words(GAME, "score")}
SCORE["rows"] = [*SCORE_LINES.values(), SCORE["total"]]


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


# ---------------------------------------------------------------- art
ART_TEMPLATE = "gladiadores/_art.svg.j2"
#: the drawings an ``art:`` field may name: macros of _art.svg.j2 called scene_<id> (a building's
#: scene) or gear_<id> (what a gladiator wears and holds)
ART_FAMILIES = ("scene", "gear")


@functools.lru_cache(maxsize=1)
def art_library() -> dict[str, frozenset[str]]:
    """The drawings of templates/gladiadores/_art.svg.j2 by family: {"scene": {"hut", ...}, ...},
    and "pose": the keys of its POSES (how a gladiator stands)."""
    from ludoteca.generator.templating import module as template_module
    module = template_module(ART_TEMPLATE)
    names = [n for n in dir(module) if not n.startswith("_")]
    library = {fam: frozenset(n[len(fam) + 1:] for n in names if n.startswith(fam + "_"))
               for fam in ART_FAMILIES}
    library["pose"] = frozenset(module.POSES)
    return library


def art_ids(g: Game, kind: str, entry: dict, family: str) -> dict[str, list[str]]:
    """An entry's ``art:`` as {part: [drawing ids]}, every id checked against the library.

    An unknown id is one line naming the file, the entry, the field and what was expected."""
    art = entry.get("art") or {}
    out: dict[str, list[str]] = {}
    for part, value in art.items():
        known = art_library()["pose" if part == "pose" else family]
        ids = list(value) if isinstance(value, list) else [value]
        for i, name in enumerate(ids):
            if name not in known:
                path, line = g.location(kind, entry["id"])
                where = art.line_of(part) if hasattr(art, "line_of") else line
                close = difflib.get_close_matches(str(name), sorted(known), 1, 0.7)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                field = f"art.{part}" + (f"[{i}]" if isinstance(value, list) else "")
                raise GeneratorError(str(Problem(
                    str(path), where or line, kind, entry["id"], field,
                    f"a {'pose' if part == 'pose' else 'drawing'} of templates/{ART_TEMPLATE}{hint}",
                    f"'{name}'")))
        out[part] = ids
    return out


# ---------------------------------------------------------------- gladiators
def gladiator_context(g: Game, entry: dict) -> dict:
    """What a gladiator card shows."""
    origin = g.get("origin", entry["origin"])
    gear = art_ids(g, "origin", origin, "gear")
    for part, ids in art_ids(g, "gladiator", entry, "gear").items():
        gear[part] = ids
    return {"name": entry["name"], "kind": entry["kind"], "origin": entry["origin"],
            "origin_name": origin["name"], "gear": gear,
            "stats": [{"id": s, "value": entry[s]} for s in STATS],
            "fight_cost": entry["fight_cost"], "min_bid": entry.get("min_bid"),
            "ability": entry.get("ability"),
            "labels": {k: LABELS[k] for k in ("kind", "fight_cost", "min_bid", "no_ability", "game")}}


def gladiators(g: Game) -> Component:
    fronts, backs = [], []
    for entry in _expand(g.entries("gladiator")):
        fronts.append(Face("gladiadores/gladiator.svg.j2", plain(gladiator_context(g, entry)),
                           entry["id"]))
        backs.append(Face("gladiadores/gladiator_back.svg.j2",
                          plain({"kind": entry["kind"],
                                  "labels": {k: LABELS[k] for k in ("kind", "game")}}),
                          f"back_{entry['kind']}"))
    return Component(GAME, "gladiators", TITLES["gladiators"], card_size(g),
                     fronts, backs, deck=True)


# ---------------------------------------------------------------- buildings
def capacity(g: Game, entry: dict) -> int:
    """How many gladiators the building houses: the rule's number plus its housing effects."""
    base = int(g.meta["limits"]["gladiators_per_building"])
    return base + sum(int(e.get("amount", 0)) for e in entry.get("effects", [])
                      if e["kind"] == "housing")


#: The medallion beside a building's picture, by the kind of its first effect (stat bonuses show
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
            "scene": art_ids(g, "building", entry, "scene"),
            "emblem": building_emblem(entry), "marker": entry.get("marker"),
            "labels": {k: LABELS[k] for k in ("starting", "centre", "cost", "points", "houses",
                                              "demolishable", "not_demolishable",
                                              "start_of_turn", "game")}}


def buildings(g: Game) -> Component:
    fronts, backs = [], []
    for entry in _expand(g.entries("building")):
        fronts.append(Face("gladiadores/building.svg.j2", plain(building_context(g, entry)),
                           entry["id"]))
        numeral = NUMERALS[entry["symbol"]]
        kind = "starting" if entry["starting"] else "centre"
        backs.append(Face("gladiadores/building_back.svg.j2",
                          plain({"starting": entry["starting"], "numeral": numeral,
                                  "labels": {k: LABELS[k] for k in ("starting", "centre", "game")}}),
                          f"back_{kind}_{entry['symbol']}"))
    return Component(GAME, "buildings", TITLES["buildings"], card_size(g),
                     fronts, backs, deck=True)


# ---------------------------------------------------------------- combat cards
def combat_cards(g: Game) -> Component:
    fronts, backs = [], []
    for entry in _expand(g.entries("combat_card")):
        ctx = {"name": entry.get("name"),
               "values": [{"id": v, "value": entry[v]} for v in CARD_VALUES],
               "labels": {"card_value": LABELS["card_value"], "combat_deck": LABELS["combat_deck"]}}
        fronts.append(Face("gladiadores/combat.svg.j2", plain(ctx), entry["id"]))
        backs.append(Face("gladiadores/combat_back.svg.j2",
                          plain({"labels": {k: LABELS[k] for k in ("combat_deck", "game")}}),
                          "back"))
    return Component(GAME, "combat", TITLES["combat"], card_size(g),
                     fronts, backs, deck=True)


# ---------------------------------------------------------------- tokens
def tokens(g: Game) -> Component:
    """The tokens at the data's sizes (discs round, cube labels square), packed on shared sheets
    (generator/pack.py): one part per size and shape, named after the tokens it holds."""
    by_size: dict[tuple[float, str], list[dict]] = {}
    for entry in g.entries("token"):
        by_size.setdefault((float(entry["size_mm"]), entry["shape"]), []).append(entry)
    parts = []
    for (size, shape), entries in by_size.items():
        fronts = []
        for entry in entries:
            ctx = plain({"id": entry["id"], "shape": entry["shape"], "colour": entry["colour"],
                          "points": entry.get("points", 0), "name": entry["name"],
                          "marker": entry.get("marker")})
            fronts += [Face("gladiadores/token.svg.j2", ctx, entry["id"])] * int(entry["copies"])
        ids = "_".join(e["id"] for e in entries)
        title = _join_with([e["name"] for e in entries], " + ")
        parts.append(Component(GAME, f"tokens_{ids}", title, (size, size), fronts,
                               round=shape == "disc"))
    return packed(GAME, "tokens", TITLES["tokens"], parts)


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
        marks = [mark for s in pc["symbols"] if (mark := NUMERALS[s])]
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
    return Component(GAME, "player_aid", TITLES["player_aid"], (0, 0),
                     [Face("gladiadores/player_aid.svg.j2", plain(ctx), "player_aid")],
                     layout="page")


# ---------------------------------------------------------------- score pad
def score_pad(g: Game) -> Component:
    m = g.meta
    ctx = {"title": SCORE["title"], "goal": _fill(SCORE["goal"], **_targets(m)),
           "players": m["players"]["expansion_max"], "labels": SCORE}
    return Component(GAME, "score_pad", TITLES["score_pad"], (0, 0),
                     [Face("gladiadores/score_pad.svg.j2", plain(ctx), "score_pad")],
                     layout="page")


def components(game: Game, opts: Options) -> list[Component]:
    """Every printable component of Gladiadores, in print order."""
    return [gladiators(game), buildings(game), combat_cards(game), tokens(game),
            player_aid(game), score_pad(game)]

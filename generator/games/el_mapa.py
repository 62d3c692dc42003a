"""El Mapa: every printable component, built from the data in cards/el_mapa.

The module only turns data entries into template contexts: what a tile holds, what a building
costs, how many counters there are all come from the YAML files.  What lives here is art
direction (colours and symbols of the levels, the drawing for each terrain) and the few
interface words ("Nivel", "Total") that are not facts of the game.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ludoteca.cards import Game
from ludoteca.companion.engine.scoring.el_mapa import LABELS as SCORE_LINES
from ludoteca.generator.games import card_size
from ludoteca.generator.model import Component, Face, GeneratorError, Options
from ludoteca.generator.sheets import Board
from ludoteca.generator.words import words

GAME = "el_mapa"
TEMPLATES = "el_mapa"
MIN_TILE_MM = 30

#: Each level has its own colour AND its own shape (and its count of bars), so that nothing
#: depends on telling colours apart.  Level 4 is the wonders' level (buildings only).
LEVEL_STYLE: dict[int, dict[str, str]] = {
    1: {"fill": "#3f7f3a", "dark": "#2c5c28", "light": "#8fc27f", "shape": "circle"},
    2: {"fill": "#2f5f9e", "dark": "#203f6b", "light": "#8fb0dc", "shape": "diamond"},
    3: {"fill": "#9e2f3a", "dark": "#6b1f27", "light": "#dc8f98", "shape": "hexagon"},
    4: {"fill": "#c99a12", "dark": "#7a5c08", "light": "#f0d98a", "shape": "star"},
}

#: The drawing (icon) and ground colour of each terrain id; "" draws nothing (open plain).
TERRAIN_ART: dict[str, tuple[str, str]] = {
    "llanura": ("", "#e3ebc8"),
    "pradera": ("meadow", "#dcecc0"),
    "bosque": ("forest", "#d3e3b8"),
    "pinos": ("pine", "#d3e3b8"),
    "montana": ("mountain", "#e6dfcf"),
    "paso": ("mountain_pass", "#e6dfcf"),
    "colinas": ("hills", "#e2e8bf"),
    "manzanos": ("apple_tree", "#e0eac4"),
    "sembrado": ("field", "#f0e6bd"),
    "lago": ("lake", "#d8e8f2"),
    "cueva": ("cave", "#e3dbcf"),
    "cementerio": ("graveyard", "#dcdfd3"),
}

#: Counter colours by what they count (resources use their own data colour).
COUNTER_COLOUR = {"troop": "#7a6a58", "battle_points": "#a8322a", "obstacle": "#6b6b5b"}
COUNTER_ICON = {"battle_points": "banner", "obstacle": "rocks"}
MARKER_ICON = {"marcador_pueblo": "village", "marcador_mina": "mine", "marcador_ejercito": "flag",
               "marcador_peloton": "sword"}

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}

#: The score sheet's rows: each rule game.yaml's `scoring` lists and the scoring line it makes, in
#: scoring's order (the words are scoring's LABELS).
SCORE_ROWS = (("building", "buildings"), ("wonder_bonus", "wonders"),
              ("per_defeated_unit", "battles"), ("per_revealed_tile", "tiles"))

#: Interface words (not facts of the game), Spanish first.
LABELS: dict[str, dict[str, str]] = words(GAME, "labels")
#: What each component is called (the kit's contents list).
TITLES = words(GAME, "titles")


def components(game: Game, opts: Options) -> list[Component]:
    """Every printable component of El Mapa, in the order a player assembles the box."""
    levels = _levels(game)
    return [
        _tiles(game, levels),
        _tech_cards(game, levels),
        _buildings(game, levels),
        *_castle_boards(game, levels, opts),
        _battle_board(game),
        *_counters(game),
        *_player_markers(game),
        _setup_maps(game, levels),
        _player_aid(game, levels),
        _score_pad(game),
    ]


# ---------------------------------------------------------------- helpers

def _levels(game: Game) -> dict[int, dict[str, Any]]:
    """Style of every level used by tiles, tech cards and buildings."""
    used = {e["level"] for kind in ("tile", "tech_card", "building") for e in game.entries(kind)}
    missing = sorted(used - set(LEVEL_STYLE))
    if missing:
        raise GeneratorError(f"el_mapa: no colour and symbol for level {missing[0]}")
    return {n: dict(LEVEL_STYLE[n], roman=ROMAN[n]) for n in used}


def _copies(face: Face, n: int) -> list[Face]:
    return [face] * n


def _resource_icon(game: Game, resource_id: str) -> str:
    return game.get("resource", resource_id)["symbol"]


def _cost(game: Game, cost: dict[str, int]) -> list[dict[str, Any]]:
    return [{"icon": _resource_icon(game, r), "n": n, "name": game.get("resource", r)["name"]}
            for r, n in cost.items()]


def _label(key: str, **values: Any) -> dict[str, str]:
    return {lang: text.format(**values) for lang, text in LABELS[key].items()}


def _title(key: str, **values: Any) -> dict[str, str]:
    return {lang: text.format(**values) for lang, text in TITLES[key].items()}


def _terrain(tile: dict) -> tuple[list[str], str]:
    """The drawings of a tile's terrain and its ground colour."""
    icons: list[str] = []
    ground = ""
    for tid in tile["terrain"]:
        if tid not in TERRAIN_ART:
            raise GeneratorError(f"el_mapa: tile '{tile['id']}': terrain '{tid}' has no drawing "
                                 "(add it to TERRAIN_ART in generator/games/el_mapa.py)")
        icon, colour = TERRAIN_ART[tid]
        if icon:
            icons.append(icon)
            ground = ground or colour
    return icons, ground or TERRAIN_ART[tile["terrain"][0]][1]


def _content(game: Game, item: dict) -> dict[str, Any]:
    """One thing printed on a tile, as the template draws it."""
    kind = item["type"]
    out: dict[str, Any] = {"count": item.get("count", 1), "level": item.get("level") or 0,
                           "badge": "", "guard": kind == "guard"}
    if kind == "village":
        out["icon"] = "village"
    elif kind == "mine":
        out["icon"] = "mine"
        out["badge"] = _resource_icon(game, item["resource"])
    elif kind == "treasure":
        out["icon"] = "treasure"
    elif kind == "spell_mine":
        out["icon"] = "spell"
    elif kind == "guard":
        out["icon"] = item["troop"]
    else:
        raise GeneratorError(f"el_mapa: tile content type '{kind}' has no drawing")
    return out


# ---------------------------------------------------------------- map tiles

def _tiles(game: Game, levels: dict) -> Component:
    size = float(game.meta["print"]["map_tile_mm"])
    if size < MIN_TILE_MM:
        raise GeneratorError(f"el_mapa: game.yaml print.map_tile_mm: at least {MIN_TILE_MM}, got {size:g}")
    backs_by_level = {n: Face(f"{TEMPLATES}/tile_back.svg.j2",
                              {"level": n, "style": levels[n], "roman": ROMAN[n],
                               "label": LABELS["level"]}, f"back_{n}")
                      for n in levels}
    fronts: list[Face] = []
    backs: list[Face] = []
    for tile in sorted(game.entries("tile"), key=lambda e: e["level"]):
        terrain, ground = _terrain(tile)
        face = Face(f"{TEMPLATES}/tile_front.svg.j2", {
            "id": tile["id"], "name": tile["name"], "level": tile["level"],
            "style": levels[tile["level"]], "terrain": terrain, "ground": ground,
            "contents": [_content(game, c) for c in tile.get("contents", [])],
            "closed": bool(tile.get("closed_side", False)),
        }, tile["id"])
        fronts += _copies(face, tile["copies"])
        backs += _copies(backs_by_level[tile["level"]], tile["copies"])
    return Component(GAME, "tiles", TITLES["tiles"],
                     (size, size), fronts, backs, deck=True)


# ---------------------------------------------------------------- tech cards

def _tech_cards(game: Game, levels: dict) -> Component:
    fronts: list[Face] = []
    backs: list[Face] = []
    back = {n: Face(f"{TEMPLATES}/tech_back.svg.j2",
                    {"level": n, "roman": ROMAN[n], "style": levels[n], "title": LABELS["tech"],
                     "labels": {"level": LABELS["level"]}}, f"back_{n}")
            for n in levels}
    for card in sorted(game.entries("tech_card"), key=lambda e: e["level"]):
        face = Face(f"{TEMPLATES}/tech_card.svg.j2", {
            "id": card["id"], "name": card["name"], "level": card["level"],
            "roman": ROMAN[card["level"]], "style": levels[card["level"]], "art": card["art"],
            "effect": card["effect"], "boost": card.get("boost"),
            "labels": {"kind": LABELS["tech"]},
        }, card["id"])
        fronts += _copies(face, card["copies"])
        backs += _copies(back[card["level"]], card["copies"])
    return Component(GAME, "tech_cards", TITLES["tech_cards"],
                     card_size(game, "tech_card"), fronts, backs, deck=True)


# ---------------------------------------------------------------- buildings

def _castle_copies(game: Game) -> int:
    """Castle-scope buildings come one set per castle board."""
    return sum(b["copies"] for b in game.entries("board") if b.get("slots"))


def _buildings(game: Game, levels: dict) -> Component:
    size = float(game.meta["print"]["building_tile_mm"])
    sets = _castle_copies(game)
    fronts: list[Face] = []
    for b in sorted(game.entries("building"), key=lambda e: (e["level"], bool(e.get("variant")))):
        face = Face(f"{TEMPLATES}/building.svg.j2", {
            "id": b["id"], "name": b["name"], "level": b["level"], "style": levels[b["level"]],
            "cost": _cost(game, b["cost"]), "effect": b["effect"], "art": b["art"],
            "extra_points": b.get("extra_points", 0), "wonder": bool(b.get("wonder")),
            "variant": LABELS["variant"] if b.get("variant") else None, "marker": b.get("marker"),
        }, b["id"])
        fronts += _copies(face, 1 if b.get("scope") == "shared" else sets)
    return Component(GAME, "buildings", TITLES["buildings"],
                     (size, size), fronts)


# ---------------------------------------------------------------- boards

def _troop_row(game: Game, troop_id: str) -> dict[str, Any]:
    troop = game.get("troop", troop_id)
    return {"icon": troop_id, "name": troop["name"], "every": troop["recruit_every"],
            "every_label": _label("every", n=troop["recruit_every"])}


def _pyramid(slots: list[dict], slot_mm: float, height: float, margin: float = 3.5,
             gap: float = 2.0, row_gap: float = 3.2) -> list[dict[str, Any]]:
    """Place the building slots: level 1 along the bottom, each higher slot centred over the
    slots it rests on, so the "two below" rule reads straight off the board."""
    pitch = slot_mm + gap
    centre: dict[str, float] = {}
    placed = []
    first = [s for s in slots if not s.get("rests_on")]
    for i, slot in enumerate(first):
        centre[slot["id"]] = margin + slot_mm / 2 + i * pitch
    for slot in sorted(slots, key=lambda s: s["level"]):
        supports = list(slot.get("rests_on", []))
        if supports:
            missing = [s for s in supports if s not in centre]
            if missing:
                raise GeneratorError(f"el_mapa: boards.yaml slot '{slot['id']}': rests_on: "
                                     f"'{missing[0]}' is not a lower slot")
            centre[slot["id"]] = sum(centre[s] for s in supports) / len(supports)
        y = height - margin - slot_mm - (slot["level"] - 1) * (slot_mm + row_gap)
        placed.append({"id": slot["id"], "level": slot["level"], "x": centre[slot["id"]] - slot_mm / 2,
                       "y": y, "rests_on": supports})
    by_id = {p["id"]: p for p in placed}
    for p in placed:
        p["supports"] = [{"x": by_id[s]["x"], "y": by_id[s]["y"]} for s in p["rests_on"]]
    return placed


def _orient(size: tuple[float, float], opts: Options) -> tuple[tuple[float, float], bool]:
    """Turn a board a quarter when that saves splitting it across pages."""
    if Board.make(opts.paper, size, opts.bleed_mm).split:
        turned = (size[1], size[0])
        if not Board.make(opts.paper, turned, opts.bleed_mm).split:
            return turned, True
    return size, False


def _castle_boards(game: Game, levels: dict, opts: Options) -> list[Component]:
    out = []
    for board in game.entries("board"):
        if not board.get("slots"):
            continue
        slot_mm = float(game.meta["print"]["building_tile_mm"])
        size = (float(board["size_mm"]["width"]), float(board["size_mm"]["height"]))
        placed = _pyramid(board["slots"], slot_mm, size[1])
        for slot in placed:
            level = slot["level"]
            takes = "–".join(ROMAN[n] for n in (1, level)) if level > 1 else ROMAN[1]
            slot.update(style=LEVEL_STYLE[level], takes=_label("slot_takes", levels=takes))
        context = {
            "id": board["id"], "name": board["name"], "slots": placed, "slot_mm": slot_mm,
            "pyramid_right": max(s["x"] for s in placed) + slot_mm,
            "rule": game.meta["building_rules"]["text"],
            "recruit": [_troop_row(game, t) for t in board.get("recruitment_track", [])],
            "trades": [{"give": _cost(game, tr["give"]), "receive": _cost(game, tr["get"])}
                       for tr in game.meta["bank_trades"]] if board.get("shows_trade_table") else [],
            "treasure": [{"roll": o["roll"], "gain": _cost(game, o["gain"])}
                         for o in game.meta["treasure_table"]["outcomes"]],
            "labels": {k: LABELS[k] for k in ("castle", "recruit", "reserve", "bank", "treasure")},
        }
        size, context["turned"] = _orient(size, opts)
        fronts = [Face(f"{TEMPLATES}/castle_board.svg.j2", context, f"{board['id']}")] * board["copies"]
        out.append(Component(GAME, "castle_boards", TITLES["castle_boards"],
                             size, fronts, layout="board"))
    return out


def _battle_board(game: Game) -> Component:
    board = game.get("board", game.meta["battle"]["board"])
    grid = board["grid"]
    deploy = board.get("deploy_rows", [])
    obstacles = board.get("obstacles") or {}
    context = {
        "id": board["id"], "name": board["name"], "rows": grid["rows"], "cols": grid["cols"],
        "deploy": {str(r): (LABELS["attacker"] if i == 0 else LABELS["defender"])
                   for i, r in enumerate(deploy)},
        "obstacle_rows": list(obstacles.get("rows", [])),
        "labels": {"obstacles": LABELS["obstacle_row"]},
    }
    size = (float(board["size_mm"]["width"]), float(board["size_mm"]["height"]))
    return Component(GAME, "battle_board", TITLES["battle_board"],
                     size, [Face(f"{TEMPLATES}/battle_board.svg.j2", context, board["id"])] * board["copies"],
                     layout="board")


# ---------------------------------------------------------------- counters and markers

def _counters(game: Game) -> list[Component]:
    """Counters grouped by printed size (one sheet kind per size)."""
    by_size: dict[int, list[Face]] = defaultdict(list)
    for c in game.entries("counter"):
        what = c["what"]
        if what == "resource":
            res = game.get("resource", c["resource"])
            icon, colour = res["symbol"], res["colour"]
        elif what == "troop":
            icon, colour = c["troop"], COUNTER_COLOUR["troop"]
        else:
            icon, colour = COUNTER_ICON[what], COUNTER_COLOUR[what]
        face = Face(f"{TEMPLATES}/counter.svg.j2", {
            "id": c["id"], "name": c["name"], "icon": icon, "colour": colour,
            "value": c.get("value", 1), "shape": c["shape"], "marker": c.get("marker")}, c["id"])
        by_size[c["size_mm"]] += _copies(face, c["copies"])
    return [Component(GAME, f"counters_{size}mm", _title("counters_mm", size=size),
                      (float(size), float(size)), faces)
            for size, faces in sorted(by_size.items())]


def _player_markers(game: Game) -> list[Component]:
    """Markers in every player colour; two-sided ones (army: ready / tired) on their own sheets."""
    groups: dict[tuple[int, bool], tuple[list[Face], list[Face]]] = {}
    for m in game.entries("player_marker"):
        two = bool(m.get("two_sided"))
        fronts, backs = groups.setdefault((m["size_mm"], two), ([], []))
        for colour in game.entries("player_colour"):
            ctx = {"id": m["id"], "name": m["name"], "icon": MARKER_ICON.get(m["id"], "flag"),
                   "shape": m["shape"], "colour": {"hex": colour["hex"], "symbol": colour["symbol"],
                                                   "name": colour["name"]}}
            fronts += _copies(Face(f"{TEMPLATES}/marker.svg.j2", dict(ctx, back=False),
                                   f"{m['id']}_{colour['id']}"), m["copies"])
            if two:
                backs += _copies(Face(f"{TEMPLATES}/marker.svg.j2", dict(ctx, back=True),
                                      f"{m['id']}_{colour['id']}_back"), m["copies"])
    out = []
    for (size, two), (fronts, backs) in sorted(groups.items()):
        cid = f"markers_{size}mm" + ("_two_sided" if two else "")
        out.append(Component(GAME, cid, _title("markers_mm", size=size),
                             (float(size), float(size)), fronts, backs if two else None))
    return out


# ---------------------------------------------------------------- setup maps, aid, score pad

def _setup_maps(game: Game, levels: dict) -> Component:
    rule = game.singles.get("map_rule", {})
    cells = {str(c["code"]): c for c in rule.get("cells", [])}
    fronts = []
    for m in sorted(game.entries("map"), key=lambda e: e["players"]):
        grid = [[str(code) for code in row] for row in m["grid"]]
        counts: dict[int, int] = defaultdict(int)
        for row in grid:
            for code in row:
                if code.isdigit():
                    counts[int(code)] += 1
        used = {code for row in grid for code in row}
        legend = [{"code": code, "meaning": c["meaning"], "level": c.get("level") or 0}
                  for code, c in cells.items()
                  if any(u == code or (u.startswith(code) and u[len(code):].isdigit()) for u in used)]
        fronts.append(Face(f"{TEMPLATES}/setup_map.svg.j2", {
            "id": m["id"], "name": m["name"], "players": m["players"], "grid": grid,
            "styles": {str(n): levels[n] for n in levels},
            "counts": [{"level": n, "n": counts[n], "style": levels[n]} for n in sorted(counts)],
            "legend": legend, "hole": rule.get("hole_code", ""), "supply": rule.get("supply", ""),
            "colours": [{"hex": c["hex"], "symbol": c["symbol"]} for c in game.entries("player_colour")],
            "labels": {"players": _label("players", n=m["players"]), "setup": LABELS["setup"],
                       "tiles_needed": LABELS["tiles_needed"], "level": LABELS["level"]},
        }, m["id"]))
    if not fronts:
        raise GeneratorError("el_mapa: maps.yaml holds no map")
    return Component(GAME, "setup_maps", TITLES["setup_maps"],
                     (0.0, 0.0), fronts, layout="page")


def turn_steps(game: Game) -> list[dict]:
    """The turn in a few paragraphs ({es, en}), as the player aid and the rulebook's summary say it."""
    meta = game.meta
    return [meta[key]["text"] for key in ("production", "building_rules", "trade", "army_limit",
                                          "movement", "battle", "spells")]


def _player_aid(game: Game, levels: dict) -> Component:
    meta = game.meta
    troops = [{"icon": t["id"], "name": t["name"], "cost": _cost(game, t["cost"]), "hp": t["hp"],
               "damage": t["damage"], "ranged": bool(t.get("ranged")), "map_move": t["map_move"],
               "battle_move": t["battle_move"], "every": t["recruit_every"], "points": t["points"]}
              for t in game.entries("troop")]
    buildings = [{"name": b["name"], "level": b["level"], "style": levels[b["level"]],
                  "cost": _cost(game, b["cost"]), "effect": b["effect"], "wonder": bool(b.get("wonder")),
                  "variant": bool(b.get("variant"))}
                 for b in sorted(game.entries("building"), key=lambda e: e["level"])]
    context = {
        "title": meta["name"], "steps": turn_steps(game), "troops": troops, "buildings": buildings,
        "trades": [{"give": _cost(game, tr["give"]), "receive": _cost(game, tr["get"])}
                   for tr in meta["bank_trades"]],
        "end": [e["text"] for e in meta["end_conditions"]], "scoring": meta["scoring"]["text"],
        "labels": {k: LABELS[k] for k in ("aid", "turn", "buildings", "troops", "cost", "effect", "hp",
                                          "damage", "map_move", "battle_move", "points", "end", "bank",
                                          "train_every", "ranged")},
    }
    return Component(GAME, "player_aid", TITLES["player_aid"], (0.0, 0.0),
                     [Face(f"{TEMPLATES}/player_aid.svg.j2", context, "player_aid")], layout="page")


def _score_pad(game: Game) -> Component:
    meta = game.meta
    rows = [SCORE_LINES[line] for rule, line in SCORE_ROWS if rule in meta["scoring"]]
    context = {"title": meta["name"], "players": meta["players"]["max"], "rows": rows,
               "scoring": meta["scoring"]["text"],
               "colours": [{"hex": c["hex"], "symbol": c["symbol"]} for c in game.entries("player_colour")],
               "labels": {k: LABELS[k] for k in ("score", "player", "total", "game", "date")}}
    return Component(GAME, "score_pad", TITLES["score_pad"], (0.0, 0.0),
                     [Face(f"{TEMPLATES}/score_pad.svg.j2", context, "score_pad")], layout="page")

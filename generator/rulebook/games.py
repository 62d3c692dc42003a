"""The parts of each book generated from the card data: the box, card tables, maps, records.

Every number printed by these parts is read from the data when the book is built.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..games import plain
from .blocks import Block, Heading, Items, MapGrid, Para, Table, icon, markup
from .context import Context
from .source import RulebookError, texts


def _labels(ctx: Context) -> dict:
    return texts(ctx.game.id).get("labels", {})


def label(ctx: Context, key: str, **values: Any) -> str:
    """A word of the game's texts file (``labels:``), filled with ``values``."""
    table = _labels(ctx)
    if key not in table:
        raise RulebookError(f"{ctx.game.id}.yaml: labels.{key}: missing (an {{es, en}} text)")
    text = ctx.t(table[key])
    return text.format(**values) if values else text


def _name(ctx: Context, value: Any) -> str:
    """A card named in a record (id or either language), shown in the book's language: the
    first kind (in order) with an entry of that name that has one."""
    for kind in ctx.game.kinds:
        entry = ctx.game.lookup(kind, str(value))
        if entry is not None and isinstance(entry.get("name"), dict):
            return ctx.t(entry["name"])
    return str(value)


def describe_player(ctx: Context, record: dict, player: dict) -> str:
    """One line of the worked example: a player's end state, every field of the record in words."""
    parts = []
    for key, value in player.items():
        if key == "name":
            continue
        if isinstance(value, list):
            shown = ", ".join(_name(ctx, v) for v in value) or "—"
        elif isinstance(value, dict):
            shown = ", ".join(f"{n} {_name(ctx, k)}" for k, n in value.items()) or "—"
        else:
            shown = str(value)
        parts.append(label(ctx, f"record_{key}", value=shown))
    for key, value in record.items():
        if key not in ("game", "players") and value == player.get("name"):
            parts.append(label(ctx, f"record_{key}"))
    return f"<b>{markup(player['name'])}</b>: " + markup("; ".join(parts)) + "."


def turn_summary(ctx: Context, sections: list[tuple[str, list]]) -> list[Block]:
    """The last page: the turn in short, the very lines the kit's reference card or player aid
    prints (``sections``: a title, or none, and its {es, en} lines)."""
    out: list[Block] = [Heading(1, markup(ctx.w("turn_summary")), new_page=True),
                        Para(markup(ctx.w("turn_summary_intro")), "small")]
    for title, lines in sections:
        if title:
            out.append(Heading(3, markup(title)))
        out.append(Items([ctx.m(line) for line in lines], numbered=len(sections) == 1, small=True))
    return out


# ---------------------------------------------------------------- Ciudadelas

def _colours(ctx: Context) -> dict[str, dict]:
    return {c["id"]: c for c in ctx.game.entries("colour")}


def _dot(ctx: Context, colour_id: str) -> str:
    return icon("dot", _colours(ctx)[colour_id]["hex"])


#: the cover pictures' size: the width of a book's text column, a little wider than high
COVER_MM = (124.0, 86.0)


def ciudadelas_cover(ctx: Context) -> list[Block]:
    characters = [c["id"] for c in sorted(ctx.game.entries("character"), key=lambda e: e["number"])]
    return [ctx.picture("ciudadelas/cover.svg.j2",
                        {"characters": characters, "colours": [c["hex"] for c in ctx.game.entries("colour")]},
                        COVER_MM)]


#: a setup picture's size: the text column's width
SETUP_MM = (124.0, 84.0)


def ciudadelas_setup(ctx: Context) -> list[Block]:
    meta, counts = ctx.game.meta, ctx.game.counts()
    card = 15.0
    cards: list[tuple] = [("districts", True, 0, 8 + k * 0.7, 9 - k * 0.7, card, 0) for k in range(3)]
    cards += [("characters", True, 0, 62 + k * 0.7, 9 - k * 0.7, card, 0) for k in range(3)]
    cards += [("crown", False, 0, 94, 8, card, 0)]
    hand = int(meta["starting_cards"])
    cards += [("districts", True, 0, 10 + k * 7, 54, card, (k - (hand - 1) / 2) * 8) for k in range(hand)]
    cards += [("reference", False, 0, 96, 52, card * 1.2, 0)]
    labels = [
        {"text": label(ctx, "setup_deck", n=counts["districts"]), "x": 16, "y": 38},
        {"text": label(ctx, "setup_bank"), "x": 42, "y": 38},
        {"text": label(ctx, "setup_characters", n=counts["characters"]), "x": 70, "y": 38},
        {"text": label(ctx, "setup_crown"), "x": 102, "y": 38},
        {"text": label(ctx, "setup_hand", n=hand), "x": 22, "y": 80},
        {"text": label(ctx, "setup_gold", n=meta["starting_gold"]), "x": 60, "y": 80},
        {"text": label(ctx, "setup_reference"), "x": 105, "y": 80},
    ]
    context = {"middle": label(ctx, "setup_middle"), "each": label(ctx, "setup_each"), "labels": labels,
               "bank": {"x": 35, "y": 26, "n": 14}, "purse": {"x": 57, "y": 66, "n": int(meta["starting_gold"])}}
    return [ctx.scene("ciudadelas/setup_table.svg.j2", context, SETUP_MM, cards)]


def ciudadelas_turn_summary(ctx: Context) -> list[Block]:
    from ..games.ciudadelas import turn_steps
    return turn_summary(ctx, [("", turn_steps(ctx.game))])


def ciudadelas_box(ctx: Context) -> list[Block]:
    g = ctx.game
    counts = g.counts()
    by_colour = counts["districts_by_colour"]
    colours = ", ".join(f"{by_colour.get(c['id'], 0)} {ctx.t(c['name'])}" for c in g.entries("colour"))
    items = [label(ctx, "box_districts", n=counts["districts"], kinds=counts["districts_kinds"],
                   colours=colours),
             label(ctx, "box_characters", n=counts["characters"])]
    items += [f"{c['copies']} × {ctx.t(c['name'])}: {ctx.t(c['description'])}" for c in g.entries("component")]
    items.append(label(ctx, "box_gold"))
    return [Heading(1, markup(ctx.w("box"))),
            Items([markup(i) for i in items])]


def ciudadelas_colours(ctx: Context) -> list[Block]:
    by_colour = ctx.game.counts()["districts_by_colour"]
    rows = [[_dot(ctx, c["id"]) + markup(ctx.t(c["name"])), ctx.m(c["category"]),
             str(by_colour.get(c["id"], 0))] for c in ctx.game.entries("colour")]
    return [Table([markup(ctx.w("colour")), markup(label(ctx, "category")), markup(ctx.w("count"))],
                  rows, widths=[1.4, 1.6, 0.8])]


def ciudadelas_characters(ctx: Context) -> list[Block]:
    out: list[Block] = []
    for c in sorted(ctx.game.entries("character"), key=lambda e: e["number"]):
        lead = f"{c['number']}. {ctx.t(c['name'])}"
        dot = _dot(ctx, c["income_colour"]) if c.get("income_colour") else ""
        out.append(Para(f"<b>{markup(lead)}</b> {dot}{ctx.m(c['ability'])}"))
    return out


def ciudadelas_draft(ctx: Context) -> list[Block]:
    draft = ctx.game.meta["character_draft"]["by_players"]
    rows = []
    for n in sorted(draft, key=int):
        row = draft[n]
        rows.append([str(n), str(row["face_up"]), str(row["face_down_before"]), str(row["characters_each"]),
                     str(row.get("face_down_after", 0))])
    head = [label(ctx, "draft_players"), label(ctx, "draft_up"), label(ctx, "draft_down_before"),
            label(ctx, "draft_each"), label(ctx, "draft_down_after")]
    return [Table([markup(h) for h in head], rows, widths=[1, 1.3, 1.5, 1.3, 1.5])]


def ciudadelas_districts(ctx: Context) -> list[Block]:
    rows = [[_dot(ctx, d["colour"]) + markup(ctx.t(d["name"])), str(d["cost"]), str(d["copies"])]
            for d in ctx.game.entries("district") if not d.get("effect")]
    return [Table([markup(ctx.w("name")), markup(ctx.w("cost")), markup(ctx.w("copies"))], rows,
                  widths=[2.6, 1, 1])]


def ciudadelas_wonders(ctx: Context) -> list[Block]:
    rows = []
    for d in ctx.game.entries("district"):
        if not d.get("effect"):
            continue
        text = ctx.m(d["effect"])
        rows.append([_dot(ctx, d["colour"]) + markup(ctx.t(d["name"])), str(d["cost"]), str(d["copies"]), text])
    return [Table([markup(ctx.w("name")), markup(ctx.w("cost")), markup(ctx.w("copies")),
                   markup(ctx.w("effect"))], rows, widths=[2.4, 1.1, 1.3, 5.0])]


def ciudadelas_tie(ctx: Context) -> list[Block]:
    rule = ctx.game.meta["tie_break"]["rule"]
    return [Para(markup(label(ctx, f"tie_{rule}")))]


def ciudadelas_dark_city(ctx: Context) -> list[Block]:
    rows = [[_dot(ctx, d["colour"]) + markup(ctx.t(d["name"])), str(d["cost"]), ctx.m(d.get("effect", ""))]
            for d in ctx.game.entries("dark_district")]
    return [Table([markup(ctx.w("name")), markup(ctx.w("cost")), markup(ctx.w("effect"))], rows,
                  widths=[2.4, 1.1, 5.6])]


# ---------------------------------------------------------------- El Mapa

def _level_styles() -> dict[int, dict]:
    from ..games.el_mapa import LEVEL_STYLE
    return LEVEL_STYLE


def el_mapa_turn_summary(ctx: Context) -> list[Block]:
    from ..games.el_mapa import turn_steps
    meta = ctx.game.meta
    return turn_summary(ctx, [(ctx.w("your_turn"), turn_steps(ctx.game)),
                              (ctx.w("game_end"), [e["text"] for e in meta["end_conditions"]]
                               + [meta["scoring"]["text"]])])


def el_mapa_setup(ctx: Context) -> list[Block]:
    tile, divider = 9.0, 44.0
    # a corner of the map: the level I ring, level II inside; one player's start face up
    grid = [[1, 1, 1, 1, 1], [1, 2, 2, 2, 1], [1, 2, 3, 2, 1]]
    starts = {(2, 0): "pueblo", (1, 0): "mina_madera", (2, 1): "mina_piedra_leva"}
    backs = {n: ctx.component("tiles").backs.index(next(b for b in ctx.component("tiles").backs
                                                       if b.context["level"] == n)) for n in (1, 2, 3)}
    cards: list[tuple] = []
    for r, row in enumerate(grid):
        for k, level in enumerate(row):
            x, y = 6 + k * (tile + 0.6), 10 + r * (tile + 0.6)
            if (r, k) in starts:
                comp, index = ctx.face_where(id=starts[r, k])
                cards.append((comp, False, index, x, y, tile, 0))
            else:
                cards.append(("tiles", True, backs[level], x, y, tile, 0))
    tech = ctx.component("tech_cards")
    for n, level in enumerate((1, 2, 3)):
        index = next(i for i, b in enumerate(tech.backs) if b.context["level"] == level)
        cards += [("tech_cards", True, index, 62 + n * 14 + k * 0.6, 10 - k * 0.6, 11.0, 0) for k in range(3)]
    for n, counter in enumerate(("madera_1", "piedra_1", "oro_1")):
        comp, index = ctx.face_where(id=counter)
        cards.append((comp, False, index, 106 + (n % 2) * 8, 10 + n * 8, 7.5, 0))
    board, index = "castle_boards", 0
    cards.append((board, False, index, 6, divider + 8, 20.0, 0))
    marker, index = ctx.face_where(id="marcador_pueblo")
    cards += [(marker, False, index, 36 + k * 9, divider + 16, 7.5, 0) for k in range(3)]
    labels = [
        {"text": label(ctx, "setup_map"), "x": 6, "y": 42, "anchor": "start"},
        {"text": label(ctx, "setup_tech"), "x": 82, "y": 33, "anchor": "middle"},
        {"text": label(ctx, "setup_supply"), "x": 114, "y": 42, "anchor": "middle"},
        {"text": label(ctx, "setup_castle"), "x": 30, "y": divider + 12, "anchor": "start"},
        {"text": label(ctx, "setup_markers"), "x": 36, "y": divider + 29, "anchor": "start"},
    ]
    context = {"middle": label(ctx, "setup_middle"), "each": label(ctx, "setup_each"),
               "divider": divider, "labels": labels}
    return [ctx.scene("el_mapa/setup_table.svg.j2", context, SETUP_MM, cards)]


def el_mapa_cover(ctx: Context) -> list[Block]:
    styles = _level_styles()
    levels = [{"fill": styles[n]["fill"], "light": styles[n]["light"]} for n in sorted(styles)]
    colours = [c["hex"] for c in ctx.game.entries("player_colour")]
    return [ctx.picture("el_mapa/cover.svg.j2", {"levels": levels, "colours": colours}, COVER_MM)]


def _level(ctx: Context, level: int) -> str:
    """The level badge of the kit's tiles and buildings (its colour and its shape) with its number."""
    style = _level_styles().get(level, {"fill": "#555555", "shape": "circle"})
    return icon("level", style["fill"], str(level), style["shape"])


def _res(ctx: Context, amounts: dict, sep: str = ", ") -> str:
    """``{oro: 3, madera: 1}`` as '3 Gold, 1 Wood' with each resource's colour dot
    (``sep="<br/>"``: one resource a line, so an icon never parts from its words)."""
    parts = []
    for rid, n in amounts.items():
        res = ctx.game.get("resource", rid)
        parts.append(icon("dot", res["colour"]) + markup(f"{n}\u00a0{ctx.t(res['name'])}"))
    return sep.join(parts)


def _castle_sets(ctx: Context) -> int:
    return sum(b["copies"] for b in ctx.game.entries("board") if b.get("slots"))


def el_mapa_box(ctx: Context) -> list[Block]:
    g = ctx.game
    counts = g.counts()
    by_level = ", ".join(label(ctx, "per_level", n=n, level=lv) for lv, n in sorted(counts["tiles_by_level"].items()))
    tech_levels = ", ".join(label(ctx, "per_level", n=n, level=lv)
                            for lv, n in sorted(counts["tech_cards_by_level"].items()))
    sets = _castle_sets(ctx)
    castle = [b for b in g.entries("building") if b.get("scope") != "shared"]
    shared = [b for b in g.entries("building") if b.get("scope") == "shared"]
    items = [label(ctx, "box_tiles", n=counts["tiles"], kinds=counts["tiles_kinds"], levels=by_level),
             label(ctx, "box_tech", n=counts["tech_cards"], kinds=counts["tech_cards_kinds"], levels=tech_levels)]
    for b in g.entries("board"):
        items.append(f"{b['copies']} × {ctx.t(b['name'])}: {ctx.t(b['text'])}")
    items.append(label(ctx, "box_buildings", n=len(castle) * sets + len(shared), sets=sets,
                       kinds=len(castle), shared=len(shared)))
    items += _counters(ctx)
    colours = g.entries("player_colour")
    for m in g.entries("player_marker"):
        items.append(label(ctx, "box_markers", n=m["copies"] * len(colours), name=ctx.t(m["name"]),
                           each=m["copies"], colours=len(colours)))
    items.append(label(ctx, "box_maps", n=counts["maps"]))
    return [Heading(1, markup(ctx.w("box"))),
            Items([markup(i) for i in items])]


def _counters(ctx: Context) -> list[str]:
    """The counters as the box lists them: the counters of one thing (a resource, a troop, the
    battle points) on one line with their values ("Contadores de madera: 15 de valor 5 y 25 de
    valor 1."), not "15 × Madera ×5"; a counter alone of its kind as "5 × Obstáculo"."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for c in ctx.game.entries("counter"):
        group = ("resource", c["resource"]) if c.get("resource") else \
            ("troop", c["troop"]) if c.get("troop") else ("what", c["what"])
        groups.setdefault(group, []).append(c)
    lines = []
    for (kind, key), counters in groups.items():
        if len(counters) == 1:
            lines.append(f"{counters[0]['copies']} × {ctx.t(counters[0]['name'])}")
            continue
        what = ctx.t(ctx.game.get(kind, key)["name"]) if kind != "what" else label(ctx, f"counter_{key}")
        values = label(ctx, "and").join(label(ctx, "counter_value", n=c["copies"], value=c["value"])
                                        for c in counters)
        lines.append(label(ctx, "box_counters", what=what, lower=what.lower(), values=values))
    return lines


def _contents(ctx: Context, tile: dict) -> str:
    parts = []
    for c in tile.get("contents") or []:
        kind = c["type"]
        values = {"n": c.get("count", 1), "level": c.get("level", tile["level"])}
        if c.get("resource"):
            values["resource"] = ctx.t(ctx.game.get("resource", c["resource"])["name"]).lower()
        if c.get("troop"):
            values["troop"] = ctx.t(ctx.game.get("troop", c["troop"])["name"]).lower()
        parts.append(label(ctx, f"content_{kind}", **values))
    if tile.get("closed_side"):
        parts.append(label(ctx, "closed_side"))
    return markup(", ".join(parts) or label(ctx, "content_empty"))


def el_mapa_tiles(ctx: Context) -> list[Block]:
    rows = [[_level(ctx, t["level"]) + ctx.m(t["name"]), str(t["copies"]), _contents(ctx, t)]
            for t in sorted(ctx.game.entries("tile"), key=lambda e: e["level"])]
    return [Table([markup(ctx.w("name")), markup(ctx.w("copies")), markup(label(ctx, "on_tile"))], rows,
                  widths=[3.2, 1.1, 4.2])]


def el_mapa_buildings(ctx: Context) -> list[Block]:
    rows = []
    for b in sorted(ctx.game.entries("building"), key=lambda e: (e["level"], bool(e.get("variant")))):
        name = _level(ctx, b["level"]) + ctx.m(b["name"])
        if b.get("variant"):
            name += " *"
        points = str(b["level"] + b.get("extra_points", 0))
        rows.append([name, _res(ctx, b["cost"], "<br/>"), ctx.m(b["effect"]), points])
    return [Table([markup(ctx.w("name")), markup(ctx.w("cost")), markup(ctx.w("effect")),
                   markup(ctx.w("points"))], rows, widths=[2.6, 1.8, 4.2, 1.1]),
            Para(markup(label(ctx, "variant_mark")), "small")]


def el_mapa_troops(ctx: Context) -> list[Block]:
    rows = []
    for t in ctx.game.entries("troop"):
        source = ctx.t(ctx.game.get("building", t["produced_by"])["name"]) if t.get("produced_by") \
            else label(ctx, "castle")
        rows.append([ctx.m(t["name"]), _res(ctx, t["cost"], "<br/>"), str(t["hp"]), str(t["damage"]),
                     str(t["map_move"]), str(t["battle_move"]),
                     markup(label(ctx, "every", n=t["recruit_every"], where=source)), str(t["points"])])
    head = [ctx.w("name"), ctx.w("cost"), label(ctx, "hp"), label(ctx, "damage"), label(ctx, "map_move"),
            label(ctx, "battle_move"), label(ctx, "recruit"), ctx.w("points")]
    out: list[Block] = [Table([markup(h) for h in head], rows, widths=[1.4, 1.4, 0.8, 1.2, 1.0, 1.1, 2.0, 1.1])]
    for t in ctx.game.entries("troop"):
        if t.get("ranged"):
            out.append(Para(f"<b>{ctx.m(t['name'])}.</b> {ctx.m(t['ranged']['rule'])}"))
    return out


def el_mapa_trades(ctx: Context) -> list[Block]:
    return [Items([_res(ctx, tr["give"]) + " » " + _res(ctx, tr["get"]) for tr in ctx.game.meta["bank_trades"]])]


def el_mapa_treasure(ctx: Context) -> list[Block]:
    table = ctx.game.meta["treasure_table"]
    rows = [[str(o["roll"]), _res(ctx, o["gain"])] for o in table["outcomes"]]  # one line each
    return [Para(markup(label(ctx, "treasure_intro", die=table["die"]))),
            Table([markup(label(ctx, "roll")), markup(label(ctx, "gain"))], rows, widths=[1, 4])]


def el_mapa_tech(ctx: Context) -> list[Block]:
    rows = []
    for c in sorted(ctx.game.entries("tech_card"), key=lambda e: e["level"]):
        effect = ctx.m(c["effect"])
        if c.get("boost"):
            effect += " <i>" + markup(label(ctx, "boost")) + "</i> " + ctx.m(c["boost"])
        rows.append([_level(ctx, c["level"]) + ctx.m(c["name"]), str(c["copies"]),
                     markup(label(ctx, f"play_{c['play']}")), effect])
    return [Table([markup(ctx.w("name")), markup(ctx.w("copies")), markup(label(ctx, "when")),
                   markup(ctx.w("effect"))], rows, widths=[2.4, 1.0, 1.6, 5.0])]


def el_mapa_maps(ctx: Context) -> list[Block]:
    rule = ctx.game.singles.get("map_rule", {})
    styles = {str(n): s for n, s in _level_styles().items()}
    colours = [c["hex"] for c in ctx.game.entries("player_colour")]
    out: list[Block] = []
    legend = [f"<b>{markup(str(c['code']))}</b>: {ctx.m(c['meaning'])}" for c in rule.get("cells", [])
              if not c.get("level")]
    out.append(Items(legend))
    for m in sorted(ctx.game.entries("map"), key=lambda e: e["players"]):
        grid = [[str(code) for code in row] for row in m["grid"]]
        tally = Counter(code for row in grid for code in row if code.isdigit())
        counts = [(_level(ctx, int(lv)), n) for lv, n in sorted(tally.items())]
        title = f"{ctx.t(m['name'])} ({len(grid[0])} × {len(grid)})"
        out.append(MapGrid(markup(title), grid, styles, colours, str(rule.get("hole_code", "")), counts))
    return out


def el_mapa_end(ctx: Context) -> list[Block]:
    return [Items([ctx.m(e["text"]) for e in ctx.game.meta["end_conditions"]])]


def el_mapa_variants(ctx: Context) -> list[Block]:
    return [Items([f"<b>{ctx.m(v['name'])}.</b> {ctx.m(v['text'])}" for v in ctx.game.entries("variant")])]


def el_mapa_damage_example(ctx: Context) -> list[Block]:
    """A platoon of 5 of the first troop against each troop: damage and kills from the troop data."""
    troops = ctx.game.entries("troop")
    first, n = troops[0], 5
    total = n * first["damage"]
    kills = label(ctx, "or").join(label(ctx, "kills", k=total // t["hp"], name=ctx.t(t["name"]).lower(),
                                        hp=t["hp"]) for t in troops)
    return [Para(markup(label(ctx, "damage_example", n=n, name=ctx.t(first["name"]).lower(),
                              damage=first["damage"], total=total, kills=kills)))]


# ---------------------------------------------------------------- Gladiadores

def gladiadores_setup(ctx: Context) -> list[Block]:
    setup = ctx.game.meta["setup"]
    card = 12.0
    starting = [b for b in ctx.game.entries("building") if b.get("starting")]
    centre = [b for b in ctx.game.entries("building") if not b.get("starting") and b.get("symbol") == "none"]
    tiro = ctx.front_where("gladiators", kind="tiro")
    cards: list[tuple] = [("buildings", False, ctx.front_where("buildings", name=plain(b["name"])),
                           4 + k * 13.5, 10, card, 0) for k, b in enumerate(centre[:4])]
    cards += [("gladiators", False, tiro, 62 + k * 0.7, 10 - k * 0.7, card, 0) for k in range(3)]
    veteran = ctx.front_where("gladiators", kind="veteran")
    cards += [("gladiators", True, veteran, 79 + k * 0.7, 10 - k * 0.7, card, 0) for k in range(3)]
    cards += [("combat", True, 0, 96 + k * 0.7, 10 - k * 0.7, card, 0) for k in range(3)]
    n_buildings, n_tiros = int(setup["buildings_per_player"]), int(setup["starting_tiros"])
    cards += [("buildings", False, ctx.front_where("buildings", name=plain(b["name"])), 6 + k * 13.5, 53, card, 0)
              for k, b in enumerate(starting[:n_buildings])]
    cards += [("gladiators", False, tiro, 52 + k * 13.5, 53, card, 0) for k in range(n_tiros)]
    labels = [
        {"text": label(ctx, "setup_centre_buildings"), "x": 30, "y": 33},
        {"text": label(ctx, "setup_tiros"), "x": 69, "y": 33},
        {"text": label(ctx, "setup_veterans"), "x": 86, "y": 33},
        {"text": label(ctx, "setup_combat"), "x": 103, "y": 33},
        {"text": label(ctx, "setup_bank"), "x": 117, "y": 33},
        {"text": label(ctx, "setup_buildings", n=n_buildings), "x": 26, "y": 79},
        {"text": label(ctx, "setup_tiros_each", n=n_tiros), "x": 65, "y": 79},
        {"text": label(ctx, "setup_coins", n=setup["starting_coins"]), "x": 103, "y": 79},
    ]
    context = {"middle": label(ctx, "setup_middle"), "each": label(ctx, "setup_each"), "labels": labels,
               "bank": {"x": 115, "y": 26, "n": 8},
               "purse": {"x": 97, "y": 62, "n": int(setup["starting_coins"])}}
    return [ctx.scene("gladiadores/setup_table.svg.j2", context, SETUP_MM, cards)]


def gladiadores_turn_summary(ctx: Context) -> list[Block]:
    from ..games.gladiadores import aid_sections
    return turn_summary(ctx, [(ctx.t(sec["title"]), sec["lines"]) for sec in aid_sections(ctx.game)
                              if sec.get("lines") and sec.get("id") != "setup"])


def gladiadores_cover(ctx: Context) -> list[Block]:
    return [ctx.picture("gladiadores/cover.svg.j2", {}, COVER_MM)]


def _symbol(ctx: Context, symbol: str) -> str:
    return label(ctx, f"symbol_{symbol}")


def gladiadores_box(ctx: Context) -> list[Block]:
    g = ctx.game
    counts = g.counts()
    kinds = counts["gladiators_by_kind"]
    symbols = ", ".join(f"{n} {_symbol(ctx, s)}" for s, n in sorted(counts["buildings_by_symbol"].items()))
    items = [label(ctx, "box_gladiators", n=counts["gladiators"], tiros=kinds.get("tiro", 0),
                   veterans=kinds.get("veteran", 0)),
             label(ctx, "box_buildings", n=counts["buildings"], symbols=symbols),
             label(ctx, "box_combat", n=counts["combat_cards"])]
    for t in g.entries("token"):
        line = f"{t['copies']} × {ctx.t(t['name'])} ({ctx.t(t['colour_name'])})"
        if t.get("note"):
            line += f": {ctx.t(t['note'])}"
        items.append(line)
    return [Heading(1, markup(ctx.w("box"))),
            Items([markup(i) for i in items])]


def gladiadores_player_counts(ctx: Context) -> list[Block]:
    rows = []
    for row in ctx.game.meta["player_counts"]:
        players = str(row["players"]) + (" *" if row["expansion"] else "")
        rows.append([players, markup(", ".join(_symbol(ctx, s) for s in row["symbols"])),
                     str(row["starting_buildings"])])
    return [Table([markup(label(ctx, "players")), markup(label(ctx, "symbols")),
                   markup(label(ctx, "starting_buildings"))], rows, widths=[1, 3, 2]),
            Para(markup(label(ctx, "expansion_mark")), "small")]


def gladiadores_actions(ctx: Context) -> list[Block]:
    return [Items([f"<b>{ctx.m(a['name'])}.</b> {ctx.m(a['text'])}" for a in ctx.game.entries("action")])]


def gladiadores_combat(ctx: Context) -> list[Block]:
    """The combat rule of the data, one numbered step per '1)', '2)' ... of its text."""
    import re
    text = " ".join(ctx.t(ctx.game.meta["combat"]["rule"]).split())
    steps = [s.strip() for s in re.split(r"\s*\d+\)\s*", text) if s.strip()]
    return [Items([markup(s) for s in steps], numbered=True)]


def gladiadores_auction(ctx: Context) -> list[Block]:
    a = ctx.game.meta["auction"]
    steps = [label(ctx, "auction_room"),
             label(ctx, "auction_reveal", reveal=a["reveal"], choose=a["choose"]),
             label(ctx, f"auction_order_{a['order']}"),
             label(ctx, "auction_bids", rounds=a["rounds"]),
             label(ctx, f"auction_tie_{a['tie']}"),
             label(ctx, f"auction_arrives_{a['arrives']}"),
             label(ctx, "auction_none")]
    return [Items([markup(s) for s in steps], numbered=True)]


def gladiadores_gladiators(ctx: Context) -> list[Block]:
    rows = []
    for g in ctx.game.entries("gladiator"):
        name = ctx.m(g["name"])
        if g.get("ability"):
            name += "<br/>" + f'<font size="6.5">{ctx.m(g["ability"])}</font>'
        rows.append([name, str(g["combat"]), str(g["work"]), str(g["construction"]), str(g["shields"]),
                     str(g["favor"]), str(g["fight_cost"]), str(g.get("min_bid", "—")), str(g["copies"])])
    head = [ctx.w("name"), label(ctx, "combat"), label(ctx, "work"), label(ctx, "construction"),
            label(ctx, "shields"), label(ctx, "favor"), label(ctx, "fight_cost"), label(ctx, "min_bid"),
            ctx.w("copies")]
    return [Table([markup(h) for h in head], rows, widths=[3.9, 1, 1, 1, 1, 1.1, 1.1, 1.1, 1.2])]


def gladiadores_buildings(ctx: Context) -> list[Block]:
    rows = []
    for b in ctx.game.entries("building"):
        name = ctx.m(b["name"]) + f' <font size="6.5">({ctx.m(b["gloss"])})</font>'
        if b["starting"]:
            name += " ◊"
        rows.append([name, markup(_symbol(ctx, b["symbol"])), str(b["cost"]), str(b.get("points", 0)),
                     ctx.m(b["ability"])])
    return [Table([markup(ctx.w("name")), markup(label(ctx, "symbol")), markup(ctx.w("cost")),
                   markup(ctx.w("points")), markup(ctx.w("effect"))], rows, widths=[2.6, 1.1, 0.9, 0.9, 4.5]),
            Para(markup(label(ctx, "starting_mark")), "small")]


def gladiadores_combat_cards(ctx: Context) -> list[Block]:
    rows = [[ctx.m(c.get("name") or c["id"]), str(c["swords"]), str(c["shields"]), str(c["skulls"]),
             str(c["copies"])] for c in ctx.game.entries("combat_card")]
    return [Table([markup(ctx.w("name")), markup(label(ctx, "swords")), markup(label(ctx, "shields")),
                   markup(label(ctx, "skulls")), markup(ctx.w("copies"))], rows, widths=[3, 1, 1, 1, 1])]


def gladiadores_optional(ctx: Context) -> list[Block]:
    rules = ctx.game.meta.get("optional_rules", {})
    return [Para(f"<b>{ctx.m(r['name'])}.</b> {ctx.m(r['rule'])}") for r in rules.values()]

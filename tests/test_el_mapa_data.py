"""El Mapa data: counts, the seed's facts, and the map layouts against their written rule."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from ludoteca.cards import DataError, default_dir, load

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "001_1b1189934490b265.txt"


@pytest.fixture(scope="module")
def game():
    return load(games=("el_mapa",))["el_mapa"]


# --- counts -----------------------------------------------------------------------------

def test_counts_match_the_seed(game):
    counts = game.counts()
    assert counts["tiles"] == 240
    assert counts["tiles_by_level"] == {"1": 114, "2": 108, "3": 18}
    assert counts["tech_cards"] == 72
    assert counts["tech_cards_kinds"] == 12
    assert all(card["copies"] == 6 for card in game.entries("tech_card"))
    assert counts["tech_cards_by_level"] == {"1": 24, "2": 24, "3": 24}


def test_tiles_trace_back_to_seed_lines(game):
    """Kinds split from one seed line add up to the number the line starts with."""
    by_line: Counter = Counter()
    for tile in game.entries("tile"):
        by_line[(tile["level"], tile["seed_line"])] += tile["copies"]
    for (level, line), copies in by_line.items():
        assert int(line.split()[0]) == copies, (level, line)
    assert len(by_line) == 12 + 12 + 3


def test_bad_totals_are_reported(tmp_path):
    src = Path(load(games=("el_mapa",)).root) / "el_mapa"
    dst = tmp_path / "el_mapa"
    shutil.copytree(src, dst)
    tiles = dst / "tiles.yaml"
    text = tiles.read_text(encoding="utf-8")
    tiles.write_text(text.replace("  - id: cementerio\n    name: {es: Cementerio, en: Graveyard}\n"
                                  "    level: 1\n    copies: 6",
                                  "  - id: cementerio\n    name: {es: Cementerio, en: Graveyard}\n"
                                  "    level: 1\n    copies: 5", 1), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load(tmp_path, games=("el_mapa",))
    message = str(err.value)
    assert "level 1: a sum of copies of 114, got 113" in message
    assert "total: a sum of copies of 240, got 239" in message


# --- every displayed text in both languages -----------------------------------------------

def _texts(value, path=""):
    if isinstance(value, dict):
        if set(value) == {"es", "en"}:
            yield path, value
            return
        for key, item in value.items():
            yield from _texts(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _texts(item, f"{path}[{i}]")


def test_every_text_has_spanish_and_english(game):
    records = [game.meta, game.singles["map_rule"]]
    for kind in game.schema["kinds"]:
        if not game.schema["kinds"][kind].get("single"):
            records += game.entries(kind)
            for entry in game.entries(kind):
                assert "name" in entry, (kind, entry["id"])
    found = 0
    for record in records:
        for path, text in _texts(record):
            found += 1
            assert text["es"].strip() and text["en"].strip(), path
            assert text["es"] != text["en"] or len(text["es"]) < 20, path
    assert found >= 200


def _str_fields(fields, path=""):
    for name, spec in fields.items():
        spec = {"type": spec} if isinstance(spec, str) else spec
        where = f"{path}.{name}" if path else name
        if spec["type"] == "str":
            yield name
        elif spec["type"] == "object":
            yield from _str_fields(spec["fields"], where)
        elif spec["type"] == "list" and isinstance(spec["of"], dict) and spec["of"].get("type") == "object":
            yield from _str_fields(spec["of"]["fields"], where)


def test_plain_strings_are_never_displayed_text(game):
    """Only notes, codes and colours are plain strings; everything shown is {es, en}."""
    found = set()
    for spec in game.schema["kinds"].values():
        found |= set(_str_fields(spec["fields"]))
    assert found <= {"note", "seed_line", "seed_size", "colour", "hex", "code", "hole_code"}


# --- troops, buildings, trade --------------------------------------------------------------

def test_troops(game):
    stats = {t["id"]: (t["recruit_every"], t["map_move"], t["battle_move"], t["hp"], t["cost"])
             for t in game.entries("troop")}
    assert stats == {
        "leva": (1, 2, 1, 1, {"oro": 1}),
        "soldado": (2, 2, 1, 2, {"oro": 2}),
        "arquero": (1, 2, 1, 1, {"oro": 1}),
        "caballero": (3, 3, 2, 3, {"oro": 2, "madera": 1}),
    }
    assert game.get("troop", "leva")["points"] == 1 and game.get("troop", "soldado")["points"] == 2
    for troop in game.entries("troop"):
        assert troop["points"] == troop["level"]          # 'multiplicado por el nivel'
        if troop["source"] == "building":
            assert game.get("building", troop["produced_by"])["produces"] == troop["id"]
        else:
            assert "produced_by" not in troop
    assert game.get("troop", "arquero")["ranged"]["min_distance"] == 2


SEED_COSTS = {
    "cuartel": (1, 3, 1, 0), "mercado": (1, 1, 0, 0), "almacen": (1, 1, 1, 0),
    "ayuntamiento": (1, 2, 0, 0), "biblioteca": (1, 3, 1, 0), "estatua": (1, 1, 0, 0),
    "arqueria": (2, 3, 2, 0), "banco": (2, 3, 1, 0), "teatro": (2, 3, 1, 0),
    "laboratorio": (2, 5, 2, 0), "armeria": (2, 3, 0, 1), "atalaya": (2, 4, 1, 0),
    "universidad": (3, 7, 2, 1), "cuadras": (3, 5, 2, 1), "tesoreria": (3, 4, 2, 1),
    "coliseo": (3, 5, 2, 1), "piramides": (4, 6, 0, 4), "templo_midas": (4, 8, 2, 1),
    "templo_ares": (4, 5, 3, 2),
}


def test_buildings_levels_and_costs(game):
    got = {b["id"]: (b["level"], b["cost"].get("oro", 0), b["cost"].get("madera", 0),
                     b["cost"].get("piedra", 0)) for b in game.entries("building")}
    assert got == SEED_COSTS
    extra = {b["id"]: b["extra_points"] for b in game.entries("building") if b["extra_points"]}
    assert extra == {"estatua": 3, "teatro": 5, "coliseo": 7, "piramides": 10,
                     "templo_midas": 8, "templo_ares": 9}
    wonders = {b["id"]: b["wonder_points"] for b in game.entries("building") if b["wonder"]}
    assert set(wonders) == {"piramides", "templo_midas", "templo_ares"}
    assert all(game.get("building", w)["level"] == 4 and game.get("building", w)["scope"] == "shared"
               for w in wonders)
    assert wonders["piramides"]["resource"] == "piedra" and wonders["templo_midas"]["resource"] == "oro"
    assert wonders["templo_ares"]["per"] == "trained_troop"
    variant = {b["id"] for b in game.entries("building") if b.get("variant")}
    assert variant == {"armeria", "atalaya"}
    assert game.get("variant", "armeria_atalaya")["enabled_by_default"] is False
    income = {b["id"]: b["gold_income"] for b in game.entries("building") if b["gold_income"]}
    assert income == {"ayuntamiento": 1, "banco": 1, "tesoreria": 2}
    spells = {b["id"]: b["spell_draw"] for b in game.entries("building") if b.get("spell_draw")}
    assert spells == {"biblioteca": 1, "laboratorio": 2, "universidad": 3}


def test_trade_and_game_rules(game):
    meta = game.meta
    trades = [(dict(t["give"]), dict(t["get"])) for t in meta["bank_trades"]]
    assert trades == [({"madera": 1}, {"oro": 1}), ({"piedra": 1}, {"oro": 2}),
                      ({"oro": 2}, {"madera": 1}), ({"oro": 3}, {"piedra": 1})]
    assert game.get("building", meta["trade"]["needs_building"])["trade_enabled"]
    assert meta["starting"]["resources"] == {"oro": 3} and meta["starting"]["troops"] == {"leva": 1}
    assert (meta["scatter_turns"]["min"], meta["scatter_turns"]["max"]) == (1, 3)
    assert {c["id"] for c in meta["end_conditions"]} == {"maravilla", "ultima_ficha"}
    assert game.get("building", "almacen")["extra_army"] == 1
    assert game.get("building", "almacen")["extra_army_can_fight"] is False


def test_tech_boosts_are_whole(game):
    for card in game.entries("tech_card"):
        has = ["boost" in card, "boost_cost" in card, "boost_amount" in card]
        assert all(has) or not any(has), card["id"]
    costs = {c["id"]: c.get("boost_cost") for c in game.entries("tech_card")}
    assert costs["pies_ligeros"] == 1 and costs["escudo"] == 6 and costs["punteria"] is None


def test_castle_pyramid(game):
    castle = game.get("board", "castillo")
    slots = {s["id"]: s for s in castle["slots"]}
    per_level = Counter(s["level"] for s in slots.values())
    assert per_level == {1: 4, 2: 3, 3: 2, 4: 1}
    for slot in slots.values():
        if slot["level"] == 1:
            assert slot["rests_on"] == []
        else:
            assert len(slot["rests_on"]) == 2
            assert all(slots[s]["level"] == slot["level"] - 1 for s in slot["rests_on"])
    assert castle["recruitment_track"] == game.ids("troop")
    battle = game.get("board", "batalla")
    assert (battle["grid"]["rows"], battle["grid"]["cols"]) == (5, 5)
    assert battle["obstacles"]["count"] <= sum(
        c["copies"] for c in game.entries("counter") if c["what"] == "obstacle")


def test_counters(game):
    res = {(c["resource"], c["value"]): c["copies"] for c in game.entries("counter")
           if c["what"] == "resource"}
    assert res == {("madera", 5): 15, ("madera", 1): 25, ("piedra", 5): 10, ("piedra", 1): 25,
                   ("oro", 5): 25, ("oro", 1): 25}
    troops = {(c["troop"], c["value"]) for c in game.entries("counter") if c["what"] == "troop"}
    assert troops == {(t, v) for t in game.ids("troop") for v in (1, 5)}
    colours = game.entries("player_colour")
    assert len({c["hex"] for c in colours}) == len({c["symbol"] for c in colours}) == 6
    import re
    assert all(re.fullmatch(r"#[0-9A-Fa-f]{6}", c["hex"]) for c in colours)
    assert all(re.fullmatch(r"#[0-9A-Fa-f]{6}", r["colour"]) for r in game.entries("resource"))


# --- maps -----------------------------------------------------------------------------------

def _grid(game, map_id):
    return [[str(c) for c in row] for row in game.get("map", map_id)["grid"]]


def _seed_grids() -> dict[int, list[list[str]]]:
    """The three grids as printed in the seed: tab-separated rows after 'para N jugadores'."""
    grids: dict[int, list[list[str]]] = {}
    players = None
    for line in SEED.read_text(encoding="utf-8").splitlines():
        low = line.strip().lower()
        if low.startswith("para ") and "jugadores" in low:
            players = int(low.split()[1])
            grids[players] = []
            continue
        cells = line.split()
        if players and cells and all(c in {"1", "2", "3", "P", "M"} or c.startswith("J")
                                     and c[1:].isdigit() for c in cells):
            grids[players].append(cells)
    return {n: g for n, g in grids.items() if g}


@pytest.mark.skipif(not SEED.is_file(), reason="the seed is kept outside the repository")
def test_seed_grids_transcribed_cell_for_cell(game):
    seed = _seed_grids()
    assert sorted(seed) == [2, 3, 4]
    for n, grid in seed.items():
        assert _grid(game, f"mapa_{n}") == grid


def _levels(grid):
    return Counter(c for row in grid for c in row if c in {"1", "2", "3"})


def test_seed_grids_match_the_counts_printed_beside_them(game):
    for m in game.entries("map"):
        if m["source"] == "seed":
            assert _levels(_grid(game, m["id"])) == {str(k): v for k, v in m["seed_counts"].items()}


def _blocks(grid):
    rows, cols = len(grid), len(grid[0])
    out = {}
    for r in range(rows):
        for c in range(cols):
            if grid[r][c].startswith("J"):
                near = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                        if 0 <= r + dr < rows and 0 <= c + dc < cols]
                out[grid[r][c]] = [(r, c)] + [x for x in near if grid[x[0]][x[1]] in ("P", "M")]
    return out


def generate(grid, rule):
    """Rebuild a layout's levels from its start blocks and holes by the rule in maps.yaml."""
    rows, cols = len(grid), len(grid[0])
    centre = ((rows - 1) / 2, (cols - 1) / 2)
    blocks = _blocks(grid)
    fixed = {x for b in blocks.values() for x in b}
    free = [(r, c) for r in range(rows) for c in range(cols)
            if (r, c) not in fixed and grid[r][c] != rule["hole_code"]]
    n1, n2 = rule["level_1_per_player"], rule["level_2_per_player"]
    claimed: dict[tuple[int, int], str] = {}
    for name, block in blocks.items():
        def key(x, block=block):
            near = min((x[0] - y[0]) ** 2 + (x[1] - y[1]) ** 2 for y in block)
            return near, -((x[0] - centre[0]) ** 2 + (x[1] - centre[1]) ** 2)
        ranked = sorted(free, key=key)
        for cut in (n1, n1 + n2):
            assert key(ranked[cut - 1]) != key(ranked[cut]), f"{name}: a tie across the cut at {cut}"
        for i, cell in enumerate(ranked[:n1 + n2]):
            assert cell not in claimed, f"{name} and another player both claim {cell}"
            claimed[cell] = "1" if i < n1 else "2"
    return [[grid[r][c] if (r, c) in fixed or grid[r][c] == rule["hole_code"]
             else claimed.get((r, c), "3") for c in range(cols)] for r in range(rows)]


def test_rule_reproduces_every_grid(game):
    rule = game.singles["map_rule"]
    for m in game.entries("map"):
        grid = _grid(game, m["id"])
        assert generate(grid, rule) == grid, m["id"]


def test_layouts_are_consistent(game):
    sizes = {}
    for m in game.entries("map"):
        grid = _grid(game, m["id"])
        rows, cols = len(grid), len(grid[0])
        assert all(len(row) == cols for row in grid), m["id"]
        sizes[m["players"]] = (rows, cols)
        blocks = _blocks(grid)
        assert sorted(blocks) == [f"J{i}" for i in range(1, m["players"] + 1)], m["id"]
        flat = Counter(c for row in grid for c in row)
        assert flat["P"] == flat["M"] == m["players"]
        for name, block in blocks.items():
            kinds = sorted(grid[r][c] for r, c in block[1:])
            assert kinds == ["M", "P"], (m["id"], name)
            assert all(r in (0, rows - 1) or c in (0, cols - 1) for r, c in block), (m["id"], name)
        for sym in m["symmetry"]:
            level = [["s" if c[0] in "JPM" else c for c in row] for row in grid]
            turned = {
                "rotate_180": [row[::-1] for row in level[::-1]],
                "mirror_left_right": [row[::-1] for row in level],
                "mirror_top_bottom": level[::-1],
                "mirror_diagonal": [list(col) for col in zip(*level)],
            }[sym]
            assert turned == level, (m["id"], sym)
        # levels rise towards the centre: the middle cell is level 3 (or the central lake)
        mid = grid[rows // 2][cols // 2]
        assert mid in ("3", game.singles["map_rule"]["hole_code"]), m["id"]
    assert sizes[5] == (14, 14) and sizes[6] == (16, 16)
    assert sizes[2] == (9, 8)      # the seed says 9 x 9 but prints 9 rows of 8


def test_every_layout_can_be_dealt_from_the_tiles(game):
    """Starting tiles first, then each level; shortfalls borrow from the level below."""
    supply = Counter()
    for tile in game.entries("tile"):
        supply[tile["level"]] += tile["copies"]
    starts = game.meta["starting"]["tiles"]
    shortfall = []
    for m in game.entries("map"):
        grid = _grid(game, m["id"])
        n = m["players"]
        left = dict(supply)
        for tile_id in starts:
            tile = game.get("tile", tile_id)
            assert tile["copies"] >= n and tile["level"] == 1
            left[1] -= n
        need = _levels(grid)
        for level in (1, 2, 3):
            want = need[str(level)]
            for source in range(level, 0, -1):
                take = min(want, left[source])
                left[source] -= take
                want -= take
            assert want == 0, (m["id"], level)
        if n == 6:
            assert sum(left.values()) == 0    # the 6-player map uses every tile
        shortfall.append(need["3"] > supply[3])
    assert all(shortfall)     # every layout has more level-3 cells than the 18 level-3 tiles


# --- pictures: each entry's art is drawn from the parts of templates/el_mapa/_art.svg.j2 -------

def _art_parts_in_schema(game) -> set[str]:
    return set(game.schema["kinds"]["building"]["fields"]["art"]["of"]["values"])


def test_every_art_part_has_its_drawing_and_every_drawing_is_listed(game):
    """The schema's list of parts and the library's macros are the same set, and each entry uses
    only listed parts (the loader checks that; here, that the check has something to check)."""
    from ludoteca.generator.templating import environment
    library = environment().get_template("el_mapa/_art.svg.j2").module
    drawn = {name for name in dir(library) if not name.startswith("_") and callable(getattr(library, name))}
    listed = _art_parts_in_schema(game)
    assert drawn - {"scene"} == listed
    assert game.schema["kinds"]["tech_card"]["fields"]["art"]["of"]["values"] == \
        game.schema["kinds"]["building"]["fields"]["art"]["of"]["values"]
    used = {p for kind in ("building", "tech_card") for e in game.entries(kind) for p in e["art"]}
    assert used <= listed and len(used) > 20


def test_an_unknown_art_part_is_one_line_naming_file_entry_and_field(game, tmp_path):
    src = default_dir() / "el_mapa"
    dst = tmp_path / "el_mapa"
    shutil.copytree(src, dst)
    path = dst / "tech.yaml"
    text = path.read_text(encoding="utf-8")
    old = "art: [grass, motion_lines, winged_boot, path_step]"
    path.write_text(text.replace(old, "art: [grass, motion_lines, winged_bot, path_step]", 1), encoding="utf-8")
    line = text[:text.index(old)].count("\n") + 1
    with pytest.raises(DataError) as err:
        load(tmp_path, games=("el_mapa",))
    assert str(err.value) == (f"{path}:{line}: tech_card 'pies_ligeros': art[2]: one of the "
                              f"{len(_art_parts_in_schema(game))} values "
                              "its schema lists (did you mean 'winged_boot'?), got 'winged_bot'")

"""``ludoteca score`` refuses end states the physical game makes impossible, naming the rule and the
seed's line; ``--lenient`` scores them with a warning.  Every count comes from the card data."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine.scoring import RecordError, score_record
from ludoteca.companion.engine.scoring.el_mapa import SEARCH_BUDGET, castle_board, castles_needed, _shapes

CATALOG = load()
MAPA = CATALOG["el_mapa"]
SUPPORT = MAPA.meta["physical"]["support"]["seed_line"]
FULL_CASTLE = ["Cuartel", "Mercado", "Almacén", "Ayuntamiento", "Banco", "Arquería", "Teatro",
               "Tesorería", "Universidad"]


def refused(record: dict, lenient: bool = False) -> list[str]:
    with pytest.raises(RecordError) as err:
        score_record(record, CATALOG, lenient=lenient)
    return [str(p) for p in err.value.problems]


def mapa(*buildings: list[str], **extra) -> dict:
    players = [{"name": f"P{i}", "buildings": list(b)} for i, b in enumerate(buildings)]
    return {"game": "el_mapa", "players": players, **extra}


def test_a_wonder_with_nothing_under_it():
    [problem] = refused(mapa(["Pirámides"], ["Mercado"]))
    assert problem.startswith("<record>: players[0].buildings: these buildings cannot be placed")
    assert "'Pirámides' needs 9 under it" in problem and problem.endswith(f"seed {SUPPORT}")
    assert "001_1b1189934490b265.txt:174: En el nivel dos solo se puede construir" in problem


def test_a_wonder_on_a_full_castle_is_scored():
    result = score_record(mapa(["Pirámides", *FULL_CASTLE], ["Mercado"]), CATALOG)
    # Pirámides 4+10, level 1: 4, level 2: Banco 2 + Arquería 2 + Teatro 2+5 = 11, level 3: 6 -> 35
    assert result.player("P0").breakdown["buildings"] == 14 + 4 + 11 + 6


@pytest.mark.parametrize("buildings, ok", [
    (["Arquería"], False),                              # level 2 alone
    (["Arquería", "Cuartel"], False),                   # one below, two needed
    (["Arquería", "Cuartel", "Mercado"], True),
    (["Cuadras", "Banco", "Arquería", "Cuartel", "Mercado"], False),   # level 3 needs 5 under it
    (["Cuadras", "Banco", "Arquería", "Cuartel", "Mercado", "Almacén"], True),
    (["Cuartel", "Cuartel"], True),                     # two castles, one each
    (["Cuartel", "Cuartel", "Arquería", "Mercado"], True),   # Arquería on Cuartel + Mercado
    (["Arquería", "Arquería", "Cuartel", "Mercado"], False),  # two castles cannot both stand
    (["Mercado", "Cuartel", "Almacén", "Ayuntamiento", "Biblioteca", "Estatua"], True),  # level-1 in high slots
])
def test_the_support_rule(buildings, ok):
    record = mapa(buildings, ["Mercado"])
    if ok:
        score_record(record, CATALOG)
    else:
        [problem] = refused(record)
        assert "cannot be placed" in problem and SUPPORT in problem


def test_thirteen_barracks_is_more_than_the_castle_boards():
    boards = castle_board(MAPA)["copies"]
    assert boards == 12
    problems = refused(mapa(["Cuartel"] * 7, ["Cuartel"] * 6))
    assert any("13 x 'Cuartel' listed, and the game has 12 (one per castle board); "
               "seed 001_1b1189934490b265.txt:51: 12 x Tablero Castillo" in p for p in problems)


def test_a_player_has_at_most_one_castle_per_board_left_by_the_others():
    # 12 boards, 2 players: one player may hold 11 castles, so 12 Cuarteles need 12 and cannot be hers
    [problem] = refused(mapa(["Cuartel"] * 12, ["Mercado"]))
    assert "at most 11" in problem


def test_revealed_tiles_no_more_than_exist():
    exist = sum(t["copies"] for t in MAPA.entries("tile"))
    starting = len(MAPA.meta["starting"]["tiles"])
    record = mapa(["Mercado"], ["Cuartel"])
    record["players"][0]["tiles_revealed"] = 500
    [problem] = refused(record)
    assert problem == (f"<record>: players.tiles_revealed: 500 tiles revealed in all, and the map has {exist} "
                       f"tiles of which {2 * starting} start face up ({starting} per player): at most "
                       f"{exist - 2 * starting}; seed 001_1b1189934490b265.txt:16: 240 x Fichas del tablero central")
    record["players"][0]["tiles_revealed"] = exist - 2 * starting
    score_record(record, CATALOG)


def test_a_variant_building_needs_its_variant():
    record = mapa(["Armería", "Cuartel", "Mercado"], ["Mercado"])
    [problem] = refused(record)
    assert "'Armería' belongs to the variant 'Armería y Atalaya / Armoury and Watchtower'" in problem
    assert "variants: [armeria_atalaya]" in problem and "001_1b1189934490b265.txt:187" in problem
    record["variants"] = ["Armería y Atalaya"]
    assert score_record(record, CATALOG).player("P0").breakdown["buildings"] == 2 + 1 + 1


def test_lenient_scores_a_house_rule_with_a_note():
    result = score_record(mapa(["Pirámides"], ["Mercado"]), CATALOG, lenient=True)
    assert result.player("P0").breakdown["buildings"] == 14
    [note] = [n for n in result.notes if "House rule" in n["en"]]
    assert "Regla de la casa" in note["es"] and "'Pirámides' needs 9 under it" in note["en"]


def test_lenient_on_the_command_line(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("game: el_mapa\nplayers:\n  - name: Ana\n    buildings: [Pirámides]\n"
                    "  - name: Luis\n    buildings: [Mercado]\n", encoding="utf-8")
    strict = subprocess.run([sys.executable, "-m", "ludoteca", "score", str(path)],
                            capture_output=True, text=True, timeout=60)
    assert strict.returncode == 2 and strict.stderr.startswith(f"{path}:4: players[0].buildings: ")
    loose = subprocess.run([sys.executable, "-m", "ludoteca", "score", str(path), "--lenient", "--json"],
                           capture_output=True, text=True, timeout=60)
    assert loose.returncode == 0 and json.loads(loose.stdout)["winners"] == ["Ana"]
    assert loose.stderr.startswith("ludoteca: warning: House rule (--lenient)")


def test_four_copies_of_a_district_the_deck_holds_three_of():
    three = next(d for d in CATALOG["ciudadelas"].entries("district") if d["copies"] == 3)
    names = ["Ana", "Luis", "Eva", "Pablo"]
    record = {"game": "ciudadelas", "players": [{"name": n, "city": [three["id"]]} for n in names]}
    [problem] = refused(record)
    name = f"{three['name']['es']} / {three['name']['en']}"
    assert problem == (f"<record>: players[3].city[0]: '{name}' is in the cities 4 times or more "
                       "(players[0].city[0], players[1].city[0], players[2].city[0], players[3].city[0]), and "
                       "the deck holds 3; seed "
                       f"{CATALOG['ciudadelas'].meta['physical']['district_copies']['seed_line']}")
    record["players"].pop()
    score_record(record, CATALOG)


def test_a_unique_district_in_two_cities():
    record = {"game": "ciudadelas", "players": [{"name": "Ana", "city": ["University"]},
                                               {"name": "Luis", "city": ["Universidad"]}]}
    [problem] = refused(record)
    assert "players[1].city[0]: 'Universidad / University' is in the cities 2 times or more " \
           "(players[0].city[0], players[1].city[0]), and the deck holds 1" in problem


def test_the_same_character_in_two_hands():
    record = {"game": "ciudadelas", "players": [{"name": "Ana", "city": ["Temple"], "characters": ["King"]},
                                               {"name": "Luis", "city": ["Tavern"], "characters": ["Rey"]}]}
    [problem] = refused(record)
    assert problem == ("<record>: players[1].characters[0]: 'Rey / King' is also in players[0].characters[0]: "
                       "there is one card of each character; seed 000_f3c6419bc6162887.txt:22: "
                       "Las ocho cartas de Personaje son")


def test_a_gladiadores_building_in_more_hands_than_it_exists():
    glad = CATALOG["gladiadores"]
    single = next(b for b in glad.entries("building") if b.get("copies", 1) == 1 and b.get("points", 0))
    players = [{"name": "Ana", "combat_wins": 1, "buildings": [single["id"]]},
               {"name": "Luis", "combat_wins": 1, "buildings": [single["id"]]}]
    [problem] = refused({"game": "gladiadores", "players": players})
    assert problem.startswith("<record>: players[1].buildings[0]: ") and "and the game has 1; seed 002_" in problem


def test_the_castle_shapes_come_from_the_board_slots():
    board = castle_board(MAPA)
    slots = tuple((s["id"], s["level"], tuple(s.get("rests_on", []))) for s in board["slots"])
    shapes = _shapes(slots)
    assert (4, 3, 2, 1) in shapes and (1, 0, 0, 0) in shapes and (0, 1, 0, 0) not in shapes
    assert (2, 1, 0, 0) in shapes and (1, 1, 0, 0) not in shapes and (3, 2, 1, 0) in shapes
    assert max(sum(s) for s in shapes) == len(slots)


def test_castle_search_is_bounded_and_says_so():
    """Hundreds of buildings: refused with a clear line (or answered) within the step budget."""
    ids = [b["id"] for b in MAPA.entries("building") if not b.get("variant") and b.get("scope") != "shared"]
    buildings = [ids[k % len(ids)] for k in range(11 * len(ids))]
    problems = refused(mapa(buildings, ["Mercado"]))
    assert any("cannot be placed" in p or "too many to check against the support rule" in p for p in problems)
    board = castle_board(MAPA)
    slots = tuple((s["id"], s["level"], tuple(s.get("rests_on", []))) for s in board["slots"])
    levels = {f"b{k}": 1 + k % 3 for k in range(16)}
    with pytest.raises(TimeoutError):
        castles_needed(levels, {b: 7 for b in levels}, _shapes(slots), 4, 12, budget=50)
    assert SEARCH_BUDGET <= 3_000


def test_every_castle_board_in_use_is_allowed_one_more_is_not():
    # One of each building per castle: 10 Cuarteles take 10 castles; Luis's 2 Mercados 2 more;
    # Eva's empty realm still has its castle: 10 + 2 + 1 = 13 castles for 12 boards.
    assert castle_board(MAPA)["copies"] == 12
    problems = refused(mapa(["Cuartel"] * 10, ["Mercado"] * 2, []))
    assert problems == ["<record>: players: the buildings listed need 13 castles, and the game has 12 "
                        "castle boards; seed 001_1b1189934490b265.txt:51: 12 x Tablero Castillo"]
    score_record(mapa(["Cuartel"] * 10, ["Mercado"], []), CATALOG)  # 10 + 1 + 1 = 12: every board


def test_a_gladiadores_building_held_twice_names_both_holders():
    glad = CATALOG["gladiadores"]
    seed = glad.meta["physical"]["building_copies"]["seed_line"]
    players = [{"name": "Ana", "combat_wins": 1, "buildings": ["statua"]},
               {"name": "Luis", "combat_wins": 1, "buildings": ["casula", "statua"]},
               {"name": "Eva", "combat_wins": 1, "buildings": ["statua"]}]
    # Statua exists once (buildings.yaml, copies 1): the second holder is told, the third is not again
    assert refused({"game": "gladiadores", "players": players}) == [
        "<record>: players[1].buildings[1]: 'Statua / Statua' is held 2 times or more "
        f"(players[0].buildings[0], players[1].buildings[1]), and the game has 1; seed {seed}"]


def test_a_building_of_a_larger_player_count_is_refused():
    # player_counts in game.yaml: 3 players use the buildings without a symbol and those marked III;
    # Domus and Arcus are marked V (5 players, the expansion), Circus IV.
    glad = CATALOG["gladiadores"]
    seed = glad.meta["physical"]["player_count_buildings"]["seed_line"]
    players = [{"name": "Ana", "combat_wins": 3, "buildings": ["Domus", "Arcus"]},
               {"name": "Luis", "combat_wins": 2, "buildings": ["basilica"]}, {"name": "Eva", "combat_wins": 1}]
    assert refused({"game": "gladiadores", "players": players}) == [
        f"<record>: players[0].buildings[{j}]: '{name} / {name}' (symbol V) is only in games of 5 or more players, "
        f"and this one has 3 (buildings with no symbol and III); seed {seed}" for j, name in enumerate(["Domus",
                                                                                                        "Arcus"])]
    result = score_record({"game": "gladiadores", "players": players}, CATALOG, lenient=True)
    assert [p.total for p in result.players] == [3 + 1 + 2, 2 + 2, 1]
    assert sum(n["en"].startswith("House rule (--lenient)") and "(symbol V)" in n["en"] for n in result.notes) == 2
    players[0]["buildings"] = ["circus"]
    [problem] = refused({"game": "gladiadores", "players": players})
    assert "'Circus / Circus' (symbol IV) is only in games of 4 or more players, and this one has 3" in problem
    four = players + [{"name": "Pablo", "combat_wins": 0}]
    assert score_record({"game": "gladiadores", "players": four}, CATALOG).players[0].total == 3 + 2
    five = four + [{"name": "Rosa", "combat_wins": 0, "buildings": ["Domus", "Arcus"]}]
    assert score_record({"game": "gladiadores", "expansion": True, "players": five}, CATALOG).players[4].total == 3

"""``ludoteca score`` on the awkward records a user makes: found in review, each once a bug."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ludoteca.cards import load
from ludoteca.companion.engine.scoring import score_record
from scoringcases import refusal

CATALOG = load()


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludoteca", "score", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, encoding="utf-8", timeout=60)


def problems(record: dict) -> list[str]:
    return refusal(record, CATALOG)


def test_a_folder_instead_of_a_file(tmp_path):
    done = run(tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"{tmp_path}: expected a record file, got a folder"]


def test_json_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "r.json"
    record = {"game": "gladiadores", "players": [{"name": "Ana", "combat_wins": 10},
                                                 {"name": "Luis", "combat_wins": 2}]}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(record).encode() + b"\r\n")
    done = run(path, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winners"] == ["Ana"]


def test_json_syntax_error_reads_as_a_sentence(tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"game": "el_mapa",\n "players": [\n  {"name": "Ana"},\n ]}\n', encoding="utf-8")
    done = run(path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"{path}:4: json: valid JSON, got a syntax error (expecting value, column 2)"]


def test_game_that_is_not_a_name_is_described_not_printed_as_python():
    assert problems({"game": ["ciudadelas"], "players": []}) == [
        "<record>: game: unknown game a list of 1 (one of: ciudadelas, el_mapa, gladiadores)"]


def test_first_complete_not_a_player_lists_only_real_names():
    record = {"game": "ciudadelas", "first_complete": "Pepe",
              "players": [{"name": "Ana", "city": ["castle"]}, {"city": ["temple"]}]}
    assert problems(record) == [
        "<record>: players[1].name: missing (required)",
        "<record>: first_complete: 'Pepe' is not one of the players (Ana)"]


def test_built_last_round_checked_even_when_another_district_is_unknown():
    record = {"game": "ciudadelas", "players": [
        {"name": "Ana", "city": ["Catedrall", "castle"], "built_last_round": ["Palace"]},
        {"name": "Luis", "city": ["temple"]}]}
    found = problems(record)
    assert found[0].startswith("<record>: players[0].city[0]: unknown district 'Catedrall'")
    assert found[1:] == ["<record>: players[0].built_last_round[0]: 'Palace' is not in players[0].city"]


def test_missing_first_complete_points_at_the_players_line(tmp_path):
    city = "[Manor, Castle, Temple, Church, Tavern, Market, Watchtower, Prison]"
    path = tmp_path / "r.yaml"
    path.write_text(f"game: ciudadelas\nplayers:\n  - {{name: Ana, city: {city}}}\n"
                    f"  - {{name: Luis, city: {city}}}\n", encoding="utf-8")
    done = run(path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"{path}:2: first_complete: missing: Ana, Luis have 8 or more districts, "
        "so say which of them completed a city first"]


def test_unknown_name_without_a_close_match_lists_the_few_known_ones():
    record = {"game": "el_mapa", "players": [{"name": "Ana", "buildings": [], "defeated": {"dragon": 2}},
                                             {"name": "Luis", "buildings": []}]}
    assert problems(record) == [
        "<record>: players[0].defeated.dragon: unknown troop 'dragon' "
        "(known: Leva / Levy, Soldado / Soldier, Arquero / Archer, Caballería / Knight)"]


def test_partial_tie_break_says_who_still_shares():
    record = {"game": "ciudadelas", "players": [
        {"name": "A", "gold": 2, "city": ["castle"]}, {"name": "B", "gold": 2, "city": ["harbor"]},
        {"name": "C", "gold": 1, "city": ["church", "market"]}, {"name": "D", "city": ["tavern"]}]}
    result = score_record(record, CATALOG)
    assert [p.rank for p in result.players] == [1, 1, 3, 4]
    assert [n["en"] for n in result.notes] == [
        "Tie at 4 between A, B, C: broken by most gold (A 2, B 2, C 1); A, B still share the rank"]


def test_el_mapa_and_gladiadores_ties_read_the_same():
    mapa = score_record({"game": "el_mapa", "players": [{"name": "A", "buildings": [], "tiles_revealed": 3},
                                                        {"name": "B", "buildings": [], "tiles_revealed": 3}]}, CATALOG)
    glad = score_record({"game": "gladiadores", "players": [{"name": "A", "combat_wins": 3},
                                                            {"name": "B", "combat_wins": 3}]}, CATALOG)
    expected = {"es": "Empate a 3 entre A, B: comparten puesto", "en": "Tie at 3 between A, B: they share the rank"}
    assert list(mapa.notes) == [expected]
    assert glad.notes[-1] == expected

"""``ludoteca score`` through a real subprocess: both output forms and every bad-record message."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

FIXTURES = Path(__file__).parent / "fixtures" / "scoring"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludoteca", "score", *map(str, args)],
                          capture_output=True, text=True, encoding="utf-8", timeout=60)


def record_file(tmp_path: Path, fixture: str, suffix: str = ".yaml") -> tuple[Path, dict]:
    data = yaml.safe_load((FIXTURES / fixture).read_text(encoding="utf-8"))
    path = tmp_path / (Path(fixture).stem + suffix)
    if suffix == ".json":
        path.write_text(json.dumps(data["record"], ensure_ascii=False, indent=1), encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(data["record"], allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path, data["expected"]


@pytest.mark.parametrize("fixture", ["ciudadelas_07_complete_not_first.yaml",
                                     "gladiadores_03_five_players_quick.yaml"])
def test_json_output_is_exactly_the_documented_shape(tmp_path, fixture):
    path, expected = record_file(tmp_path, fixture)
    done = run(path, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"game": fixture.split("_")[0], **expected}


def test_json_record_file(tmp_path):
    path, expected = record_file(tmp_path, "ciudadelas_02_haunted_gives_colour.yaml", ".json")
    done = run(path, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"] == expected["players"]


def test_table_output(tmp_path):
    path, _ = record_file(tmp_path, "ciudadelas_02_haunted_gives_colour.yaml")
    done = run(path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Ciudadelas / Citadels: puntuación final / final scores"
    assert lines[2].split() == ["Ana", "Luis"]
    rows = {line.rsplit(None, 2)[0].strip(): line.split()[-2:] for line in lines[3:] if line[:1].isalpha()
            and len(line.split()) > 2 and line.split()[-1].isdigit()}
    assert rows["Distritos / Districts"] == ["13", "13"]
    assert rows["Cinco colores / All five colours"] == ["3", "0"]
    assert rows["Total"] == ["16", "13"]
    assert rows["Puesto / Rank"] == ["1", "2"]
    assert "Gana / Winner: Ana" in lines
    assert "  - Ana: Patio de los Milagros cuenta como rojo / Haunted City counts as red" in lines


def test_table_in_english_and_shared_win(tmp_path):
    path, _ = record_file(tmp_path, "ciudadelas_10_full_tie.yaml")
    done = run(path, "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert "Winners: Ana, Luis" in done.stdout.splitlines()
    assert "Distritos" not in done.stdout


def bad(tmp_path: Path, text: str, name: str = "bad.yaml") -> tuple[Path, list[str]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    done = run(path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    return path, done.stderr.splitlines()


BAD_CIUDADELAS = """\
game: ciudadelas
first_complete: Luis
players:
  - name: Ana
    gold: -2
    city:
      - Castillo
      - Catedrall
      - castle
  - name: Luis
    gold: tres
    city: [Temple, Tavern]
    glod: 1
"""


def test_every_ciudadelas_problem_with_its_line(tmp_path):
    path, lines = bad(tmp_path, BAD_CIUDADELAS)
    assert lines[0] == f"{path}:2: first_complete: 'Luis' has 2 districts; a complete city has at least 8"
    assert lines[1] == f"{path}:5: players[0].gold: expected a number from 0 to 999, got -2"
    assert lines[2].startswith(f"{path}:8: players[0].city[1]: unknown district 'Catedrall' "
                               "(closest: Catedral / Cathedral")
    assert lines[3] == (f"{path}:9: players[0].city[2]: duplicate district 'Castillo / Castle' "
                        "(already at city[0]); a city may not hold two of the same")
    assert lines[4] == f"{path}:11: players[1].gold: expected a whole number, got 'tres'"
    assert lines[5].startswith(f"{path}:13: players[1].glod: unknown field (did you mean 'gold'?)")
    assert len(lines) == 6


def test_first_complete_not_a_player(tmp_path):
    path, lines = bad(tmp_path, "game: ciudadelas\nfirst_complete: Eva\nplayers:\n"
                                "  - {name: Ana, city: [Castle]}\n  - {name: Luis, city: [Temple]}\n")
    assert lines == [f"{path}:2: first_complete: 'Eva' is not one of the players (Ana, Luis)"]


def test_player_count_outside_the_range(tmp_path):
    path, lines = bad(tmp_path, "game: ciudadelas\nplayers:\n  - {name: Ana, city: [Castle]}\n")
    assert lines == [f"{path}:2: players: Ciudadelas / Citadels is for 2 to 7 players, got 1"]


def test_unknown_game(tmp_path):
    path, lines = bad(tmp_path, "game: monopoly\nplayers: []\n")
    assert lines == [f"{path}:1: game: unknown game 'monopoly' (one of: ciudadelas, el_mapa, gladiadores)"]


def test_unknown_gladiadores_building_and_negative_wins(tmp_path):
    path, lines = bad(tmp_path, "game: gladiadores\nplayers:\n  - name: Ana\n    combat_wins: -4\n"
                                "    buildings: [Casula]\n  - name: Luis\n    combat_wins: 1\n"
                                "    buildings: [Colosseum]\n")
    assert lines[0] == f"{path}:4: players[0].combat_wins: expected a number from 0 to 999, got -4"
    assert lines[1].startswith(f"{path}:8: players[1].buildings[0]: unknown building 'Colosseum'")
    assert len(lines) == 2


def test_unreadable_files(tmp_path):
    missing = tmp_path / "nope.yaml"
    done = run(missing)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [f"{missing}: cannot read the file ({os.strerror(errno.ENOENT)})"]
    path, lines = bad(tmp_path, "game: ciudadelas\nplayers: [\n")
    assert len(lines) == 1 and lines[0].startswith(f"{path}:3: yaml: valid YAML, got a syntax error")
    path, lines = bad(tmp_path, '{"game": "ciudadelas",\n "players": [}\n', "bad.json")
    assert lines == [f"{path}:2: json: valid JSON, got a syntax error (expecting value, column 14)"]
    path, lines = bad(tmp_path, "- just\n- a list\n")
    assert lines == [f"{path}:1: expected a mapping with 'game' and 'players', got a list of 2"]


def test_json_record_problems_have_lines_too(tmp_path):
    text = '{\n "game": "ciudadelas",\n "players": [\n  {"name": "Ana", "city": ["Castle"]},\n' \
           '  {"name": "Luis", "city": ["Castle"], "gold": -1}\n ]\n}\n'
    path, lines = bad(tmp_path, text, "r.json")
    assert lines == [f"{path}:5: players[1].gold: expected a number from 0 to 999, got -1"]


def test_missing_cards_folder(tmp_path):
    path, _ = record_file(tmp_path, "ciudadelas_01_five_colours.yaml")
    done = run(path, "--cards", tmp_path / "nowhere")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "nowhere" in done.stderr


def test_scoring_imports_without_kivy():
    code = ("import sys, ludoteca.companion.engine.scoring, ludoteca.companion.score_cli; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'kivy'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"

"""The README's example records score as worked out by hand."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def score(name: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "ludoteca", "score", str(ROOT / "examples" / name), "--json"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(out.stdout)


def test_ciudadelas_example():
    # Ana: Castle 4 + Temple 1 + Haunted City 2 + Tavern 1 + Watchtower 1 + University 8 + Market 2
    #      + Manor 3 = 22; five colours (Haunted City stays purple, University is purple too) +3;
    #      first complete +4 = 29.
    # Luis: 5 + 5 + 4 + 5 + 6 + 2 = 27; five colours +3 = 30 (six districts: no completion bonus).
    # Eva: 3 + 3 + 2 + 2 + 3 + 2 + 8 + 5 = 28 (Church 2: the deck's only Haunted City is Ana's);
    #      five colours +3; complete, not first +2 = 33.
    result = score("ciudadelas.yaml")
    assert [(p["name"], p["total"], p["rank"]) for p in result["players"]] == [
        ("Ana", 29, 3), ("Luis", 30, 2), ("Eva", 33, 1)]
    assert result["winners"] == ["Eva"]


def test_el_mapa_example():
    # Ana: Cuartel 1 + Mercado 1 + Estatua 1+3 + Arquería 2 + Teatro 2+5 = 15 buildings;
    #      battles 5 levas x 1 + 2 soldados x 2 = 9; 12 tiles -> 36.
    # Luis: Mercado 1 + Ayuntamiento 1 + Cuartel 1 + Banco 2 + Teatro 2+5 = 12 (three on level 1, two
    #      on them: the support rule); battles 2 levas x 1 = 2; 9 tiles -> 23.
    result = score("el_mapa.yaml")
    assert [(p["name"], p["total"], p["breakdown"]["buildings"]) for p in result["players"]] == [
        ("Ana", 36, 15), ("Luis", 23, 12)]
    assert result["winners"] == ["Ana"]


def test_gladiadores_example():
    # Ana: 7 combats + Templum 2 + Statua 1 = 10, the target.
    result = score("gladiadores.yaml")
    assert result["players"][0]["total"] == 10
    assert result["winners"] == ["Ana"]

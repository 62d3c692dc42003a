"""El Mapa end-of-game scoring: the worked examples and bad records."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludoteca.cards import load
from scoringcases import check_worked_example, refusal, worked_examples

EXAMPLES = worked_examples("el_mapa")
CATALOG = load(games=("el_mapa",))


def test_there_are_at_least_five_worked_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_worked_example(path: Path):
    check_worked_example(path, CATALOG, "el_mapa")


def problems(record: dict) -> list[str]:
    return refusal(record, CATALOG, path="m.yaml")


def test_bad_el_mapa_records():
    record = {"game": "el_mapa", "players": [
        {"name": "Ana", "buildings": ["Piramides", "Mercadillo"], "defeated": {"leva": -1, "dragon": 2},
         "resources": {"oro": "x"}, "tiles_revealed": 2.5},
        {"name": "Luis", "buildings": ["pirámides"]}]}
    found = problems(record)
    assert found[0].startswith("m.yaml: players[0].buildings[1]: unknown building 'Mercadillo' (closest: ")
    assert "Mercado / Market" in found[0]
    assert found[1:] == [
        "m.yaml: players[0].tiles_revealed: expected a whole number, got 2.5",
        "m.yaml: players[0].defeated.leva: expected a number from 0 to 999, got -1",
        "m.yaml: players[0].defeated.dragon: unknown troop 'dragon' (known: Leva / Levy, "
        "Soldado / Soldier, Arquero / Archer, Caballería / Knight)",
        "m.yaml: players[0].resources.oro: expected a whole number, got 'x'",
        "m.yaml: players[1].buildings[0]: 'pirámides' is a single building shared by the whole table, "
        "already listed at players[0].buildings[0]; "
        "seed 001_1b1189934490b265.txt:194: Edificios de niveles altos comunes para todo el mundo"]


def test_player_count_comes_from_the_data():
    meta = CATALOG["el_mapa"].meta["players"]
    many = [{"name": f"P{i}", "buildings": []} for i in range(meta["max"] + 1)]
    assert problems({"game": "el_mapa", "players": many}) == [
        f"m.yaml: players: El Mapa / The Map is for {meta['min']} to {meta['max']} players, got {meta['max'] + 1}"]

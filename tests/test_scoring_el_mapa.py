"""El Mapa end-of-game scoring: the worked examples and bad records."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine.scoring import RecordError, score_record
from ludoteca.companion.engine.scoring.el_mapa import RealmEnd, check_rules, score
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


def _game_with_scoring(**changes) -> object:
    """A copy of El Mapa's data with some ``scoring`` rules of game.yaml changed."""
    game = copy.deepcopy(CATALOG["el_mapa"])
    game.singles["game"]["scoring"].update(changes)
    return game


def test_scoring_rules_come_from_game_yaml():
    # per_revealed_tile 2 instead of the data's 1: five tiles are 5 x 2 = 10 points.
    game = _game_with_scoring(per_revealed_tile=2)
    result = score([RealmEnd("Ana", tiles_revealed=5), RealmEnd("Luis", tiles_revealed=3)], game)
    assert [p.breakdown["tiles"] for p in result.players] == [10, 6]


def test_a_scoring_rule_this_version_does_not_know_is_refused():
    game = _game_with_scoring(building="level_only")
    with pytest.raises(RecordError) as info:
        check_rules(game, "m.yaml")
    assert [str(p) for p in info.value.problems] == [
        "m.yaml: game: cards/el_mapa game.yaml scoring.building is 'level_only'; "
        "this version scores only 'level_plus_extra_points'"]


def test_player_names_are_stripped():
    record = {"game": "el_mapa", "players": [{"name": "  Ana ", "buildings": [], "tiles_revealed": 2},
                                             {"name": "Luis\t", "buildings": [], "tiles_revealed": 1}]}
    result = score_record(record, CATALOG)
    assert [p.name for p in result.players] == ["Ana", "Luis"]
    assert result.winners == ("Ana",)  # 2 tiles x 1 point against 1


def test_a_wonder_without_its_resource_gives_no_bonus():
    # Pirámides (buildings.yaml): level 4 + 10 extra points, and 2 points per stone (piedra).
    # Ana holds 3 stone: 4 + 10 = 14 for the building, 3 x 2 = 6 for the wonder;
    # Luis holds gold only: 14 and 0 (no stone, nothing counted for the gold).
    game = CATALOG["el_mapa"]
    result = score([RealmEnd("Ana", ("piramides",), resources={"piedra": 3}),
                    RealmEnd("Luis", ("piramides",), resources={"oro": 5})], game)
    assert [p.breakdown for p in result.players] == [
        {"buildings": 14, "wonders": 6, "battles": 0, "tiles": 0},
        {"buildings": 14, "wonders": 0, "battles": 0, "tiles": 0}]

"""Gladiadores end-of-game scoring: the worked examples and bad records."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine.scoring import score_record
from ludoteca.companion.engine.scoring.gladiadores import LudusEnd, score
from scoringcases import check_worked_example, refusal, worked_examples

EXAMPLES = worked_examples("gladiadores")
CATALOG = load(games=("gladiadores",))


def test_there_are_at_least_three_worked_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_worked_example(path: Path):
    check_worked_example(path, CATALOG, "gladiadores")


def test_target_defaults_to_the_data_and_notes_explain_the_outcome():
    record = {"game": "gladiadores", "players": [
        {"name": "Ana", "combat_wins": 9, "buildings": ["statua"]},
        {"name": "Luis", "combat_wins": 9}]}
    result = score_record(record, CATALOG)
    assert CATALOG["gladiadores"].meta["target_points"]["standard"] == 10
    assert result.winners == ("Ana",)
    record["players"][0]["buildings"] = []
    result = score_record(record, CATALOG)
    assert result.winners == ()
    assert result.notes[0]["en"] == "Nobody reached the target of 10 points: no winner"


def problems(record: dict) -> list[str]:
    return refusal(record, CATALOG, path="g.yaml")


def test_bad_gladiadores_records():
    record = {"game": "gladiadores", "target": -3, "players": [
        {"name": "Ana", "combat_wins": 2, "buildings": ["Templum", "templum", "Thermea"]},
        {"name": "Luis", "combat_wins": -1, "buildings": ["casula", "statua", "thermae", "templum",
                                                          "cubiculum", "palaestra"]}]}
    found = problems(record)
    assert found[2].startswith("g.yaml: players[0].buildings[2]: unknown building 'Thermea' "
                               "(closest: Thermae / Thermae")
    assert found[:2] + found[3:] == [
        "g.yaml: target: expected a number from 0 to 999, got -3",
        "g.yaml: players[0].buildings[1]: duplicate building 'templum' (already at buildings[0]); "
        "a player may not hold two of the same",
        "g.yaml: players[1].combat_wins: expected a number from 0 to 999, got -1",
        "g.yaml: players[1].buildings: at most 5 buildings, got 6"]


def test_five_players_need_the_expansion():
    players = [{"name": f"P{i}", "combat_wins": 0} for i in range(5)]
    assert problems({"game": "gladiadores", "players": players}) == [
        "g.yaml: players: Gladiadores / Gladiators is for 2 to 4 players, got 5"]
    assert len(score_record({"game": "gladiadores", "expansion": True, "players": players},
                            CATALOG).players) == 5


def test_exactly_the_target_reaches_it():
    # Buildings' points from cards/gladiadores/buildings.yaml; 1 point per combat won (attacker_wins).
    # Ana: 7 wins + Templum 2 + Statua 1 = 10 = the standard target: she reached it, no "nobody" note.
    # Luis: 9 wins = 9, one short.
    record = {"game": "gladiadores", "players": [
        {"name": "Ana", "combat_wins": 7, "buildings": ["templum", "statua"]},
        {"name": "Luis", "combat_wins": 9}]}
    result = score_record(record, CATALOG)
    assert [p.total for p in result.players] == [10, 9]
    assert result.winners == ("Ana",) and result.notes == ()
    # Luis: 6 wins + Thermae 1 + Amphitheatrum 3 = 10 as well (Domus, a V building, is not in a
    # 2-player game: test_a_building_of_a_larger_player_count_is_refused).
    record["players"][1]["buildings"] = ["thermae", "amphitheatrum"]
    record["players"][1]["combat_wins"] = 6
    result = score_record(record, CATALOG)
    assert result.notes[0]["en"].startswith("Several reached the target of 10 (Ana, Luis);")


def test_a_target_of_zero_is_refused_and_of_one_is_kept():
    record = {"game": "gladiadores", "target": 0, "players": [
        {"name": "Ana", "combat_wins": 1}, {"name": "Luis", "combat_wins": 0}]}
    assert problems(record) == ["g.yaml: target: expected a target of at least 1 point, got 0"]
    record["target"] = 1  # Ana's one combat won is 1 point: she reaches it, Luis (0) does not
    assert score_record(record, CATALOG).winners == ("Ana",)


def test_the_building_limit_itself_is_allowed():
    # limits.max_buildings is 5; five different buildings are a legal end:
    # 3 wins + Statua 1 + Thermae 1 + Templum 2 + Amphitheatrum 3 + Casula 0 = 10.
    record = {"game": "gladiadores", "players": [
        {"name": "Ana", "combat_wins": 3,
         "buildings": ["statua", "thermae", "templum", "amphitheatrum", "casula"]},
        {"name": "Luis", "combat_wins": 2}]}
    assert CATALOG["gladiadores"].meta["limits"]["max_buildings"] == 5
    result = score_record(record, CATALOG)
    assert result.players[0].breakdown == {"combat": 3, "buildings": 7}
    assert result.winners == ("Ana",)


def test_player_names_are_stripped():
    record = {"game": "gladiadores", "players": [
        {"name": " Ana ", "combat_wins": 10}, {"name": "\tLuis", "combat_wins": 2}]}
    result = score_record(record, CATALOG)
    assert [p.name for p in result.players] == ["Ana", "Luis"]
    assert result.winners == ("Ana",)  # 10 wins x 1 point = the target of 10


def test_a_name_that_is_not_text_is_one_problem_not_a_crash():
    record = {"game": "gladiadores", "players": [{"name": 5, "combat_wins": 1},
                                                 {"name": "Luis", "combat_wins": 0}]}
    assert problems(record) == ["g.yaml: players[0].name: expected a name, got 5"]


def test_points_per_combat_come_from_the_data():
    # combat.points.attacker_wins set to 2 (the shipped data has 1): 3 wins x 2 = 6, + Templum 2 = 8
    game = copy.deepcopy(CATALOG["gladiadores"])
    game.singles["game"]["combat"]["points"]["attacker_wins"] = 2
    result = score([LudusEnd("Ana", 3, ("templum",)), LudusEnd("Luis", 5)], game)
    assert [p.breakdown for p in result.players] == [{"combat": 6, "buildings": 2}, {"combat": 10, "buildings": 0}]
    assert result.winners == ("Luis",)  # 10 points: the standard target


def test_combats_won_in_defence_score_the_data_points_per_defence():
    # combat.points set to 3 per attack won and 2 per defence won (the shipped data: 1 and 0):
    # Ana 2 x 3 + 1 x 2 = 8, + Templum 2 = 10; Luis 0 + 4 x 2 = 8
    game = copy.deepcopy(CATALOG["gladiadores"])
    game.singles["game"]["combat"]["points"].update(attacker_wins=3, defender_wins=2)
    record = {"game": "gladiadores", "players": [
        {"name": "Ana", "combat_wins": 2, "defence_wins": 1, "buildings": ["templum"]},
        {"name": "Luis", "combat_wins": 0, "defence_wins": 4}]}
    result = score_record(record, {"gladiadores": game})
    assert [p.breakdown for p in result.players] == [{"combat": 8, "buildings": 2}, {"combat": 8, "buildings": 0}]
    assert result.winners == ("Ana",)
    assert score_record(record, CATALOG).players[1].total == 0  # shipped: a defence won scores nothing
    del record["players"][0]["defence_wins"]  # left out: none won; Ana 2 x 3 + Templum 2 = 8
    assert score_record(record, {"gladiadores": game}).players[0].breakdown == {"combat": 6, "buildings": 2}
    assert score([LudusEnd("Ana", 2)], game).players[0].total == 6
    record["players"][1]["defence_wins"] = -1
    assert problems(record) == ["g.yaml: players[1].defence_wins: expected a number from 0 to 999, got -1"]

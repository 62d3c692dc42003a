"""Gladiadores end-of-game scoring: the worked examples and bad records."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine.scoring import score_record
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

"""Scoring behaviour a mutation run (bench/mutation.py, seed 40925) found unpinned: each test
asserts what a player sees on the final screen (a rank, a winner, a tie note)."""

from __future__ import annotations

import copy

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine.scoring import RecordError, el_mapa, read_record, score_record
from ludoteca.companion.engine.scoring.ciudadelas import CityEnd, score

CATALOG = load(games=("ciudadelas", "el_mapa", "gladiadores"))


def ciudadelas_with_tie_rule(rule: str):
    """The shipped Ciudadelas data with ``game.yaml``'s ``tie_break.rule`` set to ``rule``."""
    game = copy.copy(CATALOG["ciudadelas"])
    game.singles = {**game.singles, "game": {**game.meta, "tie_break": {"rule": rule}}}
    return game


def test_a_player_who_revealed_no_character_loses_a_highest_character_tie_to_the_assassin():
    # Ana: Castillo (4) = 4; Luis: Puerto (4) = 4: tied on total. Luis revealed the Asesino
    # (number 1), Ana nothing: 1 > 0, so Luis ranks first and Ana second, not a shared rank.
    game = ciudadelas_with_tie_rule("highest_character")
    result = score([CityEnd("Ana", ("castle",), gold=9), CityEnd("Luis", ("harbor",), characters=("assassin",))],
                   game)
    assert [(p.total, p.rank) for p in result.players] == [(4, 2), (4, 1)]
    assert result.winners == ("Luis",)
    assert any("Ana 0, Luis 1" in note["en"] for note in result.notes)


def test_the_temple_of_ares_gives_no_troop_points_to_a_realm_that_trained_none():
    # Templo de Ares: level 4 + 9 extra = 13, plus 2 a trained troop; a RealmEnd given no
    # trained_troops trained none: 13 in all, the wonder line 0.
    result = el_mapa.score([el_mapa.RealmEnd("Ana", buildings=("templo_ares",))], CATALOG["el_mapa"])
    assert result.player("Ana").breakdown["wonders"] == 0
    assert result.player("Ana").total == 13


def test_the_scanner_is_told_two_level_one_buildings_are_missing_under_a_lone_level_two():
    # A level-2 building stands only in a level-2 slot, which rests on two level-1 slots: a photo
    # showing one level-2 building and nothing else misses two level-1 buildings ({1: 2}).
    game = CATALOG["el_mapa"]
    level_two = next(b["id"] for b in game.entries("building")
                     if b["level"] == 2 and not b.get("variant") and b.get("scope") != "shared")
    assert el_mapa.missing_under(game, [level_two], players=2) == {1: 2}


def test_a_lenient_gladiadores_note_names_the_building_in_each_language():
    # Domus is marked V (5 players); in a 3-player game a lenient score keeps it and notes, for a
    # player, that it only goes in games of 5 or more: Spanish words and name under "es", English
    # under "en". The shipped names are Latin in both, so this copy names Domus apart.
    game = copy.copy(CATALOG["gladiadores"])
    domus = game.find("building", "Domus")["id"]
    game.kinds = {**game.kinds, "building": [
        dict(e, name={"es": "Casa del amo", "en": "Master's house"}) if e["id"] == domus else e
        for e in game.entries("building")]}
    players = [{"name": "Ana", "combat_wins": 3, "buildings": [domus]}, {"name": "Luis", "combat_wins": 2},
               {"name": "Eva", "combat_wins": 1}]
    result = score_record({"game": "gladiadores", "players": players}, {"gladiadores": game}, lenient=True)
    [plain] = [n["plain"] for n in result.notes if "plain" in n]
    assert plain["es"] == ("Casa del amo solo va en partidas de 5 o más jugadores: "
                           "se cuenta tal como se jugó en la mesa.")
    assert plain["en"] == "Master's house is only in games of 5 or more players: counted as played at the table."


def refusal_lines(unknown: int) -> list[str]:
    """The lines refusing a Ciudadelas record whose first city lists ``unknown`` unknown districts."""
    record = {"game": "ciudadelas", "players": [
        {"name": "Ana", "gold": 1, "city": [f"Nada{i}" for i in range(unknown)]},
        {"name": "Luis", "gold": 1, "city": ["Temple"]}]}
    with pytest.raises(RecordError) as refused:
        score_record(record, CATALOG)
    return [str(p) for p in refused.value.problems]


def test_a_refusal_lists_fifty_problems_and_counts_the_rest_in_the_last_line():
    # 50 problems are all listed; 60 are 49 listed and the 11 left counted: 50 lines either way.
    fifty = refusal_lines(50)
    assert len(fifty) == 50 and fifty[-1].startswith("<record>: players[0].city[49]: unknown district 'Nada49'")
    sixty = refusal_lines(60)
    assert len(sixty) == 50 and sixty[-1] == "<record>: ... and 11 more problems"
    assert sixty[-2].startswith("<record>: players[0].city[48]: unknown district 'Nada48'")


def test_a_name_of_spaces_is_refused_as_no_name():
    record = {"game": "ciudadelas", "players": [{"name": "   ", "gold": 1, "city": ["Temple"]},
                                                {"name": "Luis", "gold": 1, "city": ["Temple"]}]}
    with pytest.raises(RecordError) as refused:
        score_record(record, CATALOG)
    assert [str(p) for p in refused.value.problems] == ["<record>: players[0].name: expected a name, got '   '"]


def test_a_yaml_record_without_game_is_refused_at_the_line_its_mapping_starts(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("# a record\n\nplayers:\n  - name: Ana\n", encoding="utf-8")
    with pytest.raises(RecordError) as refused:
        score_record(read_record(path), CATALOG, path="r.yaml")
    assert str(refused.value) == "r.yaml:3: game: missing (one of: ciudadelas, el_mapa, gladiadores)"


def test_a_state_the_box_does_not_allow_is_refused_unless_lenient_is_asked_for():
    # Domus is marked V: a 3-player game cannot hold it; without lenient= the record is refused.
    players = [{"name": "Ana", "combat_wins": 3, "buildings": ["Domus"]}, {"name": "Luis", "combat_wins": 2},
               {"name": "Eva", "combat_wins": 1}]
    with pytest.raises(RecordError, match=r"players\[0\]\.buildings\[0\]: 'Domus / Domus' \(symbol V\)"):
        score_record({"game": "gladiadores", "players": players}, CATALOG)

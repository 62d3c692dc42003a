"""Scanner behaviour a mutation run (bench/mutation.py, seed 40925) found unpinned: what a photo
read becomes in the record (a count, a defeated troop), through the public functions."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from ludoteca.cards import load
from ludoteca.companion.scan import ScanError
from ludoteca.companion.scan.detect import Found
from ludoteca.companion.scan.tally import build_record, merge, parse_set, player_fields
from ludoteca.companion.scan.targets import targets

CATALOG = load(games=("el_mapa", "gladiadores", "ciudadelas"))
MAPA = CATALOG["el_mapa"]
MARKS = {t.id: t for t in targets(MAPA).values()}
SQUARE = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]


def test_battle_point_counters_are_written_as_defeated_one_point_troops():
    # Two "×5" discs and one "×1": 11 battle points, written as 11 defeated Levies (the troop worth
    # 1 point), so scoring gives them back as 11 points.
    five, one = MARKS["puntos_5"], MARKS["puntos_1"]
    found = [Found(five, SQUARE), Found(five, SQUARE), Found(one, SQUARE)]
    ones = [t["id"] for t in MAPA.entries("troop") if t["points"] == 1]
    assert ones == ["leva"]
    assert player_fields(MAPA, found)["defeated"] == {"leva": 11}


def test_merging_photos_keeps_the_surer_reading_of_a_piece_seen_once_in_each():
    # One building read in two photos, once each: both copies of its marker in the first, one in
    # the second. The merged photo keeps the first reading (2 copies read), not the later one.
    building = next(t for t in MARKS.values() if t.kind == "building")
    sure, likely = Found(building, SQUARE, copies=2, printed=2), Found(building, SQUARE, copies=1, printed=2)
    assert merge([[sure], [likely]]) == [sure]
    assert merge([[likely], [sure]]) == [sure]


def test_resource_discs_count_by_their_value_and_troop_counters_are_no_battle_points():
    # Wood ×5 + Wood ×1 = 6 wood; a troop counter on the photo (were the data to give one a marker)
    # is not a battle point, so the one "×1" disc gives 1 defeated Levy.
    entry = next(c for c in MAPA.entries("counter") if c.get("what") == "troop")
    troop = dataclasses.replace(MARKS["puntos_1"], marker=98, id=entry["id"], name=entry["name"], entry=entry)
    found = [Found(MARKS["madera_5"], SQUARE), Found(MARKS["madera_1"], SQUARE), Found(troop, SQUARE),
             Found(MARKS["puntos_1"], SQUARE)]
    fields = player_fields(MAPA, found)
    assert fields["resources"] == {"madera": 6}
    assert fields["defeated"] == {"leva": 1}


def gladiadores_with_points_per_win(points: int):
    """The shipped Gladiadores data with ``combat.points.attacker_wins`` set to ``points``."""
    game = copy.copy(CATALOG["gladiadores"])
    combat = {**game.meta["combat"], "points": {**game.meta["combat"]["points"], "attacker_wins": points}}
    game.singles = {**game.singles, "game": {**game.meta, "combat": combat}}
    return game


def test_point_discs_must_make_whole_combats_won():
    # With 2 points a win, a "3" disc is one and a half wins: refused; two "3" discs are 3 wins.
    # With 0 points a win, no disc count makes wins: refused, not a division by zero.
    three = next(t for t in targets(CATALOG["gladiadores"]).values() if t.id == "points_3")
    two_a_win = gladiadores_with_points_per_win(2)
    with pytest.raises(ScanError) as refused:
        player_fields(two_a_win, [Found(three, SQUARE)])
    assert refused.value.text["en"] == "the point discs show 3 points, not a whole number of combats won (2 each)"
    assert player_fields(two_a_win, [Found(three, SQUARE), Found(three, SQUARE)])["combat_wins"] == 3
    with pytest.raises(ScanError) as refused:
        player_fields(gladiadores_with_points_per_win(0), [Found(three, SQUARE)])
    assert refused.value.text["en"] == "the point discs show 3 points, not a whole number of combats won (0 each)"


def test_a_set_with_a_blank_key_is_refused():
    with pytest.raises(ScanError) as refused:
        parse_set("  =3")
    assert str(refused.value) == "--set   =3: expected KEY=VALUE (e.g. Ana.gold=3 or first_complete=Ana)"


def test_a_partial_record_adds_its_fields_and_a_set_may_not_replace_the_photo():
    # Ana's city comes from her photo (none read: an empty city); her gold from the partial record;
    # --set Ana.city=... would overwrite what the photo read, so it is refused.
    game = CATALOG["ciudadelas"]
    record = build_record(game, {"Ana": []}, partial={"players": [{"name": "Ana", "gold": 3}]})
    assert record["players"] == [{"name": "Ana", "gold": 3, "city": []}]
    with pytest.raises(ScanError) as refused:
        build_record(game, {"Ana": []}, sets=["Ana.city=[temple]"])
    assert str(refused.value) == "--set Ana.city=[temple]: 'city' comes from the photo"

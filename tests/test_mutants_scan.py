"""Scanner behaviour a mutation run (bench/mutation.py, seed 40925) found unpinned: what a photo
read becomes in the record (a count, a defeated troop), through the public functions."""

from __future__ import annotations

from ludoteca.cards import load
from ludoteca.companion.scan.detect import Found
from ludoteca.companion.scan.tally import merge, player_fields
from ludoteca.companion.scan.targets import targets

CATALOG = load(games=("el_mapa",))
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

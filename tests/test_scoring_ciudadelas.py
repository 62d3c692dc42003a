"""Ciudadelas end-of-game scoring: the worked examples, the Haunted City rule, ties, properties."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.cards import load
from ludoteca.companion.engine.scoring import score_record
from ludoteca.companion.engine.scoring.ciudadelas import CityEnd, colour_choice, score
from scoringcases import check_worked_example, example, refusal, worked_examples

EXAMPLES = worked_examples("ciudadelas")
CATALOG = load(games=("ciudadelas",))
GAME = CATALOG["ciudadelas"]


def test_there_are_at_least_twelve_worked_examples():
    assert len(EXAMPLES) >= 12


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_worked_example(path: Path):
    check_worked_example(path, CATALOG, "ciudadelas")


def notes_of(result, name: str) -> list[str]:
    return [n["en"] for n in result.player(name).notes]


def test_haunted_city_note_names_the_colour_it_takes():
    record, _ = example("ciudadelas_02_haunted_gives_colour.yaml")
    result = score_record(record, CATALOG)
    assert notes_of(result, "Ana") == ["Haunted City counts as red"]


def test_extras_give_labels_and_notes_for_the_app():
    record, _ = example("ciudadelas_12_dark_city.yaml")
    extras = score_record(record, CATALOG).extras()
    assert extras["labels"]["museum"] == {"es": "Museo", "en": "Museum"}
    assert extras["labels"]["all_colours"]["en"] == "All five colours"
    record, _ = example("ciudadelas_02_haunted_gives_colour.yaml")
    assert score_record(record, CATALOG).extras()["notes"] == [
        {"player": "Ana", "es": "Patio de los Milagros cuenta como rojo", "en": "Haunted City counts as red"}]


def test_haunted_city_built_last_round_is_noted_and_gives_nothing():
    record, _ = example("ciudadelas_03_haunted_last_round.yaml")
    result = score_record(record, CATALOG)
    assert notes_of(result, "Ana") == ["Haunted City: built in the last round, keeps its own colour"]
    assert any("broken by most gold" in n["en"] for n in result.notes)


def test_inferred_first_complete_is_noted():
    record, _ = example("ciudadelas_11_first_inferred.yaml")
    result = score_record(record, CATALOG)
    assert [n["en"] for n in result.notes] == ["Ana has the only complete city, so completed it first"]


def test_full_tie_is_explained():
    record, _ = example("ciudadelas_10_full_tie.yaml")
    result = score_record(record, CATALOG)
    assert [n["en"] for n in result.notes] == [
        "Tie at 8 between Ana, Luis; most gold does not break it (Ana 2, Luis 2): they share the rank"]


def districts(*ids: str) -> list[dict]:
    return [GAME.get("district", i) for i in ids]


COLOURS = GAME.ids("colour")


@pytest.mark.parametrize("ids, last, bonus, chosen", [
    (("manor", "temple", "tavern", "watchtower", "haunted_city"), (), True, {}),
    (("manor", "temple", "tavern", "keep", "haunted_city"), (), True, {"haunted_city": "red"}),
    (("manor", "temple", "tavern", "keep", "haunted_city"), ("haunted_city",), False, {}),
    (("manor", "temple", "tavern", "haunted_city"), (), False, {}),
    (("manor", "temple", "tavern", "watchtower", "haunted_city"), ("haunted_city",), True, {}),
    (("temple", "tavern", "watchtower", "keep", "haunted_city"), (), True, {"haunted_city": "yellow"}),
    (("manor", "temple", "tavern", "watchtower", "keep"), (), True, {}),
    (("manor", "temple", "tavern", "watchtower"), (), False, {}),
])
def test_colour_choice_follows_reference_1_7(ids, last, bonus, chosen):
    assert colour_choice(districts(*ids), frozenset(last), COLOURS) == (bonus, chosen)


def test_highest_character_tie_break_from_the_data(tmp_path: Path):
    import shutil
    copy = tmp_path / "cards"
    shutil.copytree(Path(GAME.folder).parent, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    game_yaml = copy / "ciudadelas" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("rule: most_gold", "rule: highest_character"),
                         encoding="utf-8")
    catalog = load(copy, games=("ciudadelas",))
    record = {"game": "ciudadelas", "players": [
        {"name": "Ana", "gold": 9, "city": ["castle"], "characters": ["Rey"]},
        {"name": "Luis", "gold": 0, "city": ["harbor"], "characters": ["Warlord"]}]}
    got = score_record(record, catalog).as_json()
    assert [(p["total"], p["rank"]) for p in got["players"]] == [(4, 2), (4, 1)]
    assert got["winners"] == ["Luis"]


def test_tie_break_gold_in_the_default_data():
    record = {"game": "ciudadelas", "players": [
        {"name": "Ana", "gold": 9, "city": ["castle"], "characters": ["Rey"]},
        {"name": "Luis", "gold": 0, "city": ["harbor"], "characters": ["Warlord"]}]}
    assert score_record(record, CATALOG).winners == ("Ana",)


def problems(record: dict) -> list[str]:
    return refusal(record, CATALOG, path="r.yaml")


def two(city_a: list, **extra) -> dict:
    return {"game": "ciudadelas", **extra, "players": [
        {"name": "Ana", "gold": 1, "city": city_a}, {"name": "Luis", "gold": 1, "city": ["Temple"]}]}


def test_unknown_district_suggests_closest_names():
    assert problems(two(["Catedrall"])) == [
        "r.yaml: players[0].city[0]: unknown district 'Catedrall' (closest: Catedral / Cathedral, "
        "Cantera / Quarry)"]


def test_duplicate_district_without_quarry():
    assert problems(two(["castle", "Castillo"])) == [
        "r.yaml: players[0].city[1]: duplicate district 'Castillo / Castle' (already at city[0]); "
        "a city may not hold two of the same"]


def test_quarry_allows_exactly_one_duplicate():
    ok = two(["quarry", "castle", "castle", "temple"], dark_city=True)
    assert score_record(ok, CATALOG).player("Ana").total == 5 + 4 + 4 + 1
    assert problems(two(["quarry", "castle", "castle", "temple", "temple"], dark_city=True)) == [
        "r.yaml: players[0].city[4]: duplicate district 'Templo / Temple' (already at city[3]); "
        "a city may not hold two of the same"]


def test_dark_city_district_needs_the_record_to_enable_it():
    assert problems(two(["Museo"])) == [
        "r.yaml: players[0].city[0]: 'Museo' is a Dark City district; add 'dark_city: true' to the "
        "record to use them"]


def test_data_with_the_dark_city_enabled_lets_a_record_leave_the_flag_out():
    """``dark_city.enabled`` in the data is what a record without ``dark_city`` means."""
    import copy

    game = copy.deepcopy(GAME)
    game.singles["game"]["dark_city"]["enabled"] = True
    result = score_record(two(["Museo", "castle"]), {"ciudadelas": game})
    assert result == score_record(two(["Museo", "castle"], dark_city=True), CATALOG)
    assert problems(two(["Museo"], dark_city=False)) == problems(two(["Museo"]))  # shipped: disabled


def test_first_complete_must_be_a_player_with_a_complete_city():
    assert problems(two(["castle"], first_complete="Eva")) == [
        "r.yaml: first_complete: 'Eva' is not one of the players (Ana, Luis)"]
    assert problems(two(["castle"], first_complete="ana")) == [
        "r.yaml: first_complete: 'ana' has 1 districts; a complete city has at least 8"]


def test_first_complete_missing_with_two_complete_cities():
    city = ["manor", "castle", "palace", "temple", "church", "tavern", "market", "prison"]
    record = {"game": "ciudadelas", "players": [{"name": "Ana", "city": city}, {"name": "Luis", "city": city}]}
    assert problems(record) == ["r.yaml: first_complete: missing: Ana, Luis have 8 or more districts, "
                                "so say which of them completed a city first"]


def test_negative_and_wrong_types_and_unknown_fields():
    record = {"game": "ciudadelas", "players": [
        {"name": "Ana", "gold": -1, "city": ["castle"], "glod": 2},
        {"name": "Luis", "gold": "two", "city": "castle"}]}
    assert problems(record) == [
        "r.yaml: players[0].glod: unknown field (did you mean 'gold'?); known: name, gold, city, "
        "built_last_round, hand, tucked, characters",
        "r.yaml: players[0].gold: expected a number from 0 to 999, got -1",
        "r.yaml: players[1].city: expected a list, got 'castle'",
        "r.yaml: players[1].gold: expected a whole number, got 'two'"]


def test_player_count_and_duplicate_names():
    one = {"game": "ciudadelas", "players": [{"name": "Ana", "city": []}]}
    assert problems(one) == ["r.yaml: players: Ciudadelas / Citadels is for 2 to 7 players, got 1"]
    eight = {"game": "ciudadelas", "players": [{"name": f"P{i}", "city": []} for i in range(8)]}
    assert problems(eight) == ["r.yaml: players: Ciudadelas / Citadels is for 2 to 7 players, got 8"]
    same = {"game": "ciudadelas", "players": [{"name": "Ana", "city": []}, {"name": "ANA", "city": []}]}
    assert problems(same) == ["r.yaml: players[1].name: 'ANA' is already the name of players[0]"]


def test_built_last_round_must_be_in_the_city():
    record = two(["castle"])
    record["players"][0]["built_last_round"] = ["Palace"]
    assert problems(record) == ["r.yaml: players[0].built_last_round[0]: 'Palace' is not in players[0].city"]


# --- properties -------------------------------------------------------------------------------

BASE_IDS = GAME.ids("district")
cities = st.lists(st.sampled_from(BASE_IDS), max_size=12, unique=True)
player_lists = st.lists(
    st.tuples(cities, st.integers(0, 20), st.lists(st.sampled_from(BASE_IDS), max_size=2, unique=True)),
    min_size=2, max_size=7)


def make_players(raw) -> list[CityEnd]:
    return [CityEnd(f"P{i}", tuple(city), gold, frozenset(d for d in last if d in city))
            for i, (city, gold, last) in enumerate(raw)]


def first_of(players: list[CityEnd]) -> str | None:
    complete = [p.name for p in players if len(p.city) >= GAME.meta["complete_city"]]
    return complete[0] if complete else None


@settings(max_examples=150, deadline=None)
@given(player_lists, st.randoms(use_true_random=False))
def test_shuffling_players_changes_no_total(raw, rnd):
    players = make_players(raw)
    first = first_of(players)
    before = {p.name: p.total for p in score(players, GAME, first).players}
    shuffled = list(players)
    rnd.shuffle(shuffled)
    after = score(shuffled, GAME, first)
    assert {p.name: p.total for p in after.players} == before
    assert [p.name for p in after.players] == [p.name for p in shuffled]


@settings(max_examples=200, deadline=None)
@given(cities, st.sampled_from(BASE_IDS), st.integers(0, 10), st.booleans(), st.booleans())
def test_adding_a_district_never_lowers_the_score(city, extra, gold, is_first, haunted_last):
    if extra in city:
        return
    last = frozenset({"haunted_city"} if haunted_last else ())
    other = CityEnd("Luis", ("temple",), 0)
    before_city = CityEnd("Ana", tuple(city), gold, last & set(city))
    after_city = CityEnd("Ana", tuple(city) + (extra,), gold, last & set(city + [extra]))
    complete = GAME.meta["complete_city"]
    first_before = "Ana" if is_first and len(city) >= complete else None
    first_after = "Ana" if is_first and len(city) + 1 >= complete else None
    before = score([before_city, other], GAME, first_before).player("Ana").total
    after = score([after_city, other], GAME, first_after).player("Ana").total
    assert after >= before


def test_gold_left_out_of_a_record_is_none_for_the_tie_break():
    # Castle and Harbor both cost 4 (districts.yaml): tied at 4 points, the most gold wins; Luis
    # names no gold, so he has 0 and Ana's 1 gold wins the tie.
    record = {"game": "ciudadelas", "players": [
        {"name": "Ana", "gold": 1, "city": ["castle"]},
        {"name": "Luis", "city": ["harbor"]}]}
    result = score_record(record, CATALOG)
    assert [p.total for p in result.players] == [4, 4]
    assert result.winners == ("Ana",)


def test_player_names_are_stripped():
    record = {"game": "ciudadelas", "players": [{"name": " Ana ", "gold": 0, "city": ["castle"]},
                                                {"name": "Luis\n", "gold": 0, "city": ["temple"]}]}
    result = score_record(record, CATALOG)
    assert [p.name for p in result.players] == ["Ana", "Luis"]
    assert result.winners == ("Ana",)  # Castle 4 against Temple 1 (districts.yaml)

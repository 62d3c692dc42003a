"""The card loader on the real Ciudadelas data: counts, look-ups, translations, ids."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest

from ludoteca.cards import default_dir, fold, load

GAME = "ciudadelas"


@pytest.fixture(scope="module")
def game():
    return load(games=(GAME,))[GAME]


def walk(value: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    """Every (dotted path, value) inside nested dicts and lists."""
    yield where, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{where}[{i}]")


def all_records(game) -> Iterator[tuple[str, dict]]:
    yield "game", game.meta
    for kind in game.kinds:
        for entry in game.entries(kind):
            yield f"{kind} {entry['id']}", entry


# --- counts -----------------------------------------------------------------------------------

def test_counts_match_the_classic_deck(game):
    counts = game.counts()
    assert counts["characters"] == 8
    assert counts["districts"] == 66
    assert counts["districts_kinds"] == 28
    assert counts["districts_by_colour"] == {"yellow": 12, "blue": 11, "green": 20, "red": 11,
                                             "purple": 12}
    assert counts["colours"] == 5


def test_counts_are_computed_from_the_entries(game):
    districts = game.entries("district")
    assert game.counts()["districts"] == sum(d["copies"] for d in districts)
    assert game.counts()["dark_city_districts"] == len(game.entries("dark_district"))
    purple = [d for d in districts if d["colour"] == "purple"]
    assert len(purple) == 11 and sum(d["copies"] for d in purple) == 12


def test_characters_are_numbered_one_to_eight(game):
    assert sorted(c["number"] for c in game.entries("character")) == list(range(1, 9))
    assert [c["id"] for c in sorted(game.entries("character"), key=lambda c: c["number"])] == [
        "assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"]


# --- look-ups ---------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, name, wanted", [
    ("district", "cathedral", "cathedral"),
    ("district", "Catedral", "cathedral"),
    ("district", "PRISION", "prison"),
    ("district", "prisión", "prison"),
    ("district", "puerta del dragon", "dragon_gate"),
    ("district", "Dragon Gate", "dragon_gate"),
    ("district", "trading-post", "trading_post"),
    ("district", "  señorío ", "manor"),
    ("district", "SENORIO", "manor"),
    ("district", "Herrería", "smithy"),
    ("character", "ladron", "thief"),
    ("character", "Condotiero", "warlord"),
    ("character", "WARLORD", "warlord"),
    ("colour", "púrpura", "purple"),
    ("component", "corona", "crown"),
])
def test_find_by_id_spanish_or_english_name(game, kind, name, wanted):
    assert game.find(kind, name)["id"] == wanted


def test_find_searches_several_kinds_in_order(game):
    assert game.find(("district", "dark_district"), "Sala de Mapas")["id"] == "map_room"
    with pytest.raises(LookupError):
        game.find("district", "Sala de Mapas")


def test_unknown_name_suggests_the_closest(game):
    with pytest.raises(LookupError) as err:
        game.find("district", "Catedrall")
    assert str(err.value).startswith("unknown district 'Catedrall' (closest: Catedral / Cathedral")
    with pytest.raises(LookupError) as err:
        game.find("character", "Arquitect")
    assert "Arquitecto / Architect" in str(err.value)


def test_unknown_name_without_anything_close(game):
    with pytest.raises(LookupError) as err:
        game.find("district", "zzzz")
    assert str(err.value) == "unknown district 'zzzz'"


def test_unknown_name_of_a_small_kind_lists_every_name(game):
    with pytest.raises(LookupError) as err:
        game.find("character", "zzzz")
    names = ", ".join(f"{c['name']['es']} / {c['name']['en']}" for c in game.entries("character"))
    assert str(err.value) == f"unknown character 'zzzz' (known: {names})"
    assert "Asesino / Assassin" in names and len(game.entries("character")) == 8


def test_get_by_exact_id_and_location(game):
    castle = game.get("district", "castle")
    assert castle["name"] == {"es": "Castillo", "en": "Castle"} and castle["cost"] == 4
    path, line = game.location("district", "castle")
    assert path.read_text(encoding="utf-8").splitlines()[line - 1].strip() == "- id: castle"
    with pytest.raises(KeyError):
        game.get("district", "Castillo")


# --- translations and ids ---------------------------------------------------------------------

def test_every_displayed_text_has_spanish_and_english(game):
    texts = 0
    for label, record in all_records(game):
        for where, value in walk(record):
            if isinstance(value, dict) and {"es", "en"} & set(value):
                assert set(value) == {"es", "en"}, f"{label}{where}"
                for lang in ("es", "en"):
                    assert isinstance(value[lang], str) and value[lang].strip(), f"{label}{where}.{lang}"
                texts += 1
    assert texts > 100


def test_every_entry_has_a_bilingual_name(game):
    for label, record in all_records(game):
        assert set(record["name"]) == {"es", "en"}, label


def test_ids_are_lower_case_ascii_and_unique(game):
    for kind in game.kinds:
        ids = game.ids(kind)
        assert len(ids) == len(set(ids)), kind
        for entry_id in ids:
            assert entry_id.isascii() and re.fullmatch(r"[a-z0-9_]+", entry_id), entry_id
    assert not set(game.ids("district")) & set(game.ids("dark_district"))


def test_fold_ignores_case_and_accents():
    assert fold("Ladrón") == fold("LADRON") == "ladron"
    assert fold(" Señorío ") == "senorio"


# --- rules as data ----------------------------------------------------------------------------

def test_only_purple_districts_have_effects(game):
    for d in game.entries("district"):
        assert ("effect" in d) == (d["colour"] == "purple"), d["id"]
        if d["abilities"]:
            assert d["colour"] == "purple", d["id"]


def test_points_differ_from_cost_only_for_university_and_dragon_gate(game):
    scored = {d["id"]: d["points"] for d in game.entries("district") if "points" in d}
    assert scored == {"university": 8, "dragon_gate": 8}
    assert game.get("district", "university")["cost"] == 6


def test_character_income_colours(game):
    income = {c["id"]: c.get("income_colour") for c in game.entries("character")}
    assert {k: v for k, v in income.items() if v} == {
        "king": "yellow", "bishop": "blue", "merchant": "green", "warlord": "red"}


def test_draft_table_uses_all_eight_characters(game):
    draft = game.meta["character_draft"]
    players = game.meta["players"]
    assert sorted(draft["by_players"]) == list(range(players["min"], players["max"] + 1))
    n_characters = len(game.entries("character"))
    for n, row in draft["by_players"].items():
        used = (row["face_up"] + row["face_down_before"] + n * row["characters_each"]
                + len(row["discards_after_picks"]) + row["face_down_after"])
        assert used == n_characters, f"{n} players"
    assert draft["king_never_face_up"] is True
    assert draft["by_players"][7]["last_may_take_face_down"] is True


def test_game_rules_and_defaults(game):
    meta = game.meta
    assert (meta["starting_gold"], meta["starting_cards"], meta["complete_city"]) == (2, 4, 8)
    assert meta["bonuses"] == {"all_colours": 3, "first_complete": 4, "complete": 2}
    assert meta["tie_break"]["rule"] == "most_gold" and meta["tie_break"]["note"]
    assert meta["dark_city"]["enabled"] is False


def test_colours_have_distinct_symbols_and_hex(game):
    colours = game.entries("colour")
    assert len({c["symbol"] for c in colours}) == len(colours)
    assert len({c["hex"].upper() for c in colours}) == len(colours)
    for c in colours:
        assert re.fullmatch(r"#[0-9A-Fa-f]{6}", c["hex"]), c["id"]


def test_reference_card_lists_every_character_and_the_scoring(game):
    card = game.get("component", "reference_card")
    assert card["copies"] == game.meta["players"]["max"]
    ids_by_number = [c["id"] for c in sorted(game.entries("character"), key=lambda c: c["number"])]
    assert card["characters"] == ids_by_number
    scoring = next(step for step in card["turn_summary"] if "+" in step["en"])
    for lang in ("es", "en"):
        for key in game.meta["bonuses"]:
            assert f"+{{bonus_{key}}}" in scoring[lang]
        # the rule numbers are named, never written: the print kit fills them from game.yaml
        assert not re.search(r"\d", " ".join(step[lang] for step in card["turn_summary"]))
    assert any("{complete_city}" in step["en"] for step in card["turn_summary"])


def test_dark_city_is_optional_and_one_copy_each(game):
    dark = game.entries("dark_district")
    assert dark and all(d["copies"] == 1 and d["colour"] == "purple" and d["effect"] for d in dark)
    scoring = {"points_per_gold", "points_per_card_in_hand", "points_per_other_purple",
               "points_per_tucked_card"}
    assert {t for d in dark for t in d["abilities"]} >= scoring


def test_defaults_are_not_shared_between_entries(game):
    a, b = game.get("character", "merchant"), game.get("character", "architect")
    assert a["powers"] == [] and b["powers"] == []
    assert a["powers"] is not b["powers"]


def test_loading_writes_nothing():
    def snapshot(root: Path) -> dict[str, str]:
        return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}

    folder = default_dir() / GAME
    before = snapshot(folder)
    load(games=(GAME,))
    assert snapshot(folder) == before

"""Engine behaviour a mutation run (bench/mutation.py, seed 40925) found unpinned: each test
asserts what a player meets (an option offered, a refusal, an undone move, a saved state)."""

from __future__ import annotations

from ludoteca.cards import load
from ludoteca.companion.engine.setup import screen_options

CATALOG = load(games=("el_mapa",))


def test_the_new_game_screen_offers_each_variant_by_its_name():
    # El Mapa's "variants" option lists the data's variants: the screen's toggles read their
    # names, e.g. "Armería y Atalaya / Armoury and Watchtower", not their ids.
    data = CATALOG["el_mapa"]
    [variants] = [o for o in screen_options(data) if o["name"] == "variants"]
    assert variants["type"] == "ids"
    assert variants["choices"] == {v["id"]: v["name"] for v in data.entries("variant")}
    assert variants["choices"]["armeria_atalaya"] == {"es": "Armería y Atalaya", "en": "Armoury and Watchtower"}

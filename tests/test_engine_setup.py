"""The setup every game shares: options read by their declared type (``companion/engine/setup.py``)."""

from __future__ import annotations

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine import BadArgument
from ludoteca.companion.engine.setup import read_option, setup_options

CATALOG = load(games=("ciudadelas", "el_mapa", "gladiadores"))


def test_a_number_typed_as_text_is_read_with_its_spaces():
    # Gladiadores' target: an int from 1 to 100 (schema.yaml); " 12 " as typed at the command line
    options = setup_options(CATALOG["gladiadores"], ["Ana", "Luis"], {"target": " 12 "})
    assert options["target"] == 12


def test_text_of_twelve_digits_or_more_is_not_read_as_a_number():
    # up to 11 characters the text is read as a number (and refused by its range); 12 are refused as text
    spec = {"type": "int", "min": 1, "max": 100}
    for value, shown in [(" 99999999999 ", "99999999999"), ("-9999999999", "-9999999999"),
                         ("999999999999", "'999999999999'")]:
        with pytest.raises(BadArgument) as info:
            read_option(None, "target", spec, value, [])
        assert str(info.value) == f"option 'target' is a number from 1 to 100, not {shown}"


def test_an_int_option_without_bounds_is_from_0_to_10000():
    spec = {"type": "int"}
    assert read_option(None, "n", spec, 0, []) == 0
    assert read_option(None, "n", spec, 10_000, []) == 10_000
    for bad in (-1, 10_001):
        with pytest.raises(BadArgument) as info:
            read_option(None, "n", spec, bad, [])
        assert str(info.value) == f"option 'n' is a number from 0 to 10000, not {bad}"


def test_a_seat_is_a_player_by_number_from_0_or_by_name():
    players = ["Ana", "Luis"]
    assert setup_options(CATALOG["ciudadelas"], players, {"crown": 0})["crown"] == "Ana"
    assert setup_options(CATALOG["ciudadelas"], players, {"crown": 1})["crown"] == "Luis"
    assert setup_options(CATALOG["ciudadelas"], players, {"crown": " luis "})["crown"] == "Luis"
    with pytest.raises(BadArgument) as info:
        setup_options(CATALOG["ciudadelas"], players, {"crown": 2})
    assert str(info.value) == "option 'crown' is one of the players (Ana, Luis), not 2"


def test_ids_are_a_list_or_text_with_commas_of_known_ids():
    data = CATALOG["el_mapa"]  # its variants (game.yaml) are off by default
    known = ", ".join(v["id"] for v in data.entries("variant"))
    players = ["Ana", "Luis"]
    assert setup_options(data, players, {})["variants"] == []
    assert setup_options(data, players, {"variants": ["armeria_atalaya"]})["variants"] == ["armeria_atalaya"]
    assert setup_options(data, players, {"variants": "armeria_atalaya, armeria_atalaya"})["variants"] == [
        "armeria_atalaya"]
    for bad in (["torre"], [1], {"armeria_atalaya": True}):
        with pytest.raises(BadArgument) as info:
            setup_options(data, players, {"variants": bad})
        assert str(info.value) == f"option 'variants' is a list of {known}, not {bad!r}"

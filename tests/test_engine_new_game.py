"""What a new game's screen asks the engine: the names, and the options the schema declares."""

from __future__ import annotations

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine import BadArgument
from ludoteca.companion.engine.setup import player_names, screen_options, setup_options


def test_player_names_name_the_seat_or_the_name():
    assert player_names(["  Ana ", "Luis"]) == ["Ana", "Luis"]
    with pytest.raises(BadArgument) as empty:
        player_names(["Ana", "  ", "Eva"])
    assert empty.value.text == {"es": "falta el nombre del jugador 2", "en": "player 2 has no name"}
    with pytest.raises(BadArgument) as twice:
        player_names(["Eva", "Ana", "EVA"])
    assert twice.value.text == {"es": "el nombre Eva está repetido", "en": "the name Eva is used twice"}


def test_screen_options_leave_the_starter_to_the_screen_and_carry_the_choices():
    data = load(games=("el_mapa",))["el_mapa"]
    (variants,) = screen_options(data)  # 'first' is the starter picker, not an option row
    assert variants["name"] == "variants" and variants["type"] == "ids"
    assert list(variants["choices"]) == data.ids("variant")
    assert variants["default"] == sorted(v["id"] for v in data.entries("variant") if v.get("enabled_by_default"))


class _Declared:
    """A game's data reduced to what screen_options reads: its declared options."""

    def __init__(self, options: dict):
        self.options = options


def test_screen_options_give_a_number_its_declared_range_else_0_to_10000():
    # Gladiadores' target is declared {min: 1, max: 100}; an undeclared range is read_option's 0..10000
    target = next(o for o in screen_options(load(games=("gladiadores",))["gladiadores"]) if o["name"] == "target")
    assert (target["min"], target["max"]) == (1, 100)
    (rounds,) = screen_options(_Declared({"rounds": {"type": "int", "doc": {"es": "Rondas", "en": "Rounds"}}}))
    assert (rounds["min"], rounds["max"], rounds["default"]) == (0, 10_000, None)


def test_variants_typed_with_spaces_and_a_long_bad_value_shortened():
    # as typed after --option variants= : each id stripped, an empty item between commas skipped
    data = load(games=("el_mapa",))["el_mapa"]
    options = setup_options(data, ["Ana", "Luis"], {"variants": " obstaculos , , armeria_atalaya "})
    assert options["variants"] == ["armeria_atalaya", "obstaculos"]
    # a value is shown up to 40 characters of its repr, else 37 and "..."
    with pytest.raises(BadArgument) as info:
        setup_options(data, ["Ana", "Luis"], {"variants": ["x" * 50]})
    shown = repr(["x" * 50])[:37] + "..."
    assert str(info.value).endswith(f", not {shown}") and len(shown) == 40
    with pytest.raises(BadArgument) as info:
        setup_options(data, ["Ana", "Luis"], {"variants": ["x" * 36]})   # repr ['xx...'] is exactly 40
    assert str(info.value).endswith(", not " + repr(["x" * 36]))
    with pytest.raises(BadArgument) as info:
        setup_options(data, ["Ana", "Luis"], {"variants": ["x" * 37]})   # 41: shortened
    assert str(info.value).endswith(", not " + repr(["x" * 37])[:37] + "...")

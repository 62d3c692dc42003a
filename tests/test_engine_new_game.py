"""What a new game's screen asks the engine: the names, and the options the schema declares."""

from __future__ import annotations

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine import BadArgument
from ludoteca.companion.engine.setup import player_names, screen_options


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

"""Each game is declared once as a GameDefinition: its state has exactly the shape its TypedDicts
declare, after the setup and after every action of a seeded game, and the game ends with the
Outcome its end condition gives."""

from __future__ import annotations

import dataclasses
import random
import typing

import pytest

from ludoteca.companion.engine import Store
from ludoteca.companion.engine.definition import GameDefinition, Outcome
from ludoteca.companion.engine.games import DEFINITIONS, GAME_MODULES
from ludoteca.companion.engine.games.el_mapa import counter_ids, resources
from test_engine_helpers import choose_move

GAMES = {"ciudadelas": ["Ana", "Luis", "Eva", "Pablo"], "el_mapa": ["Ana", "Luis"], "gladiadores": ["Ana", "Luis"]}
#: How each game may end (its end condition's answers).
ENDS = {"ciudadelas": {Outcome.CITY_COMPLETE}, "el_mapa": {Outcome.WONDER_BUILT, Outcome.LAST_TILE},
        "gladiadores": {Outcome.TARGET_REACHED}}


def _shape_problems(value: dict, declared: type, extra: set[str] = frozenset()) -> list[str]:
    """What in ``value`` does not fit the TypedDict ``declared``: a required key missing, a key
    it does not declare (beyond ``extra``)."""
    keys = set(typing.get_type_hints(declared))
    required = set(declared.__required_keys__)  # type: ignore[attr-defined]
    problems = [f"missing {k}" for k in sorted(required - set(value))]
    problems += [f"undeclared {k}" for k in sorted(set(value) - keys - extra)]
    return problems


def _check(game: str, state: dict, definition: GameDefinition, data) -> None:
    assert _shape_problems(state, definition.state) == [], (game, state.get("phase"))
    extra = set(resources(data)) if game == "el_mapa" else set()  # one key per resource of the data
    for player in state["players"]:
        assert _shape_problems(player, definition.player, extra) == [], (game, player["name"])


def test_the_shape_check_sees_a_missing_and_an_undeclared_key():
    class Optional(typing.TypedDict, total=False):
        b: int

    class Small(Optional):
        a: int

    assert _shape_problems({"a": 1, "b": 2}, Small) == []
    assert _shape_problems({"b": 2, "c": 3}, Small) == ["missing a", "undeclared c"]


@pytest.mark.parametrize("game", GAMES)
def test_every_state_of_a_seeded_game_has_the_declared_shape_and_the_end_is_an_outcome(game):
    definition = DEFINITIONS[game]
    assert definition is GAME_MODULES[game].DEFINITION and definition.game == game
    store = Store(":memory:")
    try:
        session = store.new_game(game, GAMES[game], seed=2)
        if game == "el_mapa":
            assert set(counter_ids(session.data)) <= set(resources(session.data))
        rnd = random.Random(2)
        _check(game, session.state, definition, session.data)
        for _ in range(5000):
            if session.state["finished"]:
                break
            session.apply(choose_move(session.state, session.legal_actions(), session.data, rnd))
            _check(game, session.state, definition, session.data)
        assert session.state["finished"]
        outcome = Outcome(session.state["outcome"])
        assert outcome in ENDS[game]
    finally:
        store.close()


def test_the_session_plays_through_the_definition(monkeypatch):
    """The definition is the one way in: a move taken out of it is no longer offered or accepted."""
    store = Store(":memory:")
    session = store.new_game("gladiadores", GAMES["gladiadores"], seed=1)
    definition = DEFINITIONS["gladiadores"]
    assert "end_main" in definition.actions and "end_main" in {a["action"] for a in session.legal_actions()}
    fewer = {name: move for name, move in definition.moves.items() if name != "end_main"}
    monkeypatch.setattr(session, "definition", dataclasses.replace(definition, moves=fewer))
    assert "end_main" not in {a["action"] for a in session.legal_actions()}
    with pytest.raises(Exception, match="end_main"):
        session.apply({"action": "end_main"})
    store.close()

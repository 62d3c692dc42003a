"""Moves declared once: legal actions derived from the one precondition, reasons for refusals, typed
ranges for every number, options read by their declared type, and tests that kill known mutants."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludoteca.cards import load
from ludoteca.companion.engine import (BadArgument, Duplicate, IllegalAction, NotEnough, Store, StoreError,
                                       WrongPhase)
from ludoteca.companion.engine.common import Move, copy_state, refusals
from ludoteca.companion.engine.definition import GameDefinition
from ludoteca.companion.engine.games import GAME_MODULES
from ludoteca.companion.engine.games import ciudadelas as C
from ludoteca.companion.engine.games import el_mapa as M
from ludoteca.companion.engine.games import gladiadores as G
from ludoteca.companion.engine.scoring.el_mapa import RealmEnd, wonder_bonus
from ludoteca.companion.engine.setup import first_player_option, setup_options

DATA = load()
NAMES = ["Ana", "Luis", "Eva", "Pablo", "Rosa", "Hugo", "Iris"]
#: Seeds per game in the suite; ``LUDOTECA_PROPERTY_EXAMPLES=500`` runs many more.
EXAMPLES = int(os.environ.get("LUDOTECA_PROPERTY_EXAMPLES", "12"))


# -- the property: what legal_actions offers is accepted, what is refused is not offered ------------

def _offered_space(module, state: dict, data) -> list[dict]:
    """Every candidate of every move, each also with one argument swapped for a stray value."""
    stray = [None, 0, 1, 7, -1, 10**9, "", "nadie", "Ana", "g1", "temple", "oro", "leva", [], ["g1"], {"leva": 1}]
    out = []
    for move in module.MOVES.values():
        found = list(move.candidates(state, data)) if move.candidates and (
            not move.phases or state.get("phase") in move.phases) else [{}]
        for k, args in enumerate(found[:20]):
            action = {"action": move.name, **args}
            out.append(action)
            if k < 3:
                for key in move.declared:
                    out.append({**action, key: random.Random(json.dumps(action) + key).choice(stray)})
    return out


def _play_checking(game: str, seed: int, players: int, steps: int) -> tuple[int, int]:
    module, data = GAME_MODULES[game], DATA[game]
    lo, hi = data.meta["players"]["min"], data.meta["players"]["max"]
    names = NAMES[:max(lo, min(hi, players))]
    rng = random.Random(seed)
    state = module.setup(names, {}, random.Random(seed), data)
    accepted = refused = 0
    for step in range(steps):
        if state.get("finished"):
            break
        legal = module.DEFINITION.legal_actions(state, data)
        before = json.dumps(state, sort_keys=True)
        for action in legal:  # every action offered is accepted
            module.DEFINITION.apply(copy_state(state), action, random.Random(step), data)
            accepted += 1
        for action in _offered_space(module, state, data):
            try:
                module.DEFINITION.apply(copy_state(state), action, random.Random(step), data)
            except IllegalAction:
                assert action not in legal, action  # every refused action is absent from the offer
                refused += 1
        assert json.dumps(state, sort_keys=True) == before
        progress = [a for a in legal if a["action"] != "adjust"]
        state = module.DEFINITION.apply(state, rng.choice(progress), random.Random(f"{seed}:{step}"), data)
    return accepted, refused


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 7))
def test_legal_actions_are_exactly_what_apply_accepts(game, seed, players):
    accepted, refused = _play_checking(game, seed, players, steps=30)
    assert accepted > 0 and refused > 0


def test_legal_actions_has_no_rule_of_its_own():
    """Each game's ``legal_actions`` is the shared derivation over its declared moves."""
    import inspect

    body = inspect.getsource(GameDefinition.legal_actions)
    assert "legal_moves(self.moves, state, data)" in body and body.count("\n") <= 3
    for module in GAME_MODULES.values():
        assert all(isinstance(m, Move) for m in module.MOVES.values())
        assert module.DEFINITION.moves is module.MOVES and "legal_actions" not in vars(module.DEFINITION)
        assert set(module.ACTIONS) == set(module.MOVES) | {"undo", "redo"}


# -- the Quarry: apply and legal_actions agree -----------------------------------------------------

def _turn(game_data, city: list[str], gold: int = 10, hand: int = 3, dark_city: bool = True) -> dict:
    state = C.setup(["Ana", "Luis"], {"crown": "Ana", "dark_city": dark_city}, random.Random(1), game_data)
    state.update(phase="turn", active=0, turn={"character": "merchant", "resource": True, "income": True,
                                               "builds": 0, "max_builds": 1, "power_used": False,
                                               "districts_used": []})
    state["players"][0].update(city=list(city), gold=gold, hand=hand)
    return state


def _builds(state: dict, data) -> set[str]:
    return {a["district"] for a in C.DEFINITION.legal_actions(state, data) if a["action"] == "build"}


def test_the_quarry_allows_one_duplicate_offered_and_accepted():
    """Chosen behaviour: the Quarry's card says a player may build one district they already have, so
    legal_actions now offers it (before, apply accepted it but legal_actions never offered it)."""
    data = DATA["ciudadelas"]
    with_quarry = _turn(data, ["quarry", "tavern"])
    assert "tavern" in _builds(with_quarry, data)
    after = C.DEFINITION.apply(copy_state(with_quarry), {"action": "build", "district": "tavern"}, random.Random(0),
                               data)
    assert after["players"][0]["city"] == ["quarry", "tavern", "tavern"]
    second = _turn(data, ["quarry", "tavern", "tavern", "temple"])  # its one repeat is used up
    assert "temple" not in _builds(second, data)
    with pytest.raises(Duplicate):
        C.DEFINITION.apply(copy_state(second), {"action": "build", "district": "temple"}, random.Random(0), data)
    plain = _turn(data, ["tavern"])
    assert "tavern" not in _builds(plain, data)
    with pytest.raises(Duplicate):
        C.DEFINITION.apply(copy_state(plain), {"action": "build", "district": "tavern"}, random.Random(0), data)


def test_a_refused_build_says_why_in_both_languages():
    data = DATA["ciudadelas"]
    state = _turn(data, [], gold=10, hand=3)
    state["turn"]["resource"] = False
    [reason] = refusals(C.MOVES, state, data, [{"action": "build", "district": "tavern"}])
    assert reason == {"es": "primero coge oro o cartas", "en": "take gold or cards first"}
    state["turn"]["resource"] = True
    state["players"][0]["hand"] = 0
    [reason] = refusals(C.MOVES, state, data, [{"action": "build", "district": "tavern"}])
    assert reason["en"] == "Ana has no cards in hand"
    state["players"][0].update(hand=2, gold=0)
    [reason] = refusals(C.MOVES, state, data, [{"action": "build", "district": "temple"}])
    assert reason["en"] == "Ana has 0 gold and needs 1"  # the Temple costs 1
    state["players"][0]["gold"] = 1
    assert refusals(C.MOVES, state, data, [{"action": "build", "district": "temple"}]) == [None]


# -- every number has a plausible range ------------------------------------------------------------

def test_a_billion_treasures_are_refused_at_once_naming_the_range():
    data = DATA["el_mapa"]
    tiles_with_treasure = M.treasures_in_game(data)
    assert 0 < tiles_with_treasure < 1000
    state = M.setup(["Ana", "Luis"], {"first": "Ana"}, random.Random(1), data)
    started = time.perf_counter()
    with pytest.raises(BadArgument) as info:
        M.DEFINITION.apply(state, {"action": "treasure", "count": 10**9}, random.Random(0), data)
    assert time.perf_counter() - started < 0.5
    assert str(info.value) == f"'count' must be between 1 and {tiles_with_treasure}, not 1000000000"
    assert info.value.text["es"] == f"'count' debe estar entre 1 y {tiles_with_treasure}, no 1000000000"
    ok = M.DEFINITION.apply(state, {"action": "treasure", "count": tiles_with_treasure}, random.Random(0), data)
    assert len(ok["last_rolls"]) == tiles_with_treasure


@pytest.mark.parametrize("game, action", [
    ("el_mapa", {"action": "reveal", "count": 10**50}),
    ("el_mapa", {"action": "hire", "troop": "leva", "count": 10**7}),
    ("el_mapa", {"action": "trade", "give": "madera", "get": "oro", "times": 10**9}),
    ("el_mapa", {"action": "build", "building": "mercado", "castle": 10**9}),
    ("el_mapa", {"action": "battle", "winner": "Ana", "loser": "Luis", "defeated": {"leva": 10**9}}),
    ("ciudadelas", {"action": "adjust", "player": "Ana", "resource": "gold", "delta": 10**12}),
    ("gladiadores", {"action": "adjust", "player": "Ana", "resource": "coins", "delta": -10**12}),
])
def test_numbers_out_of_range_are_refused_naming_the_argument(game, action):
    data = DATA[game]
    names = NAMES[:2] if game != "gladiadores" else NAMES[:3]
    state = GAME_MODULES[game].setup(names, {}, random.Random(2), data)
    with pytest.raises(BadArgument, match=r"must be between -?\d+ and \d+, not"):
        GAME_MODULES[game].DEFINITION.apply(state, action, random.Random(0), data)


# -- options: declared as data, read by type, checked in one place --------------------------------

@pytest.mark.parametrize("value, on", [("no", False), ("yes", True), ("sí", True), ("false", False),
                                       (True, True), (False, False), ("0", False), (1, True)])
def test_dark_city_option_is_read_as_yes_or_no(value, on):
    assert setup_options(DATA["ciudadelas"], NAMES[:3], {"dark_city": value})["dark_city"] is on


@pytest.mark.parametrize("game, options, message", [
    ("ciudadelas", {"dark_city": [1, 2]}, "option 'dark_city' is yes or no (true/false), not [1, 2]"),
    ("ciudadelas", {"dark_city": "maybe"}, "option 'dark_city' is yes or no (true/false), not 'maybe'"),
    ("ciudadelas", {"crown": "Zoe"}, "option 'crown' is one of the players (Ana, Luis, Eva), not 'Zoe'"),
    ("ciudadelas", {"colour": "red"}, "unknown options: colour (known: crown, dark_city)"),
    ("gladiadores", {"target": "diez"}, "option 'target' is a number from 1 to 100, not 'diez'"),
    ("gladiadores", {"target": 10**9}, "option 'target' is a number from 1 to 100, not 1000000000"),
    ("el_mapa", {"variants": ["nope"]}, "option 'variants' is a list of "),
])
def test_bad_options_name_the_option(game, options, message):
    with pytest.raises(BadArgument) as info:
        setup_options(DATA[game], NAMES[:3], options)
    assert str(info.value).startswith(message)


def test_player_counts_come_from_the_data_for_all_three_games():
    for data in DATA.values():
        lo, hi = data.meta["players"]["min"], data.meta["players"]["max"]
        setup_options(data, NAMES[:lo], {})
        with pytest.raises(BadArgument, match=f"takes {lo} to {hi} players, not {hi + 1}"):
            setup_options(data, (NAMES * 2)[:hi + 1], {})
    gladiadores = DATA["gladiadores"]
    five = NAMES[:5]
    with pytest.raises(BadArgument, match="takes 2 to 4 players, not 5"):
        setup_options(gladiadores, five, {})
    assert setup_options(gladiadores, five, {"expansion": "yes"})["expansion"] is True


def test_the_first_player_option_is_named_by_the_data():
    assert {g: first_player_option(d) for g, d in DATA.items()} == {
        "ciudadelas": "crown", "el_mapa": "first", "gladiadores": None}


def test_play_option_no_keeps_dark_city_off(tmp_path):
    import subprocess
    import sys

    def play(option: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "ludoteca", "play", "ciudadelas", "--players", "Ana,Luis",
                               "--option", option, "--db", str(tmp_path / "p.db")],
                              input='{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1}\n',
                              capture_output=True, text=True)

    off = play("dark_city=no")
    assert off.returncode == 0, off.stderr
    assert json.loads(off.stdout.splitlines()[0])["state"]["options"]["dark_city"] is False
    on = play("dark_city=yes")
    assert json.loads(on.stdout.splitlines()[0])["state"]["options"]["dark_city"] is True
    bad = play("dark_city=[1,2]")
    assert bad.returncode == 2 and bad.stderr.strip().splitlines() == [
        "ludoteca: error: option 'dark_city' is yes or no (true/false), not [1, 2]"]


# -- mutants the suite let through ---------------------------------------------------------------

def test_a_combat_tie_goes_to_the_defender():
    rules = DATA["gladiadores"].meta["combat"]
    assert rules["ties"] == "defender"
    assert G.attacker_wins(5, 4, rules) and not G.attacker_wins(5, 5, rules) and not G.attacker_wins(4, 5, rules)


def test_a_fight_ending_level_scores_nothing_for_the_attacker():
    """Worked from the cards: attack = combat + swords, defence = combat + shields; a card that makes
    them equal gives the fight to the defender (no point for the attacker, who pays 1 coin)."""
    data = DATA["gladiadores"]
    store = Store(":memory:")
    for seed in range(30):
        s = store.new_game("gladiadores", NAMES[:2], seed=seed)
        seat = s.state["active"]
        me, rival = s.state["players"][seat], s.state["players"][1 - seat]
        att, dfd = me["gladiators"][0], rival["gladiators"][0]
        a_combat = G.stat(s.state, seat, att, "combat", data, "attack")
        d_combat = G.stat(s.state, 1 - seat, dfd, "combat", data, "defence")
        tie = next((c for c in data.entries("combat_card")
                    if a_combat + c["swords"] == d_combat + c["shields"]), None)
        if tie is None:
            continue
        s.apply({"action": "fight", "gladiator": att["uid"], "target": rival["name"], "defender": dfd["uid"],
                 "card": tie["id"]})
        level = a_combat + tie["swords"]
        fight = next(line for line in s.state["log"] if line["es"].startswith("Combate"))
        assert fight["es"].startswith(f"Combate {level} contra {level} ")
        assert fight["es"].endswith(f"gana {rival['name']}")
        assert (s.state["players"][seat]["combat_wins"], s.state["players"][1 - seat]["defence_wins"]) == (0, 1)
        return
    pytest.fail("no seed gave a tie to test")


def test_the_wonder_bonus_counts_its_own_resource_not_the_larger():
    data = DATA["el_mapa"]
    pyramids = data.get("building", "piramides")  # 2 points per stone
    ares = data.get("building", "templo_ares")  # 2 points per trained troop
    realm = RealmEnd("Ana", buildings=("piramides",), resources={"piedra": 3, "oro": 9}, trained_troops=10)
    assert wonder_bonus(pyramids, realm) == 6
    assert wonder_bonus(ares, realm) == 20
    few = RealmEnd("Luis", resources={"piedra": 7}, trained_troops=1)
    assert wonder_bonus(ares, few) == 2 and wonder_bonus(pyramids, few) == 14


def test_a_reopened_game_offers_no_stale_redo(tmp_path):
    store = Store(tmp_path / "r.db")
    s = store.new_game("ciudadelas", NAMES[:3], seed=4, options={"crown": "Ana"})
    gold = {"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1}
    s.apply(gold)
    s.apply({**gold, "delta": 2})
    s.apply({"action": "undo"})
    assert s.can_redo
    s.apply({**gold, "delta": 5})  # a new action: the undone one can no longer be redone
    assert not s.can_redo
    again = Store(tmp_path / "r.db").open(s.id)
    assert not again.can_redo and {"action": "redo"} not in again.legal_actions()
    assert [a["delta"] for a in again.actions] == [1, 5]
    assert again.state["players"][0]["gold"] == 2 + 1 + 5
    with pytest.raises(IllegalAction, match="nothing to redo"):
        again.apply({"action": "redo"})


def test_undo_and_redo_lists_are_restored_when_a_save_fails(tmp_path, monkeypatch):
    store = Store(tmp_path / "f.db")
    s = store.new_game("ciudadelas", NAMES[:3], seed=4, options={"crown": "Ana"})
    gold = {"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1}
    s.apply(gold)
    s.apply({**gold, "delta": 2})
    s.apply({"action": "undo"})
    state = json.dumps(s.state, sort_keys=True)

    def full_disk(*args, **kwargs):
        raise StoreError("database or disk is full")

    monkeypatch.setattr(store, "append", full_disk)
    for action in ({"action": "redo"}, {"action": "undo"}, {**gold, "delta": 7}):
        with pytest.raises(StoreError):
            s.apply(action)
        assert s.can_undo and s.can_redo
        assert [a["delta"] for a in s.actions] == [1]
        assert json.dumps(s.state, sort_keys=True) == state
    monkeypatch.undo()
    s.apply({"action": "redo"})
    assert [a["delta"] for a in s.actions] == [1, 2] and s.state["players"][0]["gold"] == 2 + 1 + 2
    assert sqlite3.connect(tmp_path / "f.db").execute("SELECT count(*) FROM actions").fetchone()[0] == 4


def test_wrong_phase_is_said_by_the_declaration():
    data = DATA["ciudadelas"]
    state = C.setup(NAMES[:3], {"crown": "Ana"}, random.Random(1), data)
    with pytest.raises(WrongPhase) as info:
        C.DEFINITION.apply(state, {"action": "build", "district": "temple"}, random.Random(0), data)
    assert info.value.text == {"es": "no es el turno de ningún personaje", "en": "no character's turn is under way"}
    with pytest.raises(NotEnough):
        C.DEFINITION.apply(_turn(data, [], gold=0), {"action": "build", "district": "temple"}, random.Random(0), data)

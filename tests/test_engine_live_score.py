"""The live score equals the final score: over seeded random games, with the data's point values
changed, the score the engine shows during the game (``derive``) is, at the end, the final scoring of
that end state, total and shown lines alike.  A rule written twice (the engine's own sum beside the
scoring's) drifts apart as soon as a point value is not the shipped one."""

from __future__ import annotations

import copy
import os
import random

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine import IllegalAction
from ludoteca.companion.engine.games import GAME_MODULES
from test_engine_helpers import choose_move

DATA = load()
#: Seeded games per game; the suite's default, ``LUDOTECA_PROPERTY_EXAMPLES`` as the other property tests.
EXAMPLES = max(1, int(os.environ.get("LUDOTECA_PROPERTY_EXAMPLES", "12")) // 2)
PLAYERS = {"ciudadelas": ["Ana", "Luis", "Eva", "Pablo"], "el_mapa": ["Ana", "Luis"],
           "gladiadores": ["Ana", "Luis", "Eva"]}
#: The line of the final breakdown each game also shows on its own during the game.
SHOWN = {"ciudadelas": ("city_points", "districts"), "el_mapa": ("battle_points", "battles")}


def perturbed(game: str, rng: random.Random):
    """The game's data with every point value the scoring reads set to another number."""
    data = copy.deepcopy(DATA[game])
    meta = data.meta
    if game == "gladiadores":
        meta["combat"]["points"].update(attacker_wins=rng.randint(2, 4), defender_wins=rng.randint(1, 3))
        for b in data.entries("building"):
            if b["points"]:  # a building without points stays without (those may be pulled down)
                b["points"] = rng.randint(1, 6)
    elif game == "el_mapa":
        meta["scoring"]["per_revealed_tile"] = rng.randint(2, 4)
        for t in data.entries("troop"):
            t["points"] = rng.randint(2, 6)
        for b in data.entries("building"):
            if b.get("extra_points"):
                b["extra_points"] = rng.randint(1, 12)
            if b.get("wonder_points"):
                b["wonder_points"]["points"] = rng.randint(1, 4)
    else:
        meta["bonuses"] = {k: rng.randint(1, 9) for k in meta["bonuses"]}
        for d in data.entries("district") + data.entries("dark_district"):
            if "points" in d:
                d["points"] = rng.randint(1, 12)
            if any(a.startswith("points_per_") for a in d.get("abilities", [])):
                d["params"] = {**(d.get("params") or {}), "per": rng.randint(2, 3)}
    return data


def _battle(state: dict, data, rng: random.Random) -> dict:
    """An El Mapa battle the active player wins over neutral troops (the table tells the engine)."""
    troop = rng.choice(data.entries("troop"))["id"]
    return {"action": "battle", "winner": state["players"][state["active"]]["name"], "loser": "neutral",
            "defeated": {troop: rng.randint(1, 3)}}


def play(game: str, seed: int) -> tuple[dict, object]:
    """A seeded game to its end with perturbed data; the end state, derived, and the data."""
    module, rng = GAME_MODULES[game], random.Random(seed)
    data = perturbed(game, rng)
    options = {"dark_city": rng.random() < 0.5} if game == "ciudadelas" else {}
    state = module.setup(PLAYERS[game], options, random.Random(seed), data)
    for step in range(3000):
        if state["finished"]:
            break
        legal = module.DEFINITION.legal_actions(state, data)
        builds = [a for a in legal if a["action"] == "build"]
        if game == "ciudadelas" and builds:  # the helper prices base districts only; Dark City ones too here
            action = rng.choice(builds)
        else:
            action = choose_move(state, legal, data, rng)
        if game == "el_mapa" and rng.random() < 0.15:
            action = _battle(state, data, rng)
        try:
            state = module.DEFINITION.apply(state, action, random.Random(f"{seed}:{step}"), data)
        except IllegalAction:
            continue
        if step % 7 == 0:
            module.derive(state, data)  # the live numbers are worked out mid-game too, never refused
    assert state["finished"], f"{game} seed {seed} did not end"
    module.derive(state, data)
    return state, data


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_the_live_score_is_the_final_score_with_changed_point_values(game):
    scored = 0
    for seed in range(EXAMPLES):
        state, data = play(game, seed)
        final = {p["name"]: p for p in state["final"]["players"]}
        for p in state["players"]:
            assert p["score"] == final[p["name"]]["total"], (seed, p["name"], final[p["name"]]["breakdown"])
            if game in SHOWN:
                field, line = SHOWN[game]
                assert p[field] == final[p["name"]]["breakdown"][line], (seed, p["name"])
        scored += sum(1 for p in final.values() if p["total"])
    assert scored  # the games really scored points

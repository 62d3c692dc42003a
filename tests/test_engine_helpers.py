"""Shared helpers for the engine tests: a simple, deterministic table that plays any game to its end."""

from __future__ import annotations

import random

from ludoteca.companion.engine import Store


def choose_move(state: dict, moves: list[dict], data, rnd: random.Random) -> dict:
    """A plain strategy over ``legal_actions``: take the resource, collect, build the dearest, end."""
    moves = [m for m in moves if m["action"] not in ("undo", "redo", "reclaim")]
    by = {}
    for m in moves:
        by.setdefault(m["action"], []).append(m)
    game = state["game"]
    if game == "ciudadelas":
        if "take_gold" in by:
            hand = state["players"][state["active"]]["hand"]
            return by["draw_cards"][0] if hand < 2 else by["take_gold"][0]
        if "income" in by:
            return by["income"][0]
        if "build" in by:
            return max(by["build"], key=lambda m: data.get("district", m["district"])["cost"])
        for name in ("choose", "call", "end_turn"):
            if name in by:
                return rnd.choice(by[name])
    if game == "el_mapa":
        for name in ("build", "hire", "trade"):
            if name in by and rnd.random() < 0.7:
                return rnd.choice(by[name])
        if "reveal" in by and rnd.random() < 0.6:
            return {"action": "reveal", "count": rnd.randint(1, min(3, state["map"]["hidden"]))}
        return by["end_turn"][0]
    for name in ("fight", "build", "work", "hire", "bid", "pick", "start_auction", "discard_gladiator",
                 "pass", "end_main", "skip_auction", "end_turn"):
        if name in by:
            return rnd.choice(by[name])
    return rnd.choice(moves)


def play_to_end(session, seed: int = 0, limit: int = 5000) -> int:
    """Apply moves until the game finishes; returns how many were applied."""
    rnd = random.Random(seed)
    n = 0
    while not session.state["finished"]:
        assert n < limit, "the game did not end"
        move = choose_move(session.state, session.legal_actions(), session.data, rnd)
        session.apply(move)
        n += 1
    return n


def new_store(tmp_path) -> Store:
    return Store(tmp_path / "test.db")


def test_helpers_play_a_game(tmp_path):
    store = new_store(tmp_path)
    session = store.new_game("ciudadelas", ["Ana", "Luis", "Eva", "Pablo"], seed=11)
    assert play_to_end(session) > 20
    assert session.state["final"]["winners"]

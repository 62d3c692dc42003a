"""Benchmark of the companion engine: one durable action, and rebuilding a 2,000-action game.

Run: ``python bench/bench_engine.py [--runs 5]``.  Prints medians of at least 5 runs.
Targets (issue 5): one action applied durably, median <= 10 ms; a 2,000-action game rebuilt from
its log (open = read the log + fold it), median <= 200 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from ludoteca.companion.engine import Store

ACTIONS = 2000
PLAYERS = {"ciudadelas": ["Ana", "Luis", "Eva", "Pablo", "Rosa"], "gladiadores": ["Ana", "Luis", "Eva"],
           "el_mapa": ["Ana", "Luis", "Eva"]}


def endless_move(state: dict, moves: list[dict], rnd: random.Random) -> dict:
    """A legal move that keeps the game going (no builds that finish it, no points)."""
    keep = {"ciudadelas": ("choose", "call", "take_gold", "draw_cards", "income", "end_turn"),
            "gladiadores": ("work", "end_main", "end_turn", "start_auction", "pick", "pass",
                            "discard_gladiator"),
            "el_mapa": ("hire", "trade", "end_turn")}[state["game"]]
    moves = [m for m in moves if m["action"] in keep]
    if state["game"] == "ciudadelas" and any(m["action"] in ("take_gold", "draw_cards") for m in moves):
        return next(m for m in moves if m["action"] in ("take_gold", "draw_cards"))
    busy = [m for m in moves if m["action"] not in ("end_turn", "end_main")]
    ends = [m for m in moves if m["action"] in ("end_turn", "end_main")]
    if busy and (not ends or rnd.random() < 0.6):
        return rnd.choice(busy)
    return ends[0]


def long_game(store: Store, game: str) -> str:
    session = store.new_game(game, PLAYERS[game], seed=1)
    rnd = random.Random(1)
    while session.seq < ACTIONS:
        session.apply(endless_move(session.state, session.legal_actions(), rnd))
    assert not session.state["finished"]
    return session.id


def bench_apply(folder: Path, runs: int, per_run: int = 100) -> list[float]:
    """Per run: the median time of ``per_run`` durable applies (ms)."""
    out = []
    for k in range(runs):
        store = Store(folder / f"apply{k}.db")
        s = store.new_game("ciudadelas", PLAYERS["ciudadelas"], seed=k)
        times = []
        for i in range(per_run):
            action = {"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1 if i % 2 == 0 else -1}
            t = time.perf_counter()
            s.apply(action)
            times.append((time.perf_counter() - t) * 1000)
        out.append(statistics.median(times))
        store.close()
    return out


def bench_rebuild(folder: Path, game: str, runs: int) -> list[float]:
    """Per run: the time to open a 2,000-action game from a fresh store (ms)."""
    path = folder / f"rebuild_{game}.db"
    game_id = long_game(Store(path), game)
    Store(path).data(game)
    out = []
    for _ in range(runs):
        store = Store(path)
        store.data(game)  # card data loading is not part of the rebuild
        t = time.perf_counter()
        session = store.open(game_id)
        out.append((time.perf_counter() - t) * 1000)
        assert session.seq == ACTIONS
        store.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    runs = max(5, args.runs)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        a = bench_apply(folder, runs)
        rows.append(("apply one action durably (ms)", statistics.median(a), min(a), max(a), 10.0))
        for game in PLAYERS:
            r = bench_rebuild(folder, game, runs)
            rows.append((f"rebuild {ACTIONS}-action {game} (ms)", statistics.median(r), min(r), max(r), 200.0))
    print(f"{'measure':42} {'median':>8} {'min':>8} {'max':>8} {'target':>8}  ok")
    ok = True
    for name, med, lo, hi, target in rows:
        good = med <= target
        ok &= good
        print(f"{name:42} {med:8.2f} {lo:8.2f} {hi:8.2f} {target:8.1f}  {'yes' if good else 'NO'}")
    print(f"({runs} runs each)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

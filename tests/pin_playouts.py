"""Pinned seeded playouts (python-chess's perft idea): a few fixed seeds per game, each played to its
end by the tests' plain strategy (``test_engine_helpers.choose_move``); the final scores, winners and
number of moves, and a digest of them plus the facts scoring read, are kept in
``tests/fixtures/playouts.json``. ``test_pinned_playouts.py`` replays them and compares.

When a change of behaviour is meant, regenerate the file and read what changed::

    .venv/bin/python tests/pin_playouts.py           # say what differs, write nothing (exit 1 if any)
    .venv/bin/python tests/pin_playouts.py --write   # the same, then write the file
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_engine_helpers import play_to_end  # noqa: E402

from ludoteca import atomic  # noqa: E402
from ludoteca.companion.engine import Store  # noqa: E402

PINS = Path(__file__).resolve().parent / "fixtures" / "playouts.json"
#: (game, players, seeds): short games, so the whole replay stays well under a second or two.
PLAYOUTS: tuple[tuple[str, tuple[str, ...], tuple[int, ...]], ...] = (
    ("ciudadelas", ("Ana", "Luis", "Eva", "Pablo"), (1, 2)),
    ("el_mapa", ("Ana", "Luis"), (1, 2, 3)),
    ("gladiadores", ("Ana", "Luis"), (1, 2, 3)),
)


def key(game: str, seed: int) -> str:
    return f"{game}:{seed}"


def digest(essential: dict) -> str:
    """SHA-256 of the canonical JSON (sorted keys, no spaces) of ``essential``."""
    canonical = json.dumps(essential, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def playout(game: str, players: tuple[str, ...], seed: int) -> dict:
    """Play one game to its end (the game's seed and the strategy's seed are both ``seed``) and
    return its pin: moves, scores, winners and the digest of those plus the final record."""
    store = Store(":memory:")
    try:
        session = store.new_game(game, list(players), seed=seed)
        moves = play_to_end(session, seed)
        final = session.state["final"]
    finally:
        store.close()
    scores = {p["name"]: {"total": p["total"], "rank": p["rank"], "breakdown": p["breakdown"]}
              for p in final["players"]}
    essential = {"moves": moves, "scores": scores, "winners": final["winners"], "record": final["record"]}
    return {"moves": moves, "totals": {name: s["total"] for name, s in scores.items()},
            "winners": final["winners"], "digest": digest(essential)}


def compute() -> dict[str, dict]:
    return {key(game, seed): playout(game, players, seed)
            for game, players, seeds in PLAYOUTS for seed in seeds}


def changes(old: dict[str, dict], new: dict[str, dict]) -> list[str]:
    """One line per pinned playout that is new, gone or different, saying which fields changed."""
    lines = []
    for name in sorted(set(old) | set(new)):
        if name not in old:
            lines.append(f"{name}: new, {new[name]['moves']} moves, totals {new[name]['totals']}")
        elif name not in new:
            lines.append(f"{name}: no longer pinned")
        elif old[name] != new[name]:
            fields = [f"{f} {old[name].get(f)} -> {new[name].get(f)}" for f in ("moves", "totals", "winners")
                      if old[name].get(f) != new[name].get(f)]
            lines.append(f"{name}: " + ("; ".join(fields) or "same scores, other facts (digest changed)"))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Replay the pinned playouts and say what changed.")
    parser.add_argument("--write", action="store_true", help=f"write the new pins to {PINS}")
    args = parser.parse_args(argv)
    old = json.loads(PINS.read_text(encoding="utf-8")) if PINS.exists() else {}
    new = compute()
    lines = changes(old, new)
    print("\n".join(lines) if lines else "no change")
    if args.write and lines:
        atomic.write_text(PINS, json.dumps(new, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        print(f"wrote {PINS}")
    return 0 if args.write or not lines else 1


if __name__ == "__main__":
    sys.exit(main())

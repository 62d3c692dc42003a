"""Recovery of a damaged database of 900 acknowledged actions (3 Ciudadelas games of 300), damaged
the issue's three ways, several seeds each: how many actions are intact (their row's bytes still in
the file, judged by SQLite's reading of the healthy file), how many came back into their game, how
many were kept apart, how many intact ones were lost and how many altered rows came back as
actions (both must be 0).

    python bench/bench_recovery.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import recoverycases as rc  # noqa: E402
from ludoteca.companion.engine import Store  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    lost_any = 0
    with tempfile.TemporaryDirectory() as folder:
        src = Path(folder) / "src.db"
        rows = rc.build(src, games=3, per_game=300)
        healthy = src.read_bytes()
        print(f"{len(rows)} actions, {len(healthy) // rc.PAGE} pages")
        print(f"{'damage':24} {'seed':>4} {'intact':>6} {'back':>5} {'apart':>5} {'lost':>5} {'wrong':>5} "
              f"{'games':>5} {'s':>6}")
        for kind in rc.ISSUE_DAMAGE:
            for seed in range(1, args.seeds + 1):
                damaged = rc.damage(healthy, kind, seed)
                path = Path(folder) / f"{kind}-{seed}.db"
                path.write_bytes(damaged)
                truth = rc.intact(rows, [damaged])
                start = time.perf_counter()
                store = Store(path)
                seconds = time.perf_counter() - start
                back = {cid for (cid,) in store.conn.execute("SELECT client_id FROM actions")}
                lost, wrong = len(truth - back), len(back - truth)
                lost_any += lost + wrong
                print(f"{kind:24} {seed:4} {len(truth):6} {len(back):5} {store.recovery.apart:5} {lost:5} "
                      f"{wrong:5} {store.recovery.games:5} {seconds:6.2f}")
                store.close()
    print("every intact action came back, no altered one" if not lost_any else f"{lost_any} actions lost or altered")
    return 1 if lost_any else 0


if __name__ == "__main__":
    sys.exit(main())

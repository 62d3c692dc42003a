"""Benchmark the companion app in a real window (Xvfb when there is no display).

1. Launch to home: a fresh process starts the app until the home screen is drawn
   (target <= 1.5 s, issue 22), with the bytecode caches an installed app has (one uncounted run
   writes them: PYTHONDONTWRITEBYTECODE is dropped for these runs).
2. Tap to saved and redrawn: a button's release, the engine's durable commit, the screen rebuilt
   and one frame drawn (target <= 50 ms), on a phone-sized window, for each game's screen.

Medians of --runs runs (at least 5), with the machine's load average before and after (the
targets are for an idle machine).  ``python bench/bench_app.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAUNCH_TARGET_S = 1.5
sys.path.insert(0, str(ROOT / "tests"))

CHILD = r"""
import sys, time
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from appdriver import AppDriver
drv = AppDriver(Path(sys.argv[1]), "bench").start()
assert drv.app.root.current == "home"
print(time.time(), flush=True)
drv.stop()
"""


def launch_times(runs: int) -> list[float]:
    import appdriver

    appdriver.ensure_display()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed app has its bytecode (pip, python-for-android)
    out = []
    for run in range(runs + 1):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.time()
            proc = subprocess.run([sys.executable, "-c", CHILD, tmp, str(ROOT / "tests")], capture_output=True,
                                  text=True, cwd=ROOT, env=env, check=True)
            if run:  # the first run only writes the bytecode caches
                out.append(float(proc.stdout.strip().splitlines()[-1]) - start)
    return out


def tap_times(runs: int) -> dict[str, list[float]]:
    from kivy.base import EventLoop

    from appdriver import AppDriver, new_game

    results: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp, AppDriver(Path(tmp), "bench") as drv:
        cases = (("ciudadelas", "adjust_0_gold_plus", ["Ana", "Luis", "Eva", "Pablo", "Sara"]),
                 ("gladiadores", "p0_coins_plus", ["Ana", "Luis", "Eva", "Pablo"]),
                 ("el_mapa", "p0_oro_plus", ["Ana", "Luis", "Eva", "Pablo"]))
        for game, wid, names in cases:
            new_game(drv, game, names)
            if game == "ciudadelas":
                drv.press("adjust_0")
            times = []
            for _ in range(runs):
                widget = drv.find(wid)
                seq = drv.app.session.seq
                start = time.perf_counter()
                widget.dispatch("on_release")
                EventLoop.idle()  # layout and draw one frame
                times.append(time.perf_counter() - start)
                assert drv.app.session.seq == seq + 1
            results[f"{game}: {wid}"] = times
            drv.press("home")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    runs = max(5, args.runs)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    launch = launch_times(runs)
    print(f"launch to home screen: median {statistics.median(launch):.2f} s "
          f"(min {min(launch):.2f}, max {max(launch):.2f}, {runs} runs; target <= {LAUNCH_TARGET_S} s)")
    ok = statistics.median(launch) <= LAUNCH_TARGET_S
    for name, times in tap_times(max(runs, 20)).items():
        median_ms = statistics.median(times) * 1000
        ok = ok and median_ms <= 50
        print(f"tap to saved + redrawn, {name}: median {median_ms:.1f} ms "
              f"(min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}, {len(times)} runs; target <= 50 ms)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

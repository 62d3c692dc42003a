"""Start-up benchmark of `ludoteca scan`: the CPU one process spends answering one photo (12 MP by default).

Each round runs, one after the other, ``python -c pass`` (the floor: the interpreter and its
site), ``python -c "import cv2"`` (what any OpenCV reader pays: NumPy and OpenCV loaded, OpenBLAS on one
thread as ``ludoteca scan`` keeps it) and
``ludoteca scan PHOTO --game GAME`` (the console script, as a user runs it); with ``--old DIR``
also the same command run from another checkout (``/work/main``: the code before a change), so
old and new are paired in one run under the same load.  It prints the median CPU (user + system,
from the child's own resource usage) of each over the rounds, and the scan's CPU above the floor.

Bytecode: an installed Ludoteca (pip, a wheel) has its modules compiled once; a checkout run with
PYTHONDONTWRITEBYTECODE=1 compiles every module at every start.  By default each command runs once
first with its bytecode written into a private cache (PYTHONPYCACHEPREFIX in a temporary folder),
then is timed from it; ``--no-bytecode`` times every start compiling from source whatever has no
``__pycache__`` beside it (Ludoteca, and the packages of a virtual environment made by uv).

    python bench/bench_scan_startup.py                       # 5 rounds, a Ciudadelas table
    python bench/bench_scan_startup.py --old /work/main      # paired: before and after a change
    python bench/bench_scan_startup.py --game el_mapa --rounds 9
    python bench/bench_scan_startup.py --size 3MP           # a 3 MP photo (1.2MP, 3MP, 12MP)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def make_photo(folder: Path, game_id: str, seed: int, size: str = "12MP") -> Path:
    """A seated photo of one game's table, of ``size`` (a key of synth.SIZES; companion/scan/synth.py, fixed seed)."""
    import numpy as np

    from ludoteca.cards import load
    from ludoteca.companion.scan import synth

    game = load(games=(game_id,))[game_id]
    marked, plain = synth.faces(game)
    rng = np.random.default_rng(seed)
    scene = synth.table_scene(game, rng, marked, plain[:2], "row", "next_on_top", 0.2)
    view = synth.seated(rng, (10.0, 30.0))
    synth.frame_all(scene, view, synth.SIZES[size])
    jpg, _truth = synth.photo(scene, synth.SIZES[size], rng, view=view)
    path = folder / f"{game_id}-{size}.jpg"
    path.write_bytes(jpg)
    return path


def cpu(command: list[str], env: dict[str, str], cwd: Path) -> float:
    """CPU seconds (user + system) of one run of ``command``, which must succeed."""
    proc = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed ({os.waitstatus_to_exitcode(status)}):\n{err}")
    return usage.ru_utime + usage.ru_stime


def script() -> str:
    """The ``ludoteca`` console script beside this Python, or ``-m ludoteca`` where there is none."""
    found = Path(sys.executable).with_name("ludoteca")
    return str(found) if found.exists() else ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="ciudadelas", choices=("ciudadelas", "el_mapa", "gladiadores"))
    ap.add_argument("--photo", default=None, help="a photo to read (default: a synthetic one of --size)")
    ap.add_argument("--size", default="12MP", choices=("12MP", "3MP", "1.2MP"), help="the synthetic photo's size")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--old", metavar="DIR", default=None,
                    help="also run `ludoteca scan` from this checkout (its code on PYTHONPATH), paired")
    ap.add_argument("--no-bytecode", action="store_true", help="compile every module at every start")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "scan-startup.json"))
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-scan-startup-"))
    try:
        photo = Path(args.photo) if args.photo else make_photo(tmp, args.game, args.seed, args.size)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
        if args.no_bytecode:       # the standard library's own __pycache__ is still read
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        launcher = script()
        scan = ([launcher] if launcher else [sys.executable, "-m", "ludoteca"]) + [
            "scan", str(photo), "--game", args.game]
        commands: dict[str, tuple[list[str], dict[str, str], Path]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], env, ROOT),
            "python -c 'import cv2'": ([sys.executable, "-c", "import cv2"], {**env, "OPENBLAS_NUM_THREADS": "1"},
                                       ROOT),
            "ludoteca scan": (scan, env, ROOT),
        }
        if args.old:
            old = Path(args.old).resolve()
            commands["ludoteca scan (old)"] = (scan, {**env, "PYTHONPATH": str(old)}, old)
        for command, cenv, cwd in commands.values():   # the bytecode is written by these runs
            cpu(command, cenv, cwd)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _round in range(args.rounds):
            for name, (command, cenv, cwd) in commands.items():
                times[name].append(cpu(command, cenv, cwd))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    floor = statistics.median(times["python -c pass"])
    print(f"{photo.name if args.photo else f'synthetic {args.size} photo'} ({args.game}), {args.rounds} rounds, "
          f"{'compiling every module' if args.no_bytecode else 'bytecode cached'}; CPU = user + system")
    result = {}
    for name, values in times.items():
        med = statistics.median(values)
        result[name] = {"median_s": med, "runs_s": values}
        print(f"  {name:24} median {med * 1000:6.0f} ms  (above the floor {(med - floor) * 1000:6.0f} ms;"
              f" runs {' '.join(f'{v * 1000:.0f}' for v in values)})")
    if args.old:
        pairs = [new / old for new, old in zip(times["ludoteca scan"], times["ludoteca scan (old)"])]
        print(f"  new / old, paired by round: median {statistics.median(pairs):.2f}")
        result["new_over_old"] = statistics.median(pairs)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"game": args.game, "size": None if args.photo else args.size, "rounds": args.rounds,
                               "bytecode": not args.no_bytecode, "commands": result}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

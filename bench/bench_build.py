"""Benchmark of the print kit: medians of N runs of ``ludoteca build`` and ``ludoteca deck``.

    python bench/bench_build.py [--runs 5] [--paper a4] [--games GAME ...]

Measures the whole kit cold (empty output folder), a rebuild with nothing changed, a rebuild after
editing one card (on a copy of cards/), peak RSS, the kit's total PDF size, and the 120-card deck of
bench/data/cards120.csv (a copy of the shared benchmark input) on A4 with crop marks (and, for information, the same deck with backs),
and, once each, huge decks of 1,200 / 6,000 / 20,000 distinct cards made from it (wall time, time
per card, peak RSS of the command and its workers; ``--big`` alone skips them).
Prints a table and writes bench/results/build-<timestamp>.json.

Every figure is the wall time of the whole command as a user runs it (``python -m ludoteca.cli ...``
in a fresh process: interpreter start-up, imports, build, exit); the "in-process" column is the
build time the command itself reports.  Python's compiled bytecode is kept between runs (in a
temporary PYTHONPYCACHEPREFIX, after one untimed warm-up run), as it is on a user's machine, even
when the calling environment sets PYTHONDONTWRITEBYTECODE; ``--as-is-env`` keeps the environment
unchanged instead.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "bench" / "data" / "cards120.csv"
TARGETS = {"kit_cold_s": 3.0, "nothing_changed_s": 0.3, "one_card_s": None, "deck120_s": 1.0,
           "deck120_backs_s": None, "peak_rss_mb": 300.0, "kit_mb": 15.0}
BIG = (1200, 6000, 20000)           # huge decks: wall time and peak memory (target 150 MB at any size)
BIG_RSS_MB = 150.0


def big_deck(rows: int, folder: Path) -> Path:
    """A deck of ``rows`` distinct cards made from the 120-card one (each copy renamed "... 2")."""
    import csv
    with open(DECK, newline="", encoding="utf-8") as fh:
        source = list(csv.DictReader(fh))
    path = folder / f"cards{rows}.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(source[0]))
        writer.writeheader()
        for i in range(rows):
            row = dict(source[i % len(source)])
            row["id"] = str(i + 1)
            row["name"] = f"{row['name']} {i // len(source) + 1}"
            writer.writerow(row)
    return path


CPU: dict[str, list[float]] = {}
INSIDE: dict[str, list[float]] = {}     # the build time each command reports ("..., 0.52 s")
ENV: dict[str, str] | None = None


def cold(out: Path) -> None:
    """Remove an output folder and the page and rulebook caches (in the user cache folder, which
    ENV points at a folder of this run): the next build starts cold."""
    shutil.rmtree(out, ignore_errors=True)
    for name in ("kits", "rulebooks"):
        shutil.rmtree(Path(ENV["XDG_CACHE_HOME"]) / "ludoteca" / name, ignore_errors=True)


def run(args: list[str], what: str = "") -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall seconds and peak RSS (MB) of one command; its CPU seconds are kept in CPU[what].

    The RSS is the largest of the command and its workers (each a separate process).
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    out_f, err_f = proc.stdout, proc.stderr
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    out, err = out_f.read().decode(), err_f.read().decode()
    out_f.close()
    err_f.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    CPU.setdefault(what, []).append(usage.ru_utime + usage.ru_stime)
    inside = re.search(r", ([\d.]+) s\s*$", out)
    if inside:
        INSIDE.setdefault(what, []).append(float(inside.group(1)))
    return seconds, usage.ru_maxrss / 1024, subprocess.CompletedProcess(args, proc.returncode, out, err)


def ludoteca(*args: str) -> list[str]:
    return [sys.executable, "-m", "ludoteca.cli", *args]


def edit_one_card(cards: Path, n: int) -> None:
    """Change one displayed name in the first data file that has one (a new text every time)."""
    for path in sorted(cards.glob("ciudadelas/*.yaml")) + sorted(cards.glob("*/*.yaml")):
        if path.name in ("schema.yaml", "game.yaml"):
            continue
        text = path.read_text(encoding="utf-8")
        match = re.search(r"(\bes: *)(['\"]?)([^'\"\n]+?)(\2)( *[,}\n])", text)
        if match:
            new = re.sub(r" v\d+$", "", match.group(3)) + f" v{n}"
            path.write_text(text[:match.start(3)] + new + text[match.end(3):], encoding="utf-8")
            return
    raise SystemExit("no card name found to edit")


def pdf_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*.pdf")) / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--games", nargs="*", default=[], help="only these games (default: all)")
    parser.add_argument("--big", type=int, nargs="*", default=list(BIG), metavar="ROWS",
                        help=f"huge decks to build once each, cold (default: {' '.join(map(str, BIG))}; "
                             "none: --big)")
    parser.add_argument("--big-runs", type=int, default=1, help="runs of each huge deck (1)")
    parser.add_argument("--as-is-env", action="store_true",
                        help="run the commands in this environment as it is (no bytecode cache if "
                             "PYTHONDONTWRITEBYTECODE is set)")
    args = parser.parse_args()
    global ENV
    results: dict[str, list[float]] = {k: [] for k in TARGETS}
    load0 = os.getloadavg()[0]
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ludoteca-bench-") as tmp:
        tmp = Path(tmp)
        if not args.as_is_env:
            ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            ENV["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        ENV = dict(ENV or os.environ, XDG_CACHE_HOME=str(tmp / "xdg"))
        if not args.as_is_env:
            run(ludoteca("build", *args.games, "--out", str(tmp / "warm-up")), "warm-up")
            shutil.rmtree(tmp / "warm-up")
        out = tmp / "kit"
        cards = tmp / "cards"
        shutil.copytree(ROOT / "cards", cards, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
        kit_ok = True
        for i in range(args.runs):
            cold(out)
            s, rss, done = run(ludoteca("build", *args.games, "--paper", args.paper, "--out", str(out),
                                        "--cards", str(cards)), "kit_cold_s")
            if done.returncode != 0:
                notes.append(f"kit build failed: {done.stderr.strip().splitlines()[-1:]}")
                kit_ok = False
                break
            results["kit_cold_s"].append(s)
            results["peak_rss_mb"].append(rss)
            if i == 0:
                notes.append(f"kit: {done.stdout.strip()}")
                results["kit_mb"].append(pdf_mb(out))
        if kit_ok:
            for i in range(args.runs):
                s, rss, _ = run(ludoteca("build", *args.games, "--paper", args.paper, "--out", str(out),
                                         "--cards", str(cards)), "nothing_changed_s")
                results["nothing_changed_s"].append(s)
                results["peak_rss_mb"].append(rss)
            for i in range(args.runs):
                edit_one_card(cards, i)
                s, rss, done = run(ludoteca("build", *args.games, "--paper", args.paper, "--out", str(out),
                                            "--cards", str(cards)), "one_card_s")
                results["one_card_s"].append(s)
                results["peak_rss_mb"].append(rss)
                if i == 0:
                    notes.append(f"one card edited: {done.stdout.strip()}")
        deck_out = tmp / "deck"
        template = ("--template", str(ROOT / "templates/deck/card.svg.j2"))
        back = ("--back", str(ROOT / "templates/deck/back.svg.j2"))
        for key, extra, label in (("deck120_s", (), "deck"),
                                  ("deck120_backs_s", back, "deck with backs")):
            for i in range(args.runs):
                cold(deck_out)
                s, rss, done = run(ludoteca("deck", str(DECK), *template, *extra, "--paper", "a4",
                                            "--out", str(deck_out)), key)
                if done.returncode != 0:
                    notes.append(f"{label} failed: {done.stderr.strip()}")
                    break
                results[key].append(s)
                results["peak_rss_mb"].append(rss)
                if i == 0 and not extra:
                    notes.append(f"deck120: {done.stdout.strip()}, {pdf_mb(deck_out):.2f} MB")
        big: dict[str, dict] = {}
        for rows in args.big:
            data = big_deck(rows, tmp)
            times, peaks, pages = [], [], ""
            for i in range(args.big_runs):
                cold(deck_out)
                s, rss, done = run(ludoteca("deck", str(data), *template, "--paper", "a4", "-q",
                                            "--out", str(deck_out)), f"deck{rows}")
                if done.returncode != 0:
                    notes.append(f"deck of {rows} failed: {done.stderr.strip()[-300:]}")
                    break
                times.append(s)
                peaks.append(rss)
                man = json.loads((deck_out / "manifest.json").read_text(encoding="utf-8"))
                pages = sum(e["pages"] for e in man["files"] if e["game"] == "deck")
            if times:
                big[str(rows)] = {"seconds": statistics.median(times), "peak_rss_mb": max(peaks),
                                  "pages": pages, "runs": len(times),
                                  "ms_per_card": 1000 * statistics.median(times) / rows}
    medians = {k: (statistics.median(v) if v else None) for k, v in results.items()}
    peak = max(results["peak_rss_mb"]) if results["peak_rss_mb"] else None
    medians["peak_rss_mb"] = peak
    cpu = {k: statistics.median(v) for k, v in CPU.items() if v and k in TARGETS}
    inside = {k: statistics.median(v) for k, v in INSIDE.items() if v and k in TARGETS}
    load = os.getloadavg()[0]
    print(f"{'measure':<20}{'median':>10}{'target':>10}{'in-proc':>9}{'cpu s':>8}  runs  ok")
    for key, value in medians.items():
        target = TARGETS[key]
        shown = "-" if value is None else f"{value:.3f}"
        ok = "" if value is None or target is None else ("yes" if value <= target else "NO")
        c = f"{cpu[key]:.2f}" if key in cpu else ""
        i = f"{inside[key]:.3f}" if key in inside else ""
        print(f"{key:<20}{shown:>10}{'' if target is None else target:>10}{i:>9}{c:>8}  "
              f"{len(results[key]):>4}  {ok}")
    if big:
        print(f"{'huge deck':<12}{'seconds':>9}{'ms/card':>9}{'peak MB':>9}{'target':>8}{'pages':>7}")
        for rows, b in big.items():
            ok = "yes" if b["peak_rss_mb"] <= BIG_RSS_MB else "NO"
            print(f"{rows:<12}{b['seconds']:>9.2f}{b['ms_per_card']:>9.2f}{b['peak_rss_mb']:>9.1f}"
                  f"{BIG_RSS_MB:>8g}{b['pages']:>7}  {ok}")
    print(f"  median = wall time of the whole command; in-proc = the build time it reports; "
          f"bytecode cache: {'as the environment says' if args.as_is_env else 'kept (as a user has it)'}")
    print(f"  load average at the start: {load0:.2f}, at the end: {load:.2f} on {os.cpu_count()} cores "
          "(wall times need an idle machine)")
    for note in notes:
        print("  " + note)
    folder = ROOT / "bench" / "results"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (folder / f"build-{stamp}.json").write_text(json.dumps(
        {"medians": medians, "big_decks": big, "cpu_medians": cpu, "in_process_medians": inside, "runs": results,
         "targets": TARGETS, "notes": notes, "load_average": [load0, load], "games": args.games or "all",
         "bytecode_cache": not args.as_is_env,
         "cpus": os.cpu_count(), "paper": args.paper}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

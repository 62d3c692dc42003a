"""Benchmark of the print kit: medians of N runs of ``ludoteca build`` and ``ludoteca deck``.

    python bench/bench_build.py [--runs 5] [--paper a4] [--games GAME ...]

Measures the whole kit cold (empty output folder, page and rulebook caches emptied) and fresh (on an
empty user cache: the card data and fonts read anew; the compiled templates and the cairo binding
come from the checkout's generator/_prebuilt/, as from an installed package), a rebuild with nothing
changed, a rebuild after editing one card's name and one after editing one card's art (on a copy of cards/), peak RSS,
the kit's total PDF size, and the 120-card deck of
bench/data/cards120.csv (a copy of the shared benchmark input) on A4 with crop marks (and, for
information, the same deck with backs),
paired run by run with the floor (bench/floor_cairo.py: the same cards drawn directly with cairo)
and, with ``--decksmith EXE``, with decksmith building the same cards (images, then its PDF export),
and, once each, huge decks of 1,200 / 6,000 / 20,000 distinct cards made from it (wall time, CPU,
time per card, peak RSS of the command and of its largest worker, apart; ``--big`` alone skips them).
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
TARGETS = {
    "kit_cold_s": 1.5,
    "kit_fresh_s": 1.5,
    "nothing_changed_s": 0.3,
    "one_card_s": None,
    "one_art_s": None,
    "deck120_s": 0.3,
    "floor120_s": None,
    "decksmith120_s": None,
    "deck120_backs_s": None,
    "peak_rss_mb": 300.0,
    "kit_mb": 15.0,
}
FLOOR_CPU_RATIO = 1.5  # the 120-card deck's CPU at most this many times the floor's
BIG = (1200, 6000, 20000)  # huge decks: wall time and peak memory (target 50 MB at any size)
BIG_RSS_MB = 50.0


DECKSMITH_SPEC = """\
# The cards of bench/data/cards120.csv for decksmith: 63 x 88 mm at 300 dpi, Vera, the same parts
width: 744
height: 1039
background_color: [233, 194, 58]
elements:
  - {type: rectangle, size: [672, 968], position: [35, 35], corner_radius: 30,
     color: [255, 246, 214], outline_color: [34, 34, 34], outline_width: 4}
  - {type: circle, radius: 59, position: [47, 65], color: [244, 211, 94],
     outline_color: [34, 34, 34], outline_width: 4}
  - {type: text, text: "%cost%", position: [85, 80], font_path: "FONT_BOLD", font_size: 54,
     color: [34, 34, 34]}
  - {type: text, text: "%name%", position: [180, 85], font_path: "FONT_BOLD", font_size: 44,
     color: [34, 34, 34], width: 500}
  - {type: rectangle, size: [602, 402], position: [71, 213], corner_radius: 18, color: [250, 235, 180]}
  - {type: regular-polygon, sides: 5, radius: 130, position: [242, 284], color: [233, 194, 58]}
  - {type: text, text: "%color%", position: [150, 675], font_path: "FONT", font_size: 28,
     color: [51, 51, 51]}
  - {type: text, text: "%text%", position: [77, 740], font_path: "FONT", font_size: 36,
     color: [34, 34, 34], width: 590}
"""


def decksmith_input(folder: Path) -> tuple[Path, Path]:
    """decksmith's spec and data for the 120 cards (it reads CSV with ';' between cells)."""
    import csv
    from ludoteca.generator.fonts import font_dir

    spec = folder / "decksmith.yaml"
    spec.write_text(
        DECKSMITH_SPEC.replace("FONT_BOLD", str(font_dir() / "VeraBd.ttf")).replace(
            "FONT", str(font_dir() / "Vera.ttf")
        ),
        encoding="utf-8",
    )
    data = folder / "decksmith.csv"
    with open(DECK, newline="", encoding="utf-8") as src, open(data, "w", newline="", encoding="utf-8") as dst:
        rows = list(csv.reader(src))
        csv.writer(dst, delimiter=";").writerows(rows)
    return spec, data


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
AGAINST: list[float] = []  # wall seconds of the other checkout's cold kits (--against)
AGAINST_FRESH: list[float] = []  # ... and of its kits on an empty user cache
INSIDE: dict[str, list[float]] = {}  # the build time each command reports ("..., 0.52 s")
ENV: dict[str, str] | None = None


def cold(out: Path) -> None:
    """Remove an output folder and the page and rulebook caches (in the user cache folder, which
    ENV points at a folder of this run): the next build starts cold."""
    shutil.rmtree(out, ignore_errors=True)
    for name in ("kits", "rulebooks"):
        shutil.rmtree(Path(ENV["XDG_CACHE_HOME"]) / "ludoteca" / name, ignore_errors=True)


def fresh(out: Path) -> dict[str, str]:
    """The environment of a build on an empty user cache folder (no compiled templates, no cairo
    binding, no fonts' or card data's caches): a kit built on a machine that never ran Ludoteca,
    the issue's "cold (fresh cache)".  The templates and the binding then come compiled from the
    package (generator/_prebuilt/, which scripts/setup.sh writes into the checkout as the wheel's
    build writes it into the wheel); without that folder, or for a template edited since it was
    written, they are made and kept here.  A folder of its own, emptied: the cold builds' cache is
    left as it was (emptying theirs made each checkout compile its templates again after the
    other's fresh build)."""
    shutil.rmtree(out, ignore_errors=True)
    folder = Path(ENV["XDG_CACHE_HOME"]).with_name("xdg-fresh")
    shutil.rmtree(folder, ignore_errors=True)
    return dict(ENV, XDG_CACHE_HOME=str(folder))


def run(args: list[str], what: str = "", cwd: Path = ROOT,
        env: dict[str, str] | None = None) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall seconds and peak RSS (MB) of one command (run in ``cwd``: ``python -m`` takes Ludoteca
    from there); its CPU seconds are kept in CPU[what].

    The RSS is the largest of the command and its workers (each a separate process).
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env or ENV)
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


def with_peaks(args: list[str]) -> list[str]:
    """A ``ludoteca(...)`` command run through bench/peaks.py, which says the peak memory of the
    command and of its largest worker apart (see :func:`peaks`)."""
    return [args[0], str(ROOT / "bench" / "peaks.py"), *args[2:]]


def peaks(done: subprocess.CompletedProcess) -> tuple[float, float]:
    """(the command's peak MB, its largest worker's) from the last line bench/peaks.py wrote."""
    lines = done.stderr.strip().splitlines()
    found = json.loads(lines[-1]) if lines else {}
    done.stderr = "\n".join(lines[:-1])
    return float(found.get("parent_mb", 0.0)), float(found.get("workers_mb", 0.0))


def edit_one_card(cards: Path, n: int) -> None:
    """Change one displayed name in the first data file that has one (a new text every time)."""
    for path in sorted(cards.glob("ciudadelas/*.yaml")) + sorted(cards.glob("*/*.yaml")):
        if path.name in ("schema.yaml", "game.yaml"):
            continue
        text = path.read_text(encoding="utf-8")
        match = re.search(r"(\bes: *)(['\"]?)([^'\"\n]+?)(\2)( *[,}\n])", text)
        if match:
            new = re.sub(r" v\d+$", "", match.group(3)) + f" v{n}"
            path.write_text(text[: match.start(3)] + new + text[match.end(3) :], encoding="utf-8")
            return
    raise SystemExit("no card name found to edit")


def edit_one_art(cards: Path, n: int) -> None:
    """Move the first drawn element of the first Ciudadelas district's picture (a new place every
    time): an edit of card art only, which the rulebook does not draw."""
    path = cards / "ciudadelas" / "districts.yaml"
    text = path.read_text(encoding="utf-8")
    match = re.search(r"(\{el: \w+, x: )(-?\d+)", text)
    if match is None:
        raise SystemExit("no district art found to edit")
    path.write_text(text[: match.start(2)] + str(100 + n % 20) + text[match.end(2) :], encoding="utf-8")


def pdf_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*.pdf")) / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--games", nargs="*", default=[], help="only these games (default: all)")
    parser.add_argument(
        "--big",
        type=int,
        nargs="*",
        default=list(BIG),
        metavar="ROWS",
        help=f"huge decks to build once each, cold (default: {' '.join(map(str, BIG))}; none: --big)",
    )
    parser.add_argument("--big-runs", type=int, default=1, help="runs of each huge deck (1)")
    parser.add_argument(
        "--decksmith",
        metavar="EXE",
        help="decksmith's command (installed apart, e.g. in a scratch venv): paired with the 120-card deck",
    )
    parser.add_argument(
        "--deck-only",
        action="store_true",
        help="only the 120-card deck, its floor (and decksmith): no kit, no huge decks",
    )
    parser.add_argument(
        "--kit-only",
        action="store_true",
        help="only the whole kit built cold and fresh: no rebuilds, no decks",
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        type=Path,
        help="another checkout of Ludoteca (e.g. main's worktree): each cold kit of this one is "
        "paired with one of that one, built in turn, and the pairs' ratios reported",
    )
    parser.add_argument(
        "--as-is-env",
        action="store_true",
        help="run the commands in this environment as it is (no bytecode cache if PYTHONDONTWRITEBYTECODE is set)",
    )
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
        template = ("--template", str(ROOT / "templates/deck/card.svg.j2"))
        back = ("--back", str(ROOT / "templates/deck/back.svg.j2"))
        if not args.as_is_env:
            for where in [ROOT] + ([args.against] if args.against else []):
                # what the deck uses (its modules, compiled templates, caches), and unless --deck-only
                # the kit's too (--kit-only: the kit's alone)
                warm = ([] if args.kit_only else
                        [ludoteca("deck", str(DECK), *template, *back, "--out", str(tmp / "warm-up"))]) + \
                    ([] if args.deck_only else [ludoteca("build", *args.games, "--out", str(tmp / "warm-up"))])
                for command in warm:
                    run(command, "warm-up", where)
                    shutil.rmtree(tmp / "warm-up")
        out = tmp / "kit"
        cards = tmp / "cards"
        shutil.copytree(ROOT / "cards", cards, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
        kit_ok = not args.deck_only
        for i in range(args.runs if kit_ok else 0):
            # the same kit on an empty user cache (then paired likewise); first, so the folder ends
            # as a cold build leaves it, for the rebuilds
            for where, what in ((ROOT, "kit_fresh_s"),) + (((args.against, "against_kit_fresh_s"),)
                                                         if args.against else ()):
                s, rss, done = run(
                    ludoteca("build", *args.games, "--paper", args.paper, "--out", str(out), "--cards", str(cards)),
                    what,
                    where,
                    fresh(out),
                )
                if done.returncode != 0:
                    notes.append(f"fresh kit of {where} failed: {done.stderr.strip().splitlines()[-1:]}")
                elif where == ROOT:
                    results["kit_fresh_s"].append(s)
                    results["peak_rss_mb"].append(rss)
                else:
                    AGAINST_FRESH.append(s)
            cold(out)
            s, rss, done = run(
                ludoteca("build", *args.games, "--paper", args.paper, "--out", str(out), "--cards", str(cards)),
                "kit_cold_s",
            )
            if done.returncode != 0:
                notes.append(f"kit build failed: {done.stderr.strip().splitlines()[-1:]}")
                kit_ok = False
                break
            results["kit_cold_s"].append(s)
            results["peak_rss_mb"].append(rss)
            if i == 0:
                notes.append(f"kit: {done.stdout.strip()}")
                results["kit_mb"].append(pdf_mb(out))
            if args.against:                     # the pair's other half, in the same conditions
                cold(out)
                s, _, done = run(
                    ludoteca("build", *args.games, "--paper", args.paper, "--out", str(out), "--cards", str(cards)),
                    "against_kit_cold_s",
                    args.against,
                )
                if done.returncode != 0:
                    notes.append(f"kit of {args.against} failed: {done.stderr.strip().splitlines()[-1:]}")
                    args.against = None
                else:
                    AGAINST.append(s)
        if args.kit_only:
            kit_ok = False
        if kit_ok:
            for _ in range(args.runs):
                s, rss, _ = run(
                    ludoteca("build", *args.games, "--paper", args.paper, "--out", str(out), "--cards", str(cards)),
                    "nothing_changed_s",
                )
                results["nothing_changed_s"].append(s)
                results["peak_rss_mb"].append(rss)
            for key, edit, said in (("one_card_s", edit_one_card, "one card edited"),
                                    ("one_art_s", edit_one_art, "one card's art edited")):
                for i in range(args.runs):
                    edit(cards, i)
                    s, rss, done = run(
                        ludoteca("build", *args.games, "--paper", args.paper, "--out", str(out), "--cards",
                                 str(cards)),
                        key,
                    )
                    results[key].append(s)
                    results["peak_rss_mb"].append(rss)
                    if i == 0:
                        notes.append(f"{said}: {done.stdout.strip()}")
        deck_out = tmp / "deck"
        smith = decksmith_input(tmp) if args.decksmith else None
        for key, extra, label in (("deck120_s", (), "deck"), ("deck120_backs_s", back, "deck with backs")):
            if args.kit_only:
                break
            for i in range(args.runs):
                cold(deck_out)
                s, rss, done = run(
                    ludoteca("deck", str(DECK), *template, *extra, "--paper", "a4", "--out", str(deck_out)), key
                )
                if done.returncode != 0:
                    notes.append(f"{label} failed: {done.stderr.strip()}")
                    break
                results[key].append(s)
                results["peak_rss_mb"].append(rss)
                if i == 0 and not extra:
                    notes.append(f"deck120: {done.stdout.strip()}, {pdf_mb(deck_out):.2f} MB")
                if extra:
                    continue
                s, _, done = run(
                    [sys.executable, str(ROOT / "bench" / "floor_cairo.py"), str(tmp / "floor.pdf")], "floor120_s"
                )  # the pair's other half
                if done.returncode != 0:
                    notes.append(f"floor failed: {done.stderr.strip()[-300:]}")
                results["floor120_s"].append(s)
                if smith is not None:
                    shutil.rmtree(tmp / "smith", ignore_errors=True)
                    s, _, done = run(
                        [
                            "sh",
                            "-c",
                            'cd "$4" && "$0" build --output "$1" --spec "$2" '
                            '--data "$3" && exec "$0" export "$1" --output "$1.pdf" --gap 6',
                            args.decksmith,
                            str(tmp / "smith"),
                            str(smith[0]),
                            str(smith[1]),
                            str(tmp),
                        ],
                        "decksmith120_s",
                    )  # its log goes to tmp
                    if done.returncode != 0:
                        notes.append(f"decksmith failed: {(done.stderr or done.stdout).strip()[-300:]}")
                        smith = None
                    else:
                        results["decksmith120_s"].append(s)
        if args.deck_only or args.kit_only:
            args.big = []
        big: dict[str, dict] = {}
        if args.big and not args.as_is_env:
            # untimed: a deck big enough to be laid out in slices (build.STREAM_FROM faces), so the
            # streamed path's modules are compiled before the first timed huge deck, as pip
            # compiles them at install; else that run alone peaks ~10 MB higher (its compiler)
            run(ludoteca("deck", str(big_deck(1200, tmp)), *template, "-q", "--out", str(tmp / "warm-big")),
                "warm-up", ROOT)
            shutil.rmtree(tmp / "warm-big", ignore_errors=True)
        for rows in args.big:
            data = big_deck(rows, tmp)
            times, rss_peaks, parents, workers, pages = [], [], [], [], ""
            for _ in range(args.big_runs):
                cold(deck_out)
                s, rss, done = run(
                    with_peaks(ludoteca("deck", str(data), *template, "--paper", "a4", "-q", "--out", str(deck_out))),
                    f"deck{rows}",
                )
                parent, worker = peaks(done)
                if done.returncode != 0:
                    notes.append(f"deck of {rows} failed: {done.stderr.strip()[-300:]}")
                    break
                times.append(s)
                rss_peaks.append(rss)
                parents.append(parent)
                workers.append(worker)
                man = json.loads((deck_out / "manifest.json").read_text(encoding="utf-8"))
                pages = sum(e["pages"] for e in man["files"] if e["game"] == "deck")
            if times:
                big[str(rows)] = {
                    "seconds": statistics.median(times),
                    "peak_rss_mb": max(rss_peaks),
                    "parent_mb": statistics.median(parents),
                    "workers_mb": statistics.median(workers),
                    "cpu_s": statistics.median(CPU[f"deck{rows}"][-len(times):]),
                    "pages": pages,
                    "runs": len(times),
                    "ms_per_card": 1000 * statistics.median(times) / rows,
                }
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
        print(f"{key:<20}{shown:>10}{'' if target is None else target:>10}{i:>9}{c:>8}  {len(results[key]):>4}  {ok}")
    if big:
        print(
            f"{'huge deck':<12}{'seconds':>9}{'cpu s':>8}{'ms/card':>9}{'peak MB':>9}{'parent':>8}{'worker':>8}"
            f"{'target':>8}{'pages':>7}"
        )
        for rows, b in big.items():
            ok = "yes" if b["peak_rss_mb"] <= BIG_RSS_MB else "NO"
            print(
                f"{rows:<12}{b['seconds']:>9.2f}{b['cpu_s']:>8.2f}{b['ms_per_card']:>9.2f}{b['peak_rss_mb']:>9.1f}"
                f"{b['parent_mb']:>8.1f}{b['workers_mb']:>8.1f}{BIG_RSS_MB:>8g}{b['pages']:>7}  {ok}"
            )
        sizes = sorted(big, key=int)
        if len(sizes) > 1:
            low, high = big[sizes[-2]]["peak_rss_mb"], big[sizes[-1]]["peak_rss_mb"]
            print(f"  peak at {sizes[-1]} cards / at {sizes[-2]}: {high / low:.3f} (flat: at most 1.1)")
    print(
        f"  median = wall time of the whole command; in-proc = the build time it reports; "
        f"bytecode cache: {'as the environment says' if args.as_is_env else 'kept (as a user has it)'}"
    )
    print(
        f"  load average at the start: {load0:.2f}, at the end: {load:.2f} on {os.cpu_count()} cores "
        "(wall times need an idle machine)"
    )
    pairs = {}
    for other in ("floor120_s", "decksmith120_s"):
        n = min(len(CPU.get("deck120_s", [])), len(CPU.get(other, [])))
        if n:
            pairs[other] = {
                "cpu": statistics.median(a / b for a, b in zip(CPU["deck120_s"][:n], CPU[other][:n])),
                "wall": statistics.median(a / b for a, b in zip(results["deck120_s"][:n], results[other][:n])),
            }
    for other, ratio in pairs.items():
        target = (
            f" (target <= {FLOOR_CPU_RATIO:g}: {'yes' if ratio['cpu'] <= FLOOR_CPU_RATIO else 'NO'})"
            if other == "floor120_s"
            else ""
        )
        print(
            f"  deck120 / {other[:-2]}, median of the pairs: CPU {ratio['cpu']:.2f}x{target}, wall {ratio['wall']:.2f}x"
        )
    for key, theirs, label in (("kit_cold_s", AGAINST, "cold"), ("kit_fresh_s", AGAINST_FRESH, "fresh")):
        if not theirs:
            continue
        mine = results[key]
        n = min(len(mine), len(theirs))
        cpu_mine, cpu_theirs = CPU[key][:n], CPU[f"against_{key}"][:n]
        a = pairs["against" if label == "cold" else "against_fresh"] = {
            "dir": str(args.against),
            "wall": statistics.median(theirs[:n]),
            "cpu": statistics.median(cpu_theirs),
            "wall_ratio": statistics.median(x / y for x, y in zip(mine[:n], theirs[:n])),
            "cpu_ratio": statistics.median(x / y for x, y in zip(cpu_mine, cpu_theirs)),
        }
        print(
            f"  kit {label} against {args.against}: its wall {a['wall']:.3f} s, CPU {a['cpu']:.2f} s; "
            f"this / that, median of the pairs: wall {a['wall_ratio']:.3f}x, CPU {a['cpu_ratio']:.3f}x"
        )
    for note in notes:
        print("  " + note)
    folder = ROOT / "bench" / "results"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (folder / f"build-{stamp}.json").write_text(
        json.dumps(
            {
                "medians": medians,
                "pairs": pairs,
                "big_decks": big,
                "cpu_medians": cpu,
                "cpu_runs": CPU,
                "in_process_medians": inside,
                "runs": results,
                "targets": TARGETS,
                "notes": notes,
                "load_average": [load0, load],
                "games": args.games or "all",
                "bytecode_cache": not args.as_is_env,
                "cpus": os.cpu_count(),
                "paper": args.paper,
            },
            indent=2,
        )
        + "\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

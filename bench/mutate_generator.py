"""Mutation run over the deck CSV reader and the sheet geometry (benchmark-style, not in CI).

    python bench/mutate_generator.py [--only NAME ...]

Each mutant is one small edit of ``generator/deck.py`` or ``generator/sheets.py`` (the bugs a
review named, and their neighbours), applied to a copy of the checkout; the tests that cover the
module run against it, and the mutant is *killed* when they fail.  Prints one line per mutant
and the score, and writes bench/results/mutants-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECK_TESTS = ["tests/test_generator_deck_csv.py"]
SHEET_TESTS = ["tests/test_generator_paper.py", "tests/test_generator_fold.py"]

# name: (file, original text, mutated text, tests)
MUTANTS: dict[str, tuple[str, str, str, list[str]]] = {
    "csv keeps the byte-order mark": (
        "generator/deck.py", 'if raw.startswith(b"\\xef\\xbb\\xbf"):', "if False:", DECK_TESTS),
    "csv drops 'more values than columns'": (
        "generator/deck.py", "if len(values) > len(columns):", "if False:", DECK_TESTS),
    "csv reads an empty count as 0": (
        "generator/deck.py", "        return 1\n    top = int(limits()", "        return 0\n    top = int(limits()",
        DECK_TESTS),
    "csv does not strip cells": (
        "generator/deck.py", "(values[i].strip() if i < len(values)", "(values[i] if i < len(values)",
        DECK_TESTS),
    "csv does not strip column names": (
        "generator/deck.py", "columns = [c.strip() for c in next(reader)]", "columns = list(next(reader))",
        DECK_TESTS),
    "csv always splits on commas": (
        "generator/deck.py", "delimiter=delimiter, strict=True", 'delimiter=",", strict=True', DECK_TESTS),
    "csv is not strict about quotes": (
        "generator/deck.py", "delimiter=delimiter, strict=True", "delimiter=delimiter, strict=False",
        DECK_TESTS),
    "csv count limit off by one": (
        "generator/deck.py", "    if n > top:", "    if n >= top:", DECK_TESTS),
    "csv no latin-1 fallback note": (
        "generator/deck.py", "            notes.append(f\"{path}: not UTF-8", "            (f\"{path}: not UTF-8",
        DECK_TESTS),
    "marks: gap between mark and bleed halved": (
        "generator/sheets.py", "top, bottom = by - gap, by + bh + gap", "top, bottom = by - gap / 2, by + bh + gap / 2",
        SHEET_TESTS),
    "marks: left gap halved": (
        "generator/sheets.py", "left, right = bx - gap, bx + bw + gap", "left, right = bx - gap / 2, bx + bw + gap / 2",
        SHEET_TESTS),
    "grid: min gutter ignored": (
        "generator/sheets.py", 'gap = float(data()["min_gutter"]) if bleed > 0 else 0.0', "gap = 0.0",
        SHEET_TESTS),
    "grid: gutter never shrinks": (
        "generator/sheets.py", "return max(0.0, min(2 * bleed, spare / (n - 1)))", "return 2 * bleed",
        SHEET_TESTS),
    "fold: backs not mirrored": (
        "generator/sheets.py", "return self.paper[0] - x - w, y, w, h", "return self.paper[0] / 2 + x, y, w, h",
        SHEET_TESTS),
    "fold: never landscape": (
        "generator/sheets.py", "for w, h in ((pw, ph), (ph, pw)):", "for w, h in ((pw, ph),):", SHEET_TESTS),
}


def run_mutant(name: str, spec: tuple[str, str, str, list[str]], work: Path) -> dict:
    rel, old, new, tests = spec
    target = work / rel
    text = (ROOT / rel).read_text(encoding="utf-8")
    if text.count(old) != 1:
        return {"name": name, "status": "not applied (the original text is not found once)"}
    target.write_text(text.replace(old, new), encoding="utf-8")
    t0 = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests],
                              cwd=work, capture_output=True, text=True, timeout=900,
                              env={**__import__("os").environ, "PYTHONPATH": str(work)})
        status = "killed" if done.returncode != 0 else "SURVIVED"
    except subprocess.TimeoutExpired:
        status = "killed (timeout)"
    finally:
        target.write_text(text, encoding="utf-8")
    return {"name": name, "status": status, "seconds": round(time.perf_counter() - t0, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="run only mutants whose name holds this")
    args = parser.parse_args()
    chosen = {k: v for k, v in MUTANTS.items() if not args.only or any(o in k for o in args.only)}
    results = []
    with tempfile.TemporaryDirectory(prefix="ludoteca-mutants-") as tmp:
        work = Path(tmp) / "checkout"
        shutil.copytree(ROOT, work, symlinks=True,  # ludoteca/generator stays a link to the mutated folder
                        ignore=shutil.ignore_patterns(".git", "output", "__pycache__", "results", ".hypothesis"))
        for name, spec in chosen.items():
            result = run_mutant(name, spec, work)
            results.append(result)
            print(f"{result['status']:<10} {name}", flush=True)
    killed = sum(r["status"].startswith("killed") for r in results)
    applied = sum(not r["status"].startswith("not applied") for r in results)
    print(f"mutation score: {killed}/{applied} killed")
    folder = ROOT / "bench" / "results"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"mutants-{time.strftime('%Y%m%d-%H%M%S')}.json").write_text(
        json.dumps({"killed": killed, "applied": applied, "mutants": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

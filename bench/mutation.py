"""Mutation testing (not in CI): change one small thing in a module, run the tests that cover it, and
count the mutants the tests kill.  A surviving mutant is a bug the suite would let land.

Two kinds of mutants:

- *named* ones, each a real bug an earlier review found the suite let through in the engine and the
  scoring (combat ties going to the attacker, the El Mapa wonder bonus taking the larger of resource
  and troops, a stale redo after reopening, undo/redo lists not restored after a failed save): every
  one must be killed.  The review's CSV-reader and crop-mark mutants are named in
  ``bench/mutate_generator.py``, beside the generator's other ones;
- *generated* ones, from the module's syntax tree (``<`` <-> ``<=``, ``==`` <-> ``!=``, ``and`` <->
  ``or``, ``+`` <-> ``-``, a number + 1, ``True`` <-> ``False``, ``not`` dropped, ``max`` <-> ``min``,
  ``.strip()`` dropped), a seeded sample per module so a run fits its time.

Each mutant runs in a copy of the checkout (the real files are never touched), with ``pytest -x``
over the module's tests and a time limit; a mutant that makes the tests fail or time out is killed.

    python3 bench/mutation.py                  # the default sample (about 25 minutes on 2 cores)
    python3 bench/mutation.py --per-module 60  # a larger sample
    python3 bench/mutation.py --named-only
    python3 bench/mutation.py --list companion/engine/session.py   # every mutant: index, line, change
    python3 bench/mutation.py --only companion/engine/session.py:89  # just the mutants of one line
    python3 bench/mutation.py --only companion/engine/session.py#12  # just one mutant, by its index
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPY = ("cards", "companion", "generator", "templates", "examples", "ludoteca", "tests", "pyproject.toml")

#: module -> the tests that cover it (globs under tests/)
TARGETS: dict[str, tuple[str, ...]] = {
    "companion/engine/scoring/ciudadelas.py": ("test_mutants_scoring.py", "test_scoring_ciudadelas.py",
                                               "test_scoring_physical.py", "test_scoring_edge_inputs.py"),
    "companion/engine/scoring/el_mapa.py": ("test_mutants_scoring.py", "test_scoring_el_mapa.py",
                                            "test_scoring_physical.py", "test_scoring_cli.py",
                                            "test_scoring_edge_inputs.py", "test_engine_moves.py"),
    "companion/engine/scoring/gladiadores.py": ("test_mutants_scoring.py", "test_scoring_gladiadores.py",
                                                "test_scoring_physical.py", "test_scoring_edge_inputs.py"),
    "companion/engine/scoring/ranking.py": ("test_mutants_scoring.py", "test_scoring_*.py"),
    "companion/engine/common.py": ("test_mutants_engine.py", "test_engine_core.py", "test_engine_moves.py",
                                   "test_exports.py"),
    "companion/engine/session.py": ("test_mutants_engine.py", "test_engine_core.py", "test_engine_moves.py",
                                    "test_store_hostile.py"),
    "companion/engine/setup.py": ("test_mutants_engine.py", "test_engine_setup.py", "test_engine_new_game.py",
                                  "test_engine_moves.py", "test_engine_core.py"),
    "companion/engine/scoring/records.py": ("test_mutants_scoring.py", "test_scoring_edge_inputs.py",
                                            "test_scoring_el_mapa.py", "test_scoring_gladiadores.py",
                                            "test_scoring_ciudadelas.py", "test_scoring_cli.py",
                                            "test_input_edges.py"),
    "companion/engine/scoring/__init__.py": ("test_mutants_scoring.py", "test_scoring_*.py",
                                             "test_engine_live_score.py"),
    "companion/engine/definition.py": ("test_engine_definition.py", "test_engine_moves.py", "test_pinned_playouts.py"),
    "companion/engine/outcome.py": ("test_engine_definition.py", "test_pinned_playouts.py"),
    "companion/engine/store.py": ("test_mutants_store.py", "test_store_trouble.py", "test_store_recovery.py",
                                  "test_store_hostile.py", "test_engine_core.py"),
    "companion/engine/clock.py": ("test_mutants_clock.py", "test_table_clock.py", "test_store_recovery.py"),
    "companion/scan/detect.py": ("test_mutants_detect.py", "test_scan_badges.py", "test_scan_seated.py",
                                 "test_scan_markers.py", "test_scan_cli.py"),
    "companion/scan/tally.py": ("test_mutants_scan.py", "test_scan_seated.py", "test_scan_markers.py",
                                "test_scan_cli.py"),
    "generator/sheets.py": ("test_mutants_sheets.py", "test_generator_layout.py", "test_generator_paper.py",
                            "test_generator_fold.py"),
    "generator/deck.py": ("test_generator_deck_csv.py", "test_generator_cache.py"),
}

#: each file of a game's engine package is covered by its game's engine tests and the shared ones
GAME_TESTS = ("test_pinned_playouts.py", "test_engine_refusals.py", "test_engine_live_score.py",
              "test_engine_derived.py", "test_engine_moves.py", "test_mutants_games.py")
for _game in ("ciudadelas", "el_mapa", "gladiadores"):
    for _file in sorted((ROOT / "companion" / "engine" / "games" / _game).glob("*.py")):
        TARGETS[str(_file.relative_to(ROOT))] = (f"test_engine_{_game}.py", *GAME_TESTS)

#: (name, module, exact text, replacement): the engine's and scoring's bugs a review found the suite
#: let through (the generator's are in bench/mutate_generator.py)
NAMED: list[tuple[str, str, str, str]] = [
    ("combat tie to the attacker", "companion/engine/games/gladiadores/combat.py",
     "return attack > defence or", "return attack >= defence or"),
    ("wonder bonus takes the larger of resource and troops", "companion/engine/scoring/el_mapa.py",
     'return spec["points"] * player.resources.get(spec.get("resource"), 0)',
     'return spec["points"] * max(player.resources.get(spec.get("resource"), 0), player.trained_troops)'),
    ("stale redo after a new action (reopened game)", "companion/engine/session.py",
     "            applied.append(row)\n            undone.clear()", "            applied.append(row)"),
    ("undo/redo lists not restored when a save fails", "companion/engine/session.py",
     "            self._applied, self._undone = saved_applied, saved_undone\n", ""),
]

SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
         ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
         ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
         ast.And: ast.Or, ast.Or: ast.And}
SKIP_FIELDS = {"annotation", "returns", "decorator_list"}


@dataclass
class Mutant:
    """One change to one module."""

    module: str
    where: str
    source: str


class _Points(ast.NodeVisitor):
    """Every place a mutation applies, in a stable order: (node, description)."""

    def __init__(self) -> None:
        self.points: list[tuple[ast.AST, str]] = []

    def generic_visit(self, node: ast.AST) -> None:
        for name, value in ast.iter_fields(node):
            if name in SKIP_FIELDS:
                continue
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, ast.AST):
                    if isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant) \
                            and isinstance(item.value.value, str):
                        continue  # a docstring
                    self.visit(item)

    def visit_Compare(self, node: ast.Compare) -> None:
        if type(node.ops[0]) in SWAPS:
            self.points.append((node, f"line {node.lineno}: {type(node.ops[0]).__name__} swapped"))
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if type(node.op) in SWAPS:
            self.points.append((node, f"line {node.lineno}: {type(node.op).__name__} swapped"))
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        self.points.append((node, f"line {node.lineno}: {type(node.op).__name__} swapped"))
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            self.points.append((node, f"line {node.lineno}: 'not' dropped"))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, bool) or (isinstance(node.value, int) and abs(node.value) < 10**6):
            self.points.append((node, f"line {node.lineno}: constant {node.value!r} changed"))

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id in ("max", "min"):
            self.points.append((node, f"line {node.lineno}: {node.func.id} swapped"))
        if isinstance(node.func, ast.Attribute) and node.func.attr == "strip" and not node.args:
            self.points.append((node, f"line {node.lineno}: .strip() dropped"))
        self.generic_visit(node)


class _Apply(ast.NodeTransformer):
    """Apply the mutation at one point (found by identity)."""

    def __init__(self, target: ast.AST) -> None:
        self.target = target

    def visit(self, node: ast.AST) -> ast.AST:
        if node is not self.target:
            return super().visit(node)
        if isinstance(node, ast.Compare):
            node.ops = [SWAPS[type(node.ops[0])]()] + node.ops[1:]
        elif isinstance(node, (ast.BinOp, ast.BoolOp)):
            node.op = SWAPS[type(node.op)]()
        elif isinstance(node, ast.UnaryOp):
            return node.operand
        elif isinstance(node, ast.Constant):
            node.value = (not node.value) if isinstance(node.value, bool) else node.value + 1
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            node.func = ast.Name("min" if node.func.id == "max" else "max", ast.Load())
        elif isinstance(node, ast.Call):
            return node.func.value
        return node


def sample(module: str, per_module: int, seed: int) -> list[int]:
    """The indexes of a seeded sample of the generated mutants of ``module``."""
    count = len(_collect(ast.parse((ROOT / module).read_text(encoding="utf-8"))))
    return sorted(random.Random(f"{seed}:{module}").sample(range(count), min(per_module, count)))


def generated(module: str, per_module: int, seed: int) -> list[Mutant]:
    """A seeded sample of the generated mutants of ``module``."""
    return [mutant(module, index) for index in sample(module, per_module, seed)]


def mutant(module: str, index: int) -> Mutant:
    """The generated mutant number ``index`` of ``module`` (the order of ``--list``)."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    node, where = _collect(tree)[index]
    mutated = ast.fix_missing_locations(_Apply(node).visit(tree))
    return Mutant(module, f"#{index} {where}", ast.unparse(mutated))


def listing(module: str, per_module: int, seed: int) -> list[str]:
    """One line per generated mutant of ``module``: index, in the seeded sample or not, line, change,
    and the source line it changes."""
    lines = (ROOT / module).read_text(encoding="utf-8").splitlines()
    picked = set(sample(module, per_module, seed))
    out = []
    for index, (node, where) in enumerate(_collect(ast.parse("\n".join(lines)))):
        mark = "*" if index in picked else " "
        out.append(f"{index:4} {mark} {where:36} | {lines[node.lineno - 1].strip()}")
    return out


def chosen(spec: str) -> list[Mutant]:
    """The mutants ``--only`` names: ``MODULE:LINE`` (every mutant of that line) or ``MODULE#INDEX``."""
    if "#" in spec:
        module, index = spec.rsplit("#", 1)
        return [mutant(module, int(index))]
    module, line = spec.rsplit(":", 1)
    points = _collect(ast.parse((ROOT / module).read_text(encoding="utf-8")))
    found = [mutant(module, i) for i, (node, _) in enumerate(points) if node.lineno == int(line)]
    if not found:
        raise SystemExit(f"{spec}: no generated mutant on that line")
    return found


def _collect(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    points = _Points()
    points.visit(tree)
    return points.points


def run_mutant(workdir: Path, mutant: Mutant, tests: list[str], limit: float) -> str:
    """``killed``, ``survived`` or ``timeout`` (a timeout kills it too)."""
    target = workdir / mutant.module
    original = target.read_text(encoding="utf-8")
    target.write_text(mutant.source, encoding="utf-8")
    try:
        env = {**os.environ, "PYTHONPATH": str(workdir), "LUDOTECA_PROPERTY_EXAMPLES": "3",
               "PYTHONDONTWRITEBYTECODE": "1"}
        try:
            done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                                  cwd=workdir, env=env, capture_output=True, timeout=limit)
        except subprocess.TimeoutExpired:
            return "timeout"
        return "survived" if done.returncode == 0 else "killed"
    finally:
        target.write_text(original, encoding="utf-8")


def tests_for(workdir: Path, module: str, patterns: list[str] | None = None) -> list[str]:
    """The test files that cover ``module`` (``patterns`` instead of its own, when given)."""
    found: list[str] = []
    for pattern in patterns or TARGETS.get(module, ()):
        found += sorted(str(p.relative_to(workdir)) for p in (workdir / "tests").glob(pattern))
    return list(dict.fromkeys(found))


def named_tests(workdir: Path, module: str) -> list[str]:
    """The tests a named mutant runs: the module's own, or its game's engine tests (``games/<game>/``)."""
    if module in TARGETS:
        return tests_for(workdir, module)
    parts = Path(module).with_suffix("").parts
    game = parts[parts.index("games") + 1]
    return [f"tests/test_engine_{game}.py", "tests/test_engine_moves.py"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-module", type=int, default=15, help="generated mutants per module")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds per mutant")
    parser.add_argument("--named-only", action="store_true")
    parser.add_argument("--modules", nargs="*", default=list(TARGETS))
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--list", metavar="MODULE", help="print the generated mutants of MODULE "
                        "(* marks the seeded sample) and stop")
    parser.add_argument("--only", nargs="+", metavar="MODULE:LINE|MODULE#INDEX",
                        help="run just these generated mutants (no named ones)")
    parser.add_argument("--tests", nargs="+", metavar="GLOB",
                        help="with --only: run these tests (globs under tests/) instead of the module's")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(listing(args.list, args.per_module, args.seed)))
        return 0
    started = time.perf_counter()
    results: dict[str, list[dict]] = {"named": [], "generated": []}
    with tempfile.TemporaryDirectory(prefix="ludoteca-mutants-") as tmp:
        workdir = Path(tmp)
        for name in COPY:
            source = ROOT / name
            if source.is_dir():
                # symlinks=True: ludoteca/cards -> ../cards stays a link, so the mutated file is the one loaded
                shutil.copytree(source, workdir / name, symlinks=True,
                                ignore=shutil.ignore_patterns("__pycache__", "screenshots"))
            elif source.exists():
                shutil.copy2(source, workdir / name)
        for title, module, old, new in ([] if args.only else NAMED):
            text = (ROOT / module).read_text(encoding="utf-8")
            if text.count(old) != 1:
                results["named"].append({"mutant": title, "module": module, "result": "not applicable"})
                print(f"named  {'n/a':9} {title} (the code it changes is not there)", flush=True)
                continue
            outcome = run_mutant(workdir, Mutant(module, title, text.replace(old, new)),
                                 named_tests(workdir, module), args.timeout)
            results["named"].append({"mutant": title, "module": module, "result": outcome})
            print(f"named  {outcome:9} {title}", flush=True)
        if args.only:
            for mutant_ in [m for spec in args.only for m in chosen(spec)]:
                tests = tests_for(workdir, mutant_.module, args.tests)
                outcome = run_mutant(workdir, mutant_, tests, args.timeout)
                results["generated"].append({"module": mutant_.module, "mutant": mutant_.where,
                                             "result": outcome})
                print(f"{mutant_.module}  {outcome:9} {mutant_.where}", flush=True)
        elif not args.named_only:
            for module in args.modules:
                tests = tests_for(workdir, module)
                for mutant in generated(module, args.per_module, args.seed):
                    outcome = run_mutant(workdir, mutant, tests, args.timeout)
                    results["generated"].append({"module": module, "mutant": mutant.where, "result": outcome})
                    print(f"{module}  {outcome:9} {mutant.where}", flush=True)
    print()
    for kind, rows in results.items():
        counted = [r for r in rows if r["result"] != "not applicable"]
        killed = sum(r["result"] in ("killed", "timeout") for r in counted)
        slow = sum(r["result"] == "timeout" for r in counted)
        if counted:
            print(f"{kind}: {killed}/{len(counted)} killed ({100 * killed / len(counted):.0f}%; "
                  f"{slow} of them by the time limit)")
    by_module: dict[str, list[str]] = {}
    for r in results["generated"]:
        by_module.setdefault(r["module"], []).append(r["result"])
    for module, outcomes in by_module.items():
        killed = sum(o in ("killed", "timeout") for o in outcomes)
        print(f"  {module}: {killed}/{len(outcomes)}")
    print(f"{time.perf_counter() - started:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    survivors = [r for r in results["named"] if r["result"] == "survived"]
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())

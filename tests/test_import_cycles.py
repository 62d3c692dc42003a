"""No two modules of Ludoteca import each other, directly or round a longer loop, counting the
imports made inside functions too (a loop hidden in a function still ties the modules together)."""

from __future__ import annotations

import ast
from pathlib import Path

import ludoteca
from ludoteca.generator import shipped

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> dict[str, Path]:
    """Module name -> file, for every module of the package (its folders as a wheel holds them)."""
    found = {"ludoteca": ROOT / "ludoteca" / "__init__.py"}
    found.update({f"ludoteca.{p.stem}": p for p in (ROOT / "ludoteca").glob("*.py") if p.stem != "__init__"})
    for part in ludoteca.PARTS:
        for path in (ROOT / part).rglob("*.py"):
            if shipped.FOLDER.name in path.parts:    # generated (generator/prebuild.py): imports none of these
                continue
            names = list(path.relative_to(ROOT).with_suffix("").parts)
            if names[-1] == "__init__":
                names.pop()
            found[".".join(["ludoteca", *names])] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the package that ``name`` imports (not counting its own parent packages)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names if alias.name in modules}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{base}.{alias.name}"
                out.add(target if target in modules else base)
    return {m for m in out if m in modules and m != name and not name.startswith(m + ".")}


def _loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        loops.append(sorted(group))
    return loops


def test_the_loop_finder_finds_a_loop():
    assert _loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_imports_itself_round_a_loop():
    modules = _modules()
    assert "ludoteca.generator.raster" in modules and "ludoteca.companion.engine.session" in modules
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert "ludoteca.companion.engine.store" in graph["ludoteca.companion.engine.session"] or \
        "ludoteca.companion.engine.session" in graph["ludoteca.companion.engine.store"]
    assert _loops(graph) == []

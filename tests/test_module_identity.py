"""One name per module: the checkout's top folders (cards/, generator/, companion/, templates/,
examples/) load as ``ludoteca.<folder>`` only, in the same tree a wheel has (tests/test_wheel.py
checks the wheel), so no file is ever two modules."""

from __future__ import annotations

import ast
import doctest
import importlib
import os
import pkgutil
import re
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

import ludoteca
from ludoteca.companion.engine.errors import IllegalAction

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))


@pytest.mark.parametrize("part", ludoteca.PARTS)
def test_a_top_folder_under_its_own_name_is_refused(part, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))  # as `python -m pytest` or a REPL at the top would have it
    with pytest.raises(ImportError, match=f"'{part}' is part of Ludoteca: import it as 'ludoteca.{part}'"):
        importlib.import_module(part)
    assert part not in sys.modules


def test_the_engine_error_is_one_class_whichever_way_it_is_reached(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    with pytest.raises(ImportError):
        importlib.import_module("companion.engine.errors")
    assert not any(name == "companion" or name.startswith("companion.") for name in sys.modules)
    again = importlib.import_module("ludoteca.companion.engine.errors")
    assert again.IllegalAction is IllegalAction


def test_every_file_is_loaded_under_one_name():
    for info in pkgutil.walk_packages(ludoteca.__path__, "ludoteca."):
        if ".app" not in info.name and not info.name.endswith("__main__"):  # Kivy screens need a window
            importlib.import_module(info.name)
    names: dict[str, list[str]] = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        real = Path(os.path.realpath(path)) if path else None
        # generator/_prebuilt/ holds generated modules loaded by file, not package modules: cffi's
        # cairo binding goes by its own top-level names (the pixbuf one imports the cairo one by name)
        if real and real.is_relative_to(ROOT) and real.relative_to(ROOT).parts[0] not in (".venv", "tests") \
                and "_prebuilt" not in real.relative_to(ROOT).parts:
            names.setdefault(str(real), []).append(name)
    assert len(names) > 50, sorted(names)
    twice = {path: found for path, found in names.items() if len(found) > 1}
    assert not twice
    assert all(found[0].startswith("ludoteca") for found in names.values()), names


def test_every_package_of_the_checkout_is_in_the_wheel():
    """setuptools lists the packages by hand: a new one (a game split into files) must be listed too."""
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {"ludoteca"} | {info.name for info in pkgutil.walk_packages(ludoteca.__path__, "ludoteca.") if info.ispkg}
    assert found == listed, (sorted(found - listed), sorted(listed - found))


def test_the_links_in_the_checkout_are_the_wheel_mapping():
    mapping = PYPROJECT["tool"]["setuptools"]["package-dir"]
    for part in ludoteca.PARTS:
        link = ROOT / "ludoteca" / part
        assert link.is_symlink() and link.resolve() == ROOT / mapping[f"ludoteca.{part}"], part
    assert {key.split(".")[1] for key in mapping if key != "ludoteca"} == set(ludoteca.PARTS)


#: A line that may import a top folder by its bare name (each file that has one is then parsed).
MENTION = re.compile(rf"\b(?:import|from)\s[^\n]*(?<![\w.])(?:{'|'.join(ludoteca.PARTS)})\b"
                     rf"|-m\s+(?:{'|'.join(ludoteca.PARTS)})\b")


def _bare_imports(tree: ast.AST) -> list[str]:
    """The imports in ``tree`` of a top folder by its bare name (``import companion.engine``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] in ludoteca.PARTS]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module \
                and node.module.split(".")[0] in ludoteca.PARTS:
            found.append(node.module)
    return found


def _code_in(text: str) -> list[str]:
    """Code a string literal may hold: itself (``python -c CODE``), its doctest examples, and the
    module of ``python -m MODULE`` as an import."""
    pieces = [text] + [example.source for example in doctest.DocTestParser().get_examples(text)]
    return pieces + [f"import {module}" for module in re.findall(r"-m\s+([\w.]+)", text)]


def test_no_code_imports_a_top_folder_by_its_bare_name():
    found = []
    for folder in ("ludoteca", *ludoteca.PARTS, "tests", "bench", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.parts[len(ROOT.parts)] == "ludoteca" and len(path.parts) > len(ROOT.parts) + 2:
                continue  # the links into the top folders: those are walked as themselves
            text = path.read_text("utf-8")
            if not MENTION.search(text):
                continue
            tree = ast.parse(text, str(path))
            names = _bare_imports(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                        and ("import " in node.value or "-m " in node.value):
                    for piece in _code_in(node.value):
                        try:
                            with warnings.catch_warnings():
                                warnings.simplefilter("ignore", SyntaxWarning)
                                names += _bare_imports(ast.parse(piece))
                        except (SyntaxError, ValueError):  # prose, or text that is no code
                            continue
            found += [f"{path.relative_to(ROOT)}: {name}" for name in names]
    assert found == []

"""The examples in the docstrings are true: every module of the package that is not a Kivy screen
runs its own doctests (74 examples in 26 modules when this test was written)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("ludoteca",)


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            # the Kivy screens need a window; __main__ starts the app when imported
            if ".app" in info.name or info.name.endswith("__main__"):
                continue
            names.append(info.name)
    return sorted(set(names))


MODULES = _modules()


def test_the_doctests_are_found():
    counts = {}
    for name in MODULES:
        tests = doctest.DocTestFinder().find(importlib.import_module(name))
        counts[name] = sum(len(t.examples) for t in tests)
    assert sum(counts.values()) >= 70, counts
    assert counts["ludoteca.generator.sheets"] >= 2 and counts["ludoteca.cards.limits"] >= 2


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"

"""Ludoteca: print-and-play kit and table companion for three Spanish board games.

Everything is inside this package: ``ludoteca.cards`` (the data and its loader),
``ludoteca.generator`` and ``ludoteca.templates`` (the print kit), ``ludoteca.companion`` (the
engine and the app) and ``ludoteca.examples``. The source checkout keeps those folders at the top,
as the design lays them out, and links them into this folder (``ludoteca/cards -> ../cards``...),
so a checkout has the same tree as a wheel (where pyproject.toml's ``package-dir`` puts them):
Python, mypy, coverage and editors all find ``ludoteca.cards`` in ``ludoteca/cards``. Each of those
folders loads under its ``ludoteca.`` name only (:func:`one_name`): ``import cards`` from the
checkout's top is refused, so no module is ever loaded twice under two names.

Where the links are missing (the Android package, whose copy skips them; a checkout made without
symbolic links) the top folder is added to the package's search path instead. Folders are checked,
not files: python-for-android keeps only compiled modules.
"""

from pathlib import Path as _Path

__version__ = "0.2.0"

#: The subpackages the checkout keeps as top-level folders.
PARTS = ("cards", "generator", "companion", "templates", "examples")


def one_name(name: str) -> None:
    """Refuse to load a part of Ludoteca under any name but ``ludoteca.<part>``.

    >>> one_name("ludoteca.cards")
    >>> one_name("cards")
    Traceback (most recent call last):
    ...
    ImportError: 'cards' is part of Ludoteca: import it as 'ludoteca.cards'
    """
    if not name.startswith("ludoteca."):
        raise ImportError(f"{name!r} is part of Ludoteca: import it as 'ludoteca.{name}'", name=name)


def lazy_names(package: str, homes: dict[str, str]):
    """A package's ``__getattr__`` (PEP 562) that imports each of its public names from the
    submodule ``homes`` names on first use, so importing the package (or one light submodule of
    it) does not import them all."""
    import importlib
    import sys

    def __getattr__(name: str):
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


def folder_of(package: str) -> _Path:
    """The folder of ``package`` (a package of Ludoteca), which holds its data files: what
    ``importlib.resources.files`` gives for a package on disk, without importing
    importlib.resources (15 ms of a process's start)."""
    import importlib
    where = importlib.import_module(package).__file__
    if where is None:
        raise ImportError(f"{package} is not a package on disk: its data files cannot be found")
    return _Path(where).parent


_here = _Path(__file__).resolve().parent
if not (_here / "companion").is_dir() and (_here.parent / "companion").is_dir():
    __path__.append(str(_here.parent))  # noqa: F821
del _here

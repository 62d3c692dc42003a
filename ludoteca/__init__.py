"""Ludoteca: print-and-play kit and table companion for three Spanish board games.

Installed, everything is inside this package: ``ludoteca.cards`` (the data and its loader),
``ludoteca.generator`` and ``ludoteca.templates`` (the print kit), ``ludoteca.companion`` (the
engine and the app) and ``ludoteca.examples``. The source checkout keeps those folders at the
top, as the design lays them out (pyproject.toml maps them into this package); when this file
runs from a checkout, the checkout's top folder is added to the package's search path so the
same names import there too (tests, the Android package, a plain ``PYTHONPATH``). Folders are
checked, not files: python-for-android keeps only compiled modules.
"""

from pathlib import Path as _Path

__version__ = "0.2.0"

_here = _Path(__file__).resolve().parent
if not (_here / "cards").is_dir() and (_here.parent / "cards").is_dir() \
        and (_here.parent / "companion").is_dir():
    __path__.append(str(_here.parent))  # type: ignore[name-defined]  # noqa: F821
del _here, _Path

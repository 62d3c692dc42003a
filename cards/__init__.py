"""The card data of the three games and the loader that validates it.

Everything about a card lives in the YAML files beside this module; the
generator, the scoring and the companion all read it through :func:`load`.

The names below are imported on first use (PEP 562): a command that needs only
``ludoteca.cards.names`` or ``ludoteca.cards.markers`` (``ludoteca scan``) does not
load the YAML reader and the schema checker with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ludoteca import lazy_names, one_name

one_name(__name__)

if TYPE_CHECKING:
    from .catalog import GAMES, Catalog, Game, default_dir, load
    from .names import fold
    from .problems import DataError, Problem, display_path

#: each public name and the module that defines it
_HOMES = {"GAMES": "catalog", "Catalog": "catalog", "Game": "catalog", "default_dir": "catalog", "load": "catalog",
          "fold": "names", "DataError": "problems", "Problem": "problems", "display_path": "problems"}

__all__ = ["GAMES", "Catalog", "DataError", "Game", "Problem", "default_dir", "display_path", "fold", "load"]

__getattr__ = lazy_names(__name__, _HOMES)

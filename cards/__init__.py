"""The card data of the three games and the loader that validates it.

Everything about a card lives in the YAML files beside this module; the
generator, the scoring and the companion all read it through :func:`load`.
"""

from ludoteca import one_name

one_name(__name__)

from .catalog import GAMES, Catalog, Game, default_dir, fold, load
from .problems import DataError, Problem, display_path

__all__ = ["GAMES", "Catalog", "DataError", "Game", "Problem", "default_dir", "display_path",
           "fold", "load"]

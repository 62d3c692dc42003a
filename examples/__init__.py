"""Example data shipped with Ludoteca: end-of-game records for ``ludoteca score`` and a deck for
``ludoteca deck`` (``deck/``), each usable as a starting point."""

from ludoteca import one_name

one_name(__name__)

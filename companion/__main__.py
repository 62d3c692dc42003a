"""``python -m companion`` opens the table companion app."""

from ludoteca.companion.app import run

raise SystemExit(run())

"""``python -m companion`` opens the table companion app."""

from companion.app import run

raise SystemExit(run())

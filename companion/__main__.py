"""``python -m ludoteca.companion`` opens the table companion app (``--help`` for its options)."""

from ludoteca.companion.app_cli import main

raise SystemExit(main(prog="python -m ludoteca.companion"))

"""The Kivy app for the phone at the table: one screen per file (its ``.py`` with its ``.kv``).

:func:`run` opens it; ``companion.app.main.LudotecaApp`` is the thin App that wires the
screens to the engine in ``companion.engine``.
"""

from __future__ import annotations

import os


def run(db_path: str | None = None, size: tuple[int, int] | None = None) -> int:
    """Open the app window (portrait on a desktop) and run until it is closed."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.config import Config

    width, height = size or (400, 720)
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    from .main import run as run_app

    return run_app(db_path)

"""The Kivy app for the phone at the table: one screen per file (its ``.py`` with its ``.kv``).

:func:`run` opens it; ``companion.app.main.LudotecaApp`` is the thin App that wires the
screens to the engine in ``companion.engine``.
"""

from __future__ import annotations

import os


#: How Kivy is set up before it is imported: no command-line parsing, and image providers without
#: PIL (SDL2 reads the app's PNGs, OpenCV the photos), which keeps PIL's import out of the start.
KIVY_ENV = {"KIVY_NO_ARGS": "1", "KIVY_IMAGE": "tex,dds,sdl2"}


def kivy_env() -> None:
    """Set :data:`KIVY_ENV` (what the environment does not already say) before Kivy is imported."""
    for key, value in KIVY_ENV.items():
        os.environ.setdefault(key, value)


def run(db_path: str | None = None, size: tuple[int, int] | None = None) -> int:
    """Open the app window (portrait on a desktop) and run until it is closed."""
    kivy_env()
    from kivy.config import Config

    width, height = size or (400, 720)
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    from .main import run as run_app

    return run_app(db_path)

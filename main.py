"""Entry point for the Android package (buildozer looks for main.py at the top)."""

from companion.app import run

run()

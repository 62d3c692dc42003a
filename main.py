"""Entry point for the Android package (buildozer looks for main.py at the top)."""

from ludoteca.companion.app import run

run()

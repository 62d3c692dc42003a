"""The app's own artwork: icon and start-up splash (SVG sources, PNGs rendered from them by
``python scripts/android_art.py``; a test checks the PNGs match the sources)."""

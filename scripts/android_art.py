"""Render the app's icon and splash PNGs from their SVG sources (companion/app/art/).

Run after editing an SVG: ``python scripts/android_art.py``. The PNGs are committed because
buildozer packages files, and tests/test_android_package.py checks they match the sources.
"""

from __future__ import annotations

import sys
from pathlib import Path

ART = Path(__file__).resolve().parent.parent / "companion" / "app" / "art"
SIZES = {"icon": 512, "presplash": 1024}


def render(name: str) -> bytes:
    """The PNG of ``name``.svg at its size in pixels."""
    import cairosvg
    size = SIZES[name]
    return cairosvg.svg2png(bytestring=(ART / f"{name}.svg").read_bytes(), output_width=size,
                            output_height=size)


def main() -> int:
    sys.path.insert(0, str(ART.parent.parent.parent))
    from ludoteca.atomic import write_bytes
    for name in SIZES:
        write_bytes(ART / f"{name}.png", render(name))
        print(ART / f"{name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

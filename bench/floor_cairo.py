"""The floor: the 120 cards of bench/data/cards120.csv drawn directly with cairo, no SVG, no templates.

    python bench/floor_cairo.py OUT.pdf [DATA.csv]

What ``ludoteca deck`` makes of the same data, done the shortest way: per card a full-bleed
background, a rounded frame, a cost disc, a tinted panel, a symbol and the colour's mark; the
texts (the name in bold shrunk to fit, the cost, the colour's name, the rules text wrapped below
the panel, measured with cairo); nine cards per A4 page (63 x 88 mm, 3 mm bleed, 6 mm gutters)
with crop marks outside the faces; Vera embedded as cairo embeds fonts (subsets once per file);
14 pages.  bench/bench_build.py times it beside ``ludoteca deck`` in the same run, pair by pair,
so "times the floor" is measured, not remembered.  cairo is loaded the way the generator loads it
(:mod:`ludoteca.generator.binding`).
"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path

MM = 72 / 25.4
PAGE = (210.0, 297.0)
CARD = (63.0, 88.0)
BLEED, GUTTER = 3.0, 6.0
COLOURS = {"amarillo": ((0.91, 0.76, 0.23), (1.0, 0.96, 0.84)),
           "azul": ((0.23, 0.44, 0.77), (0.89, 0.93, 1.0)),
           "verde": ((0.25, 0.60, 0.29), (0.90, 0.96, 0.89)),
           "rojo": ((0.78, 0.25, 0.23), (0.98, 0.90, 0.89)),
           "morado": ((0.48, 0.29, 0.66), (0.94, 0.90, 0.98))}


def wrap(ctx, text: str, width: float) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` (current font)."""
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and ctx.text_extents(candidate)[4] > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + [line] if line else lines


def card(ctx, row: dict, x: float, y: float) -> None:
    """One card with its trim at (x, y) mm: shapes, then its three texts."""
    strong, light = COLOURS.get(row.get("color", "").lower(), ((0.53, 0.53, 0.53), (0.95, 0.95, 0.95)))
    w, h = CARD
    ctx.save()
    ctx.translate(x, y)
    ctx.rectangle(-BLEED, -BLEED, w + 2 * BLEED, h + 2 * BLEED)
    ctx.set_source_rgb(*strong)
    ctx.fill()
    r, inset = 2.5, 3.0
    ctx.new_sub_path()
    for cx, cy, a in ((w - inset - r, inset + r, -90), (w - inset - r, h - inset - r, 0),
                      (inset + r, h - inset - r, 90), (inset + r, inset + r, 180)):
        ctx.arc(cx, cy, r, math.radians(a), math.radians(a + 90))
    ctx.close_path()
    ctx.set_source_rgb(*light)
    ctx.fill_preserve()
    ctx.set_source_rgb(0.13, 0.13, 0.13)
    ctx.set_line_width(0.35)
    ctx.stroke()
    ctx.arc(9, 10.5, 5, 0, 2 * math.pi)
    ctx.set_source_rgb(0.96, 0.83, 0.37)
    ctx.fill_preserve()
    ctx.set_source_rgb(0.13, 0.13, 0.13)
    ctx.stroke()
    ctx.rectangle(6, 18, w - 12, 34)
    ctx.set_source_rgba(*strong, 0.25)
    ctx.fill()
    for i in range(10):                                  # a star
        a = math.pi * (i / 5 - 0.5)
        rr = 11 if i % 2 == 0 else 11 * 0.45
        ctx.line_to(w / 2 + rr * math.cos(a), 35 + rr * math.sin(a))
    ctx.close_path()
    ctx.set_source_rgb(*strong)
    ctx.fill()
    ctx.arc(9.5, 58, 1.5, 0, 2 * math.pi)               # the colour's mark and name
    ctx.fill()
    ctx.select_font_face("Bitstream Vera Sans", 0, 0)
    ctx.set_font_size(7 / MM)
    ctx.move_to(13, 59.2)
    ctx.set_source_rgb(0.2, 0.2, 0.2)
    ctx.show_text(row.get("color", ""))
    ctx.set_source_rgb(0.13, 0.13, 0.13)
    ctx.select_font_face("Bitstream Vera Sans", 0, 1)
    size = 11.0                                          # the name shrunk until it fits
    ctx.set_font_size(size / MM)
    while size > 6 and ctx.text_extents(row.get("name", ""))[4] > w - 21:
        size -= 0.25
        ctx.set_font_size(size / MM)
    ctx.move_to(15, 12)
    ctx.show_text(row.get("name", ""))
    ctx.set_font_size(13 / MM)
    extents = ctx.text_extents(row.get("cost", ""))
    ctx.move_to(9 - extents[2] / 2 - extents[0], 12.8)
    ctx.show_text(row.get("cost", ""))
    ctx.select_font_face("Bitstream Vera Sans", 0, 0)
    ctx.set_font_size(9 / MM)
    for i, line in enumerate(wrap(ctx, row.get("text", ""), w - 13)):
        ctx.move_to(6.5, 65 + i * 1.2 * 9 / MM)
        ctx.show_text(line)
    ctx.restore()


def marks(ctx, xs: list[float], ys: list[float]) -> None:
    """Crop marks on every cut line, outside the grid of faces."""
    ctx.set_source_rgb(0, 0, 0)
    ctx.set_line_width(0.2)
    top, bottom, left, right = ys[0] - BLEED, ys[-1] + BLEED, xs[0] - BLEED, xs[-1] + BLEED
    for x in xs:
        ctx.move_to(x, top - 1)
        ctx.line_to(x, top - 6)
        ctx.move_to(x, bottom + 1)
        ctx.line_to(x, bottom + 6)
    for y in ys:
        ctx.move_to(left - 1, y)
        ctx.line_to(left - 6, y)
        ctx.move_to(right + 1, y)
        ctx.line_to(right + 6, y)
    ctx.stroke()


def main(out: str, data: str) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from ludoteca.generator import binding, fonts
    fonts.configure()
    cairo = binding.load()
    with open(data, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    surface = cairo.PDFSurface(out, PAGE[0] * MM, PAGE[1] * MM)
    ctx = cairo.Context(surface)
    ctx.scale(MM, MM)
    cols, lines = 3, 3
    x0 = (PAGE[0] - cols * CARD[0] - (cols - 1) * GUTTER) / 2
    y0 = (PAGE[1] - lines * CARD[1] - (lines - 1) * GUTTER) / 2
    for start in range(0, len(rows), cols * lines):
        for i, row in enumerate(rows[start:start + cols * lines]):
            card(ctx, row, x0 + (i % cols) * (CARD[0] + GUTTER), y0 + (i // cols) * (CARD[1] + GUTTER))
        xs = sorted({x0 + c * (CARD[0] + GUTTER) + d for c in range(cols) for d in (0, CARD[0])})
        ys = sorted({y0 + r * (CARD[1] + GUTTER) + d for r in range(lines) for d in (0, CARD[1])})
        marks(ctx, xs, ys)
        ctx.show_page()
    surface.finish()
    return 0


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    raise SystemExit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else str(here / "data" / "cards120.csv")))

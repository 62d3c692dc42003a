"""The duplex calibration sheet: print it double-sided and read the printer's back offset.

Front: a cross through the centre of the page.  Back: two rulers (mm) across those lines.  Held
against the light, the front line falls on the number to pass as ``--back-offset X,Y`` (the back
is then shifted by X mm to the right and Y mm down, as seen on the back).
"""

from __future__ import annotations

from .compose import Page, PageBuilder
from .model import Options
from .sheets import paper_size
from .units import num

RANGE = 8          # the rulers read -8 .. +8 mm


def _texts(opts: Options) -> tuple[list[str], list[str]]:
    if opts.lang == "es":
        return (["Calibración de doble cara: ANVERSO",
                 "Imprime este archivo a doble cara, giro por el borde largo, al 100 %.",
                 "Mira la hoja al trasluz desde el dorso."],
                ["Calibración de doble cara: DORSO",
                 "Lee en cada regla el número sobre el que cae la línea del anverso:",
                 "regla horizontal = X, regla vertical = Y.",
                 "Luego: ludoteca build --back-offset X,Y"])
    return (["Duplex calibration: FRONT",
             "Print this file double-sided, flip on the long edge, at 100 %.",
             "Look at the sheet against the light from the back."],
            ["Duplex calibration: BACK",
             "On each ruler read the number the front line falls on:",
             "horizontal ruler = X, vertical ruler = Y.",
             "Then: ludoteca build --back-offset X,Y"])


def calibration_pages(opts: Options) -> list[Page]:
    """Two pages: the front cross (its vertical line clear of the instructions above it) and the
    back rulers."""
    w, h = paper_size(opts.paper)
    cx, cy = w / 2, h / 2
    front_text, back_text = _texts(opts)
    whole = (0.0, 0.0, w, h)

    front = PageBuilder((w, h))
    below_text = 25 + len(front_text) * 5          # the vertical line starts under the words
    front.lines([(cx, below_text, cx, h - 15), (15, cy, w - 15, cy)], width=0.15)
    for i, line in enumerate(front_text):
        front.label(line, 20, 25 + i * 5, size_mm=3.2)

    back = PageBuilder((w, h))
    ticks = []
    ry = cy + 40                       # horizontal ruler (reads X) across the vertical line
    rx = cx + 40                       # vertical ruler (reads Y) across the horizontal line
    for k in range(-RANGE * 2, RANGE * 2 + 1):
        v = k / 2
        length = 6.0 if k % 2 == 0 else 3.0
        ticks.append((cx + v, ry, cx + v, ry + length))
        ticks.append((rx, cy + v, rx + length, cy + v))
    back.lines(ticks, width=0.12)
    back.lines([(cx - RANGE, ry, cx + RANGE, ry), (rx, cy - RANGE, rx, cy + RANGE)], width=0.12)
    for v in range(-RANGE, RANGE + 1, 4):
        label = f"{v:+d}" if v else "0"
        back.raw(f'<text x="{num(cx + v)}" y="{num(ry + 9.5)}" font-family="Bitstream Vera Sans" '
                 f'font-size="2.2" text-anchor="middle">{label}</text>')
        back.raw(f'<text x="{num(rx + 7.5)}" y="{num(cy + v + 0.8)}" font-family="Bitstream Vera '
                 f'Sans" font-size="2.2">{label}</text>')
    for i, line in enumerate(back_text):
        back.label(line, 20, 25 + i * 5, size_mm=3.2)
    return [front.page(whole, whole, "calibration front"), back.page(whole, whole, "calibration back")]

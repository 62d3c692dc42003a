"""Rendered text is as wide as fit() measured it (so fitted text never overflows its box).

A face whose lines fit() sizes to fill their box exactly (at 6, 8.5 and 12 pt, regular and
bold) goes through the whole engine (template -> page -> PDF); pdftotext -bbox then gives each
rendered line's extent, which must match the box within 1 %.  Cairo once rounded glyph advances
in its small recording surface and drew text wider than measured: this catches that.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from ludoteca.generator.build import build_components
from ludoteca.generator.fonts import LINE_SPACING, fit, text_width_mm
from ludoteca.generator.model import Component, Face, Options
from ludoteca.generator.units import pt_to_mm
from pdfmeasure import read

PT = 25.4 / 72
SIZES = (6.0, 8.5, 12.0)
TEXTS = ("Catedral fortificada de Ñandú", "Al construir, roba 2 cartas y guarda una",
         "Biblioteca mágica: AVÍTWLmiíl")
LEFT = 4.0          # box left edge (mm from the trim)

TEMPLATE = """{% import "_lib.svg.j2" as lib %}
{{ lib.svg_open() }}
{% for row in rows %}
{{ lib.text_block(row.text, row.x, row.y, row.w, row.h, row.pt, row.pt, bold=row.bold) }}
{% endfor %}
{{ lib.svg_close() }}
"""


def _rows() -> list[dict]:
    """One box per (size, text, weight), exactly as wide as the text at that size."""
    rows, y = [], 2.0
    for size in SIZES:
        for text in TEXTS:
            for bold in (False, True):
                width = text_width_mm(text, size, bold)
                height = pt_to_mm(size) * LINE_SPACING * 1.5
                rows.append({"text": text, "x": LEFT, "y": y, "w": width, "h": height, "pt": size,
                             "bold": bold})
                y += height
    return rows


def _lines(path: Path) -> list[tuple[float, float, float, str]]:
    """(x0, x1, y-centre, text) of every rendered line on page 1, words grouped by baseline."""
    xml = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", str(path), "-"],
                         capture_output=True, text=True, check=True).stdout
    words = [(float(a) * PT, float(b) * PT, float(c) * PT, float(d) * PT, w) for a, b, c, d, w in
             re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<',
                        xml)]
    lines: list[list] = []
    for x0, y0, x1, y1, w in sorted(words, key=lambda t: ((t[1] + t[3]) / 2, t[0])):
        mid = (y0 + y1) / 2
        if lines and abs(lines[-1][2] - mid) < 0.3:
            line = lines[-1]
            lines[-1] = [min(line[0], x0), max(line[1], x1), line[2], f"{line[3]} {w}"]
        else:
            lines.append([x0, x1, mid, w])
    return [tuple(line) for line in lines]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    root = tmp_path_factory.mktemp("width_templates")
    (root / "probe.svg.j2").write_text(TEMPLATE, encoding="utf-8")
    out = tmp_path_factory.mktemp("width_out")
    rows = _rows()
    size = (120.0, 2.0 + sum(r["h"] for r in rows) + 2.0)
    comp = Component("probe", "widths", {"es": "probe", "en": "probe"}, size,
                     [Face("probe.svg.j2", {"rows": rows}, "probe")])
    build_components([comp], Options(), out, roots=(str(root),), flat=True)
    return out / "widths.pdf", rows


def test_fit_fills_each_box_at_the_requested_size():
    """The premise: each box is exactly full at its size (one line, no shrinking)."""
    for row in _rows():
        f = fit(row["text"], row["w"], row["h"], row["pt"], row["pt"], row["bold"])
        assert f.fits and f.size_pt == row["pt"] and f.lines == (row["text"],)


def test_rendered_lines_are_as_wide_as_fit_measured(rendered):
    path, rows = rendered
    lines = _lines(path)
    assert [" ".join(t.split()) for *_, t in lines] == [r["text"] for r in rows]
    page = read(path)[0]
    left = page.cuts()[0][0] + LEFT          # box left edge on the page, from the crop marks
    for (x0, x1, _, text), row in zip(lines, rows):
        what = f"{text!r} at {row['pt']} pt{' bold' if row['bold'] else ''}"
        assert x0 == pytest.approx(left, abs=0.15), what
        assert (x1 - x0) == pytest.approx(row["w"], rel=0.01), what
        assert x1 <= left + row["w"] * 1.01, what


def test_text_overflow_reports_a_word_that_crosses_the_cut(tmp_path):
    """The check the print tests rely on sees a word run over a card's edge (and only that one)."""
    from pdfmeasure import text_overflow
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "over.svg.j2").write_text(
        '{% import "_lib.svg.j2" as lib %}{{ lib.svg_open() }}'
        '{{ lib.text("Dentro", 5, 20, 10) }}{{ lib.text(word, w - 8, 40, 10) }}'
        '{{ lib.svg_close() }}', encoding="utf-8")
    faces = [Face("over.svg.j2", {"word": "Desborda"}, "a"), Face("over.svg.j2", {"word": "X"}, "b")]
    comp = Component("probe", "over", {"es": "p", "en": "p"}, (63.0, 88.0), faces, grid=(2, 1))
    build_components([comp], Options(), tmp_path / "out", roots=(str(tmp_path / "t"),), flat=True)
    problems = text_overflow(tmp_path / "out" / "over.pdf")
    # glyphs clipped away at the bleed edge leave the text layer: the word is cut short there
    assert problems and all("'Desbo" in p for p in problems)
    assert any("crosses the cut line" in p for p in problems)


def test_svg_open_extra_attributes_are_written_as_given(tmp_path):
    """`extra` needs no |safe: its quotes and entities reach the SVG unescaped (a second escaping
    would write &amp;amp; and &#34;); text-rendering is the default."""
    from ludoteca.generator.templating import render
    (tmp_path / "x.svg.j2").write_text(
        '{% import "_lib.svg.j2" as lib %}{{ lib.svg_open(extra=\'data-kind="a&amp;b"\') }}'
        '{{ lib.svg_close() }}', encoding="utf-8")
    svg = render(Face("x.svg.j2", {}, "x"), (63, 88), 3, Options(), roots=(str(tmp_path),))
    assert 'data-kind="a&amp;b"' in svg and 'text-rendering="geometricPrecision"' in svg

"""The PDFs the engine writes read cleanly in pypdf's strict mode (no duplicate resource keys).

Cairo 1.16 writes one resource entry per paint of the same face, so a sheet of nine copies had
nine identical ``/x6`` keys; render.dedupe_resources blanks the repeats in place.
"""

from __future__ import annotations

import io

from ludoteca.generator.build import build_components
from ludoteca.generator.model import Component, Face, Options
from ludoteca.generator.render import dedupe_resources
from pdfmeasure import pdf_complaints, read


def _cairo_pdf(paints: int) -> bytes:
    """A page painting one recorded square ``paints`` times, as the engine places copies."""
    import cairocffi
    rec = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, 100, 100))
    ctx = cairocffi.Context(rec)
    ctx.rectangle(10, 10, 50, 50)
    ctx.set_source_rgb(0.8, 0.1, 0.1)
    ctx.fill()
    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, 500, 200)
    ctx = cairocffi.Context(surface)
    for i in range(paints):
        ctx.save()
        ctx.translate(i * 110, 0)
        ctx.set_source_surface(rec, 0, 0)
        ctx.paint()
        ctx.restore()
    surface.finish()
    return out.getvalue()


def test_repeated_keys_are_blanked_in_place(tmp_path):
    raw = _cairo_pdf(4)
    fixed = dedupe_resources(raw)
    (tmp_path / "raw.pdf").write_bytes(raw)
    (tmp_path / "fixed.pdf").write_bytes(fixed)
    assert pdf_complaints(tmp_path / "raw.pdf"), "cairo no longer repeats keys: drop the fix"
    assert pdf_complaints(tmp_path / "fixed.pdf") == []
    assert len(fixed) == len(raw)                       # offsets (and the xref) unchanged
    assert fixed.count(b"/x6 ") == 1 and raw.count(b"/x6 ") == 4
    assert [b for a, b in zip(raw, fixed) if a != b] == [ord(" ")] * sum(
        1 for a, b in zip(raw, fixed) if a != b)        # only blanks written
    squares = [r for r in read(tmp_path / "fixed.pdf")[0].fills]
    assert len(squares) == 4                            # still painted four times


def test_a_built_deck_and_its_cached_pages_read_clean(tmp_path):
    """Nine copies of a face per sheet, fronts and backs: every PDF written, cache included."""
    from ludoteca.generator.templating import TEMPLATES
    faces = [Face("deck/card.svg.j2", {"name": f"Carta {i % 2}", "text": "Roba una carta."},
                  f"c{i % 2}") for i in range(12)]
    backs = [Face("deck/back.svg.j2", {"name": "x"}, "back")] * 12
    comp = Component("deck", "probe", {"es": "p", "en": "p"}, (63.0, 88.0), faces, backs,
                     grid=(3, 3), deck=True)
    from ludoteca.generator.render import Cache
    build_components([comp], Options(), tmp_path, roots=(str(TEMPLATES),), flat=True)
    cached = sorted(Cache(tmp_path).pages.glob("*.pdf"))
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    assert len(cached) >= 2 and (tmp_path / "probe.pdf") in pdfs
    assert {str(p): pdf_complaints(p) for p in pdfs + cached} == {str(p): [] for p in pdfs + cached}

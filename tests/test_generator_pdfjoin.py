"""generator.pdfjoin: cairo's single pages joined without pypdf, read back with pypdf (strict)."""

from __future__ import annotations

import io
import pytest

from ludoteca.generator import pdfjoin
from ludoteca.generator.render import _write_pdf, dedupe_resources, page_file
import pdfmeasure as pm


def _cairo_page(rgb: tuple[float, float, float], text: str, w: float = 300, h: float = 200) -> bytes:
    """A one-page PDF as the engine's pages are: a recorded form painted, and some text."""
    import cairocffi
    rec = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, 100, 100))
    ctx = cairocffi.Context(rec)
    ctx.rectangle(10, 10, 50, 50)
    ctx.set_source_rgb(*rgb)
    ctx.fill()
    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, w, h)
    ctx = cairocffi.Context(surface)
    for i in range(2):
        ctx.save()
        ctx.translate(i * 110, 0)
        ctx.set_source_surface(rec, 0, 0)
        ctx.paint()
        ctx.restore()
    ctx.set_source_rgb(0, 0, 0)
    ctx.set_font_size(12)
    ctx.move_to(20, 150)
    ctx.show_text(text)
    surface.finish()
    return dedupe_resources(out.getvalue())


def test_joined_pages_read_clean_with_their_boxes_and_drawings(tmp_path):
    from pypdf import PdfReader
    a, b = _cairo_page((0.8, 0.1, 0.1), "Catedral"), _cairo_page((0.1, 0.1, 0.8), "Señorío", 400, 250)
    pages = [(a, (10, 20, 290, 180), (5, 15, 295, 185)), (b, (1, 2, 3, 4), (0, 1, 4, 5)),
             (a, (11.5, 20, 290, 180.25), (5, 15, 295, 185))]
    target = tmp_path / "joined.pdf"
    with open(target, "wb") as fh:
        pdfjoin.join(pages, fh, pdfjoin.Meta(title="Distritos (Ciudadelas)", subject="Hojas · 63×88 mm",
                                             lang="es", creator="test",
                                             outline=[("Hoja 1", 0), ("Hoja 2 — Señorío", 1)]))
    assert pm.pdf_complaints(target) == []
    reader = PdfReader(str(target), strict=True)
    assert len(reader.pages) == 3
    for page, (_src, trim, bleed) in zip(reader.pages, pages):
        assert [float(v) for v in page.trimbox] == pytest.approx(trim)
        assert [float(v) for v in page.bleedbox] == pytest.approx(bleed)
    assert [float(v) for v in reader.pages[1].mediabox] == pytest.approx([0, 0, 400, 250])
    singles = {}
    for name, data in (("a", a), ("b", b)):
        (tmp_path / f"{name}.pdf").write_bytes(data)
        singles[name] = pm.fingerprint(PdfReader(str(tmp_path / f"{name}.pdf")).pages[0])
    assert [pm.fingerprint(p) for p in reader.pages] == [singles["a"], singles["b"], singles["a"]]
    assert reader.metadata["/Producer"] == "Ludoteca"
    assert reader.metadata.title == "Distritos (Ciudadelas)"
    assert reader.metadata.subject == "Hojas · 63×88 mm"
    assert reader.metadata.author == "Ludoteca"
    assert reader.trailer["/Root"]["/Lang"] == "es"
    assert [(item.title, reader.get_destination_page_number(item)) for item in reader.outline] == [
        ("Hoja 1", 0), ("Hoja 2 — Señorío", 1)]
    text = [p.extract_text() for p in reader.pages]
    assert "Catedral" in text[0] and "Señorío" in text[1] and "Catedral" in text[2]
    # a repeated source is copied once: the file is far smaller than three separate pages
    assert target.stat().st_size < len(a) + len(b) + len(a) // 2


def test_a_pdf_not_written_by_cairo_is_refused_before_anything_is_written():
    out = io.BytesIO()
    with pytest.raises(pdfjoin.Unsupported):
        pdfjoin.join([(b"%PDF-1.7\n1 0 obj\n<< >>\nendobj\n", (0, 0, 1, 1), (0, 0, 1, 1))], out)
    assert out.getvalue() == b""


def test_the_engine_falls_back_to_pypdf_when_the_joiner_refuses(tmp_path, monkeypatch):
    """A page PDF the joiner does not understand (say, from a newer cairo) is joined by pypdf."""
    from pypdf import PdfReader

    def refuse(pages, out, *args):
        out.write(b"%PDF-1.5 partial")
        raise pdfjoin.Unsupported("xref stream")

    page_file(tmp_path, "cairo").write_bytes(_cairo_page((0.2, 0.6, 0.2), "Mercado"))
    page_h = 200 * 25.4 / 72
    spec = [("cairo", page_h, (1, 2, 30, 40), (0, 1, 32, 42))] * 2
    meta = pdfjoin.Meta(title="Mercado", subject="prueba", lang="es", outline=[("Hoja 2", 1)])
    _write_pdf((tmp_path / "ours.pdf", tmp_path, spec, meta))
    monkeypatch.setattr(pdfjoin, "join", refuse)
    _write_pdf((tmp_path / "pypdf.pdf", tmp_path, spec, meta))
    ours, theirs = PdfReader(str(tmp_path / "ours.pdf")), PdfReader(str(tmp_path / "pypdf.pdf"))
    assert pm.pdf_complaints(tmp_path / "pypdf.pdf") == []
    assert len(theirs.pages) == 2 and "Mercado" in theirs.pages[1].extract_text()
    for a, b in zip(ours.pages, theirs.pages):
        assert [float(v) for v in a.trimbox] == pytest.approx([float(v) for v in b.trimbox], abs=1e-3)
        assert [float(v) for v in a.bleedbox] == pytest.approx([float(v) for v in b.bleedbox], abs=1e-3)
        assert pm.fingerprint(a) == pm.fingerprint(b)
    for reader in (ours, theirs):
        assert (reader.metadata.title, reader.metadata.subject) == ("Mercado", "prueba")
        assert reader.trailer["/Root"]["/Lang"] == "es"
        assert [(o.title, reader.get_destination_page_number(o)) for o in reader.outline] == [("Hoja 2", 1)]


def test_a_built_deck_is_joined_without_pypdf(tmp_path, monkeypatch):
    """Cairo's own pages go through the joiner: the pypdf fallback is never needed for them."""
    from ludoteca.generator import render
    from ludoteca.generator.build import build_components
    from ludoteca.generator.model import Component, Face, Options
    from ludoteca.generator.templating import TEMPLATES
    from pypdf import PdfReader

    def no_fallback(*args):
        raise AssertionError("the joiner refused a page cairo wrote")

    monkeypatch.setattr(render, "_write_with_pypdf", no_fallback)
    faces = [Face("deck/card.svg.j2", {"name": f"Carta {i}", "text": "Roba una carta."}, f"c{i}")
             for i in range(12)]
    backs = [Face("deck/back.svg.j2", {"name": "x"}, "back")] * 12
    comp = Component("deck", "probe", {"es": "p", "en": "p"}, (63.0, 88.0), faces, backs,
                     grid=(3, 3), deck=True)
    summary = build_components([comp], Options(), tmp_path, roots=(str(TEMPLATES),), flat=True)
    assert summary.written == 2                      # the deck and the calibration sheet
    reader = PdfReader(str(tmp_path / "probe.pdf"), strict=True)
    assert len(reader.pages) == 4 and pm.pdf_complaints(tmp_path / "probe.pdf") == []
    assert "Carta 11" in reader.pages[2].extract_text()


def _cairo_pages(texts: list[str]) -> bytes:
    """One cairo PDF of several pages, one text each (one font subset for all of them)."""
    import cairocffi
    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, 300, 200)
    ctx = cairocffi.Context(surface)
    for text in texts:
        ctx.set_font_size(12)
        ctx.move_to(20, 150)
        ctx.show_text(text)
        ctx.show_page()
    surface.finish()
    return out.getvalue()


def test_pages_split_apart_share_their_font_again_when_joined(tmp_path):
    from pypdf import PdfReader
    texts = ["Catedral", "Señorío", "Mercado"]
    parts = pdfjoin.split(_cairo_pages(texts))
    assert len(parts) == 3
    for i, (part, text) in enumerate(zip(parts, texts)):
        (tmp_path / f"{i}.pdf").write_bytes(part)
        assert pm.pdf_complaints(tmp_path / f"{i}.pdf") == []
        reader = PdfReader(str(tmp_path / f"{i}.pdf"), strict=True)
        assert len(reader.pages) == 1 and text in reader.pages[0].extract_text()
        assert part.count(b"/FontFile2") == 1                   # each part carries the font
    target = tmp_path / "joined.pdf"
    with open(target, "wb") as fh:
        pdfjoin.join([(part, (0, 0, 300, 200), (0, 0, 300, 200)) for part in parts], fh)
    joined = target.read_bytes()
    assert pm.pdf_complaints(target) == []
    assert [p.extract_text() for p in PdfReader(str(target), strict=True).pages] == texts
    assert joined.count(b"/FontFile2") == 1                     # and the joined file once
    assert len(joined) < sum(map(len, parts)) * 0.6


def test_a_pdf_is_parsed_once_to_be_split_whatever_its_pages(monkeypatch):
    """Each page cut from the one parse: it was parsed again for every page (14 times for the
    120-card deck)."""
    parse, calls = pdfjoin.parse, []
    monkeypatch.setattr(pdfjoin, "parse", lambda data: calls.append(1) or parse(data))
    parts = pdfjoin.split(_cairo_pages(["Uno", "Dos", "Tres", "Cuatro"]))
    assert len(parts) == 4 and all(part.startswith(b"%PDF-") for part in parts)
    assert len(calls) == 1


def test_a_deck_embeds_each_font_once_per_render_job_not_once_per_page(tmp_path):
    from ludoteca.generator.build import build_components
    from ludoteca.generator.model import Component, Face, Options
    from ludoteca.generator.templating import TEMPLATES
    faces = [Face("deck/card.svg.j2", {"name": f"Carta {i}", "text": f"Roba {i} cartas."}, f"c{i}")
             for i in range(36)]
    comp = Component("deck", "probe", {"es": "p", "en": "p"}, (63.0, 88.0), faces, None,
                     grid=(3, 3), deck=True)
    build_components([comp], Options(), tmp_path, roots=(str(TEMPLATES),), flat=True)
    data = (tmp_path / "probe.pdf").read_bytes()
    assert data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= 4
    # regular and bold, in at most two render jobs (one per worker): 4 at most, was 2 per page
    assert data.count(b"/FontFile2") <= 4
    assert pm.pdf_complaints(tmp_path / "probe.pdf") == []


def test_a_file_is_joined_from_the_pages_just_drawn_the_same_as_from_the_cache(tmp_path, monkeypatch):
    """The pages a build has just drawn are joined from the PDF they were drawn into (not read
    back from the page cache one file at a time), into the very file a join of the cached
    pages makes."""
    from pathlib import Path

    from ludoteca.generator import render
    from ludoteca.generator.build import render_faces
    from ludoteca.generator.deck import deck_component
    from ludoteca.generator.layout import lay_out
    from ludoteca.generator.model import Options
    from ludoteca.generator.templating import TEMPLATES
    deck = deck_component(Path(__file__).resolve().parent.parent / "bench" / "data" / "cards120.csv",
                          "deck/card.svg.j2", None, (63.0, 88.0))
    fronts = render_faces(deck, list(deck.fronts[:12]), Options(), (str(TEMPLATES),))
    pages = lay_out(deck, fronts, None, Options()).pages
    assert len(pages) == 2
    job = [(page_file(tmp_path, render.page_key(p)), p) for p in pages]
    render._render_job(job)
    spec = [(render.page_key(p), p.size[1], p.trimbox, p.bleedbox) for p in pages]
    cached = {path: path.read_bytes() for path, _page in job}
    for path in cached:
        path.unlink()                          # joined without them: from the pages just drawn
    _write_pdf((tmp_path / "drawn.pdf", tmp_path, spec, pdfjoin.Meta(title="t")))
    for path, data in cached.items():
        path.write_bytes(data)
    monkeypatch.setattr(render, "_DRAWN", {})  # another process: only the cache
    _write_pdf((tmp_path / "cached.pdf", tmp_path, spec, pdfjoin.Meta(title="t")))
    assert (tmp_path / "drawn.pdf").read_bytes() == (tmp_path / "cached.pdf").read_bytes()
    assert pm.pdf_complaints(tmp_path / "drawn.pdf") == []


def test_join_leaves_nothing_for_the_garbage_collector():
    """A join's pages, closures and buffers are freed as it returns (a cycle among them was left
    to the collector, whose pass over them cost a deck's build 0.6 ms)."""
    import gc
    a, b = _cairo_page((0.8, 0.1, 0.1), "Catedral"), _cairo_page((0.1, 0.1, 0.8), "Señorío")
    gc.collect()
    gc.disable()
    try:
        pdfjoin.split(pdfjoin.parse(pdfjoin.split(a)[0]))
        pdfjoin.join([(a, None, None), (b, None, None), (a, None, None)], io.BytesIO())
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_files_frame_is_read_as_its_patterns_read_it():
    """The xref's place, the xref head, the trailer, the catalog's entries and the page tree's
    kids are read with bytes' methods: each finds what its pattern (in its docstring) finds, on
    frames written right and wrong in many ways (seeded)."""
    import random
    import re

    from ludoteca.generator import pdfjoin as pj
    start = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
    head = re.compile(rb"xref\s+0\s+(\d+)\s+")
    trailer = re.compile(rb"trailer\s*<<(.*?)>>\s*startxref", re.S)
    named = re.compile(rb"/(Root|Info|Pages)\s+(\d+)\s+0\s+R")
    kids = re.compile(rb"/Kids\s*\[((?:\s*\d+\s+0\s+R)+)\s*\]")
    pick = random.Random(23).choice

    def ws() -> bytes:
        return pick([b"", b" ", b"\n", b"\r\n", b"\t\x0c", b"x"])

    def ref() -> bytes:
        return ws() + pick([b"0", b"17", b"", b"a"]) + ws() + pick([b"0", b"00"]) + ws() + pick([b"R", b"Q"])
    parts = [lambda: b"/Kids" + ws() + b"[" + ref() + ref() + ws() + pick([b"]", b">"]),
             lambda: pick([b"/Root", b"/Info", b"/Pages", b"/Rooty"]) + ref(),
             lambda: b"trailer" + ws() + b"<<" + pick([b"", b"/Size 5", b">"]) + pick([b">>", b">"]) + ws()
             + pick([b"startxref", b"start"]),
             lambda: b"xref" + ws() + pick([b"0", b"1"]) + ws() + pick([b"12", b""]) + ws(),
             lambda: b"startxref" + ws() + pick([b"9", b""]) + ws() + pick([b"%%EOF", b"%EOF"]) + ws()]
    found = [0] * 5
    for _ in range(3000):
        data = b"".join(pick(parts)() for _ in range(3))
        m = start.search(data[-64:])
        assert pj.xref_start(data) == (int(m.group(1)) if m else None), data
        found[0] += m is not None
        for at in (0, 2):
            m = head.match(data, at)
            assert pj._xref_head(data, at) == ((int(m.group(1)), m.end()) if m else None), data
            found[1] += m is not None
            m = trailer.search(data, at)
            assert pj._trailer(data, at) == (m.group(1) if m else None), data
            found[2] += m is not None
        for name in (b"Root", b"Info", b"Pages"):
            first = next((int(m.group(2)) for m in named.finditer(data) if m.group(1) == name), None)
            assert pj._named_ref(name, data) == first, data
            found[3] += first is not None
        m = kids.search(data)
        assert pj._kids(data) == (m.group(1) if m else None), data
        found[4] += m is not None
    assert all(found), found                     # each pattern matched some of them

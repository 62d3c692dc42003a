"""generator.fasttext: plain texts drawn in one run land where cairosvg's per-letter drawer put them."""

from __future__ import annotations

import re
from pathlib import Path

from ludoteca.generator import fasttext, render
from ludoteca.generator.compose import Page
import pdfmeasure as pm

FACE = """<svg xmlns="http://www.w3.org/2000/svg" width="69mm" height="94mm" viewBox="-3 -3 69 94"
 font-family="Bitstream Vera Sans" text-rendering="geometricPrecision">
<rect x="-3" y="-3" width="69" height="94" fill="#fff6d6"/>
<text x="4" y="10" font-size="4.2" font-weight="bold">Catedral de Ñuñoa</text>
<text x="31.5" y="20" font-size="3" text-anchor="middle">Señorío del Dragón</text>
<text x="59" y="30" font-size="2.5" text-anchor="end" fill="#333333">Al construir, roba 2 cartas</text>
<text x="4" y="40" font-size="2.2" font-style="italic">Vale dos puntos más</text>
<g transform="translate(5 50) rotate(-10)"><text x="0" y="0" font-size="3">Girada</text></g>
<text x="4" y="60" font-size="3" letter-spacing="0.5">Espaciada</text>
<text x="4" y="70" font-size="3">Con <tspan font-weight="bold">negrita</tspan> dentro</text>
<text x="4" y="80" font-size="3" stroke="#c8413b" stroke-width="0.1">Contorno</text>
</svg>"""


def _pdf(tmp_path: Path, name: str, fast: bool, monkeypatch) -> Path:
    """The face on a page, rendered by the engine with or without the fast drawer."""
    monkeypatch.setattr(fasttext, "_NEEDS_BBOX", re.compile(r"<" if not fast else r"<never\b"))
    render._RECORDINGS.clear()
    page = Page("", (69.0, 94.0), (3, 3, 63, 88), (0, 0, 69, 94), name,
                faces=[(FACE, (0, 0, 69, 94), (0, 0, 69, 94))])
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(render._page_to_pdf(page))
    render._RECORDINGS.clear()
    return path


def test_plain_texts_land_where_the_per_letter_drawer_put_them(tmp_path, monkeypatch):
    slow = pm.words(_pdf(tmp_path, "slow", False, monkeypatch))[1]
    fast = pm.words(_pdf(tmp_path, "fast", True, monkeypatch))[1]
    assert [w[0] for w in fast] == [w[0] for w in slow]
    assert "Ñuñoa" in [w[0] for w in fast] and "negrita" in [w[0] for w in fast]
    for a, b in zip(slow, fast):
        assert max(abs(p - q) for p, q in zip(a[1:], b[1:])) < 0.05, (a, b)


def test_only_plain_texts_take_the_fast_path(tmp_path, monkeypatch):
    """Rotated is fine (the matrix does it); letter-spacing, tspans and strokes go to cairosvg."""
    seen: list[str] = []
    original = fasttext._ORIGINAL or __import__("cairosvg.surface").surface.text

    def counting(surface, node, draw_as_text=False):
        if draw_as_text:
            seen.append(node.text or "")
        return original(surface, node, draw_as_text)

    fasttext._install()
    monkeypatch.setattr(fasttext, "_ORIGINAL", counting)
    _pdf(tmp_path, "fast", True, monkeypatch)
    assert set(seen) == {"Espaciada", "Con ", "negrita", " dentro", "Contorno"}


def test_a_face_with_a_gradient_keeps_the_per_letter_drawer():
    """Gradients (and patterns, masks, filters, markers) read a text's bounding box: slow path."""
    with fasttext.fast_text('<svg><linearGradient id="g"/><text>x</text></svg>'):
        assert not fasttext._ACTIVE
    with fasttext.fast_text("<svg><text>x</text></svg>"):
        assert fasttext._ACTIVE
    assert not fasttext._ACTIVE


def test_the_patch_fits_the_installed_cairosvg():
    """Fails loudly on a cairosvg whose internals moved: pyproject pins the tested range."""
    import cairosvg.surface

    assert fasttext.problems() == []
    fasttext._install()
    assert cairosvg.surface.TAGS["text"] is fasttext._text
    assert cairosvg.surface.text is fasttext._text


def test_a_cairosvg_without_the_patched_function_is_refused_by_name(monkeypatch):
    import cairosvg.surface
    import pytest

    monkeypatch.setattr(fasttext, "_ORIGINAL", None)
    monkeypatch.delattr(cairosvg.surface, "text")
    found = fasttext.problems()
    assert len(found) == 1 and "cairosvg.surface.text is gone" in found[0] and fasttext.TESTED in found[0]
    with pytest.raises(fasttext.PatchError, match="cairosvg.surface.text is gone"):
        fasttext._install()

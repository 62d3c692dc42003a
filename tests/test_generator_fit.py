"""Text fitting: wrapped and shrunk into its box, never overflowing, never under 6 pt."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from ludoteca.generator.fonts import MIN_PT, fit, text_width_mm

WORDS = st.lists(st.text(alphabet="abcdefghijklmnñopqrstuvwxyzáéíóúÁÉÑ", min_size=1, max_size=12),
                 min_size=1, max_size=40).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(text=WORDS, width=st.floats(10, 80), height=st.floats(3, 60), max_pt=st.floats(6, 24),
       bold=st.booleans())
def test_fit_never_overflows_and_never_goes_under_6pt(text, width, height, max_pt, bold):
    result = fit(text, width, height, max_pt, bold=bold)
    assert result.size_pt >= MIN_PT
    if result.fits:
        assert result.size_pt <= max_pt
        for line in result.lines:
            assert text_width_mm(line, result.size_pt, bold) <= width + 1e-6
        assert result.height_mm <= height + 1e-6
        assert " ".join(result.lines).split() == text.split()   # no word lost or changed
    else:
        assert result.size_pt == MIN_PT


def test_fit_shrinks_before_failing():
    long = "Al construir esta carta, roba una carta de distrito y guarda hasta dos cartas."
    roomy = fit(long, 55, 30, 12)
    tight = fit(long, 55, 10, 12)
    assert roomy.fits and tight.fits and tight.size_pt < roomy.size_pt
    assert not fit(long, 20, 4, 12).fits


def test_min_pt_below_6_is_raised_to_6():
    assert fit("x " * 500, 10, 5, 9, min_pt=2).size_pt == pytest.approx(6)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.characters(max_codepoint=0x2FFF), max_size=40),
       size=st.sampled_from([6.0, 6.25, 8.5, 9.75, 12.0, 23.5]), bold=st.booleans())
def test_widths_are_reportlabs_to_the_last_bit(text, size, bold):
    """The cached width tables give exactly what reportlab's stringWidth gives (any character,
    missing ones included), so fit() decides the same line breaks with or without reportlab."""
    from ludoteca.generator.fonts import FACES, _metrics
    from ludoteca.generator.units import pt_to_mm
    face = FACES["bold" if bold else "regular"]
    assert text_width_mm(text, size, bold) == pt_to_mm(_metrics().stringWidth(text, face, size))


def test_measuring_text_does_not_load_reportlab_once_the_tables_are_cached(tmp_path):
    import os
    import subprocess
    import sys
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    code = ("import sys; from ludoteca.generator.fonts import text_width_mm; w = text_width_mm('Señorío', 9); "
            "print(w, 'reportlab' in sys.modules)")
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True).stdout.split()
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                            check=True).stdout.split()
    assert (tmp_path / "ludoteca" / "fonts" / "widths.bin").is_file()
    assert first[1] == "True" and second == [first[0], "False"]


def test_the_texts_remembered_for_fitting_do_not_grow_with_the_deck():
    """A huge deck fits a few new texts per card: what is remembered of them stays bounded."""
    import tracemalloc

    from ludoteca.generator import fonts
    fonts.fit.cache_clear()
    fonts._em_width.cache_clear()
    fonts.fit("warm", 40, 10, 12)
    tracemalloc.start()
    try:
        for i in range(6_000):
            fonts.fit(f"Carta número {i} del mazo", 40, 10, 12)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
        fonts.fit.cache_clear()
        fonts._em_width.cache_clear()
    assert held < 2_000_000, held


def test_a_line_is_measured_word_by_word_not_again_from_its_start(monkeypatch):
    """Wrapping measures each word, never the growing line again: the work stays linear."""
    from ludoteca.generator import fonts
    measured = []
    real = fonts._em_width.__wrapped__
    monkeypatch.setattr(fonts, "_em_width", lambda text, face: measured.append(text) or real(text, face))
    text = " ".join(f"palabra{i}" for i in range(200))
    lines = fonts._wrap(text, 60, 9, False)
    assert lines is not None and len(lines) > 10
    assert sum(map(len, measured)) <= 2 * len(text)


@settings(max_examples=150, deadline=None)
@given(text=WORDS | st.text(alphabet="ab cdÑ\n\t.-", max_size=80), width=st.floats(1, 80),
       size=st.sampled_from([6.0, 6.25, 8.5, 9.75, 12.0, 23.5]), bold=st.booleans())
def test_wrapping_word_by_word_gives_the_lines_of_measuring_each_line_whole(text, width, size, bold):
    from ludoteca.generator import fonts
    assert fonts._wrap(text, width, size, bold) == fonts._wrap_measured(text, width, size, bold)

"""Text fitting: wrapped and shrunk into its box, never overflowing, never under 6 pt."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from generator.fonts import MIN_PT, fit, text_width_mm

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

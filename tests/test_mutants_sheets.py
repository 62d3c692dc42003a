"""Sheet geometry a mutation run (bench/mutation.py, seed 40925) found unpinned."""

from __future__ import annotations

import pytest

from ludoteca.generator.sheets import Fold


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_fold_sheets_boxes_span_both_halves_symmetric_about_the_fold(paper):
    # Poker cards (63x88 mm, 3 mm bleed) folded: the trim and bleed boxes start on the left half
    # and end as far right of the fold as they start left of it, the bleed box 3 mm wider each side.
    fold = Fold.make(paper, (63.0, 88.0), 3.0)
    tx, ty, tw, th = fold.trimbox()
    bx, by, bw, bh = fold.bleedbox()
    assert tx + tw / 2 == pytest.approx(fold.fold_x) and bx + bw / 2 == pytest.approx(fold.fold_x)
    assert (bx, by, bw, bh) == pytest.approx((tx - 3, ty - 3, tw + 6, th + 6))

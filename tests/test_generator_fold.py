"""``--layout fold``: fronts and backs on one side of the paper, mirrored across a fold line."""

from __future__ import annotations

import json

import pytest

import pdfmeasure as pm
from ludoteca.generator.sheets import Fold
from test_generator_layout import run_deck

TOL = 0.15


def _mirror(rect, w):
    x0, y0, x1, y1 = rect
    return (w - x1, y0, w - x0, y1)


def _close(a, b):
    return all(abs(p - q) <= TOL for p, q in zip(a, b))


def test_fold_geometry_by_hand_on_a4():
    # A4 turned to landscape: each half is 148.5 x 210 mm. Along x: (148.5 - 2*3 - 2*3 + 1.5) /
    # (63 + 1.5) = 2.14 -> 2 columns; gutter min(6, (148.5 - 126 - 6 - 6) / 1) = 6. Along y:
    # (210 - 12 + 1.5) / 89.5 = 2.2 -> 2 rows, gutter min(6, 210 - 176 - 12) = 6. Portrait halves
    # (105 x 297) hold 1 x 3 = 3 cards, fewer than 4.
    fold = Fold.make("a4", (63.0, 88.0), 3.0)
    assert fold.paper == (297.0, 210.0)
    assert (fold.half.cols, fold.half.rows, fold.half.gutter) == (2, 2, (6.0, 6.0))
    # the left half's grid is 126 + 6 = 132 wide, centred: x from 8.25 to 140.25
    assert fold.front(0)[0] == pytest.approx((8.25, 14.0, 63.0, 88.0))
    assert fold.back(0)[0] == pytest.approx((297 - 8.25 - 63, 14.0, 63.0, 88.0))
    assert fold.fold_line() == (148.5, 0.0, 148.5, 210.0)


def test_a3_folds_more_cards_than_a4():
    assert Fold.make("a3", (63.0, 88.0), 3.0).per_page > Fold.make("a4", (63.0, 88.0), 3.0).per_page


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_fold_sheet_read_back_from_the_pdf(tmp_path, paper):
    out = run_deck(tmp_path, 5, "--paper", paper, "--layout", "fold", back=True)
    pages = pm.read(out / "cards.pdf")
    fold = Fold.make(paper, (63.0, 88.0), 3.0)
    n = fold.per_page
    assert len(pages) == -(-5 // n)                      # one sheet per n cards, no back pages
    page = pages[0]
    w, h = page.size
    assert (w, h) == pytest.approx(fold.paper, abs=0.05)
    # the fold line: a thin vertical stroke at the middle, the full height of the paper
    line = [s for s in page.strokes if s.vertical and abs(s.x1 - w / 2) < TOL]
    assert len(line) == 1 and abs(line[0].width - 0.25) < 0.01
    assert min(line[0].y1, line[0].y2) == pytest.approx(0, abs=TOL)
    assert max(line[0].y1, line[0].y2) == pytest.approx(h, abs=TOL)
    # faces: as many on the right (backs) as on the left (fronts), each a mirror of a front
    clips = [c for c in page.clips if 60 < c[2] - c[0] < 80 and 85 < c[3] - c[1] < 100]
    left = [c for c in clips if c[2] <= w / 2]
    right = [c for c in clips if c[0] >= w / 2]
    assert len(left) == len(right) == min(5, n) and len(left) + len(right) == len(clips)
    for c in left:
        assert any(_close(_mirror(c, w), r) for r in right), c
    # nothing crosses the fold: every face keeps at least its bleed plus the marks' room away
    for c in clips:
        assert c[2] <= w / 2 - 3 or c[0] >= w / 2 + 3
    # the marks follow the fold: every short black stroke has its mirror image
    marks = [s for s in page.strokes if s.width < 0.21 and (s.vertical or s.horizontal)]
    assert marks
    for s in marks:
        assert any(abs(t.x1 - (w - s.x1)) < TOL and abs(t.x2 - (w - s.x2)) < TOL
                   and abs(t.y1 - s.y1) < TOL and abs(t.y2 - s.y2) < TOL for t in marks), s


def test_each_back_lands_behind_its_own_front(tmp_path):
    out = run_deck(tmp_path, 4, "--layout", "fold", back=True)
    page = pm.read(out / "cards.pdf")[0]
    w = page.size[0]
    words = pm.words(out / "cards.pdf")[1]
    clips = [c for c in page.clips if 60 < c[2] - c[0] < 80 and 85 < c[3] - c[1] < 100 and c[2] <= w / 2]
    for k in range(1, 5):
        front = next(wd for wd in words if wd[0] == f"Carta{k}")
        back = next(wd for wd in words if wd[0] == f"B-Carta{k}")
        card = next(c for c in clips if c[0] <= front[1] <= c[2] and c[1] <= front[2] <= c[3])
        mx0, my0, mx1, my1 = _mirror(card, w)
        cx, cy = (back[1] + back[3]) / 2, (back[2] + back[4]) / 2
        assert mx0 < cx < mx1 and my0 < cy < my1, (k, card, back)


def test_fold_manifest_and_guide(tmp_path):
    out = run_deck(tmp_path, 5, "--layout", "fold", back=True)
    entry = json.loads((out / "manifest.json").read_text())["files"][0]
    assert entry["fold"] is True and entry["duplex"] is False
    assert entry["page_size_mm"] == [297.0, 210.0]
    guide = (out / "LEEME-imprimir.txt").read_text()
    assert "doblar por la línea discontinua, pegar y cortar" in guide
    assert not (out / "calibracion-doble-cara.pdf").exists()

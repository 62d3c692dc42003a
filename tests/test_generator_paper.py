"""Any paper: A3, Tabloid and WxH in mm, items per sheet computed from the sizes in sheets.yaml."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

import pytest

import pdfmeasure as pm
from ludoteca.cli import main
from ludoteca.generator.model import GeneratorError
from ludoteca.generator.sheets import Fold, Grid, fit_count, item_size, paper_size
from test_generator_layout import pairs, run_deck


@pytest.mark.parametrize("paper,size,cols,rows", [
    # cols: floor((W - 2*3 bleed - 2*3 marks + 1.5) / (63 + 1.5)); rows the same with 88
    ("a4", (210.0, 297.0), 3, 3),          # (198+1.5)/64.5 = 3.09 ; (285+1.5)/89.5 = 3.20
    ("letter", (215.9, 279.4), 3, 3),      # 3.18 ; 3.00 (gutter 1.7 mm)
    ("a3", (297.0, 420.0), 4, 4),          # 4.44 ; 4.58
    ("tabloid", (279.4, 431.8), 4, 4),     # 4.17 ; 4.71
    ("150x200", (150.0, 200.0), 2, 2),     # 2.16 ; 2.10
])
def test_poker_cards_per_sheet_are_computed(paper, size, cols, rows):
    assert paper_size(paper) == size
    grid = Grid.make(paper, item_size("poker"), 3.0)
    assert (grid.cols, grid.rows) == (cols, rows)


def test_neighbours_keep_the_narrowest_gutter():
    # 202 mm leaves 202 - 12 = 190 mm: three 63 mm cards fit only edge to edge (189), not with two
    # 1.5 mm gutters (192): (190 + 1.5) / 64.5 = 2.97 -> 2
    assert fit_count(202, 63, 3) == 2
    assert fit_count(204, 63, 3) == 3          # (192 + 1.5) / 64.5 = 3.0 -> 3


def test_no_bleed_packs_items_edge_to_edge():
    # 210 - 2*3 marks = 204 -> 204 / 63 = 3.2 -> 3
    assert fit_count(210, 63, 0) == 3
    assert fit_count(420, 40, 0) == 10


@pytest.mark.parametrize("paper", ["a3", "tabloid", "320x450"])
def test_a_deck_on_big_paper_reads_back_with_the_computed_grid(tmp_path, paper):
    out = run_deck(tmp_path, 20, "--paper", paper)
    pages = pm.read(out / "cards.pdf")
    grid = Grid.make(paper, (63.0, 88.0), 3.0)
    assert len(pages) == -(-20 // grid.per_page)
    page = pages[0]
    assert page.size == pytest.approx(paper_size(paper), abs=0.05)
    xs, ys = page.cuts()
    assert len(pairs(xs)) == grid.cols and len(pairs(ys)) == grid.rows
    entry = json.loads((out / "manifest.json").read_text())["files"][0]
    assert entry["page_size_mm"] == pytest.approx(list(paper_size(paper)))


def test_guide_names_a_custom_paper_in_mm(tmp_path):
    out = run_deck(tmp_path, 2, "--paper", "320x450", "--lang", "en")
    assert "Paper 320 × 450 mm, scale 100 %" in (out / "PRINT-GUIDE.txt").read_text()


def test_a_card_larger_than_the_paper_is_one_clear_line():
    with pytest.raises(GeneratorError) as exc:
        Grid.make("60x80", (63.0, 88.0), 3.0, what="deck/cards")
    assert str(exc.value) == ("deck/cards: 0x0 items of 63x88 mm with 3 mm bleed do not fit on 60x80 "
                              "(60x80 mm)")


def test_crop_marks_start_half_a_millimetre_outside_the_bleed(tmp_path):
    """Hand-worked for 9 poker cards on A4 with 3 mm bleed: the grid is 3 x 63 + 2 x 4.5 = 198 mm
    wide (x from 6 to 204) and 3 x 88 + 2 x 6 = 276 mm high (y from 10.5 to 286.5); the bleed box
    is 3 mm larger all round (3..207 x 7.5..289.5); marks start 0.5 mm beyond it and run 6 mm, or
    to the paper's edge: top ones from y = 7 to 1, left ones from x = 2.5 to 0."""
    out = run_deck(tmp_path, 9)
    page = pm.read(out / "cards.pdf")[0]
    top = sorted({(round(min(s.y1, s.y2), 2), round(max(s.y1, s.y2), 2))
                  for s in page.marks() if s.vertical and max(s.y1, s.y2) < 10})
    left = sorted({(round(min(s.x1, s.x2), 2), round(max(s.x1, s.x2), 2))
                   for s in page.marks() if s.horizontal and max(s.x1, s.x2) < 6})
    bottom = sorted({(round(min(s.y1, s.y2), 2), round(max(s.y1, s.y2), 2))
                     for s in page.marks() if s.vertical and min(s.y1, s.y2) > 287})
    assert top == [(1.0, 7.0)]
    assert left == [(0.0, 2.5)]
    assert bottom == [(290.0, 296.0)]
    xs = sorted({round(s.x1, 2) for s in page.marks() if s.vertical})
    assert xs == [6.0, 69.0, 73.5, 136.5, 141.0, 204.0]


def _copy_cards(tmp_path, game: str, old: str, new: str):
    """A copy of the card data with one line of ``game``'s game.yaml changed."""
    src = Path(str(resources.files("ludoteca.cards")))
    dst = tmp_path / "cards"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    path = dst / game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return dst


def test_game_cards_fill_an_a3_sheet_four_by_four(tmp_path):
    # 38 gladiators: on A4 3x3 -> 5 sheets (10 pages); on A3 4x4 (the computed grid, not a fixed
    # 3x3) -> ceil(38 / 16) = 3 sheets, 6 pages, 63 mm cut pitch across and 88 mm down
    out = tmp_path / "out"
    assert main(["build", "gladiadores", "--paper", "a3", "--out", str(out), "-q"]) == 0
    pages = pm.read(out / "gladiadores" / "gladiators.pdf")
    assert len(pages) == 6
    xs, ys = pages[0].cuts()
    assert [round(b - a, 2) for a, b in pairs(xs)] == [63.0] * 4
    assert [round(b - a, 2) for a, b in pairs(ys)] == [88.0] * 4


def test_the_card_size_is_the_item_size_the_game_data_names(tmp_path):
    # print.card: bridge (57 x 89 in sheets.yaml): on A4 (210 - 12 + 1.5) / 58.5 = 3.4 -> 3 across,
    # (297 - 12 + 1.5) / 90.5 = 3.2 -> 3 down; 57 mm and 89 mm between the cut marks
    cards = _copy_cards(tmp_path, "ciudadelas", "card: poker ", "card: bridge ")
    out = tmp_path / "out"
    assert main(["build", "ciudadelas", "--cards", str(cards), "--out", str(out), "-q"]) == 0
    pages = pm.read(out / "ciudadelas" / "characters.pdf")
    assert len(pages) == 2
    xs, ys = pages[0].cuts()
    assert [round(b - a, 2) for a, b in pairs(xs)] == [57.0] * 3
    assert [round(b - a, 2) for a, b in pairs(ys)] == [89.0] * 3


def test_an_unknown_card_size_names_the_file_line_field_and_the_choices(tmp_path, capsys):
    cards = _copy_cards(tmp_path, "el_mapa", "tech_card: poker ", "tech_card: tarot ")
    out = tmp_path / "out"
    assert main(["build", "el_mapa", "--cards", str(cards), "--out", str(out), "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    line = next(i for i, text in enumerate((cards / "el_mapa" / "game.yaml").read_text().splitlines(), 1)
                if "tech_card: tarot" in text)
    assert f"el_mapa/game.yaml:{line}: game: print.tech_card: unknown item size 'tarot'" in err
    assert "(sheets.yaml has poker, poker_landscape, bridge)" in err
    assert not (out / "el_mapa" / "tech_cards.pdf").exists()


def test_inner_edges_show_half_the_gutter_of_bleed():
    # A4 poker cards, 3 mm bleed: 3 x 3 with gutters 4.5 across ((210 - 3*63 - 2*3 - 2*3) / 2, the
    # marks need 0.5 + 2.5 mm each side) and 6 down (2 x bleed fits); centred, the first trim is at
    # ((210 - 198) / 2, (297 - 276) / 2) = (6, 10.5).
    grid = Grid.make("a4", (63.0, 88.0), 3.0)
    assert grid.gutter == (4.5, 6.0) and grid.origin == (6.0, 10.5)
    # the corner card: full 3 mm outside, 4.5 / 2 = 2.25 on its right, 6 / 2 = 3 below
    assert grid.visible(0, 0) == (3.0, 7.5, 3 + 63 + 2.25, 3 + 88 + 3)
    # the middle card, trim at (6 + 67.5, 10.5 + 94): 2.25 on both sides, 3 above and below
    assert grid.visible(1, 1) == (73.5 - 2.25, 104.5 - 3, 2.25 + 63 + 2.25, 3 + 88 + 3)


@pytest.mark.parametrize("grid, item, fits", [
    ((1, 3), (63.0, 95.0), True),    # 3 x 95 + 2 x 3 bleed + 2 x 3 marks = 297: exactly A4's height
    ((1, 3), (63.0, 96.0), False),   # 300 > 297
    ((3, 1), (66.0, 88.0), True),    # 3 x 66 + 6 + 6 = 210: exactly A4's width
    ((3, 1), (67.0, 88.0), False),   # 213 > 210
])
def test_a_forced_grid_must_leave_room_for_bleed_and_marks(grid, item, fits):
    if fits:
        assert Grid.make("a4", item, 3.0, grid).count == 3
    else:
        with pytest.raises(GeneratorError) as exc:
            Grid.make("a4", item, 3.0, grid)
        assert str(exc.value) == (f"items: {grid[0]}x{grid[1]} items of {item[0]:g}x{item[1]:g} mm with 3 mm "
                                  "bleed do not fit on a4 (210x297 mm)")


def test_a_fold_sheet_turns_to_landscape_and_spans_both_halves():
    # Poker cards, 3 mm bleed. Portrait halves (105 x 297) hold 1 x 3; landscape halves (148.5 x 210)
    # hold 2 x 2, so the sheet turns. Each half: gutters 6 (2 x bleed fits), the grid 2*63 + 6 = 132
    # by 2*88 + 6 = 182, centred at ((148.5 - 132) / 2, (210 - 182) / 2) = (8.25, 14).
    fold = Fold.make("a4", (63.0, 88.0), 3.0)
    assert fold.paper == (297.0, 210.0) and (fold.half.cols, fold.half.rows) == (2, 2)
    assert fold.half.trimbox() == (8.25, 14.0, 132.0, 182.0)
    # both halves' trims: from 8.25 to 297 - 8.25, i.e. 280.5 wide
    assert fold.trimbox() == (8.25, 14.0, 280.5, 182.0)


def test_crop_marks_stop_at_the_paper_edge():
    # A4 poker cards: the bleed edges are 3 mm from the sides (trims at 6 and 204); marks start
    # 0.5 mm out and would run 6 mm, so they stop at the paper: from 2.5 to 0 and from 207.5 to 210.
    grid = Grid.make("a4", (63.0, 88.0), 3.0)
    across = sorted({(round(a, 6), round(c, 6)) for a, b, c, d in grid.marks() if b == d})
    assert across == [(2.5, 0.0), (207.5, 210.0)]

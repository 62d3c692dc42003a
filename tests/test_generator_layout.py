"""The sheets as printed: read the PDFs back and measure faces, marks, backs, boxes and text."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import pdfmeasure as pm
from ludoteca.cli import main

FACE = """{% import "_lib.svg.j2" as lib %}
{{ lib.svg_open() }}
{{ lib.bg(colour) }}
{{ lib.frame(inset=3) }}
{{ lib.text_block(name, 5, 5, w - 10, 20, 12, bold=True) }}
{{ lib.svg_close() }}
"""
BACK = """{% import "_lib.svg.j2" as lib %}
{{ lib.svg_open() }}
{{ lib.bg("#334455") }}
{{ lib.text("B-" ~ name, w / 2, h / 2, 8, anchor="middle", fill="#ffffff") }}
{{ lib.svg_close() }}
"""
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def make_deck(folder: Path, n: int, count: str = "1") -> tuple[Path, Path, Path]:
    """A CSV of n cards named Carta-1.. (with accents in the last word) and two tiny templates."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = ["id,name,colour,count"]
    colours = ["#e9c23a", "#3a6fc4", "#3f9a4a", "#c8413b"]
    for i in range(1, n + 1):
        rows.append(f"c{i},Carta{i} Ñandú,{colours[i % 4]},{count}")
    data = folder / "cards.csv"
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    (folder / "face.svg.j2").write_text(FACE, encoding="utf-8")
    (folder / "back.svg.j2").write_text(BACK, encoding="utf-8")
    return data, folder / "face.svg.j2", folder / "back.svg.j2"


def run_deck(tmp: Path, n: int, *extra: str, back: bool = False) -> Path:
    data, face, back_t = make_deck(tmp / "src", n)
    out = tmp / "out"
    args = ["deck", str(data), "--template", str(face), "--out", str(out), *extra]
    if back:
        args += ["--back", str(back_t)]
    assert main(args) == 0
    return out


def pairs(values: list[float]) -> list[tuple[float, float]]:
    assert len(values) % 2 == 0, values
    return [(values[i], values[i + 1]) for i in range(0, len(values), 2)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cards_are_63x88_three_by_three_centred_with_marks_on_every_cut(tmp_path, paper):
    out = run_deck(tmp_path, 9, "--paper", paper)
    pages = pm.read(out / "cards.pdf")
    assert len(pages) == 1
    page = pages[0]
    assert page.size == pytest.approx(PAPERS[paper], abs=0.05)
    xs, ys = page.cuts()
    cols, rows = pairs(xs), pairs(ys)
    assert len(cols) == 3 and len(rows) == 3
    for a, b in cols:
        assert b - a == pytest.approx(63, abs=0.2)
    for a, b in rows:
        assert b - a == pytest.approx(88, abs=0.2)
    # centred on the paper
    assert xs[0] == pytest.approx(page.size[0] - xs[-1], abs=0.2)
    assert ys[0] == pytest.approx(page.size[1] - ys[-1], abs=0.2)
    # a mark at both ends of every cut line
    marks = page.marks()
    for x in xs:
        ends = [m for m in marks if m.vertical and abs(m.x1 - x) < 0.01]
        assert any(max(m.y1, m.y2) < ys[0] for m in ends) and any(min(m.y1, m.y2) > ys[-1] for m in ends)
    for y in ys:
        ends = [m for m in marks if m.horizontal and abs(m.y1 - y) < 0.01]
        assert any(max(m.x1, m.x2) < xs[0] for m in ends) and any(min(m.x1, m.x2) > xs[-1] for m in ends)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_marks_never_over_a_face_and_bleed_clipped_at_the_gutter_middle(tmp_path, paper):
    out = run_deck(tmp_path, 9, "--paper", paper)
    page = pm.read(out / "cards.pdf")[0]
    xs, ys = page.cuts()
    painted = page.painted()
    assert painted
    for mark in page.marks():
        assert mark.width > 0
        for region in painted:
            assert not pm.overlaps(mark.bbox(), region), (mark, region)
    # every fill lies within one cell: its trim plus at most 3 mm, at most half of each gutter
    cols, rows = pairs(xs), pairs(ys)
    gx = [cols[i + 1][0] - cols[i][1] for i in range(2)]
    gy = [rows[i + 1][0] - rows[i][1] for i in range(2)]
    cells = []
    for c, (x0, x1) in enumerate(cols):
        for r, (y0, y1) in enumerate(rows):
            left = 3 if c == 0 else min(3, gx[c - 1] / 2)
            right = 3 if c == 2 else min(3, gx[c] / 2)
            top = 3 if r == 0 else min(3, gy[r - 1] / 2)
            bottom = 3 if r == 2 else min(3, gy[r] / 2)
            cells.append((x0 - left - 0.01, y0 - top - 0.01, x1 + right + 0.01, y1 + bottom + 0.01))
    for region in painted:
        assert any(c[0] <= region[0] and c[1] <= region[1] and region[2] <= c[2] and region[3] <= c[3]
                   for c in cells), region
    # the backgrounds reach the outer bleed: 3 mm past the outer cut lines
    assert min(r[0] for r in painted) == pytest.approx(xs[0] - 3, abs=0.05)
    assert max(r[3] for r in painted) == pytest.approx(ys[-1] + 3, abs=0.05)
    # gutters: 2 x bleed where it fits, otherwise what leaves room for 3 mm of marks
    for g in gx + gy:
        assert 0 <= g <= 6.01
    assert min(xs[0], ys[0]) - 3 >= 2.99  # room for the marks outside the bleed
    manifest = json.loads((out / "manifest.json").read_text())
    guide = (out / "LEEME-imprimir.txt").read_text()
    said = re.search(r"separación ([\d.]+)×([\d.]+) mm", guide)
    assert said and (float(said[1]), float(said[2])) == pytest.approx((gx[0], gy[0]), abs=0.05)
    assert manifest["files"][0]["items"] == 9


def test_partial_last_page_gets_the_full_marks(tmp_path):
    out = run_deck(tmp_path, 10)
    first, last = pm.read(out / "cards.pdf")
    assert last.cuts() == first.cuts()
    assert len(last.marks()) == len(first.marks()) == 24
    names = [t for t in subprocess.run(["pdftotext", "-f", "2", "-l", "2", str(out / "cards.pdf"), "-"],
                                       capture_output=True, text=True).stdout.split() if t.startswith("Carta")]
    assert names == ["Carta10"]


def _centres(pdf: Path, page: int, prefix: str) -> dict[str, tuple[float, float]]:
    """Centre of each face, located by the name it prints, via the cut lines around it."""
    drawing = pm.read(pdf)[page]
    xs, ys = drawing.cuts()
    cols, rows = pairs(xs), pairs(ys)
    found = {}
    for text in drawing.texts:
        if not text.raw.startswith(prefix):
            continue
        col = [c for c in cols if c[0] <= text.x <= c[1]]
        row = [r for r in rows if r[0] <= text.y <= r[1]]
        assert len(col) == 1 and len(row) == 1, text
        name = text.raw[len(prefix):].split()[0]
        found[name] = ((col[0][0] + col[0][1]) / 2, (row[0][0] + row[0][1]) / 2)
    return found


@pytest.mark.parametrize("paper,offset", [("a4", None), ("letter", None), ("a4", "1.5,-0.5"),
                                          ("letter", "-2,0.7")])
def test_backs_fall_behind_fronts_after_a_long_edge_flip(tmp_path, paper, offset):
    extra = ["--paper", paper] + (["--back-offset", offset] if offset else [])
    out = run_deck(tmp_path, 7, *extra, back=True)
    pdf = out / "cards.pdf"
    assert len(pm.read(pdf)) == 2
    fronts = _centres(pdf, 0, "Carta")
    backs = _centres(pdf, 1, "B-Carta")
    assert sorted(fronts) == sorted(backs) and len(fronts) == 7
    dx, dy = (float(v) for v in offset.split(",")) if offset else (0.0, 0.0)
    width = PAPERS[paper][0]
    for name, (fx, fy) in fronts.items():
        bx, by = backs[name]
        # flipping on the long edge maps x to width - x; y is unchanged
        assert width - bx + dx == pytest.approx(fx, abs=0.2), name
        assert by - dy == pytest.approx(fy, abs=0.2), name
    # at least one card is not in the middle column, so the mirroring is really tested
    assert any(abs(fx - width / 2) > 10 for fx, _ in fronts.values())
    manifest = json.loads((out / "manifest.json").read_text())
    calib = [f for f in manifest["files"] if f["component"] == "calibration"]
    assert calib and (out / calib[0]["path"]).is_file()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_trimbox_and_bleedbox_on_every_page(tmp_path, paper):
    out = run_deck(tmp_path, 12, "--paper", paper, "--bleed", "2.5", back=True)
    for page in pm.read(out / "cards.pdf"):
        xs, ys = page.cuts()
        assert page.trimbox == pytest.approx((xs[0], ys[0], xs[-1], ys[-1]), abs=0.02)
        bx0, by0, bx1, by1 = page.bleedbox
        assert (bx0, by0, bx1, by1) == pytest.approx((xs[0] - 2.5, ys[0] - 2.5, xs[-1] + 2.5, ys[-1] + 2.5),
                                                     abs=0.02)


def test_no_bleed_gives_shared_cut_lines(tmp_path):
    out = run_deck(tmp_path, 9, "--bleed", "0")
    xs, ys = pm.read(out / "cards.pdf")[0].cuts()
    assert len(xs) == 4 and len(ys) == 4
    assert [b - a for a, b in zip(xs, xs[1:])] == pytest.approx([63] * 3, abs=0.2)


def test_fonts_embedded_text_searchable_and_never_under_6pt(tmp_path):
    out = run_deck(tmp_path, 9, back=True)
    pdf = out / "cards.pdf"
    from pypdf import PdfReader
    reader = PdfReader(str(pdf))
    for page in reader.pages:
        fonts = pm.fonts(page)
        assert fonts
        for font in fonts:
            desc = font.get("/FontDescriptor")
            if desc is None:  # composite fonts keep it on the descendant
                desc = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            desc = desc.get_object()
            assert any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            assert "Vera" in str(desc["/FontName"])
    if shutil.which("pdffonts"):
        listing = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
        rows = listing.splitlines()[2:]
        assert rows and all(" yes " in row for row in rows)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "Carta3 Ñandú" in text and "B-Carta9" in text
    sizes = [t.size_pt for page in pm.read(pdf) for t in page.texts]
    assert sizes and min(sizes) >= 6 - 1e-3


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_manifest_matches_the_files(tmp_path, paper):
    out = run_deck(tmp_path, 11, "--paper", paper, back=True)
    manifest = json.loads((out / "manifest.json").read_text())
    assert {f["component"] for f in manifest["files"]} == {"cards", "calibration"}
    for entry in manifest["files"]:
        assert set(entry) == {"game", "component", "path", "title", "pages", "sheets", "layout",
                              "page_size_mm", "item_size_mm", "items", "duplex", "fold", "gutter_mm"}
        pages = pm.read(out / entry["path"])
        assert len(pages) == entry["pages"]
        for page in pages:
            assert page.size == pytest.approx(tuple(entry["page_size_mm"]), abs=0.05)
    cards = next(f for f in manifest["files"] if f["component"] == "cards")
    assert cards["items"] == 11 and cards["duplex"] is True and cards["item_size_mm"] == [63, 88]
    assert cards["pages"] == 4  # two sheets, each front + back
    xs, ys = pm.read(out / cards["path"])[0].cuts()
    assert cards["gutter_mm"] == pytest.approx([xs[2] - xs[1], ys[2] - ys[1]], abs=0.01)


def test_board_larger_than_the_paper_is_split_with_overlap(tmp_path):
    from ludoteca.generator.build import build_components
    from ludoteca.generator.model import Component, Face, Options
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "board.svg.j2").write_text(
        FACE.replace("lib.bg(colour)", 'lib.bg("#88aa66")'), encoding="utf-8")
    comp = Component("test", "board", {"es": "Tablero", "en": "Board"}, (400.0, 250.0),
                     [Face("board.svg.j2", {"name": "Tablero"}, "board")], layout="board")
    summary = build_components([comp], Options(), tmp_path / "out", roots=(str(tmp_path / "t"),))
    entry = summary.manifest["files"][0]
    pages = pm.read(tmp_path / "out" / entry["path"])
    assert entry["pages"] == len(pages) > 1
    for page in pages:
        tx0, ty0, tx1, ty1 = page.bleedbox
        assert tx0 >= 5 and ty0 >= 5 and tx1 <= page.size[0] - 5 and ty1 <= page.size[1] - 5
    # the windows cover the whole board (400 mm + 2 x 3 mm bleed) and overlap by the set amount
    from ludoteca.generator.sheets import data
    overlap = data()["board"]["overlap"]
    lefts = sorted(p.bleedbox[0] for p in pages)
    widths = [p.bleedbox[2] - p.bleedbox[0] for p in pages]
    assert sum(widths) - (len(pages) - 1) * overlap == pytest.approx(406, abs=0.05)
    # the outer trim lines get crop marks on the first and the last piece
    first, last = pages[0], pages[-1]
    assert first.cuts()[0][0] == pytest.approx(first.bleedbox[0] + 3, abs=0.02)
    assert last.cuts()[0][-1] == pytest.approx(last.bleedbox[2] - 3, abs=0.02)
    assert len(set(round(x, 1) for x in lefts)) == 1  # every piece centred the same way


_BLANK_BOARD = ('<svg xmlns="http://www.w3.org/2000/svg" width="400mm" height="250mm" '
                'viewBox="0 0 400 250"></svg>')


def _split_board(n: int = 1):
    from ludoteca.generator.model import Component, Face
    return Component("test", "battle_board", {"es": "Tablero de batalla", "en": "Battle board"},
                     (400.0, 250.0), [Face("board.svg.j2", {}, f"board{i}") for i in range(n)],
                     layout="board")


@pytest.mark.parametrize("lang,labels", [
    ("es", [f"Tablero de batalla · pieza A{i} de 3" for i in (1, 2, 3)]),
    ("en", [f"Battle board · piece A{i} of 3" for i in (1, 2, 3)]),
])
def test_the_pieces_of_a_split_board_are_named_in_the_kits_language(lang, labels):
    """Under each piece: the board's title and the piece, in the kit's language (it printed
    "battle_board 1 · A1 (2x1)" on a Spanish kit), centred, clear of the marks at its edges."""
    from ludoteca.generator.layout import lay_out
    from ludoteca.generator.model import Options
    laid = lay_out(_split_board(), [_BLANK_BOARD], None, Options(lang=lang))
    found = [re.findall(r'<text x="([\d.]+)"[^>]*>([^<]*)</text>', page.overlay) for page in laid.pages]
    assert [[text for _x, text in texts] for texts in found] == [[label] for label in labels]
    for page, ((x, _text),) in zip(laid.pages, found):
        left, _top, width, _height = page.bleedbox          # the piece's window on the sheet
        assert float(x) == pytest.approx(left + width / 2, abs=0.01)
    two = lay_out(_split_board(2), [_BLANK_BOARD] * 2, None, Options(lang=lang))
    assert re.search(r">([^<]*)</text>", two.pages[3].overlay).group(1) == \
        labels[0].replace(" · ", " 2 · ", 1)      # the second board's first piece


def test_a_boards_pages_are_laid_out_again_when_its_title_changes():
    """The pieces' labels show the board's title, so the kit's memory of its pages does too."""
    from ludoteca.generator.build import component_key
    from ludoteca.generator.model import Options
    board = _split_board()
    renamed = _split_board()
    renamed.title = {"es": "Campo de batalla", "en": "Battlefield"}
    assert component_key(board, Options(), "") != component_key(renamed, Options(), "")


def test_ink_saver_keeps_every_background_inside_the_trim(tmp_path):
    out = run_deck(tmp_path, 9, "--ink-saver")
    page = pm.read(out / "cards.pdf")[0]
    xs, ys = page.cuts()
    cells = [(a, c, b, d) for a, b in pairs(xs) for c, d in pairs(ys)]
    marks = page.marks()
    drawn = page.painted() + [s.bbox() for s in page.strokes if s not in marks]
    assert len(drawn) >= 9
    for region in drawn:
        assert any(c[0] - 0.4 <= region[0] and c[1] - 0.4 <= region[1] and region[2] <= c[2] + 0.4
                   and region[3] <= c[3] + 0.4 for c in cells), region


def test_a_game_without_its_module_is_skipped_with_a_note():
    from ludoteca.generator.build import game_components
    from ludoteca.generator.model import Options
    notes: list[str] = []
    assert game_components("no_such_game", {}, Options(), notes) == []
    assert notes == ["no_such_game: no component module yet (ludoteca.generator.games.no_such_game); skipped"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_layout_fills_the_printable_area(tmp_path, paper):
    from ludoteca.generator.build import build_components
    from ludoteca.generator.model import Component, Face, Options
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "pad.svg.j2").write_text(FACE.replace("lib.bg(colour)", 'lib.bg("#ffffff")'),
                                                encoding="utf-8")
    comp = Component("test", "pad", {"es": "Hoja", "en": "Pad"}, (0, 0),
                     [Face("pad.svg.j2", {"name": "Puntuación"}, "pad")], layout="page")
    summary = build_components([comp], Options(paper=paper), tmp_path / "out", roots=(str(tmp_path / "t"),))
    entry = summary.manifest["files"][0]
    w, h = PAPERS[paper]
    assert entry["item_size_mm"] == pytest.approx([w - 20, h - 20], abs=0.01)
    (page,) = pm.read(tmp_path / "out" / entry["path"])
    assert page.trimbox == pytest.approx((10, 10, w - 10, h - 10), abs=0.02)
    assert not page.marks()
    for region in page.painted():
        assert 10 - 0.01 <= region[0] and region[2] <= w - 10 + 0.01


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_rulers_read_zero_at_the_front_lines(tmp_path, paper):
    from ludoteca.generator.calibration import RANGE, calibration_pages
    from ludoteca.generator.model import Options
    from ludoteca.generator.render import Cache, assemble_all, render_pages
    pages = calibration_pages(Options(paper=paper))
    cache = Cache(tmp_path)
    render_pages(pages, cache)
    assemble_all([(pages, tmp_path / "cal.pdf", "cal.pdf")], cache)
    front, back = pm.read(tmp_path / "cal.pdf")
    w, h = PAPERS[paper]
    verticals = [s for s in front.strokes if s.vertical]
    horizontals = [s for s in front.strokes if s.horizontal]
    assert [round(s.x1, 2) for s in verticals] == [round(w / 2, 2)]
    assert [round(s.y1, 2) for s in horizontals] == [round(h / 2, 2)]
    # ruler ticks every 0.5 mm, the long ones at whole millimetres, 0 at the centre
    ticks = sorted(s.x1 for s in back.strokes if s.vertical and min(abs(abs(s.y2 - s.y1) - n) for n in (3, 6)) < 0.01)
    assert len(ticks) == 4 * RANGE + 1
    assert ticks[2 * RANGE] == pytest.approx(w / 2, abs=0.01)
    assert [b - a for a, b in zip(ticks, ticks[1:])] == pytest.approx([0.5] * (4 * RANGE), abs=0.01)
    labels = {t.raw for t in back.texts}
    assert {"0", "+4", "-4"} <= labels


@pytest.mark.parametrize("paper,lang", [("a4", "es"), ("letter", "en")])
def test_no_line_of_the_calibration_sheet_strikes_through_its_words(tmp_path, paper, lang):
    """The front's vertical line ran through "largo" ("long") of the instructions."""
    from ludoteca.generator.calibration import calibration_pages
    from ludoteca.generator.model import Options
    from ludoteca.generator.render import Cache, assemble_all, render_pages
    pages = calibration_pages(Options(paper=paper, lang=lang))
    cache = Cache(tmp_path)
    render_pages(pages, cache)
    assemble_all([(pages, tmp_path / "cal.pdf", "cal.pdf")], cache)
    words = pm.words(tmp_path / "cal.pdf")
    for n, drawing in enumerate(pm.read(tmp_path / "cal.pdf"), start=1):
        struck = [(word, round(x0, 1), round(y0, 1)) for word, x0, y0, x1, y1 in words[n]
                  for s in drawing.strokes if pm.overlaps(s.bbox(), (x0, y0, x1, y1))]
        assert struck == [], f"page {n}"


def test_any_font_family_a_template_asks_for_is_drawn_in_vera(tmp_path):
    data, face, _ = make_deck(tmp_path / "src", 1)
    face.write_text('{% import "_lib.svg.j2" as lib %}\n{{ lib.svg_open() }}\n'
                    '<text x="5" y="10" font-family="DejaVu Serif" font-size="4">{{ name }}</text>\n'
                    '<text x="5" y="20" font-family="monospace" font-weight="bold" font-size="4">x</text>\n'
                    '</svg>\n', encoding="utf-8")
    assert main(["deck", str(data), "--template", str(face), "--out", str(tmp_path / "out")]) == 0
    listing = subprocess.run(["pdffonts", str(tmp_path / "out" / "cards.pdf")], capture_output=True,
                             text=True).stdout.splitlines()[2:]
    names = sorted(row.split()[0].split("+")[1] for row in listing)
    assert names == ["BitstreamVeraSans-Bold", "BitstreamVeraSans-Roman"]


def test_a_board_split_in_two_each_way_overlaps_by_the_set_amount():
    from ludoteca.generator.sheets import Board
    # A4 is 210 x 297 mm; sheets.yaml: margin 9, overlap 12. A 300 x 400 board with 3 mm bleed is
    # 306 x 406 mm; the room on the page is 192 x 279 mm, so:
    # across, ceil((306 - 12) / (192 - 12)) = 2 pieces, each (306 - 12) / 2 + 12 = 159 mm, the second
    #   starting (306 - 12) / 2 = 147 mm after the first (at -3 and 144);
    # down, ceil((406 - 12) / (279 - 12)) = 2 pieces, each (406 - 12) / 2 + 12 = 209 mm (at -3, 194);
    # each piece centred on the page: ((210 - 159) / 2, (297 - 209) / 2) = (25.5, 44).
    board = Board.make("a4", (300.0, 400.0), 3.0)
    assert (board.cols, board.rows) == (2, 2)
    assert [(p.col, p.row, p.window, p.at) for p in board.pieces()] == [
        (0, 0, (-3.0, -3.0, 159.0, 209.0), (25.5, 44.0)),
        (1, 0, (144.0, -3.0, 159.0, 209.0), (25.5, 44.0)),
        (0, 1, (-3.0, 194.0, 159.0, 209.0), (25.5, 44.0)),
        (1, 1, (144.0, 194.0, 159.0, 209.0), (25.5, 44.0))]


@pytest.mark.parametrize("item, grid", [
    ((190.0, 250.0), (2, 1)),   # 190 + 2 x 3 bleed = 196 is wider than A4's 210 - 2 x 9 margin = 192
    ((186.0, 250.0), (1, 1)),   # 192: fits
    ((63.0, 275.0), (1, 2)),    # 275 + 6 = 281 is taller than 297 - 18 = 279
    ((63.0, 273.0), (1, 1)),    # 279: fits
])
def test_a_board_is_split_when_its_bleed_does_not_fit(item, grid):
    from ludoteca.generator.sheets import Board
    board = Board.make("a4", item, 3.0)
    assert (board.cols, board.rows) == grid


def test_the_crop_marks_every_sheet_shares_are_written_once(tmp_path, monkeypatch):
    """A grid's sheets have the same crop marks: their path is written once, not per sheet,
    and each sheet's overlay holds it."""
    from ludoteca.generator import compose, layout
    from ludoteca.generator.deck import deck_component
    from ludoteca.generator.model import Options
    data = tmp_path / "cards.csv"
    data.write_text("id,count\na,27\n", encoding="utf-8")
    comp = deck_component(data, "card.svg.j2", None, (63.0, 88.0))
    written = []
    real = compose.num
    monkeypatch.setattr(compose, "num", lambda x: written.append(x) or real(x))
    compose._path.cache_clear()
    marks = 4 * len(layout.grid_of(comp, Options(paper="a4")).marks())
    one = layout.lay_out(comp, ["<svg/>"] * 9, None, Options(paper="a4"))
    once = len(written)
    three = layout.lay_out(comp, ["<svg/>"] * 27, None, Options(paper="a4"))
    assert len(one.pages) == 1 and len(three.pages) == 3
    assert once > marks > 0 and len(written) - once < marks      # two more sheets, no more marks
    assert all(page.overlay == one.pages[0].overlay for page in three.pages)


def test_a_page_key_reads_each_faces_place_as_given():
    """The text of a face's place in its page's key is worked out once per cell (the very tuples
    a grid passes on every sheet), yet places equal in value but written otherwise (an int, -0.0)
    still give their own key, as writing them out every time did."""
    from ludoteca.generator.compose import PageBuilder

    def key(place, clip, bleed=1.5):
        pb = PageBuilder((210.0, 297.0))
        pb.face("<svg/>", place, clip, bleed)
        pb.face("<svg/>", place, clip, bleed)        # the same objects again: from the memo
        return pb.page((0, 0, 1, 1), (0, 0, 1, 1), "p").key

    cell, clip = (10.0, 20.0, 63.0, 88.0), (9.0, 19.0, 65.0, 90.0)
    same = key(cell, clip)
    assert key(tuple(cell), tuple(clip)) == same
    assert key(cell, clip, 0) != key((10, 20.0, 63.0, 88.0), clip, 0)
    assert key(cell, clip) != key(cell, (9, 19.0, 65.0, 90.0))
    assert key(cell, (0.0, 19.0, 65.0, 90.0)) != key(cell, (-0.0, 19.0, 65.0, 90.0))

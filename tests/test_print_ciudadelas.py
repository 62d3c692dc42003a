"""The Ciudadelas print kit, read back from the PDFs: what is on the sheets, where, and how big.

One build per paper (the whole kit, shared with the other modules); the expected numbers come
from the card data.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from ludoteca.cards import load
from ludoteca.cli import main
from pdfmeasure import pdf_complaints, text_overflow, words

MM = 72 / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD = (63.0, 88.0)
TOL = 0.2


def _build(out: Path, *args: str) -> dict:
    assert main(["build", "ciudadelas", "--out", str(out), "-q", *args]) == 0
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def data():
    return load()["ciudadelas"]


@pytest.fixture(scope="module", params=sorted(PAPERS))
def kit(request, shared_kit):
    """The whole kit on one paper, built once for every test module that reads it."""
    out = shared_kit("--paper", request.param)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return request.param, out, {e["component"]: e for e in manifest["files"]
                                if e["game"] == "ciudadelas"}


@pytest.fixture(scope="module")
def kit_en_dark(tmp_path_factory, data):
    """English, with the Dark City districts switched on in a copy of the data."""
    cards = tmp_path_factory.mktemp("cards")
    shutil.copytree(Path(load().root) / "ciudadelas", cards / "ciudadelas")
    game_yaml = cards / "ciudadelas" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    new = re.sub(r"(dark_city:\n\s+enabled:) false", r"\1 true", text)
    assert new != text
    game_yaml.write_text(new, encoding="utf-8")
    out = tmp_path_factory.mktemp("ci-en")
    manifest = _build(out, "--lang", "en", "--cards", str(cards))
    return out, {e["component"]: e for e in manifest["files"] if e["game"] == "ciudadelas"}


@pytest.fixture(scope="module")
def kit_new_rules(tmp_path_factory):
    """Spanish, A4, from a copy of the data whose rule numbers were edited: game.yaml (starting
    gold, complete city, first-complete bonus) and characters.yaml (the Architect's builds)."""
    cards = tmp_path_factory.mktemp("cards-rules")
    shutil.copytree(Path(load().root) / "ciudadelas", cards / "ciudadelas")
    edits = {"game.yaml": [(r"\n  starting_gold: 2\n", "\n  starting_gold: 5\n"),
                           (r"\n  complete_city: 8\n", "\n  complete_city: 9\n"),
                           (r"\n    first_complete: 4\n", "\n    first_complete: 6\n")],
             "characters.yaml": [(r"\n    max_builds: 3\n", "\n    max_builds: 4\n")]}
    for name, subs in edits.items():
        path = cards / "ciudadelas" / name
        text = path.read_text(encoding="utf-8")
        for pattern, repl in subs:
            text, n = re.subn(pattern, repl, text)
            assert n == 1, (name, pattern)
        path.write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("ci-rules")
    manifest = _build(out, "--cards", str(cards))
    return out, {e["component"]: e for e in manifest["files"] if e["game"] == "ciudadelas"}


# ---------------------------------------------------------------- reading the PDFs back

def _text(pdf: Path) -> str:
    """The PDF's text with all white space folded to single spaces."""
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    return " ".join(out.split())


def _raw_text(pdf: Path) -> str:
    out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    return " ".join(out.split())


PX_PER_MM = 10                      # raster resolution for reading the crop marks (254 dpi)


def _runs(profile: list[int]) -> list[float]:
    """Centres (mm) of the runs of pixels that hold ink in a 1-D profile."""
    centres, start = [], None
    for i, ink in enumerate(profile + [0]):
        if ink and start is None:
            start = i
        elif not ink and start is not None:
            centres.append(round((start + i) / 2 / PX_PER_MM, 2))
            start = None
    return centres


def _strip(pdf: Path, x: int, y: int, w: int, h: int) -> list:
    """One grey raster per page of the region (x, y, w, h) in pixels from the top-left."""
    import tempfile
    from PIL import Image
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", str(round(PX_PER_MM * 25.4)), "-gray", "-x", str(x),
                        "-y", str(y), "-W", str(w), "-H", str(h), str(pdf), f"{tmp}/p"],
                       check=True, capture_output=True)
        return [Image.open(f).copy() for f in sorted(Path(tmp).glob("p-*.pgm"))]


def _page_boxes(pdf: Path) -> list[list[tuple[float, float, float, float]]]:
    """For every page, the trim boxes (x0, y0, x1, y1 in mm from the top-left) the crop marks cut.

    Read from the printed page: the page is rasterised in the margin strips outside the BleedBox
    (above it and left of it), where only crop marks may be; each mark is a run of dark pixels.
    """
    reader = pypdf.PdfReader(str(pdf))
    page_w = float(reader.pages[0].mediabox.width) / MM
    page_h = float(reader.pages[0].mediabox.height) / MM
    top = min(page_h - float(p.bleedbox[3]) / MM for p in reader.pages)
    left = min(float(p.bleedbox[0]) / MM for p in reader.pages)
    assert top > 1 and left > 1, "no margin for crop marks"
    th, lw = int((top - 0.3) * PX_PER_MM), int((left - 0.3) * PX_PER_MM)
    tops = _strip(pdf, 0, 0, int(page_w * PX_PER_MM), th)
    lefts = _strip(pdf, 0, 0, lw, int(page_h * PX_PER_MM))
    pages = []
    for t, left in zip(tops, lefts):
        tp, lp = t.load(), left.load()
        xs = _runs([int(any(tp[x, y] < 128 for y in range(t.height))) for x in range(t.width)])
        ys = _runs([int(any(lp[x, y] < 128 for x in range(left.width))) for y in range(left.height)])
        assert len(xs) % 2 == 0 and len(ys) % 2 == 0, (pdf.name, xs, ys)
        cols = list(zip(xs[0::2], xs[1::2]))
        rows = list(zip(ys[0::2], ys[1::2]))
        pages.append([(x0, y0, x1, y1) for y0, y1 in rows for x0, x1 in cols])
    assert len(pages) == len(reader.pages)
    return pages


def _words(pdf: Path, page_no: int) -> list[tuple[str, float, float]]:
    """(word, centre x, centre y) in mm from the top-left of one page (1-based)."""
    out = subprocess.run(["pdftotext", "-bbox", "-f", str(page_no), "-l", str(page_no), str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    words = []
    for m in re.finditer(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<', out):
        x0, y0, x1, y1 = (float(v) / MM for v in m.groups()[:4])
        words.append((m.group(5), (x0 + x1) / 2, (y0 + y1) / 2))
    return words


def _slots(pdf: Path, page_no: int, wanted: set[str], boxes) -> set[tuple[int, int]]:
    """The (col, row) of the trim boxes holding any of the ``wanted`` words."""
    xs = sorted({(b[0], b[2]) for b in boxes})
    ys = sorted({(b[1], b[3]) for b in boxes})
    found = set()
    for word, cx, cy in _words(pdf, page_no):
        if word.strip(".,;:") not in wanted:
            continue
        col = [i for i, (a, b) in enumerate(xs) if a <= cx <= b]
        row = [i for i, (a, b) in enumerate(ys) if a <= cy <= b]
        assert col and row, f"{word} at {cx:.1f},{cy:.1f} mm is outside every card"
        found.add((col[0], row[0]))
    return found


def _sizes_pt(pdf: Path) -> list[tuple[float, str]]:
    """The size in points of every piece of text, as drawn (font size times the text matrix)."""
    sizes = []

    def visit(text, cm, tm, _font, size):
        if not text.strip():
            return
        a = tm[0] * cm[0] + tm[1] * cm[2]
        b = tm[0] * cm[1] + tm[1] * cm[3]
        c = tm[2] * cm[0] + tm[3] * cm[2]
        d = tm[2] * cm[1] + tm[3] * cm[3]
        sizes.append((size * math.sqrt(abs(a * d - b * c)), text.strip()))

    for page in pypdf.PdfReader(str(pdf)).pages:
        page.extract_text(visitor_text=visit)
    return sizes


def _copies(data, kind: str) -> int:
    return sum(int(e["copies"]) for e in data.entries(kind))


# ---------------------------------------------------------------- the tests

def test_manifest_items_match_the_data(kit, data):
    paper, out, files = kit
    assert files["districts"]["items"] == _copies(data, "district") == 66
    assert files["characters"]["items"] == len(data.entries("character")) == 8
    assert files["crown"]["items"] == int(data.get("component", "crown")["copies"])
    assert files["reference"]["items"] == int(data.get("component", "reference_card")["copies"])
    assert files["score_pad"]["items"] == 1 and not files["score_pad"]["duplex"]
    assert "dark_city" not in files            # off in the data: not built
    for comp in ("districts", "characters", "crown", "reference"):
        entry = files[comp]
        assert entry["duplex"] and entry["item_size_mm"] == list(CARD)
        assert entry["page_size_mm"] == list(PAPERS[paper])
        sheets = -(-entry["items"] // 9)
        assert entry["pages"] == 2 * sheets
        reader = pypdf.PdfReader(str(out / entry["path"]))
        assert len(reader.pages) == entry["pages"]
        w, h = (float(v) / MM for v in reader.pages[0].mediabox[2:])
        assert abs(w - PAPERS[paper][0]) < TOL and abs(h - PAPERS[paper][1]) < TOL


def test_every_card_sheet_is_3x3_cards_of_63x88_mm(kit):
    paper, out, files = kit
    for comp in ("districts", "characters", "crown", "reference"):
        pdf = out / files[comp]["path"]
        reader = pypdf.PdfReader(str(pdf))
        for n, (page, boxes) in enumerate(zip(reader.pages, _page_boxes(pdf))):
            assert len(boxes) == 9, f"{comp} page {n + 1}: {len(boxes)} trim boxes"
            for x0, y0, x1, y1 in boxes:
                assert abs(x1 - x0 - CARD[0]) <= TOL and abs(y1 - y0 - CARD[1]) <= TOL
            # centred on the paper, and the PDF's TrimBox is the block of cards
            left = min(b[0] for b in boxes)
            right = PAPERS[paper][0] - max(b[2] for b in boxes)
            top = min(b[1] for b in boxes)
            bottom = PAPERS[paper][1] - max(b[3] for b in boxes)
            assert abs(left - right) <= TOL and abs(top - bottom) <= TOL
            tb = [float(v) / MM for v in page.trimbox]
            assert abs(tb[0] - left) <= TOL and abs(tb[2] - tb[0] - (PAPERS[paper][0] - left - right)) <= TOL


def test_backs_fall_behind_their_fronts(kit, data):
    """Long-edge duplex: the back of the card in column c is printed in column 2 - c, same row."""
    _paper, out, files = kit
    pdf = out / files["characters"]["path"]
    front_boxes, back_boxes = _page_boxes(pdf)[:2]
    names = {c["name"]["es"] for c in data.entries("character")}
    front = _slots(pdf, 1, names, front_boxes)
    back = _slots(pdf, 2, {"PERSONAJE"}, back_boxes)
    assert len(front) == 8 and (2, 2) not in front        # 8 cards, the last slot empty
    assert back == {(2 - col, row) for col, row in front}
    pdf = out / files["crown"]["path"]
    boxes = _page_boxes(pdf)
    crown = data.get("component", "crown")["name"]["es"].upper()
    assert _slots(pdf, 1, {crown}, boxes[0]) == {(0, 0)}
    assert _slots(pdf, 2, {crown}, boxes[1]) == {(2, 0)}


def test_names_are_text_with_their_accents(kit, data):
    _paper, out, files = kit
    # reading order, not layout: beside the scan marker a long name wraps onto two lines
    districts = _raw_text(out / files["districts"]["path"])
    assert "Catedral" in districts and "Patio de los Milagros" in districts
    assert "Señorío" in districts and "Puerta del Dragón" in districts and "Eclesiástico" in districts
    for d in data.entries("district"):           # each name once per copy
        found = re.findall(rf"(?<!\w){re.escape(d['name']['es'])}(?!\w)", districts)
        assert len(found) == d["copies"], d["id"]
    characters = _text(out / files["characters"]["path"])
    for c in data.entries("character"):
        assert c["name"]["es"] in characters
    assert "Ladrón" in characters
    reference = _raw_text(out / files["reference"]["path"])
    steps = data.get("component", "reference_card")["turn_summary"]
    plain_step = next(s["es"] for s in steps if "{" not in s["es"])
    assert " ".join(plain_step.split()) in reference
    assert "{" not in reference and "}" not in reference
    assert "Cathedral" not in districts


def test_no_text_under_6_pt(kit):
    """Every file's text; the rulebook's own text is read apart from its pictures (the setup
    picture draws the real cards small) by tests/test_rulebook.py."""
    _paper, out, files = kit
    for entry in files.values():
        if entry["component"].startswith("rulebook"):
            continue
        sizes = _sizes_pt(out / entry["path"])
        assert sizes, entry["path"]
        small = [s for s in sizes if s[0] < 6 - 0.01]
        assert not small, f"{entry['path']}: {small[:3]}"


def test_fonts_are_embedded(kit):
    _paper, out, files = kit
    for entry in files.values():
        listing = subprocess.run(["pdffonts", str(out / entry["path"])], capture_output=True,
                                 text=True, check=True).stdout.splitlines()[2:]
        assert listing and all(" yes " in line for line in listing), listing


def _no_text_leaves_its_face(out: Path, files: dict) -> None:
    """No word straddles a cut line read from the marks; every word lies inside the TrimBox."""
    wordy = {"characters", "districts", "reference", "score_pad"}
    assert wordy <= set(files)
    for component, entry in files.items():
        path = out / entry["path"]
        assert any(words(path).values()) or component not in wordy, component
        assert text_overflow(path) == [], component


def test_no_text_leaves_its_face(kit):
    _paper, out, files = kit
    _no_text_leaves_its_face(out, files)


def test_no_text_leaves_its_face_in_english_with_the_dark_city(kit_en_dark):
    """The English build with the Dark City's districts: the longest texts there are."""
    _no_text_leaves_its_face(*kit_en_dark)


def test_every_pdf_reads_clean_in_strict_mode(kit):
    """No duplicate resource keys or other faults pypdf refuses in strict mode (the duplex
    calibration sheet included)."""
    _paper, out, files = kit
    paths = [out / e["path"] for e in files.values()] + sorted(out.glob("*.pdf"))
    assert len(paths) > len(files)
    assert {p.name: pdf_complaints(p) for p in paths} == {p.name: [] for p in paths}


def test_score_pad_rows_come_from_the_data(kit, data):
    _paper, out, files = kit
    text = _text(out / files["score_pad"]["path"])
    bonuses = data.meta["bonuses"]
    for key in ("all_colours", "first_complete", "complete"):
        assert f"+{bonuses[key]}" in text
    assert "Ciudad Oscura" not in text
    players = data.meta["players"]["max"]
    assert " ".join(str(n) for n in range(1, players + 1)) in text


def test_english_and_dark_city(kit_en_dark, data):
    out, files = kit_en_dark
    districts = _raw_text(out / files["districts"]["path"])
    assert "Cathedral" in districts and "Haunted City" in districts and "Catedral" not in districts
    assert "Warlord" in _text(out / files["characters"]["path"])
    dark = files["dark_city"]
    assert dark["items"] == _copies(data, "dark_district") and dark["duplex"]
    text = _raw_text(out / dark["path"])
    for d in data.entries("dark_district"):
        assert d["name"]["en"] in text
    assert "Dark City" in _text(out / files["score_pad"]["path"])


def test_reference_card_numbers_follow_the_rules_data(kit, kit_new_rules):
    """The reference card's rule numbers are read from game.yaml and characters.yaml: editing
    them there changes the printed card (and the untouched numbers stay)."""
    _paper, out, files = kit
    before = _raw_text(out / files["reference"]["path"])
    new_out, new_files = kit_new_rules
    after = _raw_text(new_out / new_files["reference"]["path"])
    for old, new in (("Al empezar: 2 de oro", "Al empezar: 5 de oro"),
                     ("llega a 8 distritos", "llega a 9 distritos"),
                     ("+4 a la primera ciudad completa", "+6 a la primera ciudad completa"),
                     ("(el Arquitecto, hasta 3)", "(el Arquitecto, hasta 4)")):
        assert old in before and new not in before, old
        assert new in after and old not in after, new
    for same in ("+3 con los cinco colores", "+2 a las demás completas", "coge 2 de oro"):
        assert same in before and same in after, same
    assert "{" not in after


def test_an_unknown_rule_name_in_a_text_is_one_clear_error(tmp_path):
    cards = tmp_path / "cards"
    shutil.copytree(Path(load().root) / "ciudadelas", cards / "ciudadelas")
    path = cards / "ciudadelas" / "components.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("{complete_city} distritos") == 1
    path.write_text(text.replace("{complete_city} distritos", "{complete_cty} distritos"),
                    encoding="utf-8")
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "ludoteca", "build", "ciudadelas", "--out", str(out),
                          "--cards", str(cards)], capture_output=True, text=True)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    line_no = text[:text.index("{complete_city} distritos")].count("\n") + 1    # the step's "- es:" line
    assert f"components.yaml:{line_no}: component 'reference_card': turn_summary[" in lines[0]
    assert "{complete_cty}" in lines[0] and "closest: complete_city" in lines[0]
    assert not list(out.rglob("*.pdf"))

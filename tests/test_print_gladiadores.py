"""Gladiadores print kit: build it on A4 and on Letter and read the PDFs back.

One build per paper (the whole kit, shared with the other modules); every figure compared is
measured from the output (manifest, crop marks in the PDF content, text and its size) against the
card data.
"""

from __future__ import annotations

import io
import json
import math
import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from ludoteca.cards import load
from ludoteca.generator.model import Face, Options
from ludoteca.generator.templating import render
from pdfmeasure import hidden_words, pdf_complaints, read, text_overflow, words

PT = 25.4 / 72          # millimetres per PDF point
CARD = (63.0, 88.0)
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
DECKS = {"gladiators": "gladiator", "buildings": "building", "combat": "combat_card"}


@dataclass
class Kit:
    paper: str
    out: Path
    files: dict          # component id -> manifest entry


@pytest.fixture(scope="module")
def game():
    return load()["gladiadores"]


@pytest.fixture(scope="module", params=sorted(PAPERS))
def kit(request, shared_kit) -> Kit:
    """The whole kit on one paper, built once for every test module that reads it."""
    out = shared_kit("--paper", request.param)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    files = {e["component"]: e for e in manifest["files"] if e["game"] == "gladiadores"}
    return Kit(request.param, out, files)


def copies(game, kind: str) -> int:
    return sum(int(e.get("copies", 1)) for e in game.entries(kind))


def pdf_text(path: Path, first: int | None = None, last: int | None = None) -> str:
    cmd = ["pdftotext", "-enc", "UTF-8"]
    if first:
        cmd += ["-f", str(first), "-l", str(last or first)]
    return subprocess.run(cmd + [str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


def collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def sizes_between(cuts: list[float]) -> list[float]:
    """Consecutive cut lines pair up as the two edges of a column (or row) of faces."""
    assert len(cuts) % 2 == 0, cuts
    return [cuts[i + 1] - cuts[i] for i in range(0, len(cuts), 2)]


# ---------------------------------------------------------------- manifest
def test_manifest_counts_match_the_data(kit, game):
    for component, kind in DECKS.items():
        assert kit.files[component]["items"] == copies(game, kind), component
    assert copies(game, "gladiator") == 38 and copies(game, "building") == 32
    assert copies(game, "combat_card") == 30
    tokens = {p["component"]: p for p in kit.files["tokens"]["parts"]}
    assert sum(e["items"] for e in tokens.values()) == copies(game, "token") == kit.files["tokens"]["items"]
    for token in game.entries("token"):
        entry = next(e for c, e in tokens.items() if token["id"] in c)
        assert entry["item_size_mm"] == [token["size_mm"], token["size_mm"]]
    assert kit.files["tokens"]["sheets"] == 1
    for entry in kit.files.values():
        assert (kit.out / entry["path"]).is_file()
        assert len(PdfReader(kit.out / entry["path"]).pages) == entry["pages"]
        w, h = PAPERS[kit.paper]
        size = {"rulebook": [h / 2, w], "rulebook_booklet": [h, w]}.get(entry["component"], [w, h])
        assert entry["page_size_mm"] == pytest.approx(size, abs=0.01)


# ---------------------------------------------------------------- card geometry
@pytest.mark.parametrize("component", sorted(DECKS))
def test_cards_are_63_by_88_nine_per_page(kit, component):
    """Cut lines read from the crop marks (pdfmeasure follows the form XObjects the faces and
    marks are painted from): 3 x 3 cards of 63 x 88 mm on every page, the last one included."""
    path = kit.out / kit.files[component]["path"]
    pages = read(path)
    assert len(pages) == kit.files[component]["pages"]
    for n, page in enumerate(pages):
        assert page.size == pytest.approx(PAPERS[kit.paper], abs=0.05)
        xs, ys = page.cuts()
        assert len(xs) == 6 and len(ys) == 6, \
            f"page {n + 1}: 3 x 3 cut lines expected, {len(xs)} x {len(ys)} found"
        for width in sizes_between(xs):
            assert abs(width - CARD[0]) <= 0.2, f"page {n + 1}: card {width:.2f} mm wide"
        for height in sizes_between(ys):
            assert abs(height - CARD[1]) <= 0.2, f"page {n + 1}: card {height:.2f} mm high"
        marks = page.marks()
        for x in xs:       # a mark above and below the sheet on every vertical cut line
            ends = [s for s in marks if s.vertical and abs(s.x1 - x) < 0.01]
            assert any(max(s.y1, s.y2) < page.bleedbox[1] for s in ends), (n + 1, x)
            assert any(min(s.y1, s.y2) > page.bleedbox[3] for s in ends), (n + 1, x)
        for y in ys:
            ends = [s for s in marks if s.horizontal and abs(s.y1 - y) < 0.01]
            assert any(max(s.x1, s.x2) < page.bleedbox[0] for s in ends), (n + 1, y)
            assert any(min(s.x1, s.x2) > page.bleedbox[2] for s in ends), (n + 1, y)
        tx0, ty0, tx1, ty1 = page.trimbox
        assert (tx0, tx1) == pytest.approx((xs[0], xs[-1]), abs=0.1)
        assert (ty0, ty1) == pytest.approx((ys[0], ys[-1]), abs=0.1)


# ---------------------------------------------------------------- backs
def test_decks_have_a_back_page_behind_every_front_page(kit, game):
    for component, kind in DECKS.items():
        entry = kit.files[component]
        assert entry["duplex"] is True
        sheets = math.ceil(copies(game, kind) / 9)
        assert entry["pages"] == 2 * sheets, component


def _back_words(path: Path, pages: int) -> str:
    return " ".join(pdf_text(path, p) for p in range(2, pages + 1, 2))


def test_backs_tell_tiros_from_veterans_and_starting_buildings(kit, game):
    glad = kit.files["gladiators"]
    backs = _back_words(kit.out / glad["path"], glad["pages"])
    by_kind = {k: sum(int(e.get("copies", 1)) for e in game.entries("gladiator") if e["kind"] == k)
               for k in ("tiro", "veteran")}
    assert backs.count("TIRO") == by_kind["tiro"]
    assert backs.count("VETERANO") == by_kind["veteran"]
    blds = kit.files["buildings"]
    backs = _back_words(kit.out / blds["path"], blds["pages"])
    starting = sum(1 for e in game.entries("building") if e["starting"])
    assert backs.count("INICIAL") == starting
    assert backs.count("EDIFICIO") == copies(game, "building")
    comb = kit.files["combat"]
    assert _back_words(kit.out / comb["path"], comb["pages"]).count("COMBATE") == 30


def _lines(path: Path, page: int) -> list[tuple[str, float]]:
    """(text, centre x in mm) of every text line of a page, from pdftotext -bbox-layout."""
    xml = subprocess.run(["pdftotext", "-bbox-layout", "-f", str(page), "-l", str(page),
                          str(path), "-"], check=True, capture_output=True, text=True).stdout
    xml = re.sub(r"<!DOCTYPE[^>]*>", "", xml).replace('xmlns="http://www.w3.org/1999/xhtml"', "")
    out = []
    for line in ET.fromstring(xml).iter("line"):
        words = [w.text or "" for w in line.iter("word")]
        x = (float(line.get("xMin")) + float(line.get("xMax"))) / 2 * PT
        out.append((" ".join(words), x))
    return out


def test_backs_are_mirrored_behind_their_fronts(kit, game):
    """On the last, partial sheet of veterans each back lies behind its front (long-edge flip)."""
    entry = kit.files["gladiators"]
    path = kit.out / entry["path"]
    last_front = entry["pages"] - 1
    names = {e["name"]["es"] for e in game.entries("gladiator")}
    fronts = [x for text, x in _lines(path, last_front) if text in names]
    backs = [x for text, x in _lines(path, last_front + 1) if text in ("TIRO", "VETERANO")]
    left_over = copies(game, "gladiator") % 9 or 9
    assert len(backs) == left_over
    paper_w = PAPERS[kit.paper][0]
    # names that wrap are not whole lines: compare the backs with the columns they fill
    assert len(fronts) >= 1
    assert all(any(abs((paper_w - b) - f) < 1.0 for b in backs) for f in fronts)
    assert all(b > paper_w / 3 for b in backs)    # a partial sheet fills from the right on the back


# ---------------------------------------------------------------- text
def test_every_name_is_searchable_text(kit, game):
    for component, kind in DECKS.items():
        text = collapse(pdf_text(kit.out / kit.files[component]["path"]))
        for entry in game.entries(kind):
            name = entry["name"]["es"]
            assert name in text, f"{component}: {name!r} not found as text"
    aid = collapse(pdf_text(kit.out / kit.files["player_aid"]["path"]))
    for action in game.entries("action"):
        assert action["name"]["es"] in aid
    assert str(game.meta["target_points"]["standard"]) in aid


def test_no_text_under_6_pt(kit):
    """Every file's text; the rulebook's pictures (real cards drawn small in its setup picture)
    are left to tests/test_rulebook.py, which reads the book's own text apart from them."""
    smallest = {}
    for component, entry in kit.files.items():
        if entry["component"].startswith("rulebook"):
            continue
        sizes = []
        for page in PdfReader(kit.out / entry["path"]).pages:
            def visit(text, cm, tm, font, size, sizes=sizes):
                if text.strip():
                    scale = math.sqrt(abs(tm[0] * tm[3] - tm[1] * tm[2]))
                    scale *= math.sqrt(abs(cm[0] * cm[3] - cm[1] * cm[2]))
                    sizes.append(size * scale)
            page.extract_text(visitor_text=visit)
        if sizes:
            smallest[component] = min(sizes)
    assert set(DECKS) | {"player_aid", "score_pad"} <= set(smallest), smallest
    assert all(s >= 6 - 0.01 for s in smallest.values()), smallest


def test_fonts_are_embedded(kit):
    for entry in kit.files.values():
        out = subprocess.run(["pdffonts", str(kit.out / entry["path"])], check=True,
                             capture_output=True, text=True).stdout.splitlines()[2:]
        assert all(" yes " in line for line in out), entry["path"]
        if entry["component"] in DECKS:
            assert out, f"{entry['path']}: no fonts"


@pytest.fixture(scope="module")
def kit_en(shared_kit) -> Kit:
    """English on Letter: the other language's texts, the other paper's full-page pieces."""
    out = shared_kit("el_mapa", "gladiadores", "--paper", "letter", "--lang", "en")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return Kit("letter", out, {e["component"]: e for e in manifest["files"]
                               if e["game"] == "gladiadores"})


def _no_text_leaves_its_face(kit: Kit) -> None:
    """In every PDF no word straddles a cut line read from the marks and every word lies
    inside the TrimBox (pdfmeasure.text_overflow)."""
    wordy = set(DECKS) | {"player_aid", "score_pad", "tokens"}
    assert wordy <= set(kit.files)
    for component, entry in kit.files.items():
        path = kit.out / entry["path"]
        assert any(words(path).values()) or component not in wordy, component
        assert text_overflow(path) == [], component


def test_no_text_leaves_its_face(kit):
    _no_text_leaves_its_face(kit)


def test_no_english_text_leaves_its_face_on_letter(kit_en):
    _no_text_leaves_its_face(kit_en)


def test_every_pdf_reads_clean_in_strict_mode(kit):
    """No duplicate resource keys or other faults pypdf refuses in strict mode."""
    assert {c: pdf_complaints(kit.out / e["path"]) for c, e in kit.files.items()} == \
        {c: [] for c in kit.files}


# ---------------------------------------------------------------- faces (no PDF needed)
def _face(template: str, context: dict, lang="es", ink_saver=False) -> str:
    return render(Face(template, context, "probe"), CARD, 3.0, Options(lang=lang, ink_saver=ink_saver))


def test_english_build_picks_the_english_texts(game):
    from ludoteca.generator.games.gladiadores import building_context
    entry = game.get("building", "amphitheatrum")
    svg = _face("gladiadores/building.svg.j2", building_context(game, entry), lang="en")
    assert "Amphitheatre" in svg and "Anfiteatro" not in svg
    assert "Cannot be demolished" in svg


def test_ink_saver_drops_the_full_bleed_background(game):
    from ludoteca.generator.games.gladiadores import gladiator_context
    ctx = json.loads(json.dumps(gladiator_context(game, game.get("gladiator", "crixo"))))
    full = _face("gladiadores/gladiator.svg.j2", ctx)
    saver = _face("gladiadores/gladiator.svg.j2", ctx, ink_saver=True)
    bleed_rect = '<rect x="-3" y="-3"'
    assert bleed_rect in full and bleed_rect not in saver


def _emblem(svg: str) -> str:
    """The drawing in the building's medallion (its <g class="emblem"> group), as SVG text."""
    root = ET.fromstring(svg)
    group = next(g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "emblem")
    assert len(group), "empty emblem"
    return ET.tostring(group, encoding="unicode")


def test_buildings_are_drawn_by_what_they_do(game):
    """The medallion drawing follows the data: buildings whose first effect differs (kind, or
    stat for a stat bonus) get different drawings, the same one gets the same, and a building
    with no effect shows the laurel of its points."""
    from ludoteca.generator.games.gladiadores import building_context
    drawings: dict[str, str] = {}
    for entry in game.entries("building"):
        effects = entry.get("effects", [])
        what = (effects[0]["kind"], effects[0].get("stat")) if effects else ("points", None)
        drawings[entry["id"]] = (what, _emblem(_face("gladiadores/building.svg.j2",
                                                     building_context(game, entry))))
    by_what: dict = {}
    for what, svg in drawings.values():
        by_what.setdefault(what, set()).add(svg)
    assert all(len(svgs) == 1 for svgs in by_what.values()), by_what.keys()
    auction = {k for k in by_what if k[0].startswith("auction_")}
    rewards = {("fight_reward", None), ("defence_reward", None)}
    distinct = {next(iter(s)) for s in by_what.values()}
    # kinds that share one drawing on purpose: the auction ones (the auction spear) and the rewards
    assert len(distinct) == len(by_what) - (len(auction) - 1) - (len(rewards & set(by_what)) - 1)
    assert len(distinct) >= 12
    laurel = next(iter(by_what[("points", None)]))
    assert all(next(iter(s)) != laurel for what, s in by_what.items() if what[0] != "points")


def test_no_label_is_hidden_under_a_panel(kit):
    """Nothing is painted over a word of the buildings: the "Coste" label stays clear of the art
    panel (it ran under it on every card, with the scan marker in the top-left corner)."""
    assert hidden_words(kit.out / kit.files["buildings"]["path"]) == []


def _luminance(rgb: tuple[float, ...]) -> float:
    """WCAG relative luminance of an sRGB colour (0..255 channels)."""
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _pixels(png: bytes):
    """A PNG's pixels as an (h, w, 3) array of RGB values."""
    import cairocffi as cairo
    import numpy as np
    surface = cairo.ImageSurface.create_from_png(io.BytesIO(png))
    h, stride = surface.get_height(), surface.get_stride()
    data = np.frombuffer(bytes(surface.get_data()), dtype=np.uint8).reshape(h, stride // 4, 4)
    return data[:, :surface.get_width(), 2::-1].astype(float)          # stored as B, G, R, A


def _text_contrast(svg: str, shown: str) -> float:
    """WCAG contrast of the one <text> showing ``shown`` against what lies under it: the face is
    rendered with and without that text, and the pixels the text changes most are its glyphs."""
    import cairosvg
    texts = re.findall(rf"<text\b[^>]*>{re.escape(shown)}</text>", svg)
    assert len(texts) == 1, texts
    with_text, without = (_pixels(cairosvg.svg2png(bytestring=source.encode("utf-8"), dpi=150))
                          for source in (svg, svg.replace(texts[0], "")))
    diff = abs(with_text - without).sum(axis=2)
    glyph = diff >= 0.8 * diff.max()
    lo, hi = sorted(_luminance(tuple(img[glyph].mean(axis=0))) for img in (with_text, without))
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("ink_saver", [False, True])
def test_a_zero_points_value_reads_as_well_as_any_other(game, ink_saver):
    """A building worth 0 points shows its "0" on the laurel as clearly as a building worth
    points shows its number: at least 4.5:1 against what lies under it (it was grey on the dark
    band, 2.5:1)."""
    from ludoteca.generator.games.gladiadores import building_context
    zero = next(e for e in game.entries("building") if not e.get("points", 0) and e["cost"] != 0)
    some = next(e for e in game.entries("building") if e.get("points", 0) and e["cost"] != e["points"])
    for entry in (zero, some):
        svg = _face("gladiadores/building.svg.j2", building_context(game, entry), ink_saver=ink_saver)
        ratio = _text_contrast(svg, str(entry.get("points", 0)))
        assert ratio >= 4.5, f"{entry['id']}: {ratio:.1f}:1"

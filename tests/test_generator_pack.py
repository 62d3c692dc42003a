"""Tokens and counters packed on shared sheets (generator/pack.py), and the tokens themselves:
icon and value first, the scan marker a fifth of the width beside them.

Everything is computed in-process from the data and the rendered SVG (no PDF): the packing of
each game's tokens on A4 and Letter, the backs of two-sided pieces, and every token face.
"""

from __future__ import annotations

import functools
import importlib
import math
import re

import pytest

from ludoteca.cards import load, markers
from ludoteca.generator import templating
from ludoteca.generator.build import plan, render_faces
from ludoteca.generator.layout import grid_of
from ludoteca.generator.model import Options
from ludoteca.generator.pack import Item, order, pack, settings
from ludoteca.generator.sheets import paper_size

ICON_MM = 8.0            # the smallest icon on a token, mm
FIGURE_MM = 3.0          # the smallest height of a value's figures (read at arm's length)


@functools.cache
def tokens(game_id: str, paper: str = "a4", layout: str = "duplex"):
    game = load(games=(game_id,))[game_id]
    module = importlib.import_module(f"ludoteca.generator.games.{game_id}")
    return next(c for c in module.components(game, Options(paper=paper, layout=layout)) if c.id == "tokens")


def _items(comp, fold: bool = False) -> list[Item]:
    out = []
    for i in order(comp):
        p = comp.parts[i]
        out += [Item(*p.size_mm, p.round, fold and p.backs is not None)] * len(p.fronts)
    return out


def _apart(a: Item, ra, b: Item, rb, gap: float) -> bool:
    if a.round and b.round and not a.strip and not b.strip:
        d = math.hypot(ra[0] + ra[2] / 2 - rb[0] - rb[2] / 2, ra[1] + ra[3] / 2 - rb[1] - rb[3] / 2)
        return d >= ra[2] / 2 + rb[2] / 2 + gap - 0.01      # places are rounded to 0.001 mm
    return (ra[0] + ra[2] + gap <= rb[0] + 0.01 or rb[0] + rb[2] + gap <= ra[0] + 0.01
            or ra[1] + ra[3] + gap <= rb[1] + 0.01 or rb[1] + rb[3] + gap <= ra[1] + 0.01)


@pytest.mark.parametrize("game_id", ["el_mapa", "gladiadores"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tokens_share_sheets_apart_and_inside_the_margins(game_id, paper):
    """Every piece of a game on the packed sheets: no two nearer than the gap (discs by their
    circles), each inside the margins, on fewer sheets than one grid per size would take."""
    comp = tokens(game_id, paper)
    items = _items(comp)
    gap, margin = settings(3.0)
    pw, ph = paper_size(paper)
    spots = pack(items, (pw, ph), gap, margin)
    assert len(spots) == len(items) == sum(len(p.fronts) for p in comp.parts)
    for k, (item, spot) in enumerate(zip(items, spots)):
        x, y, w, h = spot.rect
        assert margin + gap / 2 - 1e-6 <= x and x + w <= pw - margin - gap / 2 + 1e-6
        assert margin + gap / 2 - 1e-6 <= y and y + h <= ph - margin - gap / 2 + 1e-6
        for other, there in zip(items[:k], spots[:k]):
            if there.page == spot.page:
                assert _apart(item, spot.rect, other, there.rect, gap), (k, spot, there)
    sheets = 1 + max(s.page for s in spots)
    grids = sum(-(-len(p.fronts) // grid_of(p, Options(paper=paper)).per_page) for p in comp.parts)
    assert sheets < grids
    assert sheets == {("el_mapa", "a4"): 6, ("el_mapa", "letter"): 6,
                      ("gladiadores", "a4"): 1, ("gladiadores", "letter"): 1}[game_id, paper]


def test_rows_of_one_size_of_discs_nest():
    """The third disc of a row that is full nests into the gap of the two above it."""
    spots = pack([Item(20, 20, True)] * 3, (70, 100), 3, 5)
    (x0, y0, *_), (x1, y1, *_), (x2, y2, *_) = (s.rect for s in spots)
    assert y0 == y1 and x2 == pytest.approx((x0 + x1) / 2)
    assert y2 - y0 == pytest.approx(23 * math.sqrt(3) / 2, abs=1e-3)


def test_a_piece_larger_than_the_paper_is_one_clear_error():
    from ludoteca.generator.model import GeneratorError
    with pytest.raises(GeneratorError, match=r"tokens: a piece of 90 x 90 mm does not fit on the paper \(80 x 80 mm\)"):
        pack([Item(90, 90)], (80, 80), 3, 5, "tokens")


def test_two_sided_backs_line_up_for_a_long_edge_flip():
    """Each back of a two-sided marker is at its front's place mirrored across the page's
    vertical middle; the other pieces have no back, and every sheet has a back page."""
    comp = tokens("el_mapa")
    laid = plan(comp, Options(), (str(templating.TEMPLATES),))
    pw = paper_size("a4")[0]
    two = {svg for p in comp.parts if p.backs is not None
           for svg in render_faces(p, p.fronts, Options(), (str(templating.TEMPLATES),))}
    assert len(laid.pages) == 2 * laid.sheets
    fronts, backs = laid.pages[0::2], laid.pages[1::2]
    placed = 0
    for front, back in zip(fronts, backs):
        front_places = [(x, y, w, h) for svg, (x, y, w, h), _clip in front.faces if svg in two]
        back_places = sorted((x, y, w, h) for _svg, (x, y, w, h), _clip in back.faces)
        assert back_places == sorted((pw - x - w, y, w, h) for x, y, w, h in front_places)
        placed += len(back_places)
    assert placed == sum(len(p.backs) for p in comp.parts if p.backs is not None) == 48


def test_fold_layout_puts_each_back_beside_its_front():
    comp = tokens("el_mapa", layout="fold")
    laid = plan(comp, Options(layout="fold"), (str(templating.TEMPLATES),))
    assert laid.folded and len(laid.pages) == laid.sheets
    page = laid.pages[0]
    rects = [full for _svg, full, _clip in page.faces]
    fronts = rects[0::2][:48]
    backs = rects[1::2][:48]
    for (x, y, w, _h), (bx, by, _bw, _bh) in zip(fronts, backs):
        assert (bx, by) == pytest.approx((x + w - 2 * 3.0, y))     # side by side (with bleed)


# ---------------------------------------------------------------- the token faces
def _faces(game_id: str, markers_on: bool = True):
    opts = Options(markers=markers_on)
    for part in tokens(game_id).parts:
        seen = {}
        for face in part.fronts:
            seen.setdefault(face.template + repr(sorted(face.context.items(), key=str)), face)
        faces = list(seen.values())
        for face, svg in zip(faces, render_faces(part, faces, opts, (str(templating.TEMPLATES),))):
            yield part, face, svg


def _icon_mm(svg: str, units: float) -> float:
    """The size of the largest icon drawn: our icon macros scale a drawing of ``units`` units."""
    scales = re.findall(r'<g transform="translate\([^)]*\) scale\(([\d.]+)\)"', svg)
    return max(float(v) for v in scales) * units


@pytest.mark.parametrize("game_id", ["el_mapa", "gladiadores"])
def test_tokens_show_icon_and_value_first(game_id):
    """On every round token and marker: an icon of at least 8 mm; where it has a value, the value
    in figures at least 3 mm tall; where the data gives a scan marker, one that with its white
    quiet zone covers at most a fifth of the disc, clear of the value.  ``--no-markers`` leaves the marker out."""
    kind = "el_mapa/counter" if game_id == "el_mapa" else "gladiadores/token"
    units = 100 if game_id == "el_mapa" else 10
    icons = values = marked = 0
    for part, face, svg in _faces(game_id):
        if not part.round:
            continue                            # square labels of 8 mm cubes, 36 mm obstacles
        w, ctx = part.size_mm[0], face.context
        assert _icon_mm(svg, units) >= ICON_MM - 1e-6, (face.name, _icon_mm(svg, units))
        icons += 1
        value = re.search(r'<text class="value" x="([\d.]+)" y="([\d.]+)" font-size="([\d.]+)"'
                          r'[^>]*>(\d+)<', svg)
        if ctx.get("value") is None and not ctx.get("points"):
            continue
        assert value is not None, face.name
        vx, vy, size = (float(v) for v in value.group(1, 2, 3))
        assert 0.73 * size >= FIGURE_MM, face.name                   # the figures' height
        values += 1
        if ctx.get("marker") is None:
            continue
        x, y, side = markers.place(kind, w, w)
        half, quiet = 0.32 * size * len(value.group(4)), markers.quiet(side)
        assert (side + 2 * quiet) ** 2 <= math.pi * (w / 2) ** 2 / 5 + 1e-9, (face.name, side)
        assert 'class="scan-marker"' in svg
        assert vx + half <= x - quiet or vy <= y - quiet, face.name  # beside it or above it
        marked += 1
    assert icons and values and marked
    assert all("scan-marker" not in svg for _p, _f, svg in _faces(game_id, markers_on=False))


def test_wood_stone_and_gold_differ_by_shape_not_only_colour():
    """The three resource icons, with every colour taken out, are three different drawings."""
    shapes = {}
    for _part, face, svg in _faces("el_mapa"):
        if face.context.get("icon") in ("moneda", "tronco", "bloque"):     # gold, wood, stone
            bare = re.sub(r'(fill|stroke)="[^"]*"', "", svg)
            bare = re.sub(r"<text.*?</text>|<g class=\"scan-marker\">.*?</g>", "", bare, flags=re.S)
            shapes.setdefault(face.context["icon"], set()).add(re.sub(r"[\d.]+", "#", bare))
    assert len(shapes) == 3
    assert len({frozenset(v) for v in shapes.values()}) == 3

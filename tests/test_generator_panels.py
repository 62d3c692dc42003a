"""Every label stays inside its panel, and clear of the cut, with the longest names there are.

Each face template of the three games is rendered (in-process, no PDF) with the longest name of
its kind in the data, in Spanish and in English, and with a made-up name as long as the name rule
allows (cards/names.py: ``MAX_NAME`` characters); the page-sized ones on A4 and on Letter.  Every
``<text>`` of the SVG is measured with the fonts the kit measures with (``fonts.text_width_mm``):
its box must lie inside the panel it is drawn on (the smallest rectangle drawn before it that holds
its anchor point), off every scan marker's white margin and, on a face that is cut out, at least
``SAFE_MM`` from the cut.
"""

from __future__ import annotations

import functools
import importlib
import math
import re
import xml.etree.ElementTree as ET

import pytest

from ludoteca.cards import load
from ludoteca.cards.names import MAX_NAME
from ludoteca.generator import templating
from ludoteca.generator.build import render_faces
from ludoteca.generator.fonts import text_width_mm
from ludoteca.generator.layout import face_size
from ludoteca.generator.model import Face, Options
from ludoteca.generator.units import pt_to_mm

GAMES = ("ciudadelas", "el_mapa", "gladiadores")
SAFE_MM = 3.0            # no text nearer the cut on a card, tile or board
TOL = 0.05
SVG = "{http://www.w3.org/2000/svg}"
ASCENT, DESCENT = 0.76, 0.24       # a line's extent above and below its baseline, in ems (figures: none below)

Box = tuple[float, float, float, float]          # x0, y0, x1, y1


def _matrix(transform: str | None) -> tuple[float, ...]:
    """The affine matrix (a, b, c, d, e, f) of an SVG transform list of translate/scale/matrix."""
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for name, args in re.findall(r"(\w+)\(([^)]*)\)", transform or ""):
        v = [float(x) for x in re.split(r"[\s,]+", args.strip()) if x]
        if name == "translate":
            n = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale":
            n = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "matrix":
            n = tuple(v)
        elif name == "rotate":
            r = math.radians(v[0])
            n = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
        else:
            raise AssertionError(f"transform {name} not measured")
        m = _mul(m, n)
    return m


def _mul(m, n):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


def _apply(m, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _mapped(m, box: Box) -> Box:
    xs, ys = zip(*(_apply(m, x, y) for x in (box[0], box[2]) for y in (box[1], box[3])))
    return min(xs), min(ys), max(xs), max(ys)


def layout(svg: str) -> tuple[list[tuple[int, Box, str]], list[tuple[int, Box]], list[Box], list[Box]]:
    """The texts (drawing order, box, words), the panels (drawing order, box), the frame
    lines (the outer edge of stroked rectangles drawn in the face's own coordinates) and the scan
    markers (their white margin) of a face, in face mm."""
    root = ET.fromstring(svg)
    texts: list[tuple[int, Box, str]] = []
    panels: list[tuple[int, Box]] = []
    frames: list[Box] = []
    marks: list[Box] = []
    top = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    order = 0

    clips = {c.get("id"): c.find(f"{SVG}rect") for c in root.iter(f"{SVG}clipPath")}

    def walk(node, m, rotated, art=False, clip: Box | None = None):
        nonlocal order
        m = _mul(m, _matrix(node.get("transform")))
        ref = re.fullmatch(r"url\(#([^)]+)\)", node.get("clip-path") or "")
        shape = clips.get(ref.group(1)) if ref else None
        if shape is not None:                        # what is drawn inside shows only in the clip
            x, y = float(shape.get("x", 0)), float(shape.get("y", 0))
            box = _mapped(m, (x, y, x + float(shape.get("width")), y + float(shape.get("height"))))
            clip = box if clip is None else (max(clip[0], box[0]), max(clip[1], box[1]),
                                             min(clip[2], box[2]), min(clip[3], box[3]))
        rotated = rotated or "rotate" in (node.get("transform") or "")
        art = art or node.get("class") == "art"      # a picture: its lines are drawing, not frame
        tag = node.tag.replace(SVG, "")
        order += 1
        if node.get("class") == "scan-marker":
            plate = node.find(f"{SVG}rect")
            x, y = float(plate.get("x", 0)), float(plate.get("y", 0))
            marks.append(_mapped(m, (x, y, x + float(plate.get("width")), y + float(plate.get("height")))))
            return
        if tag in ("defs", "clipPath", "mask"):
            return
        if tag == "rect" and not rotated:
            x, y = float(node.get("x", 0)), float(node.get("y", 0))
            w, h = float(node.get("width")), float(node.get("height"))
            box = _mapped(m, (x, y, x + w, y + h))
            if clip is not None:
                box = (max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3]))
            if w > 0 and h > 0 and box[2] > box[0] and box[3] > box[1] and node.get("fill", "black") != "none":
                panels.append((order, box))
            stroke = float(node.get("stroke-width", 1)) * abs(m[0])
            if node.get("stroke", "none") != "none" and stroke > 0 and m == top and not art:
                frames.append((box[0] - stroke / 2, box[1] - stroke / 2, box[2] + stroke / 2,
                               box[3] + stroke / 2))
        if tag == "circle" and node.get("stroke", "none") != "none" and m == top and not art:
            cx, cy, r = (float(node.get(k, 0)) for k in ("cx", "cy", "r"))
            stroke = float(node.get("stroke-width", 1))
            if stroke > 0:
                frames.append((cx - r - stroke / 2, cy - r - stroke / 2, cx + r + stroke / 2, cy + r + stroke / 2))
        if tag == "text" and not rotated:
            words = "".join(node.itertext()).strip()
            if words:
                size = float(node.get("font-size"))
                bold = node.get("font-weight") == "bold"
                width = text_width_mm(words, size / pt_to_mm(1), bold)
                x, y = float(node.get("x", 0)), float(node.get("y", 0))
                anchor = node.get("text-anchor", "start")
                x0 = x - (width / 2 if anchor == "middle" else width if anchor == "end" else 0)
                below = 0.0 if re.fullmatch(r"[\d\s+×xX−-]+", words) else DESCENT * size
                texts.append((order, _mapped(m, (x0, y - ASCENT * size, x0 + width, y + below)), words))
            return
        for child in node:
            walk(child, m, rotated, art, clip)

    for child in root:
        walk(child, top, False)
    return texts, panels, frames, marks


def _inside(inner: Box, outer: Box, tol: float = TOL) -> bool:
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


def problems(svg: str, size: tuple[float, float], safe: float | None,
             disc: float | None = None) -> list[str]:
    """Every text that leaves its panel, or comes nearer the cut than ``safe`` mm (None: a page
    item, not cut), or, on a round face, nearer the circle the face's square holds than ``disc`` mm."""
    texts, panels, frames, marks = layout(svg)
    w, h = size
    face = (0.0, 0.0, w, h)
    out = []
    for order, box, words in texts:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        holding = [p for o, p in panels if o < order and p[0] <= cx <= p[2] and p[1] <= cy <= p[3]
                   and not (p[0] <= -TOL and p[1] <= -TOL and p[2] >= w + TOL and p[3] >= h + TOL)]
        panel = min(holding, key=lambda p: (p[2] - p[0]) * (p[3] - p[1]), default=face)
        if not _inside(box, panel):
            out.append(f"{words[:40]!r} {_fmt(box)} leaves its panel {_fmt(panel)}")
        covered = [p for o, p in panels if o > order and _overlap(box, p) > TOL]
        if covered:
            out.append(f"{words[:40]!r} {_fmt(box)} is under a panel drawn after it {_fmt(covered[0])}")
        if safe is not None and not _inside(box, (safe, safe, w - safe, h - safe)):
            out.append(f"{words[:40]!r} {_fmt(box)} is within {safe:g} mm of the cut")
        elif disc is not None and max(math.hypot(x - w / 2, y - h / 2) for x in box[::2]
                                      for y in box[1::2]) > min(w, h) / 2 - disc + TOL:
            out.append(f"{words[:40]!r} {_fmt(box)} is within {disc:g} mm of the round cut")
        for mark in marks:          # a label on a scan marker's white margin spoils both
            if _overlap(box, mark) > TOL:
                out.append(f"{words[:40]!r} {_fmt(box)} lies on a scan marker {_fmt(mark)}")
    for i, (_, a, words_a) in enumerate(texts):     # two labels printed over each other
        for _, b, words_b in texts[i + 1:]:
            if _overlap(a, b) > TOL:
                out.append(f"{words_a[:40]!r} {_fmt(a)} and {words_b[:40]!r} {_fmt(b)} overlap")
    if safe is not None:
        for box in frames:              # a frame line near the cut shows a miscut as uneven borders
            near = [d for d in (box[0], box[1], w - box[2], h - box[3]) if -TOL < d < safe - TOL]
            if near:
                out.append(f"a frame line {_fmt(box)} {min(near):.1f} mm from the cut")
    return out


def _overlap(a: Box, b: Box) -> float:
    """How far two boxes overlap (the smaller of the overlaps along x and along y), mm."""
    return min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1]))


def _fmt(box: Box) -> str:
    return "(" + ", ".join(f"{v:.1f}" for v in box) + ")"


def synthetic(longest: str, length: int = MAX_NAME) -> str:
    """A name of ``length`` characters made of the words of a real one (so it wraps like a name).

    >>> synthetic("Gran Muralla", 20)
    'Gran Muralla Gran Mu'
    """
    words = (longest + " ") * (length // max(1, len(longest)) + 2)
    return words[:length]


@functools.cache
def _game(game_id: str):
    return load(games=(game_id,))[game_id]


@functools.cache
def _components(game_id: str, paper: str) -> tuple:
    """(component, whether it is a token: a part of a packed sheet) of a game."""
    module = importlib.import_module(f"ludoteca.generator.games.{game_id}")
    out = []
    for comp in module.components(_game(game_id), Options(paper=paper)):
        out += [(part, True) for part in comp.parts] if comp.layout == "pack" else [(comp, False)]
    return tuple(out)


def cases():
    """(id, component, one face per template, with its name made the longest) per game and paper."""
    out = []
    for game_id in GAMES:
        for paper in ("a4", "letter"):
            for comp, _token in _components(game_id, paper):
                if comp.layout == "page" or paper == "a4":
                    out.append(pytest.param(game_id, paper, comp.id, id=f"{game_id}-{comp.id}-{paper}"))
    return out


def _words(value, lang: str) -> int:
    """How many characters of displayed text in ``lang`` a face's context holds."""
    if isinstance(value, dict):
        if set(value) >= {"es", "en"} and isinstance(value.get(lang), str):
            return len(value[lang])
        return sum(_words(v, lang) for v in value.values())
    if isinstance(value, list):
        return sum(_words(v, lang) for v in value)
    return 0


def name_limit(game, name: dict) -> int:
    """The longest name the schema allows the entry named ``name`` (a kind's ``max_len``, else
    the name rule's ``MAX_NAME``)."""
    for kind, spec in game.schema["kinds"].items():
        field = spec.get("fields", {}).get("name")
        if isinstance(field, dict) and "max_len" in field and not spec.get("single") \
                and any(e.get("name") == name for e in game.entries(kind)):
            return int(field["max_len"])
    return MAX_NAME


def faces_to_try(comp, lang: str) -> list[Face]:
    """One face per template of the component: the one with the longest name in ``lang``, as it
    is and with a made-up name of the longest length the schema allows; the wordiest; and one of
    each variant (each set of context fields a face fills: a district with points, with an effect...)."""
    game = _game(comp.game)
    out = []
    for side in (comp.fronts, comp.backs or []):
        by_template: dict[str, Face] = {}
        for face in side:
            name = face.context.get("name")
            text = name.get(lang, "") if isinstance(name, dict) else str(name or "")
            best = by_template.get(face.template)
            best_name = (best.context.get("name") or {}) if best else {}
            best_text = best_name.get(lang, "") if isinstance(best_name, dict) else str(best_name)
            if best is None or len(text) > len(best_text):
                by_template[face.template] = face
        wordiest: dict[str, Face] = {}
        for face in side:
            best = wordiest.get(face.template)
            if best is None or _words(face.context, lang) > _words(best.context, lang):
                wordiest[face.template] = face
        for face in wordiest.values():
            if face not in by_template.values():
                out.append(face)
        variants: dict[tuple, Face] = {}       # one face of each variant: what it shows or not
        for face in side:
            shown = tuple(sorted(k for k, v in face.context.items() if v not in (None, False, "", [], {})))
            variants.setdefault((face.template, shown), face)
        for face in variants.values():
            if face not in out and face not in by_template.values():
                out.append(face)
        for face in by_template.values():
            out.append(face)
            name = face.context.get("name")
            if isinstance(name, dict) and name.get(lang):
                long_name = synthetic(name[lang], name_limit(game, name))
                out.append(Face(face.template, dict(face.context, name={"es": long_name, "en": long_name}),
                                face.name + "-longest"))
    return out


@pytest.mark.parametrize("game_id,paper,cid", cases())
def test_every_label_stays_in_its_panel(game_id, paper, cid):
    comp, token = next((c, t) for c, t in _components(game_id, paper) if c.id == cid)
    found = []
    for lang in ("es", "en"):
        opts = Options(lang=lang, paper=paper)
        size = face_size(comp, opts)
        safe = None if comp.layout == "page" else SAFE_MM
        faces = faces_to_try(comp, lang)
        for face, svg in zip(faces, render_faces(comp, faces, opts, (str(templating.TEMPLATES),))):
            disc = safe if comp.round else None
            found += [f"{lang} {face.name}: {p}" for p in problems(svg, size, safe, disc)]
    assert found == []

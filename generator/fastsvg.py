"""The SVG our own templates write, drawn straight with cairo (cairosvg draws anything else).

cairosvg reads any SVG: every element becomes a node carrying CSS rules, its attributes go
through regular expressions one by one, and its drawer is looked up per tag.  The faces the
templates write use a small part of SVG: ``svg``, ``g``, ``defs``, ``clipPath``, ``rect``,
``circle``, ``ellipse``, ``path``, ``polygon``, ``polyline`` and plain ``text`` (one run at one
point), with flat colours, opacities, strokes, dashes, transforms, clip paths, and linear
gradients filling a ``rect``.  :func:`record` draws an SVG made only of these into a cairo
recording surface with the cairo calls cairosvg makes for them, in the same order and from the
same numbers (its path reader and its attribute inheritance are followed step by step), so the
face looks the same and its texts stay text; it needs no cairosvg at all.  Anything else
(another element or attribute, a gradient on anything but a rect's fill, a colour that is not
``#rgb``/``#rrggbb``, a unit, a DTD, any error) makes it return None, and the caller lets
cairosvg draw that face: no face ever depends on this subset being complete.
tests/test_generator_fastsvg.py draws every template both ways and compares their pixels.
"""

from __future__ import annotations

import collections
import functools
import math
import operator
import re
from typing import TYPE_CHECKING, Any
from collections.abc import Iterator, Sequence

from . import binding, fasttext, svgroot
from .budget import parse_xml

if TYPE_CHECKING:
    from xml.etree import ElementTree

NS = "{http://www.w3.org/2000/svg}"
#: cairosvg's points per pixel (96 dpi) times the 16 the engine records at (see render.py).
DEVICE_PER_USER = 72 / 96 * 16

#: Attributes a child does not take from its parent (cairosvg's parser.NOT_INHERITED_ATTRIBUTES,
#: those of them this subset can meet).
NOT_INHERITED = frozenset(("clip-path", "height", "id", "opacity", "transform", "width", "x", "y",
                           "viewBox"))
#: Attributes any element of the subset may carry.
PAINT = frozenset(("fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity",
                   "stroke-linejoin", "stroke-linecap", "stroke-dasharray", "opacity",
                   "transform", "clip-path", "id", "class", "font-size", "font-weight",
                   "font-style", "font-family", "text-anchor"))
#: The elements of the subset and the attributes each may carry besides PAINT.
GEOMETRY = {
    "g": frozenset(), "defs": frozenset(), "clipPath": frozenset(),
    "rect": frozenset(("x", "y", "width", "height", "rx", "ry")),
    "circle": frozenset(("cx", "cy", "r")),
    "ellipse": frozenset(("cx", "cy", "rx", "ry")),
    "path": frozenset(("d",)),
    "polygon": frozenset(("points",)),
    "polyline": frozenset(("points",)),
    "text": frozenset(("x", "y")),
    "svg": frozenset(("x", "y", "width", "height", "viewBox", "text-rendering")),   # nested
}
#: Every attribute each element of the subset may carry.
ALLOWED = {tag: PAINT | own for tag, own in GEOMETRY.items()}
#: Definitions the subset reads (a linear gradient filling a rect) and their attributes.
DEFINITIONS = {"linearGradient": frozenset(("id", "x1", "y1", "x2", "y2")),
               "stop": frozenset(("offset", "stop-color", "stop-opacity"))}
ROOT = frozenset(("width", "height", "viewBox", "text-rendering")) | PAINT - {"transform", "clip-path", "opacity"}
#: Units of a length on the root (cairosvg's helpers.UNITS at 96 dpi).
UNITS = {"mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0, "pt": 96 / 72, "pc": 96 / 6, "px": 1.0}
#: Patterns a face of our templates seldom needs are left as text, compiled at their first use
#: (re's own cache): compiling each costs 20-80 us of every process that imports this module.
_NAMED = {"none": (0.0, 0.0, 0.0, 0.0), "transparent": (0.0, 0.0, 0.0, 0.0),
          "black": (0.0, 0.0, 0.0, 1.0), "white": (1.0, 1.0, 1.0, 1.0)}
_URL = r"url\(#([A-Za-z_][\w.:-]*)\)"
_PAINT_URL = r"url\(#([A-Za-z_][\w.:-]*)\) *(.*)"
_TRANSFORM = re.compile(r"(\w+) ?\( ?(.*?) ?\)")
_MINUS = re.compile("(?<!e)-")
_SEPARATORS = re.compile("[ \n\r\t,]+")
_DOTS = re.compile(r"(\.[0-9-]+)(?=\.)")
_NEWLINES = r"[\n\r]"
_SPACES = " +"


#: Faces parsed already in this process (a user's template's SVG is parsed to be checked, see
#: templating.render): SVG -> its root element, taken by the drawing instead of parsing it again.
#: The oldest are let go, so memory stays flat whatever is never drawn here (a pool draws it).
_PARSED: collections.OrderedDict[str, ElementTree.Element] = collections.OrderedDict()
PARSED_KEPT = 256


def parsed(svg: str, root: ElementTree.Element) -> None:
    """Remember that ``svg`` parses to ``root`` (its drawing here takes it, once)."""
    _PARSED[svg] = root
    _PARSED.move_to_end(svg)
    if len(_PARSED) > PARSED_KEPT:
        _PARSED.popitem(last=False)


class Unsupported(Exception):
    """The SVG holds something outside the subset: cairosvg draws it."""


def record(svg: str) -> tuple[Any, float, float] | None:
    """``svg`` drawn into a cairo recording surface: (surface, width, height) as the engine's
    cairosvg recording gives them, or None when it is not of the subset (or cannot be drawn)."""
    def recording(cairo: Any, w: float, h: float) -> Any:
        return cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, (0, 0, w, h))
    return _draw(svg, recording, DEVICE_PER_USER)


def pdf(svg: str) -> bytes | None:
    """``svg`` as a one-page vector PDF, as ``cairosvg.svg2pdf`` writes it (a page of its size
    in points, drawn at 96 dpi), or None when it is not of the subset (or cannot be drawn)."""
    import io
    out = io.BytesIO()

    def page(cairo: Any, w: float, h: float) -> Any:
        return cairo.PDFSurface(out, w, h)
    drawn = _draw(svg, page, 72 / 96)
    if drawn is None:
        return None
    drawn[0].finish()
    return out.getvalue()


#: A face placed in a picture: (its SVG, x, y, width, height in the picture's units, degrees it
#: is turned about its centre).
Placed = tuple[str, float, float, float, float, float]


def pdf_placed(svg: str, faces: Sequence[Placed]) -> bytes | None:
    """:func:`pdf` of ``svg`` with ``faces`` drawn over it, in order, as the same SVG with each
    face nested at its place (an ``svg`` at x, y of that size, in a ``g`` turned about its centre)
    would draw them; but a face placed several times (a stack of cards) is drawn once, into a
    recording painted at each place.  None when any of it is not of the subset.  (Cairo lists a
    recording painted several times as often in the page's resources: see
    :func:`.render.dedupe_resources`.)"""
    import io
    out = io.BytesIO()
    try:
        if "<!" in svg or "<?xml-stylesheet" in svg:
            raise Unsupported("DTD, entity or comment")
        cairo = binding.load()
        drawer = _Drawer(cairo)
        surface, _w, _h = drawer.root(parse_xml(svg), lambda c, w, h: c.PDFSurface(out, w, h), 72 / 96)
        ctx = drawer.ctx                    # left in the picture's units, clipped to its viewport
        recordings: dict[str, tuple[Any, float, float]] = {}
        rendering = _rendering(svg)
        for face, x, y, w, h, degrees in faces:
            if face not in recordings:
                if _rendering(face) != rendering:     # as a nested svg: see _Drawer.nested
                    raise Unsupported("text-rendering")
                drawn = record(face)
                if drawn is None:
                    raise Unsupported("face")
                recordings[face] = drawn
            rec, rw, rh = recordings[face]
            ctx.save()
            if degrees:
                ctx.translate(x + w / 2, y + h / 2)
                ctx.rotate(math.radians(degrees))
                ctx.translate(-(x + w / 2), -(y + h / 2))
            ctx.translate(x, y)
            ctx.scale(w / rw, h / rh)
            ctx.set_source_surface(rec, 0, 0)
            ctx.paint()
            ctx.restore()
        surface.finish()
    except Exception:  # anything this reader does not know, or cannot do: cairosvg's turn
        return None
    return out.getvalue()


_RENDERING = r'\btext-rendering="([^"]*)"'


def _rendering(svg: str) -> str | None:
    """The ``text-rendering`` of an SVG's root element (None without one)."""
    tag = re.search(svgroot.ROOT, svg)
    found = re.search(_RENDERING, tag.group()) if tag else None
    return found.group(1) if found else None


def _draw(svg: str, surface: Any, scale: float) -> tuple[Any, float, float] | None:
    """``svg`` drawn into ``surface(cairo, width, height)`` at ``scale`` device units per pixel;
    None when it is not of the subset."""
    try:
        return _draw_or_raise(svg, surface, scale)
    except Exception:  # anything this reader does not know, or cannot do: cairosvg's turn
        return None


def _draw_or_raise(svg: str, surface: Any, scale: float) -> tuple[Any, float, float]:
    """:func:`_draw`, raising (:class:`Unsupported` or any other error) where it gives None."""
    if "<!" in svg or "<?xml-stylesheet" in svg:   # DTDs, entities, comments: cairosvg's to read
        raise Unsupported("DTD, entity or comment")
    root = _PARSED.pop(svg, None)
    if root is None:
        root = parse_xml(svg)
    return _Drawer(binding.load()).root(root, surface, scale)


def draw_into(ctx: Any, svg: str, place: Any) -> None:
    """``svg`` drawn straight into the context ``ctx`` (a page being drawn), no recording in
    between: ``place(width, height)`` (its size in pixels) sets the transform from its pixels to
    the page first.  The same cairo calls as :func:`record` makes, so the same drawing; it
    raises where :func:`record` gives None, and may have drawn part of the face by then (the
    caller draws the page again another way)."""
    def into(_cairo: Any, w: float, h: float) -> Any:
        place(w, h)
        return ctx
    _draw_or_raise(svg, into, 1.0)


def normalize(string: str) -> str:
    """cairosvg's helpers.normalize: numbers in a list separated by single spaces."""
    string = string.replace("E", "e")
    string = _MINUS.sub(" -", string)
    string = _SEPARATORS.sub(" ", string)
    string = _DOTS.sub(r"\1 ", string)
    return string.strip()


def number(string: str | None) -> float:
    """A plain number (cairosvg's size() of a unitless value; empty is 0)."""
    if not string:
        return 0.0
    return float(string)


def length(string: str) -> float:
    """A root length with a unit, in pixels (96 dpi)."""
    try:
        return float(string)
    except ValueError:                    # digits, '.', 'e', '+' or '-', then a unit of UNITS
        text = string.strip()
        value, unit = text[:-2], text[-2:]
        if unit not in UNITS or not value or value.strip("0123456789.eE+-"):
            raise Unsupported(string) from None
        return float(value) * UNITS[unit]


@functools.lru_cache(maxsize=1024)
def color(string: str | None, opacity: float = 1.0) -> tuple[float, float, float, float]:
    """cairosvg's colors.color for flat colours written as #rrggbb, #rgb, or a few names (a
    face's few colours are read once)."""
    if not string:
        return (0.0, 0.0, 0.0, 0.0)
    string = string.strip().lower()
    named = _NAMED.get(string)
    if named is not None:
        return named[:3] + (named[3] * opacity,)
    hex_digits = string[:1] == "#" and not string[1:].strip("0123456789abcdef")   # #rrggbb, #rgb
    if hex_digits and len(string) == 7:
        return (int(string[1:3], 16) / 255, int(string[3:5], 16) / 255, int(string[5:7], 16) / 255,
                opacity)
    if hex_digits and len(string) == 4:
        return (int(string[1], 16) / 15, int(string[2], 16) / 15, int(string[3], 16) / 15, opacity)
    raise Unsupported(string)


def paint_color(value: str | None) -> str | None:
    """The colour of a fill or stroke value (cairosvg's helpers.paint): after a url(), the
    colour given for when it cannot be used, if any."""
    if not value:
        return None
    value = value.strip()
    if "url(" in value:
        match = re.fullmatch(_PAINT_URL, value)
        if not match:
            raise Unsupported(value)
        return match.group(2) or None
    return value or None


@functools.lru_cache(maxsize=1024)
def _paint(value: str | None, opacity: float) -> tuple[float, float, float, float]:
    """The colour a fill or stroke value paints (:func:`paint_color`, then :func:`color`)."""
    return color(paint_color(value), opacity)


def fraction(string: str | None, default: str) -> float:
    """A gradient coordinate or stop offset: a number, or a percentage of 1 (cairosvg's size()
    with a reference of 1)."""
    string = (string if string is not None else default).strip()
    if string.endswith("%"):
        return float(string[:-1]) / 100
    return number(string)


def whitespace(text: str | None) -> str:
    """cairosvg's handling of a text's white space (not preserved, no children)."""
    if not text:
        return ""
    if "\n" in text or "\r" in text or "\t" in text or "  " in text:   # a template's are seldom so
        text = re.sub(_NEWLINES, "", text).replace("\t", " ")
        text = re.sub(_SPACES, " ", text)
    return text.strip(" ")


class _Drawer:
    """One SVG drawn: the context, the clip paths by id."""

    def __init__(self, cairo: Any):
        self.cairo = cairo
        self.lib = cairo.cairo          # cairo's functions, called directly: no status check
        self.ctx: Any = None            # per call; the context's status is checked at the end
        self.p: Any = None
        self.clips: dict[str, Any] = {}
        self.gradients: dict[str, Any] = {}
        self.rendering = ""             # the root's text-rendering (font options are set once)
        self.matrix = cairo.ffi.new("cairo_matrix_t *")     # the current one, read into it
        self.extents = cairo.ffi.new("cairo_text_extents_t *")    # a text's, read into it

    def root(self, root: ElementTree.Element, make: Any, scale: float) -> tuple[Any, float, float]:
        """The document: its surface made by ``make(cairo, width, height)``, in device units at
        ``scale`` per pixel, its viewport set as cairosvg sets it; then every element."""
        cairo = self.cairo
        if root.tag != NS + "svg":
            raise Unsupported(root.tag)
        width, height, box, rendering, inherited = _root_plan(tuple(root.items()))
        tags = set(map(_TAG, root.iter()))
        if not _KNOWN_TAGS.issuperset(tags):   # a style sheet, a pattern, ... anywhere: not ours
            raise Unsupported(str(tags - _KNOWN_TAGS))
        if NS + "clipPath" in tags:
            self.clips = {el.attrib["id"]: el for el in root.iter(NS + "clipPath") if "id" in el.attrib}
        if NS + "linearGradient" in tags:
            self.gradients = {el.attrib["id"]: el for el in root.iter(NS + "linearGradient") if "id" in el.attrib}
        w, h = width * scale, height * scale
        surface = make(cairo, w, h)
        # a context given (draw_into) is drawn in as it is; a surface gets a context of its own
        ctx = self.ctx = surface if isinstance(surface, cairo.Context) else cairo.Context(surface)
        p = self.p = ctx._pointer
        lib = self.lib
        lib.cairo_scale(p, scale, scale)
        self.viewport(width, height, box)
        lib.cairo_set_miter_limit(p, 4)
        self.rendering = rendering
        lib.cairo_set_font_options(p, _font_options(cairo, rendering)._pointer)
        for child in root:
            self.node(child, inherited)
        if lib.cairo_status(p):
            raise Unsupported("cairo: " + str(lib.cairo_status(p)))
        return surface, w, h

    def viewport(self, width: float, height: float, box: tuple[float, ...]) -> None:
        """A viewport of ``width`` x ``height`` showing ``box`` (cairosvg's set_context_size and
        preserve_ratio, xMidYMid meet), clipped to it."""
        c, p = self.lib, self.p
        scale_x = width / box[2] if box[2] > 0 else 1
        scale_y = height / box[3] if box[3] > 0 else 1
        scale = min(scale_x, scale_y)
        translate_x = (width / scale - box[2]) / 2
        translate_y = (height / scale - box[3]) / 2
        rect_x, rect_y = box[0] * scale, box[1] * scale
        c.cairo_translate(p, -rect_x, -rect_y)
        c.cairo_rectangle(p, rect_x, rect_y, width, height)
        c.cairo_clip(p)
        c.cairo_scale(p, scale, scale)
        c.cairo_translate(p, translate_x, translate_y)

    def nested(self, own: dict[str, str]) -> None:
        """An ``svg`` inside the document: a viewport at its x, y (cairosvg's svg())."""
        if own.get("text-rendering", self.rendering) != self.rendering or "clip-path" in own:
            raise Unsupported("nested svg")   # (cairosvg places a clipped one at 0, 0)
        width, height = float(own["width"]), float(own["height"])
        viewbox = own.get("viewBox")
        box = tuple(float(v) for v in _SEPARATORS.sub(" ", viewbox).split()) if viewbox else (0, 0, width, height)
        if len(box) != 4:
            raise Unsupported("viewBox")
        self.lib.cairo_translate(self.p, number(own.get("x")), number(own.get("y")))
        self.viewport(width, height, box)

    def node(self, element: ElementTree.Element, inherited: _Inherited, paint: bool = True) -> None:
        """One element and its children, as cairosvg's Surface.draw does it (``paint`` False:
        only its outline is added to the path, as inside a clip path).  What its attributes ask
        for is worked out once (:func:`_plan`) for all the elements that carry the same."""
        own = element.attrib
        children = len(element) > 0
        key = (element.tag, tuple(own.items()), inherited.key, paint, children)
        plan = _PLANS.get(key)
        if plan is None:
            plan = _plan(element.tag, own, inherited, paint, children)
            _PLANS[key] = plan
            if len(_PLANS) > PLANS_KEPT:
                del _PLANS[next(iter(_PLANS))]
        if plan is _SKIP:
            return
        c, p = self.lib, self.p
        c.cairo_save(p)
        if plan.transform:
            self.transform(plan.transform)
        if plan.group:
            c.cairo_push_group(p)
        if plan.cap is not None:
            c.cairo_set_line_cap(p, plan.cap)
        if plan.join is not None:
            c.cairo_set_line_join(p, plan.join)
        if plan.dashes:
            self.ctx.set_dash(plan.dashes, 0)
        if plan.clip is not None:
            target = self.clips.get(plan.clip)
            if target is not None:
                c.cairo_save(p)
                self.clip(target)
                c.cairo_restore(p)
                c.cairo_clip(p)
        c.cairo_move_to(p, plan.x, plan.y)
        tag, attrs, shape = plan.tag, plan.attrs, plan.shape
        if tag == "svg":
            self.nested(own)
        if shape is not None:
            if plan.outline is not None:
                self.outline(plan.outline, shape, attrs)
            else:
                shape(self, attrs)
        if plan.paints:
            if tag == "text":
                self.text(element, plan)
                c.cairo_new_path(p)
            elif shape is not None:
                # cairo draws nothing with a clear source: such a fill or stroke is not asked for
                fill, fill_opacity = plan.fill, plan.fill_opacity
                if plan.fill_url and self.gradient(tag, attrs, fill, fill_opacity):
                    c.cairo_fill_preserve(p)
                else:
                    rgba = plan.fill_rgba or _paint(fill, fill_opacity)
                    if rgba[3]:
                        c.cairo_set_source_rgba(p, *rgba)
                        c.cairo_fill_preserve(p)
                rgba = plan.stroke_rgba
                if rgba[3]:
                    c.cairo_set_line_width(p, plan.stroke_width)
                    c.cairo_set_source_rgba(p, *rgba)
                    c.cairo_stroke(p)
                else:
                    c.cairo_new_path(p)
        if plan.child is not None:
            for child in element:
                self.node(child, plan.child, paint)
        if plan.group:
            c.cairo_pop_group_to_source(p)
            c.cairo_paint_with_alpha(p, plan.opacity)
        c.cairo_restore(p)

    def outline(self, kept: dict[tuple, Any], shape: Any, attrs: dict[str, str]) -> None:
        """A painted shape's outline, made by ``shape`` the first time its plan is drawn at this
        scale and turn, then appended from cairo's copy of it, ``kept`` by the plan (one call
        instead of a dozen: the path of a plan depends on nothing else, see :func:`_plan`)."""
        c, p, m = self.lib, self.p, self.matrix
        c.cairo_get_matrix(p, m)
        linear = (m.xx, m.yx, m.xy, m.yy)
        found = kept.get(linear)
        if found is not None:
            c.cairo_append_path(p, found)
            return
        shape(self, attrs)
        path = c.cairo_copy_path(p)
        if path.status == 0:
            if len(kept) >= OUTLINES_KEPT:
                kept.clear()
            kept[linear] = self.cairo.ffi.gc(path, c.cairo_path_destroy)
        else:
            c.cairo_path_destroy(path)

    def gradient(self, tag: str, a: dict[str, str], fill: str, opacity: float) -> bool:
        """A linear gradient as the source, as cairosvg's draw_gradient sets it (in the rect's
        bounding box); False when it draws none (no such gradient, an empty box)."""
        match = re.fullmatch(_PAINT_URL, fill.strip())
        if not match:
            raise Unsupported(fill)
        node = self.gradients.get(match.group(1))
        if node is None:
            return False
        if tag != "rect":                   # the bounding box of other shapes: cairosvg's
            raise Unsupported("gradient on " + tag)
        for element in [node, *node]:
            allowed = DEFINITIONS.get(element.tag[len(NS):])
            if allowed is None or any(k not in allowed for k in element.attrib):
                raise Unsupported("gradient")
        x, y = number(a.get("x")), number(a.get("y"))
        width, height = number(a.get("width")), number(a.get("height"))
        if not all(map(math.isfinite, (x, y, width, height))) or width == 0 or height == 0:
            return False
        cairo = self.cairo
        gradient = cairo.LinearGradient(fraction(node.get("x1"), "0%"), fraction(node.get("y1"), "0%"),
                                        fraction(node.get("x2"), "100%"), fraction(node.get("y2"), "0%"))
        gradient.set_matrix(cairo.Matrix(1 / width, 0, 0, 1 / height, -x / width, -y / height))
        offset = 0.0
        for stop in node:
            offset = max(offset, fraction(stop.get("offset"), ""))
            gradient.add_color_stop_rgba(offset, *color(stop.get("stop-color", "black"),
                                                        float(stop.get("stop-opacity", 1)) * opacity))
        gradient.set_extend(cairo.EXTEND_PAD)
        self.ctx.set_source(gradient)
        return True

    def clip(self, target: ElementTree.Element) -> None:
        """A clip path's outline added to the path (cairosvg draws it as a ``g``, unpainted)."""
        own = target.attrib
        for key in own:
            if key not in PAINT:
                raise Unsupported(key)
        if "clip-path" in own or "opacity" in own:
            raise Unsupported("clip of a clip")
        _check_values(own)
        c, p = self.lib, self.p
        c.cairo_save(p)
        if own.get("transform"):
            self.transform(own["transform"])
        inherited = _Inherited(own)
        for child in target:
            self.node(child, inherited, paint=False)
        c.cairo_restore(p)

    def transform(self, string: str) -> None:
        """cairosvg's helpers.transform, applied to the context one step at a time."""
        c, p, cairo = self.lib, self.p, self.cairo
        for kind, steps in _transforms(string):
            values = list(steps)
            if kind == "matrix":
                self.ctx.transform(cairo.Matrix(*values))
            elif kind == "rotate":
                angle = math.radians(values.pop(0))
                x, y = values or (0, 0)
                c.cairo_translate(p, x, y)
                c.cairo_rotate(p, angle)
                c.cairo_translate(p, -x, -y)
            elif kind == "skewX":
                self.ctx.transform(cairo.Matrix(1, 0, math.tan(math.radians(values[0])), 1, 0, 0))
            elif kind == "skewY":
                self.ctx.transform(cairo.Matrix(1, math.tan(math.radians(values[0])), 0, 1, 0, 0))
            elif kind == "translate":
                if len(values) == 1:
                    values.append(0)
                c.cairo_translate(p, *values[:2])
            elif kind == "scale":
                if len(values) == 1:
                    values = 2 * values
                c.cairo_scale(p, *values[:2])

    # shapes: the path of each element, as cairosvg's shapes.py and path.py build them

    def shape_rect(self, a: dict[str, str]) -> None:
        c, p = self.lib, self.p
        x, y = number(a.get("x")), number(a.get("y"))
        width, height = number(a.get("width")), number(a.get("height"))
        rx, ry = a.get("rx"), a.get("ry")
        if rx and ry is None:
            ry = rx
        elif ry and rx is None:
            rx = ry
        rx_, ry_ = number(rx), number(ry)
        if rx_ == 0 or ry_ == 0:
            c.cairo_rectangle(p, x, y, width, height)
            return
        rx_, ry_ = min(rx_, width / 2), min(ry_, height / 2)
        k = 4 * (2 ** .5 - 1) / 3
        c1, c2 = k * rx_, k * ry_
        c.cairo_new_path(p)
        c.cairo_move_to(p, x + rx_, y)
        c.cairo_rel_line_to(p, width - 2 * rx_, 0)
        c.cairo_rel_curve_to(p, c1, 0, rx_, c2, rx_, ry_)
        c.cairo_rel_line_to(p, 0, height - 2 * ry_)
        c.cairo_rel_curve_to(p, 0, c2, c1 - rx_, ry_, -rx_, ry_)
        c.cairo_rel_line_to(p, -width + 2 * rx_, 0)
        c.cairo_rel_curve_to(p, -c1, 0, -rx_, -c2, -rx_, -ry_)
        c.cairo_rel_line_to(p, 0, -height + 2 * ry_)
        c.cairo_rel_curve_to(p, 0, -c2, rx_ - c1, -ry_, rx_, -ry_)
        c.cairo_close_path(p)

    def shape_circle(self, a: dict[str, str]) -> None:
        r = number(a.get("r"))
        if not r:
            return
        c, p = self.lib, self.p
        c.cairo_new_sub_path(p)
        c.cairo_arc(p, number(a.get("cx")), number(a.get("cy")), r, 0, 2 * math.pi)
        c.cairo_close_path(p)

    def shape_ellipse(self, a: dict[str, str]) -> None:
        rx, ry = number(a.get("rx")), number(a.get("ry"))
        if not rx or not ry:
            return
        c, p = self.lib, self.p
        ratio = ry / rx
        c.cairo_new_sub_path(p)
        c.cairo_save(p)
        c.cairo_scale(p, 1, ratio)
        c.cairo_arc(p, number(a.get("cx")), number(a.get("cy")) / ratio, rx, 0, 2 * math.pi)
        c.cairo_close_path(p)
        c.cairo_restore(p)

    def shape_polyline(self, a: dict[str, str], close: bool = False) -> None:
        points = normalize(a.get("points", ""))
        if not points:
            return
        values = [float(v) for v in points.split(" ")]
        if len(values) % 2:
            raise Unsupported("odd points")
        c, p = self.lib, self.p
        c.cairo_move_to(p, values[0], values[1])
        for i in range(2, len(values), 2):
            c.cairo_line_to(p, values[i], values[i + 1])
        if close:
            c.cairo_close_path(p)

    def shape_polygon(self, a: dict[str, str]) -> None:
        self.shape_polyline(a, close=True)

    def shape_path(self, a: dict[str, str]) -> None:
        """A path's outline in absolute cairo calls: each command read with its numbers
        (:func:`path_commands`), relative points made absolute, smooth curves reflecting the last
        control point, quadratic curves raised to cubic, arcs by :meth:`arc`."""
        c, p = self.lib, self.p
        if self.ctx.has_current_point():
            x, y = self.ctx.get_current_point()
        else:
            x = y = 0.0
            c.cairo_move_to(p, 0, 0)
        start = (x, y)
        drawn = False          # a drawing command since the subpath began: z closes only then
        cubic = quad = None    # the last curve's second control point, for S/s and T/t
        for letter, v in _path(a.get("d", "")):
            kind, rel = letter.lower(), letter.islower()
            dx, dy = (x, y) if rel else (0.0, 0.0)
            control = None
            if kind == "z":
                if drawn:
                    c.cairo_close_path(p)
                    x, y = start
                drawn = False
                cubic = quad = None
                continue
            if kind == "m":
                x, y = v[0] + dx, v[1] + dy
                c.cairo_move_to(p, x, y)
                start, drawn = (x, y), False
                cubic = quad = None
                continue
            if kind in "lhv":
                if kind == "h":
                    x = v[0] + dx
                elif kind == "v":
                    y = v[0] + dy
                else:
                    x, y = v[0] + dx, v[1] + dy
                c.cairo_line_to(p, x, y)
            elif kind in "cs":
                if kind == "c":
                    first = (v[0] + dx, v[1] + dy)
                    v = v[2:]
                else:
                    first = (2 * x - cubic[0], 2 * y - cubic[1]) if cubic else (x, y)
                control = (v[0] + dx, v[1] + dy)
                x, y = v[2] + dx, v[3] + dy
                c.cairo_curve_to(p, *first, *control, x, y)
            elif kind in "qt":
                if kind == "q":
                    q = (v[0] + dx, v[1] + dy)
                    v = v[2:]
                else:
                    q = (2 * x - quad[0], 2 * y - quad[1]) if quad else (x, y)
                end = (v[0] + dx, v[1] + dy)
                c.cairo_curve_to(p, *_quadratic((x, y), q, end))
                x, y = end
                quad = q
            else:
                end = (v[5] + dx, v[6] + dy)
                self.arc((x, y), v[0], v[1], v[2], v[3], v[4], end)
                x, y = end
            cubic = control
            if kind not in "qt":
                quad = None
            drawn = True

    def arc(self, point: tuple[float, float], rx: float, ry: float, degrees: float, large: float,
            sweep: float, end: tuple[float, float]) -> None:
        """An elliptical arc from ``point`` to ``end`` (SVG's endpoint form): its centre found as
        the SVG specification's implementation notes (F.6.5) say, radii too small grown to reach,
        then drawn as a unit circle's arc under the ellipse's scale and turn."""
        if not rx or not ry or point == end:
            raise Unsupported("an arc with no radius or no length")
        c, p = self.lib, self.p
        c.cairo_set_tolerance(p, 0.00001)
        phi = math.radians(degrees)
        cos, sin = math.cos(phi), math.sin(phi)
        hx, hy = (point[0] - end[0]) / 2, (point[1] - end[1]) / 2
        px, py = cos * hx + sin * hy, -sin * hx + cos * hy      # the half chord in the ellipse's axes
        rx, ry = abs(rx), abs(ry)
        grow = (px / rx) ** 2 + (py / ry) ** 2
        if grow > 1:
            rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
        across = (rx * py) ** 2 + (ry * px) ** 2
        k = math.sqrt(max(0.0, ((rx * ry) ** 2 - across) / across))
        if (large != 0) == (sweep != 0):
            k = -k
        ux, uy = k * rx * py / ry, -k * ry * px / rx              # the centre in the ellipse's axes
        cx = cos * ux - sin * uy + (point[0] + end[0]) / 2
        cy = sin * ux + cos * uy + (point[1] + end[1]) / 2
        angle1 = math.atan2((py - uy) / ry, (px - ux) / rx)
        angle2 = math.atan2((-py - uy) / ry, (-px - ux) / rx)
        c.cairo_save(p)
        c.cairo_translate(p, cx, cy)
        c.cairo_rotate(p, phi)
        c.cairo_scale(p, rx, ry)
        (c.cairo_arc if sweep else c.cairo_arc_negative)(p, 0, 0, 1, angle1, angle2)
        c.cairo_restore(p)

    def text(self, element: ElementTree.Element, plan: _Plan) -> None:
        """A plain text run, as fasttext draws it for cairosvg: one show_text at its point."""
        content = whitespace(element.text)
        if not content:
            return
        font = plan.font
        if font is None:
            font = plan.font = _text_font(self.cairo, plan.attrs, element.attrib)
        face, font_size, x, y, anchor = font
        c, p = self.lib, self.p          # no save and restore: node() has them round the text
        c.cairo_set_source_rgba(p, *(plan.fill_rgba or ()))
        c.cairo_set_font_face(p, face)   # what cairo_select_font_face sets, made once
        c.cairo_set_font_size(p, font_size)
        data = content.encode("utf-8")
        if anchor in ("middle", "end"):
            extents = self.extents
            c.cairo_text_extents(p, data, extents)
            x += fasttext.anchor_shift(anchor, extents.x_bearing, extents.width)
        c.cairo_move_to(p, x, y)
        c.cairo_show_text(p, data)


def _text_font(cairo: Any, a: dict[str, str], own: Any) -> tuple:
    """A text's font, size, point and anchor (the family's name encoded for cairo)."""
    if a.get("stroke", "none") not in ("none", ""):
        raise Unsupported("stroked text")
    family, slant, weight = _font_face(cairo, a.get("font-family"), a.get("font-style"),
                                       a.get("font-weight"))
    size = a.get("font-size")
    font_size = length(size) if size else 12 * UNITS["pt"]
    xs, ys = own.get("x"), own.get("y")
    x = _coordinate(xs) if xs else 0.0
    y = _coordinate(ys) if ys else 0.0
    return _toy_face(cairo, family, slant, weight), font_size, x, y, a.get("text-anchor")


#: cairo's font faces by (family, slant, weight), as cairo_select_font_face makes them: made once,
#: not looked up in cairo's own table again for every text.
_TOYS: dict[tuple[str, int, int], Any] = {}


def _toy_face(cairo: Any, family: str, slant: int, weight: int) -> Any:
    key = (family, slant, weight)
    face = _TOYS.get(key)
    if face is None:
        lib = cairo.cairo
        face = _TOYS[key] = cairo.ffi.gc(lib.cairo_toy_font_face_create(family.encode("utf-8"), slant, weight),
                                         lib.cairo_font_face_destroy)
    return face


class _Inherited:
    """The attributes an element's children take from it (and a key saying which they are)."""

    __slots__ = ("attrs", "key")

    def __init__(self, attrs: Any) -> None:
        self.attrs = {k: v for k, v in attrs.items() if k not in NOT_INHERITED}
        self.key = tuple(self.attrs.items())


#: Every tag the subset reads anywhere in a document (its elements and definitions).
_KNOWN_TAGS = frozenset(NS + tag for tag in (*GEOMETRY, *DEFINITIONS))
_TAG = operator.attrgetter("tag")
#: What :func:`_root_plan` made of each root's attributes (the faces of a template share theirs).
_ROOTS: dict[tuple, tuple] = {}
ROOTS_KEPT = 256


def _root_plan(items: tuple[tuple[str, str], ...]) -> tuple[float, float, tuple[float, ...], str, _Inherited]:
    """A root's size in pixels, its viewBox, its ``text-rendering`` and what its children
    inherit, from its attributes (worked out once for each set of them); :class:`Unsupported`
    where they are not of the subset."""
    found = _ROOTS.get(items)
    if found is not None:
        return found
    attrs = dict(items)
    if any(k not in ROOT for k in attrs):
        raise Unsupported("root attribute")
    _check_values(attrs)
    width = length(attrs.get("width", "0")) if attrs.get("width") else 0.0
    height = length(attrs.get("height", "0")) if attrs.get("height") else 0.0
    viewbox = attrs.get("viewBox")
    if viewbox:
        box = tuple(float(v) for v in _SEPARATORS.sub(" ", viewbox).split())
        width = width or box[2]
        height = height or box[3]
    else:
        box = (0.0, 0.0, width, height)
    if not width or not height or len(box) != 4:
        raise Unsupported("size")
    found = _ROOTS[items] = (width, height, box, attrs.get("text-rendering", ""), _Inherited(attrs))
    if len(_ROOTS) > ROOTS_KEPT:
        del _ROOTS[next(iter(_ROOTS))]
    return found


class _Plan:
    """What an element does, from its attributes, those it inherits and whether it has
    children: the same for every element of the faces of one template that has the same."""

    __slots__ = ("tag", "attrs", "transform", "opacity", "group", "cap", "join", "dashes", "clip",
                 "x", "y", "shape", "paints", "fill", "fill_url", "fill_opacity", "fill_rgba",
                 "stroke_width", "stroke_rgba", "child", "font", "outline")
    tag: str
    attrs: dict[str, str]
    transform: str | None
    opacity: float
    group: bool
    cap: int | None
    join: int | None
    dashes: list[float] | None
    clip: str | None
    x: float
    y: float
    shape: Any
    paints: bool
    fill: str
    fill_url: bool
    fill_opacity: float
    fill_rgba: tuple[float, float, float, float] | None
    stroke_width: float
    stroke_rgba: tuple[float, float, float, float]
    child: _Inherited | None
    font: tuple | None
    outline: dict[tuple, Any] | None


_SKIP = _Plan()     # an element that draws nothing (defs, a zero width or height)
_PLANS: dict[tuple, _Plan] = {}
PLANS_KEPT = 4096   # plans remembered (the oldest let go)
OUTLINES_KEPT = 4   # outlines a plan keeps (scales and turns it is drawn at)
_CAPS = {"square": "LINE_CAP_SQUARE", "round": "LINE_CAP_ROUND"}
_JOINS = {"round": "LINE_JOIN_ROUND", "bevel": "LINE_JOIN_BEVEL"}


def _plan(full_tag: str, own: Any, inherited: _Inherited, paint: bool, children: bool) -> _Plan:
    """:class:`_Plan` of an element, checked as cairosvg's Surface.draw reads it; raises
    :class:`Unsupported` (or any error) where the element is not of the subset."""
    if not full_tag.startswith(NS):
        raise Unsupported(full_tag)
    tag = full_tag[len(NS):]
    allowed = ALLOWED.get(tag)
    if allowed is None:
        raise Unsupported(tag)
    if own:
        if not allowed.issuperset(own):
            raise Unsupported(str(own.keys() - allowed))
        values = own.values()
        if "inherit" in values or "currentColor" in values:
            raise Unsupported("inherit or currentColor")
    if tag == "defs":
        return _SKIP
    if ("width" in own and number(own["width"]) == 0) or ("height" in own and number(own["height"]) == 0):
        return _SKIP
    if tag == "text" and children:
        raise Unsupported("tspan")
    if not paint and (tag == "text" or "clip-path" in own or "opacity" in own):
        raise Unsupported("clip content")
    plan = _Plan()
    plan.tag = tag
    attrs = plan.attrs = dict(inherited.attrs)
    attrs.update(own)
    plan.transform = own.get("transform")
    if plan.transform:
        _transforms(plan.transform)            # read once here: an error is the element's
    opacity = plan.opacity = float(own["opacity"]) if "opacity" in own else 1.0
    plan.group = opacity < 1 and children
    lib = binding.load()
    cap = _CAPS.get(attrs.get("stroke-linecap", ""))
    plan.cap = getattr(lib, cap) if cap else None
    join = _JOINS.get(attrs.get("stroke-linejoin", ""))
    plan.join = getattr(lib, join) if join else None
    plan.dashes = None
    dashes = attrs.get("stroke-dasharray")
    if dashes:
        values = [number(v) for v in normalize(dashes).split()]
        if sum(values):
            plan.dashes = values
    plan.clip = None
    clip = own.get("clip-path")
    if clip:
        match = re.fullmatch(_URL, clip.strip())
        if not match:
            raise Unsupported(clip)
        plan.clip = match.group(1)
    plan.x, plan.y = number(own.get("x")), number(own.get("y"))
    plan.shape = SHAPES.get(tag)
    # A painted shape starts from an empty path (its element's move_to aside): its outline is
    # the same wherever the same plan is drawn at the same scale and turn, so it is kept, one
    # for each (None: made every time).  Not inside a clip path (the outlines add up), nor a
    # path with an arc (which sets the tolerance)
    plan.outline = {} if paint and plan.shape is not None and not (
        tag == "path" and "a" in own.get("d", "").lower()) else None
    plan.paints = paint and tag != "clipPath"
    plan.font = None
    plan.fill_rgba = None
    if plan.paints:
        stroke_opacity = float(attrs.get("stroke-opacity", 1))
        fill_opacity = float(attrs.get("fill-opacity", 1))
        if opacity < 1 and not children:
            stroke_opacity *= opacity
            fill_opacity *= opacity
        if "url(" in attrs.get("stroke", "") or tag == "text" and "url(" in attrs.get("fill", ""):
            raise Unsupported("paint server")       # a gradient on a stroke or a text
        fill = plan.fill = attrs.get("fill", "black")
        plan.fill_opacity = fill_opacity
        if tag == "text":
            plan.fill_rgba = _paint(fill, fill_opacity)
        elif plan.shape is not None:
            plan.fill_url = "url(" in fill
            if not plan.fill_url:
                plan.fill_rgba = _paint(fill, fill_opacity)
            plan.stroke_width = number(attrs.get("stroke-width", "1"))
            plan.stroke_rgba = _paint(attrs.get("stroke"), stroke_opacity)
    plan.child = _Inherited(attrs) if children and tag != "clipPath" else None
    return plan


@functools.lru_cache(maxsize=1024)
def _transforms(string: str) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """A transform attribute's steps, each with its numbers (cairosvg's helpers.transform reads
    them so); a scale by 0 is :class:`Unsupported`."""
    steps = []
    for kind, args in _TRANSFORM.findall(normalize(string)):
        values = tuple(number(v) for v in args.split(" "))
        if kind == "scale" and 0 in (values * 2 if len(values) == 1 else values)[:2]:
            raise Unsupported("singular transform")
        steps.append((kind, values))
    return tuple(steps)


#: The drawer of each shape's outline.
SHAPES = {"rect": _Drawer.shape_rect, "circle": _Drawer.shape_circle, "ellipse": _Drawer.shape_ellipse,
          "path": _Drawer.shape_path, "polygon": _Drawer.shape_polygon, "polyline": _Drawer.shape_polyline}


_FACES: dict[tuple, tuple[str, int, int]] = {}
_OPTIONS: dict[str, Any] = {}


def _font_options(cairo: Any, rendering: str) -> Any:
    """The font options cairosvg sets for a root's ``text-rendering`` (on a context's default
    ones), made once per value."""
    options = _OPTIONS.get(rendering)
    if options is None:
        options = _OPTIONS[rendering] = cairo.FontOptions()
        options.set_antialias({"crispEdges": cairo.ANTIALIAS_NONE, "optimizeSpeed": cairo.ANTIALIAS_FAST,
                               "optimizeLegibility": cairo.ANTIALIAS_GOOD,
                               "geometricPrecision": cairo.ANTIALIAS_BEST}
                              .get(rendering, cairo.ANTIALIAS_DEFAULT))
        options.set_hint_style({"geometricPrecision": cairo.HINT_STYLE_NONE,
                                "optimizeLegibility": cairo.HINT_STYLE_FULL}
                               .get(rendering, cairo.HINT_STYLE_DEFAULT))
        options.set_hint_metrics({"geometricPrecision": cairo.HINT_METRICS_OFF,
                                  "optimizeLegibility": cairo.HINT_METRICS_ON}
                                 .get(rendering, cairo.HINT_METRICS_DEFAULT))
    return options


def _font_face(cairo: Any, family: str | None, style: str | None, weight: str | None) -> tuple[str, int, int]:
    """:func:`fasttext.font_face` of these attributes, each combination worked out once."""
    key = (family, style, weight)
    found = _FACES.get(key)
    if found is None:
        found = _FACES[key] = fasttext.font_face(cairo, {"font-family": family, "font-style": style,
                                                          "font-weight": weight}.get)
    return found


def _coordinate(string: str) -> float:
    """A text's x or y as cairosvg reads it (normalized, then a number); a plain number, as the
    templates write it, needs no normalizing."""
    try:
        return float(string)
    except ValueError:
        return number(normalize(string))


def _check_values(attrs: dict[str, str]) -> None:
    """Values cairosvg would replace (inherit, currentColor) are not handled here."""
    for value in attrs.values():
        if value in ("inherit", "currentColor"):
            raise Unsupported(value)


def _quadratic(start: tuple[float, float], control: tuple[float, float],
               end: tuple[float, float]) -> tuple[float, ...]:
    """A quadratic curve as the cubic that draws it: each cubic control point two thirds of the
    way from an end to the quadratic's control point; then the end."""
    (x0, y0), (qx, qy), (x1, y1) = start, control, end
    return (x0 + 2 * (qx - x0) / 3, y0 + 2 * (qy - y0) / 3,
            x1 + 2 * (qx - x1) / 3, y1 + 2 * (qy - y1) / 3, x1, y1)


#: How many numbers each path command takes (an arc's two flags among its seven).
ARITY = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}
_PATH_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _gap(d: str, pos: int) -> int:
    """Where the next token of a path's ``d`` starts: past spaces and commas from ``pos``."""
    while pos < len(d) and d[pos] in " \t\r\n,":
        pos += 1
    return pos


@functools.lru_cache(maxsize=1024)
def _path(d: str) -> tuple[tuple[str, list[float]], ...]:
    """:func:`path_commands` of a ``d`` read once (the faces of a template repeat their paths);
    the lists are only read."""
    return tuple(path_commands(d))


def path_commands(d: str) -> Iterator[tuple[str, list[float]]]:
    """The commands of a path's ``d``, each with its numbers: a command's numbers repeated make
    the command again (after a moveto, a lineto), an arc's flags are one digit each even when
    written together; anything else in the string is :class:`Unsupported`."""
    pos, letter = _gap(d, 0), ""
    while pos < len(d):
        if d[pos].lower() in ARITY:
            letter = d[pos]
            pos = _gap(d, pos + 1)
            if letter in "zZ":
                yield letter, []
                continue
        elif not letter or letter in "zZ":
            raise Unsupported("path numbers without a command")
        values: list[float] = []
        for k in range(ARITY[letter.lower()]):
            if letter in "aA" and k in (3, 4):
                if pos >= len(d) or d[pos] not in "01":
                    raise Unsupported("arc flag")
                values.append(float(d[pos]))
                pos += 1
            else:
                found = _PATH_NUMBER.match(d, pos)
                if not found:
                    raise Unsupported("path number")
                values.append(float(found.group()))
                pos = found.end()
            pos = _gap(d, pos)
        yield letter, values
        letter = {"m": "l", "M": "L"}.get(letter, letter)

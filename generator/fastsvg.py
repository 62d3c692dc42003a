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
import math
import re
import xml.etree.ElementTree as ElementTree
from typing import Any

from . import binding

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
#: Definitions the subset reads (a linear gradient filling a rect) and their attributes.
DEFINITIONS = {"linearGradient": frozenset(("id", "x1", "y1", "x2", "y2")),
               "stop": frozenset(("offset", "stop-color", "stop-opacity"))}
ROOT = frozenset(("width", "height", "viewBox", "text-rendering")) | PAINT - {"transform", "clip-path", "opacity"}
#: Units of a length on the root (cairosvg's helpers.UNITS at 96 dpi).
UNITS = {"mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0, "pt": 96 / 72, "pc": 96 / 6, "px": 1.0}
PATH_LETTERS = "achlmqstvzACHLMQSTVZ"
_HEX6 = re.compile(r"#[0-9a-f]{6}")
_HEX3 = re.compile(r"#[0-9a-f]{3}")
_NAMED = {"none": (0.0, 0.0, 0.0, 0.0), "transparent": (0.0, 0.0, 0.0, 0.0),
          "black": (0.0, 0.0, 0.0, 1.0), "white": (1.0, 1.0, 1.0, 1.0)}
_URL = re.compile(r"url\(#([A-Za-z_][\w.:-]*)\)")
_PAINT_URL = re.compile(r"url\(#([A-Za-z_][\w.:-]*)\) *(.*)")
_TRANSFORM = re.compile(r"(\w+) ?\( ?(.*?) ?\)")
_LENGTH = re.compile(r"([0-9.eE+-]+)(mm|cm|in|pt|pc|px)")
_PATH_SPLIT = re.compile(f"([{PATH_LETTERS}])([^{PATH_LETTERS}]*)")
_MINUS = re.compile("(?<!e)-")
_SEPARATORS = re.compile("[ \n\r\t,]+")
_DOTS = re.compile(r"(\.[0-9-]+)(?=\.)")
_NEWLINES = re.compile(r"[\n\r]")


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


def _draw(svg: str, surface: Any, scale: float) -> tuple[Any, float, float] | None:
    """``svg`` drawn into ``surface(cairo, width, height)`` at ``scale`` device units per pixel;
    None when it is not of the subset."""
    if "<!" in svg or "<?xml-stylesheet" in svg:   # DTDs, entities, comments: cairosvg's to read
        return None
    try:
        root = _PARSED.pop(svg, None)
        if root is None:
            root = ElementTree.fromstring(svg)
        return _Drawer(binding.load()).root(root, surface, scale)
    except Exception:  # anything this reader does not know, or cannot do: cairosvg's turn
        return None


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
    except ValueError:
        match = _LENGTH.fullmatch(string.strip())
        if not match:
            raise Unsupported(string) from None
        return float(match.group(1)) * UNITS[match.group(2)]


def color(string: str | None, opacity: float = 1.0) -> tuple[float, float, float, float]:
    """cairosvg's colors.color for flat colours written as #rrggbb, #rgb, or a few names."""
    if not string:
        return (0.0, 0.0, 0.0, 0.0)
    string = string.strip().lower()
    named = _NAMED.get(string)
    if named is not None:
        return named[:3] + (named[3] * opacity,)
    if _HEX6.fullmatch(string):
        return (int(string[1:3], 16) / 255, int(string[3:5], 16) / 255, int(string[5:7], 16) / 255,
                opacity)
    if _HEX3.fullmatch(string):
        return (int(string[1], 16) / 15, int(string[2], 16) / 15, int(string[3], 16) / 15, opacity)
    raise Unsupported(string)


def paint_color(value: str | None) -> str | None:
    """The colour of a fill or stroke value (cairosvg's helpers.paint): after a url(), the
    colour given for when it cannot be used, if any."""
    if not value:
        return None
    value = value.strip()
    if "url(" in value:
        match = _PAINT_URL.fullmatch(value)
        if not match:
            raise Unsupported(value)
        return match.group(2) or None
    return value or None


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
    text = _NEWLINES.sub("", text).replace("\t", " ")
    text = re.sub(" +", " ", text)
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

    def root(self, root: ElementTree.Element, make: Any, scale: float) -> tuple[Any, float, float]:
        """The document: its surface made by ``make(cairo, width, height)``, in device units at
        ``scale`` per pixel, its viewport set as cairosvg sets it; then every element."""
        cairo = self.cairo
        if root.tag != NS + "svg" or any(k not in ROOT for k in root.attrib):
            raise Unsupported(root.tag)
        attrs = dict(root.attrib)
        _check_values(attrs)
        for element in root.iter():      # a style sheet, a pattern, ... anywhere: not ours
            if element is not root and (not element.tag.startswith(NS)
                                        or element.tag[len(NS):] not in GEOMETRY
                                        and element.tag[len(NS):] not in DEFINITIONS):
                raise Unsupported(element.tag)
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
        w, h = width * scale, height * scale
        surface = make(cairo, w, h)
        ctx = self.ctx = cairo.Context(surface)
        self.p = ctx._pointer
        ctx.scale(scale, scale)
        self.viewport(width, height, box)
        ctx.set_miter_limit(4)
        rendering = self.rendering = attrs.get("text-rendering", "")
        options = ctx.get_font_options()
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
        ctx.set_font_options(options)
        for element in root.iter():
            if element.tag == NS + "clipPath" and "id" in element.attrib:
                self.clips[element.attrib["id"]] = element
            elif element.tag == NS + "linearGradient" and "id" in element.attrib:
                self.gradients[element.attrib["id"]] = element
        inherited = {k: v for k, v in attrs.items() if k not in NOT_INHERITED}
        for child in root:
            self.node(child, inherited)
        if self.lib.cairo_status(self.p):
            raise Unsupported("cairo: " + str(self.lib.cairo_status(self.p)))
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

    def node(self, element: ElementTree.Element, inherited: dict[str, str], paint: bool = True) -> None:
        """One element and its children, as cairosvg's Surface.draw does it (``paint`` False:
        only its outline is added to the path, as inside a clip path)."""
        tag = element.tag
        if not tag.startswith(NS):
            raise Unsupported(tag)
        tag = tag[len(NS):]
        allowed = GEOMETRY.get(tag)
        if allowed is None:
            raise Unsupported(tag)
        own = element.attrib
        for key, value in own.items():
            if key not in PAINT and key not in allowed or value in ("inherit", "currentColor"):
                raise Unsupported(key)
        if tag == "defs":
            return
        if ("width" in own and number(own["width"]) == 0) or ("height" in own and number(own["height"]) == 0):
            return
        attrs = dict(inherited)
        attrs.update(own)
        children = list(element)
        if tag == "text" and children:
            raise Unsupported("tspan")
        if not paint and (tag == "text" or "clip-path" in own or "opacity" in own):
            raise Unsupported("clip content")
        c, p = self.lib, self.p
        c.cairo_save(p)
        transform = own.get("transform")
        if transform:
            self.transform(transform)
        opacity = float(own.get("opacity", 1))
        group = opacity < 1 and bool(children)
        if group:
            c.cairo_push_group(p)
        cap = attrs.get("stroke-linecap")
        if cap == "square":
            c.cairo_set_line_cap(p, self.cairo.LINE_CAP_SQUARE)
        elif cap == "round":
            c.cairo_set_line_cap(p, self.cairo.LINE_CAP_ROUND)
        join = attrs.get("stroke-linejoin")
        if join == "round":
            c.cairo_set_line_join(p, self.cairo.LINE_JOIN_ROUND)
        elif join == "bevel":
            c.cairo_set_line_join(p, self.cairo.LINE_JOIN_BEVEL)
        dashes = attrs.get("stroke-dasharray")
        if dashes:
            values = [number(v) for v in normalize(dashes).split()]
            if sum(values):
                self.ctx.set_dash(values, 0)
        clip = own.get("clip-path")
        if clip:
            match = _URL.fullmatch(clip.strip())
            if not match:
                raise Unsupported(clip)
            target = self.clips.get(match.group(1))
            if target is not None:
                c.cairo_save(p)
                self.clip(target)
                c.cairo_restore(p)
                c.cairo_clip(p)
        c.cairo_move_to(p, number(own.get("x")), number(own.get("y")))
        if tag == "svg":
            self.nested(own)
        shape = SHAPES.get(tag)
        if shape is not None:
            shape(self, attrs)
        if paint and tag != "clipPath":
            stroke_opacity = float(attrs.get("stroke-opacity", 1))
            fill_opacity = float(attrs.get("fill-opacity", 1))
            if opacity < 1 and not children:
                stroke_opacity *= opacity
                fill_opacity *= opacity
            if "url(" in attrs.get("stroke", "") or tag == "text" and "url(" in attrs.get("fill", ""):
                raise Unsupported("paint server")       # a gradient on a stroke or a text
            if tag == "text":
                self.text(element, attrs, color(paint_color(attrs.get("fill", "black")), fill_opacity))
                c.cairo_new_path(p)
            elif shape is not None:
                fill = attrs.get("fill", "black")
                if "url(" not in fill or not self.gradient(tag, attrs, fill, fill_opacity):
                    c.cairo_set_source_rgba(p, *color(paint_color(fill), fill_opacity))
                c.cairo_fill_preserve(p)
                c.cairo_set_line_width(p, number(attrs.get("stroke-width", "1")))
                c.cairo_set_source_rgba(p, *color(paint_color(attrs.get("stroke")), stroke_opacity))
                c.cairo_stroke(p)
        if children and tag != "clipPath":
            child_inherited = {k: v for k, v in attrs.items() if k not in NOT_INHERITED}
            for child in children:
                self.node(child, child_inherited, paint)
        if group:
            c.cairo_pop_group_to_source(p)
            c.cairo_paint_with_alpha(p, opacity)
        c.cairo_restore(p)

    def gradient(self, tag: str, a: dict[str, str], fill: str, opacity: float) -> bool:
        """A linear gradient as the source, as cairosvg's draw_gradient sets it (in the rect's
        bounding box); False when it draws none (no such gradient, an empty box)."""
        match = _PAINT_URL.fullmatch(fill.strip())
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
        inherited = {k: v for k, v in own.items() if k not in NOT_INHERITED}
        for child in target:
            self.node(child, inherited, paint=False)
        c.cairo_restore(p)

    def transform(self, string: str) -> None:
        """cairosvg's helpers.transform, applied to the context one step at a time."""
        c, p, cairo = self.lib, self.p, self.cairo
        for kind, args in _TRANSFORM.findall(normalize(string)):
            values = [number(v) for v in args.split(" ")]
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
                if 0 in values[:2]:
                    raise Unsupported("singular transform")
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
        """cairosvg's path.path, command by command (the same numbers, the same cairo calls)."""
        string = a.get("d", "")
        for letter in PATH_LETTERS:
            string = string.replace(letter, f" {letter} ")
        string = normalize(string)
        c, p = self.lib, self.p
        current = self.ctx.get_current_point() if self.ctx.has_current_point() else (0.0, 0.0)
        if not self.ctx.has_current_point():
            c.cairo_move_to(p, 0, 0)
        commands = [(m.group(1), m.group(2).split()) for m in _PATH_SPLIT.finditer(string)]
        last = None
        first = None
        x1 = y1 = x2 = y2 = x3 = y3 = 0.0
        args: list[str] = []
        pos = 0

        def take() -> float:
            """The next number of the command being read."""
            nonlocal pos
            value = float(args[pos])
            pos += 1
            return value

        i = 0
        while i < len(commands):
            letter, args = commands[i]
            if last in (None, "m", "M", "z", "Z"):
                first = None
            if letter not in "mMzZ" and first is None:
                first = current
            pos = 0

            if letter in "aA":
                c.cairo_set_tolerance(p, 0.00001)
                x1, y1 = current
                rx, ry = take(), take()
                rotation = math.radians(take())
                flags = args[pos]
                large = flags[0]
                rest = flags[1:]
                if rest:
                    args[pos] = rest
                else:
                    pos += 1
                flags = args[pos]
                sweep = flags[0]
                rest = flags[1:]
                if rest:
                    args[pos] = rest
                else:
                    pos += 1
                x3, y3 = take(), take()
                if large not in "01" or sweep not in "01":
                    raise Unsupported("arc flags")
                large_b, sweep_b = large == "1", sweep == "1"
                if letter == "A":
                    x3 -= x1
                    y3 -= y1
                if not rx or not ry:
                    raise Unsupported("flat arc")
                ratio = ry / rx
                xe, ye = _rotate(x3, y3, -rotation)
                ye /= ratio
                angle = math.atan2(ye, xe)
                xe = math.hypot(xe, ye)
                ye = 0
                rx = max(rx, xe / 2)
                xc = xe / 2
                yc = (rx ** 2 - xc ** 2) ** .5
                if not (large_b ^ sweep_b):
                    yc = -yc
                arc = c.cairo_arc if sweep_b else c.cairo_arc_negative
                xe, ye = _rotate(xe, 0, angle)
                xc, yc = _rotate(xc, yc, angle)
                angle1 = math.atan2(0 - yc, 0 - xc)
                angle2 = math.atan2(ye - yc, xe - xc)
                c.cairo_save(p)
                c.cairo_translate(p, x1, y1)
                c.cairo_rotate(p, rotation)
                c.cairo_scale(p, 1, ratio)
                arc(p, xc, yc, rx, angle1, angle2)
                c.cairo_restore(p)
                current = current[0] + x3, current[1] + y3
            elif letter == "c":
                x, y = current
                x1, y1, x2, y2, x3, y3 = take(), take(), take(), take(), take(), take()
                c.cairo_rel_curve_to(p, x1, y1, x2, y2, x3, y3)
                current = current[0] + x3, current[1] + y3
                x1 += x
                x2 += x
                x3 += x
                y1 += y
                y2 += y
                y3 += y
            elif letter == "C":
                x1, y1, x2, y2, x3, y3 = take(), take(), take(), take(), take(), take()
                c.cairo_curve_to(p, x1, y1, x2, y2, x3, y3)
                current = x3, y3
            elif letter == "h":
                x = take()
                c.cairo_rel_line_to(p, x, 0)
                current = current[0] + x, current[1]
            elif letter == "H":
                x = take()
                c.cairo_line_to(p, x, current[1])
                current = x, current[1]
            elif letter == "l":
                x, y = take(), take()
                c.cairo_rel_line_to(p, x, y)
                current = current[0] + x, current[1] + y
            elif letter == "L":
                x, y = take(), take()
                c.cairo_line_to(p, x, y)
                current = x, y
            elif letter == "m":
                x, y = take(), take()
                c.cairo_rel_move_to(p, x, y)
                current = current[0] + x, current[1] + y
            elif letter == "M":
                x, y = take(), take()
                c.cairo_move_to(p, x, y)
                current = x, y
            elif letter == "q":
                x1, y1 = 0, 0
                x2, y2, x3, y3 = take(), take(), take(), take()
                c.cairo_rel_curve_to(p, *_quadratic(x1, y1, x2, y2, x3, y3))
                current = current[0] + x3, current[1] + y3
            elif letter == "Q":
                x1, y1 = current
                x2, y2, x3, y3 = take(), take(), take(), take()
                c.cairo_curve_to(p, *_quadratic(x1, y1, x2, y2, x3, y3))
                current = x3, y3
            elif letter == "s":
                x, y = current
                x1 = x3 - x2 if last in ("c", "s", "C", "S") else 0
                y1 = y3 - y2 if last in ("c", "s", "C", "S") else 0
                x2, y2, x3, y3 = take(), take(), take(), take()
                c.cairo_rel_curve_to(p, x1, y1, x2, y2, x3, y3)
                current = current[0] + x3, current[1] + y3
                x1 += x
                x2 += x
                x3 += x
                y1 += y
                y2 += y
                y3 += y
            elif letter == "S":
                x, y = current
                x1 = x3 + (x3 - x2) if last in ("c", "s", "C", "S") else x
                y1 = y3 + (y3 - y2) if last in ("c", "s", "C", "S") else y
                x2, y2, x3, y3 = take(), take(), take(), take()
                c.cairo_curve_to(p, x1, y1, x2, y2, x3, y3)
                current = x3, y3
            elif letter == "t":
                if last not in ("Q", "q", "T", "t"):
                    x2, y2, x3, y3 = 0, 0, 0, 0
                elif last in ("Q", "T"):
                    x2 -= x1
                    y2 -= y1
                    x3 -= x1
                    y3 -= y1
                x2 = x3 - x2
                y2 = y3 - y2
                x1, y1 = 0, 0
                x3, y3 = take(), take()
                c.cairo_rel_curve_to(p, *_quadratic(x1, y1, x2, y2, x3, y3))
                current = current[0] + x3, current[1] + y3
            elif letter == "T":
                abs_x, abs_y = current
                if last not in ("Q", "q", "T", "t"):
                    x2, y2, x3, y3 = abs_x, abs_y, abs_x, abs_y
                elif last in ("q", "t"):
                    x2 += abs_x
                    y2 += abs_y
                    x3 += abs_x
                    y3 += abs_y
                x2 = abs_x + (x3 - x2)
                y2 = abs_y + (y3 - y2)
                x1, y1 = abs_x, abs_y
                x3, y3 = take(), take()
                c.cairo_curve_to(p, *_quadratic(x1, y1, x2, y2, x3, y3))
                current = x3, y3
            elif letter == "v":
                y = take()
                c.cairo_rel_line_to(p, 0, y)
                current = current[0], current[1] + y
            elif letter == "V":
                y = take()
                c.cairo_line_to(p, current[0], y)
                current = current[0], y
            elif letter in "zZ" and first:
                c.cairo_close_path(p)
                current = first
            rest_args = args[pos:]
            if rest_args and letter not in "zZ":
                commands[i] = ({"m": "l", "M": "L"}.get(letter, letter), rest_args)
            elif rest_args:
                raise Unsupported("numbers after z")
            else:
                i += 1
            last = letter

    def text(self, element: ElementTree.Element, a: dict[str, str],
             rgba: tuple[float, float, float, float]) -> None:
        """A plain text run, as fasttext draws it for cairosvg: one show_text at its point."""
        content = whitespace(element.text)
        if not content:
            return
        if a.get("stroke", "none") not in ("none", ""):
            raise Unsupported("stroked text")
        cairo, c, p = self.cairo, self.lib, self.p
        family = (a.get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
        slant = getattr(cairo, f'font_slant_{a.get("font-style")}'.upper(), cairo.FONT_SLANT_NORMAL)
        weight = a.get("font-weight")
        if weight and weight.isdigit() and int(weight) >= 550:
            weight = "bold"
        weight = getattr(cairo, f"font_weight_{weight}".upper(), cairo.FONT_WEIGHT_NORMAL)
        size = a.get("font-size")
        font_size = length(size) if size else 12 * UNITS["pt"]
        xs, ys = element.attrib.get("x"), element.attrib.get("y")
        x = number(normalize(xs)) if xs else 0.0
        y = number(normalize(ys)) if ys else 0.0
        c.cairo_save(p)
        c.cairo_set_source_rgba(p, *rgba)
        c.cairo_select_font_face(p, family.encode("utf-8"), slant, weight)
        c.cairo_set_font_size(p, font_size)
        anchor = a.get("text-anchor")
        if anchor in ("middle", "end"):
            x_bearing, _y_bearing, width, *_ = self.ctx.text_extents(content)
            x += -(width / 2 + x_bearing) if anchor == "middle" else -(width + x_bearing)
        c.cairo_move_to(p, x, y)
        c.cairo_show_text(p, content.encode("utf-8"))
        c.cairo_restore(p)


#: The drawer of each shape's outline.
SHAPES = {"rect": _Drawer.shape_rect, "circle": _Drawer.shape_circle, "ellipse": _Drawer.shape_ellipse,
          "path": _Drawer.shape_path, "polygon": _Drawer.shape_polygon, "polyline": _Drawer.shape_polyline}


def _check_values(attrs: dict[str, str]) -> None:
    """Values cairosvg would replace (inherit, currentColor) are not handled here."""
    for value in attrs.values():
        if value in ("inherit", "currentColor"):
            raise Unsupported(value)


def _rotate(x: float, y: float, angle: float) -> tuple[float, float]:
    return x * math.cos(angle) - y * math.sin(angle), y * math.cos(angle) + x * math.sin(angle)


def _quadratic(x1: float, y1: float, x2: float, y2: float, x3: float, y3: float) -> tuple:
    """A quadratic curve's control points as a cubic's (cairosvg's quadratic_points)."""
    return (x2 * 2 / 3 + x1 / 3, y2 * 2 / 3 + y1 / 3, x2 * 2 / 3 + x3 / 3, y2 * 2 / 3 + y3 / 3, x3, y3)

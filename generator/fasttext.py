"""A faster text drawer for cairosvg, used only while the engine records its faces.

cairosvg draws every ``<text>`` twice, one character at a time: once as glyph outlines (the path a
stroke would use) and once as text, asking cairo for the extents of every character each time.
For the plain text the templates write (one x and y, no stroke, no per-letter positions, no
tspans, no letter-spacing, no text on a path) this draws the whole run in one ``show_text``:
cairo places the glyphs with the same unhinted advances, so every glyph lands where it did,
and the run stays text in the PDF.  Anything else, and any face using gradients, patterns,
masks, filters or markers (which read a text's bounding box), goes to cairosvg's own drawer.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any
from collections.abc import Iterator

from .model import GeneratorError

_ORIGINAL: Any = None
_ACTIVE = False
#: compiled at its first use (re's own cache): a deck drawn by fastsvg never needs it
_NEEDS_BBOX = r"<(?:linearGradient|radialGradient|pattern|mask|filter|marker)\b"
_PER_LETTER = ("dx", "dy", "rotate", "display-anchor", "dominant-baseline", "alignment-baseline")


def _plain(node: Any) -> bool:
    """True when cairosvg would draw ``node`` as one run at one point, with no stroke."""
    if node.tag != "text" or node.children or not node.text:
        return False
    if any(key in node for key in _PER_LETTER):
        return False
    if node.get("stroke", "none") not in ("none", "", None) or node.get("letter-spacing"):
        return False
    if node.get_href() or node.parent is not None and node.parent.get_href():
        return False
    from cairosvg.helpers import normalize
    return all(len(normalize(node[key]).strip().split(" ")) == 1 for key in ("x", "y") if key in node)


def font_face(cairo: Any, get: Any) -> tuple[str, int, int]:
    """(family, slant, weight) of a text as cairosvg selects them, from its attributes (``get``):
    the first family named, a numeric weight of 550 or more bold."""
    family = (get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
    slant = getattr(cairo, f'font_slant_{get("font-style")}'.upper(), cairo.FONT_SLANT_NORMAL)
    weight = get("font-weight")
    if weight and weight.isdigit() and int(weight) >= 550:
        weight = "bold"
    return family, slant, getattr(cairo, f"font_weight_{weight}".upper(), cairo.FONT_WEIGHT_NORMAL)


def anchor_shift(anchor: str | None, x_bearing: float, width: float) -> float:
    """How far a run moves left of its x for its ``text-anchor`` (middle, end; else none)."""
    if anchor == "middle":
        return -(width / 2 + x_bearing)
    if anchor == "end":
        return -(width + x_bearing)
    return 0.0


def _text(surface: Any, node: Any, draw_as_text: bool = False) -> None:
    """cairosvg's ``text`` tag function, with the plain case drawn in one call."""
    if not _ACTIVE or not _plain(node):
        return _ORIGINAL(surface, node, draw_as_text)
    from cairosvg.helpers import normalize, size
    from cairosvg.surface import cairo
    ctx = surface.context
    ctx.select_font_face(*font_face(cairo, node.get))
    ctx.set_font_size(surface.font_size)
    x_bearing, _y_bearing, width, _height, x_advance, _ = ctx.text_extents(node.text)
    x = size(surface, normalize(node["x"]).strip(), "x") if "x" in node else None
    y = size(surface, normalize(node["y"]).strip(), "y") if "y" in node else None
    if x:                             # as cairosvg: an explicit x (y) ends a dx (dy) shift
        surface.cursor_d_position[0] = 0
    if y:
        surface.cursor_d_position[1] = 0
    x = surface.cursor_position[0] if x is None else x
    y = surface.cursor_position[1] if y is None else y
    x_align = anchor_shift(node.get("text-anchor"), x_bearing, width)
    if draw_as_text:                  # the fill pass; the outline pass is only ever stroked
        ctx.save()
        ctx.move_to(x + surface.cursor_d_position[0] + x_align, y + surface.cursor_d_position[1])
        ctx.show_text(node.text)
        ctx.restore()
    surface.cursor_position = (x + x_advance, y)


#: The cairosvg releases this drawer was checked against (pyproject.toml pins the same range).
TESTED = "cairosvg>=2.7,<2.10"


class PatchError(GeneratorError):
    """cairosvg's internals are no longer what the fast drawer replaces: pin a tested release."""


def problems() -> list[str]:
    """What the fast drawer needs from cairosvg and does not find (empty when it fits)."""
    import inspect

    import cairosvg
    import cairosvg.surface
    found: list[str] = []
    text = getattr(cairosvg.surface, "text", None)
    if not callable(text):
        found.append("cairosvg.surface.text is gone")
    elif list(inspect.signature(text).parameters) != ["surface", "node", "draw_as_text"]:
        found.append(f"cairosvg.surface.text takes {list(inspect.signature(text).parameters)}")
    tags = getattr(cairosvg.surface, "TAGS", None)
    if not isinstance(tags, dict) or (callable(text) and tags.get("text") is not text
                                      and tags.get("text") is not _text):
        found.append("cairosvg.surface.TAGS no longer maps 'text' to cairosvg.surface.text")
    import cairosvg.helpers
    for name in ("normalize", "size"):
        if not callable(getattr(cairosvg.helpers, name, None)):
            found.append(f"cairosvg.helpers.{name} is gone")
    if found:
        found = [f"cairosvg {getattr(cairosvg, '__version__', '?')}: {p} (tested: {TESTED})"
                 for p in found]
    return found


def _install() -> None:
    global _ORIGINAL
    if _ORIGINAL is not None:
        return
    import cairosvg.surface
    missing = problems()
    if missing:
        raise PatchError("; ".join(missing))
    _ORIGINAL = cairosvg.surface.text
    for tag, func in list(cairosvg.surface.TAGS.items()):
        if func is _ORIGINAL:
            cairosvg.surface.TAGS[tag] = _text
    cairosvg.surface.text = _text          # draw() compares TAGS[tag] with this name


@contextmanager
def fast_text(svg: str) -> Iterator[None]:
    """Draw ``svg``'s plain texts in one run each while inside (unless it needs text bounds)."""
    global _ACTIVE
    _install()
    before = _ACTIVE
    _ACTIVE = not re.search(_NEEDS_BBOX, svg)
    try:
        yield
    finally:
        _ACTIVE = before

"""A page: its faces, each clipped at its place, then an SVG overlay of crop marks and labels."""

from __future__ import annotations

import functools
import hashlib
import re

from .record import field, record
from .sheets import Line, Rect, data
from .svgroot import with_root
from .units import num

#: the drawing engine's version, in every page's and file's cache key: bump it when the SVG -> PDF
#: path changes in a way the hashes of the inputs cannot see
ENGINE_VERSION = "7"
#: What :func:`nest` rewrites, compiled at its first use (re's own cache): a deck never nests.
_XML_HEAD = r"(?s)^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?"
_ID = r'\bid="([^"]+)"'
_REF = r'(url\(#|href="#)([^)"]+)'


@record(slots=True)
class Page:
    """A page to render: its faces and overlay, the boxes to set in the PDF (mm, top-left origin)
    and its cache key.  Slotted: a huge deck keeps one per page (its key and boxes) until its file
    is written.  Pages a :class:`PageBuilder` makes have their key set and no ``svg``; another's
    key is the hash of its ``svg`` (:func:`~.render.page_key`)."""

    svg: str
    size: tuple[float, float]
    trimbox: Rect
    bleedbox: Rect
    label: str = ""
    key: str = field(default="", compare=False)
    faces: list[tuple[str, Rect, tuple]] = field(default_factory=list, repr=False)
    overlay: str = field(default="", repr=False)
    group: str = ""     # the component it belongs to: pages of a group render in one worker
    """What the renderer draws: (face SVG, its full rect with bleed, clip) then the overlay SVG;
    a clip of five values (x, y, w, h, True) is the ellipse inscribed in that rectangle."""


def nest(face_svg: str, x: float, y: float, w: float, h: float, prefix: str) -> str:
    """A face's SVG document placed at (x, y) with size (w, h) mm, its ids made unique (a
    rulebook's scene nests the kit's faces in one picture)."""
    body = with_root(re.sub(_XML_HEAD, "", face_svg, count=1), x=num(x), y=num(y), width=num(w), height=num(h))
    if 'id="' in body:
        body = re.sub(_ID, lambda m: f'id="{prefix}{m.group(1)}"', body)
        body = re.sub(_REF, lambda m: f"{m.group(1)}{prefix}{m.group(2)}", body)
    return body


@functools.lru_cache(maxsize=64)
def _path(lines: tuple[Line, ...]) -> str:
    """The path data of straight lines, each written once per set of lines: every sheet of a
    grid has the same crop marks."""
    return "".join(f"M{num(a)} {num(b)}L{num(c)} {num(e)}" for a, b, c, e in lines)


#: Where a face goes on a page: its whole rect with bleed, the part shown (its clip, a fifth value
#: True for an ellipse) and the text of both in the page key.
Cell = tuple[Rect, tuple, bytes]


def cell(place: Rect, clip: Rect, bleed: float, oval: bool = False) -> Cell:
    """The :data:`Cell` of a face whose trim is ``place``, showing ``clip`` of it (with ``oval``,
    only the ellipse inscribed in ``clip``): a grid works its cells out once for all its sheets."""
    x, y, w, h = place
    full = (x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed)
    shown = (*clip, True) if oval else clip
    return full, shown, f"{full}{shown}\n".encode()


class PageBuilder:
    """Collects clipped faces and marks, then makes the page."""

    def __init__(self, size: tuple[float, float]):
        self.size = size
        self.parts: list[str] = []          # the overlay: marks, labels, drawn over the faces
        self.faces: list[tuple[str, Rect, tuple]] = []
        self._keyed: list[bytes] = []       # each face's rect and clip as the page key reads them

    def face(self, svg: str, place: Rect, clip: Rect, bleed: float, oval: bool = False) -> None:
        """Put a face whose trim is ``place`` on the page, showing only ``clip`` of it (with
        ``oval``, only the ellipse inscribed in ``clip``: a round piece and its ring of bleed)."""
        self.put(svg, cell(place, clip, bleed, oval))

    def put(self, svg: str, where: Cell) -> None:
        """Put a face in a :func:`cell` worked out before."""
        full, shown, keyed = where
        self.faces.append((svg, full, shown))
        self._keyed.append(keyed)

    def outline(self, rect: Rect, oval: bool, width: float, colour: str, dash: str = "") -> None:
        """A cut line drawn around ``rect``: the inscribed ellipse (a circle) or the rectangle."""
        x, y, w, h = rect
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        shape = (f'<ellipse cx="{num(x + w / 2)}" cy="{num(y + h / 2)}" rx="{num(w / 2)}" ry="{num(h / 2)}"'
                 if oval else f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"')
        self.parts.append(f'{shape} fill="none" stroke="{colour}" stroke-width="{num(width)}"{extra}/>')

    def lines(self, lines: list[Line], width: float | None = None, colour: str | None = None,
              dash: str = "") -> None:
        m = data()["marks"]
        try:
            d = _path(tuple(lines))
        except TypeError:                   # lines of lists: not kept
            d = _path.__wrapped__(lines)
        if d:
            extra = f' stroke-dasharray="{dash}"' if dash else ""
            self.parts.append(f'<path d="{d}" fill="none" stroke="{colour or m["colour"]}" '
                              f'stroke-width="{num(width or m["width"])}"{extra}/>')

    def raw(self, svg: str) -> None:
        self.parts.append(svg)

    def label(self, text: str, x: float, y: float, size_mm: float = 2.2, anchor: str = "start") -> None:
        escape = lambda t: t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")  # noqa: E731
        self.parts.append(f'<text x="{num(x)}" y="{num(y)}" font-family="Bitstream Vera Sans" '
                          f'font-size="{num(size_mm)}" text-anchor="{anchor}" fill="#555555">'
                          f"{escape(text)}</text>")

    def _doc(self, defs: str, body: str) -> str:
        w, h = self.size
        return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                f'width="{num(w)}mm" height="{num(h)}mm" viewBox="0 0 {num(w)} {num(h)}" '
                f'text-rendering="geometricPrecision">'
                f'<defs>{defs}</defs>{body}</svg>')

    def page(self, trimbox: Rect, bleedbox: Rect, label: str) -> Page:
        overlay = self._doc("", "".join(self.parts))
        return Page("", self.size, trimbox, bleedbox, label, key=self.key(overlay),
                    faces=list(self.faces), overlay=overlay)

    def key(self, overlay: str) -> str:
        """The page's cache key: a hash of what is drawn (the paper, each face's SVG with its
        place and clip, the overlay), and of the engine that draws it."""
        digest = hashlib.sha256(f"{ENGINE_VERSION}\0{self.size}".encode())
        for (svg, _full, _clip), keyed in zip(self.faces, self._keyed):
            digest.update(hashlib.sha256(svg.encode("utf-8")).digest())
            digest.update(keyed)
        digest.update(overlay.encode("utf-8"))
        return digest.hexdigest()[:32]

"""One SVG document per page: faces nested and clipped at their place, crop marks around them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .sheets import Line, Rect, data
from .svgroot import with_root
from .units import num

_XML_HEAD = re.compile(r"^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.S)
_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|href="#)([^)"]+)')


@dataclass(slots=True)
class Page:
    """A page to render: its SVG and the boxes to set in the PDF (mm, top-left origin).  Slotted:
    a huge deck keeps one per page (its key and boxes) until its file is written."""

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
    """A face's SVG document placed at (x, y) with size (w, h) mm, its ids made unique."""
    body = with_root(_XML_HEAD.sub("", face_svg, count=1), x=num(x), y=num(y), width=num(w), height=num(h))
    if 'id="' in body:
        body = _ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', body)
        body = _REF.sub(lambda m: f"{m.group(1)}{prefix}{m.group(2)}", body)
    return body


class PageBuilder:
    """Collects clipped faces and marks, then writes the page SVG."""

    def __init__(self, size: tuple[float, float]):
        self.size = size
        self.clips: list[str] = []
        self.face_parts: list[str] = []
        self.parts: list[str] = []          # the overlay: marks, labels, drawn over the faces
        self.faces: list[tuple[str, Rect, tuple]] = []

    def face(self, svg: str, place: Rect, clip: Rect, bleed: float, oval: bool = False) -> None:
        """Put a face whose trim is ``place`` on the page, showing only ``clip`` of it (with
        ``oval``, only the ellipse inscribed in ``clip``: a round piece and its ring of bleed)."""
        x, y, w, h = place
        n = len(self.clips)
        cx, cy, cw, ch = clip
        shape = (f'<ellipse cx="{num(cx + cw / 2)}" cy="{num(cy + ch / 2)}" rx="{num(cw / 2)}" '
                 f'ry="{num(ch / 2)}"/>' if oval else
                 f'<rect x="{num(cx)}" y="{num(cy)}" width="{num(cw)}" height="{num(ch)}"/>')
        self.clips.append(f'<clipPath id="c{n}">{shape}</clipPath>')
        full = (x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed)
        nested = nest(svg, *full, f"f{n}-")
        self.face_parts.append(f'<g clip-path="url(#c{n})">{nested}</g>')
        self.faces.append((svg, full, (*clip, True) if oval else clip))

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
        d = "".join(f"M{num(a)} {num(b)}L{num(c)} {num(e)}" for a, b, c, e in lines)
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

    def svg(self) -> str:
        """The whole page as one SVG document: what the page is (and what its hash is of)."""
        return self._doc("".join(self.clips), "".join(self.face_parts) + "".join(self.parts))

    def page(self, trimbox: Rect, bleedbox: Rect, label: str) -> Page:
        return Page(self.svg(), self.size, trimbox, bleedbox, label, faces=list(self.faces),
                    overlay=self._doc("", "".join(self.parts)))

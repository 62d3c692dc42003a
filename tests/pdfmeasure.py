"""Read back what a PDF draws: stroked segments, filled regions, clips and text sizes per page.

A small content-stream interpreter on top of pypdf (no other dependency): it tracks the
transformation matrix, q/Q, clipping and the text matrix, and reports everything in millimetres
with (0, 0) at the top-left corner of the page, like the generator's own geometry.

>>> pages = read("output/ciudadelas/districts.pdf")          # doctest: +SKIP
>>> xs, ys = pages[0].cuts()                                  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PT = 25.4 / 72.0           # mm per point

Rect = tuple[float, float, float, float]      # x0, y0, x1, y1 (mm, top-left origin)


@dataclass
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float           # stroke width in mm

    @property
    def vertical(self) -> bool:
        return abs(self.x1 - self.x2) < 1e-3

    @property
    def horizontal(self) -> bool:
        return abs(self.y1 - self.y2) < 1e-3

    def bbox(self) -> Rect:
        h = self.width / 2
        return (min(self.x1, self.x2) - h, min(self.y1, self.y2) - h,
                max(self.x1, self.x2) + h, max(self.y1, self.y2) + h)


@dataclass
class Text:
    x: float
    y: float
    size_pt: float
    raw: str
    seq: int = 0           # when it is drawn, in the page's drawing order (see PageDrawing.fill_seq)
    form: str = ""         # the name of the page's form XObject it is drawn in ("" on the page)


@dataclass
class PageDrawing:
    size: tuple[float, float]
    trimbox: Rect | None
    bleedbox: Rect | None
    strokes: list[Segment] = field(default_factory=list)
    fills: list[Rect] = field(default_factory=list)        # painted area (clipped) of each fill
    clips: list[Rect] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    fill_seq: list[int] = field(default_factory=list)      # when each fill is drawn (as Text.seq)

    def marks(self) -> list[Segment]:
        """Crop marks: axis-aligned strokes lying wholly outside the BleedBox."""
        if self.bleedbox is None:
            return []
        bx0, by0, bx1, by1 = self.bleedbox
        out = []
        for s in self.strokes:
            if not (s.vertical or s.horizontal):
                continue
            x0, y0, x1, y1 = s.bbox()
            if x1 <= bx0 + 1e-3 or x0 >= bx1 - 1e-3 or y1 <= by0 + 1e-3 or y0 >= by1 - 1e-3:
                out.append(s)
        return out

    def cuts(self) -> tuple[list[float], list[float]]:
        """x of every vertical cut line and y of every horizontal one, read from the marks."""
        xs = _unique([s.x1 for s in self.marks() if s.vertical])
        ys = _unique([s.y1 for s in self.marks() if s.horizontal])
        return xs, ys

    def painted(self, min_area: float = 0.0) -> list[Rect]:
        return [r for r in self.fills if (r[2] - r[0]) * (r[3] - r[1]) > min_area]


def _unique(values: list[float], tol: float = 0.01) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > tol:
            out.append(v)
    return out


def overlaps(a: Rect, b: Rect, tol: float = 0.01) -> bool:
    """True when two rectangles share more than ``tol`` mm in both directions."""
    return (min(a[2], b[2]) - max(a[0], b[0]) > tol) and (min(a[3], b[3]) - max(a[1], b[1]) > tol)


def _mul(m: list[float], n: list[float]) -> list[float]:
    """m then n (PDF row-vector convention)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E,
            e * B + f * D + F]


def _apply(m: list[float], x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _intersect(a: Rect | None, b: Rect) -> Rect | None:
    if a is None:
        return b
    r = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return r if r[0] < r[2] and r[1] < r[3] else (r[0], r[1], r[0], r[1])


def _box(obj, page_h_pt: float) -> Rect | None:
    if obj is None:
        return None
    x0, y0, x1, y1 = (float(v) for v in obj)
    return (x0 * PT, (page_h_pt - y1) * PT, x1 * PT, (page_h_pt - y0) * PT)


#: What :func:`read` and :func:`words` made of the last few files, by kind and the file's bytes:
#: the print tests read each PDF of a kit in more than one check (a text-overflow check reads its
#: words twice, the size and the overflow checks both read its drawing).
_MEMO: OrderedDict[tuple[str, str], object] = OrderedDict()
_MEMO_SIZE = 16


def _remembered(kind: str, path: str | Path, make: Callable[[str | Path], Any]) -> Any:
    """``make(path)``, or what it gave for a file with the same bytes."""
    key = (kind, hashlib.sha256(Path(path).read_bytes()).hexdigest())
    if key in _MEMO:
        _MEMO.move_to_end(key)
        return _MEMO[key]
    value = _MEMO[key] = make(path)
    while len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return value


def read(path: str | Path) -> list[PageDrawing]:
    """Every page of a PDF as a :class:`PageDrawing`."""
    return list(_remembered("read", path, _read))


def _read(path: str | Path) -> list[PageDrawing]:
    from pypdf import PdfReader
    reader = PdfReader(str(path))
    parsed: dict = {}           # a form drawn many times (a sheet's faces) is parsed once
    return [read_page(page, reader, parsed) for page in reader.pages]


# One token of a content stream that needs no pypdf object: white space, then a number, an
# operator or a name without '#' escapes, each ending where a delimiter (or the end) begins.
_END = rb"(?=[\s()<>\[\]{}/%]|\Z)"
_TOKEN = re.compile(rb"[\x00\t\n\f\r ]*(?:(?P<num>[+-]?(?:\d+\.?\d*|\.\d+))" + _END
                    + rb"|(?P<op>[A-Za-z'\"][^\s()<>\[\]{}/%]*)|(?P<name>/[^\s()<>\[\]{}/%#]*)" + _END + rb")")
_BLANK = re.compile(rb"[\x00\t\n\f\r ]*")


def operations(contents, reader, parsed: dict | None = None) -> list[tuple[list, bytes]]:
    """``ContentStream(contents, reader).operations``, read faster: numbers, operators and plain
    names by one regular expression (numbers as Python numbers), every other operand (strings,
    arrays, dictionaries) by pypdf's own reader; a stream with an inline image or a comment is
    left to pypdf whole.  ``parsed`` keeps the result per indirect object (a form drawn again)."""
    from io import BytesIO

    from pypdf.generic import ContentStream, NameObject, read_object
    ref = getattr(contents, "indirect_reference", None)
    key = (ref.idnum, ref.generation) if ref is not None else None
    if parsed is not None and key is not None and key in parsed:
        return parsed[key]
    data = contents.get_data() if hasattr(contents, "get_data") else b""
    if not isinstance(data, bytes) or b"BI" in data or b"%" in data:
        ops = ContentStream(contents, reader).operations
    else:
        ops, operands, pos, end = [], [], 0, len(data)
        stream = BytesIO(data)
        match, blank = _TOKEN.match, _BLANK.match
        while True:
            pos = blank(data, pos).end()
            if pos >= end:
                break
            m = match(data, pos)
            if m is None:                   # a string, an array, a dictionary: pypdf reads it
                stream.seek(pos)
                operands.append(read_object(stream, None))
                pos = stream.tell()
                continue
            pos = m.end()
            if m["num"] is not None:
                text = m["num"]
                operands.append(float(text) if b"." in text else int(text))
            elif m["op"] is not None:
                ops.append((operands, m["op"]))
                operands = []
            else:
                operands.append(NameObject(m["name"].decode()))
    if parsed is not None and key is not None:
        parsed[key] = ops
    return ops


def read_page(page, reader, parsed: dict | None = None) -> PageDrawing:
    """One page, form XObjects (how the engine places each face) followed recursively."""
    mb = [float(v) for v in page.mediabox]
    w_pt, h_pt = mb[2] - mb[0], mb[3] - mb[1]
    out = PageDrawing((w_pt * PT, h_pt * PT), _box(page.get("/TrimBox"), h_pt),
                      _box(page.get("/BleedBox"), h_pt))
    contents = page.get_contents()
    if contents is not None:
        _Interpreter(out, h_pt, reader, parsed).run(contents, page.get("/Resources"), [1.0, 0, 0, 1.0, 0, 0], None)
    return out


class _Interpreter:
    def __init__(self, out: PageDrawing, h_pt: float, reader, parsed: dict | None = None):
        self.out, self.h_pt, self.reader = out, h_pt, reader
        self.parsed = {} if parsed is None else parsed

    def dev(self, x: float, y: float) -> tuple[float, float]:
        """Device (pt, bottom-left) -> mm, top-left."""
        return x * PT, (self.h_pt - y) * PT

    def run(self, contents, resources, ctm: list[float], clip: Rect | None, depth: int = 0,
            form_name: str = "") -> None:
        out, dev = self.out, self.dev
        resources = resources.get_object() if resources is not None else {}
        width = 1.0
        stack: list = []
        subpaths: list[list[tuple[float, float]]] = []
        lines: list[tuple[tuple[float, float], tuple[float, float]]] = []
        pending_clip = False
        tm = [1.0, 0, 0, 1.0, 0, 0]
        tlm = list(tm)
        font_size = 0.0
        leading = 0.0

        def path_bbox() -> Rect | None:
            pts = [p for sp in subpaths for p in sp]
            if not pts:
                return None
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            return (min(xs), min(ys), max(xs), max(ys))

        def scale() -> float:
            return math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))

        for operands, op in operations(contents, self.reader, self.parsed):
            op = op.decode() if isinstance(op, bytes) else op
            if op == "q":
                stack.append((list(ctm), clip, width))
            elif op == "Q":
                if stack:
                    ctm, clip, width = stack.pop()
            elif op == "cm":
                ctm = _mul([float(v) for v in operands], ctm)
            elif op == "w":
                width = float(operands[0])
            elif op == "Do":
                xobjects = resources.get("/XObject", {})
                form = xobjects[operands[0]].get_object() if operands[0] in xobjects else None
                if form is not None and form.get("/Subtype") == "/Form" and depth < 8:
                    m = _mul([float(v) for v in form.get("/Matrix", [1, 0, 0, 1, 0, 0])], ctm)
                    x0, y0, x1, y1 = (float(v) for v in form["/BBox"])
                    corners = [dev(*_apply(m, x, y)) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
                    bbox = (min(c[0] for c in corners), min(c[1] for c in corners),
                            max(c[0] for c in corners), max(c[1] for c in corners))
                    self.run(form, form.get("/Resources"), m, _intersect(clip, bbox), depth + 1,
                             form_name or str(operands[0]))
            elif op == "m":
                subpaths.append([dev(*_apply(ctm, float(operands[0]), float(operands[1])))])
            elif op == "l":
                p = dev(*_apply(ctm, float(operands[0]), float(operands[1])))
                if subpaths and subpaths[-1]:
                    lines.append((subpaths[-1][-1], p))
                    subpaths[-1].append(p)
            elif op in ("c", "v", "y"):
                pts = [float(v) for v in operands]
                for i in range(0, len(pts), 2):
                    if subpaths:
                        subpaths[-1].append(dev(*_apply(ctm, pts[i], pts[i + 1])))
            elif op == "re":
                x, y, w, h = (float(v) for v in operands)
                subpaths.append([dev(*_apply(ctm, x + dx, y + dy)) for dx, dy in
                                 ((0, 0), (w, 0), (w, h), (0, h))])
            elif op in ("W", "W*"):
                pending_clip = True
            elif op in ("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"):
                box = path_bbox()
                if box is not None:
                    if op in ("f", "F", "f*", "B", "B*", "b", "b*"):
                        painted = _intersect(clip, box)
                        if painted[2] > painted[0] and painted[3] > painted[1]:
                            out.fills.append(painted)
                            out.fill_seq.append(len(out.fills) + len(out.texts))
                    if op in ("S", "s", "B", "B*", "b", "b*"):
                        wmm = width * scale() * PT
                        for (x1, y1), (x2, y2) in lines:
                            seg = Segment(x1, y1, x2, y2, wmm)
                            if clip is None or overlaps(seg.bbox(), clip, -1e-6):
                                out.strokes.append(seg)
                    if pending_clip:
                        clip = _intersect(clip, box)
                        out.clips.append(box)
                pending_clip = False
                subpaths, lines = [], []
            elif op == "BT":
                tm, tlm = [1.0, 0, 0, 1.0, 0, 0], [1.0, 0, 0, 1.0, 0, 0]
            elif op == "Tf":
                font_size = float(operands[1])
            elif op == "TL":
                leading = float(operands[0])
            elif op == "Tm":
                tm = [float(v) for v in operands]
                tlm = list(tm)
            elif op in ("Td", "TD"):
                tlm = _mul([1, 0, 0, 1, float(operands[0]), float(operands[1])], tlm)
                tm = list(tlm)
            elif op == "T*":
                tlm = _mul([1, 0, 0, 1, 0, -leading], tlm)
                tm = list(tlm)
            elif op in ("Tj", "TJ", "'", '"'):
                m = _mul(tm, ctm)
                size = font_size * math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
                x, y = dev(m[4], m[5])
                raw = operands[-1]
                text = "".join(str(p) for p in raw if not isinstance(p, (int, float))) \
                    if isinstance(raw, list) else str(raw)
                if clip is None or (clip[0] - 1 <= x <= clip[2] + 1 and clip[1] - 1 <= y <= clip[3] + 1):
                    out.texts.append(Text(x, y, size, text, len(out.fills) + len(out.texts) + 1, form_name))


def _walk_resources(resources, seen: set, depth: int = 0):
    """Every resources dictionary reachable from ``resources`` through form XObjects."""
    if resources is None or depth > 8:
        return
    resources = resources.get_object()
    yield resources
    for ref in resources.get("/XObject", {}).values():
        form = ref.get_object()
        ident = getattr(ref, "idnum", id(form))
        if ident in seen:
            continue
        seen.add(ident)
        if form.get("/Subtype") == "/Form":
            yield from _walk_resources(form.get("/Resources"), seen, depth + 1)


def fonts(page) -> list:
    """The font dictionaries a page uses, its form XObjects included."""
    found = []
    for res in _walk_resources(page.get("/Resources"), set()):
        found += [ref.get_object() for ref in res.get("/Font", {}).values()]
    return found


def fingerprint(page) -> str:
    """A hash of what a page draws: its content and every form XObject it paints."""
    import hashlib
    contents = page.get_contents()        # a stream with no keys of its own is falsy: compare to None
    digest = hashlib.sha256(contents.get_data() if contents is not None else b"")
    for res in _walk_resources(page.get("/Resources"), set()):
        for ref in res.get("/XObject", {}).values():
            form = ref.get_object()
            if hasattr(form, "get_data"):
                digest.update(form.get_data())
    return digest.hexdigest()


def looks(path: str | Path, dpi: int = 30) -> list[str]:
    """Per page, a hash of what it shows: its pixels at ``dpi`` (poppler) and its words with their
    places.  Unlike :func:`fingerprint` it does not depend on how the fonts are encoded (the codes
    of a font subset shared by several pages depend on which pages share it)."""
    import hashlib
    import subprocess
    import tempfile
    placed = words(path)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", str(path), f"{tmp}/p"], check=True)
        images = sorted(Path(tmp).glob("p-*.pgm"))
        return [hashlib.sha256(image.read_bytes() + repr(placed.get(n, [])).encode()).hexdigest()
                for n, image in enumerate(images, start=1)]


Word = tuple[str, float, float, float, float]     # text, x0, y0, x1, y1 (mm, top-left origin)


def words(path: str | Path) -> dict[int, list[Word]]:
    """Every word of the text layer per page (1-based), from ``pdftotext -bbox``."""
    return {n: list(page) for n, page in _remembered("words", path, _words).items()}


def _words(path: str | Path) -> dict[int, list[Word]]:
    import re
    import subprocess
    done = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True,
                          check=True)
    out: dict[int, list[Word]] = {}
    for n, page in enumerate(done.stdout.split("<page ")[1:], start=1):
        out[n] = [(w, *(float(v) * PT for v in box)) for *box, w in re.findall(
            r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', page)]
    return out


def text_overflow(path: str | Path, board: bool = False, tol: float = 0.05) -> list[str]:
    """Every word that leaves its face, as "page N: 'word' ..." lines (empty when all is well).

    On a sheet with crop marks no word may straddle a cut line read from the marks; on every
    page each word must lie inside the TrimBox (the faces' area: nothing but marks outside it).
    ``board``: the pages are pieces of a board split across pages; a piece shows a window of the
    face, so words outside its BleedBox (drawn on the neighbouring piece) and words running over
    an inner edge (where the next piece is glued over) are expected; only the board's own edges
    (those with bleed beyond them) and the cut lines on them are checked.
    """
    drawn = read(path)
    problems = []
    for n, page_words in words(path).items():
        page = drawn[n - 1]
        xs, ys = page.cuts()
        trim = page.trimbox or (0.0, 0.0, *page.size)
        bleed = page.bleedbox or trim
        # which sides of the trim are the face's own edges (a piece's inner edges have no bleed)
        outer = [not board or abs(bleed[i] - trim[i]) > tol for i in range(4)]
        if board:
            xs = [c for c in xs if (outer[0] and abs(c - trim[0]) < tol)
                  or (outer[2] and abs(c - trim[2]) < tol)]
            ys = [c for c in ys if (outer[1] and abs(c - trim[1]) < tol)
                  or (outer[3] and abs(c - trim[3]) < tol)]
        for text, x0, y0, x1, y1 in page_words:
            if board and not overlaps((x0, y0, x1, y1), bleed, 0.0):
                continue              # clipped away: this part of the board is on another piece
            crossed = [c for c in xs if x0 + tol < c < x1 - tol] + \
                      [c for c in ys if y0 + tol < c < y1 - tol]
            if crossed:
                problems.append(f"page {n}: {text!r} crosses the cut line at {crossed[0]:.2f} mm")
            out = [(outer[0] and x0 < trim[0] - tol), (outer[1] and y0 < trim[1] - tol),
                   (outer[2] and x1 > trim[2] + tol), (outer[3] and y1 > trim[3] + tol)]
            if any(out):
                problems.append(f"page {n}: {text!r} ({x0:.2f},{y0:.2f})-({x1:.2f},{y1:.2f}) is "
                                f"outside the trim ({trim[0]:.2f},{trim[1]:.2f})-"
                                f"({trim[2]:.2f},{trim[3]:.2f})")
    return problems


def hidden_words(path: str | Path, tol: float = 0.2) -> list[str]:
    """Every word that something painted after it covers (a panel drawn over a label), as
    "page N: 'word' ... under the fill ..." lines; empty when every word stays on top.

    Each word of the text layer is matched to the text run that draws it (same baseline, the run
    starts at or before it and holds it); a fill drawn later that overlaps the word's box by more
    than ``tol`` mm both ways covers it.
    """
    import numpy as np
    problems = []
    drawn = read(path)
    for n, page_words in words(path).items():
        page = drawn[n - 1]
        fills = np.array(page.fills, dtype=float).reshape(-1, 4)
        seqs = np.array(page.fill_seq, dtype=int)
        for text, x0, y0, x1, y1 in page_words:
            runs = [t for t in page.texts if y0 - 0.3 <= t.y <= y1 + 0.3 and t.x <= x0 + 0.3
                    and text in t.raw]
            if not runs:
                continue
            run = max(runs, key=lambda t: t.x)
            over = (seqs > run.seq) & (np.minimum(fills[:, 2], x1) - np.maximum(fills[:, 0], x0) > tol) \
                & (np.minimum(fills[:, 3], y1) - np.maximum(fills[:, 1], y0) > tol)
            if over.any():
                bx0, by0, bx1, by1 = fills[over.argmax()]
                problems.append(f"page {n}: {text!r} ({x0:.2f},{y0:.2f})-({x1:.2f},{y1:.2f}) is under "
                                f"the fill ({bx0:.2f},{by0:.2f})-({bx1:.2f},{by1:.2f}) drawn after it")
    return problems


def pdf_complaints(path: str | Path) -> list[str]:
    """What pypdf objects to in a PDF read in strict mode, every page, every resource dictionary
    (form XObjects followed) and every content stream parsed: its errors and logged warnings."""
    import logging
    from pypdf import PdfReader
    from pypdf.generic import ContentStream

    class Collect(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.WARNING)
            self.messages: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.messages.append(record.getMessage())

    handler = Collect()
    logger = logging.getLogger("pypdf")
    logger.addHandler(handler)
    try:
        reader = PdfReader(str(path), strict=True)
        for page in reader.pages:
            for res in _walk_resources(page.get("/Resources"), set()):
                for kind in res.values():
                    kind = kind.get_object()
                    if hasattr(kind, "values"):
                        for value in kind.values():
                            value.get_object()
            if page.get_contents() is not None:
                _ = ContentStream(page.get_contents(), reader).operations  # parsing is the check
    except Exception as exc:  # what strict mode refuses
        handler.messages.append(f"{type(exc).__name__}: {exc}")
    finally:
        logger.removeHandler(handler)
    return handler.messages


# ---------------------------------------------------------------- PNGs written by --png

@dataclass
class Image:
    """A PNG read back: its size and the colour of any pixel (via cairo, which the build uses)."""

    width: int
    height: int
    _data: bytes
    _stride: int

    def rgb(self, x: int, y: int) -> tuple[int, int, int]:
        """(r, g, b) at pixel (x, y) (ARGB32 little-endian: stored as B, G, R, A)."""
        i = y * self._stride + 4 * x
        b, g, r = self._data[i], self._data[i + 1], self._data[i + 2]
        return r, g, b

    def mean(self, x: float, y: float, radius: int = 2) -> tuple[float, float, float]:
        """Mean colour of the square of pixels around (x, y)."""
        cx, cy = int(x), int(y)
        px = [self.rgb(i, j) for i in range(cx - radius, cx + radius + 1)
              for j in range(cy - radius, cy + radius + 1)]
        return tuple(sum(p[k] for p in px) / len(px) for k in range(3))


def read_png(path: str | Path) -> Image:
    import cairocffi as cairo
    surface = cairo.ImageSurface.create_from_png(str(path))
    if surface.get_format() != cairo.FORMAT_ARGB32:
        surface2 = cairo.ImageSurface(cairo.FORMAT_ARGB32, surface.get_width(), surface.get_height())
        ctx = cairo.Context(surface2)
        ctx.set_source_surface(surface)
        ctx.paint()
        surface = surface2
    surface.flush()
    return Image(surface.get_width(), surface.get_height(), bytes(surface.get_data()),
                 surface.get_stride())


def colour_distance(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return math.dist(a, b)

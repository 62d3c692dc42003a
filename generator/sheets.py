"""Sheet geometry: where each item, its visible bleed and every crop mark go on a page.

All numbers are millimetres with (0, 0) at the top-left corner of the paper.  The layout data
(papers, marks, margins, sheet kinds) lives in ``sheets.yaml``.
"""

from __future__ import annotations

import functools
import math
import re
from pathlib import Path

from .model import GeneratorError
from .record import record

Rect = tuple[float, float, float, float]          # x, y, w, h
Line = tuple[float, float, float, float]          # x1, y1, x2, y2


@functools.lru_cache(maxsize=1)
def data() -> dict:
    """The contents of sheets.yaml."""
    from . import owndata
    return owndata.load(Path(__file__).with_name("sheets.yaml"))


#: A paper given as WxH, compiled at its first use (re's own cache): a named paper never needs it.
_CUSTOM = r"(?i)^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$"


def paper_size(paper: str) -> tuple[float, float]:
    """(w, h) in mm of a named paper (a4, letter, a3, tabloid) or of ``WxH`` in millimetres.

    >>> paper_size("a3"), paper_size("100x150")
    ((297.0, 420.0), (100.0, 150.0))
    """
    papers = data()["papers"]
    key = paper.lower()
    if key in papers:
        w, h = papers[key]["size"]
        return float(w), float(h)
    match = re.match(_CUSTOM, paper)
    if match is None:
        raise GeneratorError(f"unknown paper '{paper}' (choose {', '.join(papers)} or WxH in mm)")
    w, h = float(match.group(1)), float(match.group(2))
    low, high = (float(v) for v in data()["custom_paper"])
    if not (low <= w <= high and low <= h <= high):
        raise GeneratorError(f"paper {paper}: each side must be between {low:g} and {high:g} mm")
    return w, h


def paper_name(paper: str, lang: str) -> str:
    """How the print guide names a paper: its name, or ``W × H mm``."""
    papers = data()["papers"]
    if paper.lower() in papers:
        return papers[paper.lower()]["name"][lang]
    w, h = paper_size(paper)
    return f"{w:g} × {h:g} mm"


def item_size(name: str) -> tuple[float, float]:
    """A named item size of sheets.yaml (``poker``: 63 x 88 mm)."""
    items = data()["items"]
    if name not in items:
        raise GeneratorError(f"unknown item size '{name}' (sheets.yaml has {', '.join(items)})")
    w, h = items[name]
    return float(w), float(h)


def _mark_room() -> float:
    m = data()["marks"]
    return m["gap"] + m["min_length"]


def fit_count(paper: float, item: float, bleed: float) -> int:
    """How many items fit along one axis: gutters of at least ``min_gutter``, room for the marks.

    >>> fit_count(210, 63, 3), fit_count(297, 88, 3), fit_count(420, 88, 3)
    (3, 3, 4)
    """
    gap = float(data()["min_gutter"]) if bleed > 0 else 0.0
    room = paper - 2 * bleed - 2 * _mark_room()
    return max(0, int(math.floor((room + gap) / (item + gap) + 1e-9)))


def _gutter(paper: float, item: float, n: int, bleed: float) -> float:
    """2*bleed when it fits, else the largest gutter that leaves room for the marks."""
    if n <= 1 or bleed <= 0:
        return 0.0
    spare = paper - n * item - 2 * bleed - 2 * _mark_room()
    return max(0.0, min(2 * bleed, spare / (n - 1)))


@record(frozen=True)
class _Sheet:
    """One item size with its bleed on one paper, in cols x rows (grid cells or board pieces)."""

    paper: tuple[float, float]
    item: tuple[float, float]
    cols: int
    rows: int
    bleed: float

    @property
    def count(self) -> int:
        """How many cells (grid) or pieces (board)."""
        return self.cols * self.rows


@record(frozen=True)
class Grid(_Sheet):
    """Items of one size on one paper: cols x rows, centred, with bleed, gutters and crop marks."""

    gutter: tuple[float, float]

    @classmethod
    def make(cls, paper: str | tuple[float, float], item: tuple[float, float], bleed: float,
             grid: tuple[int, int] | None = None, what: str = "items") -> Grid:
        """Lay out items of ``item`` size on ``paper`` (a name or (w, h) mm); ``grid`` forces
        cols x rows, else as many as fit."""
        pw, ph = paper_size(paper) if isinstance(paper, str) else (float(paper[0]), float(paper[1]))
        w, h = item
        if grid is None:
            grid = (fit_count(pw, w, bleed), fit_count(ph, h, bleed))
        cols, rows = grid
        need_w = cols * w + 2 * bleed + 2 * _mark_room()
        need_h = rows * h + 2 * bleed + 2 * _mark_room()
        if cols < 1 or rows < 1 or need_w > pw + 1e-9 or need_h > ph + 1e-9:
            raise GeneratorError(f"{what}: {cols}x{rows} items of {w:g}x{h:g} mm with {bleed:g} mm "
                                 f"bleed do not fit on {paper if isinstance(paper, str) else 'the paper'} "
                                 f"({pw:g}x{ph:g} mm)")
        gutter = (_gutter(pw, w, cols, bleed), _gutter(ph, h, rows, bleed))
        return cls((pw, ph), (float(w), float(h)), cols, rows, float(bleed), gutter)

    @property
    def per_page(self) -> int:
        return self.count

    @property
    def origin(self) -> tuple[float, float]:
        """Top-left trim corner of the item at column 0, row 0 (the grid is centred)."""
        gw = self.cols * self.item[0] + (self.cols - 1) * self.gutter[0]
        gh = self.rows * self.item[1] + (self.rows - 1) * self.gutter[1]
        return (self.paper[0] - gw) / 2, (self.paper[1] - gh) / 2

    def trim(self, col: int, row: int) -> Rect:
        """Trim rectangle of the item at (col, row)."""
        x0, y0 = self.origin
        w, h = self.item
        return x0 + col * (w + self.gutter[0]), y0 + row * (h + self.gutter[1]), w, h

    def visible(self, col: int, row: int) -> Rect:
        """Trim plus the bleed that shows: full on the outer edges, half the gutter inside."""
        x, y, w, h = self.trim(col, row)
        b, (gx, gy) = self.bleed, self.gutter
        left = b if col == 0 else min(b, gx / 2)
        right = b if col == self.cols - 1 else min(b, gx / 2)
        top = b if row == 0 else min(b, gy / 2)
        bottom = b if row == self.rows - 1 else min(b, gy / 2)
        return x - left, y - top, w + left + right, h + top + bottom

    def slot(self, index: int) -> tuple[int, int]:
        """(col, row) of the n-th item on a page: rows left to right, top to bottom."""
        return index % self.cols, index // self.cols

    def back_slot(self, index: int) -> tuple[int, int]:
        """(col, row) of the back of the n-th item: mirrored for a long-edge flip."""
        col, row = self.slot(index)
        return self.cols - 1 - col, row

    def trimbox(self) -> Rect:
        """Bounding box of every trim of a full page."""
        x0, y0 = self.origin
        x1, y1, w, h = self.trim(self.cols - 1, self.rows - 1)
        return x0, y0, x1 + w - x0, y1 + h - y0

    def bleedbox(self) -> Rect:
        x, y, w, h = self.trimbox()
        b = self.bleed
        return x - b, y - b, w + 2 * b, h + 2 * b

    def cuts(self) -> tuple[list[float], list[float]]:
        """x of every vertical cut line and y of every horizontal one (shared lines once)."""
        trims = [self.trim(c, r) for r in range(self.rows) for c in range(self.cols)]
        xs = [v for x, _, w, _ in trims for v in (x, x + w)]
        ys = [v for _, y, _, h in trims for v in (y, y + h)]
        return _unique(xs), _unique(ys)

    def marks(self) -> list[Line]:
        """Crop marks: on every cut line, in the page margins, outside the bleed."""
        return crop_marks(self.bleedbox(), *self.cuts(), self.paper)


def crop_marks(bleedbox: Rect, xs: list[float], ys: list[float],
               paper: tuple[float, float]) -> list[Line]:
    """Marks for vertical cuts at ``xs`` and horizontal cuts at ``ys`` around ``bleedbox``."""
    m = data()["marks"]
    gap, longest = m["gap"], m["max_length"]
    bx, by, bw, bh = bleedbox
    lines: list[Line] = []
    top, bottom = by - gap, by + bh + gap
    for x in xs:
        lines.append((x, top, x, max(0.0, top - longest)))
        lines.append((x, bottom, x, min(paper[1], bottom + longest)))
    left, right = bx - gap, bx + bw + gap
    for y in ys:
        lines.append((left, y, max(0.0, left - longest), y))
        lines.append((right, y, min(paper[0], right + longest), y))
    return lines


def _unique(values: list[float]) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or abs(v - out[-1]) > 1e-6:
            out.append(v)
    return out


@record(frozen=True)
class PageArea:
    """Layout "page": one item filling the printable area of the paper."""

    paper: tuple[float, float]
    margin: float

    @classmethod
    def make(cls, paper: str) -> PageArea:
        return cls(paper_size(paper), float(data()["page"]["margin"]))

    @property
    def item(self) -> tuple[float, float]:
        return self.paper[0] - 2 * self.margin, self.paper[1] - 2 * self.margin

    def trim(self) -> Rect:
        return self.margin, self.margin, *self.item


@record(frozen=True)
class Piece:
    """One page of a board: the window of the board it shows and where that lands on the page."""

    col: int
    row: int
    window: Rect        # in board coordinates (0, 0 = board trim top-left; bleed is negative)
    at: tuple[float, float]  # page position of the window's top-left corner


@record(frozen=True)
class Board(_Sheet):
    """Layout "board": the item centred on one page, or split in pieces that overlap."""

    overlap: float
    margin: float

    @classmethod
    def make(cls, paper: str, item: tuple[float, float], bleed: float) -> Board:
        pw, ph = paper_size(paper)
        cfg = data()["board"]
        margin, overlap = float(cfg["margin"]), float(cfg["overlap"])
        bw, bh = item[0] + 2 * bleed, item[1] + 2 * bleed
        aw, ah = pw - 2 * margin, ph - 2 * margin
        cols = 1 if bw <= aw else math.ceil((bw - overlap) / (aw - overlap))
        rows = 1 if bh <= ah else math.ceil((bh - overlap) / (ah - overlap))
        return cls((pw, ph), (float(item[0]), float(item[1])), cols, rows, float(bleed),
                   overlap, margin)

    @property
    def split(self) -> bool:
        return self.count > 1

    def _axis(self, n: int, size: float) -> list[tuple[float, float]]:
        """(start, length) of each piece along one axis, in board coords including bleed."""
        total = size + 2 * self.bleed
        if n == 1:
            return [(-self.bleed, total)]
        step = (total - self.overlap) / n
        length = step + self.overlap
        return [(-self.bleed + i * step, length) for i in range(n)]

    def pieces(self) -> list[Piece]:
        pw, ph = self.paper
        out = []
        xs = self._axis(self.cols, self.item[0])
        ys = self._axis(self.rows, self.item[1])
        for r, (wy, wh) in enumerate(ys):
            for c, (wx, ww) in enumerate(xs):
                out.append(Piece(c, r, (wx, wy, ww, wh), ((pw - ww) / 2, (ph - wh) / 2)))
        return out


@record(frozen=True)
class Fold:
    """``--layout fold``: fronts on the left half, backs mirrored on the right half.

    Fold the sheet along the vertical line at the middle (a page turn), glue, then cut along the
    marks: each back lands behind its front.  The grid of each half is centred in its half, so
    gutters and marks are symmetric about the fold.  The paper is turned to landscape when that
    holds more items.
    """

    paper: tuple[float, float]
    half: Grid

    @classmethod
    def make(cls, paper: str, item: tuple[float, float], bleed: float, what: str = "items") -> Fold:
        pw, ph = paper_size(paper)
        best: Fold | None = None
        for w, h in ((pw, ph), (ph, pw)):
            try:
                half = Grid.make((w / 2, h), item, bleed, None, what)
            except GeneratorError:
                continue
            if best is None or half.count > best.half.count:
                best = cls((w, h), half)
        if best is None:
            raise GeneratorError(f"{what}: items of {item[0]:g}x{item[1]:g} mm with {bleed:g} mm bleed "
                                 f"do not fit on half of {paper} ({pw:g}x{ph:g} mm) to fold")
        return best

    @property
    def per_page(self) -> int:
        return self.half.count

    @property
    def fold_x(self) -> float:
        return self.paper[0] / 2

    def mirror(self, rect: Rect) -> Rect:
        """A rectangle of the left half reflected across the fold."""
        x, y, w, h = rect
        return self.paper[0] - x - w, y, w, h

    def front(self, index: int) -> tuple[Rect, Rect]:
        """(trim, visible) of the n-th front on the left half."""
        col, row = self.half.slot(index)
        return self.half.trim(col, row), self.half.visible(col, row)

    def back(self, index: int) -> tuple[Rect, Rect]:
        """(trim, visible) of the n-th back: its front's place reflected across the fold."""
        trim, visible = self.front(index)
        return self.mirror(trim), self.mirror(visible)

    def fold_line(self) -> Line:
        return self.fold_x, 0.0, self.fold_x, self.paper[1]

    def marks(self) -> list[Line]:
        """The crop marks of the left half and their reflection across the fold."""
        left = self.half.marks()
        w = self.paper[0]
        return left + [(w - a, b, w - c, d) for a, b, c, d in left]

    def trimbox(self) -> Rect:
        x, y, tw, th = self.half.trimbox()
        return x, y, self.paper[0] - 2 * x, th

    def bleedbox(self) -> Rect:
        x, y, bw, bh = self.half.bleedbox()
        return x, y, self.paper[0] - 2 * x, bh

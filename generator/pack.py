"""Tokens and counters of mixed sizes packed on as few sheets as they fit.

A game's small pieces (counters, markers, tokens: many sizes, a few dozen of each) would take a
mostly empty sheet per size in a grid.  Here they share sheets: pieces go in rows, largest first;
consecutive rows of round pieces of one size nest in each other's gaps (a hexagonal packing).
Every piece carries its own cut line (a circle on a round piece, a rectangle on a square one)
instead of crop marks, so a craft knife, scissors or a 1-inch punch follows it; a round piece
shows its bleed as a ring, clipped to a circle, so neighbours never paint over each other.

Two-sided pieces come first, on the first sheets: with ``--layout duplex`` each sheet is
followed by its back (the backs at the mirrored places, for a long-edge flip; blank where a piece
has one side); with ``--layout fold`` a two-sided piece is printed as a strip, its front and back
either side of a dashed fold line, folded and glued, then cut.

The numbers (gap, margin, cut line, punch) are data in ``sheets.yaml`` (``pack``); the sizes come
from each game's cards.
"""

from __future__ import annotations

import math

from .model import Component, GeneratorError
from .record import record
from .sheets import Rect, data


@record(frozen=True)
class Item:
    """One piece to place: its trim size, whether it is round, whether it is a fold strip."""

    w: float
    h: float
    round: bool = False
    strip: bool = False       # a front and its back side by side (2w x h), to fold


@record(frozen=True)
class Placed:
    """Where one piece landed: its page and trim rectangle (the strip's whole rectangle)."""

    page: int
    rect: Rect


def settings(bleed: float) -> tuple[float, float]:
    """(gap between neighbouring cut lines, margin kept free at the page edges), mm.

    Each piece shows half the gap as bleed; the gap is never wider than two bleeds (no more bleed
    than asked for) nor narrower than ``min_gutter``.

    >>> settings(3.0), settings(0.0)
    ((3.0, 5.0), (1.5, 5.0))
    """
    cfg = data()["pack"]
    gap = max(float(data()["min_gutter"]), min(2 * bleed, float(cfg["gap"])))
    return gap, float(cfg["margin"])


@record
class _Shelf:
    """A row of pieces on a page: its top, the tallest piece it takes, the next free x."""

    page: int
    y: float
    h: float
    x: float
    items: list[Item]
    nested: bool = False      # nests into the row above: takes only pieces like its first
    shift: float = 0.0        # how far its first piece starts right of the left margin


def _alike(a: Item, b: Item) -> bool:
    """Two round pieces of one size (rows of them nest)."""
    return a.round and b.round and not a.strip and not b.strip and (a.w, a.h) == (b.w, b.h)


def pack(items: list[Item], paper: tuple[float, float], gap: float, margin: float,
         what: str = "pieces") -> list[Placed]:
    """Place ``items`` (largest first) on as few pages of ``paper`` as they fit, in rows.

    Each piece goes into the last row of the first page where it fits (as wide as the room left,
    no taller than the row), else into a new row under it on the first page with room for one,
    else on a new page.  A row of round pieces of one size under a row of pieces just like them
    is shifted half a step and nests into its gaps (a hexagonal packing).

    >>> spots = pack([Item(20, 20, True)] * 3, (70, 100), 3, 5)
    >>> [(p.page, p.rect[:2]) for p in spots]
    [(0, (6.5, 6.5)), (0, (29.5, 6.5)), (0, (18.0, 26.419))]
    """
    pw, ph = paper
    left, top = margin + gap / 2, margin + gap / 2
    right, bottom = pw - margin - gap / 2, ph - margin - gap / 2
    last: list[_Shelf] = []           # the last row of each page
    rows: list[list[_Shelf]] = []     # every row of each page
    placed: list[list[tuple[Item, Rect]]] = []   # what each page holds already
    out: list[Placed] = []

    def free(page: int, item: Item, x: float, y: float, w: float) -> bool:
        """No piece of ``page`` comes nearer than the gap to ``item`` placed at x, y."""
        return not any(_near(item, (x, y, w, item.h), other, rect, gap) for other, rect in placed[page])

    for item in items:
        w = item.w * (2 if item.strip else 1)
        if w > right - left + 1e-9 or item.h > bottom - top + 1e-9:
            raise GeneratorError(f"{what}: a piece of {w:g} x {item.h:g} mm does not fit on the "
                                 f"paper ({pw:g} x {ph:g} mm) with its margins")
        # the room left at the end of any row (the last row's, or a gap an earlier row left)
        shelf = next((s for page in rows for s in page
                      if s.x + w <= right + 1e-9 and item.h <= s.h + 1e-9
                      and ((s is last[s.page] and (not s.nested or _alike(s.items[0], item)))
                           or (s is not last[s.page] and free(s.page, item, s.x, s.y, w)))), None)
        if shelf is None:
            for page, above in enumerate(last):
                nest = all(_alike(r, item) for r in above.items)
                pitch = item.h + gap
                y = above.y + (pitch * math.sqrt(3) / 2 if nest else max(r.h for r in above.items) + gap)
                if y + item.h <= bottom + 1e-9:
                    shift = (pitch / 2 if above.shift == 0.0 else 0.0) if nest else 0.0
                    if left + shift + w > right + 1e-9:
                        shift = 0.0
                        y = above.y + max(r.h for r in above.items) + gap
                        nest = False
                        if y + item.h > bottom + 1e-9:
                            continue
                    shelf = last[page] = _Shelf(page, y, item.h, left + shift, [], nest, shift)
                    rows[page].append(shelf)
                    break
        if shelf is None:
            shelf = _Shelf(len(last), top, item.h, left, [])
            last.append(shelf)
            rows.append([shelf])
            placed.append([])
        rect = (round(shelf.x, 3), round(shelf.y, 3), w, item.h)
        out.append(Placed(shelf.page, rect))
        placed[shelf.page].append((item, rect))
        shelf.items.append(item)
        shelf.x += w + gap
    return out


def _near(a: Item, ra: Rect, b: Item, rb: Rect, gap: float) -> bool:
    """Whether two placed pieces come closer than ``gap`` (discs by their circles)."""
    if a.round and b.round and not a.strip and not b.strip:
        ax, ay = ra[0] + ra[2] / 2, ra[1] + ra[3] / 2
        bx, by = rb[0] + rb[2] / 2, rb[1] + rb[3] / 2
        return math.hypot(ax - bx, ay - by) < ra[2] / 2 + rb[2] / 2 + gap - 1e-6
    return (ra[0] < rb[0] + rb[2] + gap - 1e-6 and rb[0] < ra[0] + ra[2] + gap - 1e-6
            and ra[1] < rb[1] + rb[3] + gap - 1e-6 and rb[1] < ra[1] + ra[3] + gap - 1e-6)


def order(comp: Component) -> list[int]:
    """The parts of a packed component in packing order: two-sided ones first (their backs then
    fill the first sheets only), then the largest first (the data's order among equals)."""
    parts = comp.parts
    return sorted(range(len(parts)), key=lambda i: (parts[i].backs is None,
                                                    -parts[i].size_mm[1], -parts[i].size_mm[0]))


def punch_sizes(comp: Component) -> list[float]:
    """Diameters of the round parts a punch of ``pack.punch`` mm cuts (within ``pack.punch_slack``)."""
    cfg = data()["pack"]
    punch, slack = float(cfg["punch"]), float(cfg["punch_slack"])
    return sorted({p.size_mm[0] for p in comp.parts
                   if p.round and abs(p.size_mm[0] - punch) <= slack})


def packed(game: str, cid: str, title: dict, parts: list[Component]) -> Component:
    """One component holding ``parts`` (each of one size, round when its ``round``),
    laid out together by :func:`pack`."""
    fronts = [f for p in parts for f in p.fronts]
    big = max(parts, key=lambda p: p.size_mm[0] * p.size_mm[1])
    return Component(game, cid, title, big.size_mm, fronts, layout="pack", parts=list(parts))


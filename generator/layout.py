"""Components -> pages: the three layouts of generator/API.md (grid, page, board)."""

from __future__ import annotations

from typing import Any

from .compose import Page, PageBuilder, cell
from .model import Component, GeneratorError, Options
from .record import record
from .sheets import Board, Fold, Grid, PageArea, Rect, crop_marks, data, paper_size
from .words import words


@record
class Laid:
    """A component laid out: its pages, the sheets of paper they take, the item size used."""

    pages: list[Page]
    sheets: int
    item: tuple[float, float]
    gutter: tuple[float, float] | None = None
    grid: tuple[int, int] | None = None
    fronts: list[str] | None = None     # the rendered face SVGs (for PNG export)
    backs: list[str] | None = None
    folded: bool = False                # --layout fold: each sheet holds its fronts and backs


def face_size(comp: Component, opts: Options) -> tuple[float, float]:
    """The trim size a component's templates are rendered at (a packed one's: see its parts)."""
    if comp.layout == "page":
        return PageArea.make(opts.paper).item
    return float(comp.size_mm[0]), float(comp.size_mm[1])


def bleed_of(comp: Component, opts: Options) -> float:
    return float(opts.bleed_mm) if comp.bleed and comp.layout != "page" else 0.0


def _shift(rect: Rect, dx: float, dy: float) -> Rect:
    return rect[0] + dx, rect[1] + dy, rect[2], rect[3]


def lay_out(comp: Component, fronts: list[str], backs: list[str] | None, opts: Options,
            first_sheet: int = 0) -> Laid:
    """Pages for a component whose faces are already rendered to SVG (same order as the data).

    ``first_sheet`` numbers the sheets of a slice of a grid component (a streamed deck).
    """
    make: Any = {"grid": _grid, "page": _page, "board": _board, "pack": _pack}.get(comp.layout)
    if make is not None:
        laid = make(comp, fronts, backs, opts, first_sheet) if comp.layout == "grid" else \
            make(comp, fronts, backs, opts)
        laid.fronts, laid.backs = fronts, backs
        group = f"{comp.game}/{comp.id}"      # one text for all (a huge deck keeps its pages)
        for page in laid.pages:
            page.group = group
        return laid
    raise GeneratorError(f"{comp.game}/{comp.id}: unknown layout '{comp.layout}' "
                         "(grid, page, board or pack)")


def grid_of(comp: Component, opts: Options) -> Grid:
    """The grid a grid component's faces go on (duplex or single-sided)."""
    return Grid.make(opts.paper, face_size(comp, opts), bleed_of(comp, opts), comp.grid,
                     f"{comp.game}/{comp.id}")


def per_sheet(comp: Component, opts: Options) -> int:
    """How many items of a grid component one sheet of paper holds."""
    if comp.backs is not None and opts.layout == "fold":
        return Fold.make(opts.paper, face_size(comp, opts), bleed_of(comp, opts),
                         f"{comp.game}/{comp.id}").per_page
    return grid_of(comp, opts).per_page


def _grid(comp: Component, fronts: list[str], backs: list[str] | None, opts: Options,
          first_sheet: int = 0) -> Laid:
    if backs is not None and opts.layout == "fold":
        return _fold(comp, fronts, backs, opts, first_sheet)
    bleed = bleed_of(comp, opts)
    grid = Grid.make(opts.paper, face_size(comp, opts), bleed, comp.grid, f"{comp.game}/{comp.id}")
    dx, dy = opts.back_offset_mm
    pages: list[Page] = []
    n = grid.per_page
    sheets = (len(fronts) + n - 1) // n
    # the same on every sheet: each cell's place, the marks and the boxes, worked out once
    places = [cell(grid.trim(*grid.slot(i)), grid.visible(*grid.slot(i)), bleed) for i in range(n)]
    marks, trimbox, bleedbox = grid.marks(), grid.trimbox(), grid.bleedbox()
    if backs is not None:
        back_places = [cell(_shift(grid.trim(*grid.back_slot(i)), dx, dy),
                            _shift(grid.visible(*grid.back_slot(i)), dx, dy), bleed) for i in range(n)]
        back_marks = [(a + dx, b + dy, c + dx, d + dy) for a, b, c, d in marks]
    for s in range(sheets):
        label = f"{comp.game}/{comp.id} sheet {first_sheet + s + 1}"
        pb = PageBuilder(grid.paper)
        for where, svg in zip(places, fronts[s * n:(s + 1) * n]):
            pb.put(svg, where)
        pb.lines(marks)
        pages.append(pb.page(trimbox, bleedbox, label + " front"))
        if backs is not None:
            pb = PageBuilder(grid.paper)
            for where, svg in zip(back_places, backs[s * n:(s + 1) * n]):
                pb.put(svg, where)
            pb.lines(back_marks)
            pages.append(pb.page(_shift(trimbox, dx, dy), _shift(bleedbox, dx, dy), label + " back"))
    return Laid(pages, sheets, grid.item, grid.gutter, (grid.cols, grid.rows))


def _fold(comp: Component, fronts: list[str], backs: list[str], opts: Options,
          first_sheet: int = 0) -> Laid:
    """Fronts and backs on one side of the paper, either side of a fold line."""
    bleed = bleed_of(comp, opts)
    fold = Fold.make(opts.paper, face_size(comp, opts), bleed, f"{comp.game}/{comp.id}")
    style = data()["fold"]
    n = fold.per_page
    sheets = (len(fronts) + n - 1) // n
    pages: list[Page] = []
    for s in range(sheets):
        pb = PageBuilder(fold.paper)
        for i, svg in enumerate(fronts[s * n:(s + 1) * n]):
            pb.face(svg, *fold.front(i), bleed)
        for i, svg in enumerate(backs[s * n:(s + 1) * n]):
            pb.face(svg, *fold.back(i), bleed)
        pb.lines(fold.marks())
        pb.lines([fold.fold_line()], width=style["width"], colour=style["colour"], dash=style["dash"])
        pages.append(pb.page(fold.trimbox(), fold.bleedbox(),
                             f"{comp.game}/{comp.id} sheet {first_sheet + s + 1} fold"))
    half = fold.half
    return Laid(pages, sheets, half.item, half.gutter, (half.cols, half.rows), folded=True)


def _page(comp: Component, fronts: list[str], backs: list[str] | None, opts: Options) -> Laid:
    area = PageArea.make(opts.paper)
    dx, dy = opts.back_offset_mm
    pages: list[Page] = []
    for i, svg in enumerate(fronts):
        pb = PageBuilder(area.paper)
        pb.face(svg, area.trim(), area.trim(), 0.0)
        label = f"{comp.game}/{comp.id} page {i + 1}"
        pages.append(pb.page(area.trim(), area.trim(), label))
        if backs is not None:
            pb = PageBuilder(area.paper)
            rect = _shift(area.trim(), dx, dy)
            pb.face(backs[i], rect, rect, 0.0)
            pages.append(pb.page(rect, rect, label + " back"))
    return Laid(pages, len(fronts), area.item)


def _board(comp: Component, fronts: list[str], backs: list[str] | None, opts: Options) -> Laid:
    bleed = bleed_of(comp, opts)
    board = Board.make(opts.paper, face_size(comp, opts), bleed)
    w, h = board.item
    pages: list[Page] = []
    pieces = board.pieces()
    for n, svg in enumerate(fronts):
        title = comp.title_in(opts.lang) + (f" {n + 1}" if len(fronts) > 1 else "")
        for piece in pieces:
            pages.append(_board_piece(comp, board, piece, svg, n, title, opts.lang))
    if backs is not None:
        raise GeneratorError(f"{comp.game}/{comp.id}: boards are single-sided (backs=None)")
    return Laid(pages, len(pages), (w, h), grid=(board.cols, board.rows))


def _board_piece(comp: Component, board: Board, piece, svg: str, n: int, title: str,
                 lang: str) -> Page:
    """One sheet of a board: its window of the face, its crop marks and, when the board is split,
    the ticks where the next piece goes and, centred under it (clear of the marks at its edges),
    a label naming the piece in the kit's language ("Tablero de batalla · pieza A2 de 2": rows are
    letters, columns numbers)."""
    w, h = board.item
    wx, wy, ww, wh = piece.window
    ax, ay = piece.at
    ox, oy = ax - wx, ay - wy                 # page position of the board's trim origin
    window = (ax, ay, ww, wh)
    pb = PageBuilder(board.paper)
    pb.face(svg, (ox, oy, w, h), window, board.bleed)
    xs = [ox + x for x in (0.0, w) if wx - 1e-6 <= x <= wx + ww + 1e-6]
    ys = [oy + y for y in (0.0, h) if wy - 1e-6 <= y <= wy + wh + 1e-6]
    pb.lines(crop_marks(window, xs, ys, board.paper))
    if board.split:
        _alignment(pb, board, piece, window)
        name = f"{chr(65 + piece.row)}{piece.col + 1}"
        text = words("kit", "board")["piece"][lang]
        pb.label(text.format(title=title, piece=name, count=board.cols * board.rows), ax + ww / 2,
                 ay + wh + 5, anchor="middle")
    tx0, ty0 = max(ox, ax), max(oy, ay)
    tx1, ty1 = min(ox + w, ax + ww), min(oy + h, ay + wh)
    label = f"{comp.game}/{comp.id} {n + 1} piece {piece.col + 1},{piece.row + 1}"
    return pb.page((tx0, ty0, tx1 - tx0, ty1 - ty0), window, label)


def _alignment(pb: PageBuilder, board: Board, piece, window: Rect) -> None:
    """Dashed ticks in the margin at both edges of every overlap strip.

    The next piece (right or below) is laid over the strip: its edge goes on the inner tick.
    """
    ax, ay, ww, wh = window
    ov = board.overlap
    ticks = []
    if piece.col < board.cols - 1:
        for x in (ax + ww - ov, ax + ww):
            ticks += [(x, ay - 1, x, ay - 4), (x, ay + wh + 1, x, ay + wh + 4)]
    if piece.row < board.rows - 1:
        for y in (ay + wh - ov, ay + wh):
            ticks += [(ax - 1, y, ax - 4, y), (ax + ww + 1, y, ax + ww + 4, y)]
    pb.lines(ticks, colour="#666666", dash="0.8 0.5")


def _pack(comp: Component, fronts: list[str], backs: list[str] | None, opts: Options) -> Laid:
    """Every part's pieces on shared sheets (see :mod:`.pack`): ``fronts`` are the parts' fronts
    in the parts' order, ``backs`` the backs of the two-sided parts, in the same order."""
    from .pack import Item, order, pack, settings
    paper = paper_size(opts.paper)
    bleed = bleed_of(comp, opts)
    gap, margin = settings(bleed)
    shown = min(bleed, gap / 2)                      # the bleed each piece shows
    fold = opts.layout == "fold"
    cfg = data()["pack"]
    front_of: list[list[str]] = []
    back_of: list = []                               # a part's backs, or None when it has none
    start = bstart = 0
    for part in comp.parts:                          # each part's slice of fronts and backs
        n = len(part.fronts)
        front_of.append(fronts[start:start + n])
        start += n
        if part.backs is not None:
            back_of.append((backs or [])[bstart:bstart + n])
            bstart += n
        else:
            back_of.append(None)
    pieces: list[tuple[int, int]] = []               # (part, face) in packing order
    items: list[Item] = []
    for i in order(comp):
        part = comp.parts[i]
        w, h = part.size_mm
        for k in range(len(part.fronts)):
            pieces.append((i, k))
            items.append(Item(float(w), float(h), part.round, fold and part.backs is not None))
    spots = pack(items, paper, gap, margin, f"{comp.game}/{comp.id}")
    sheets = 1 + max((s.page for s in spots), default=0)
    duplex = not fold and any(p.backs is not None for p in comp.parts)
    dx, dy = opts.back_offset_mm
    pages: list[Page] = []
    for sheet in range(sheets):
        on = [(pc, it, sp) for pc, it, sp in zip(pieces, items, spots) if sp.page == sheet]
        label = f"{comp.game}/{comp.id} sheet {sheet + 1}"
        pb = PageBuilder(paper)
        trims, seen = [], []
        for (i, k), item, spot in on:
            x, y, w, h = spot.rect
            fw = item.w
            pb.face(front_of[i][k], (x, y, fw, h), _grow((x, y, fw, h), shown), bleed, item.round)
            trims.append(spot.rect)
            seen.append(_grow(spot.rect, shown))
            if item.strip:
                pb.face(back_of[i][k], (x + fw, y, fw, h), _grow((x + fw, y, fw, h), shown), bleed)
        for (_i, _k), item, spot in on:
            pb.outline(spot.rect, item.round, cfg["cut"]["width"], cfg["cut"]["colour"])
            if item.strip:
                x, y, w, h = spot.rect
                f = cfg["fold"]
                pb.lines([(x + w / 2, y, x + w / 2, y + h)], width=f["width"], colour=f["colour"],
                         dash=f["dash"])
        pages.append(pb.page(_box(trims), _box(seen), label + (" front" if duplex else "")))
        if duplex:
            pb = PageBuilder(paper)
            mirrored = []
            for (i, k), item, spot in on:
                if back_of[i] is None:
                    continue
                x, y, w, h = spot.rect
                rect = (paper[0] - x - w + dx, y + dy, w, h)
                pb.face(back_of[i][k], rect, _grow(rect, shown), bleed, item.round)
                mirrored.append(rect)
            box = _box(mirrored) if mirrored else _shift(_box(trims), dx, dy)
            pages.append(pb.page(box, _box([_grow(r, shown) for r in mirrored]) if mirrored else box,
                                 label + " back"))
    return Laid(pages, sheets, (float(comp.size_mm[0]), float(comp.size_mm[1])), (gap, gap), folded=fold and any(
        p.backs is not None for p in comp.parts))


def _grow(rect: Rect, by: float) -> Rect:
    x, y, w, h = rect
    return x - by, y - by, w + 2 * by, h + 2 * by


def _box(rects: list[Rect]) -> Rect:
    """The bounding box of ``rects``."""
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    x1 = max(r[0] + r[2] for r in rects)
    y1 = max(r[1] + r[3] for r in rects)
    return x0, y0, x1 - x0, y1 - y0

"""Blocks -> a PDF with reportlab's platypus: text that wraps and flows across pages.

Platypus does what a rulebook needs and the SVG face pipeline does not: paragraphs that break
across pages, headings kept with what follows, tables whose rows split across pages
with the header repeated, and an outline.  The fonts are the kit's own (Bitstream Vera, shipped in
reportlab), embedded as subsets; nothing is drawn under 7 pt.
"""

from __future__ import annotations

import functools
import io
import math
from dataclasses import dataclass
from typing import Any

from ..fonts import font_dir
from ..units import mm_to_pt
from .blocks import Block, Heading, Items, MapGrid, Para, Picture, Table, Title

BODY_PT = 9.0
SMALL_PT = 8.0
TABLE_PT = 7.5
FOOTER_PT = 7.0
INK = "#2b2118"
MUTED = "#6b5a4a"
FACES = {"Vera": "Vera.ttf", "VeraBd": "VeraBd.ttf", "VeraIt": "VeraIt.ttf", "VeraBI": "VeraBI.ttf"}


@dataclass(frozen=True)
class Book:
    """What goes around the blocks: the PDF's metadata, the footer, the page, the accent colour."""

    title: str
    subject: str
    lang: str
    footer: str
    accent: str
    page_mm: tuple[float, float]


def _fonts() -> None:
    """Register the fonts, and have reportlab write its streams deflated only: not also in ASCII85
    (a text form of binary data, a quarter larger), which it writes and pypdf reads back slowly
    (5 % of setting a book)."""
    from reportlab import rl_config
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    rl_config.useA85 = 0
    _quick_numbers()
    for name, file in FACES.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(font_dir() / file)))
    addMapping("Vera", 0, 0, "Vera")
    addMapping("Vera", 1, 0, "VeraBd")
    addMapping("Vera", 0, 1, "VeraIt")
    addMapping("Vera", 1, 1, "VeraBI")


_LN10 = math.log(10.0)
_FORMATS = ("%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f")


def fp_str(*numbers: Any) -> str:
    """reportlab's ``fp_str`` (the numbers a page's content is written with: each with up to
    six decimals, fewer as it grows, no trailing zeros, no leading zero), the same text, each
    number's text worked out once: reportlab's own (the pure Python one, when it has no compiled
    one) was a ninth of setting a book, and a book writes the same few numbers over and over."""
    if len(numbers) == 1 and isinstance(numbers[0], (list, tuple)):
        numbers = tuple(numbers[0])
    try:
        return " ".join([_WRITTEN[number] for number in numbers])
    except (KeyError, TypeError):
        pass
    if len(_WRITTEN) > 65536:
        _WRITTEN.clear()
    out = []
    for number in numbers:
        text = _number(number)
        try:
            _WRITTEN[number] = text
        except TypeError:                       # not hashable: written, not kept
            pass
        out.append(text)
    return " ".join(out)


#: a number's text as :func:`fp_str` writes it (1 and 1.0 are one key and one text)
_WRITTEN: dict = {}


def _number(number) -> str:
    size = abs(number)
    if size <= 1e-7:
        return "0"
    places = 6 if size <= 1 else min(max(0, 6 - int(math.log(size) / _LN10)), 6)
    text = _FORMATS[places] % number
    if places:
        text = text.rstrip("0")
        if text[-1] == ".":
            text = text[:-1]
    return text[1:] if text[0] == "0" and len(text) > 1 else text


def _quick_numbers() -> None:
    """Have reportlab's modules write numbers with :func:`fp_str` where they use its pure Python
    ``fp_str`` (a compiled one is left alone)."""
    import sys

    from reportlab.lib import rl_accel
    slow = getattr(rl_accel, "_py_fp_str", None)
    if slow is None:
        return
    for name, module in list(sys.modules.items()):
        if name.startswith("reportlab") and getattr(module, "fp_str", None) is slow:
            module.fp_str = fp_str              # type: ignore[attr-defined]


def _styles(accent: str, tight: bool = False) -> dict:
    """The paragraph styles; ``tight``: lines and paragraphs a little closer (the same sizes)."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.styles import ParagraphStyle
    ink = HexColor(INK)
    line = 1.2 if tight else 1.28
    gap = 0.6 if tight else 1.0
    base = ParagraphStyle("body", fontName="Vera", bulletFontName="Vera", fontSize=BODY_PT, leading=BODY_PT * line,
                          textColor=ink, spaceAfter=BODY_PT * 0.5 * gap)
    return {
        "body": base,
        "lead": ParagraphStyle("lead", base, fontSize=BODY_PT + 0.5, leading=(BODY_PT + 0.5) * 1.3,
                               textColor=HexColor(MUTED)),
        "small": ParagraphStyle("small", base, fontSize=SMALL_PT, leading=SMALL_PT * line,
                                spaceAfter=SMALL_PT * 0.45 * gap),
        "item": ParagraphStyle("item", base, spaceAfter=BODY_PT * 0.25 * gap),
        "cell": ParagraphStyle("cell", base, fontSize=TABLE_PT, leading=TABLE_PT * 1.2, spaceAfter=0),
        "head": ParagraphStyle("head", base, fontName="VeraBd", fontSize=TABLE_PT, splitLongWords=0,
                               leading=TABLE_PT * 1.2, spaceAfter=0, textColor=HexColor("#ffffff")),
        1: ParagraphStyle("h1", base, fontName="VeraBd", fontSize=15, leading=18,
                          textColor=HexColor(accent), spaceBefore=4, spaceAfter=6),
        2: ParagraphStyle("h2", base, fontName="VeraBd", fontSize=11, leading=13.5,
                          textColor=HexColor(accent), spaceBefore=7, spaceAfter=3),
        3: ParagraphStyle("h3", base, fontName="VeraBd", fontSize=9.5, leading=12,
                          spaceBefore=5, spaceAfter=2),
        "cover": ParagraphStyle("cover", base, fontName="VeraBd", fontSize=30, leading=36,
                                textColor=HexColor(accent), alignment=1, spaceAfter=8),
        "cover2": ParagraphStyle("cover2", base, fontSize=15, leading=19, alignment=1,
                                 textColor=HexColor(MUTED), spaceAfter=18),
        "cover3": ParagraphStyle("cover3", base, alignment=1, spaceAfter=6),
    }


def _draw_icon(canv, _kind: str, label: str) -> None:
    """The ``icon`` callback of inline ``<onDraw>``: a small vector drawing on the baseline."""
    from reportlab.lib.colors import HexColor
    info = canv._curr_tx_info
    kind, colour, text, shape = (label.split("|") + ["", "", "", ""])[:4]
    size = info["xs"].style.fontSize
    r = size * 0.42
    cx, cy = info["cur_x"] + size * 0.15 + r, info["cur_y"] + size * 0.33
    canv.saveState()
    canv.setFillColor(HexColor(colour or INK))
    canv.setStrokeColor(HexColor(INK))
    canv.setLineWidth(0.4)
    shape_path(canv, shape if kind == "level" else "circle", cx, cy, r)
    if text:
        canv.setFillColor(HexColor("#ffffff" if kind != "res" else INK))
        canv.setFont("VeraBd", max(FOOTER_PT, size * 0.7) if len(text) < 2 else FOOTER_PT)
        canv.drawCentredString(cx, cy - size * 0.25, text)
    canv.restoreState()


def shape_path(canv, shape: str, cx: float, cy: float, r: float, stroke: int = 1) -> None:
    """Fill (and stroke) a level shape: circle, diamond, hexagon or star, centred at (cx, cy)."""
    if shape == "circle":
        canv.circle(cx, cy, r, stroke=stroke, fill=1)
        return
    corners = {"diamond": (4, 0.0, 1.0), "hexagon": (6, math.pi / 6, 1.0), "star": (10, 0.0, 0.5)}
    n, turn, inner = corners.get(shape, (4, 0.0, 1.0))
    path = canv.beginPath()
    for i in range(n):
        radius = r * 1.1 if (shape != "star" or i % 2 == 0) else r * 1.1 * inner
        a = math.pi / 2 + turn + 2 * math.pi * i / n
        x, y = cx + radius * math.cos(a), cy + radius * math.sin(a)
        (path.moveTo if i == 0 else path.lineTo)(x, y)
    path.close()
    canv.drawPath(path, stroke=stroke, fill=1)


def _map_flowable(block: MapGrid, styles: dict):
    from reportlab.lib.colors import HexColor
    from reportlab.platypus import Flowable

    class MapFlowable(Flowable):
        """A starting map: one square per cell, coloured by level, the starts in player colours."""

        fixed = True                       # as high in either setting (see :func:`_shares`)

        def wrap(self, avail_w, avail_h):
            rows, cols = len(block.grid), len(block.grid[0])
            self.cell = min(avail_w / cols, mm_to_pt(9.0))
            self.width, self.height = self.cell * cols, self.cell * rows
            return self.width, self.height

        def draw(self):
            c = self.canv
            rows = len(block.grid)
            s = self.cell
            c.setLineWidth(0.3)
            c.setStrokeColor(HexColor(INK))
            for r, row in enumerate(block.grid):
                for k, code in enumerate(row):
                    x, y = k * s, (rows - 1 - r) * s
                    style = block.styles.get(code)
                    if style:
                        c.setFillColor(HexColor(style["light"]))
                        c.rect(x, y, s, s, stroke=1, fill=1)
                        c.setFillColor(HexColor(style["fill"]))
                        shape_path(c, style["shape"], x + s / 2, y + s / 2, s * 0.26, stroke=0)
                        continue
                    if code == block.hole:
                        c.setFillColor(HexColor("#d8e8f2"))
                        c.rect(x, y, s, s, stroke=1, fill=1)
                        c.line(x, y, x + s, y + s)
                        continue
                    colour = "#e6dfcf"
                    if code.startswith("J") and code[1:].isdigit() and int(code[1:]) <= len(block.colours):
                        colour = block.colours[int(code[1:]) - 1]
                    c.setFillColor(HexColor(colour))
                    c.rect(x, y, s, s, stroke=1, fill=1)
                    c.setFillColor(HexColor("#ffffff" if code.startswith("J") else INK))
                    size = max(FOOTER_PT, min(s * 0.42, 9.0))
                    c.setFont("VeraBd", size)
                    c.drawCentredString(x + s / 2, y + s / 2 - size * 0.35, code)
            c.setLineWidth(0.8)
            c.rect(0, 0, self.width, self.height, stroke=1, fill=0)

    return MapFlowable()


#: a picture placed on a page: (page number from 1, x, y, width, height in points, the picture)
Placed = tuple[int, float, float, float, float, Picture]


def _picture_flowable(block: Picture, placed: list[Placed], max_h: float | None = None):
    """Room for a picture; where it lands is noted in ``placed`` and :func:`_draw_pictures`
    draws it there once the pages are set."""
    from reportlab.platypus import Flowable

    class PictureFlowable(Flowable):
        fixed = True                       # as high in either setting (see :func:`_shares`)

        def wrap(self, avail_w, avail_h):
            w, h = mm_to_pt(block.width_mm), mm_to_pt(block.height_mm)
            scale = min(1.0, avail_w / w, (max_h or h) / h)
            self.width, self.height = w * scale, h * scale
            return self.width, self.height

        def draw(self):
            x, y = self.canv.absolutePosition(0, 0)
            placed.append((self.canv.getPageNumber(), x, y, self.width, self.height, block))

    flowable = PictureFlowable()
    flowable.hAlign = "CENTER"
    return flowable


_DRAWN: dict[str, bytes] = {}


def _drawn(picture: Picture) -> bytes:
    """A picture's SVG as a one-page vector PDF (drawn straight by :mod:`..fastsvg`, a scene's
    faces each drawn once however many times it shows them; else by cairosvg), remembered: a
    book set twice (see :func:`fit_booklet`) or in both papers draws each picture once."""
    import hashlib

    from ..fastsvg import pdf, pdf_placed
    svg = picture.svg
    key = hashlib.sha256(svg.encode("utf-8")).hexdigest()
    if key not in _DRAWN:
        if len(_DRAWN) > 32:
            _DRAWN.clear()
        drawn = pdf_placed(picture.table, picture.faces) if picture.faces else None
        if drawn is not None:
            from ..render import dedupe_resources
            drawn = dedupe_resources(drawn)
        else:
            drawn = pdf(svg)
        if drawn is None:
            import cairosvg
            drawn = cairosvg.svg2pdf(bytestring=svg.encode("utf-8"))
        _DRAWN[key] = drawn
    return _DRAWN[key]


def _draw_pictures(pdf: bytes, placed: list[Placed]) -> bytes:
    """The pictures drawn where their room was kept (see :func:`_pictured`)."""
    return _written(_pictured(pdf, placed)) if placed else pdf


def _written(writer: Any) -> bytes:
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _pictured(pdf: bytes, placed: list[Placed]) -> Any:
    """The book read into a pypdf writer, the pictures drawn where their room was kept: each
    picture's PDF page becomes a form XObject, painted on its page scaled to its room (its
    drawing is copied, never re-parsed)."""
    from typing import cast

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    for k, (page_no, x, y, w, h, picture) in enumerate(placed):
        drawn = PdfReader(io.BytesIO(_drawn(picture))).pages[0]
        box = [float(v) for v in drawn.mediabox]
        contents = drawn.get_contents()
        form = DecodedStreamObject()
        form.set_data(contents.get_data() if contents is not None else b"")
        form.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
                     NameObject("/BBox"): ArrayObject(drawn.mediabox),
                     NameObject("/Resources"): drawn["/Resources"].clone(writer)})
        name = f"/LudotecaPicture{k}"
        page = writer.pages[page_no - 1]
        resources = cast(DictionaryObject, page["/Resources"].get_object())
        if "/XObject" not in resources:
            resources[NameObject("/XObject")] = DictionaryObject()
        cast(DictionaryObject, resources["/XObject"].get_object())[NameObject(name)] = writer._add_object(form)
        sx, sy = w / (box[2] - box[0]), h / (box[3] - box[1])
        paint = DecodedStreamObject()
        paint.set_data(f"q {sx:.6f} 0 0 {sy:.6f} {x - box[0] * sx:.3f} {y - box[1] * sy:.3f} cm {name} Do Q\n"
                       .encode("ascii"))
        old = page["/Contents"]
        shown = old.get_object()
        parts = list(shown) if isinstance(shown, ArrayObject) else [old]
        page[NameObject("/Contents")] = ArrayObject(parts + [writer._add_object(paint)])
    return writer


#: the fragments reportlab parsed a paragraph's text into, by the text and its style's look
_FRAGS: dict[tuple, tuple[str, list]] = {}
#: what a style's look is, by style (:func:`_look`)
_LOOKS: dict[int, tuple] = {}
#: what sets lines and paragraphs apart, not how their text looks (the tight setting changes these)
_SPACING = ("name", "leading", "spaceBefore", "spaceAfter", "parent")


def _look(style) -> tuple:
    """What a paragraph style gives the fragments its text is parsed into: all of it but the
    spacing (so a text parsed for the usual setting serves the tight one too)."""
    key = id(style)
    if key not in _LOOKS or _LOOKS[key][0] is not style:
        if len(_LOOKS) > 256:
            _LOOKS.clear()
        _LOOKS[key] = (style, tuple(sorted((k, repr(v)) for k, v in vars(style).items() if k not in _SPACING)))
    return _LOOKS[key][1]


def _paragraphs():
    """reportlab's Paragraph, made from the fragments its text was parsed into before when the
    same text was parsed for a style of the same look (in this book's other setting, or in a
    table cell or book before): parsing a text is a tenth of setting a book.  Such a paragraph
    also breaks into the lines it broke into before at the same widths (reportlab breaks a
    paragraph again each time it is measured, some twice or more per setting, and the lines are
    the same in either setting: the spacing does not change where they break)."""
    from reportlab.platypus.paragraph import cleanBlockQuotedText, textTransformFrags
    from reportlab.platypus.paraparser import ParaParser

    def paragraph(text: str, style):
        key = (text, _look(style))
        found = _FRAGS.get(key)
        if found is None:
            cleaned = cleanBlockQuotedText(text)
            parser = ParaParser()
            parser.caseSensitive = 1                    # as Paragraph's own parse
            parsed, frags, bullet = parser.parse(cleaned, style)
            if frags is None or bullet or parsed is not style:   # not ours: reportlab's own way
                return _paragraph_class()(text, style)
            textTransformFrags(frags, style)
            if len(_FRAGS) > 4096:
                _FRAGS.clear()
                _LINES.clear()
            found = _FRAGS[key] = (cleaned, frags)
        made = _paragraph_class()(found[0], style, frags=found[1])
        made.memo = key
        return made
    return paragraph


#: the lines a paragraph made by :func:`_paragraphs` broke into, by its text, look and widths
_LINES: dict[tuple, object] = {}


@functools.cache
def _paragraph_class() -> type:
    from reportlab.platypus import Paragraph

    class Remembered(Paragraph):
        """A paragraph that breaks into the lines its text broke into before at the same widths
        (the parts it splits into break anew)."""

        memo: tuple | None = None

        def breakLines(self, width):
            if self.memo is None:
                return super().breakLines(width)
            key = (self.memo, *width) if isinstance(width, (list, tuple)) else (self.memo, width)
            found = _LINES.get(key)
            if found is None:
                found = _LINES[key] = super().breakLines(width)
            return found
    return Remembered


def _flowables(blocks: list[Block], book: Book, styles: dict, frame_w: float,
               placed: list[Placed]) -> list:
    from reportlab.lib.colors import HexColor
    from reportlab.platypus import (CondPageBreak, KeepTogether, ListFlowable, ListItem,
                                    NextPageTemplate, PageBreak, Spacer)
    from reportlab.platypus import Table as RLTable
    from reportlab.platypus import TableStyle
    Paragraph = _paragraphs()
    out: list = []
    for block in blocks:
        if isinstance(block, Title):
            page_h = mm_to_pt(book.page_mm[1])
            out.append(Spacer(1, page_h * (0.06 if block.picture else 0.22)))
            out.append(Paragraph(block.name, styles["cover"]))
            out.append(Paragraph(block.subtitle, styles["cover2"]))
            if block.picture:
                out += [Spacer(1, BODY_PT), _picture_flowable(block.picture, placed, page_h * 0.5),
                        Spacer(1, BODY_PT)]
            out += [Paragraph(line, styles["cover3"]) for line in block.lines]
            out += [NextPageTemplate("body"), PageBreak()]
        elif isinstance(block, Picture):
            parts = [_picture_flowable(block, placed)]
            if block.caption:
                parts.append(Paragraph(block.caption, styles["small"]))
            out += [KeepTogether(parts), Spacer(1, BODY_PT * 0.6)]
        elif isinstance(block, Heading):
            # room for the heading and a few lines under it, else a new page (no keep-with-next:
            # a long table after a heading must be free to split where the page ends)
            out.append(PageBreak() if block.new_page
                       else CondPageBreak(mm_to_pt({1: 45, 2: 28, 3: 20}.get(block.level, 20))))
            para = Paragraph(block.text, styles[block.level])
            if block.level == 1:                   # the outline: one bookmark per chapter
                para._bookmark = (block.level, _plain(block.text))
            out.append(para)
        elif isinstance(block, Para):
            out.append(Paragraph(block.text, styles[block.style]))
        elif isinstance(block, Items):
            items = [ListItem(Paragraph(t, styles["small" if block.small else "item"]), leftIndent=12)
                     for t in block.items]
            kind = dict(bulletType="1", bulletFormat="%s.", bulletFontName="VeraBd") if block.numbered \
                else dict(bulletType="bullet", start="\u2022", bulletFontName="Vera")
            out.append(ListFlowable(items, leftIndent=12, bulletFontSize=BODY_PT,
                                    bulletColor=HexColor(book.accent), **kind))
            out.append(Spacer(1, BODY_PT * 0.4))
        elif isinstance(block, Table):
            cols = len(block.header)
            rel = block.widths or [1.0] * cols
            widths = [frame_w * w / sum(rel) for w in rel]
            data = [[Paragraph(h, styles["head"]) for h in block.header]]
            data += [[Paragraph(str(c), styles["cell"]) for c in row] for row in block.rows]
            table = RLTable(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
            style = [("BACKGROUND", (0, 0), (-1, 0), HexColor(book.accent)),
                     ("FONTNAME", (0, 0), (-1, -1), "Vera"),
                     ("VALIGN", (0, 0), (-1, -1), "TOP"),
                     ("LINEBELOW", (0, 0), (-1, -1), 0.3, HexColor("#b9ad9d")),
                     ("TOPPADDING", (0, 0), (-1, -1), 1.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
                     ("LEFTPADDING", (0, 0), (-1, -1), 2.5), ("RIGHTPADDING", (0, 0), (-1, -1), 2.5),
                     ("ROWBACKGROUNDS", (0, 1), (-1, -1), [HexColor("#ffffff"), HexColor("#f4efe6")])]
            if block.bold_last:
                style.append(("LINEABOVE", (0, -1), (-1, -1), 0.8, HexColor(INK)))
            table.setStyle(TableStyle(style))
            # a short table (the worked example's) is never split: a total alone on the next page
            out += [KeepTogether([table]) if len(block.rows) <= 8 else table, Spacer(1, BODY_PT * 0.8)]
        elif isinstance(block, MapGrid):
            parts = [Paragraph(block.title, styles[3]), _map_flowable(block, styles)]
            if block.counts:
                parts.append(Paragraph(" \u00a0 ".join(f"{a}\u00a0×\u00a0{n}" for a, n in block.counts),
                                       styles["small"]))
            out += [KeepTogether(parts), Spacer(1, BODY_PT * 0.6)]
    return out


def page_count(pdf: bytes) -> int:
    import io
    from pypdf import PdfReader
    return len(PdfReader(io.BytesIO(pdf)).pages)


def fit_booklet(blocks: list[Block], book: Book) -> bytes:
    """The book set as usual, unless setting it a little tighter saves a sheet of the folded
    booklet: a booklet has a multiple of 4 pages, so a book one page over 8 would print 3 blank
    pages at its end, where a slightly tighter setting fits it in 8."""
    return _draw_pictures(*_fit(blocks, book))   # the pictures drawn once, on the setting kept


def set_book(blocks: list[Block], book: Book) -> tuple[bytes, list]:
    """:func:`fit_booklet`'s PDF and its pages as pypdf holds them (to impose them without
    reading the PDF again)."""
    pdf, placed = _fit(blocks, book)
    if not placed:
        from pypdf import PdfReader
        return pdf, list(PdfReader(io.BytesIO(pdf)).pages)
    writer = _pictured(pdf, placed)
    return _written(writer), list(writer.pages)


def _fit(blocks: list[Block], book: Book) -> tuple[bytes, list[Placed]]:
    """The setting :func:`fit_booklet` keeps, its pictures not yet drawn."""
    from .impose import padded
    least = _Least()
    pdf, placed, pages = _set(blocks, book, least=least)
    # the tighter setting is only counted (laid out, never drawn), and set whole if it is kept;
    # not even counted when it cannot take fewer pages than a sheet less (``least``), and the
    # count stops as soon as the pages it has filled and the least of the rest pass that
    target = padded(pages) - 4
    if padded(pages) != pages and least.pages <= target \
            and pages_set(blocks, book, tight=True, limit=(least, target)) <= target:
        pdf, placed, pages = _set(blocks, book, tight=True)
    return pdf, placed


def pages_set(blocks: list[Block], book: Book, tight: bool = False,
              limit: tuple[_Least, int] | None = None) -> int:
    """How many pages :func:`typeset` sets the blocks on, found by laying them out without
    drawing or writing anything (where a page breaks depends only on the sizes each block
    wraps to): about a third of the cost of setting them.  ``limit`` (the tight setting only):
    (the least of the usual setting, a page count): the count stops, giving a number over that
    count, as soon as it knows it will pass it."""
    return _set(blocks, book, tight, draw=False, limit=limit)[2]


class _Over(Exception):
    """A count stopped: the setting takes more pages than its limit (reportlab makes a new
    exception of this class with its own words added, so it carries nothing)."""


class _Least:
    """What setting a book as usual tells of its tight setting: the least height (points) each
    top-level block takes in it and the run of pages (between page breaks) it is in; the fewest
    pages it can take (``pages``, :func:`_least_pages`) and the frame's height."""

    def __init__(self) -> None:
        self.shares: list[float] = []
        self.runs: list[int] = []
        self.frame_h = 0.0
        self.pages = 0

    def rest(self, started: int) -> int:
        """The fewest pages the blocks from ``started`` on can take, on pages of their own."""
        heights: dict[int, float] = {}
        for share, run in zip(self.shares[started:], self.runs[started:]):
            heights[run] = heights.get(run, 0.0) + share
        return _least_pages(list(heights.values()), self.frame_h)


class _Started:
    """Which top-level blocks of a build have been taken from its queue (placed or being
    placed): reportlab takes them from the front and puts split parts back at the front, so the
    blocks not started are always the queue's tail, in order."""

    def __init__(self, blocks: list) -> None:
        self.blocks = blocks
        self.count = 0

    def update(self, queue: list, skip: int = 0) -> int:
        """The number of blocks started, ``queue`` being the build's (its first ``skip`` taken)."""
        n = len(self.blocks)
        while self.count < n and (len(queue) - skip < n - self.count
                                  or queue[len(queue) - (n - self.count)] is not self.blocks[self.count]):
            self.count += 1
        return self.count


def _plain(text: str) -> str:
    """Paragraph markup as plain text (for the outline)."""
    import re
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")


def typeset(blocks: list[Block], book: Book, tight: bool = False) -> bytes:
    """The blocks set on pages of ``book.page_mm``: PDF bytes (fonts embedded, outline, metadata);
    ``tight``: with less space between lines and paragraphs (see :func:`fit_booklet`)."""
    pdf, placed, _pages = _set(blocks, book, tight)
    return _draw_pictures(pdf, placed)


def _set(blocks: list[Block], book: Book, tight: bool = False, draw: bool = True,
         least: _Least | None = None, limit: tuple[_Least, int] | None = None) -> tuple[bytes, list[Placed], int]:
    """The blocks set as :func:`typeset` sets them, the pictures not yet drawn: the PDF, where
    each picture goes, and the number of pages.  ``draw=False``: only laid out, to count the
    pages (no PDF: empty bytes).  ``least`` (the usual setting only): filled with what the tight
    setting takes at least (:class:`_Least`).  ``limit``: see :func:`pages_set` (the count it
    stopped at is the pages given)."""
    from reportlab.lib.colors import HexColor
    from reportlab.platypus import BaseDocTemplate, PageTemplate
    Frame = _frame_class(draw)
    _fonts()
    styles = _styles(book.accent, tight)
    w, h = (mm_to_pt(v) for v in book.page_mm)
    margin = mm_to_pt(12 if book.page_mm[0] < 180 else 15)
    bottom = margin + mm_to_pt(4)
    col_w = w - 2 * margin
    frames = [Frame(margin, bottom, col_w, h - margin - bottom, id="body",
                    leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)]
    cover = Frame(margin, bottom, w - 2 * margin, h - margin - bottom, id="cover",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    runs: list[float] = [0.0]        # per run of pages between page breaks: its least tight height
    placed: list[Placed] = []
    queue = _flowables(blocks, book, styles, col_w, placed)     # reportlab takes them as it goes
    started = _Started(list(queue))
    if least is not None:
        share = _shares(styles, _styles(book.accent, tight=True))
        least.shares = [0.0] * len(queue)
        least.runs = [0] * len(queue)

        def measured(flowable, used: float) -> None:
            part = share(flowable, used)
            runs[-1] += part
            least.shares[started.count - 1] += part     # the block it is (a part of)
        for frame in frames + [cover]:
            frame.measured = measured

    def on_page(canv, doc) -> None:
        canv.setNamedCB("icon", _draw_icon)
        canv.saveState()
        canv.setFont("Vera", FOOTER_PT)
        canv.setFillColor(HexColor(MUTED))
        y = margin * 0.55
        canv.drawString(margin, y, book.footer)
        canv.drawRightString(w - margin, y, str(doc.page))
        canv.setStrokeColor(HexColor(book.accent))
        canv.setLineWidth(0.5)
        canv.line(margin, y + FOOTER_PT * 1.3, w - margin, y + FOOTER_PT * 1.3)
        canv.restoreState()

    def on_cover(canv, doc) -> None:
        canv.setNamedCB("icon", _draw_icon)
        canv.saveState()
        canv.setFillColor(HexColor(book.accent))
        canv.rect(0, h - mm_to_pt(14), w, mm_to_pt(14), stroke=0, fill=1)
        canv.rect(0, 0, w, mm_to_pt(8), stroke=0, fill=1)
        canv.restoreState()

    class Doc(BaseDocTemplate):
        def handle_pageBreak(self, slow=None) -> None:
            runs.append(0.0)
            super().handle_pageBreak(slow)

        def handle_flowable(self, flowables) -> None:
            if flowables is not queue:                  # what hangs on a page's beginning
                super().handle_flowable(flowables)
                return
            before = started.count
            started.update(queue, 1)                    # the block at the front is being started
            if least is not None:
                least.runs[before:started.count] = [len(runs) - 1] * (started.count - before)
            super().handle_flowable(queue)
            if least is not None:                       # blocks kept with it, started with it
                before = started.count
                started.update(queue)
                least.runs[before:started.count] = [len(runs) - 1] * (started.count - before)

        def handle_pageEnd(self) -> None:
            if limit is not None:
                stopped[:] = [self.page + limit[0].rest(started.update(queue))]
                if stopped[0] > limit[1]:
                    raise _Over()
            super().handle_pageEnd()

        def afterFlowable(self, flowable) -> None:
            mark = getattr(flowable, "_bookmark", None)
            if mark:
                level, text = mark
                key = f"h{id(flowable)}"
                self.canv.bookmarkPage(key)
                self.canv.addOutlineEntry(text, key, level=level - 1, closed=level > 1)

    out = io.BytesIO()
    doc = Doc(out, pagesize=(w, h), title=book.title, author="Ludoteca", subject=book.subject,
              creator="Ludoteca", lang=book.lang, invariant=1, leftMargin=margin, rightMargin=margin,
              topMargin=margin, bottomMargin=bottom, initialFontName="Vera", initialFontSize=BODY_PT)
    doc.addPageTemplates([PageTemplate("cover", [cover], onPage=on_cover),
                          PageTemplate("body", frames, onPage=on_page)])
    doc._doSave = draw                      # reportlab's switch: no PDF written when only counting
    stopped: list[int] = []         # the fewest pages a count stopped by ``limit`` knew of
    try:
        doc.build(queue)
    except _Over:
        return b"", placed, stopped[0]
    if least is not None:
        least.frame_h = h - margin - bottom
        least.pages = _least_pages(runs, least.frame_h)
    return out.getvalue(), placed, doc.page


def _least_pages(runs: list[float], frame_h: float) -> int:
    """The fewest pages the tight setting can take: each run of pages between two page breaks
    holds at least its blocks' least height, and no page holds more than its frame's height."""
    return sum(math.ceil(run / frame_h - 1e-3) for run in runs)


def _shares(usual: dict, tight: dict):
    """``share(flowable, used)``: the least height a block placed in ``used`` points of a frame
    set as usual takes in the tight setting (its lines break where they did: the same sizes and
    widths).  Spaces around a block may vanish at a page's top: left out; a paragraph shrinks
    as its style's leading does; a table as its cells' do; a picture or map not at all; anything
    else (lists, blocks kept together) as much as any length of the styles."""
    from reportlab.platypus import Paragraph, Spacer
    from reportlab.platypus import Table as RLTable
    ratio = {usual[k].name: min(tight[k].leading / usual[k].leading, 1.0) for k in usual}
    floor = min([1.0] + [min(getattr(tight[k], a) / getattr(usual[k], a), 1.0) for k in usual
                         for a in ("leading", "spaceBefore", "spaceAfter") if getattr(usual[k], a)])
    table = min(ratio["cell"], ratio["head"])

    def share(flowable, used: float) -> float:
        if isinstance(flowable, Spacer) or getattr(flowable, "frameAction", None):
            return 0.0                          # page breaks, and spaces that may vanish
        height = max(0.0, used - flowable.getSpaceBefore() - flowable.getSpaceAfter())
        if getattr(flowable, "fixed", False):
            return height
        if isinstance(flowable, Paragraph):
            return height * ratio.get(flowable.style.name, floor)
        return height * (table if isinstance(flowable, RLTable) else floor)
    return share


@functools.cache
def _frame_class(draw: bool) -> type:
    """reportlab's Frame, or (``draw=False``) one that places each block where Frame would and
    draws none of them."""
    from reportlab.platypus import Frame

    class MeasuredFrame(Frame):
        """A frame that tells ``measured(flowable, points used)`` of each block it places."""

        measured = None

        def add(self, flowable, canv, trySplit=0):
            y = self._y
            done = super().add(flowable, canv, trySplit)
            if done and self.measured is not None:
                self.measured(flowable, y - self._y)
            return done
    if draw:
        return MeasuredFrame

    class LayoutFrame(MeasuredFrame):
        def add(self, flowable, canv, trySplit=0):
            flowable.drawOn = _not_drawn      # the one call that draws a block placed in a frame
            return super().add(flowable, canv, trySplit)
    return LayoutFrame


def _not_drawn(*_args, **_kwargs) -> None:
    return None

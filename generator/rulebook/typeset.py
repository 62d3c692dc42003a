"""Blocks -> a PDF with reportlab's platypus: text that wraps and flows across pages.

Platypus does what a rulebook needs and the SVG face pipeline does not: paragraphs that break
across pages, headings kept with what follows, tables whose rows split across pages
with the header repeated, and an outline.  The fonts are the kit's own (Bitstream Vera, shipped in
reportlab), embedded as subsets; nothing is drawn under 7 pt.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from ..fonts import font_dir
from ..units import mm_to_pt
from .blocks import Block, Heading, Items, MapGrid, Para, Table, Title

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
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    for name, file in FACES.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(font_dir() / file)))
    addMapping("Vera", 0, 0, "Vera")
    addMapping("Vera", 1, 0, "VeraBd")
    addMapping("Vera", 0, 1, "VeraIt")
    addMapping("Vera", 1, 1, "VeraBI")


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


def _flowables(blocks: list[Block], book: Book, styles: dict, frame_w: float) -> list:
    from reportlab.lib.colors import HexColor
    from reportlab.platypus import (CondPageBreak, KeepTogether, ListFlowable, ListItem,
                                    NextPageTemplate, PageBreak, Paragraph, Spacer)
    from reportlab.platypus import Table as RLTable
    from reportlab.platypus import TableStyle
    out: list = []
    for block in blocks:
        if isinstance(block, Title):
            out.append(Spacer(1, mm_to_pt(book.page_mm[1]) * 0.22))
            out.append(Paragraph(block.name, styles["cover"]))
            out.append(Paragraph(block.subtitle, styles["cover2"]))
            out += [Paragraph(line, styles["cover3"]) for line in block.lines]
            out += [NextPageTemplate("body"), PageBreak()]
        elif isinstance(block, Heading):
            # room for the heading and a few lines under it, else a new page (no keep-with-next:
            # a long table after a heading must be free to split where the page ends)
            out.append(CondPageBreak(mm_to_pt({1: 45, 2: 28, 3: 20}.get(block.level, 20))))
            para = Paragraph(block.text, styles[block.level])
            if block.level == 1:                   # the outline: one bookmark per chapter
                para._bookmark = (block.level, _plain(block.text))
            out.append(para)
        elif isinstance(block, Para):
            out.append(Paragraph(block.text, styles[block.style]))
        elif isinstance(block, Items):
            items = [ListItem(Paragraph(t, styles["item"]), leftIndent=12) for t in block.items]
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
            out += [table, Spacer(1, BODY_PT * 0.8)]
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
    from .impose import padded
    pdf = typeset(blocks, book)
    pages = page_count(pdf)
    if padded(pages) == pages:
        return pdf
    tight = typeset(blocks, book, tight=True)
    return tight if padded(page_count(tight)) < padded(pages) else pdf


def _plain(text: str) -> str:
    """Paragraph markup as plain text (for the outline)."""
    import re
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")


def typeset(blocks: list[Block], book: Book, tight: bool = False) -> bytes:
    """The blocks set on pages of ``book.page_mm``: PDF bytes (fonts embedded, outline, metadata);
    ``tight``: with less space between lines and paragraphs (see :func:`fit_booklet`)."""
    from reportlab.lib.colors import HexColor
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate
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
    doc.build(_flowables(blocks, book, styles, col_w))
    return out.getvalue()

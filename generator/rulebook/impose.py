"""Saddle-stitch imposition: booklet pages, two per side of a landscape sheet, in folding order.

For a booklet of ``n`` pages (a multiple of 4), sheet ``s`` (from 0) carries on its front the pages
``n - 2s`` (left) and ``2s + 1`` (right), and on its back ``2s + 2`` (left) and ``n - 2s - 1``
(right).  Printed double-sided (flip on the short edge), the sheets stacked in order and folded in
the middle read 1, 2, ..., n.
"""

from __future__ import annotations

import io
from typing import Any, cast

from ..units import mm_to_pt


def padded(pages: int) -> int:
    """The page count rounded up to a multiple of 4 (the blank pages go at the end)."""
    return max(4, (pages + 3) // 4 * 4)


def sides(pages: int) -> list[tuple[int, int]]:
    """(left, right) page numbers of every sheet side, front then back, sheet by sheet.

    >>> sides(8)
    [(8, 1), (2, 7), (6, 3), (4, 5)]
    """
    n = padded(pages)
    out = []
    for s in range(n // 4):
        out.append((n - 2 * s, 2 * s + 1))
        out.append((2 * s + 2, n - 2 * s - 1))
    return out


def _landscape_pt(sheet_mm: tuple[float, float]) -> tuple[float, float]:
    """A sheet's width and height in points, turned landscape: the booklet's sheet."""
    sw, sh = (mm_to_pt(v) for v in sheet_mm)
    return (sh, sw) if sw < sh else (sw, sh)


def sheet_pt(sheet_mm: tuple[float, float]) -> tuple[float, float]:
    """:func:`_landscape_pt` as the booklet's PDF writes it (pypdf's rounding)."""
    from pypdf.generic import FloatObject
    sw, sh = (float(FloatObject(v).myrepr()) for v in _landscape_pt(sheet_mm))
    return sw, sh


def impose(pdf: bytes, sheet_mm: tuple[float, float], title: str = "", lang: str = "") -> bytes:
    """Two pages of ``pdf`` side by side on each landscape ``sheet_mm`` side, in folding order.

    Each page keeps its size (no scaling: text stays the size it was set at), centred in its half
    of the sheet, placed as a form XObject (its content is not re-parsed); a short dashed tick marks
    the fold at the top and bottom edges.
    """
    from pypdf import PdfReader
    return impose_pages(list(PdfReader(io.BytesIO(pdf)).pages), sheet_mm, title, lang)


def impose_pages(pages: list, sheet_mm: tuple[float, float], title: str = "", lang: str = "") -> bytes:
    """:func:`impose` of pages pypdf holds already (a reader's or a writer's)."""
    from pypdf import PdfWriter
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject,
                               NameObject, TextStringObject)
    count = len(pages)
    sw, sh = _landscape_pt(sheet_mm)
    writer = PdfWriter()
    forms = []
    for page in pages:
        form = DecodedStreamObject()
        contents: Any = page["/Contents"].get_object()
        streams = contents if isinstance(contents, list) else [contents]
        form.set_data(b"\n".join(s.get_object().get_data() for s in streams))
        box = page.mediabox
        form.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
                     NameObject("/BBox"): ArrayObject([FloatObject(v) for v in (box.left, box.bottom,
                                                                                box.right, box.top)]),
                     NameObject("/Resources"): cast(Any, page["/Resources"]).get_object().clone(writer)})
        forms.append((writer._add_object(form), float(box.width), float(box.height)))
    x = sw / 2
    tick = mm_to_pt(4)
    for left, right in sides(count):
        ops = []
        names = DictionaryObject()
        for slot, number in enumerate((left, right)):
            if number > count:
                continue
            ref, pw, ph = forms[number - 1]
            name = f"/P{number}"
            names[NameObject(name)] = ref
            tx = round(slot * sw / 2 + (sw / 2 - pw) / 2, 3) + 0.0     # + 0.0: never "-0.000"
            ty = round((sh - ph) / 2, 3) + 0.0
            ops.append(f"q 1 0 0 1 {tx:.3f} {ty:.3f} cm {name} Do Q")
        ops.append(f"q 0.55 G 0.4 w [2 1.5] 0 d {x:.3f} {sh:.3f} m {x:.3f} {sh - tick:.3f} l S "
                   f"{x:.3f} 0 m {x:.3f} {tick:.3f} l S Q")
        sheet = writer.add_blank_page(sw, sh)
        sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): names})
        content = DecodedStreamObject()
        content.set_data("\n".join(ops).encode("ascii"))
        sheet[NameObject("/Contents")] = writer._add_object(content)
    words = {"es": ("Hoja", "cara", "dorso", "págs."), "en": ("Sheet", "front", "back", "pp.")}
    sheet_w, front_w, back_w, pages_w = words.get(lang, words["en"])
    for i, (left, right) in enumerate(sides(count)):      # one bookmark per side of each sheet
        shown = " + ".join(str(n) for n in (left, right) if n <= count)
        side = back_w if i % 2 else front_w
        writer.add_outline_item(title=f"{sheet_w} {i // 2 + 1}, {side}: {pages_w} {shown}", page_number=i)
    writer.add_metadata({"/Title": title, "/Author": "Ludoteca", "/Creator": "Ludoteca"})
    if lang:
        writer._root_object[NameObject("/Lang")] = TextStringObject(lang)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()

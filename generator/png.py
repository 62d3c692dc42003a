"""``--png DPI``: one PNG per unique face (with bleed) and Tabletop Simulator sheets for decks."""

from __future__ import annotations

import hashlib
import io
import math
import re
from pathlib import Path

from .atomic import write_bytes
from .layout import Laid, face_size
from .model import Component, Options
from .units import mm_to_px, num

TTS_COLS, TTS_ROWS, TTS_MAX_WIDTH = 10, 7, 4096
_ROOT = re.compile(r"<svg\b[^>]*>", re.S)
_ATTR = re.compile(r'\s(?:width|height|viewBox)="[^"]*"')


def _trimmed(svg: str, w: float, h: float) -> str:
    """The face without its bleed: the root's viewBox cut to the trim."""
    m = _ROOT.search(svg)
    tag = _ATTR.sub("", m.group(0))
    tag = tag[:4] + f' width="{num(w)}mm" height="{num(h)}mm" viewBox="0 0 {num(w)} {num(h)}"' + tag[4:]
    return svg[:m.start()] + tag + svg[m.end():]


def _png(svg: str, **kw) -> bytes:
    import cairosvg
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), **kw)


def export_png(items: list[tuple[Component, Laid]], opts: Options, out_dir: Path) -> int:
    """Write the PNGs; returns how many files were written (unchanged ones are skipped)."""
    from . import fonts
    fonts.configure()
    written = 0
    for comp, laid in items:
        folder = out_dir / "png" / comp.game / comp.id
        seen: dict[str, str] = {}
        names: set[str] = set()
        faces = list(zip(comp.fronts, laid.fronts or []))
        faces += list(zip(comp.backs or [], laid.backs or []))
        for face, svg in faces:
            digest = hashlib.sha256(f"{opts.png_dpi}\0{svg}".encode()).hexdigest()[:16]
            if digest in seen:
                continue
            name, k = face.name, 2
            while name in names:
                name, k = f"{face.name}-{k}", k + 1
            names.add(name)
            seen[digest] = name
            written += _write_cached(folder / f"{name}.png", digest,
                                     lambda svg=svg: _png(svg, dpi=opts.png_dpi))
        if comp.deck and laid.fronts:
            written += _tts(comp, laid, opts, out_dir / "png" / comp.game / "tts")
    return written


def _write_cached(path: Path, digest: str, make) -> int:
    """Write ``path`` unless it already holds the image of this digest (kept in a side file)."""
    stamp = path.with_name(f".{path.name}.hash")
    if path.is_file() and stamp.is_file() and stamp.read_text() == digest:
        return 0
    write_bytes(path, make())
    write_bytes(stamp, digest.encode())
    return 1


def _tts(comp: Component, laid: Laid, opts: Options, folder: Path) -> int:
    """Sheets of up to 10 x 7 trimmed fronts, at most 4096 px wide, and their backs.

    One back image beside them when every back is the same; otherwise a back sheet per front
    sheet, laid out the same way (``<sheet>-back.png``), so each card keeps its own back.
    """
    w, h = face_size(comp, opts)
    cw = int(min(mm_to_px(w, opts.png_dpi), TTS_MAX_WIDTH // TTS_COLS))
    ch = int(round(cw * h / w))
    per = TTS_COLS * TTS_ROWS
    fronts, backs = laid.fronts or [], laid.backs or []
    one_back = len(set(backs)) <= 1
    sheets = math.ceil(len(fronts) / per)
    written = 0
    for s in range(sheets):
        stem = f"{comp.id}-{s + 1}" if sheets > 1 else comp.id
        written += _tts_sheet(fronts[s * per:(s + 1) * per], (w, h), (cw, ch), folder / f"{stem}.png")
        if not one_back:
            written += _tts_sheet(backs[s * per:(s + 1) * per], (w, h), (cw, ch),
                                  folder / f"{stem}-back.png")
    if backs and one_back:
        back = backs[0]
        digest = hashlib.sha256(f"{cw}\0{back}".encode()).hexdigest()[:16]
        written += _write_cached(folder / f"{comp.id}-back.png", digest,
                                 lambda: _png(_trimmed(back, w, h), output_width=cw, output_height=ch))
    return written


def _tts_sheet(chunk: list[str], trim: tuple[float, float], cell: tuple[int, int], path: Path) -> int:
    """One sheet: the faces of ``chunk`` trimmed, in rows of up to 10 cells of ``cell`` px."""
    cols = min(TTS_COLS, len(chunk))
    rows = math.ceil(len(chunk) / cols)
    cw, ch = cell
    digest = hashlib.sha256(f"{cw}x{ch}\0".encode() + "\0".join(chunk).encode()).hexdigest()[:16]

    def make() -> bytes:
        import cairocffi as cairo
        sheet = cairo.ImageSurface(cairo.FORMAT_ARGB32, cols * cw, rows * ch)
        ctx = cairo.Context(sheet)
        images: dict[str, object] = {}
        for i, svg in enumerate(chunk):
            if svg not in images:
                data = _png(_trimmed(svg, *trim), output_width=cw, output_height=ch)
                images[svg] = cairo.ImageSurface.create_from_png(io.BytesIO(data))
            ctx.set_source_surface(images[svg], (i % cols) * cw, (i // cols) * ch)
            ctx.paint()
        buf = io.BytesIO()
        sheet.write_to_png(buf)
        return buf.getvalue()

    return _write_cached(path, digest, make)

"""Faces as images: the one place a face's SVG becomes a PNG, for the ``--png`` faces and
Tabletop Simulator sheets (:mod:`.png`) and the print shop's images (:mod:`.shop`).

Each image to write is a :class:`Task` (what it shows, and the hash of that); :func:`run_tasks`
skips those whose file is up to date and renders the others, in the worker pool when there is one.
"""

from __future__ import annotations

import hashlib
import io
import re
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludoteca.atomic import write_bytes

from .progress import Progress
from .svgroot import with_root
from .units import num

_GEOMETRIC = re.compile(r'\stext-rendering="geometricPrecision"')


@dataclass
class Task:
    """One PNG to write: what it shows (``kind`` and its arguments) and the hash of that."""

    path: Path
    digest: str
    kind: str            # "face" | "trimmed" | "sheet" | "shop"
    args: tuple
    dest: Path | None = field(default=None)   # where it is written (the staging folder), if not path


def digest(*parts: object) -> str:
    """The hash of what an image shows, from everything that makes it."""
    h = hashlib.sha256()
    for part in parts:
        h.update(str(part).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:16]


def trimmed(svg: str, w: float, h: float) -> str:
    """The face without its bleed: the root's viewBox cut to the trim (``w`` x ``h`` mm)."""
    return with_root(svg, width=f"{num(w)}mm", height=f"{num(h)}mm", viewBox=f"0 0 {num(w)} {num(h)}")


def rasterise(svg: str, **kw: Any) -> bytes:
    """A face as PNG (``kw`` as cairosvg's ``svg2png``).  Without ``text-rendering=
    "geometricPrecision"``: it is there for the PDF's glyph advances, and cairosvg rasterises text
    drawn with it into broken, blocky glyphs."""
    from . import binding
    binding.load()
    import cairosvg
    return cairosvg.svg2png(bytestring=_GEOMETRIC.sub("", svg).encode("utf-8"), **kw)


def with_dpi(png: bytes, dpi: int) -> bytes:
    """The PNG with a pHYs chunk saying ``dpi`` (after IHDR), as print shops read it."""
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    end = 8 + 25                                   # signature + IHDR chunk
    return png[:end] + chunk + png[end:]


def sheet(chunk: list[str], trim: tuple[float, float], cell: tuple[int, int], cols: int) -> bytes:
    """The faces of ``chunk`` trimmed, in rows of ``cols`` cells of ``cell`` px."""
    from . import binding
    cairo = binding.load()
    rows = -(-len(chunk) // cols)
    cw, ch = cell
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, cols * cw, rows * ch)
    ctx = cairo.Context(surface)
    images: dict[str, object] = {}
    for i, svg in enumerate(chunk):
        if svg not in images:
            data = rasterise(trimmed(svg, *trim), output_width=cw, output_height=ch)
            images[svg] = cairo.ImageSurface.create_from_png(io.BytesIO(data))
        ctx.set_source_surface(images[svg], (i % cols) * cw, (i // cols) * ch)
        ctx.paint()
    buf = io.BytesIO()
    surface.write_to_png(buf)
    return buf.getvalue()


def run_task(task: Task) -> int:
    """Render and write one PNG (in a worker)."""
    from . import fonts
    fonts.configure()
    if task.kind == "face":
        svg, dpi = task.args
        data = rasterise(svg, dpi=dpi)
    elif task.kind == "shop":
        svg, (width, height), dpi = task.args
        data = with_dpi(rasterise(svg, output_width=width, output_height=height), dpi)
    elif task.kind == "trimmed":
        svg, trim, cell = task.args
        data = rasterise(trimmed(svg, *trim), output_width=cell[0], output_height=cell[1])
    else:
        data = sheet(*task.args)
    write_bytes(task.dest or task.path, data)
    return 1


def run_tasks(tasks: list[Task], stage: Any, cache: Any, workers: Any = None, quiet: bool = False,
              what: str = "PNG") -> int:
    """Render the images of ``tasks`` that are not up to date (by the kit's ``cache`` index) into
    ``stage``, in the pool when there is one; returns how many were written."""
    todo = [t for t in tasks if not cache.fresh(stage.rel(t.path), t.digest, t.path)]
    if not todo:
        return 0
    for task in todo:
        task.dest = stage.path(task.path)
    bar = Progress(len(todo), what=what, quiet=quiet)
    try:
        if workers is not None and getattr(workers, "pool", None) is None and len(todo) >= 4:
            workers.start()
        if getattr(workers, "pool", None) is not None and len(todo) > 1:
            for n in workers.unordered(run_task, todo):
                bar(n)
        else:
            for task in todo:
                bar(run_task(task))
    finally:
        bar.close()
    for task in todo:
        cache.remember(stage.rel(task.path), task.digest, task.dest)
    return len(todo)

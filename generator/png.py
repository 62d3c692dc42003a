"""``--png DPI``: one PNG per unique face (with bleed) and Tabletop Simulator sheets for decks.

Every image is a task; the tasks whose file is already up to date (the kit's cache index holds
the hash of what it shows) are skipped, the others render in the worker pool.  A deck
also gets a Tabletop Simulator saved object (``<deck>.json``): a ``DeckCustom`` whose sheets
hold at most 69 cards each (TTS keeps the 70th slot of a 10 x 7 sheet for the hidden card),
importable in one step from TTS's "Saved Objects".
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from urllib.parse import quote

from ludoteca.atomic import write_bytes
from .layout import Laid, face_size
from .model import Component, Options, in_lang
from .progress import Progress
from .units import mm_to_px, num

TTS_COLS, TTS_ROWS, TTS_MAX_WIDTH = 10, 7, 4096
TTS_PER_SHEET = TTS_COLS * TTS_ROWS - 1          # the 70th slot is TTS's hidden card
_ROOT = re.compile(r"<svg\b[^>]*>", re.S)
_ATTR = re.compile(r'\s(?:width|height|viewBox)="[^"]*"')


def _trimmed(svg: str, w: float, h: float) -> str:
    """The face without its bleed: the root's viewBox cut to the trim."""
    m = _ROOT.search(svg)
    tag = _ATTR.sub("", m.group(0))
    tag = tag[:4] + f' width="{num(w)}mm" height="{num(h)}mm" viewBox="0 0 {num(w)} {num(h)}"' + tag[4:]
    return svg[:m.start()] + tag + svg[m.end():]


_GEOMETRIC = re.compile(r'\stext-rendering="geometricPrecision"')


def _png(svg: str, **kw) -> bytes:
    """A face as PNG.  Without ``text-rendering="geometricPrecision"``: it is there for the PDF's
    glyph advances, and cairosvg rasterises text drawn with it into broken, blocky glyphs."""
    from . import binding
    binding.load()
    import cairosvg
    return cairosvg.svg2png(bytestring=_GEOMETRIC.sub("", svg).encode("utf-8"), **kw)


@dataclass
class Task:
    """One PNG to write: what it shows (``kind`` and its arguments) and the hash of that."""

    path: Path
    digest: str
    kind: str            # "face" | "trimmed" | "sheet" | "shop"
    args: tuple
    dest: Path | None = field(default=None)   # where it is written (the staging folder), if not path


def tts_grid(n: int) -> tuple[int, int]:
    """(columns, rows) of a TTS sheet holding ``n`` cards (n <= 69).

    >>> tts_grid(69), tts_grid(12), tts_grid(3)
    ((10, 7), (10, 2), (3, 1))
    """
    cols = min(TTS_COLS, n)
    return cols, math.ceil(n / cols)


def sheet_chunks(n: int) -> list[tuple[int, int]]:
    """(start, stop) of each TTS sheet of an ``n``-card deck, at most 69 cards each.

    >>> sheet_chunks(69), sheet_chunks(70), sheet_chunks(140)
    ([(0, 69)], [(0, 69), (69, 70)], [(0, 69), (69, 138), (138, 140)])
    """
    return [(s, min(n, s + TTS_PER_SHEET)) for s in range(0, n, TTS_PER_SHEET)]


def run_task(task: Task) -> int:
    """Render and write one PNG and its hash stamp (in a worker)."""
    from . import fonts
    fonts.configure()
    if task.kind == "face":
        svg, dpi = task.args
        data = _png(svg, dpi=dpi)
    elif task.kind == "shop":
        from .shop import with_dpi
        svg, (width, height), dpi = task.args
        data = with_dpi(_png(svg, output_width=width, output_height=height), dpi)
    elif task.kind == "trimmed":
        svg, trim, cell = task.args
        data = _png(_trimmed(svg, *trim), output_width=cell[0], output_height=cell[1])
    else:
        chunk, trim, cell = task.args
        data = _sheet(chunk, trim, cell)
    write_bytes(task.dest or task.path, data)
    return 1


def _sheet(chunk: list[str], trim: tuple[float, float], cell: tuple[int, int]) -> bytes:
    """One TTS sheet: the faces of ``chunk`` trimmed, in rows of up to 10 cells of ``cell`` px."""
    from . import binding
    cairo = binding.load()
    cols, rows = tts_grid(len(chunk))
    cw, ch = cell
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


def _digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(str(part).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:16]


def plan_png(comp: Component, laid: Laid, opts: Options, out_dir: Path,
             stage, game_name: str = "") -> tuple[list[Task], dict]:
    """The PNG tasks of one component and what its manifest entry lists (paths under out_dir);
    ``game_name`` (in the kit's language) follows the deck's title in its TTS saved object."""
    folder = out_dir / "png" / comp.game / comp.id
    tasks: list[Task] = []
    seen: set[str] = set()
    names: set[str] = set()
    faces = list(zip(comp.fronts, laid.fronts or []))
    backs = comp.backs if comp.backs is not None else [f for p in comp.parts for f in p.backs or []]
    faces += list(zip(backs, laid.backs or []))
    for face, svg in faces:
        digest = _digest(opts.png_dpi, svg)
        if digest in seen:
            continue
        seen.add(digest)
        name, k = face.name, 2
        while name in names:
            name, k = f"{face.name}-{k}", k + 1
        names.add(name)
        tasks.append(Task(folder / f"{name}.png", digest, "face", (svg, opts.png_dpi)))
    listed: dict = {"png": sorted(str(t.path.relative_to(out_dir)) for t in tasks)}
    if comp.deck and laid.fronts:
        more, listed["tts"] = _tts(comp, laid, opts, out_dir, stage, game_name)
        tasks += more
    return tasks, listed


def _tts(comp: Component, laid: Laid, opts: Options, out_dir: Path,
         stage, game_name: str = "") -> tuple[list[Task], dict]:
    """Sheets of at most 69 trimmed fronts (10 x 7 at most, at most 4096 px wide), their backs,
    and the saved object that puts the deck on the table, named as players read it: the deck by
    its title and game ("Distritos · Ciudadelas"), each card by its name, in the kit's language.

    One back image when every back is the same; otherwise a back sheet per front sheet, laid out
    the same way (``<sheet>-back.png``, ``UniqueBack``), so each card keeps its own back.
    """
    folder = out_dir / "png" / comp.game / "tts"
    w, h = face_size(comp, opts)
    cw = int(min(mm_to_px(w, opts.png_dpi), TTS_MAX_WIDTH // TTS_COLS))
    ch = int(round(cw * h / w))
    fronts, backs = laid.fronts or [], laid.backs or []
    one_back = len(set(backs)) <= 1
    chunks = sheet_chunks(len(fronts))
    tasks: list[Task] = []
    sheets = []
    back_path = None
    if backs and one_back:
        back_path = folder / f"{comp.id}-back.png"
        tasks.append(Task(back_path, _digest(cw, ch, backs[0]), "trimmed", (backs[0], (w, h), (cw, ch))))
    for s, (a, b) in enumerate(chunks):
        stem = f"{comp.id}-{s + 1}" if len(chunks) > 1 else comp.id
        face_path = folder / f"{stem}.png"
        tasks.append(Task(face_path, _digest(cw, ch, *fronts[a:b]), "sheet", (fronts[a:b], (w, h), (cw, ch))))
        sheet_back = back_path
        if backs and not one_back:
            sheet_back = folder / f"{stem}-back.png"
            tasks.append(Task(sheet_back, _digest(cw, ch, *backs[a:b]), "sheet", (backs[a:b], (w, h), (cw, ch))))
        cols, rows = tts_grid(b - a)
        sheets.append({"face": str(face_path.relative_to(out_dir)),
                       "back": str(sheet_back.relative_to(out_dir)) if sheet_back else None,
                       "num_width": cols, "num_height": rows, "cards": b - a})
    json_path = folder / f"{comp.id}.json"
    names = [in_lang(f.context.get("name"), opts.lang) or f.name for f in comp.fronts]
    title = comp.title_in(opts.lang, game_name)
    saved = saved_object(title, [(out_dir / s["face"], out_dir / s["back"] if s["back"] else None,
                                  s["num_width"], s["num_height"], s["cards"]) for s in sheets],
                         names, unique_back=bool(backs) and not one_back,
                         url=image_url(out_dir, opts.tts_url))
    stage.write_text(json_path, json.dumps(saved, ensure_ascii=False, indent=2) + "\n")
    return tasks, {"json": str(json_path.relative_to(out_dir)), "sheets": sheets,
                   "cell_px": [cw, ch]}


def _transform(y: float = 1.0) -> dict:
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def image_url(out_dir: Path, base: str | None) -> Callable[[Path], str]:
    """How a saved object names an image of ``out_dir``: its local ``file://`` address, or, with
    ``--tts-url BASE``, ``BASE/<its path in the output folder>`` once the folder is uploaded there
    (what other players' TTS can load).

    >>> image_url(Path("/k"), "https://x.org/kit/")(Path("/k/png/ciudadelas/tts/districts 1.png"))
    'https://x.org/kit/png/ciudadelas/tts/districts%201.png'
    """
    if base is None:
        return lambda path: path.resolve().as_uri()
    root = base.rstrip("/")
    return lambda path: f"{root}/{quote(path.relative_to(out_dir).as_posix())}"


def saved_object(name: str, sheets: list[tuple[Path, Path | None, int, int, int]], names: list[str],
                 unique_back: bool, url: Callable[[Path], str] | None = None) -> dict:
    """A TTS saved object: one ``DeckCustom`` (or one ``Card`` for a single card).

    ``sheets`` holds (face image, back image, NumWidth, NumHeight, cards) per sheet; card ids are
    ``100 * sheet number + slot``, as TTS numbers them; ``url`` names an image (see :func:`image_url`).
    """
    url = url or image_url(Path("."), None)
    custom: dict[str, dict] = {}
    cards = []
    for s, (face, back, cols, rows, count) in enumerate(sheets, start=1):
        custom[str(s)] = {"FaceURL": url(face),
                          "BackURL": url(back) if back else "",
                          "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                          "UniqueBack": unique_back, "Type": 0}
        for slot in range(count):
            cards.append((s, 100 * s + slot))
    contained = [{"Name": "Card", "Nickname": names[i] if i < len(names) else "", "CardID": cid,
                  "Transform": _transform(), "CustomDeck": {str(s): custom[str(s)]}}
                 for i, (s, cid) in enumerate(cards)]
    if len(contained) == 1:
        state = dict(contained[0], Nickname=name)
    else:
        state = {"Name": "DeckCustom", "Nickname": name, "Transform": _transform(),
                 "DeckIDs": [cid for _s, cid in cards], "CustomDeck": custom,
                 "ContainedObjects": contained}
    return {"SaveName": name, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "",
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "",
            "LuaScriptState": "", "ObjectStates": [state], "TabStates": {}, "VersionNumber": ""}


def export_png(items: list[tuple[Component, Laid, str]], opts: Options, out_dir: Path, stage,
               cache, quiet: bool = False, workers=None,
               names: dict[str, str] | None = None) -> tuple[int, dict[str, dict]]:
    """Write the PNGs (in parallel in ``workers``' pool when there is one); ``names`` holds each
    game's name in the kit's language, for the TTS saved objects.

    Returns how many files were written and, per component PDF path, what its manifest entry
    lists (``png``: the face images; ``tts``: the sheets and the saved object of a deck).
    """
    todo: list[Task] = []
    listed: dict[str, dict] = {}
    for comp, laid, rel in items:
        tasks, entry = plan_png(comp, laid, opts, out_dir, stage, (names or {}).get(comp.game, ""))
        listed[rel] = entry
        todo += tasks
    return run_tasks(todo, stage, cache, workers, quiet), listed


def run_tasks(tasks: list[Task], stage, cache, workers=None, quiet: bool = False,
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

"""``--png DPI``: one PNG per unique face (with bleed) and Tabletop Simulator sheets for decks.

Every image is a task; the tasks whose file is already up to date (the kit's cache index holds
the hash of what it shows) are skipped, the others render in the worker pool.  A deck
also gets a Tabletop Simulator saved object (``<deck>.json``): a ``DeckCustom`` whose sheets
hold at most 69 cards each (TTS keeps the 70th slot of a 10 x 7 sheet for the hidden card),
importable in one step from TTS's "Saved Objects".
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from .layout import Laid, face_size
from .model import Component, Options, in_lang
from .raster import Task, digest, run_tasks
from .units import mm_to_px

TTS_COLS, TTS_ROWS, TTS_MAX_WIDTH = 10, 7, 4096
TTS_PER_SHEET = TTS_COLS * TTS_ROWS - 1          # the 70th slot is TTS's hidden card


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
        key = digest(opts.png_dpi, svg)
        if key in seen:
            continue
        seen.add(key)
        name, k = face.name, 2
        while name in names:
            name, k = f"{face.name}-{k}", k + 1
        names.add(name)
        tasks.append(Task(folder / f"{name}.png", key, "face", (svg, opts.png_dpi)))
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
    dpi = opts.png_dpi or 0  # a TTS sheet is made only with --png DPI
    cw = int(min(mm_to_px(w, dpi), TTS_MAX_WIDTH // TTS_COLS))
    ch = int(round(cw * h / w))
    fronts, backs = laid.fronts or [], laid.backs or []
    one_back = len(set(backs)) <= 1
    chunks = sheet_chunks(len(fronts))
    tasks: list[Task] = []
    sheets: list[dict[str, Any]] = []
    back_path = None
    if backs and one_back:
        back_path = folder / f"{comp.id}-back.png"
        tasks.append(Task(back_path, digest(cw, ch, backs[0]), "trimmed", (backs[0], (w, h), (cw, ch))))
    for s, (a, b) in enumerate(chunks):
        stem = f"{comp.id}-{s + 1}" if len(chunks) > 1 else comp.id
        face_path = folder / f"{stem}.png"
        tasks.append(Task(face_path, digest(cw, ch, *fronts[a:b]), "sheet",
                          (fronts[a:b], (w, h), (cw, ch), tts_grid(b - a)[0])))
        sheet_back = back_path
        if backs and not one_back:
            sheet_back = folder / f"{stem}-back.png"
            tasks.append(Task(sheet_back, digest(cw, ch, *backs[a:b]), "sheet",
                              (backs[a:b], (w, h), (cw, ch), tts_grid(b - a)[0])))
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

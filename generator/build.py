"""``build``: card data -> components -> pages -> PDFs, manifest.json and a print guide."""

from __future__ import annotations

import importlib
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import templating
from .atomic import write_text
from .compose import Page
from .layout import Laid, bleed_of, face_size, lay_out
from .model import Component, Face, GeneratorError, Options
from .progress import Progress
from .render import Cache, Workers, assemble_all, render_pages

GAMES = ("ciudadelas", "el_mapa", "gladiadores")


@dataclass
class Planned:
    """A component with its pages, before rendering."""

    comp: Component
    laid: Laid
    rel: str


@dataclass
class Summary:
    files: int = 0
    pages: int = 0
    rendered: int = 0
    cached: int = 0
    written: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    manifest: dict = field(default_factory=dict)

    def line(self) -> str:
        return (f"{self.files} files, {self.pages} pages ({self.rendered} rendered, "
                f"{self.cached} cached), {self.written} written, {self.seconds:.2f} s")


def render_faces(comp: Component, faces: list[Face], opts: Options,
                 roots: tuple[str, ...]) -> list[str]:
    """Every face to SVG text; identical faces (copies) are rendered once."""
    size = face_size(comp, opts)
    bleed = bleed_of(comp, opts)
    done: dict[str, str] = {}
    out = []
    for face in faces:
        key = face.template + "\0" + json.dumps(face.context, sort_keys=True, default=str)
        if key not in done:
            where = f"{comp.game}/{comp.id} face '{face.name}'"
            done[key] = templating.render(face, size, bleed, opts, where, roots)
            templating.check_text_sizes(done[key], face, where)
        out.append(done[key])
    return out


def plan(comp: Component, opts: Options, roots: tuple[str, ...]) -> Laid:
    if comp.backs is not None and len(comp.backs) != len(comp.fronts):
        raise GeneratorError(f"{comp.game}/{comp.id}: {len(comp.backs)} backs for "
                             f"{len(comp.fronts)} fronts")
    fronts = render_faces(comp, comp.fronts, opts, roots)
    backs = render_faces(comp, comp.backs, opts, roots) if comp.backs is not None else None
    return lay_out(comp, fronts, backs, opts)


def check_out_dir(out_dir: Path) -> None:
    """One clear line when the output folder cannot be written."""
    import os
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise GeneratorError(f"cannot create output folder {out_dir}: {exc.strerror}") from None
    if not out_dir.is_dir() or not os.access(out_dir, os.W_OK | os.X_OK):
        raise GeneratorError(f"cannot write to output folder {out_dir}")


def build_components(comps: list[Component], opts: Options, out_dir: Path,
                     roots: tuple[str, ...] = (str(templating.TEMPLATES),),
                     flat: bool = False, notes: list[str] | None = None) -> Summary:
    """Lay out, render and write every component; the manifest and the guide; PNGs with --png."""
    t0 = time.perf_counter()
    out_dir = Path(out_dir)
    check_out_dir(out_dir)
    cache = Cache(out_dir)
    with Workers() as workers:
        if not cache.pages.is_dir():         # cold: cairo loads in the workers meanwhile
            workers.start()
        return _build(comps, opts, out_dir, roots, flat, notes, cache, workers, t0)


def component_key(comp: Component, opts: Options, templates: str) -> str:
    """A hash of everything a component's pages depend on: its faces, the options, the templates."""
    import dataclasses
    import hashlib
    from .render import ENGINE_VERSION
    from .sheets import data
    faces = [(f.template, f.context, f.name) for f in comp.fronts]
    backs = [(f.template, f.context, f.name) for f in comp.backs] if comp.backs is not None else None
    blob = json.dumps([ENGINE_VERSION, templates, data(), dataclasses.asdict(opts), comp.game, comp.id,
                       list(comp.size_mm), comp.layout, comp.grid, comp.bleed, faces, backs],
                      sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


def _remembered(memo: dict | None, key: str, cache: Cache) -> Laid | None:
    """The pages of a component from the last build when nothing it depends on changed."""
    if not memo or memo.get("key") != key:
        return None
    pages = []
    for k, size, trim, bleed, label in memo["pages"]:
        if not cache.page_path(k).is_file():
            return None
        pages.append(Page("", tuple(size), tuple(trim), tuple(bleed), label, key=k))
    return Laid(pages, memo["sheets"], tuple(memo["item"]),
                tuple(memo["gutter"]) if memo.get("gutter") else None,
                tuple(memo["grid"]) if memo.get("grid") else None, folded=bool(memo.get("folded")))


def _remember(laid: Laid, key: str) -> dict:
    from .render import page_key
    return {"key": key, "sheets": laid.sheets, "item": list(laid.item),
            "gutter": list(laid.gutter) if laid.gutter else None,
            "grid": list(laid.grid) if laid.grid else None, "folded": laid.folded,
            "pages": [[page_key(p), list(p.size), list(p.trimbox), list(p.bleedbox), p.label]
                      for p in laid.pages]}


def _build(comps: list[Component], opts: Options, out_dir: Path, roots: tuple[str, ...], flat: bool,
           notes: list[str] | None, cache: Cache, workers: Workers, t0: float) -> Summary:
    planned = []
    templates = templating.fingerprint(roots)
    keys: dict[str, str] = {}
    for comp in comps:
        rel = f"{comp.id}.pdf" if flat else f"{comp.game}/{comp.id}.pdf"
        if rel in keys:
            raise GeneratorError(f"{comp.game}/{comp.id}: two components with the same id")
        keys[rel] = component_key(comp, opts, templates)
        laid = None if opts.png_dpi else _remembered(cache.index.get("component:" + rel), keys[rel], cache)
        planned.append(Planned(comp, laid or plan(comp, opts, roots), rel))
    extra: list[tuple[str, list[Page], dict]] = []
    if any(p.comp.backs is not None and not p.laid.folded for p in planned):
        from .calibration import calibration_pages
        rel = "calibracion-doble-cara.pdf" if opts.lang == "es" else "duplex-calibration.pdf"
        pages = calibration_pages(opts)
        extra.append((rel, pages, {"game": "kit", "component": "calibration", "path": rel,
                                   "pages": len(pages), "page_size_mm": list(pages[0].size),
                                   "item_size_mm": list(pages[0].size), "items": 1,
                                   "duplex": True, "gutter_mm": None}))
    all_pages = [pg for p in planned for pg in p.laid.pages] + [pg for e in extra for pg in e[1]]
    bar = Progress(len(all_pages))
    try:
        rendered = render_pages(all_pages, cache, bar, workers)
        summary = Summary(notes=list(notes or []))
        files = [(p.laid.pages, out_dir / p.rel, p.rel) for p in planned]
        files += [(pages, out_dir / rel, rel) for rel, pages, _entry in extra]
        summary.written = len(assemble_all(files, cache, workers))
        entries = []
        for p in planned:
            cache.index["component:" + p.rel] = _remember(p.laid, keys[p.rel])
            entries.append(_entry(p, opts))
        entries += [entry for _rel, _pages, entry in extra]
        cache.prune({pg.key for pg in all_pages})
    finally:
        bar.close()
        cache.save_index()
    unique = len({pg.key for pg in all_pages})
    summary.files = len(entries)
    summary.pages = len(all_pages)
    summary.rendered = rendered
    summary.cached = unique - rendered
    summary.manifest = {"files": entries}
    write_text(out_dir / "manifest.json", json.dumps(summary.manifest, ensure_ascii=False,
                                                     indent=2) + "\n", only_if_changed=True)
    write_text(out_dir / guide_name(opts), guide(planned, extra, opts), only_if_changed=True)
    if opts.png_dpi:
        from .png import export_png
        summary.written += export_png([(p.comp, p.laid) for p in planned], opts, out_dir)
    summary.seconds = time.perf_counter() - t0
    return summary


def _entry(p: Planned, opts: Options) -> dict:
    laid = p.laid
    return {"game": p.comp.game, "component": p.comp.id, "path": p.rel, "pages": len(laid.pages),
            "page_size_mm": list(laid.pages[0].size) if laid.pages else [],
            "item_size_mm": [round(v, 3) for v in laid.item], "items": len(p.comp.fronts),
            "duplex": p.comp.backs is not None and not laid.folded, "fold": laid.folded,
            "gutter_mm": [round(v, 3) for v in laid.gutter] if laid.gutter is not None else None}


def guide_name(opts: Options) -> str:
    return "LEEME-imprimir.txt" if opts.lang == "es" else "PRINT-GUIDE.txt"


def guide(planned: list[Planned], extra: list, opts: Options) -> str:
    """The short print guide: which file, which paper, one or two sides, how many sheets."""
    es = opts.lang == "es"
    from .sheets import paper_name
    paper = paper_name(opts.paper, opts.lang)
    bleed = f"{opts.bleed_mm:g} mm"
    lines = [("Ludoteca: guía de impresión" if es else "Ludoteca: print guide"),
             (f"Papel {paper}, escala 100 % (tamaño real, nunca «ajustar a la página»); sangrado {bleed}."
              if es else f"Paper {paper}, scale 100 % (actual size, never 'fit to page'); bleed {bleed}."),
             ""]
    total = 0
    width = max([len(p.rel) for p in planned] + [10])
    for p in planned:
        sheets = p.laid.sheets
        total += sheets
        if p.laid.folded:
            how = ("una cara; doblar por la línea discontinua, pegar y cortar" if es else
                   "single-sided; fold on the dashed line, glue, then cut")
        elif p.comp.backs is not None:
            how = "doble cara (borde largo)" if es else "double-sided (long edge)"
        else:
            how = "una cara" if es else "single-sided"
        unit = ("hoja" if sheets == 1 else "hojas") if es else ("sheet" if sheets == 1 else "sheets")
        title = p.comp.title.get(opts.lang) or p.comp.title.get("es") or p.comp.id
        line = f"{p.rel:<{width}}  {title} ×{len(p.comp.fronts)} · {how} · {sheets} {unit}"
        if p.laid.gutter is not None and p.comp.bleed and p.comp.layout == "grid":
            gx, gy = p.laid.gutter
            line += (" · separación " if es else " · gap ") + f"{round(gx, 2):g}×{round(gy, 2):g} mm"
        lines.append(line)
    lines += ["", (f"Total: {total} hojas." if es else f"Total: {total} sheets.")]
    for rel, _pages, _entry in extra:
        lines += ["", (f"Antes de imprimir a doble cara: imprime {rel} a doble cara (borde largo). "
                       "Al trasluz, lee en las reglas del dorso el número sobre el que cae cada "
                       "línea del anverso y pásalos así: --back-offset X,Y" if es else
                       f"Before printing double-sided: print {rel} double-sided (long edge). Against "
                       "the light, read the number each front line falls on in the rulers of the "
                       "back and pass them as: --back-offset X,Y")]
    lines += ["", ("Corta por las marcas de corte: el fondo sobrepasa la línea de corte (sangrado), "
                   "así que un corte un poco desviado no deja borde blanco." if es else
                   "Cut along the crop marks: backgrounds run past the cut line (bleed), so a "
                   "slightly-off cut leaves no white edge.")]
    return "\n".join(lines) + "\n"


def game_components(game_id: str, catalog, opts: Options, notes: list[str]) -> list[Component]:
    """The components a game module declares, or none (with a note) if it is not written yet."""
    name = f"ludoteca.generator.games.{game_id}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        notes.append(f"{game_id}: no component module yet ({name}); skipped")
        return []
    return list(module.components(catalog[game_id], opts))


def build(games: list[str] | tuple[str, ...], opts: Options, out_dir: Path | str,
          cards_dir: Path | str | None = None) -> Summary:
    """Build the print kit of ``games`` into ``out_dir``; returns what was done."""
    from ludoteca.cards import load
    games = tuple(games) or GAMES
    catalog = load(cards_dir, games)
    notes: list[str] = []
    comps: list[Component] = []
    for game_id in games:
        comps += game_components(game_id, catalog, opts, notes)
    return build_components(comps, opts, Path(out_dir), notes=notes)


def report(summary: Summary, stream=None) -> None:
    stream = stream or sys.stdout
    for note in summary.notes:
        print(f"note: {note}", file=sys.stderr)
    print(summary.line(), file=stream)

"""``build``: card data -> components -> pages -> PDFs, manifest.json and a print guide."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import sys
import time
from pathlib import Path
from collections.abc import Callable, Hashable

from . import budget, templating
from ludoteca.atomic import Unwritable, files_under, folder_target
from .compose import Page
from .layout import Laid, bleed_of, face_size, lay_out
from .model import Component, Face, GeneratorError, Options, in_lang
from .progress import Progress
from .record import as_dict, field, record
from .render import Cache, PageSender, Workers, assemble_all
from .staging import Stage

GAMES = ("ciudadelas", "el_mapa", "gladiadores")


@record
class Planned:
    """A component with its pages, before rendering."""

    comp: Component
    laid: Laid
    rel: str


@record
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


#: Values whose ``==`` and hash tell apart exactly what a face writes of them (not floats: -0.0
#: equals 0.0 but writes otherwise).
_PLAIN = frozenset({str, int, bool, type(None)})


def _face_key(face: Face) -> Hashable:
    """What makes two faces the same face: the template and the context.  A context of plain
    values (a CSV row's texts and its line number) is keyed by its names, their values and
    their types, in order; any other by its JSON text."""
    context = face.context
    kinds = tuple(map(type, context.values()))
    if _PLAIN.issuperset(kinds):
        return (face.template, tuple(context), kinds, tuple(context.values()))
    return face.template + "\0" + json.dumps(context, sort_keys=True, default=str)


def render_faces(comp: Component, faces: list[Face], opts: Options,
                 roots: tuple[str, ...], notes: list[str] | None = None) -> list[str]:
    """Every face to SVG text; identical faces (copies) are rendered once.  Warnings (a
    template's reference left out) go to ``notes``, each once."""
    def warn(message: str) -> None:
        if notes is not None and message not in notes:
            notes.append(message)

    size = face_size(comp, opts)
    bleed = bleed_of(comp, opts)
    done: dict[Hashable, str] = {}
    out = []
    with budget.faces():              # a user's template: memory capped once for the run of faces
        for face in faces:
            key = _face_key(face)
            if key not in done:
                where = f"{comp.game}/{comp.id} face '{face.name}'"
                done[key] = templating.render(face, size, bleed, opts, where, roots, warn)
                templating.check_text_sizes(done[key], face, where)
            out.append(done[key])
    return out


def plan(comp: Component, opts: Options, roots: tuple[str, ...],
         notes: list[str] | None = None) -> Laid:
    if comp.layout == "pack":                    # each part's faces at the part's own size
        for part in comp.parts:
            if part.backs is not None and len(part.backs) != len(part.fronts):
                raise GeneratorError(f"{comp.game}/{part.id}: {len(part.backs)} backs for "
                                     f"{len(part.fronts)} fronts")
        fronts = [svg for part in comp.parts for svg in render_faces(part, part.fronts, opts, roots, notes)]
        backs = [svg for part in comp.parts if part.backs is not None
                 for svg in render_faces(part, part.backs, opts, roots, notes)]
        return lay_out(comp, fronts, backs, opts)
    if comp.backs is not None and len(comp.backs) != len(comp.fronts):
        raise GeneratorError(f"{comp.game}/{comp.id}: {len(comp.backs)} backs for "
                             f"{len(comp.fronts)} fronts")
    fronts = render_faces(comp, comp.fronts, opts, roots, notes)
    backs = render_faces(comp, comp.backs, opts, roots, notes) if comp.backs is not None else None
    return lay_out(comp, fronts, backs, opts)


STREAM_FROM = 600        # a grid component with more faces than this is laid out in slices
STREAM_SHEETS = 24       # sheets per slice: enough pages to keep both workers busy


def streamable(comp: Component, opts: Options) -> bool:
    """Whether a component is laid out and rendered in slices (flat memory for huge decks).

    Not with ``--png``: the images need every face's SVG at the end.
    """
    return comp.layout == "grid" and len(comp.fronts) > STREAM_FROM and not opts.png_dpi


def plan_streamed(comp: Component, opts: Options, roots: tuple[str, ...], notes: list[str],
                  sender: PageSender) -> Laid:
    """A big grid component, slice by slice: render the slice's faces, lay out its sheets,
    send its pages to be rendered into the cache, then keep only each page's key and boxes.

    Memory holds one slice of SVG at a time, whatever the size of the deck; what it freed is
    handed back to the system after each slice (:func:`.heap.give_back`).
    """
    from .heap import give_back
    from .layout import per_sheet
    if comp.backs is not None and len(comp.backs) != len(comp.fronts):
        raise GeneratorError(f"{comp.game}/{comp.id}: {len(comp.backs)} backs for "
                             f"{len(comp.fronts)} fronts")
    n = per_sheet(comp, opts)
    step = n * STREAM_SHEETS
    pages: list[Page] = []
    shared: dict = {}
    first: Laid | None = None
    for start in range(0, len(comp.fronts), step):
        stop = start + step
        fronts = render_faces(comp, comp.fronts[start:stop], opts, roots, notes)
        backs = (render_faces(comp, comp.backs[start:stop], opts, roots, notes)
                 if comp.backs is not None else None)
        laid = lay_out(comp, fronts, backs, opts, first_sheet=start // n)
        del fronts, backs
        sender.send(laid.pages)
        for page in laid.pages:            # kept: the key, and boxes (and group) shared by equal pages
            page.svg, page.overlay, page.faces = "", "", []
            page.group = shared.setdefault(page.group, page.group)
            page.size, page.trimbox, page.bleedbox = (shared.setdefault(page.size, page.size),
                                                      shared.setdefault(page.trimbox, page.trimbox),
                                                      shared.setdefault(page.bleedbox, page.bleedbox))
        pages += laid.pages
        if first is None:                  # its shape, not its faces' SVG (laid.fronts)
            first = Laid([], 0, laid.item, laid.gutter, laid.grid, folded=laid.folded)
        del laid
        give_back()
    return Laid(pages, -(-len(comp.fronts) // n), first.item, first.gutter, first.grid,
                folded=first.folded)


def check_out_dir(out_dir: Path) -> None:
    """One clear line when the output folder cannot be written (created when missing)."""
    try:
        folder_target(out_dir)
    except Unwritable as exc:
        raise GeneratorError(f"output folder {exc}") from None


def remove_old_cache(out_dir: Path) -> None:
    """Delete the ``.cache`` folder earlier versions kept inside the kit (the cache now lives in
    the user's cache folder)."""
    import shutil
    old = out_dir / ".cache"
    if old.is_dir() and not old.is_symlink():
        shutil.rmtree(old, ignore_errors=True)


def build_components(comps: list[Component], opts: Options, out_dir: Path,
                     roots: tuple[str, ...] = (str(templating.TEMPLATES),),
                     flat: bool = False, notes: list[str] | None = None,
                     owned: set[str] | None = None, names: dict[str, str] | None = None,
                     documents: list | None = None,
                     books: Callable[[Workers], Callable[[], list]] | None = None,
                     workers: Workers | None = None) -> Summary:
    """Lay out, render and write every component and document (rulebooks); the manifest and the
    guide; PNGs with --png.  ``books(workers)`` starts typesetting the rulebooks (in the
    workers, while the components are laid out) and gives the function that waits for them.
    ``workers``: a pool the caller holds (and closes), else one of this build's own."""
    t0 = time.perf_counter()
    out_dir = Path(out_dir)
    check_out_dir(out_dir)
    stage = Stage(out_dir)
    stage.open()
    cache = None
    try:
        cache = Cache(out_dir)
        remove_old_cache(out_dir)
        with contextlib.nullcontext(workers) if workers is not None else Workers() as workers:
            if books is not None:                # before the workers start: they share its data
                documents = books(workers)
            if not cache.pages.is_dir() and _big(comps, opts):   # cairo loads in the workers meanwhile
                workers.start()
            return _build(comps, opts, out_dir, roots, flat, notes, cache, workers, t0, stage, owned,
                          names, documents or [])
    except OSError as exc:
        after = ("the next build finishes the update" if stage.swapping
                 else "the folder keeps what it held before")
        raise GeneratorError(f"output folder {out_dir}: cannot write the kit ({_said(exc)}); "
                             f"{after}") from None
    finally:
        stage.discard()
        if cache is not None:
            cache.close()


def _big(comps: list[Component], opts: Options) -> bool:
    """Whether a cold build is big enough to start the pool before anything is laid out: a kit,
    or a deck laid out in slices.  A smaller deck starts it only once its pages are known to cost
    more than drawing them here (render.POOL_FROM_COST): a 14-page deck is drawn in this process,
    which costs less CPU than starting the workers, and no more time."""
    return not all(c.deck for c in comps) or any(streamable(c, opts) for c in comps)


def _said(exc: OSError) -> str:
    """An operating system error in a few words (the file named is the staged one: left out)."""
    if isinstance(exc, Unwritable):
        return str(exc)
    return exc.strerror or str(exc)


def component_key(comp: Component, opts: Options, templates: str) -> str:
    """A hash of everything a component's pages depend on: its faces, the options, the templates,
    and for a board its title and the words of the label under each of its pieces."""
    import hashlib
    from .render import ENGINE_VERSION
    from .sheets import data
    from .words import words
    parts = [[p.id, list(p.size_mm), p.round, [(f.template, f.context, f.name) for f in p.backs]
              if p.backs is not None else None, len(p.fronts)] for p in comp.parts] if comp.parts else None
    chosen = {k: v for k, v in as_dict(opts).items() if k not in ("quiet", "png_dpi", "shop", "tts_url")}
    blob = json.dumps([ENGINE_VERSION, templates, data(), chosen, comp.game, comp.id,
                       list(comp.size_mm), comp.layout, comp.grid, comp.bleed, comp.backs is None, parts,
                       [comp.title, words("kit", "board")] if comp.layout == "board" else None],
                      sort_keys=True, default=str)
    digest = hashlib.sha256(blob.encode("utf-8"))
    for faces in (comp.fronts, comp.backs or []):     # face by face: a huge deck is never whole
        digest.update(b"\0faces")
        feed = getattr(faces, "feed", None)           # a CSV deck's: its rows' bytes, not its faces
        if feed is not None:
            feed(digest)
            continue
        for f in faces:
            digest.update(json.dumps((f.template, f.context, f.name), sort_keys=True,
                                     default=str).encode("utf-8") + b"\n")
    return digest.hexdigest()[:32]


def _remembered(memo: dict | None, key: str, cache: Cache) -> Laid | None:
    """The pages of a component from the last build when nothing it depends on changed."""
    if not memo or memo.get("key") != key:
        return None
    pages = []
    for k, size, trim, bleed, label in memo["pages"]:
        if not cache.has_page(k):
            return None
        pages.append(Page("", tuple(size), tuple(trim), tuple(bleed), label, key=k))
    return Laid(pages, memo["sheets"], tuple(memo["item"]),
                tuple(memo["gutter"]) if memo.get("gutter") else None,
                tuple(memo["grid"]) if memo.get("grid") else None, folded=bool(memo.get("folded")))


def _remember(laid: Laid, key: str) -> dict:
    from .render import page_key
    lists: dict[tuple, list] = {}          # one list per distinct box: a huge deck repeats them

    def listed(values: tuple) -> list:
        return lists.setdefault(values, list(values))
    return {"key": key, "sheets": laid.sheets, "item": list(laid.item),
            "gutter": list(laid.gutter) if laid.gutter else None,
            "grid": list(laid.grid) if laid.grid else None, "folded": laid.folded,
            "pages": [[page_key(p), listed(p.size), listed(p.trimbox), listed(p.bleedbox), p.label]
                      for p in laid.pages]}


VARIANT = ("lang", "paper", "ink_saver", "bleed_mm", "layout", "back_offset_mm")
_TMP = r"^\..+\.(\d+)\.tmp$"       # compiled at its first use: most builds find no such file


def variant(opts: Options) -> dict:
    """The options that change what the PDFs of a folder are: one folder holds one variant."""
    return {k: (list(v) if isinstance(v, tuple) else v)
            for k, v in ((k, getattr(opts, k)) for k in VARIANT)}


def read_manifest(out_dir: Path) -> dict:
    """The folder's manifest, or an empty one (unreadable counts as none)."""
    try:
        found = json.loads((out_dir / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) and isinstance(found.get("files"), list) else {}


RETUNED = ("bleed_mm", "back_offset_mm")     # may change when the build remakes every file


def check_variant(old: dict, opts: Options, out_dir: Path, remade: set[str] | None = None,
                  owned: set[str] | None = None) -> None:
    """Refuse to mix two variants (language, paper, ink-saver, ...) in one folder.

    Refusing, not a subfolder: the folder the user named stays the one that holds what they asked
    for, and its manifest and print guide describe exactly one way of printing.  A new bleed or
    back offset (after printing the calibration sheet) is accepted when this build remakes every
    file of the folder (``remade`` paths, ``owned`` games), since nothing old is left to mix with.
    """
    before = old.get("options")
    if not before:
        return
    now = variant(opts)
    left = [e for e in old.get("files", []) if isinstance(e, dict) and e.get("game") != "kit"
            and e.get("path") not in (remade or set()) and e.get("game") not in (owned or set())
            and (out_dir / str(e.get("path"))).is_file()]
    diff = [k for k in VARIANT if k in before and before[k] != now[k] and (k not in RETUNED or left)]
    if diff:
        said = ", ".join(f"{k} {before[k]!r} (now {now[k]!r})" for k in diff)
        raise GeneratorError(f"{out_dir} holds a kit built with {said}; build into another folder "
                             "(--out) so the two never mix, or empty this one")


def _hidden_tmp(name: str) -> bool:
    """What ``Path.glob(".*.tmp")`` matches."""
    return len(name) > 4 and name[0] == "." and name.endswith(".tmp")


def remove_stale_temporaries(out_dir: Path) -> int:
    """Delete ``.NAME.PID.tmp`` files left by builds that were killed (their process is gone)."""
    removed = 0
    for found in files_under(str(out_dir), _hidden_tmp):
        path = Path(found)
        match = re.match(_TMP, path.name)
        if match is None or not path.is_file():
            continue
        pid = int(match.group(1))
        if pid != os.getpid() and not _alive(pid):
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0
    return True


def merge_entries(old: list[dict], new: list[dict], owned: set[str], out_dir: Path,
                  stage: Stage) -> list[dict]:
    """This build's entries, then the earlier ones it did not replace whose file is still there.

    An earlier entry of a game this build covers (``owned``) that it no longer makes is removed,
    with its file: the folder lists every file in it, and holds no file it does not list.
    """
    made = {e["path"] for e in new}
    kept = []
    for entry in old:
        path = entry.get("path")
        if not isinstance(path, str) or path in made or not (out_dir / path).is_file():
            continue
        if entry.get("game") in owned:
            stage.remove(out_dir / path)
            continue
        kept.append(entry)
    merged = new + kept
    if not any(e.get("duplex") for e in merged if e.get("game") != "kit"):
        for entry in [e for e in merged if e.get("game") == "kit" and e.get("component") == "calibration"]:
            stage.remove(out_dir / entry["path"])
            merged.remove(entry)
    order = {g: i for i, g in enumerate(GAMES + ("deck", "kit"))}
    return sorted(merged, key=lambda e: (order.get(e.get("game"), 99), e.get("path", "")))


def _write_manifest(out_dir: Path, opts: Options, entries: list[dict], stage: Stage) -> dict:
    manifest = {"complete": True, "options": variant(opts), "files": entries}
    stage.write_text(out_dir / "manifest.json",
                     json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")
    return manifest


def _sheet_of(label: str) -> str:
    """A page's label without the side it shows (`` front``, `` back``, `` fold``): its sheet's."""
    for side in (" front", " back", " fold"):
        if label.endswith(side):
            return label[:-len(side)]
    return label


def _numbered(group: str) -> tuple[str, str] | None:
    """(``sheet``, ``page`` or ``piece``, its number) that end a sheet's label (`` sheet 3``),
    else None."""
    head, space, number = group.rpartition(" ")
    _before, space_too, kind = head.rpartition(" ")
    if space and space_too and kind in ("sheet", "page", "piece") and number \
            and all(c == "," or c.isdecimal() for c in number):
        return kind, number
    return None


def _meta(comp: Component, laid: Laid, opts: Options, game_name: str):
    """Title, subject, language and outline (one bookmark per sheet, page or piece) of a PDF."""
    from .pdfjoin import Meta
    from .sheets import paper_name
    from .words import words
    kit = words("kit", "pdf")
    lang = opts.lang
    title = comp.title_in(lang)
    outline: list[tuple[str, int]] = []
    last = None
    for i, page in enumerate(laid.pages):
        group = _sheet_of(page.label)
        if group == last:
            continue
        last = group
        found = _numbered(group)
        if found:
            outline.append((f"{kit[found[0]][lang]} {found[1]}", i))
        else:
            outline.append((f"{title} {len(outline) + 1}", i))
    w, h = laid.item
    subject = kit["subject"][lang].format(items=len(comp.fronts), w=f"{w:g}", h=f"{h:g}",
                                          paper=paper_name(opts.paper, lang))
    if comp.parts:
        sizes = sorted({f"{v:g}" for part in comp.parts for v in part.size_mm}, key=float)
        subject = kit["subject_pack"][lang].format(items=len(comp.fronts), sizes=", ".join(sizes),
                                                   paper=paper_name(opts.paper, lang))
    return Meta(title=comp.title_in(lang, game_name), subject=subject,
                lang=lang, outline=outline)


def _file(p: Planned, opts: Options, names: dict[str, str] | None, metas: dict, cache: Cache,
          out_dir: Path, stage: Stage) -> tuple | None:
    """What the render job that draws every page of ``p`` needs to write its file as well: (rel,
    file key, a maker of the :func:`~.render._write_pdf` spec); None when the file is written as
    it is (the index says so).  Its metadata is kept in ``metas``."""
    from .render import file_key, write_spec
    pages = p.laid.pages
    meta = metas[p.rel] = _meta(p.comp, p.laid, opts, (names or {}).get(p.comp.game, ""))
    key = file_key(pages, meta)
    path = out_dir / p.rel
    if not pages or cache.fresh(p.rel, key, path):
        return None
    return p.rel, key, lambda: write_spec(stage.path(path), cache, pages, meta, durable=False)


def _extra_meta(entry: dict, opts: Options):
    """The metadata of a kit-wide file (the calibration sheet): its title, one bookmark."""
    from .pdfjoin import Meta
    title = in_lang(entry.get("title"), opts.lang) or entry.get("component", "")
    return Meta(title=f"{title} · Ludoteca", subject=title, lang=opts.lang, outline=[(title, 0)])


def _build(comps: list[Component], opts: Options, out_dir: Path, roots: tuple[str, ...], flat: bool,
           notes: list[str] | None, cache: Cache, workers: Workers, t0: float, stage: Stage,
           owned: set[str] | None = None, names: dict[str, str] | None = None,
           documents: list | Callable[[], list] | None = None) -> Summary:
    notes = notes if notes is not None else []
    old = read_manifest(out_dir)
    check_variant(old, opts, out_dir,
                  {f"{c.id}.pdf" if flat else f"{c.game}/{c.id}.pdf" for c in comps}, set(owned or ()))
    remove_stale_temporaries(out_dir)
    planned = []
    templates = templating.fingerprint(roots)
    keys: dict[str, str] = {}
    said: dict[str, list[str]] = {}          # the notes each component's faces gave
    bar = Progress(0, quiet=opts.quiet)
    sender = PageSender(cache, workers, bar)
    metas: dict[str, object] = {}             # each file's title, subject and outline
    for comp in comps:
        rel = f"{comp.id}.pdf" if flat else f"{comp.game}/{comp.id}.pdf"
        if rel in keys:
            raise GeneratorError(f"{comp.game}/{comp.id}: two components with the same id")
        keys[rel] = component_key(comp, opts, templates)
        memo = cache.index.get("component:" + rel)
        laid = None if opts.png_dpi else _remembered(memo, keys[rel], cache)
        before = len(notes)
        if laid is not None:
            notes += [n for n in memo.get("notes", []) if n not in notes]    # said again
        elif streamable(comp, opts):
            laid = plan_streamed(comp, opts, roots, notes, sender)
        planned.append(Planned(comp, laid or plan(comp, opts, roots, notes), rel))
        # drawn while the next is laid out, and the file written by the job that draws its pages
        sender.send(planned[-1].laid.pages, _file(planned[-1], opts, names, metas, cache, out_dir, stage))
        said[rel] = notes[before:]
    extra: list[tuple[str, list[Page], dict]] = []
    if any(two_sided(p.comp) and not p.laid.folded for p in planned):
        from .calibration import calibration_pages
        rel = "calibracion-doble-cara.pdf" if opts.lang == "es" else "duplex-calibration.pdf"
        pages = calibration_pages(opts)
        extra.append((rel, pages, {"game": "kit", "component": "calibration", "path": rel,
                                   "title": {"es": "Calibración de doble cara",
                                             "en": "Double-sided calibration"},
                                   "pages": len(pages), "sheets": 1, "layout": "page",
                                   "page_size_mm": list(pages[0].size),
                                   "item_size_mm": list(pages[0].size), "items": 1,
                                   "duplex": True, "fold": False, "gutter_mm": None}))
    all_pages = [pg for p in planned for pg in p.laid.pages] + [pg for e in extra for pg in e[1]]
    merged = [e for e in old.get("files", []) if isinstance(e, dict)]
    try:
        for _rel, pages, _entry_of in extra:
            sender.send(pages)
        if callable(documents):                 # the books were the workers' first jobs
            documents = documents()
        # rulebooks: whole PDFs, staged here while the workers draw the last pages
        books_written = sum(stage.write_bytes(out_dir / doc.rel, doc.data) for doc in documents or [])
        rendered = sender.finish()
        entries = [_entry(p, opts) for p in planned] + [entry for _rel, _pages, entry in extra]
        entries += [d.entry() for d in documents or []]
        summary = Summary(notes=list(notes or []))
        files = [(p.laid.pages, out_dir / p.rel, p.rel, metas[p.rel]) for p in planned]
        files += [(pages, out_dir / rel, rel, _extra_meta(entry, opts)) for rel, pages, entry in extra]
        summary.written = len(assemble_all(files, cache, workers, stage=stage, written=sender.written)) \
            + books_written
        for p in planned:
            cache.index["component:" + p.rel] = dict(_remember(p.laid, keys[p.rel]),
                                                     notes=said.get(p.rel, []))
        cache.prune({pg.key for pg in all_pages})
    finally:
        bar.close()
        cache.save_index()
    unique = len({pg.key for pg in all_pages})
    summary.pages = len(all_pages) + sum(d.pages for d in documents or [])
    summary.rendered = rendered
    summary.cached = unique - rendered
    if opts.png_dpi:
        from .png import export_png
        written, listed = export_png([(p.comp, p.laid, p.rel) for p in planned], opts, out_dir,
                                     stage, cache, quiet=opts.quiet, workers=workers, names=names)
        summary.written += written
        for entry in entries:
            entry.update(listed.get(entry["path"], {}))
    if opts.shop:
        entries += _shop(planned, opts, out_dir, roots, notes, workers, stage, cache, summary)
    entries = merge_entries(merged, entries, set(owned or ()), out_dir, stage)
    summary.files = len(entries)
    summary.manifest = _write_manifest(out_dir, opts, entries, stage)
    stage.write_text(out_dir / guide_name(opts), guide_from(entries, opts))
    stage.commit()
    cache.save_index()
    summary.notes = list(dict.fromkeys(notes))
    summary.seconds = time.perf_counter() - t0
    return summary


def _shop(planned: list[Planned], opts: Options, out_dir: Path, roots: tuple[str, ...],
          notes: list[str], workers: Workers, stage: Stage, cache: Cache,
          summary: Summary) -> list[dict]:
    """``--shop``: the print shop's images, listing and ZIP (a kit entry of the manifest)."""
    from .raster import run_tasks
    from .shop import plan_shop, write_bundle
    tasks, rows, prof = plan_shop([p.comp for p in planned], opts, out_dir, roots, notes, render_faces)
    if not rows:
        return []
    summary.written += run_tasks(tasks, stage, cache, workers, opts.quiet, what="images")
    return [write_bundle(rows, prof, opts, out_dir, stage)]


def _entry(p: Planned, opts: Options) -> dict:
    laid = p.laid
    if p.comp.parts:
        from .pack import punch_sizes       # packed components only (layout.py packs them)
    return {"game": p.comp.game, "component": p.comp.id, "path": p.rel,
            "title": dict(p.comp.title), "pages": len(laid.pages), "sheets": laid.sheets,
            "layout": p.comp.layout,
            "page_size_mm": list(laid.pages[0].size) if laid.pages else [],
            "item_size_mm": [round(v, 3) for v in laid.item], "items": len(p.comp.fronts),
            "duplex": two_sided(p.comp) and not laid.folded, "fold": laid.folded,
            "gutter_mm": ([round(v, 3) for v in laid.gutter]
                          if laid.gutter is not None and p.comp.bleed and p.comp.layout == "grid"
                          else None),
            **({"parts": [{"component": part.id, "title": dict(part.title), "items": len(part.fronts),
                           "item_size_mm": [float(v) for v in part.size_mm], "round": part.round,
                           "two_sided": part.backs is not None} for part in p.comp.parts]}
               if p.comp.parts else {}),
            **({"punch_mm": punch_sizes(p.comp)} if p.comp.parts else {})}


def two_sided(comp: Component) -> bool:
    """Whether a component prints backs (a packed one when any of its parts does)."""
    return comp.backs is not None or any(part.backs is not None for part in comp.parts)


def guide_name(opts: Options) -> str:
    return "LEEME-imprimir.txt" if opts.lang == "es" else "PRINT-GUIDE.txt"


def guide_from(entries: list[dict], opts: Options) -> str:
    """The short print guide of every file in the folder: which paper, one or two sides, sheets."""
    from .sheets import paper_name
    es = opts.lang == "es"
    paper = paper_name(opts.paper, opts.lang)
    bleed = f"{opts.bleed_mm:g} mm"
    lines = [("Ludoteca: guía de impresión" if es else "Ludoteca: print guide"),
             (f"Papel {paper}, escala 100 % (tamaño real, nunca «ajustar a la página»); sangrado {bleed}."
              if es else f"Paper {paper}, scale 100 % (actual size, never 'fit to page'); bleed {bleed}."),
             ""]
    total = 0
    files = [e for e in entries if e.get("game") != "kit"]
    width = max([len(e["path"]) for e in files] + [10])
    for e in files:
        sheets = int(e.get("sheets", e["pages"]))
        total += sheets
        if e.get("how"):
            how = e["how"][opts.lang]
        elif e.get("fold"):
            how = ("una cara; doblar por la línea discontinua, pegar y cortar" if es else
                   "single-sided; fold on the dashed line, glue, then cut")
        elif e.get("duplex"):
            how = "doble cara (borde largo)" if es else "double-sided (long edge)"
        else:
            how = "una cara" if es else "single-sided"
        unit = ("hoja" if sheets == 1 else "hojas") if es else ("sheet" if sheets == 1 else "sheets")
        title = in_lang(e.get("title"), opts.lang) or e["component"]
        line = f"{e['path']:<{width}}  {title} ×{e['items']} · {how} · {sheets} {unit}"
        if e.get("gutter_mm"):
            gx, gy = e["gutter_mm"]
            line += (" · separación " if es else " · gap ") + f"{round(gx, 2):g}×{round(gy, 2):g} mm"
        lines.append(line)
        lines += _pack_lines(e, opts.lang)
        tts = e.get("tts")
        if tts:
            lines.append("    " + (f"Tabletop Simulator: {tts['json']} (cuadrícula "
                                   if es else f"Tabletop Simulator: {tts['json']} (grid ")
                         + ", ".join(f"{s['num_width']}×{s['num_height']}" for s in tts["sheets"])
                         + (f", {e['items']} cartas)" if es else f", {e['items']} cards)"))
    lines += ["", (f"Total: {total} hojas." if es else f"Total: {total} sheets.")]
    for e in entries:
        if e.get("game") == "kit" and e.get("component") == "shop":
            lines += ["", (f"Imprenta ({e['profile']}): sube {e['path']}: {e['images']} imágenes; "
                           f"las cantidades están en {e['listing']}." if es else
                           f"Print shop ({e['profile']}): upload {e['path']}: {e['images']} images; "
                           f"the quantities are in {e['listing']}.")]
        if e.get("game") == "kit" and e.get("component") == "calibration":
            rel = e["path"]
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


def _pack_lines(entry: dict, lang: str) -> list[str]:
    """Under a sheet of packed tokens: what it holds and how to cut it."""
    parts = entry.get("parts")
    if not parts:
        return []
    es = lang == "es"
    held = ", ".join(f"{in_lang(p['title'], lang)} ×{p['items']}" for p in parts)
    out = ["    " + held + "."]
    cut = ("Corta por la línea de cada pieza: las redondas por su círculo (tijeras o cúter)"
           if es else "Cut along each piece's line: round ones along their circle (scissors or a craft knife)")
    if entry.get("punch_mm"):
        sizes = ", ".join(f"{v:g}" for v in entry["punch_mm"])
        cut += (f"; las de {sizes} mm, con un sacabocados de 1 pulgada (25,4 mm)" if es else
                f"; the {sizes} mm ones with a 1-inch (25.4 mm) punch")
    if any(p.get("two_sided") for p in parts):
        cut += ("; las de dos caras van primero, con su dorso detrás (las demás hojas llevan el dorso "
                "en blanco)" if es and not entry.get("fold")
                else "; las de dos caras: dobla la tira por la línea discontinua y pega antes de cortar" if es
                else "; the two-sided ones come first, their backs behind them (the other sheets have "
                "blank backs)" if not entry.get("fold")
                else "; two-sided ones: fold the strip on the dashed line and glue before cutting")
    return out + ["    " + cut + "."]


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
    """Build the print kit of ``games`` into ``out_dir``; returns what was done.

    A cold kit (no page of it cached) starts its workers first: while this process loads the
    cards and lays out the components, they import what setting the books and drawing the pages
    need (the books are sent to them as soon as the cards are loaded)."""
    from .catalogcache import load
    from .fonts import cache_dir
    from .rulebook import Setter, any_cached, start_documents
    games = tuple(games) or GAMES
    out_dir = Path(out_dir)
    setter = None
    with Workers() as workers:
        try:
            if _cold(out_dir):
                _import_shared(games)
                # one worker sets the books, unless they are likely cached (a new folder of a kit
                # built before): it loads what that needs while the cards are loaded here
                if not any_cached(cache_dir("rulebooks")):
                    setter = Setter()            # before the fork: the workers share its pipe
                workers.start()                  # no pool on one core: all is done here
                if setter is not None:
                    setter.start(workers)
            catalog = load(cards_dir, games)
            notes: list[str] = []
            # the setter is sent its books as soon as the cards are loaded: it sets them while the
            # components are made (on a fresh cache, their templates compiled) and laid out here
            early = (start_documents(catalog, games, opts, cache_dir("rulebooks"), notes, workers, setter)
                     if setter is not None and setter.future is not None else None)
            comps: list[Component] = []
            for game_id in games:
                comps += game_components(game_id, catalog, opts, notes)
            names = {g: (catalog[g].meta.get("name") or {}).get(opts.lang, g) for g in games}

            def books(workers: Workers) -> Callable[[], list]:
                # books to typeset start the workers (if not yet started) and are set there
                # while this process lays out the components
                return early or start_documents(catalog, games, opts, cache_dir("rulebooks"), notes, workers,
                                                setter)
            return build_components(comps, opts, out_dir, notes=notes, owned=set(games), names=names,
                                    books=books, workers=workers)
        finally:
            if setter is not None:
                setter.close()


def _import_shared(games: tuple[str, ...]) -> None:
    """What this process needs soon and the workers need as well (Jinja, the game modules),
    imported before they are forked: once, not once more in each worker."""
    templating.loader()                    # the compiled templates (no jinja unless one needs it)
    for game_id in games:
        try:
            importlib.import_module(f"ludoteca.generator.games.{game_id}")
        except ModuleNotFoundError:
            pass                                 # game_components says so, in its words


def _cold(out_dir: Path) -> bool:
    """Whether no page of the kit in ``out_dir`` is cached (every page is to be drawn).  A folder
    not made yet counts as cold, and is not made here: a build whose cards fail leaves no folder
    behind (and its cache, if it had one, is found once the build makes it)."""
    from .render import kit_cache
    if not out_dir.is_dir():
        return True
    root = kit_cache(out_dir.resolve())
    return root is None or not (root / "pages").is_dir()


def report(summary: Summary, stream=None, verbosity: int = 1) -> None:
    """Notes on stderr, then the summary line (0 = quiet: notes only; 2 = also every file)."""
    stream = stream or sys.stdout
    for note in summary.notes:
        print(f"note: {note}", file=sys.stderr)
    if verbosity >= 2:
        for entry in summary.manifest.get("files", []):
            print(f"  {entry['path']}: {entry['pages']} pages, {entry['items']} items", file=stream)
    if verbosity >= 1:
        print(summary.line(), file=stream)

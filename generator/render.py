"""SVG pages -> single-page PDFs (cached by the hash of their SVG) -> one PDF per component.

A page is rendered only when no cached PDF has its hash, so a rebuild with nothing changed
renders nothing and editing one card re-renders only its page.  To draw a page, each distinct
face is drawn once per process into a cairo recording surface (by :mod:`.fastsvg` when it is
made of what our templates write, else by cairosvg), which is painted (vector,
text as text) at every place the page SVG puts it, clipped the same way; copies cost nothing.
Pages render in parallel (fork) when there are several.  A file whose pages did not change is
not rewritten.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import json
import math
import os
import re
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable, Iterator, Sequence

from . import binding, fastsvg, fonts
from ludoteca.atomic import tmp_name, write_bytes, write_pieces, write_text
from .compose import ENGINE_VERSION, Page
from .model import GeneratorError
from .record import replace
from .units import mm_to_pt

#: Drawing cost (see :func:`page_cost`) from which pages are drawn in a pool rather than here.
#: Starting the two workers costs about 0.1 s CPU (fork, fonts, cairo), while these pages draw
#: in about 0.15 s: below it, drawing them in this process is cheaper and no slower (the
#: 120-card deck of bench/data/cards120.csv, 14 pages, costs about 200,000).
POOL_FROM_COST = 500_000


def page_key(page: Page) -> str:
    """The cache key of a page: a hash of its SVG (and of the engine)."""
    if not page.key:
        digest = hashlib.sha256(ENGINE_VERSION.encode())
        digest.update(page.svg.encode("utf-8"))
        page.key = digest.hexdigest()[:32]
    return page.key


def page_file(folder: Path, key: str) -> Path:
    """Where the page cache in ``folder`` keeps the page of ``key``."""
    return folder / f"{key}.pdf"


class Cache:
    """The page cache and the index of a kit's written files, in the user's cache folder.

    Never inside the output folder, which holds only what the user prints: the cache of a kit is
    ``<cache>/kits/<hash of the output folder's resolved path>/`` (``pages/``, ``files.json`` and
    ``path.txt`` naming the folder), so two output folders never share or spoil an index.  With
    no writable cache folder, a temporary one serves this build only (:meth:`close` removes it).
    """

    def __init__(self, out_dir: Path):
        self.out_dir = Path(out_dir).resolve()
        self.temporary = False
        root = kit_cache(self.out_dir)
        if root is None:
            import tempfile
            root, self.temporary = Path(tempfile.mkdtemp(prefix="ludoteca-kit-")), True
        self.root = root
        self.pages = self.root / "pages"
        self.index_path = self.root / "files.json"
        try:
            self.index: dict = json.loads(self.index_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.index = {}
        if not isinstance(self.index, dict):
            self.index = {}
        self._saved: dict | None = None      # the index as this process last wrote it

    def has_page(self, key: str) -> bool:
        """Whether the page is cached whole. Cached pages are written without fsync (they can be
        drawn again), so one that a crash of the system cut short (no ``%%EOF`` at its end) is not."""
        try:
            with open(self.page_path(key), "rb") as fh:
                fh.seek(-32, os.SEEK_END)
                return b"%%EOF" in fh.read()
        except OSError:
            return False

    def page_path(self, key: str) -> Path:
        return page_file(self.pages, key)

    def fresh(self, rel: str, key: str, path: Path) -> bool:
        """Whether ``path`` (at ``rel`` in the output folder) is the file this index says was
        written for ``key``, untouched since."""
        known = self.index.get(rel)
        if not (isinstance(known, dict) and known.get("key") == key):
            return False
        try:
            st = path.stat()
        except OSError:
            return False
        return st.st_size == known.get("size") and st.st_mtime_ns == known.get("mtime_ns")

    def remember(self, rel: str, key: str, path: Path) -> None:
        """Note that ``path`` (to be at ``rel``) was written for ``key``."""
        st = path.stat()
        self.index[rel] = {"key": key, "size": st.st_size, "mtime_ns": st.st_mtime_ns}

    def prune(self, keep: set[str]) -> int:
        """Delete cached pages that no remembered component and no page in ``keep`` uses.

        The folder is read an entry at a time (a glob listed a huge deck's thousands of pages
        at once, the last peak of its build)."""
        for name, memo in self.index.items():
            if name.startswith("component:"):
                keep.update(entry[0] for entry in memo.get("pages", []))
        removed = 0
        try:
            with os.scandir(self.pages) as entries:
                for entry in entries:
                    stem, dot, suffix = entry.name.rpartition(".")
                    if dot and suffix == "pdf" and stem not in keep and entry.is_file():
                        Path(entry.path).unlink(missing_ok=True)
                        removed += 1
        except FileNotFoundError:
            pass
        return removed

    def save_index(self) -> None:
        """Write the index (and the folder it is of) without fsync: a cache too.  One a crash of
        the system cut short does not parse and counts as none; an older one is checked against
        the files and pages as they are (:meth:`fresh`, :meth:`has_page`).  Not written again
        when nothing changed since this process wrote it (its entries are replaced, never changed
        in place: a copy of the top level tells)."""
        if not self.temporary and self.index != self._saved:
            self._saved = dict(self.index)
            write_text(self.root / "path.txt", str(self.out_dir) + "\n", True, durable=False)
            # written as it is encoded: a huge deck's index made whole took MBs of small pieces
            write_pieces(self.index_path, _batched(json.JSONEncoder(sort_keys=True, indent=0).iterencode(self.index)),
                         durable=False)

    def close(self) -> None:
        """Remove a temporary cache (one made because no cache folder could be written)."""
        if self.temporary:
            import shutil
            shutil.rmtree(self.root, ignore_errors=True)


def _batched(texts: Iterable[str], size: int = 1 << 12) -> Iterator[bytes]:
    """Small pieces of text as UTF-8 pieces of about ``size`` characters."""
    batch: list[str] = []
    held = 0
    for text in texts:
        batch.append(text)
        held += len(text)
        if held >= size:
            yield "".join(batch).encode("utf-8")
            batch, held = [], 0
    if batch:
        yield "".join(batch).encode("utf-8")


def kit_cache(out_dir: Path) -> Path | None:
    """The cache folder of the kit in ``out_dir`` (a resolved path), or None without a cache folder.

    Caches of output folders that no longer exist are removed on the way.
    """
    kits = fonts.cache_dir("kits")
    if kits is None:
        return None
    for other in kits.iterdir():
        try:
            gone = not Path((other / "path.txt").read_text(encoding="utf-8").strip()).is_dir()
        except (OSError, ValueError):
            gone = False
        if gone:
            import shutil
            shutil.rmtree(other, ignore_errors=True)
    name = hashlib.sha256(os.fsencode(out_dir)).hexdigest()[:24]
    try:
        (kits / name).mkdir(exist_ok=True)
    except OSError:
        return None
    return kits / name


#: Per process, the faces drawn last: SVG hash -> (recording, w_pt, h_pt). A page's faces and the
#: pages of one component (a job) reuse them; the oldest go first, so memory stays flat at any deck
#: size (at 2,000 a worker of a 6,000-card deck held 72 MB, at 50 it held 44 MB for the same CPU).
_RECORDINGS: collections.OrderedDict[str, tuple] = collections.OrderedDict()
RECORDINGS_KEPT = 64


def _recording(svg: str, cut: tuple = ()):
    """A face drawn once into a cairo recording surface (vector), reused wherever it is placed
    (with ``cut``, only where it is cut that way: see :func:`_clipped_apart`)."""
    key = hashlib.sha1(svg.encode("utf-8")).hexdigest() + (repr(cut) if cut else "")
    hit = _RECORDINGS.get(key)
    if hit is not None:
        _RECORDINGS.move_to_end(key)
    else:
        hit = fastsvg.record(svg) or _cairosvg_recording(svg)
        _RECORDINGS[key] = hit
        if len(_RECORDINGS) > RECORDINGS_KEPT:
            _RECORDINGS.popitem(last=False)
    return hit


def _cairosvg_recording(svg: str) -> tuple:
    """A face drawn by cairosvg (any SVG; :mod:`.fastsvg` draws our templates' own subset)."""
    cairocffi = binding.load()
    import cairosvg.parser
    import cairosvg.surface

    class Recording(cairosvg.surface.Surface):
        def _create_surface(self, width, height):
            return cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA,
                                              (0, 0, width, height)), width, height

        @property
        def device_units_per_user_units(self):
            # Record at 16x the final size: cairo rounds glyph advances to whole device
            # units, which at print size spreads letters wider than fit() measured.
            return self.points_per_pixel * 16

    from .fasttext import fast_text
    tree = cairosvg.parser.Tree(bytestring=svg.encode("utf-8"))
    with fast_text(svg):
        surface = Recording(tree, None, 96)
    return surface.cairo, surface.width, surface.height


def _page_to_pdf(page: Page) -> bytes:
    """One page as a PDF of its own."""
    return _pages_to_pdf([page])


def _pages_to_pdf(pages: Sequence[Page]) -> bytes:
    """Pages drawn into one PDF, so each font is embedded once for all of them (one subset
    holding every glyph they use, not one per page)."""
    import io

    cairocffi = binding.load()
    uses = collections.Counter(svg for page in pages for svg in [f[0] for f in page.faces] + [page.overlay])
    once = {svg for svg, n in uses.items() if n == 1 and svg}
    varied = _clipped_apart(pages)
    for attempt in (once | set(varied), set()):
        out = io.BytesIO()
        surface = cairocffi.PDFSurface(out, *(mm_to_pt(v) for v in pages[0].size))
        ctx = cairocffi.Context(surface)
        try:
            for page in pages:
                surface.set_size(*(mm_to_pt(v) for v in page.size))
                try:
                    _draw_page(ctx, page, attempt, varied)
                except _Redraw:
                    raise
                except Exception as exc:  # cairosvg's errors are many kinds; name the page
                    raise GeneratorError(f"{page.label}: could not render the page: {_reason(exc)}") from None
                ctx.show_page()
        except _Redraw:
            continue
        finally:
            surface.finish()
        break
    return dedupe_resources(out.getvalue())


class _Redraw(Exception):
    """A face drawn straight into the page was not of fastsvg's subset: the pages are drawn
    again, every face from its recording."""


def _cut(rect: tuple, clip: tuple) -> tuple:
    """The part of a face a clip shows (the clip relative to the face, and the face's size)."""
    (x, y, fw, fh), (cx, cy, cw, ch, *oval) = rect, clip
    return tuple(round(v, 6) for v in (fw, fh, cx - x, cy - y, cw, ch)) + tuple(map(str, oval))


def _within(inner: tuple, outer: tuple) -> bool:
    """Whether the part of a face cut ``inner`` lies in the part cut ``outer`` (same face size)."""
    return inner[:2] == outer[:2] and outer[2] <= inner[2] and outer[3] <= inner[3] \
        and inner[2] + inner[4] <= outer[2] + outer[4] and inner[3] + inner[5] <= outer[3] + outer[5]


def _clipped_apart(pages: Sequence[Page]) -> dict[str, list[tuple]]:
    """The faces these pages show running off the page and cut in ways not all within the first
    (a board's pieces), with the ways each is cut in the order they come: cairo writes a
    recording painted into a PDF once, as much of it as its first use shows on its page, so a
    piece beyond that part would show nothing of its own.  Such a face gets a recording for
    each of those ways (:func:`_recording`); a face always whole on its page (a card) keeps one."""
    off = {svg for page in pages for svg, (x, y, fw, fh), _clip in page.faces
           if x < 0 or y < 0 or x + fw > page.size[0] or y + fh > page.size[1]}
    if not off:                           # every face whole on its pages (cards): none to cut
        return {}
    cuts: dict[str, list[tuple]] = {}
    for page in pages:
        for svg, rect, clip in page.faces:
            if svg not in off:
                continue
            cut = _cut(rect, clip)
            seen = cuts.setdefault(svg, [])
            if not any(_within(cut, other) for other in seen):
                seen.append(cut)
    return {svg: seen for svg, seen in cuts.items() if len(seen) > 1}


def _draw_page(ctx, page: Page, direct: set[str] = frozenset(), apart: dict | None = None) -> None:
    """Every face, clipped: drawn straight into the page when it is in ``direct`` (a face the
    pages show once: a recording would be drawn, then drawn again into the page), else painted
    from its recording (drawn once for all its copies; one for each way a face in ``apart`` is
    cut, see :func:`_clipped_apart`); then the overlay (marks)."""
    w, h = page.size
    for svg, (x, y, fw, fh), (cx, cy, cw, ch, *oval) in page.faces:
        if svg in direct:
            ctx.save()
            _clip(ctx, cx, cy, cw, ch, oval)
            ctx.translate(mm_to_pt(x), mm_to_pt(y))
            _draw_straight(ctx, svg, fw, fh)
            ctx.restore()
            continue
        if apart and svg in apart:            # the first way it is cut that holds this one
            cut = _cut((x, y, fw, fh), (cx, cy, cw, ch, *oval))
            rec, rw, rh = _recording(svg, next(c for c in apart[svg] if _within(cut, c)))
        else:
            rec, rw, rh = _recording(svg)
        ctx.save()
        _clip(ctx, cx, cy, cw, ch, oval)
        ctx.translate(mm_to_pt(x), mm_to_pt(y))
        ctx.scale(mm_to_pt(fw) / rw, mm_to_pt(fh) / rh)
        ctx.set_source_surface(rec, 0, 0)
        ctx.paint()
        ctx.restore()
    if page.overlay in direct:
        ctx.save()
        _draw_straight(ctx, page.overlay, w, h)
        ctx.restore()
    elif page.overlay:
        rec, rw, rh = _recording(page.overlay)
        ctx.save()
        ctx.scale(mm_to_pt(w) / rw, mm_to_pt(h) / rh)
        ctx.set_source_surface(rec, 0, 0)
        ctx.paint()
        ctx.restore()


def _draw_straight(ctx, svg: str, w: float, h: float) -> None:
    """``svg`` drawn into the page at the current point, ``w`` x ``h`` mm (:class:`_Redraw` when
    it is not of fastsvg's subset)."""
    try:
        fastsvg.draw_into(ctx, svg, lambda rw, rh: ctx.scale(mm_to_pt(w) / rw, mm_to_pt(h) / rh))
    except Exception:
        raise _Redraw from None


def _clip(ctx, cx: float, cy: float, cw: float, ch: float, oval: list) -> None:
    """Clip to a face's rectangle, or to the ellipse inscribed in it for a round piece."""
    if oval and oval[0]:
        ctx.save()
        ctx.translate(mm_to_pt(cx + cw / 2), mm_to_pt(cy + ch / 2))
        ctx.scale(mm_to_pt(cw / 2), mm_to_pt(ch / 2))
        ctx.arc(0, 0, 1, 0, 2 * math.pi)
        ctx.restore()
    else:
        ctx.rectangle(mm_to_pt(cx), mm_to_pt(cy), mm_to_pt(cw), mm_to_pt(ch))
    ctx.clip()


#: compiled at their first use (re's own cache): only a PDF with repeated entries needs them
_RESOURCE_DICT = (rb"/(?:XObject|Pattern|Shading|Font|ExtGState|ColorSpace|Properties)"
                  rb"\s*<<((?:\s*/[^\s/<>\[\]()]+\s+\d+\s+\d+\s+R)+)\s*>>")
_REF_ENTRY = rb"/([^\s/<>\[\]()]+)\s+(\d+\s+\d+)\s+R"


def dedupe_resources(data: bytes) -> bytes:
    """Blank out repeated entries of a resource dictionary in a PDF written by cairo.

    Cairo 1.16 writes one ``/x6 6 0 R`` entry per paint of the same surface, so a page that
    places a face nine times has nine identical keys, which PDF forbids (pypdf warns, strict
    readers refuse).  Each repeat of the same key and object is overwritten with spaces of the
    same length, so every byte offset and the cross-reference table stay valid.  Only object
    dictionaries found through the xref table are touched (never stream data).
    """
    from .pdfjoin import xref_start
    start = xref_start(data)
    if b" R /" not in data or start is None:
        return data
    head = re.match(rb"xref\s+(\d+)\s+(\d+)\s+", data[start:start + 64])
    if head is None:
        return data
    first, count = int(head.group(1)), int(head.group(2))
    table = data[start + head.end():start + head.end() + 20 * count]
    out = bytearray(data)
    for n in range(count):
        entry = table[20 * n:20 * n + 20]
        if entry[17:18] != b"n" or first + n == 0:
            continue
        offset = int(entry[:10])
        stop = [i for i in (data.find(b"stream", offset), data.find(b"endobj", offset)) if i >= 0]
        if not stop:
            continue
        region = data[offset:min(stop)]
        for match in re.finditer(_RESOURCE_DICT, region):
            seen: dict[bytes, bytes] = {}
            base = offset + match.start(1)
            for entry_match in re.finditer(_REF_ENTRY, match.group(1)):
                key, ref = entry_match.group(1), entry_match.group(2)
                if key not in seen:
                    seen[key] = ref
                elif seen[key] == ref:        # the very same entry again: drop it
                    a, b = base + entry_match.start(), base + entry_match.end()
                    out[a:b] = b" " * (b - a)
    return bytes(out)


def _warm() -> None:
    """Pool initializer: fonts first, then cairo (the slow import happens in the workers); cairosvg
    is imported only by a worker that meets a face outside :mod:`.fastsvg`'s subset."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the parent's to handle
    # The pool may end its workers with SIGTERM; a disposition inherited from the parent (SDL
    # ignores it in a process with a Kivy window) would leave the pool waiting for them forever.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    fonts.configure()
    binding.load()


def _reason(exc: Exception) -> str:
    """What went wrong in cairosvg, in words: its refusals of XML entities are exceptions whose
    text is only their fields (templating.py refuses them earlier; this is for any that slip by)."""
    from defusedxml import DefusedXmlException, EntitiesForbidden
    if isinstance(exc, EntitiesForbidden):
        return f"an SVG in it declares the XML entity '{exc.name}'; entities are refused"
    if isinstance(exc, DefusedXmlException):
        return "an SVG in it refers to an external DTD or entity; refused"
    return str(exc) or type(exc).__name__


def _render_job(job: list[tuple[Path, Page]]) -> int:
    """Render a group of pages (one component's), so its repeated faces are drawn once and its
    fonts embedded once: the pages are drawn into one PDF, then cut into the cached one-page
    PDFs, which all carry the same font subsets (the joined file keeps one copy of them)."""
    with _collector_paused():
        from . import pdfjoin
        pages = _pages_to_pdf([page for _path, page in job])
        drawn = pdfjoin.parse(pages) if len(job) > 1 else pages
        _DRAWN.clear()
        for index, ((path, page), data) in enumerate(zip(job, pdfjoin.split(drawn) if len(job) > 1 else [pages])):
            write_bytes(path, data, durable=False)  # a cache: drawn again if lost
            _DRAWN[page_key(page)] = (drawn, index)
    return len(job)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The garbage collector off while pages are drawn and cut: the drawing makes no cycles
    (what it lets go is freed at once), but its allocations set off the collector's passes,
    which walked the faces parsed and waiting to be drawn again and again (1-5 ms of the
    120-card deck's CPU).  Left as it was found."""
    import gc
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _render_job_and_file(job: list[tuple[Path, Page]], spec: tuple) -> tuple[int, tuple[int, int]]:
    """:func:`_render_job`, then the file of those pages written from them (:func:`_write_pdf` of
    ``spec``) at once, in this process: while the other worker still draws, not after every page
    of the kit is drawn."""
    return _render_job(job), _write_pdf(spec)


#: The pages of the job this process drew last: page key -> (their PDF, parsed, and the index of
#: the page in it).  Joined from there, a file's pages are not read back from the cache, parsed
#: and their fonts compared again one page at a time; only the last job is kept (flat memory).
_DRAWN: dict[str, tuple] = {}


def page_cost(pages: Sequence[Page]) -> int:
    """What drawing these pages costs, roughly: the length of their distinct faces' SVG, and a
    share per page (its marks, its page in the PDF)."""
    return sum(len(svg) for svg in {f[0] for p in pages for f in p.faces}) + 2000 * len(pages)


def _jobs(todo: dict[str, Page], cache: Cache) -> list[list[tuple[Path, Page]]]:
    """Pages grouped by component, costliest first: a component drawn whole embeds its fonts
    once and draws a face its pages repeat once.  Never cut in halves for the two workers: the
    pages are sent component by component, so each half was its own font subsets in the file
    (two of each) and its own faces drawn: 3-4 % more CPU for a kit, no less time."""
    groups: dict[str, list[tuple[Path, Page]]] = {}
    for key, page in todo.items():
        groups.setdefault(page.group or page.label, []).append((cache.page_path(key), page))
    return sorted(groups.values(), key=lambda job: page_cost([p for _path, p in job]), reverse=True)


@contextlib.contextmanager
def _all_alive() -> Iterator[None]:
    """A worker that died while the pool worked (the memory limit, a signal) as one line."""
    from concurrent.futures.process import BrokenProcessPool
    try:
        yield
    except BrokenProcessPool:
        raise GeneratorError("a rendering process stopped before it finished (out of memory?); "
                             "nothing was written") from None


def _address_space_capped() -> bool:
    """Whether this process runs under a cap on its address space (``ulimit -v``): there a pool's
    threads and workers fail at any step (a thread's stack or heap, a task's pickle) with a
    MemoryError that no caller sees, and the build could wait for them for ever; it draws
    everything in this process instead."""
    import resource
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    return soft != resource.RLIM_INFINITY


class Workers:
    """A pool of renderers (fork), started early on a cold build so cairo loads meanwhile.

    A worker that dies (the memory limit, a signal) ends the build with a :class:`GeneratorError`;
    a pool of ``multiprocessing.Pool`` replaced it silently and waited for its task for ever.
    """

    def __init__(self) -> None:
        self.pool = None

    def start(self, n: int | None = None) -> None:
        if self.pool is None and (os.cpu_count() or 1) > 1 and not _address_space_capped():
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            try:
                self.pool = ProcessPoolExecutor(n or min(2, os.cpu_count() or 1),
                                                mp_context=multiprocessing.get_context("fork"), initializer=_warm)
                self.pool.submit(int)  # forks every worker now (with fork, all start at the first task)
            except (OSError, RuntimeError):     # no process to be had (a memory cap): all done here
                self.close(failed=True)

    def submit(self, fn: Callable, *args):
        """``fn(*args)`` in a worker, at once: its future (see :meth:`result`)."""
        with _all_alive():
            return self.pool.submit(fn, *args)

    def result(self, future):
        """What a submitted call returned (its error raised here)."""
        with _all_alive():
            return future.result()

    def unordered(self, fn: Callable, items: Sequence) -> Iterator:
        """``fn(item)`` for each item in the workers, each result as soon as it is there."""
        from concurrent.futures import as_completed
        with _all_alive():
            for future in as_completed([self.pool.submit(fn, item) for item in items]):
                yield future.result()

    def map(self, fn: Callable, items: Sequence) -> list:
        """``[fn(item) for item in items]``, computed in the workers, in order."""
        with _all_alive():
            return list(self.pool.map(fn, items))

    def close(self, failed: bool = False) -> None:
        """Let the workers finish and exit; end them at once only after a failure."""
        if self.pool is not None:
            if failed:
                for process in (getattr(self.pool, "_processes", None) or {}).values():
                    process.terminate()
            self.pool.shutdown(wait=True, cancel_futures=failed)
            self.pool = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind, *exc) -> None:
        self.close(failed=kind is not None)


class PageSender:
    """Pages sent to the workers as soon as they are laid out, while the next component is laid
    out; :meth:`finish` waits for them all.  Without a pool the pages wait here, and are drawn
    in this process at the end, or in a pool started once those waiting cost ``POOL_FROM_COST``.
    At most ``IN_FLIGHT`` jobs wait in the pool (each holds its pages' SVG), so memory stays flat.
    """

    IN_FLIGHT = 4                # two drawing, one waiting for each worker

    def __init__(self, cache: Cache, workers: Workers, progress: Callable[[int], None] | None = None):
        self.cache, self.workers, self.progress = cache, workers, progress
        self.seen: set[str] = set()
        self.waiting: dict[str, Page] = {}
        self.futures: collections.deque = collections.deque()
        self.rendered = 0            # pages to render: sent, or waiting here
        self.files: dict[str, tuple] = {}       # group -> (rel, file key, its page keys, spec maker)
        self.written: dict[str, tuple[str, int, int]] = {}   # rel -> (file key, size, mtime_ns)

    def send(self, pages: Sequence[Page], file: tuple | None = None) -> None:
        """Render these pages (those not cached, not sent before): sent now when there is a pool.
        ``file``: (rel, file key, spec maker) of the file these pages make, written by the job
        that draws them when it draws them all (its ``spec maker()`` gives the
        :func:`_write_pdf` spec); :attr:`written` says which were."""
        for page in pages:
            key = page_key(page)
            if key not in self.seen:
                self.seen.add(key)
                if not self.cache.has_page(key):
                    # a copy: the caller may let go of the page's faces before a worker reads
                    # them; without the page's SVG (only its key needs it): half the data sent
                    self.waiting[key] = replace(page, svg="")
                    self.rendered += 1
        # only a job can write the file, and only pages still waiting make jobs: a file whose
        # pages were all sent before (a huge deck's, slice by slice) or cached is not kept
        if file is not None and pages and pages[0].group and any(page_key(p) in self.waiting for p in pages):
            rel, key, make = file
            self.files[pages[0].group] = (rel, key, {page_key(p) for p in pages}, make)
        if not self.waiting:
            return
        if self.progress is not None and hasattr(self.progress, "total"):
            self.progress.total = self.rendered
        if self.workers.pool is None and page_cost(list(self.waiting.values())) >= POOL_FROM_COST:
            self.workers.start()
        if self.workers.pool is not None:
            self.cache.pages.mkdir(parents=True, exist_ok=True)
            for job in _jobs(self.waiting, self.cache):
                while len(self.futures) >= self.IN_FLIGHT:
                    self._collect_first()
                file = self._file_of(job)
                self.futures.append((self.workers.submit(_render_job_and_file, job, file[1]), file[0])
                                    if file else (self.workers.submit(_render_job, job), None))
            self.waiting = {}

    def _file_of(self, job: list[tuple[Path, Page]]) -> tuple[tuple, tuple] | None:
        """(rel and key, spec) of the file a job draws every page of, if one was given."""
        page = job[0][1]
        found = self.files.get(page.group) if page.group else None
        if found is None or not found[2] <= {page_key(p) for _path, p in job}:
            return None
        del self.files[page.group]
        rel, key, _keys, make = found
        return (rel, key), make()

    def _collect_first(self) -> None:
        """Wait for whichever job ends first, not the oldest: a long job sent early (a
        component of big cards) no longer holds back the next layout while the other worker
        runs out of pages to draw."""
        from concurrent.futures import FIRST_COMPLETED, wait
        done, _pending = wait([future for future, _file in self.futures], return_when=FIRST_COMPLETED)
        for sent in [sent for sent in self.futures if sent[0] in done]:
            self.futures.remove(sent)
            self._collect(sent)

    def _collect(self, sent: tuple) -> None:
        future, file = sent
        n = self._drawn(self.workers.result(future), file)
        if self.progress:
            self.progress(n)

    def _drawn(self, result: Any, file: tuple[str, str] | None) -> int:
        """How many pages a job drew; the file it wrote (``file``: its rel and key) noted in
        :attr:`written`."""
        if file is None:
            return result
        n, (size, mtime) = result
        self.written[file[0]] = (file[1], size, mtime)
        return n

    def finish(self) -> int:
        """Wait for every page sent (draw here those that waited); how many were rendered."""
        while self.futures:
            self._collect(self.futures.popleft())
        if self.waiting:
            self.cache.pages.mkdir(parents=True, exist_ok=True)
            fonts.configure()
            for job in _jobs(self.waiting, self.cache):
                file = self._file_of(job)
                self._drawn(_render_job_and_file(job, file[1]) if file else _render_job(job),
                            file[0] if file else None)
                if self.progress:
                    self.progress(len(job))
            self.waiting = {}
        return self.rendered


def render_pages(pages: Sequence[Page], cache: Cache, progress: Callable[[int], None] | None = None,
                 workers: Workers | None = None) -> int:
    """Render every page that is not cached yet (in a pool of its own from ``POOL_FROM_COST``
    when none is given); returns how many were rendered."""
    with contextlib.nullcontext(workers) if workers is not None else Workers() as own:
        sender = PageSender(cache, own, progress)
        sender.send(pages)
        return sender.finish()


def _box(rect: tuple[float, float, float, float], page_h: float) -> tuple[float, float, float, float]:
    """A top-left mm rectangle as a PDF box in points (x0, y0, x1, y1)."""
    x, y, w, h = rect
    return mm_to_pt(x), mm_to_pt(page_h - y - h), mm_to_pt(x + w), mm_to_pt(page_h - y)


def file_key(pages: Sequence[Page], meta=None) -> str:
    digest = hashlib.sha256(ENGINE_VERSION.encode())
    digest.update(repr(meta).encode())
    for p in pages:
        digest.update(f"{page_key(p)}{p.trimbox}{p.bleedbox}".encode())
    return digest.hexdigest()[:32]


def write_spec(path: Path, cache: Cache, pages: Sequence[Page], meta: Any, durable: bool) -> tuple:
    """What :func:`_write_pdf` is given to join ``pages`` from ``cache`` into ``path``."""
    return path, cache.pages, [(page_key(p), p.size[1], p.trimbox, p.bleedbox) for p in pages], meta, durable


def _write_pdf(spec: tuple) -> tuple[int, int]:
    """Join cached single pages into ``path`` (atomically), setting TrimBox and BleedBox, the
    document info, language and outline.  ``spec``: (path, the page cache's folder, [(page key,
    page height, TrimBox, BleedBox)], Meta[, durable]); not durable: no fsync (a staged file,
    which :meth:`~.staging.Stage.commit` syncs with all the others)."""
    from . import pdfjoin
    path, folder, pages, meta, *rest = spec
    durable = rest[0] if rest else True

    def joined(drawn: bool = True) -> Iterator[tuple]:     # made as the join takes them
        for key, page_h, trimbox, bleedbox in pages:
            page = _DRAWN.get(key) if drawn else None
            yield page or page_file(folder, key), _box(trimbox, page_h), _box(bleedbox, page_h)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = tmp_name(path)
    try:
        with open(tmp, "wb") as fh:
            try:
                pdfjoin.join(joined(), fh, meta)
            except pdfjoin.Unsupported:       # not the simple PDF cairo writes: let pypdf join
                fh.seek(0)
                fh.truncate()
                _write_with_pypdf(joined(drawn=False), fh, meta)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def _write_with_pypdf(pages: Iterable[tuple[bytes | Path, tuple, tuple]], fh, meta=None) -> None:
    import io

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, RectangleObject, TextStringObject

    from .pdfjoin import Meta
    meta = meta or Meta()
    writer = PdfWriter()
    readers: dict[bytes | Path, PdfReader] = {}
    for data, trimbox, bleedbox in pages:
        if data not in readers:
            readers[data] = PdfReader(io.BytesIO(data if isinstance(data, bytes) else data.read_bytes()))
        new = writer.add_page(readers[data].pages[0])
        new.trimbox = RectangleObject(list(trimbox))
        new.bleedbox = RectangleObject(list(bleedbox))
    info = {"/Title": meta.title, "/Author": meta.author, "/Subject": meta.subject,
            "/Producer": meta.producer, "/Creator": meta.creator}
    writer.add_metadata({k: v for k, v in info.items() if v})
    if meta.lang:
        writer._root_object[NameObject("/Lang")] = TextStringObject(meta.lang)
    for title, index in meta.outline or []:
        if 0 <= index < len(writer.pages):
            writer.add_outline_item(title=title, page_number=index)
    writer.write(fh)


def assemble_all(files: Sequence[tuple], cache: Cache, workers: Workers | None = None,
                 stage=None, written: dict[str, tuple[str, int, int]] | None = None) -> set[str]:
    """Write every PDF whose pages or metadata changed (in the workers when there are several);
    returns the ``rel`` names written.  ``files`` holds (pages, path, rel[, Meta]); with a
    ``stage`` (:class:`~.staging.Stage`) each file is written into it, to be swapped in later.
    ``written``: files the render jobs wrote already (:attr:`PageSender.written`)."""
    from .pdfjoin import Meta
    todo = []
    done = set()
    for pages, path, rel, *rest in files:
        meta = rest[0] if rest else Meta()
        key = file_key(pages, meta)
        if written and rel in written and written[rel][0] == key:
            cache.index[rel] = {"key": key, "size": written[rel][1], "mtime_ns": written[rel][2]}
            done.add(rel)
        elif not cache.fresh(rel, key, path):
            spec = write_spec(stage.path(path) if stage is not None else path, cache, pages, meta,
                              durable=stage is None)
            todo.append((rel, key, spec))
    if workers is not None and workers.pool is not None and len(todo) > 1:
        results = workers.map(_write_pdf, [t[2] for t in todo])
    else:
        results = [_write_pdf(t[2]) for t in todo]
    for (rel, key, _), (size, mtime) in zip(todo, results):
        cache.index[rel] = {"key": key, "size": size, "mtime_ns": mtime}
    return {t[0] for t in todo} | done


"""The printable rulebooks: one per game, in our own words, built from the card data.

Each game gets two files in its folder of the kit:

- ``reglamento.pdf`` / ``rulebook.pdf``: the book's pages in reading order, each half the paper
  (A5 on A4, half-letter on Letter), with an outline: to read on screen, or to print two pages per
  sheet.
- ``reglamento-cuadernillo.pdf`` / ``rulebook-booklet.pdf``: the same pages imposed two per side
  of a landscape sheet of the paper in folding order; printed double-sided (flip on the short
  edge), stacked, folded and stapled in the middle.

Both files come from one typesetting of the book (the booklet places the very same pages), so page
numbers agree between them.

>>> from ludoteca.cards import load
>>> from ludoteca.generator.model import Options
>>> pdf = book(load(games=("ciudadelas",)), "ciudadelas", Options(), booklet=False)
>>> pdf[:5]
b'%PDF-'
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

from ..model import Options
from ..sheets import paper_size
from .content import blocks, lang_ok
from .impose import impose, impose_pages, padded, sheet_pt, sides
from .source import TEXTS
from .typeset import Book, fit_booklet, set_book

VERSION = "1"             # bump when the typesetting changes in a way the inputs cannot show

NAMES = {"es": ("reglamento.pdf", "reglamento-cuadernillo.pdf"),
         "en": ("rulebook.pdf", "rulebook-booklet.pdf")}
TITLES = {"es": ("Reglamento", "Reglamento (cuadernillo)"), "en": ("Rulebook", "Rulebook (booklet)")}


@dataclass
class Document:
    """A finished file of the kit that is not made of component pages: a rulebook."""

    game: str
    component: str
    rel: str
    title: dict[str, str]
    data: bytes
    pages: int
    page_size_mm: tuple[float, float]
    item_size_mm: tuple[float, float]
    sheets: int
    duplex: bool
    how: dict[str, str]

    def entry(self) -> dict[str, Any]:
        """Its line of manifest.json: the fields of a component file, and ``how`` to print it."""
        return {"game": self.game, "component": self.component, "path": self.rel, "title": dict(self.title),
                "pages": self.pages, "sheets": self.sheets, "layout": "booklet" if self.duplex else "page",
                "page_size_mm": [round(v, 3) for v in self.page_size_mm],
                "item_size_mm": [round(v, 3) for v in self.item_size_mm], "items": 1,
                "duplex": self.duplex, "fold": False, "gutter_mm": None, "how": dict(self.how)}


def booklet_page_mm(paper: str) -> tuple[float, float]:
    """A booklet page: half of the paper turned landscape (A4 -> A5, Letter -> half-letter)."""
    w, h = paper_size(paper)
    short, long_ = min(w, h), max(w, h)
    return long_ / 2, short


def book(catalog: Any, game_id: str, opts: Options, booklet: bool, examples: Path | None = None,
         with_example: bool = True) -> bytes:
    """One rulebook PDF: its pages in reading order, or the booklet imposed on the paper."""
    pages = book_pages(catalog, game_id, opts, examples, with_example)
    return booklet_of(pages, catalog, game_id, opts) if booklet else pages


def booklet_of(pages: bytes, catalog: Any, game_id: str, opts: Options) -> bytes:
    """The book's pages imposed for saddle stitch on the paper."""
    lang = lang_ok(opts.lang)
    return impose(pages, paper_size(opts.paper), _booklet_title(catalog, game_id, lang), lang)


def _booklet_title(catalog: Any, game_id: str, lang: str) -> str:
    """The title a booklet's PDF carries."""
    return f"{catalog[game_id].meta['name'][lang]} · {TITLES[lang][1]}"


def book_pages(catalog: Any, game_id: str, opts: Options, examples: Path | None = None,
               with_example: bool = True, shown: list | None = None) -> bytes:
    """The book set on pages half the paper, in reading order (the plain file); the faces of the
    kit its pictures draw are added to ``shown``."""
    return fit_booklet(*_parts(catalog, game_id, opts, examples, with_example, shown))


def _parts(catalog: Any, game_id: str, opts: Options, examples: Path | None = None,
           with_example: bool = True, shown: list | None = None) -> tuple[list, Book]:
    """The blocks of a game's book and what goes around them (see :func:`book_pages`)."""
    from .source import texts
    lang = lang_ok(opts.lang)
    game = catalog[game_id]
    parts = blocks(game, lang, catalog, examples, with_example, shown)
    accent = texts(game_id).get("accent", "#6b2d1f")
    title = f"{game.meta['name'][lang]} · {TITLES[lang][0]}"
    subject = {"es": "Reglas de juego", "en": "Rules of play"}[lang]
    return parts, Book(title, subject, lang, title, accent, booklet_page_mm(opts.paper))


ART = "art"               # the field of an entry that holds its picture (only drawn, never quoted)


def _key(catalog: Any, game_id: str, opts: Options) -> str:
    """A hash of everything a game's rulebook depends on but the card art: the data without
    ``art`` fields, the texts, the example, the options, the templates of its pictures and the
    code that makes its parts.  The art of the cards the book draws is added by :func:`_shown_key`."""
    from importlib import resources

    from ..templating import TEMPLATES, fingerprint
    digest = hashlib.sha256(f"{VERSION}\0{game_id}\0{opts.lang}\0{opts.paper}".encode())
    game = catalog[game_id]
    kinds = {kind: [{k: v for k, v in entry.items() if k != ART} for entry in entries]
             for kind, entries in game.kinds.items()}
    digest.update(json.dumps([game.singles, kinds], sort_keys=True, default=str).encode("utf-8"))
    folder = Path(__file__).parent
    for path in sorted(list(TEXTS.glob("*.yaml")) + list(folder.glob("*.py"))
                       + list((folder.parent / "games").glob("*.py"))):
        digest.update(path.read_bytes())
    digest.update(fingerprint((str(TEMPLATES),)).encode())
    example = Path(str(resources.files("ludoteca.examples"))) / f"{game_id}.yaml"
    if example.is_file():
        digest.update(example.read_bytes())
    return digest.hexdigest()[:32]


def _shown_key(catalog: Any, game_id: str, opts: Options, base: str, shown: list) -> str | None:
    """The key of a book whose other inputs hash to ``base`` and whose pictures draw the faces
    ``shown`` ([component, back, index]): ``base`` and what those faces are now (their art
    included).  None when one of them is gone.  Which faces a book draws follows from the inputs
    ``base`` covers, so an art edit of a card the book does not draw leaves the key as it was."""
    from .context import kit_components, shown_face
    digest = hashlib.sha256(base.encode())
    components = kit_components(catalog[game_id], lang_ok(opts.lang))
    try:
        for component, back, index in shown:
            face, size = shown_face(components, component, bool(back), int(index))
            digest.update(json.dumps([component, bool(back), index, face.template, face.context, list(size)],
                                     sort_keys=True, default=str).encode("utf-8"))
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return digest.hexdigest()[:32]


def _cached_key(catalog: Any, game_id: str, opts: Options, cache_dir: Path | None, base: str) -> str | None:
    """The key the cache holds the book of ``base`` under (the faces its last setting drew, as
    they are now), or None when it holds none."""
    if cache_dir is None:
        return None
    try:
        shown = json.loads((cache_dir / f"{base}-shown.json").read_text(encoding="utf-8"))["shown"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return _shown_key(catalog, game_id, opts, base, shown) if isinstance(shown, list) else None


def documents(catalog: Any, games: tuple[str, ...], opts: Options, cache_dir: Path | None = None,
              notes: list[str] | None = None) -> list[Document]:
    """The rulebooks of ``games`` (those with a texts file), plain and booklet, for the kit.

    With ``cache_dir``, a book whose inputs did not change since the last build is read back
    instead of being set again.  When the example record does not score with the data (edited
    cards), the book leaves the worked example out and ``notes`` says why.
    """
    return start_documents(catalog, games, opts, cache_dir, notes)()


#: The catalog render workers typeset books from: set before they start (forked, they share it;
#: a catalog is too big to send with every book).
_SHARED: Any = None


def start_documents(catalog: Any, games: tuple[str, ...], opts: Options, cache_dir: Path | None = None,
                    notes: list[str] | None = None, workers: Any = None,
                    setter: Setter | None = None) -> Callable[[], list[Document]]:
    """:func:`documents`, with the books to set again typeset by ``workers`` (a
    :class:`~..render.Workers`: started here, sharing ``catalog``, or already started and sent
    it with each book; or by the one worker ``setter`` holds, sent the catalog once) while the
    caller goes on with the components; the function returned waits for them and gives the
    documents."""
    global _SHARED
    made: dict[str, Any] = {}
    order: list[tuple[str, str]] = []          # the books the setter sets, in turn
    for game_id in games:
        if not (TEXTS / f"{game_id}.yaml").is_file():
            continue
        key = _key(catalog, game_id, opts)
        full = _cached_key(catalog, game_id, opts, cache_dir, key)
        found = [_cached(cache_dir if full else None, f"{full}-{kind}") for kind in ("plain", "booklet")]
        if any(data is None for data, _n, _size, _note in found):
            if setter is not None and setter.future is not None:
                order.append((game_id, key))
                made[game_id] = len(order) - 1
                continue
            if workers is not None and workers.pool is None:
                _SHARED = catalog
                workers.start()
            if workers is not None and workers.pool is not None:
                # a pool started before the catalog was loaded is sent it (some 0.3 MB for a kit)
                found = (workers.submit(_make_shared, game_id, opts, cache_dir, key) if _SHARED is catalog
                         else workers.submit(_make, catalog, game_id, opts, cache_dir, key))
            else:
                found = _make(catalog, game_id, opts, cache_dir, key)
        made[game_id] = found
    if setter is not None:
        setter.send(catalog, opts, cache_dir, order)

    def finish() -> list[Document]:
        return _documents(catalog, made, opts, notes, workers, setter)
    return finish


class Setter:
    """The one render worker that sets every book of a cold build: started with the workers,
    it imports what setting books needs (:func:`warm_up`) while the build loads the cards, then
    sets the books it is sent once they are loaded, one after another.  One worker, not each:
    the other does not load reportlab and pypdf (some 0.14 s CPU) and draws pages meanwhile;
    and the catalog is sent to it once, not with each book.

    Made before the workers are forked (they inherit the pipe its order comes through); the
    build sends it the books to set (:meth:`send`, none at all when every book is cached)."""

    def __init__(self) -> None:
        import multiprocessing
        global _ORDERS
        self.reader, self.writer = multiprocessing.Pipe(duplex=False)
        _ORDERS = self.reader
        self.future: Any = None
        self.sent = False
        self.sending: Any = None
        self.results: list | None = None

    def start(self, workers: Any) -> None:
        """Hand the setting to one of ``workers`` (started already, all forked; none without a
        pool)."""
        if workers.pool is not None:
            self.future = workers.submit(_serve)
            self.reader.close()                 # the worker's copy is the one read

    def send(self, catalog: Any, opts: Options, cache_dir: Path | None, order: list[tuple[str, str]]) -> None:
        """The books to set: (game, key) of each; nothing to set when ``order`` is empty.  Sent
        by a thread: the catalog fills the pipe, and the worker reads it only once it has
        loaded what setting needs (this process would wait for that, some 0.05-0.1 s)."""
        import threading
        if self.future is not None and not self.sent:
            self.sent = True
            payload = (catalog, opts, cache_dir, order) if order else None
            try:
                self.sending = threading.Thread(target=self._send, args=(payload,), daemon=True)
                self.sending.start()
            except RuntimeError:                # no thread to be had (a memory cap): sent here
                self.sending = None
                self._send(payload)

    def _send(self, payload: Any) -> None:
        try:
            self.writer.send(payload)
        except OSError:                         # the worker is gone: the build says why
            pass

    def close(self) -> None:
        """Release a worker still waiting for books that will not come (a build that failed),
        and close this end of the pipe."""
        if self.future is not None and not self.sent:
            self.sent = True
            self._send(None)
        if self.sending is not None:
            self.sending.join(10)
        if self.sending is None or not self.sending.is_alive():
            self.writer.close()

    def result(self, workers: Any, index: int) -> list[tuple]:
        """The ``index``-th book sent, set."""
        if self.results is None:
            self.results = workers.result(self.future)
        return self.results[index]


#: The end of a :class:`Setter`'s pipe its worker reads the books to set from.
_ORDERS: Any = None


def _serve() -> list[list[tuple]]:
    """In a render worker: import what setting a book needs, then set the books the build sends
    (:class:`Setter`); nothing when it sends none, or when the build is gone."""
    import os
    parent = os.getppid()
    warm_up()
    while not _ORDERS.poll(0.5):
        if os.getppid() != parent:
            return []
    order = _ORDERS.recv()
    if not order:
        return []
    catalog, opts, cache_dir, books = order
    return [_make(catalog, game_id, opts, cache_dir, key) for game_id, key in books]


def any_cached(cache_dir: Path | None) -> bool:
    """Whether the rulebook cache holds a book set earlier (whichever it is): then the books of
    a build are likely read back, not set, and its workers need not load what setting them needs
    (:func:`warm_up`) before the cards tell which books are to be set."""
    if cache_dir is None:
        return False
    try:
        return any(True for _ in cache_dir.glob("*-shown.json"))
    except OSError:
        return False


def warm_up() -> None:
    """In a render worker started before the cards are loaded: import what setting a book needs
    and register its fonts meanwhile."""
    import pypdf  # noqa: F401
    from reportlab import platypus  # noqa: F401

    from ludoteca.companion.engine import scoring  # noqa: F401  (the worked example's)

    from .typeset import _fonts
    _fonts()


def _make_shared(game_id: str, opts: Options, cache_dir: Path | None, key: str) -> list[tuple]:
    """:func:`_make` in a render worker, from the catalog it shares with the build."""
    return _make(_SHARED, game_id, opts, cache_dir, key)


def _documents(catalog: Any, made: dict[str, Any], opts: Options, notes: list[str] | None,
               workers: Any, setter: Setter | None = None) -> list[Document]:
    lang = lang_ok(opts.lang)
    out = []
    for game_id, found in made.items():
        if isinstance(found, int):
            found = setter.result(workers, found)       # type: ignore[union-attr]
        elif not isinstance(found, list):
            found = workers.result(found)
        for booklet, (data, n, size, note) in enumerate(found):
            if note and notes is not None and not booklet:
                notes.append(note)
            title = {lg: f"{catalog[game_id].meta['name'][lg]} · {TITLES[lg][1 if booklet else 0]}"
                     for lg in ("es", "en")}
            if booklet:
                how = {"es": ("doble cara, girar por el borde corto; apilar, doblar por la mitad y grapar "
                              f"({padded(n * 2) } páginas)"),
                       "en": ("double-sided, flip on the short edge; stack, fold in the middle and staple "
                              f"({padded(n * 2)} pages)")}
                sheets = n // 2
            else:
                how = {"es": "páginas de media hoja, en orden: para leer en pantalla o imprimir 2 por hoja",
                       "en": "half-sheet pages in order: to read on screen or print 2 per sheet"}
                sheets = (n + 1) // 2
            out.append(Document(game_id, "rulebook_booklet" if booklet else "rulebook",
                                f"{game_id}/{NAMES[lang][1 if booklet else 0]}", title, data, n, size,
                                booklet_page_mm(opts.paper), sheets, bool(booklet), how))
    return out


def _make(catalog: Any, game_id: str, opts: Options, cache_dir: Path | None, key: str) -> list[tuple]:
    """Set a game's book once and impose it: [(data, pages, size, note)] for the plain file and the
    booklet, written to the cache under ``key`` (see :func:`_key`) and the faces it drew."""
    from .common import scored_example
    from .source import RulebookError
    note = ""
    try:
        scored_example(game_id, catalog)
        with_example = True
    except RulebookError as exc:
        with_example = False
        note = f"{game_id} rulebook: no worked example ({exc})"
    shown: list[tuple[str, bool, int]] = []
    # the pages pypdf holds once the pictures are drawn are imposed as they are (not read again
    # from the file), and the files' page counts and sizes are known without reading them
    plain, pages = set_book(*_parts(catalog, game_id, opts, None, with_example, shown))
    lang = lang_ok(opts.lang)
    paper = paper_size(opts.paper)
    booklet = impose_pages(pages, paper, _booklet_title(catalog, game_id, lang), lang)
    box = pages[0].mediabox
    sheet = sheet_pt(paper)
    measured = [(len(pages), (float(box.width) * 25.4 / 72, float(box.height) * 25.4 / 72)),
                (len(sides(len(pages))), (sheet[0] * 25.4 / 72, sheet[1] * 25.4 / 72))]
    shown = list(dict.fromkeys(shown))
    full = _shown_key(catalog, game_id, opts, key, shown)
    out = []
    from ludoteca.atomic import write_bytes
    for kind, data, (n, size) in (("plain", plain, measured[0]), ("booklet", booklet, measured[1])):
        if cache_dir is not None and full is not None:
            # a cache, made again if lost: no fsync (a book a crash cut short is not read back)
            write_bytes(cache_dir / f"{full}-{kind}.pdf", data, durable=False)
            write_bytes(cache_dir / f"{full}-{kind}.json", json.dumps(
                {"pages": n, "size": list(size), "note": note}).encode("utf-8"), durable=False)
        out.append((data, n, size, note))
    if cache_dir is not None and full is not None:
        write_bytes(cache_dir / f"{key}-shown.json", json.dumps({"shown": shown}).encode("utf-8"),
                    durable=False)
    return out


def _cached(cache_dir: Path | None, key: str) -> tuple[bytes | None, int, tuple[float, float], str]:
    """A book from the cache with its page count, size and build note, or (None, 0, (0, 0), "")."""
    if cache_dir is None:
        return None, 0, (0.0, 0.0), ""
    try:
        meta = json.loads((cache_dir / f"{key}.json").read_text(encoding="utf-8"))
        data = (cache_dir / f"{key}.pdf").read_bytes()
        if b"%%EOF" not in data[-32:]:
            raise ValueError("cut short")
        return data, int(meta["pages"]), tuple(meta["size"]), str(meta.get("note", ""))
    except (OSError, ValueError, KeyError, TypeError):
        return None, 0, (0.0, 0.0), ""

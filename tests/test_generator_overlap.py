"""Work overlapped: pages go to the workers as soon as they are laid out, books are set there."""

from __future__ import annotations

import os
import re

import pytest

from ludoteca.generator import build as build_module
from ludoteca.generator import render, rulebook
from ludoteca.generator.model import Component, Face, Options
from ludoteca.generator.templating import TEMPLATES

pytestmark = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="no pool on one core")


def _deck(name: str) -> Component:
    faces = [Face("deck/card.svg.j2", {"name": f"{name} {i}", "text": "Roba."}, f"c{i}") for i in range(9)]
    return Component("deck", name, {"es": name, "en": name}, (63.0, 88.0), faces, None, grid=(3, 3),
                     deck=True)


def test_a_components_pages_are_sent_before_the_next_is_laid_out(tmp_path, monkeypatch):
    events: list[str] = []
    plan, submit = build_module.plan, render.Workers.submit

    def planned(comp, *args):
        events.append(f"plan {comp.id}")
        return plan(comp, *args)

    def submitted(self, fn, *args):
        events.append(f"send {fn.__name__}")
        return submit(self, fn, *args)

    monkeypatch.setattr(build_module, "plan", planned)
    monkeypatch.setattr(render.Workers, "submit", submitted)
    monkeypatch.setattr(render, "POOL_FROM_COST", 0)        # pages worth a pool from the first
    build_module.build_components([_deck("uno"), _deck("dos")], Options(), tmp_path,
                                  roots=(str(TEMPLATES),), flat=True)
    assert events[:3] == ["plan uno", "send _render_job_and_file", "plan dos"]


def test_a_components_file_is_written_by_the_job_that_draws_its_pages(tmp_path, monkeypatch):
    """Not after every page of the kit is drawn: the worker that drew a component's pages joins
    them into its file at once, while the other still draws."""
    monkeypatch.setattr(render, "POOL_FROM_COST", 0)
    mapped: list[str] = []
    map_ = render.Workers.map
    monkeypatch.setattr(render.Workers, "map", lambda self, fn, items: mapped.append(fn.__name__)
                        or map_(self, fn, items))
    summary = build_module.build_components([_deck("uno"), _deck("dos")], Options(), tmp_path,
                                            roots=(str(TEMPLATES),), flat=True)
    assert mapped == [] and summary.written == 2 and summary.rendered == 2
    assert all(re.search(rb"/Count 1\b", (tmp_path / f"{name}.pdf").read_bytes()) for name in ("uno", "dos"))
    again = build_module.build_components([_deck("uno"), _deck("dos")], Options(), tmp_path,
                                          roots=(str(TEMPLATES),), flat=True)
    assert again.written == 0 and again.rendered == 0        # the index knows the files it wrote


def test_a_small_deck_is_drawn_in_this_process_without_starting_the_pool(tmp_path, monkeypatch):
    """Two workers cost more CPU to start than a few pages cost to draw here."""
    started: list[int] = []
    start = render.Workers.start

    def spy(self, *args):
        started.append(1)
        return start(self, *args)

    monkeypatch.setattr(render.Workers, "start", spy)
    summary = build_module.build_components([_deck("uno"), _deck("dos")], Options(), tmp_path,
                                            roots=(str(TEMPLATES),), flat=True)
    assert not started
    assert summary.rendered == 2
    assert all((tmp_path / f"{name}.pdf").read_bytes().startswith(b"%PDF-") for name in ("uno", "dos"))


def test_books_are_typeset_in_a_render_worker_while_the_build_goes_on(tmp_path, monkeypatch):
    from ludoteca.cards import load
    pids = tmp_path / "pid"
    make = rulebook._make

    def spy(*args):
        pids.write_text(str(os.getpid()))
        return make(*args)

    monkeypatch.setattr(rulebook, "_make", spy)
    catalog = load(games=("ciudadelas",))
    with render.Workers() as workers:
        finish = rulebook.start_documents(catalog, ("ciudadelas",), Options(), tmp_path / "books",
                                          [], workers)
        assert workers.pool is not None                     # started for the book
        docs = finish()
    assert int(pids.read_text()) != os.getpid()
    assert [d.rel for d in docs] == ["ciudadelas/reglamento.pdf", "ciudadelas/reglamento-cuadernillo.pdf"]
    assert all(d.data.startswith(b"%PDF-") and d.pages > 1 for d in docs)
    again = rulebook.documents(catalog, ("ciudadelas",), Options(), tmp_path / "books")
    assert [d.data for d in again] == [d.data for d in docs]          # and cached as before
    # the cache is written without fsync: a book a crash cut short is set again, not read back
    (cut,) = (tmp_path / "books").glob("*-plain.pdf")
    cut.write_bytes(cut.read_bytes()[:-40])
    pids.unlink()
    assert [d.data for d in rulebook.documents(catalog, ("ciudadelas",), Options(), tmp_path / "books")] \
        == [d.data for d in docs] and pids.exists()


def test_a_deck_drawn_in_this_process_embeds_each_font_once(tmp_path):
    """Drawn here, a component's pages are one job: not halves, each with its own font subsets."""
    faces = [Face("deck/card.svg.j2", {"name": f"Carta {i}", "text": "Roba."}, f"c{i}") for i in range(27)]
    comp = Component("deck", "tres", {"es": "tres", "en": "tres"}, (63.0, 88.0), faces, None,
                     grid=(3, 3), deck=True)
    build_module.build_components([comp], Options(), tmp_path, roots=(str(TEMPLATES),), flat=True)
    data = (tmp_path / "tres.pdf").read_bytes()
    assert re.search(rb"/Count 3\b", data)                  # three pages
    assert data.count(b"/FontFile2") == len(set(re.findall(rb"/BaseFont /[A-Z]{6}\+([\w-]+)", data)))


def test_a_component_drawn_by_the_workers_embeds_each_font_once(tmp_path):
    """Sent to the workers, a component's pages are one job too: never cut in halves, each
    half with its own font subsets in the file."""
    faces = [Face("deck/card.svg.j2", {"name": f"Carta {i}", "text": "Roba."}, f"c{i}") for i in range(18)]
    comp = Component("deck", "dos", {"es": "dos", "en": "dos"}, (63.0, 88.0), faces, None, grid=(3, 3))
    with render.Workers() as workers:
        workers.start()
        build_module.build_components([comp], Options(), tmp_path, roots=(str(TEMPLATES),), flat=True,
                                      workers=workers)
        assert workers.pool is not None                     # drawn there
    data = (tmp_path / "dos.pdf").read_bytes()
    assert re.search(rb"/Count 2\b", data)                  # two pages
    assert data.count(b"/FontFile2") == len(set(re.findall(rb"/BaseFont /[A-Z]{6}\+([\w-]+)", data)))


def _pid_book(catalog, game_id, opts, cache_dir, key):
    """A stand-in for setting a book: says which process set it (in its note)."""
    return [(b"%PDF-1.4 stand-in", 2, (148.0, 210.0), f"{game_id} in {os.getpid()}")] * 2


def test_a_cold_kits_books_are_all_set_by_one_worker_sent_the_catalog_once(monkeypatch):
    """One worker loads what setting books needs (not each), then sets every book in turn; the
    other is free to draw pages meanwhile."""
    from ludoteca.cards import load
    monkeypatch.setattr(rulebook, "_make", _pid_book)       # the workers are forked with it
    catalog = load(games=("ciudadelas", "gladiadores"))
    notes: list[str] = []
    with render.Workers() as workers:
        setter = rulebook.Setter()
        workers.start()
        setter.start(workers)
        assert setter.future is not None
        finish = rulebook.start_documents(catalog, ("ciudadelas", "gladiadores"), Options(), None, notes,
                                          workers, setter)
        docs = finish()
        setter.close()
    assert [d.rel for d in docs] == ["ciudadelas/reglamento.pdf", "ciudadelas/reglamento-cuadernillo.pdf",
                                     "gladiadores/reglamento.pdf", "gladiadores/reglamento-cuadernillo.pdf"]
    pids = {note.rsplit(" ", 1)[1] for note in notes}
    assert len(notes) == 2 and len(pids) == 1 and pids != {str(os.getpid())}


def test_a_setter_sent_no_book_lets_its_worker_go():
    """Books all cached, or a build that failed before sending them: the worker waits no more."""
    with render.Workers() as workers:
        setter = rulebook.Setter()
        workers.start()
        setter.start(workers)
        setter.close()
        assert workers.result(setter.future) == []


def test_a_cold_kits_setter_is_sent_its_books_before_the_components_are_made(tmp_path, monkeypatch):
    """As soon as the cards are loaded: on a fresh cache the components' templates take a second
    to compile here, while the books' worker would wait."""
    events: list[str] = []
    monkeypatch.setattr(rulebook, "_make", _pid_book)
    monkeypatch.setattr(rulebook, "any_cached", lambda _folder: False)      # books to set
    send, components = rulebook.Setter.send, build_module.game_components
    monkeypatch.setattr(rulebook.Setter, "send", lambda self, *a: events.append("books sent") or send(self, *a))
    monkeypatch.setattr(build_module, "game_components",
                        lambda *a: events.append("components") or components(*a))

    def built(comps, opts, out_dir, books=None, workers=None, **_kw):
        events.append(f"{len(books(workers)())} books")
        return build_module.Summary()
    monkeypatch.setattr(build_module, "build_components", built)
    build_module.build(["ciudadelas"], Options(), tmp_path / "kit")
    assert events == ["books sent", "components", "2 books"]


def test_sending_the_books_does_not_wait_for_the_setter_to_be_ready(monkeypatch):
    """The catalog is more than a pipe holds: the build goes on laying out while the worker
    still loads what setting books needs, and reads it then."""
    import time
    monkeypatch.setattr(rulebook, "warm_up", lambda: time.sleep(0.3))      # forked with it
    monkeypatch.setattr(rulebook, "_make", _pid_book)
    with render.Workers() as workers:
        setter = rulebook.Setter()
        workers.start()
        setter.start(workers)
        began = time.perf_counter()
        setter.send(b"a catalog" * 100_000, Options(), None, [("ciudadelas", "k")])
        sent = time.perf_counter() - began
        assert setter.result(workers, 0)[0][3].startswith("ciudadelas in ")
        setter.close()
    assert sent < 0.15


def test_a_long_job_sent_early_does_not_hold_back_the_next_layout(tmp_path, monkeypatch):
    """With as many jobs out as it sends at most, the build waits for whichever ends first (here
    the second), not for the first sent (a component of big cards, still drawing)."""
    import threading
    import time
    from concurrent.futures import Future
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    futures: list[Future] = []

    class Workers:
        pool = object()

        def submit(self, fn, *args):
            futures.append(Future())
            return futures[-1]

        def result(self, future):
            return future.result()
    sender = render.PageSender(render.Cache(tmp_path / "kit"), Workers())

    def page(n: int) -> render.Page:
        return render.Page("", (210.0, 297.0), (0, 0, 210, 297), (0, 0, 210, 297), f"p{n}", key=f"k{n}",
                           group=f"g{n}")
    for n in range(sender.IN_FLIGHT):
        sender.send([page(n)])
    futures[1].set_result(1)
    late = threading.Timer(1.0, futures[0].set_result, (1,))
    late.start()
    began = time.perf_counter()
    sender.send([page(9)])
    waited = time.perf_counter() - began
    late.cancel()
    assert len(futures) == sender.IN_FLIGHT + 1 and waited < 0.5

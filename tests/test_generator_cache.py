"""Incremental and atomic builds: nothing changed renders nothing; a failure never truncates a PDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludoteca.generator.build import build_components
from ludoteca.generator.deck import deck_component
from ludoteca.generator.model import GeneratorError, Options
import pdfmeasure as pm
from test_generator_layout import make_deck


def _build(src: Path, out: Path, back: bool = True, **opts):
    comp = deck_component(src / "cards.csv", "face.svg.j2", "back.svg.j2" if back else None, (63.0, 88.0))
    return build_components([comp], Options(**opts), out, roots=(str(src),), flat=True)


def _pages_of(pdf: Path) -> list[str]:
    from pypdf import PdfReader
    return [pm.fingerprint(page) for page in PdfReader(str(pdf)).pages]


def test_rebuild_with_nothing_changed_renders_and_writes_nothing(tmp_path):
    make_deck(tmp_path / "src", 20)
    first = _build(tmp_path / "src", tmp_path / "out")
    assert first.rendered > 0 and first.written == 2
    pdf = tmp_path / "out" / "cards.pdf"
    stamp = pdf.stat().st_mtime_ns
    second = _build(tmp_path / "src", tmp_path / "out")
    assert second.rendered == 0 and second.written == 0
    assert second.cached == first.rendered
    assert pdf.stat().st_mtime_ns == stamp


def test_editing_one_card_rerenders_only_its_page(tmp_path):
    src = tmp_path / "src"
    make_deck(src, 20)                               # 3 sheets: fronts 1-9, 10-18, 19-20
    _build(src, tmp_path / "out")
    before = _pages_of(tmp_path / "out" / "cards.pdf")
    csv = src / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Carta12 Ñandú", "Carta12 Cambiada"),
                   encoding="utf-8")
    again = _build(src, tmp_path / "out")
    # the test back prints the name too: front and back of the second sheet (pages go F B F B ..)
    assert again.rendered == 2 and again.written == 1
    after = _pages_of(tmp_path / "out" / "cards.pdf")
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    assert changed == [2, 3]
    # with a back that is the same for every card, only the front page is rendered again
    csv.write_text(csv.read_text(encoding="utf-8").replace("Carta3 Ñandú", "Carta3 Otra"), encoding="utf-8")
    (src / "back.svg.j2").write_text((src / "back.svg.j2").read_text().replace('"B-" ~ name', '"Dorso"'))
    _build(src, tmp_path / "out")
    before = _pages_of(tmp_path / "out" / "cards.pdf")
    csv.write_text(csv.read_text(encoding="utf-8").replace("Carta19 Ñandú", "Carta19 Otra"), encoding="utf-8")
    last = _build(src, tmp_path / "out")
    after = _pages_of(tmp_path / "out" / "cards.pdf")
    assert last.rendered == 1
    assert [i for i, (a, b) in enumerate(zip(before, after)) if a != b] == [4]


def test_a_failed_render_leaves_the_old_pdf_and_no_temp_file(tmp_path, monkeypatch):
    src = tmp_path / "src"
    make_deck(src, 9)
    out = tmp_path / "out"
    _build(src, out, back=False)
    pdf = out / "cards.pdf"
    good = pdf.read_bytes()
    csv = src / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Carta1 ", "Carta1 nueva "), encoding="utf-8")

    from ludoteca.generator import pdfjoin

    def broken_join(pages, out, *args):
        out.write(b"%PDF-1.5 half a file")
        raise OSError("disk full")

    monkeypatch.setattr(pdfjoin, "join", broken_join)
    with pytest.raises(GeneratorError, match=r"cannot write the kit \(disk full\)"):
        _build(src, out, back=False)
    assert pdf.read_bytes() == good
    assert sorted(p.name for p in out.iterdir()) == ["LEEME-imprimir.txt", "cards.pdf", "manifest.json"]


def test_a_template_error_writes_nothing(tmp_path):
    src = tmp_path / "src"
    make_deck(src, 9)
    out = tmp_path / "out"
    _build(src, out, back=False)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (src / "face.svg.j2").write_text("{{ lib_missing() }}\n", encoding="utf-8")
    with pytest.raises(GeneratorError, match=r"^template \S*face\.svg\.j2:1: 'lib_missing' is undefined"):
        _build(src, out, back=False)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before


def _kit_cache(out: Path) -> Path:
    from ludoteca.generator.render import Cache
    return Cache(out).root


def test_page_cache_is_keyed_by_content_not_by_order(tmp_path):
    src = tmp_path / "src"
    make_deck(src, 18)
    first = _build(src, tmp_path / "a", back=False)
    # each output folder has its own cache (in the user's cache folder): two never share an index
    second = _build(src, tmp_path / "b", back=False)
    assert first.rendered == second.rendered == 2
    assert len(list((_kit_cache(tmp_path / "a") / "pages").glob("*.pdf"))) == 2
    assert _kit_cache(tmp_path / "a") != _kit_cache(tmp_path / "b")


def test_pages_no_longer_used_are_pruned_from_the_cache(tmp_path):
    src = tmp_path / "src"
    make_deck(src, 9)
    out = tmp_path / "out"
    _build(src, out, back=False)
    before = set((_kit_cache(out) / "pages").glob("*.pdf"))
    csv = src / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Carta4 ", "Carta4 bis "), encoding="utf-8")
    _build(src, out, back=False)
    after = set((_kit_cache(out) / "pages").glob("*.pdf"))
    assert len(after) == len(before) == 1 and after != before


def test_pruning_a_huge_deck_s_pages_reads_the_folder_an_entry_at_a_time(tmp_path, monkeypatch):
    import tracemalloc
    from ludoteca.generator.render import Cache
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cache = Cache(tmp_path / "out")
    cache.pages.mkdir(parents=True)
    names = [f"{i:032x}" for i in range(1200)]
    for name in names:
        (cache.pages / f"{name}.pdf").touch()
    (cache.pages / ".x.pdf.123.tmp").touch()                 # a page being written: not a page
    keep = set(names[::2])
    tracemalloc.start()
    try:
        removed = cache.prune(keep)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert removed == 600
    assert sorted(p.name for p in cache.pages.iterdir()) == sorted([".x.pdf.123.tmp"] + [f"{n}.pdf" for n in keep])
    assert peak < 100_000, peak          # listed whole, 1,200 entries held about 440 KB


def test_the_cache_lives_in_the_user_cache_folder_never_in_the_kit(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    src = tmp_path / "src"
    make_deck(src, 9)
    out = tmp_path / "out"
    old = out / ".cache" / "pages"                       # what earlier versions left in the kit
    old.mkdir(parents=True)
    (old / "0123.pdf").write_bytes(b"%PDF-1.5 old page")
    first = _build(src, out)
    assert sorted(p.name for p in out.iterdir()) == ["LEEME-imprimir.txt", "calibracion-doble-cara.pdf",
                                                     "cards.pdf", "manifest.json"]
    kits = tmp_path / "xdg" / "ludoteca" / "kits"
    [kit] = kits.iterdir()
    assert (kit / "path.txt").read_text(encoding="utf-8").strip() == str(out.resolve())
    assert len(list((kit / "pages").glob("*.pdf"))) == first.rendered > 0
    again = _build(src, out)
    assert again.rendered == 0 and again.written == 0
    # the cache of a folder that is gone goes with it at the next build
    import shutil
    shutil.rmtree(out)
    _build(src, tmp_path / "other")
    assert [p.name for p in kits.iterdir()] == [_kit_cache(tmp_path / "other").name]


def test_the_test_suite_never_writes_into_the_real_user_cache():
    import os
    home = Path(os.path.expanduser("~")) / ".cache"
    assert not Path(os.environ["XDG_CACHE_HOME"]).is_relative_to(home)


def test_a_cached_page_cut_short_is_drawn_again(tmp_path):
    """Cached pages are written without fsync: one a crash of the system cut short is drawn again."""
    src = tmp_path / "src"
    make_deck(src, 9)
    out = tmp_path / "out"
    _build(src, out, back=False)
    good = _pages_of(out / "cards.pdf")
    (page,) = (_kit_cache(out) / "pages").glob("*.pdf")
    page.write_bytes(page.read_bytes()[: page.stat().st_size // 2])
    (out / "cards.pdf").unlink()
    again = _build(src, out, back=False)
    assert again.rendered == 1
    assert _pages_of(out / "cards.pdf") == good


def test_cache_pages_are_not_fsynced_and_kit_files_are(tmp_path, monkeypatch):
    import os

    from ludoteca import atomic

    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: synced.append(fd) or real(fd))
    atomic.write_bytes(tmp_path / "page.pdf", b"%PDF cache", durable=False)
    assert synced == [] and (tmp_path / "page.pdf").read_bytes() == b"%PDF cache"
    atomic.write_bytes(tmp_path / "kit.pdf", b"%PDF kit")
    assert len(synced) == 2                                   # the file, then its folder


def test_the_cache_index_is_written_without_fsync(tmp_path, monkeypatch):
    """The index of a kit's cache can be made again like its pages: no fsync (an older or
    unreadable one is checked against the files, or counts as none)."""
    import os

    from ludoteca import atomic
    from ludoteca.generator.render import Cache

    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: synced.append(fd) or real(fd))
    (tmp_path / "kit").mkdir()
    cache = Cache(tmp_path / "kit")
    cache.index["cards.pdf"] = {"key": "k", "size": 1, "mtime_ns": 2}
    cache.save_index()
    assert synced == [] and Cache(tmp_path / "kit").index == cache.index


def test_the_cache_index_is_not_written_again_when_nothing_changed(tmp_path, monkeypatch):
    """A build saves the index where it stops and again at its end: unchanged in between, the
    second is not written; an entry replaced in between is."""
    from ludoteca.generator import render
    (tmp_path / "kit").mkdir()
    cache = render.Cache(tmp_path / "kit")
    writes = []
    real = render.write_pieces
    monkeypatch.setattr(render, "write_pieces", lambda path, *a, **k: writes.append(path) or real(path, *a, **k))
    cache.index["cards.pdf"] = {"key": "k", "size": 1, "mtime_ns": 2}
    cache.save_index()
    cache.save_index()
    assert len(writes) == 1
    cache.index["cards.pdf"] = {"key": "k", "size": 1, "mtime_ns": 3}
    cache.save_index()
    assert len(writes) == 2 and render.Cache(tmp_path / "kit").index == cache.index


def test_the_cache_index_is_written_as_it_is_encoded(tmp_path):
    """A huge deck's index (a key and boxes per page) is never whole in memory as text: encoding
    it whole held its pieces, several times its size."""
    import tracemalloc

    from ludoteca.generator.render import Cache
    (tmp_path / "kit").mkdir()
    cache = Cache(tmp_path / "kit")
    box = [10.5, 12.0, 189.0, 264.0]
    cache.index["component:deck/cards.pdf"] = {"key": "k", "pages": [
        [f"{i:032x}", [210.0, 297.0], box, box, f"deck/cards sheet {i + 1}"] for i in range(3000)]}
    tracemalloc.start()
    try:
        cache.save_index()
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    size = cache.index_path.stat().st_size
    assert Cache(tmp_path / "kit").index == cache.index
    assert size > 300_000 and peak - held < size, (peak, held, size)


def test_each_worker_keeps_a_bounded_number_of_drawn_faces():
    from ludoteca.generator import render

    render._RECORDINGS.clear()
    face = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="{}" height="5"/></svg>'
    first = render._recording(face.format(1))
    for k in range(2, render.RECORDINGS_KEPT + 10):
        render._recording(face.format(k))
        if k % 8 == 0:
            assert render._recording(face.format(1)) is first    # the one in use stays
    assert len(render._RECORDINGS) == render.RECORDINGS_KEPT
    render._recording(face.format(2))                            # long unused: drawn again
    assert len(render._RECORDINGS) == render.RECORDINGS_KEPT
    render._RECORDINGS.clear()


@pytest.mark.skipif((__import__("os").cpu_count() or 1) < 2, reason="one core: no pool of renderers")
def test_a_rendering_process_that_dies_ends_the_build_with_a_message_not_a_hang():
    """A worker killed mid-task (the memory limit, a signal): multiprocessing.Pool waited for its
    task for ever; the build now stops with one line."""
    import os

    from ludoteca.generator.render import Workers

    with pytest.raises(GeneratorError, match="a rendering process stopped before it finished"):
        with Workers() as workers:
            workers.start()
            list(workers.unordered(os._exit, [3, 3]))
    with pytest.raises(GeneratorError, match="a rendering process stopped"):
        with Workers() as workers:
            workers.start()
            workers.map(os._exit, [3])

"""A face cut into pieces on several pages of one render job (a board too big for the paper):
each page shows its own piece, whether the face is drawn straight or from a recording."""

from __future__ import annotations

import collections
import io

import pytest

from ludoteca.generator import render
from ludoteca.generator.compose import Page

FACE = ('<svg xmlns="http://www.w3.org/2000/svg" width="200mm" height="50mm" viewBox="0 0 200 50">'
        '<rect x="0" y="0" width="200" height="50" fill="#cde"/>'
        '<text x="10" y="30" font-family="Vera" font-size="12">IZQUIERDA</text>'
        '<text x="110" y="30" font-family="Vera" font-size="12">DERECHA</text></svg>')


def _pieces() -> list[Page]:
    """Two pages: the face's left half on the first, its right half on the second."""
    size = (120.0, 80.0)
    box = (10.0, 10.0, 100.0, 50.0)
    return [Page("", size, box, box, label=f"piece {i}", key=f"k{i}",
                 faces=[(FACE, (10.0 - 100.0 * i, 10.0, 200.0, 50.0), (10.0, 10.0, 100.0, 50.0))])
            for i in (0, 1)]


@pytest.mark.parametrize("straight", [True, False])
def test_each_page_shows_its_own_piece_of_a_face(monkeypatch, straight):
    import collections
    from pypdf import PdfReader
    monkeypatch.setattr(render, "_RECORDINGS", collections.OrderedDict())   # drawn in this test
    if not straight:                    # as a face fastsvg does not draw: from recordings
        def refuse(*_args, **_kwargs):
            raise ValueError("not of the subset")
        monkeypatch.setattr(render.fastsvg, "draw_into", refuse)
    reader = PdfReader(io.BytesIO(render._pages_to_pdf(_pieces())))
    texts = [page.extract_text() for page in reader.pages]
    assert "IZQUIERDA" in texts[0] and "DERECHA" in texts[1], texts


def test_drawing_and_cutting_pages_sets_off_no_pass_of_the_garbage_collector(tmp_path, monkeypatch):
    """The drawing makes no cycles: the collector waits while a job's pages are drawn and cut
    (its passes walked the faces waiting to be drawn), and is on again afterwards (its one pass
    put off made then)."""
    import gc
    passes = []

    def count(phase, _info):
        if phase == "start":
            passes.append(1)
    monkeypatch.setattr(render, "_RECORDINGS", collections.OrderedDict())
    job = [(tmp_path / f"{p.key}.pdf", p) for p in _pieces()]
    threshold = gc.get_threshold()
    gc.collect()
    gc.set_threshold(10)                # a pass every few allocations, as a long build sees them
    gc.callbacks.append(count)
    try:
        assert render._render_job(job) == 2
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*threshold)
    assert len(passes) <= 1 and gc.isenabled()       # one, put off until the job is done
    assert all((tmp_path / f"k{i}.pdf").read_bytes().rstrip().endswith(b"%%EOF") for i in (0, 1))


def test_a_process_under_an_address_space_cap_draws_without_a_pool():
    """Under ``ulimit -v`` a pool's threads and workers can fail with a MemoryError nobody sees
    (the hostile corpus' kit builds printed "Exception in thread" or waited): no pool there."""
    import subprocess
    import sys
    code = (
        "import resource\n"
        "from ludoteca.generator.render import Workers\n"
        "w = Workers(); w.start(); print('free', w.pool is not None); w.close()\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_AS)\n"
        "resource.setrlimit(resource.RLIMIT_AS, (8 << 30, hard))\n"
        "w = Workers(); w.start(); print('capped', w.pool is not None)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    import os
    assert done.stdout.split() == ["free", str((os.cpu_count() or 1) > 1), "capped", "False"]

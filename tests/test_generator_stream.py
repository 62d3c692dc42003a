"""Huge decks are laid out and rendered in slices: the same PDF as in one go, flat memory."""

from __future__ import annotations

import pytest

import pdfmeasure as pm
from ludoteca.generator import build as build_module
from test_generator_layout import run_deck


def _reader(pdf):
    from pypdf import PdfReader
    return PdfReader(str(pdf))


@pytest.mark.parametrize("extra", [(), ("--layout", "fold")])
def test_a_sliced_deck_is_the_same_pdf(tmp_path, monkeypatch, extra):
    whole = run_deck(tmp_path / "whole", 40, *extra, back=True)
    monkeypatch.setattr(build_module, "STREAM_FROM", 10)
    monkeypatch.setattr(build_module, "STREAM_SHEETS", 2)       # slices of 2 sheets
    calls = []
    original = build_module.render_faces

    def spy(comp, faces, *args):
        calls.append(len(faces))
        return original(comp, faces, *args)

    monkeypatch.setattr(build_module, "render_faces", spy)
    sliced = run_deck(tmp_path / "sliced", 40, *extra, back=True)
    per = 9 if not extra else 4
    assert max(calls) == 2 * per and len(calls) == 2 * -(-40 // (2 * per))   # fronts and backs
    a, b = _reader(whole / "cards.pdf"), _reader(sliced / "cards.pdf")
    assert len(a.pages) == len(b.pages) and pm.looks(whole / "cards.pdf") == pm.looks(sliced / "cards.pdf")
    assert [o.title for o in a.outline] == [o.title for o in b.outline]
    assert [o.title for o in b.outline][-1] == f"Hoja {-(-40 // per)}"
    for p, q in zip(a.pages, b.pages):
        assert list(p.trimbox) == list(q.trimbox) and list(p.bleedbox) == list(q.bleedbox)


def test_a_streamed_deck_keeps_no_face_svg_and_gives_freed_memory_back_per_slice(tmp_path, monkeypatch):
    from ludoteca.generator import heap
    from ludoteca.generator.deck import deck_component
    from ludoteca.generator.model import Options
    from test_generator_layout import make_deck

    data, face, back = make_deck(tmp_path, 40)
    comp = deck_component(data, face.name, back.name, (63.0, 88.0))
    monkeypatch.setattr(build_module, "STREAM_SHEETS", 2)       # slices of 18 cards: 3 slices
    given, sent = [], []
    monkeypatch.setattr(heap, "give_back", lambda: given.append(len(sent)) or True)

    class Sender:
        def send(self, pages):
            sent.append(len(pages))

    laid = build_module.plan_streamed(comp, Options(), (str(tmp_path),), [], Sender())
    assert sent == [4, 4, 2] and given == [1, 2, 3]             # after each slice is sent
    assert laid.fronts is None and laid.backs is None           # no slice's SVG kept
    assert len(laid.pages) == 10 and all(p.faces == [] and not p.overlay for p in laid.pages)
    assert len({id(p.group) for p in laid.pages}) == 1          # one text for every page


@pytest.mark.skipif(__import__("ludoteca.generator.heap").generator.heap._trim() is None,
                    reason="no malloc_trim (not glibc)")
def test_memory_freed_between_blocks_still_held_goes_back_to_the_system():
    import os
    from ludoteca.generator.heap import give_back

    def resident() -> int:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    blocks = [bytes(4000) + bytes([i % 256]) for i in range(3000)]     # 12 MB of malloc's heap
    kept = blocks[::16]                                                 # pins it: no shrinking
    del blocks
    before = resident()
    assert give_back() and before - resident() > 6_000_000, (before, resident())
    assert len(kept) == 188

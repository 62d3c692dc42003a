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

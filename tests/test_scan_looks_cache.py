"""The table of every code's blurred look (companion/scan/detect.py, _looks) is kept in a per-user
cache file: a scan's process loads it instead of building it, and a file that is not that table
is built again."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")

from ludoteca.cards import markers  # noqa: E402
from ludoteca.companion.scan import detect  # noqa: E402


def test_the_blurred_looks_are_loaded_from_the_cache_as_they_were_built(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    codes = tuple(markers.CODES)
    built = detect._blurred_looks(codes, markers.BITS)
    detect._looks.cache_clear()
    try:
        first = detect._looks(codes, markers.BITS)
        (path,) = (tmp_path / "ludoteca" / "scan-looks").glob("looks-*.npy")
        detect._looks.cache_clear()
        monkeypatch.setattr(detect, "_blurred_looks", lambda *a: pytest.fail("built again, not loaded"))
        loaded = detect._looks(codes, markers.BITS)
        for table in (first, loaded):
            assert np.array_equal(table[0], built[0]) and np.array_equal(table[1], built[1])
        path.write_bytes(b"\x93NUMPY not a table")     # cut short or not ours: built again
        detect._looks.cache_clear()
        monkeypatch.undo()
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
        again = detect._looks(codes, markers.BITS)
        assert np.array_equal(again[0], built[0]) and np.array_equal(again[1], built[1])
    finally:
        detect._looks.cache_clear()


def test_a_change_in_how_the_kit_draws_its_codes_builds_a_new_table(tmp_path, monkeypatch):
    """The cache file is named by every code's cells as printed: a change in cards/markers.py
    (bit order, border) is never served the old table."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    codes = tuple(markers.CODES)
    detect._looks.cache_clear()
    try:
        detect._looks(codes, markers.BITS)
        drawn = markers.cells
        monkeypatch.setattr(markers, "cells", lambda *a: [row[::-1] for row in drawn(*a)])
        detect._looks.cache_clear()
        built = []
        real = detect._blurred_looks
        monkeypatch.setattr(detect, "_blurred_looks", lambda *a: built.append(a) or real(*a))
        detect._looks(codes, markers.BITS)
        assert built, "the old table was served for codes drawn another way"
        assert len(list((tmp_path / "ludoteca" / "scan-looks").glob("looks-*.npy"))) == 2
    finally:
        detect._looks.cache_clear()

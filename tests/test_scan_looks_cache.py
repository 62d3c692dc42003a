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

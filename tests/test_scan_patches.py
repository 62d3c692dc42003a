"""A photo larger than the working size is read at that size, then enlarged only in patches around
the small squares that read could not decode (companion/scan/detect.py, find_markers and
patch_reads): a far, blurred marker is still read, for a small share of the work of enlarging
the whole image."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from ludoteca.cards import markers  # noqa: E402
from ludoteca.companion.scan import detect  # noqa: E402


def _far_marker(code: int, side_px: float, blur: float, shape=(1500, 2000), at=(700, 900), k: int = 8):
    """A light table of ``shape`` with one marker whose black square is ``side_px`` pixels across
    (drawn ``k`` times larger and reduced, as a camera's pixels average it), blurred by ``blur`` px."""
    grid = markers.cells(code)
    size = int(side_px * 4)
    big = np.full((size * k, size * k), 225, np.uint8)
    x0, cell = int(1.5 * side_px * k), side_px * k / len(grid)
    for r, row in enumerate(grid):
        for c, black in enumerate(row):
            if black:
                big[int(x0 + r * cell):int(x0 + (r + 1) * cell), int(x0 + c * cell):int(x0 + (c + 1) * cell)] = 25
    table = np.full(shape, 225, np.uint8)
    table[at[0]:at[0] + size, at[1]:at[1] + size] = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(table, (0, 0), blur)


def test_a_far_blurred_marker_of_a_reduced_photo_is_read_in_an_enlarged_patch(monkeypatch):
    gray = _far_marker(7, 11, 1.2)
    shapes: list[tuple[int, ...]] = []
    tuned = detect.tuned

    class Counted:
        """A detector that notes the size of each image it reads."""

        def __init__(self, det):
            self.det = det

        def __getattr__(self, name):
            return getattr(self.det, name)

        def detectMarkers(self, image):
            shapes.append(image.shape)
            return self.det.detectMarkers(image)

    monkeypatch.setattr(detect, "tuned", lambda det, **params: Counted(tuned(det, **params)))
    found = detect.find_markers(gray, reduced=True)
    assert [code for code, _quad in found] == [7]
    (x, y), = [np.mean(quad, axis=0) for _code, quad in found]
    assert abs(x - (900 + 11 * 2)) < 3 and abs(y - (700 + 11 * 2)) < 3      # the marker's centre
    assert shapes[0] == gray.shape            # the whole image once, at its own size
    enlarged = shapes[1:]
    assert enlarged and sum(h * w for h, w in enlarged) < 0.01 * gray.size
    monkeypatch.setattr(detect, "PATCH_SIDE", 0)      # no patches: the first read alone misses it
    assert detect.find_markers(gray, reduced=True) == []

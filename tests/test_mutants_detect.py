"""The marker checks of the scanner (companion/scan/detect.py's public functions) a mutation run
(bench/mutation.py, seed 40925) found unpinned: drawn markers with exact grey levels and crafted
file headers, so each boundary is met exactly."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from ludoteca.cards import markers
from ludoteca.companion.scan import detect

CELL = 20      # pixels a marker cell
MARGIN = 3     # cells of quiet zone around it


def drawn(code: int, dark: int, light: int, top_band: bool = False):
    """A grey image of marker ``code`` (cells ``dark`` or ``light``) on a ``light`` page, and its
    quad; ``top_band`` darkens the cell-high band just above it (a quarter of the ring sampled)."""
    grid = markers.cells(code)
    n = len(grid)
    side = (n + 2 * MARGIN) * CELL
    img = np.full((side, side), light, np.uint8)
    o = MARGIN * CELL
    for r in range(n):
        for c in range(n):
            if grid[r][c]:
                img[o + r * CELL:o + (r + 1) * CELL, o + c * CELL:o + (c + 1) * CELL] = dark
    if top_band:
        img[o - CELL:o, :] = dark
    quad = np.float32([[o, o], [o + n * CELL, o], [o + n * CELL, o + n * CELL], [o, o + n * CELL]])
    return img, quad


def test_a_marker_needs_a_contrast_of_25_grey_levels():
    pytest.importorskip("cv2")
    assert detect.quiet_zone_clear(*drawn(5, 100, 125), 5)
    assert not detect.quiet_zone_clear(*drawn(5, 100, 124), 5)


def test_a_quiet_zone_three_quarters_light_is_enough():
    # The ring sampled round the marker is light on three sides and dark above it: exactly 3/4.
    pytest.importorskip("cv2")
    assert detect.quiet_zone_clear(*drawn(5, 0, 255, top_band=True), 5)


def test_a_square_of_the_smallest_side_passes_and_a_flattened_rhombus_does_not():
    side = detect.MIN_SIDE
    assert detect.square_enough([(0, 0), (side, 0), (side, side), (0, side)])
    assert not detect.square_enough([(0, 0), (side - 0.01, 0), (side - 0.01, side - 0.01), (0, side - 0.01)])
    # a rhombus of four equal sides (50 px) whose diagonals are 96 and 28 px (ratio 3.4 > 2.5)
    assert not detect.square_enough([(0, 14), (48, 0), (96, 14), (48, 28)])


def test_jpeg_size_steps_over_restart_markers_to_the_frame_header():
    # SOI, an RST0 marker (no length), then SOF0: 8-bit, 300 high, 400 wide.
    sof = b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 300, 400) + b"\x03" + b"\x00" * 9
    assert detect.jpeg_size(b"\xff\xd8" + b"\xff\xd0" + sof) == (400, 300)


def test_png_size_reads_the_header():
    header = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 640, 480) + b"\x08\x00"
    assert detect.png_size(header) == (640, 480)


def test_bits_fit_takes_the_code_seen_and_refuses_one_cell_off():
    # Cell means of marker 5 read sharp (0 black, 255 white): they fit its grid; the same means
    # with one inner cell flipped fit the neighbouring grid better, so not marker 5's.
    pytest.importorskip("cv2")
    grid = markers.cells(5)
    seen = np.array([0.0 if cell else 255.0 for row in grid for cell in row], np.float32)
    assert detect.bits_fit(seen, grid)
    flipped = seen.copy()
    flipped[2 * len(grid) + 2] = 255.0 - flipped[2 * len(grid) + 2]
    assert not detect.bits_fit(flipped, grid)


def test_a_face_outline_follows_its_marker():
    # A card whose marker square is read exactly where the data places it (mm as pixels): the
    # outline is the card's own trim, corner to corner.
    pytest.importorskip("cv2")
    from ludoteca.cards import load
    from ludoteca.companion.scan.targets import targets

    card = next(t for t in targets(load(games=("ciudadelas",))["ciudadelas"]).values() if not t.round)
    x, y, s = card.place
    w, h = card.size_mm
    got = detect.outline(card, [(x, y), (x + s, y), (x + s, y + s), (x, y + s)])
    assert np.allclose(got, [(0, 0), (w, 0), (w, h), (0, h)], atol=1e-3)

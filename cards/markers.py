"""Scan markers: the small printed squares that tell ``ludoteca scan`` which component it sees.

Each scoring component carries one marker, a square of 6 x 6 cells: a black border around the
4 x 4 bits of one code of the ArUco 4x4 dictionary of 100 codes (OpenCV's ``DICT_4X4_100``), so
that OpenCV's ArUco detector reads it.  The number of the code is the entry's ``marker`` in
``cards/`` (unique within a game).  The codes are kept here as data, so drawing them needs no
OpenCV; ``tests/test_scan_markers.py`` checks them against OpenCV's own.

>>> cells(0)[1]
[True, False, True, False, False, True]
>>> path(0, 0, 0, 6).startswith("M0 0h6v1h-6z")
True
"""

from __future__ import annotations

#: OpenCV's name of the dictionary, what the scanner asks OpenCV for
DICTIONARY = "DICT_4X4_100"
#: bits per side (without the border)
BITS = 4
#: the bits of each code, row by row from the top left, a 1 being a white cell
CODES = (
    0xb532, 0x0f9a, 0x332d, 0x9946, 0x549e, 0x79cd, 0x9e2e, 0xc4f2, 0xfeda, 0xcf56,
    0xf991, 0x11a7, 0x0eb7, 0x2a0f, 0x24b1, 0x263e, 0x4665, 0x6600, 0x6c5e, 0x76af,
    0x868b, 0xb02b, 0xccd5, 0xdd82, 0xfe47, 0x9471, 0xace4, 0xa554, 0x2123, 0x346f,
    0x4415, 0x57b2, 0x9ecf, 0xf0cb, 0x08ae, 0x0929, 0x1875, 0x04ff, 0x0df6, 0x1c5a,
    0x1718, 0x2a28, 0x328c, 0x38b2, 0x24e8, 0x2eeb, 0x2d3f, 0x4b64, 0x502e, 0x5013,
    0x5194, 0x5568, 0x5d41, 0x5f97, 0x6801, 0x6867, 0x6124, 0x61e9, 0x6b12, 0x6fe5,
    0x67df, 0x7e1b, 0x80a0, 0x8344, 0x8ba2, 0x937a, 0x846c, 0x852a, 0x859c, 0x9c89,
    0x9fa1, 0xbb7c, 0xbc04, 0xb65b, 0xbfc8, 0xb7ab, 0xca1f, 0xc962, 0xd958, 0xd3d5,
    0xcc98, 0xc7a0, 0xc537, 0xe95d, 0xf925, 0xfbbb, 0xee2a, 0xf74d, 0x3575, 0x8aad,
    0x7617, 0x0acf, 0x064b, 0x2dc1, 0x49d8, 0x43f4, 0x4f36, 0x4fd3, 0x69e4, 0x70c7,
)
#: the white margin kept clear around the black square, in cells (the detector needs one)
QUIET_CELLS = 1.0
#: where each kind of face carries its marker, the one place the templates and the scanner read:
#: (x, y, side) in mm from the top-left of the trim (a negative x counts from the right edge), or
#: ("token", fraction, cx, cy): a square of ``fraction`` of the face's width centred at
#: (cx, cy) fractions of the face.  On tokens the icon and the value come first and the marker
#: takes at most a fifth of the face (issue 20): read as area, the marker with its white quiet zone
#: (8 cells across for 6 of marker) on a round token: 0.29 of the width gives
#: (0.29 * 8/6)^2 / (pi/4) = 19 % of the disc, the black square alone 11 %.  A fifth of the *width* (3 to 5 mm on 15 to
#: 25 mm tokens) was tried: read from a close photo of one player's pieces, it was missed in a
#: third of photos 40 cm across and in the scan tests' photos of a whole table.
TOKEN_SHARE = 0.29
PLACES: dict[str, tuple] = {
    "ciudadelas/district": (5.0, 5.0, 9.0),
    "gladiadores/building": (5.0, 5.0, 9.0),
    # a 30 mm building tile: in its top-right corner, the black square 3.6 mm from the cut (its
    # white margin 2.4 mm: nothing but the background nearer the cut), and its twin bottom-left
    "el_mapa/building": (-10.8, 3.6, 7.2),
    "el_mapa/counter": ("token", TOKEN_SHARE, 0.5, 0.74),
    "gladiadores/token": ("token", TOKEN_SHARE, 0.5, 0.74),
}
#: the kinds of face whose marker is printed twice: in its corner and, turned half a turn, in the
#: opposite one (cards and tiles, which lie overlapped; a token is never covered in part)
TWINS: frozenset[str] = frozenset({"ciudadelas/district", "gladiadores/building", "el_mapa/building"})


class MarkerError(ValueError):
    """A marker number outside the dictionary."""


def cells(number: int, codes: tuple[int, ...] | None = None, bits: int | None = None) -> list[list[bool]]:
    """The marker's cells, border included, row by row: True for black.

    ``codes`` and ``bits`` default to this module's ``CODES`` and ``BITS`` as they are when called
    (the benchmark swaps them to print the same kit with another dictionary).
    """
    codes = CODES if codes is None else codes
    bits = BITS if bits is None else bits
    if not 0 <= int(number) < len(codes):
        raise MarkerError(f"marker {number} is not in the dictionary (0 to {len(codes) - 1})")
    code = codes[int(number)]
    side = bits + 2
    grid = [[True] * side for _ in range(side)]
    for k in range(bits * bits):
        white = (code >> (bits * bits - 1 - k)) & 1
        grid[1 + k // bits][1 + k % bits] = not white
    return grid


def path(number: int, x: float, y: float, size: float, codes: tuple[int, ...] | None = None,
         bits: int | None = None, turn: int = 0) -> str:
    """SVG path data of the black cells of a marker whose black square is ``size`` mm at x, y,
    turned ``turn`` degrees (0 or 180) in its square.

    One rectangle per horizontal run of black cells, so the marker stays a handful of vector shapes.
    """
    grid = cells(number, codes, bits)
    if turn % 360 == 180:
        grid = [row[::-1] for row in grid[::-1]]
    elif turn % 360:
        raise MarkerError(f"a marker turns 0 or 180 degrees, not {turn}")
    step = size / len(grid)
    parts: list[str] = []
    for r, row in enumerate(grid):
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            parts.append(f"M{_n(x + start * step)} {_n(y + r * step)}h{_n((c - start) * step)}"
                         f"v{_n(step)}h{_n(-(c - start) * step)}z")
    return "".join(parts)


def place(face: str, w: float, h: float) -> tuple[float, float, float]:
    """(x, y, side) in mm of the marker's black square on a face of kind ``face``, ``w`` x ``h`` mm.

    >>> place("el_mapa/counter", 20, 20)
    (7.1, 11.9, 5.8)
    """
    spec = PLACES[face]
    if spec[0] == "token":
        _, share, cx, cy = spec
        side = round(w * share, 4)
        return round(w * cx - side / 2, 4), round(h * cy - side / 2, 4), side
    x, y, side = spec
    return (w + x if x < 0 else x), y, side


def places(face: str, w: float, h: float) -> list[tuple[float, float, float, int]]:
    """Every marker of a face of kind ``face``: (x, y, side, turn) in mm, turn in degrees.

    A face named in :data:`TWINS` carries a second copy of its marker in the opposite corner, turned
    half a turn, so that a card overlapped from either side still shows one, and so that each copy
    sees the face the same way (the face seen from the second copy is the face turned half a turn,
    the same rectangle): the scanner maps the face from whichever copy it reads.

    >>> places("ciudadelas/district", 63, 88)
    [(5.0, 5.0, 9.0, 0), (49.0, 74.0, 9.0, 180)]
    """
    x, y, side = place(face, w, h)
    out = [(x, y, side, 0)]
    if face in TWINS:
        out.append((round(w - x - side, 4), round(h - y - side, 4), side, 180))
    return out


def cell(size: float) -> float:
    """The side of one cell of a marker of black side ``size`` mm (its bits and its border)."""
    return size / (BITS + 2)


def quiet(size: float) -> float:
    """The width of the white margin around a marker of black side ``size`` mm."""
    return cell(size) * QUIET_CELLS


def _n(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".") if v % 1 else str(int(v))

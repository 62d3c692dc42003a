"""Finding the scan markers in a photo (OpenCV's ArUco detector) and the components they belong to.

A photo is read in grey.  One of about 3 MP or less is read enlarged twice, where the small
markers of a table photo (a far token, a card's corner from a seat) have the pixels the detector
needs.  A larger one is decoded (or scaled) down to about 3 MP, whose pixels are sharp, and read at
that size; then only the small squares that read could not decode are read again, each in a patch
around it enlarged twice (a fraction of the work of enlarging the whole image).  Only markers of the chosen
game's data count: any other code is ignored.  Each component's outline is its face mapped through
the homography of its marker.
"""

from __future__ import annotations

import functools
import struct
from pathlib import Path
from typing import Any
from collections.abc import Mapping, Sequence

from ludoteca.cards import markers
from ludoteca.cards.limits import InputTooLarge, read_bytes

from . import ScanError, require_cv2
from .targets import Found, Target

#: longest side, in pixels, that detection works on (a larger photo is scaled down to it)
WORK_SIDE = 2048
#: an image of WORK_SIDE or less is read enlarged this many times (its small markers then have the
#: pixels the detector's thresholds need): a 1.2 or 3 MP photo whole, a larger one in patches
UPSCALE = 2
#: a photo decoded (or scaled) down to WORK_SIDE is read first at that size with one adaptive
#: threshold window of this many pixels: its markers are sharp, and the detector's three windows
#: on the whole image enlarged cost several times as much for no more reads
FIRST_WINDOW = 7
#: then each square that read found but could not decode, of at most PATCH_SIDE px of the reduced
#: image (a far token's or card corner's marker: a larger square has its pixels already) and away
#: from the markers read, is read again in a patch reaching PATCH_REACH of its side from its
#: centre, enlarged UPSCALE times, with one window of PATCH_WINDOW px and no square under
#: PATCH_PERIMETER px around in the enlarged patch (the detector's smallest on a whole image)
PATCH_SIDE = 60
PATCH_REACH = 1.5
PATCH_WINDOW = 25
PATCH_PERIMETER = 50
#: the largest photo file read, in bytes (a phone's photo is 2 to 15 MB)
MAX_PHOTO_BYTES = 64 * 2**20
#: the most pixels a photo may declare: more than a phone's photo at its usual size (12 to 50 MP),
#: and what a PNG costs in bytes once decoded in grey (a large JPEG is decoded reduced)
MAX_PIXELS = 100_000_000
#: steps through a JPEG's segments before its frame header is given up on
HEADER_STEPS = 100_000
#: the quiet-zone check: where the ring is sampled (cells out from the black square; the printed
#: quiet zone is one cell wide, its frame line just outside) and the share of its samples that must
#: be lighter than halfway between the black border and the white cells
RING_OFFSETS = (0.5, 0.75)
RING_SHARE = 0.75
#: the bit check: each cell is sampled over its middle (this far from its centre, in cells); each
#: inner cell lies CELL_MARGIN of the black-white range clear of the halfway grey on its bit's
#: side, or else the code, blurred by one of BLURS (in cells), explains the samples FIT_RATIO
#: times better than any code one inner cell away
CELL_CORE = 0.2
#: each cell of a marker is one ink: sampled over most of it (this far from its centre, in cells),
#: the spread of each cell (its lightest less its darkest sample, over the range of all of them) has
#: a median of at most CELL_SPREAD (a sharp marker 0.1-0.3, a blurred small one up to 0.55; a
#: larger code of another family read as ours has edges through its cells, near 1)
CELL_REACH = 0.3
CELL_SPREAD = 0.8
CELL_MARGIN = 0.05
BLURS = (0.35, 0.6, 0.9)
FIT_RATIO = 1.6
#: a printed marker seen from a camera is close to a square: its shortest side in the photo's own
#: pixels and how much longer its longest side or diagonal may be.  8 px: a sharp marker of 10 to
#: 11 px comes out of the detector a pixel or two smaller, and 10 px threw those away (tokens and
#: far cards of a seated photo); smaller reads still have to pass the quiet-zone and bit checks
MIN_SIDE = 8.0
MAX_STRETCH = 2.5
#: a candidate square the detector could not decode (a blurred small marker loses its lone
#: cells under its threshold) is read again here against the blurred look of every code: its cell
#: means must correlate with the best code's at least READ_CORR, and that code (in its best
#: rotation) must explain them FIT_RATIO times better than any other code in any rotation; it then
#: passes the same quiet-zone and bit checks as the detector's reads
READ_CORR = 0.85
#: such a read, already the best code by FIT_RATIO, is held against the grids one cell away by
#: this ratio instead (a blurred lone cell is what made the detector give up on it)
READ_NEIGHBOUR_RATIO = 1.3
#: a read the cell check refuses ("bits") has its corners fitted to the image (refine_corners)
#: and is checked again: the code is drawn FIT_PX pixels a cell with FIT_QUIET cells of white
#: around it
FIT_PX = 6
FIT_QUIET = 1
#: a candidate square not read whose best code correlates at least this is read again fitted
REFIT_CORR = 0.7
#: a photo whose brightest parts (99.5th percentile) are below DIM_LEVEL is brightened for the
#: detector, at most DIM_GAIN times
DIM_LEVEL = 180
DIM_GAIN = 4.0
#: how many tables of blurred looks the per-user cache keeps (one per version of the codes)
LOOKS_KEPT = 4


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, or None if ``data`` is not a JPEG (or its frame
    header is not found within :data:`HEADER_STEPS` steps: segments are skipped whole, stray bytes
    one at a time)."""
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    for _step in range(HEADER_STEPS):
        if i + 9 >= len(data):
            return None
        if data[i] != 0xFF:
            i += 1
            continue
        mark = data[i + 1]
        if mark in (0xD8, 0x01) or 0xD0 <= mark <= 0xD7 or mark == 0xFF:
            i += 1 if mark == 0xFF else 2
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= mark <= 0xCF and mark not in (0xC4, 0xC8, 0xCC):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + length
    return None


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's header (IHDR), or None if ``data`` is not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR" or len(data) < 24:
        return None
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def photo_size(path: str | Path, data: bytes) -> tuple[int, int]:
    """A photo's size as its header declares it, refused (:class:`ScanError`) before anything is
    decoded when the file is empty, is no JPEG or PNG, or declares more than :data:`MAX_PIXELS`."""
    if not data:
        raise ScanError({"es": f"{path}: el archivo está vacío (0 bytes), no es una foto",
                         "en": f"{path}: the file is empty (0 bytes), not a photo"})
    size = jpeg_size(data) or png_size(data)
    if size is None:
        raise ScanError({"es": f"{path}: no es una imagen que Ludoteca sepa leer (una foto JPEG o PNG)",
                         "en": f"{path}: not an image Ludoteca can read (a JPEG or PNG photo)"})
    w, h = size
    if not w or not h or w * h > MAX_PIXELS:
        mp = MAX_PIXELS // 1_000_000
        raise ScanError({"es": f"{path}: una foto de 1 a {mp} megapíxeles, no de {w} x {h} píxeles",
                         "en": f"{path}: a photo of 1 to {mp} megapixels, got {w} x {h} pixels"})
    return w, h


def read_photo(path: str | Path):
    """The photo in grey and the factor from its pixels to the returned image's (<= 1).

    Only a regular file of at most :data:`MAX_PHOTO_BYTES` is read (a FIFO or a device is refused
    without waiting), and its header's size is checked (:func:`photo_size`) before it is decoded.
    A JPEG twice the working size or more is decoded at half (a quarter, an eighth) of its size
    directly, which is several times faster than decoding it whole.
    """
    cv2 = require_cv2()
    import numpy as np
    try:
        data = read_bytes(path, MAX_PHOTO_BYTES)
    except InputTooLarge as exc:
        mb = MAX_PHOTO_BYTES // 2**20
        raise ScanError({"es": f"{path}: una foto de como mucho {mb} MB, no de {exc.got}",
                         "en": f"{path}: a photo of at most {mb} MB, got {exc.got}"}) from None
    except OSError as exc:
        why = exc.strerror or exc
        raise ScanError({"es": f"{path}: no se puede leer la foto ({why})",
                         "en": f"{path}: cannot read the photo ({why})"}) from None
    size = photo_size(path, data)
    flag, factor = cv2.IMREAD_GRAYSCALE, 1.0
    if data[:2] == b"\xff\xd8":
        if max(size) >= 8 * WORK_SIDE:
            flag, factor = cv2.IMREAD_REDUCED_GRAYSCALE_8, 0.125
        elif max(size) >= 4 * WORK_SIDE:
            flag, factor = cv2.IMREAD_REDUCED_GRAYSCALE_4, 0.25
        elif max(size) >= 1.9 * WORK_SIDE:
            flag, factor = cv2.IMREAD_REDUCED_GRAYSCALE_2, 0.5
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    except cv2.error:  # a header that lies about the data behind it
        image = None
    if image is None:
        raise ScanError({"es": f"{path}: no es una imagen que OpenCV sepa leer (JPEG, PNG...)",
                         "en": f"{path}: not an image OpenCV can read (JPEG, PNG, ...)"})
    return image, factor


def detector(dictionary: str = markers.DICTIONARY):
    """The ArUco detector for a dictionary, with the parameters the benchmark settled on."""
    cv2 = require_cv2()
    aruco = cv2.aruco
    params = aruco.DetectorParameters()
    params.cornerRefinementMethod = aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 25
    params.adaptiveThreshWinSizeStep = 10
    params.minMarkerPerimeterRate = 0.02
    params.polygonalApproxAccuracyRate = 0.05
    # read each cell from its middle only, at 8 px per cell: blurred small markers still decode
    params.perspectiveRemovePixelPerCell = 8
    params.perspectiveRemoveIgnoredMarginPerCell = 0.3
    return aruco.ArucoDetector(aruco.getPredefinedDictionary(getattr(aruco, dictionary)), params)


def find_markers(gray, dictionary: str = markers.DICTIONARY, det: Any = None, enlarge: bool = True,
                 reduced: bool = False, trace: dict | None = None) -> list[tuple[int, list[tuple[float, float]]]]:
    """(code, corners) of every marker of the dictionary in a grey image, corners in its pixels.

    An image of :data:`WORK_SIDE` or less is read enlarged :data:`UPSCALE` times (``enlarge``),
    where its small markers have the pixels the detector needs.  A larger image is scaled down to
    :data:`WORK_SIDE` and, like an image already ``reduced`` from a larger photo, read at that size
    with one threshold window (:data:`FIRST_WINDOW`), then the small squares left undecoded are read
    enlarged in patches (:func:`patch_reads`).  A dim image is brightened for the detector
    (:func:`brightened`), and a read the cell check refuses is read again with its corners fitted
    (:func:`refine_corners`).  ``trace``, when given, receives what the read went through (the
    benchmark's account of misses): the image read and its scale, the detector's decoded and
    rejected squares, and each read refused.
    """
    cv2 = require_cv2()
    scale = 1.0
    work = gray
    det = det or detector(dictionary)
    if max(gray.shape[:2]) > WORK_SIDE * 1.05:
        scale = WORK_SIDE / max(gray.shape[:2])
        work = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        reduced = True
    elif enlarge and UPSCALE > 1 and not reduced:
        scale = float(UPSCALE)
        work = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    first = det
    if reduced and enlarge and UPSCALE > 1:
        first = tuned(det, adaptiveThreshWinSizeMin=FIRST_WINDOW, adaptiveThreshWinSizeMax=FIRST_WINDOW)
    corners, ids, rejected = first.detectMarkers(brightened(work))
    # a square the size check would refuse is not read (half of a seated photo's candidates)
    rejected = [q for q in (c.reshape(4, 2) for c in rejected) if square_enough(q / max(scale, 1.0))]
    reads = [] if ids is None else [(int(code), quad.reshape(4, 2), FIT_RATIO, False)
                                      for quad, code in zip(corners, ids.ravel())]
    if trace is not None:
        trace.update(work=work, scale=scale, decoded=[(c, q) for c, q, _r, _f in reads],
                     rejected=rejected, refused=[])
    if dictionary == markers.DICTIONARY:
        taken = [quad for _code, quad, _ratio, _fitted in reads]
        reads += [(code, quad, READ_NEIGHBOUR_RATIO, fitted)
                  for code, quad, fitted in read_candidates(work, rejected, taken)]
    if trace is not None:
        trace["reads"] = [(c, q) for c, q, _r, _f in reads]

    def refusal(code: int, quad, ratio: float, fitted: bool) -> str | None:
        """Why a read is refused (None: kept).  The size check in the image's own pixels:
        enlarging helps read a small marker, not admit a smaller one; a read whose corners were
        fitted must also fit its code better than the codes one cell away."""
        if not square_enough(quad / max(scale, 1.0)):
            return "shape"
        why = zone_refusal(work, quad, code, ratio)
        return "bits" if why is None and fitted and not refit_fits(work, quad, code) else why

    out = []
    for code, quad, ratio, fitted in reads:
        why = refusal(code, quad, ratio, fitted)
        if why == "bits" and not fitted:
            fit = refine_corners(work, quad, code)
            if trace is not None:
                trace.setdefault("fits", []).append((code, quad, fit, why))
            if fit is not None and refusal(code, fit[0], ratio, True) is None:
                why, quad = None, fit[0]
        if why is not None:
            if trace is not None:
                trace["refused"].append((code, quad, why))
            continue
        out.append((code, [(float(x) / scale, float(y) / scale) for x, y in quad]))
    if first is not det:
        taken = [[(x * scale, y * scale) for x, y in quad] for _code, quad in out]
        out += [(code, [(x / scale, y / scale) for x, y in quad]) for code, quad in
                patch_reads(work, rejected, taken, dictionary, det)]
    return out


def brightened(gray):
    """The image the detector thresholds: a dim photo (its brightest parts below
    :data:`DIM_LEVEL`, as under warm evening light) brightened until they are white, at most
    :data:`DIM_GAIN` times.  The detector's threshold is a fixed number of grey levels below the
    local mean, too many for a marker of 40-60 levels of contrast; our checks read the photo as
    it is."""
    cv2 = require_cv2()
    import numpy as np

    few = gray[::16, ::16].ravel()
    top = float(np.partition(few, int(0.995 * (few.size - 1)))[int(0.995 * (few.size - 1))])
    if top >= DIM_LEVEL:
        return gray
    return cv2.convertScaleAbs(gray, alpha=min(DIM_GAIN, 255.0 / max(top, 1.0)))


def tuned(det: Any, **params: Any) -> Any:
    """An ArUco detector like ``det`` (its dictionary and parameters) with some parameters changed."""
    aruco = require_cv2().aruco
    p = det.getDetectorParameters()
    for name, value in params.items():
        setattr(p, name, value)
    return aruco.ArucoDetector(det.getDictionary(), p)


def patch_reads(work, candidates, taken, dictionary: str = markers.DICTIONARY, det: Any = None
                ) -> list[tuple[int, list[tuple[float, float]]]]:
    """(code, corners) of the markers read in enlarged patches of ``work`` around its small
    ``candidates`` (squares of at most :data:`PATCH_SIDE` px) that lie away from the markers
    ``taken`` (their corners); corners in ``work``'s pixels.  Each patch reaches
    :data:`PATCH_REACH` sides from its candidate's centre and is read as a small image is
    (:func:`find_markers`: enlarged :data:`UPSCALE` times, the same checks), with one threshold
    window (:data:`PATCH_WINDOW`); a candidate inside a patch already read is not read again."""
    import numpy as np

    det = tuned(det or detector(dictionary), adaptiveThreshWinSizeMin=PATCH_WINDOW,
                adaptiveThreshWinSizeMax=PATCH_WINDOW)
    params = det.getDetectorParameters()
    h, w = work.shape[:2]
    seen = [(np.asarray(q, float).mean(axis=0), _sides(q)[0]) for q in taken]

    def near(centre, short: float) -> bool:
        """Whether a square centred at ``centre`` lies on a marker read already."""
        return any(float(np.hypot(*(centre - c))) < max(s, short) for c, s in seen)

    boxes: list[tuple[int, int, int, int]] = []
    out: list[tuple[int, list[tuple[float, float]]]] = []
    for quad in candidates:
        quad = np.asarray(quad, float)
        short, side = _sides(quad)
        (cx, cy), half = quad.mean(axis=0), side / 2
        if side > PATCH_SIDE or near(np.array((cx, cy)), short):
            continue
        if any(x0 <= cx - half and cx + half <= x1 and y0 <= cy - half and cy + half <= y1
               for x0, y0, x1, y1 in boxes):
            continue
        reach = side * PATCH_REACH
        x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
        x1, y1 = min(w, int(cx + reach) + 1), min(h, int(cy + reach) + 1)
        boxes.append((x0, y0, x1, y1))
        patch = work[y0:y1, x0:x1]
        params.minMarkerPerimeterRate = min(1.0, PATCH_PERIMETER / (UPSCALE * max(patch.shape[:2])))
        det.setDetectorParameters(params)
        for code, corners in find_markers(patch, dictionary, det):
            found = [(x + x0, y + y0) for x, y in corners]
            centre, small = np.asarray(found).mean(axis=0), _sides(found)[0]
            if near(centre, small):
                continue
            seen.append((centre, small))
            out.append((code, found))
    return out


def _sides(quad) -> tuple[float, float]:
    """The shortest and the longest side of a quadrilateral."""
    import numpy as np

    pts = np.asarray(quad, float)
    sides = [float(np.hypot(*(pts[i] - pts[(i + 1) % 4]))) for i in range(4)]
    return min(sides), max(sides)


def _sampler(gray, quad, n: int):
    """A function from points in a marker's cell units (x, y; ``n`` cells a side, the quad's
    first corner at 0, 0) to the grey levels there, interpolated between pixels: a small marker
    has 2 to 3 pixels a cell, where the nearest pixel is up to a fifth of a cell off."""
    cv2 = require_cv2()
    import numpy as np

    unit = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
    h = cv2.getPerspectiveTransform(unit, np.float32(quad))

    def sample(points):
        pts = cv2.perspectiveTransform(np.float32(points).reshape(-1, 1, 2), h).reshape(1, -1, 2)
        return cv2.remap(gray, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE).reshape(-1).astype(np.float32)

    return sample


def cell_means(gray, quad, n: int):
    """The mean grey of the middle of each of a marker's ``n`` x ``n`` cells, row by row."""
    offsets = [(dx, dy) for dx in (-CELL_CORE, 0, CELL_CORE) for dy in (-CELL_CORE, 0, CELL_CORE)]
    centres = [(c + 0.5, r + 0.5) for r in range(n) for c in range(n)]
    seen = _sampler(gray, quad, n)([(cx + dx, cy + dy) for cx, cy in centres for dx, dy in offsets])
    return seen.reshape(n * n, -1).mean(axis=1)


@functools.lru_cache(maxsize=4)
def _looks(codes: tuple[int, ...], bits: int):
    """:func:`_blurred_looks`, kept in a per-user cache file named by a hash of what makes it
    (every code's cells as the kit prints them, this module's code, the OpenCV and NumPy versions):
    a scan's process then loads it (a fraction of a millisecond) instead of building it (6 ms,
    3 % of a 12 MP scan).  The four newest tables are kept (checkouts may share the cache)."""
    import hashlib
    import io

    import numpy as np

    from ludoteca.atomic import cache_dir

    cv2 = require_cv2()
    grids = [markers.cells(number, codes, bits) for number in range(len(codes))]
    try:
        made_of = repr((grids, cv2.__version__, np.__version__)).encode() + Path(__file__).read_bytes()
        key = hashlib.blake2b(made_of, digest_size=10).hexdigest()
        folder = cache_dir("scan-looks")
    except OSError:
        folder = None
    path = folder / f"looks-{key}.npy" if folder else None
    size = 4 * len(codes) * len(BLURS)
    if path is not None:
        try:       # a file that is not the table (cut short, another's) is built again
            table = np.load(path, allow_pickle=False)
            if table.shape == (size, (bits + 2) ** 2 + 2) and table.dtype == np.float32:
                return np.ascontiguousarray(table[:, :-2]), table[:, -2:].astype(int)
        except (OSError, ValueError, EOFError, MemoryError):
            pass
    looks, owners = _blurred_looks(codes, bits)
    if path is not None:
        buf = io.BytesIO()
        np.save(buf, np.hstack([looks, owners.astype(np.float32)]))
        try:
            from ludoteca.atomic import write_bytes
            write_bytes(path, buf.getvalue(), durable=False)
            tables = sorted(path.parent.glob("looks-*.npy"), key=lambda p: p.stat().st_mtime, reverse=True)
            for old in tables[LOOKS_KEPT:]:
                old.unlink(missing_ok=True)
        except OSError:
            pass
    return looks, owners


def _blurred_looks(codes: tuple[int, ...], bits: int):
    """Every code of the dictionary in each quarter turn, blurred by each of BLURS: its cell
    means (white quiet zone around), centred and scaled to unit length, one row each; and the code
    and quarter turn of each row.  Each blur is applied as one linear map (the blur of each single
    cell, found once), so building the table costs a few milliseconds of a scan's first photo."""
    cv2 = require_cv2()
    import numpy as np

    n = bits + 2
    m = n + 2
    ideals, which = [], []
    for number in range(len(codes)):
        grid = 1.0 - np.array(markers.cells(number, codes, bits), np.float32)
        for turn in range(4):
            ideal = np.ones((m, m), np.float32)
            ideal[1:-1, 1:-1] = np.rot90(grid, turn)
            ideals.append(ideal.ravel())
            which.append((number, turn))
    flat = np.array(ideals, np.float32)
    inner = np.zeros((m, m), bool)
    inner[1:-1, 1:-1] = True
    rows, owners = [], []
    for sigma in BLURS:
        blur = np.array([cv2.GaussianBlur(np.eye(m * m, dtype=np.float32)[k].reshape(m, m), (0, 0), sigma,
                                          borderType=cv2.BORDER_REPLICATE).ravel() for k in range(m * m)])
        v = (flat @ blur)[:, inner.ravel()]
        v = v - v.mean(axis=1, keepdims=True)
        rows.append(v / np.linalg.norm(v, axis=1, keepdims=True))
        owners += which
    return np.vstack(rows).astype(np.float32), np.array(owners)


def read_candidates(gray, candidates, taken) -> list[tuple[int, Any, bool]]:
    """(code, corners, fitted) of the candidate squares the detector found but could not decode,
    read against the blurred look of each code (:func:`read_candidate`); the corners clockwise from
    the code's top-left.  A candidate that is not read but looks like one code at least
    :data:`REFIT_CORR` is read again with its corners fitted to that code (:func:`refine_corners`;
    ``fitted`` then).  Candidates where a read marker already is are skipped."""
    import numpy as np

    centres = [np.asarray(q, float).mean(axis=0) for q in taken]
    out: list[tuple[int, Any, bool]] = []
    for quad in candidates:
        quad = np.asarray(quad, np.float32)
        side = min(float(np.hypot(*(quad[i] - quad[(i + 1) % 4]))) for i in range(4))
        centre = quad.mean(axis=0)
        if any(float(np.hypot(*(centre - c))) < side for c in centres):
            continue
        read, number, turned, corr = _read(gray, quad)
        fitted = False
        if isinstance(read, str) and corr >= REFIT_CORR:
            fit = refine_corners(gray, turned, number)
            if fit is not None:
                again = read_candidate(gray, fit[0])
                if not isinstance(again, str) and again[0] == number:
                    read, fitted = again, True
        if isinstance(read, str):
            continue
        out.append((read[0], read[1], fitted))
        centres.append(centre)
    return out


def _correlations(gray, quad):
    """A square's corners clockwise as the image shows it, and the correlation of its cell means
    with the blurred look of every code in every turn (None for a flat square)."""
    import numpy as np

    looks, _which = _looks(tuple(markers.CODES), markers.BITS)
    quad = np.asarray(quad, np.float32)
    x, y = quad[:, 0], quad[:, 1]
    if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) < 0:
        quad = quad[::-1].copy()
    seen = cell_means(gray, quad, markers.BITS + 2)
    seen = seen - seen.mean()
    norm = float(np.linalg.norm(seen))
    return quad, None if norm < 1e-6 else looks @ (seen / norm)


def best_code(gray, quad, seen: tuple | None = None) -> tuple[int, Any, float]:
    """The code whose blurred look best matches a square's cell means (any turn, either order of
    its corners), its corners from that code's top-left, and the correlation (``seen``: what
    :func:`_correlations` gave for it, when already known)."""
    import numpy as np

    _looks_, which = _looks(tuple(markers.CODES), markers.BITS)
    quad, corr = seen or _correlations(gray, quad)
    if corr is None:
        return -1, quad, 0.0
    best = int(np.argmax(corr))
    number, turn = which[best]
    # the cells seen are the code turned ``turn`` quarter turns: start the corners there
    return int(number), np.roll(quad, int(turn), axis=0), float(corr[best])


def read_candidate(gray, quad) -> tuple[int, Any] | str:
    """A candidate square read against the blurred look of every code in every turn: (code,
    corners from its top-left) when its cell means correlate with the best code's at least
    :data:`READ_CORR` and that code explains them :data:`FIT_RATIO` times better than any other;
    else why not ("flat", "corr", "ratio")."""
    return _read(gray, quad)[0]


def _read(gray, quad) -> tuple[tuple[int, Any] | str, int, Any, float]:
    """:func:`read_candidate`'s answer, with the best code, its corners and correlation."""
    _looks_, which = _looks(tuple(markers.CODES), markers.BITS)
    seen = _correlations(gray, quad)
    corr = seen[1]
    number, turned, best = best_code(gray, quad, seen)
    if corr is None:
        return "flat", number, turned, best
    if best < READ_CORR:
        return "corr", number, turned, best
    others = corr[which[:, 0] != number]
    if others.size and 1 - best ** 2 > (1 - float(others.max()) ** 2) / FIT_RATIO:
        return "ratio", number, turned, best
    return (number, turned), number, turned, best


@functools.lru_cache(maxsize=128)
def _drawn(code: int):
    """A code with :data:`FIT_QUIET` cells of white around it, :data:`FIT_PX` pixels a cell,
    blurred by half a cell (float32), as :func:`refine_corners` fits it."""
    cv2 = require_cv2()
    import numpy as np

    grid = markers.cells(code)
    m = len(grid) + 2 * FIT_QUIET
    ideal = np.full((m, m), 255, np.uint8)
    ideal[FIT_QUIET:-FIT_QUIET, FIT_QUIET:-FIT_QUIET] = np.where(np.array(grid, bool), 0, 255)
    template = cv2.resize(ideal, (m * FIT_PX, m * FIT_PX), interpolation=cv2.INTER_NEAREST).astype(np.float32)
    return cv2.GaussianBlur(template, (0, 0), FIT_PX / 2)


def refine_corners(gray, quad, code: int) -> tuple[Any, float] | None:
    """The corners of a read marker fitted to the image: the code with its white quiet zone,
    drawn at :data:`FIT_PX` pixels a cell and blurred by half a cell, is aligned with the photo
    by the enhanced correlation coefficient (a homography, from the corners read), or None when
    that does not settle.  A small or blurred marker's corners from the detector are off by a
    fraction of a cell, enough for its cells to be sampled across their neighbours.  Returns the
    corners and the correlation of the fitted drawing with the photo."""
    cv2 = require_cv2()
    import numpy as np

    template = _drawn(code)
    n = len(markers.cells(code))
    q = np.asarray(quad, np.float32).reshape(4, 2)
    side = max(float(np.hypot(*(q[i] - q[(i + 1) % 4]))) for i in range(4))
    pad = int(side / n * (FIT_QUIET + 1)) + 4
    x0, y0 = np.maximum(np.floor(q.min(0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(q.max(0)).astype(int) + pad, [gray.shape[1], gray.shape[0]])
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    a, b = FIT_QUIET * FIT_PX, (FIT_QUIET + n) * FIT_PX
    src = np.float32([[a, a], [b, a], [b, b], [a, b]])
    warp = cv2.getPerspectiveTransform(src, q - np.array([x0, y0], np.float32)).astype(np.float32)
    try:
        cc, warp = cv2.findTransformECC(template, patch, warp, cv2.MOTION_HOMOGRAPHY,
                                        (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-4), None, 1)
    except cv2.error:
        return None
    out = cv2.perspectiveTransform(src.reshape(-1, 1, 2), warp).reshape(4, 2) + np.array([x0, y0], np.float32)
    if float(np.abs(out - q).max()) > side / n:     # moved more than a cell: it found something else
        return None
    return out, float(cc)


def refit_fits(gray, quad, code: int) -> bool:
    """Whether a read whose corners were fitted fits its code :data:`READ_NEIGHBOUR_RATIO` times
    better than any code one cell away, with no exception for cells each clearly on their side: a
    fit draws any dark blob with a lighter middle (a shield in the art) into a code with few white
    cells, each then on its side."""
    grid = markers.cells(code)
    return bits_fit(cell_means(gray, quad, len(grid)), grid, READ_NEIGHBOUR_RATIO)


def square_enough(quad) -> bool:
    """Whether a quadrilateral (px) can be a marker photographed from above: not tiny, not a thin
    sliver (a dark icon read as a code comes out skewed like that)."""
    import numpy as np

    pts = np.asarray(quad, float)
    sides = [float(np.hypot(*(pts[i] - pts[(i + 1) % 4]))) for i in range(4)]
    diagonals = [float(np.hypot(*(pts[0] - pts[2]))), float(np.hypot(*(pts[1] - pts[3])))]
    return (
        min(sides) >= MIN_SIDE
        and max(sides) <= MAX_STRETCH * min(sides)
        and max(diagonals) <= MAX_STRETCH * min(diagonals)
    )


def quiet_zone_clear(gray, quad, code: int, ratio: float = FIT_RATIO) -> bool:
    """Whether the printed quiet zone is there: a white band around the marker, as light as its
    white cells.  Code-like patches of text or drawing that the detector reads as a marker have
    no such band, so this is what keeps false components out.
    """
    return zone_refusal(gray, quad, code, ratio) is None


def zone_refusal(gray, quad, code: int, ratio: float = FIT_RATIO) -> str | None:
    """Why a read fails the quiet-zone and cell checks of :func:`quiet_zone_clear` ("contrast",
    "ring", "spread", "bits"), or None when it passes them."""
    import numpy as np

    grid = markers.cells(code)
    n = len(grid)
    sample = _sampler(gray, quad, n)
    ring, border, white = [], [], []
    steps = np.linspace(0.25, n - 0.25, 4 * n)
    for t in steps:
        for off in RING_OFFSETS:
            ring += [(t, -off), (t, n + off), (-off, t), (n + off, t)]
        border += [(t, 0.5), (t, n - 0.5), (0.5, t), (n - 0.5, t)]
    for r in range(1, n - 1):
        for c in range(1, n - 1):
            if not grid[r][c]:
                white.append((c + 0.5, r + 0.5))

    dark = median(sample(border))
    light = median(sample(white)) if white else float(np.percentile(sample(ring), 75))
    if light - dark < 25:
        return "contrast"
    middle = (dark + light) / 2
    if float((sample(ring) > middle).mean()) < RING_SHARE:
        return "ring"
    reach = [(dx, dy) for dx in (-CELL_REACH, 0, CELL_REACH) for dy in (-CELL_REACH, 0, CELL_REACH)]
    spread = sample([(c + 0.5 + dx, r + 0.5 + dy) for r in range(n) for c in range(n) for dx, dy in reach])
    ranked = np.sort(spread)                  # (not np.percentile: it imports numpy.ma, see median)
    span = float(ranked[int(0.95 * (len(ranked) - 1))] - ranked[int(0.05 * (len(ranked) - 1))])
    spread = spread.reshape(n * n, -1)
    if median(spread.max(axis=1) - spread.min(axis=1)) > CELL_SPREAD * span:
        return "spread"
    # the cells must fit the code better than any code one cell away (another family's code read
    # through blur has that cell in between): the code, blurred as the photo is, explains what is
    # seen far better than each of its one-cell neighbours
    seen = cell_means(gray, quad, n)
    inner = seen.reshape(n, n)[1:-1, 1:-1].ravel()
    bits = np.array([grid[r][c] for r in range(1, n - 1) for c in range(1, n - 1)])  # True: black
    margin = CELL_MARGIN * (light - dark)
    if np.all(np.where(bits, inner < middle - margin, inner > middle + margin)):
        return None
    return None if bits_fit(seen, grid, ratio) else "bits"


def median(values) -> float:
    """The median of a few samples, as ``np.median`` gives it, without the ``numpy.ma`` module
    ``np.median`` imports on its first call (a seventh of a scan's start-up CPU)."""
    import numpy as np

    s = np.sort(np.asarray(values))
    n = len(s)
    return float(s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2)


def bits_fit(seen, grid, ratio: float = FIT_RATIO) -> bool:
    """Whether the cell means ``seen`` (row by row, border included) fit the marker ``grid`` at
    least ``ratio`` times better (squared error, best blur) than any grid one inner cell away."""
    return bits_ratio(seen, grid, ratio) >= ratio


def bits_ratio(seen, grid, stop: float = 0.0) -> float:
    """How many times better the cell means ``seen`` fit the marker ``grid`` (squared error, best
    blur) than the best-fitting grid one inner cell away; the search stops at the first neighbour
    fitting within ``stop`` times."""
    cv2 = require_cv2()
    import numpy as np

    n = len(grid)
    ideal = np.ones((n + 2, n + 2), np.float32)
    ideal[1:-1, 1:-1] = 1.0 - np.array(grid, np.float32)

    def error(pattern) -> float:
        best = float("inf")
        for sigma in BLURS:
            blurred = cv2.GaussianBlur(pattern, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)[1:-1, 1:-1].ravel()
            a = np.vstack([blurred, np.ones_like(blurred)]).T
            fit, residual, *_ = np.linalg.lstsq(a, seen, rcond=None)
            if fit[0] <= 0:
                continue
            best = min(best, float(np.sum((a @ fit - seen) ** 2)))
        return best

    own = error(ideal)
    worst = float("inf")
    for r in range(2, n):
        for c in range(2, n):
            other = ideal.copy()
            other[r, c] = 1.0 - other[r, c]
            worst = min(worst, error(other) / max(own, 1e-12))
            if worst < stop:
                return worst
    return worst


def outline(target: Target, corners: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The face of ``target`` in the image, from its marker's corners (a homography)."""
    cv2 = require_cv2()
    import numpy as np

    x, y, s = target.place
    src = np.float32([[x, y], [x + s, y], [x + s, y + s], [x, y + s]])
    homography = cv2.getPerspectiveTransform(src, np.float32(corners))
    pts = np.float32(target.outline_mm()).reshape(-1, 1, 2)
    mapped = cv2.perspectiveTransform(pts, homography).reshape(-1, 2)
    return [(float(a), float(b)) for a, b in mapped]


def recognise(gray, table: Mapping[int, Target], factor: float = 1.0, det: Any = None) -> list[Found]:
    """The components of ``table`` in a grey image; coordinates divided by ``factor`` (the photo's).

    A face's copies of its marker count once: the reads are grouped into pieces by where they sit
    (:func:`tally.pieces`)."""
    from .tally import pieces

    reads: list[Found] = []
    for code, quad in find_markers(gray, det=det, reduced=factor < 1):
        target = table.get(code)
        if target is None:
            continue
        quad = [(px / factor, py / factor) for px, py in quad]
        reads.append(Found(target, quad, outline(target, quad), printed=len(target.places)))
    found = pieces(reads)
    found.sort(key=lambda f: (f.centre[1], f.centre[0]))
    return found


def scan_photo(path: str | Path, table: Mapping[int, Target], det: Any = None) -> list[Found]:
    """Read a photo file and recognise the components of ``table`` in it."""
    gray, factor = read_photo(path)
    return recognise(gray, table, factor, det)

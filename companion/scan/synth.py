"""Synthetic table photos built from the print kit's own faces, for the tests and the benchmark.

A scene is a player's components laid out as at a real table: cards and tiles overlapping their
neighbours everywhere but the corner with the marker, tokens around them, and a few unmarked
pieces (characters, backs, map tiles) that must not be reported.  :func:`photo` takes a picture
of it: a camera turned up to 30 degrees, tilted up to 10 % of perspective, at a distance that
shows 36 to 56 cm of table, then blur, sensor noise, uneven light with a shadow, and JPEG at
quality 60 to 95.  The truth (which markers are fully visible) comes with it.  Everything is
drawn from a ``numpy.random.Generator``: a fixed seed gives the same photo.
"""

from __future__ import annotations

import hashlib
import importlib
import math
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Sequence

from ludoteca.cards import Game
from ludoteca.cards import markers

from .targets import Target, targets

#: pixels per mm of the rendered faces (each photo scales them down to its own)
FACE_PX_PER_MM = 10.0
#: the three photo sizes of the benchmark (width, height)
SIZES = {"12MP": (4000, 3000), "3MP": (2000, 1500), "1.2MP": (1280, 960)}


@dataclass
class Face:
    """A face rendered to pixels: RGB, its alpha (discs are round), its size in mm, its target."""

    rgb: Any
    alpha: Any
    size_mm: tuple[float, float]
    target: Target | None


@dataclass
class Item:
    """One piece on the table: a face, its centre (mm) and turn (degrees), in drawing order."""

    face: Face
    centre: tuple[float, float]
    angle: float

    def corners(self, w: float | None = None, h: float | None = None):
        """The face's corners on the table (mm), or those of the box (0, 0, w, h) on the face."""
        import numpy as np
        fw, fh = self.face.size_mm
        box = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], float) if w is None else np.array(w, float)
        return self.to_table(box)

    def to_table(self, pts):
        import numpy as np
        fw, fh = self.face.size_mm
        a = math.radians(self.angle)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return (np.asarray(pts, float) - [fw / 2, fh / 2]) @ rot.T + self.centre

    def marker_squares(self, quiet: bool = True) -> list:
        """Each printed copy of the marker on the table (mm), with its quiet zone when ``quiet``:
        its corners in the marker's own order (clockwise from its top-left as printed)."""
        out = []
        fw, fh = self.face.size_mm
        for x, y, s, turn in markers.places(self.face.target.face, fw, fh):
            q = markers.quiet(s) if quiet else 0.0
            quad = [[x - q, y - q], [x + s + q, y - q], [x + s + q, y + s + q], [x - q, y + s + q]]
            if turn == 180:
                quad = quad[2:] + quad[:2]
            out.append(self.to_table(quad))
        return out

    def marker_square(self, quiet: bool = True):
        """The first copy of the marker on the table (mm), with its quiet zone when ``quiet``."""
        return self.marker_squares(quiet)[0]


@dataclass
class Scene:
    """A player's pieces on the table, in drawing order, and the table area they lie in (mm)."""

    game: str
    items: list[Item] = field(default_factory=list)

    def markers(self) -> list[int]:
        return [i.face.target.marker for i in self.items if i.face.target is not None]


# ------------------------------------------------------------------ faces
_FACES: dict[tuple, Face] = {}


def _render(face, size: tuple[float, float], round_: bool, markers_on: bool = True) -> Face:
    """A generator Face rendered without bleed at FACE_PX_PER_MM (cached on disk by its SVG)."""
    import cv2
    import numpy as np
    from ludoteca.generator import fonts
    from ludoteca.generator.model import Options
    from ludoteca.generator.templating import render
    svg = render(face, size, 0.0, Options(markers=markers_on))
    key = hashlib.sha256(f"{FACE_PX_PER_MM}\0{svg}".encode()).hexdigest()[:20]
    folder = fonts.cache_dir("scan-faces")
    path = folder / f"{key}.png" if folder else None
    rgb = cv2.imread(str(path), cv2.IMREAD_COLOR) if path is not None and path.is_file() else None
    if rgb is None:                   # not drawn yet, or a cache file cut short: draw it
        fonts.configure()
        import cairosvg
        png = cairosvg.svg2png(bytestring=svg.encode(), dpi=FACE_PX_PER_MM * 25.4)
        rgba = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
        rgb = rgba[:, :, :3].copy()
        if rgba.shape[2] == 4:          # transparent parts (none on a face with a background) on white
            a = rgba[:, :, 3:4].astype(np.float32) / 255
            rgb = (rgb * a + 255 * (1 - a)).astype(np.uint8)
        if path is not None:   # a rebuildable cache file: atomic (processes share it), not synced
            from ludoteca import atomic
            atomic.write_bytes(path, cv2.imencode(".png", rgb)[1].tobytes(), durable=False)
    h, w = rgb.shape[:2]
    alpha = np.full((h, w), 255, np.uint8)
    if round_:
        alpha[:] = 0
        cv2.circle(alpha, (w // 2, h // 2), min(w, h) // 2 - 1, 255, -1, cv2.LINE_AA)
    return Face(rgb, alpha, size, None)


def faces(game: Game) -> tuple[list[Face], list[Face]]:
    """The game's marked faces (one per marker) and some unmarked ones, rendered with the kit's
    current marker dictionary (``cards.markers.CODES``)."""
    from ludoteca.generator.model import Options
    table = targets(game)
    module = importlib.import_module(f"ludoteca.generator.games.{game.id}")
    comps = module.components(game, Options())
    marked: dict[int, Face] = {}
    plain: list[Face] = []
    key_codes = (markers.DICTIONARY, markers.BITS, hash(markers.CODES))
    for comp in [part for c in comps for part in (c.parts if c.layout == "pack" else [c])]:
        if comp.layout != "grid" or comp.size_mm[0] <= 0:
            continue
        for k, face in enumerate(comp.fronts):
            number = face.context.get("marker")
            if number is not None and number in table and number not in marked:
                target = table[number]
                cache = (game.id, number, key_codes)
                if cache not in _FACES:
                    _FACES[cache] = _render(face, comp.size_mm, target.round)
                rendered = _FACES[cache]
                marked[number] = Face(rendered.rgb, rendered.alpha, rendered.size_mm, target)
            elif number is None and k == 0 and comp.size_mm[0] >= 30:
                cache = (game.id, comp.id, "plain")
                if cache not in _FACES:
                    _FACES[cache] = _render(face, comp.size_mm, False)
                plain.append(_FACES[cache])
                if comp.backs:
                    cache = (game.id, comp.id, "back")
                    if cache not in _FACES:
                        _FACES[cache] = _render(comp.backs[0], comp.size_mm, False)
                    plain.append(_FACES[cache])
    # dark districts are only in the kit when the data enables them
    for number, target in table.items():
        if number not in marked and target.kind == "dark_district":
            from ludoteca.generator.games import ciudadelas
            colours = {c["id"]: ciudadelas.colour_style(c) for c in game.entries("colour")}
            face = ciudadelas._district_face(target.entry, colours, True)
            cache = (game.id, number, key_codes)
            if cache not in _FACES:
                _FACES[cache] = _render(face, target.size_mm, False)
            r = _FACES[cache]
            marked[number] = Face(r.rgb, r.alpha, r.size_mm, target)
    return [marked[n] for n in sorted(marked)], plain


# ------------------------------------------------------------------ scenes
def _hits(poly_a, poly_b) -> bool:
    """Whether two convex polygons (mm) overlap."""
    import cv2
    import numpy as np
    area, _ = cv2.intersectConvexConvex(np.float32(poly_a), np.float32(poly_b))
    return area > 0.01


def _leaves_a_copy(scene: Scene, poly) -> bool:
    """Whether a piece laid on top at ``poly`` leaves every marked piece on the table one copy of
    its marker that nothing covers."""
    for index, old in enumerate(scene.items):
        if old.face.target is None:
            continue
        later = [item.corners() for item in scene.items[index + 1:]] + [poly]
        if all(any(_hits(p, sq) for p in later) for sq in old.marker_squares()):
            return False
    return True


def _place(scene: Scene, face: Face, rng, anchor: tuple[float, float], spread: float,
           base_angle: float, tries: int = 60) -> bool:
    """Put a face near ``anchor`` so that every marked piece already on the table keeps one copy of
    its marker in sight; False if it found no such place."""
    import numpy as np
    for _ in range(tries):
        centre = (anchor[0] + rng.uniform(-spread, spread), anchor[1] + rng.uniform(-spread, spread))
        item = Item(face, centre, base_angle + rng.uniform(-12, 12))
        poly = item.corners()
        if not _leaves_a_copy(scene, poly):
            continue
        if np.abs(np.asarray(poly)).max() > 400:
            continue
        scene.items.append(item)
        return True
    return False


def scene(game: Game, rng, marked: Sequence[Face], plain: Sequence[Face],
          pieces: Sequence[Face] | None = None) -> Scene:
    """An end-of-game layout of one player's pieces (centred on the origin, mm): ``pieces`` when
    given (cards and tiles in overlapping rows, tokens around them), else a random choice."""
    out = Scene(game.id)
    big = [f for f in marked if max(f.size_mm) >= 30]
    small = [f for f in marked if max(f.size_mm) < 30]
    if pieces is not None:
        chosen = [f for f in pieces if max(f.size_mm) >= 30]
        tokens = [f for f in pieces if max(f.size_mm) < 30]
    else:
        chosen = [big[int(i)] for i in rng.integers(0, len(big), int(rng.integers(5, 12)))]
        tokens = [small[int(rng.integers(0, len(small)))] for _ in range(int(rng.integers(3, 9)))] if small else []
    base = rng.uniform(-10, 10)
    # rows of overlapping pieces: each new one lands over the right or lower part of the last
    w0, h0 = chosen[0].size_mm if chosen else (30.0, 30.0)
    x, y = -2.2 * w0, -0.6 * h0
    row_start = x
    for face in chosen:
        w, h = face.size_mm
        placed = _place(out, face, rng, (x, y), 3.0, base) or _place(out, face, rng, (x, y + 0.5 * h), 0.6 * w, base)
        if not placed and pieces is not None:
            raise ValueError(f"no room on the table for {face.target.id}")
        x += w * rng.uniform(0.3, 0.45)
        if x > row_start + 3.5 * w:
            x = row_start + rng.uniform(-5, 5)
            y += h * rng.uniform(0.3, 0.45)
    extras = [p for p in plain]
    for _ in range(int(rng.integers(1, 4))):
        if extras:
            face = extras[int(rng.integers(0, len(extras)))]
            _place(out, face, rng, (rng.uniform(-150, 150), rng.uniform(90, 130) * rng.choice([-1, 1])),
                   30, rng.uniform(-40, 40))
    for face in tokens:
        placed = _place(out, face, rng, (rng.uniform(-170, 170), rng.uniform(-120, 120)), 25, rng.uniform(-180, 180))
        if not placed and pieces is not None:
            raise ValueError(f"no room on the table for {face.target.id}")
    return out


#: the layouts of :func:`table_scene` and which piece lies on top where two overlap
LAYOUTS = ("row", "column", "fan")
OVERS = ("next_on_top", "next_below")


def table_scene(game: Game, rng, marked: Sequence[Face], others: Sequence[Face], layout: str,
                over: str, overlap: float) -> Scene:
    """A player's pieces laid as players lay them: cards or tiles in a ``layout`` (rows, columns
    or a fan) where each covers ``overlap`` of the last (``over``: the next one lies on top of the
    last or slides under it), tokens around them, and ``others`` (unmarked pieces, other codes)
    on the table as well."""
    out = Scene(game.id)
    big = [f for f in marked if max(f.size_mm) >= 30]
    small = [f for f in marked if max(f.size_mm) < 30]
    chosen = [big[int(i)] for i in rng.integers(0, len(big), int(rng.integers(5, 10)))]
    w, h = chosen[0].size_mm
    base = rng.uniform(-8, 8)
    laid: list[Item] = []
    if layout == "fan":
        pivot = (0.0, 1.1 * h)
        step = math.degrees(2 * math.asin(min(0.9, (1 - overlap) * w / (2 * 1.6 * h))))
        for k, face in enumerate(chosen):
            a = base + (k - (len(chosen) - 1) / 2) * step
            r = math.radians(a)
            centre = (pivot[0] + 1.6 * h * math.sin(r) - 0 * h, pivot[1] - 1.6 * h * math.cos(r))
            laid.append(Item(face, centre, a + rng.uniform(-2, 2)))
    else:
        per_line = 5
        for k, face in enumerate(chosen):
            line, pos = divmod(k, per_line)
            if layout == "row":
                x = (pos - per_line / 2) * w * (1 - overlap)
                y = (line - 0.5) * h * 1.12
            else:
                x = (line - 0.5) * w * 1.15
                y = (pos - per_line / 2) * h * (1 - overlap) - h * 0.3
            laid.append(Item(face, (x + rng.uniform(-1.5, 1.5), y + rng.uniform(-1.5, 1.5)),
                             base + rng.uniform(-3, 3)))
    if over == "next_below":
        laid.reverse()
    out.items.extend(laid)
    tokens = [small[int(rng.integers(0, len(small)))] for _ in range(int(rng.integers(2, 6)))] if small else []
    for face in tokens:
        _place(out, face, rng, (rng.uniform(-150, 150), rng.choice([-1, 1]) * rng.uniform(100, 130)), 30,
               rng.uniform(-180, 180))
    for face in others:
        _place(out, face, rng, (rng.uniform(-170, 170), rng.choice([-1, 1]) * rng.uniform(100, 140)), 40,
               rng.uniform(-60, 60))
    return out


def fiducials(rng, n: int) -> list[Face]:
    """Printed codes that are not ours: other ArUco and AprilTag families, a chessboard, a QR-like
    square, each on white paper, 12 to 30 mm."""
    import cv2
    import numpy as np
    aruco = cv2.aruco
    out = []
    kinds = ["DICT_5X5_100", "DICT_6X6_50", "DICT_APRILTAG_16h5", "DICT_APRILTAG_36h11", "chess", "qr"]
    for _ in range(n):
        kind = kinds[int(rng.integers(0, len(kinds)))]
        side = float(rng.uniform(12, 30))
        px = int(side * FACE_PX_PER_MM)
        if kind == "chess":
            cells = int(rng.integers(5, 9))
            board = (np.indices((cells, cells)).sum(0) % 2 * 255).astype(np.uint8)
            img = cv2.resize(board, (px, px), interpolation=cv2.INTER_NEAREST)
        elif kind == "qr":
            mods = 25
            grid = (rng.uniform(0, 1, (mods, mods)) > 0.5).astype(np.uint8) * 255
            for oy, ox in ((0, 0), (0, mods - 7), (mods - 7, 0)):
                finder = np.zeros((7, 7), np.uint8)
                finder[1:6, 1:6] = 255
                finder[2:5, 2:5] = 0
                grid[oy:oy + 7, ox:ox + 7] = finder
            img = cv2.resize(grid, (px, px), interpolation=cv2.INTER_NEAREST)
        else:
            d = aruco.getPredefinedDictionary(getattr(aruco, kind))
            img = aruco.generateImageMarker(d, int(rng.integers(0, min(30, d.bytesList.shape[0]))), px)
        margin = max(2, px // 8)
        img = cv2.copyMakeBorder(img, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=255)
        rgb = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        size = img.shape[1] / FACE_PX_PER_MM
        out.append(Face(rgb, np.full(img.shape, 255, np.uint8), (size, size), None))
    return out


def unmarked(game: Game, count: int = 4) -> list[Face]:
    """Some of the game's marked faces printed without markers (``--no-markers``): our own art,
    which must never read as a component."""
    from ludoteca.generator.model import Options
    table = targets(game)
    module = importlib.import_module(f"ludoteca.generator.games.{game.id}")
    found = [(face, comp.size_mm) for comp in module.components(game, Options())
             if comp.layout == "grid" and comp.size_mm[0] >= 30
             for face in comp.fronts if face.context.get("marker") in table]
    out: list[Face] = []
    for face, size in found[::max(1, len(found) // count)][:count]:
        cache = (game.id, face.context.get("marker"), "unmarked")
        if cache not in _FACES:
            _FACES[cache] = _render(face, size, False, markers_on=False)
        out.append(_FACES[cache])
    return out


# ------------------------------------------------------------------ the camera
@dataclass
class Truth:
    """What a photo shows.  ``visible``: the marker of each component with at least one printed
    copy fully in the frame and unhidden; ``hidden``: the components with none; ``corners``: the
    black squares (px) of those visible copies, by marker."""

    visible: list[int]
    hidden: list[int]
    corners: dict[int, list] = field(default_factory=dict)


@dataclass
class View:
    """How a photo is taken: from a seat (tilt from straight down, degrees), how much table the
    middle of the frame shows (mm), the camera's roll, and what spoils the picture."""

    tilt: float = 0.0
    width_mm: float = 450.0
    roll: float = 0.0
    blur: str = "none"          # none | depth (a shallow focus) | shake (a moving hand)
    light: str = "even"         # even | shadow | glare | warm (warm, dim light)
    washed: bool = False        # a washed-out inkjet print: blacks printed grey
    quality: int = 80           # JPEG quality

    def label(self) -> dict[str, str]:
        band = next(b for b in TILTS if self.tilt < b[1])
        return {"tilt": f"{band[0]}-{band[1]}°", "blur": self.blur, "light": self.light,
                "print": "washed" if self.washed else "good"}


#: the tilt bands the benchmark reports by
TILTS = ((0, 15), (15, 30), (30, 40), (40, 45), (45, 50))


def seated(rng, tilt: tuple[float, float] = (0.0, 50.0)) -> View:
    """A random photo from a seat at the table: tilt drawn in ``tilt``, and the rest."""
    return View(tilt=float(rng.uniform(*tilt)), width_mm=float(rng.uniform(380, 560)),
                roll=float(rng.uniform(-12, 12)),
                blur=str(rng.choice(["none", "depth", "shake"], p=[0.4, 0.35, 0.25])),
                light=str(rng.choice(["even", "shadow", "glare", "warm"], p=[0.25, 0.25, 0.25, 0.25])),
                washed=bool(rng.uniform() < 0.25), quality=int(rng.integers(55, 86)))


def seated_camera(view: View, size: tuple[int, int]):
    """The homography from the table (mm, the scene's origin in the middle of the frame) to the
    photo's pixels of a pinhole camera 64 degrees wide tilted ``view.tilt`` from straight down."""
    import numpy as np
    W, H = size
    f = (W / 2) / math.tan(math.radians(32))
    d = view.width_mm / (2 * math.tan(math.radians(32)))
    t = math.radians(view.tilt)
    forward = np.array([0.0, math.sin(t), -math.cos(t)])
    right = np.array([1.0, 0.0, 0.0])
    down = np.cross(forward, right)
    rot = np.stack([right, down, forward])
    centre = -d * forward
    k = np.array([[f, 0, W / 2], [0, f, H / 2], [0, 0, 1]])
    h = k @ np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre])
    r = math.radians(view.roll)
    roll = np.array([[math.cos(r), -math.sin(r), W / 2 * (1 - math.cos(r)) + H / 2 * math.sin(r)],
                     [math.sin(r), math.cos(r), H / 2 * (1 - math.cos(r)) - W / 2 * math.sin(r)], [0, 0, 1]])
    # the table's y runs away from the seat: flip it so that a face's top is away from the seat
    flip = np.diag([1.0, -1.0, 1.0])
    return roll @ h @ flip


def frame_all(sc: Scene, view: View, size: tuple[int, int], margin: float = 0.04) -> None:
    """Centre a scene and widen ``view`` until every piece is in the frame, as a player frames all
    their pieces in one photo."""
    import cv2
    import numpy as np
    pts = np.concatenate([item.corners() for item in sc.items])
    shift = (pts.min(0) + pts.max(0)) / 2
    for item in sc.items:
        item.centre = (item.centre[0] - shift[0], item.centre[1] - shift[1])
    pts = pts - shift
    W, H = size
    for _ in range(40):
        seen = cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), seated_camera(view, size)).reshape(-1, 2)
        low, high = [margin * W, margin * H], [(1 - margin) * W, (1 - margin) * H]
        if (seen.min(0) >= low).all() and (seen.max(0) <= high).all():
            return
        view.width_mm *= 1.06


def photo(
    sc: Scene,
    size: tuple[int, int],
    rng,
    quality: int | None = None,
    table_mm: float | None = None,
    view: View | None = None,
) -> tuple[bytes, Truth]:
    """A JPEG photo of a scene at ``size`` pixels, and what it truly shows.  Without ``view``: a
    camera nearly overhead; with it, that view (:func:`seated`) and what spoils it."""
    import cv2
    import numpy as np

    W, H = size
    if view is None:
        width_mm = table_mm if table_mm is not None else rng.uniform(360, 560)
        ppm = W / width_mm
        # camera: turn, scale, then perspective (each corner moved up to 10 % of the frame)
        turn = math.radians(rng.uniform(-30, 30))
        c, s = math.cos(turn), math.sin(turn)
        affine = np.array([[ppm * c, -ppm * s, W / 2], [ppm * s, ppm * c, H / 2], [0, 0, 1]])
        frame = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
        jitter = frame + np.float32(rng.uniform(-0.05, 0.05, (4, 2)) * [W, H])
        persp = cv2.getPerspectiveTransform(frame, jitter)
        camera = persp @ affine
    else:
        camera = seated_camera(view, size)
    # the table: a wood-like colour with slow stains and a fine grain
    tone = np.array([rng.uniform(60, 140), rng.uniform(90, 160), rng.uniform(120, 200)], np.float32)
    low = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)
    img = np.empty((H, W, 3), np.float32)
    img[:] = tone
    img *= (1 + 0.12 * low)[:, :, None]
    grain = cv2.resize(rng.normal(0, 6, (H // 4, W // 4)).astype(np.float32), (W, H))
    cv2.add(img, cv2.merge([grain, grain, grain]), dst=img)
    owner = np.full((H, W), -1, np.int32)
    for index, item in enumerate(sc.items):
        face = item.face
        dst = cv2.perspectiveTransform(np.float32(item.corners()).reshape(-1, 1, 2), camera).reshape(4, 2)
        x0, y0 = np.floor(dst.min(0)).astype(int) - 2
        x1, y1 = np.ceil(dst.max(0)).astype(int) + 2
        x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if x0c >= x1c or y0c >= y1c:
            continue
        # pre-scale the face near its largest size in the photo, then warp (no aliasing)
        rgb, alpha = face.rgb, face.alpha
        seen = max(np.hypot(*(dst[i] - dst[(i + 1) % 4])) / (face.size_mm[i % 2] * FACE_PX_PER_MM) for i in range(4))
        k = min(1.0, 1.2 * seen)
        if k < 1.0:
            rgb = cv2.resize(rgb, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
            alpha = cv2.resize(alpha, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        if view is not None and view.washed:
            rgb = cv2.convertScaleAbs(rgb, alpha=0.7, beta=255 * 0.3)
        fh_px, fw_px = rgb.shape[:2]
        src = np.float32([[0, 0], [fw_px, 0], [fw_px, fh_px], [0, fh_px]])
        m = cv2.getPerspectiveTransform(src, np.float32(dst - [x0c, y0c]))
        roi = (x1c - x0c, y1c - y0c)
        warped = cv2.warpPerspective(rgb, m, roi, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        a = cv2.warpPerspective(alpha, m, roi, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
        # a soft contact shadow under the piece
        ppm_here = seen * FACE_PX_PER_MM
        small = cv2.resize(a, (max(1, roi[0] // 4), max(1, roi[1] // 4)), interpolation=cv2.INTER_AREA)
        sh = cv2.resize(cv2.GaussianBlur(small, (0, 0), max(0.5, ppm_here * 0.2)), roi)
        view_px = img[y0c:y1c, x0c:x1c]
        view_px *= (1 - 0.35 * sh * (1 - a))[:, :, None]
        view_px[:] = view_px * (1 - a[:, :, None]) + warped.astype(np.float32) * a[:, :, None]
        owner[y0c:y1c, x0c:x1c][a > 0.5] = index
    # uneven light: a slow gradient and one soft shadow across the table
    yy, xx = np.mgrid[0:H:8, 0:W:8].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1 + rng.uniform(0.1, 0.35) * (gx * (xx / W - 0.5) + gy * (yy / H - 0.5)) * 2
    shade = np.zeros_like(light)
    p = np.float32(rng.uniform(0, 1, (4, 2)) * [W / 8, H / 8])
    cv2.fillConvexPoly(shade, cv2.convexHull(p).astype(np.int32), 1.0)
    shade = cv2.GaussianBlur(shade, (0, 0), 6)
    deep = 0.55 if view is not None and view.light == "shadow" else 0.45
    light *= 1 - rng.uniform(0.2, deep) * shade
    light = cv2.resize(light.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(img, cv2.merge([light, light, light]), dst=img)
    if view is not None:
        img = _spoil_light(img, view, rng)
    # lens blur, sensor noise, JPEG
    sigma = rng.uniform(0.3, 1.1) * W / 2000 + 0.25
    out = cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), sigma)
    if view is not None and view.blur != "none":
        out = _spoil_focus(out, view, rng, W)
    noise = np.empty((H, W), np.int16)
    cv2.setRNGSeed(int(rng.integers(0, 2**31)))
    noise_sd = float(rng.uniform(2, 7)) * (1.8 if view is not None and view.light == "warm" else 1.0)
    cv2.randn(noise, 0, noise_sd)
    out = cv2.add(out, cv2.merge([noise, noise, noise]), dtype=cv2.CV_8U)
    if view is not None:
        q = view.quality
    else:
        q = int(quality if quality is not None else rng.integers(60, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    # the truth: a marker counts as visible when its black square and quiet zone are in the frame
    # and no later piece lies on them
    visible, hidden, corners = [], [], {}
    for index, item in enumerate(sc.items):
        if item.face.target is None:
            continue
        number = item.face.target.marker
        seen_any = False
        for sq_mm, black_mm in zip(item.marker_squares(), item.marker_squares(False)):
            sq = cv2.perspectiveTransform(np.float32(sq_mm).reshape(-1, 1, 2), camera).reshape(4, 2)
            black = cv2.perspectiveTransform(np.float32(black_mm).reshape(-1, 1, 2), camera).reshape(4, 2)
            inside = (sq.min() >= 1) and (sq[:, 0].max() < W - 1) and (sq[:, 1].max() < H - 1)
            clear = inside
            if inside:
                x0, y0 = np.floor(sq.min(0)).astype(int)
                x1, y1 = np.ceil(sq.max(0)).astype(int) + 1
                mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
                cv2.fillConvexPoly(mask, (sq - [x0, y0]).astype(np.int32), 1)
                clear = bool((owner[y0:y1, x0:x1][mask > 0] == index).mean() > 0.97)
            if clear:
                seen_any = True
                corners.setdefault(number, []).append(black.tolist())
        (visible if seen_any else hidden).append(number)
    return buf.tobytes(), Truth(visible, hidden, corners)


def _spoil_light(img, view: View, rng):
    """Glare (a washed-out bright patch) or warm, dim light over a photo in float BGR."""
    import cv2
    import numpy as np

    H, W = img.shape[:2]
    if view.light == "glare":
        blob = np.zeros((H // 8, W // 8), np.float32)
        cx, cy = rng.uniform(0.2, 0.8) * W / 8, rng.uniform(0.2, 0.8) * H / 8
        cv2.ellipse(
            blob,
            (int(cx), int(cy)),
            (int(rng.uniform(0.05, 0.15) * W / 8), int(rng.uniform(0.03, 0.1) * H / 8)),
            float(rng.uniform(0, 180)),
            0,
            360,
            1.0,
            -1,
        )
        blob = cv2.GaussianBlur(blob, (0, 0), W / 8 * 0.03)
        blob = cv2.resize(blob, (W, H)) * float(rng.uniform(0.6, 0.95))
        img = img + (255 - img) * blob[:, :, None]
    elif view.light == "warm":
        img = img * np.float32([0.55, 0.75, 0.95]) * float(rng.uniform(0.55, 0.8))
    return img


def _spoil_focus(out, view: View, rng, W: int):
    """Depth blur (sharp in one band, softer away from it) or the streak of a moving hand."""
    import cv2
    import numpy as np

    H = out.shape[0]
    if view.blur == "depth":
        far = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(1.0, 2.2)) * W / 2000)
        focus = rng.uniform(0.35, 0.65) * H
        ramp = np.clip(np.abs(np.arange(H, dtype=np.float32) - focus) / (0.45 * H), 0, 1)[:, None, None]
        return (out * (1 - ramp) + far * ramp).astype(np.uint8)
    length = max(3, int(rng.uniform(1.0, 3.0) * W / 2000))
    kernel = np.zeros((length, length), np.float32)
    angle = rng.uniform(0, math.pi)
    c = (length - 1) / 2
    cv2.line(
        kernel,
        (int(c - c * math.cos(angle)), int(c - c * math.sin(angle))),
        (int(c + c * math.cos(angle)), int(c + c * math.sin(angle))),
        1.0,
        1,
    )
    return cv2.filter2D(out, -1, kernel / kernel.sum())

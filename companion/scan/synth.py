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
from typing import Any, Sequence

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

    def marker_square(self, quiet: bool = True):
        """The marker's square on the table (mm), with its quiet zone when ``quiet``."""
        x, y, s = self.face.target.place
        q = markers.quiet(s) if quiet else 0.0
        return self.to_table([[x - q, y - q], [x + s + q, y - q], [x + s + q, y + s + q], [x - q, y + s + q]])


@dataclass
class Scene:
    """A player's pieces on the table, in drawing order, and the table area they lie in (mm)."""

    game: str
    items: list[Item] = field(default_factory=list)

    def markers(self) -> list[int]:
        return [i.face.target.marker for i in self.items if i.face.target is not None]


# ------------------------------------------------------------------ faces
_FACES: dict[tuple, Face] = {}


def _render(face, size: tuple[float, float], round_: bool) -> Face:
    """A generator Face rendered without bleed at FACE_PX_PER_MM (cached on disk by its SVG)."""
    import cv2
    import numpy as np
    from ludoteca.generator import fonts
    from ludoteca.generator.model import Options
    from ludoteca.generator.templating import render
    svg = render(face, size, 0.0, Options())
    key = hashlib.sha256(f"{FACE_PX_PER_MM}\0{svg}".encode()).hexdigest()[:20]
    folder = fonts.cache_dir("scan-faces")
    path = folder / f"{key}.png" if folder else None
    if path is not None and path.is_file():
        rgb = cv2.imread(str(path), cv2.IMREAD_COLOR)
    else:
        fonts.configure()
        import cairosvg
        png = cairosvg.svg2png(bytestring=svg.encode(), dpi=FACE_PX_PER_MM * 25.4)
        rgba = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
        rgb = rgba[:, :, :3].copy()
        if rgba.shape[2] == 4:          # transparent parts (none on a face with a background) on white
            a = rgba[:, :, 3:4].astype(np.float32) / 255
            rgb = (rgb * a + 255 * (1 - a)).astype(np.uint8)
        if path is not None:
            tmp = path.with_suffix(".tmp.png")
            cv2.imwrite(str(tmp), rgb)
            tmp.replace(path)
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
    for comp in comps:
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


def _place(scene: Scene, face: Face, rng, anchor: tuple[float, float], spread: float,
           base_angle: float, tries: int = 60) -> bool:
    """Put a face near ``anchor`` so that it hides no marker already on the table; False if it
    found no such place."""
    import numpy as np
    for _ in range(tries):
        centre = (anchor[0] + rng.uniform(-spread, spread), anchor[1] + rng.uniform(-spread, spread))
        item = Item(face, centre, base_angle + rng.uniform(-12, 12))
        poly = item.corners()
        if any(_hits(poly, old.marker_square()) for old in scene.items if old.face.target):
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
    for k, face in enumerate(chosen):
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


# ------------------------------------------------------------------ the camera
@dataclass
class Truth:
    """What a photo shows: every marker fully in the frame and unhidden, with its corners (px)."""

    visible: list[int]
    hidden: list[int]
    corners: dict[int, list] = field(default_factory=dict)


def photo(sc: Scene, size: tuple[int, int], rng, quality: int | None = None,
          table_mm: float | None = None) -> tuple[bytes, Truth]:
    """A JPEG photo of a scene at ``size`` pixels, and what it truly shows."""
    import cv2
    import numpy as np
    W, H = size
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
        fw, fh = face.size_mm
        # pre-scale the face near its size in the photo, then warp (no aliasing)
        target_ppm = ppm * 1.2
        k = min(1.0, target_ppm / FACE_PX_PER_MM)
        rgb, alpha = face.rgb, face.alpha
        if k < 1.0:
            rgb = cv2.resize(rgb, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
            alpha = cv2.resize(alpha, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        fh_px, fw_px = rgb.shape[:2]
        src = np.float32([[0, 0], [fw_px, 0], [fw_px, fh_px], [0, fh_px]])
        dst = cv2.perspectiveTransform(np.float32(item.corners()).reshape(-1, 1, 2), camera).reshape(4, 2)
        x0, y0 = np.floor(dst.min(0)).astype(int) - 2
        x1, y1 = np.ceil(dst.max(0)).astype(int) + 2
        x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if x0c >= x1c or y0c >= y1c:
            continue
        m = cv2.getPerspectiveTransform(src, np.float32(dst - [x0c, y0c]))
        roi = (x1c - x0c, y1c - y0c)
        warped = cv2.warpPerspective(rgb, m, roi, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        a = cv2.warpPerspective(alpha, m, roi, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
        # a soft contact shadow under the piece
        small = cv2.resize(a, (max(1, roi[0] // 4), max(1, roi[1] // 4)), interpolation=cv2.INTER_AREA)
        sh = cv2.resize(cv2.GaussianBlur(small, (0, 0), max(0.5, ppm * 0.2)), roi)
        view = img[y0c:y1c, x0c:x1c]
        view *= (1 - 0.35 * sh * (1 - a))[:, :, None]
        view[:] = view * (1 - a[:, :, None]) + warped.astype(np.float32) * a[:, :, None]
        owner[y0c:y1c, x0c:x1c][a > 0.5] = index
    # uneven light: a slow gradient and one soft shadow across the table
    yy, xx = np.mgrid[0:H:8, 0:W:8].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1 + rng.uniform(0.1, 0.35) * (gx * (xx / W - 0.5) + gy * (yy / H - 0.5)) * 2
    shade = np.zeros_like(light)
    p = np.float32(rng.uniform(0, 1, (4, 2)) * [W / 8, H / 8])
    cv2.fillConvexPoly(shade, cv2.convexHull(p).astype(np.int32), 1.0)
    shade = cv2.GaussianBlur(shade, (0, 0), 6)
    light *= 1 - rng.uniform(0.2, 0.45) * shade
    light = cv2.resize(light.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(img, cv2.merge([light, light, light]), dst=img)
    # lens blur, sensor noise, JPEG
    sigma = rng.uniform(0.3, 1.1) * W / 2000 + 0.25
    out = cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), sigma)
    noise = np.empty((H, W), np.int16)
    cv2.setRNGSeed(int(rng.integers(0, 2 ** 31)))
    cv2.randn(noise, 0, float(rng.uniform(2, 7)))
    out = cv2.add(out, cv2.merge([noise, noise, noise]), dtype=cv2.CV_8U)
    q = int(quality if quality is not None else rng.integers(60, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    # the truth: a marker counts as visible when its black square and quiet zone are in the frame
    # and no later piece lies on them
    visible, hidden, corners = [], [], {}
    for index, item in enumerate(sc.items):
        if item.face.target is None:
            continue
        number = item.face.target.marker
        sq = cv2.perspectiveTransform(np.float32(item.marker_square()).reshape(-1, 1, 2), camera).reshape(4, 2)
        black = cv2.perspectiveTransform(np.float32(item.marker_square(False)).reshape(-1, 1, 2), camera).reshape(4, 2)
        inside = (sq.min() >= 1) and (sq[:, 0].max() < W - 1) and (sq[:, 1].max() < H - 1)
        clear = inside
        if inside:
            x0, y0 = np.floor(sq.min(0)).astype(int)
            x1, y1 = np.ceil(sq.max(0)).astype(int) + 1
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillConvexPoly(mask, (sq - [x0, y0]).astype(np.int32), 1)
            clear = bool((owner[y0:y1, x0:x1][mask > 0] == index).mean() > 0.97)
        (visible if clear else hidden).append(number)
        corners.setdefault(number, []).append(black.tolist())
    return buf.tobytes(), Truth(visible, hidden, corners)

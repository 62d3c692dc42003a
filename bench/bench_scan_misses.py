"""Why the scanner misses markers on seated photos, and whether it reads markers that are not there.

``misses``: the seated benchmark's photos (bench_scan.run_seated, same seeds, same photos), and for
every printed copy of a marker that the photo shows unhidden but whose component was not found:
its size as seen (photo px per cell), skew (longest over shortest side), the photo's blur and light
and a local contrast and sharpness, how many of its printed copies the photo shows, and what became
of it in the detector: no candidate square at all, a square the detector decoded as another code,
a square our own reading refused (and which check: candidate read "corr"/"ratio", the size and shape
check "shape", the quiet-zone and cell checks "contrast"/"ring"/"spread"/"bits"), or read but lost
later (joined to another copy).  Prints counts by cause and by condition; writes a JSON of every miss.

``false``: photos from a seat holding no scoring piece at all, only other printed codes (ArUco 4x4
codes outside our dictionary, 5x5 and 6x6, AprilTag, chessboards, QR-like squares), unmarked pieces
and our own art printed without markers: every component reported is false.

``cpu``: decode + detection CPU per photo on one core of this tree's detector against another
copy of detect.py (``--base``, e.g. main's), paired photo by photo.

    python bench/bench_scan_misses.py misses --seed 7 --photos 34
    python bench/bench_scan_misses.py false --photos 13          # 13 a game x 3 resolutions
    python bench/bench_scan_misses.py cpu --photos 6 --base /work/main/companion/scan/detect.py
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
import time
import zlib
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_scan  # noqa: E402

GAMES = ("ciudadelas", "el_mapa", "gladiadores")


def _near(quads, centre, side: float):
    """The quads (any order) whose centre lies within half ``side`` of ``centre``."""
    import numpy as np
    return [q for q in quads if float(np.hypot(*(np.asarray(q, float).reshape(4, 2).mean(0) - centre))) < side / 2]


def _local(gray, quad):
    """Contrast (5-95 % grey range) and sharpness (the largest grey step per cell over that range)
    in a marker's square, in the grey image it was read from."""
    import cv2
    import numpy as np
    q = np.asarray(quad, np.float32)
    x0, y0 = np.maximum(np.floor(q.min(0)).astype(int), 0)
    x1, y1 = np.ceil(q.max(0)).astype(int) + 1
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    if patch.size < 4:
        return 0.0, 0.0, 0.0
    mask = np.zeros(patch.shape, np.uint8)
    cv2.fillConvexPoly(mask, (q - [x0, y0]).astype(np.int32), 1)
    vals = patch[mask > 0]
    lo, hi = np.percentile(vals, [5, 95])
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3) / 8
    grad = float(np.percentile(np.hypot(gx, gy)[mask > 0], 98))
    cell = float(np.mean([np.hypot(*(q[i] - q[(i + 1) % 4])) for i in range(4)])) / 6
    return float(hi - lo), float(vals.mean()), grad * cell / max(1.0, float(hi - lo))


def explain(gray, factor: float, det, number: int, copy_corners, found_markers) -> dict:
    """What became of one unhidden copy of a missed marker (corners in the photo's pixels)."""
    import numpy as np
    from ludoteca.companion.scan import detect
    trace: dict = {}
    detect.find_markers(gray, det=det, trace=trace)
    work, scale = trace["work"], trace["scale"]
    quad = np.asarray(copy_corners, float) * factor * scale
    centre = quad.mean(0)
    sides = [float(np.hypot(*(quad[i] - quad[(i + 1) % 4]))) for i in range(4)]
    side = float(np.mean(sides))
    photo_cell = side / scale / factor / 6
    contrast, mean, sharp = _local(work, quad)
    row = {"px_per_cell": round(photo_cell, 2), "skew": round(max(sides) / min(sides), 2),
           "contrast": round(contrast, 1), "mean": round(mean, 1), "sharpness": round(sharp, 2)}
    decoded = [(c, q) for c, q in trace["decoded"] if _near([q], centre, side)]
    refused = [(c, q, why) for c, q, why in trace["refused"] if _near([q], centre, side)]
    rejected = _near(trace["rejected"], centre, side)
    if any(c == number for c, _q, _w in refused):
        row["stage"] = "refused:" + next(w for c, _q, w in refused if c == number)
    elif any(c == number for c, _q in decoded):
        row["stage"] = "read-then-lost"
    elif decoded:
        row["stage"] = f"decoded-wrong:{decoded[0][0]}"
    elif refused:
        row["stage"] = f"read-wrong:{refused[0][0]}:{refused[0][2]}"
    elif rejected:
        whys = []
        for q in rejected:
            r = detect.read_candidate(work, q)
            whys.append(r if isinstance(r, str) else f"wrong:{r[0]}" if r[0] != number else "read")
        row["stage"] = "candidate:" + (sorted(whys)[0] if whys else "?")
        def err(q) -> float:
            q = np.asarray(q, float).reshape(4, 2)
            return min(float(np.abs(np.roll(c, k, 0) - quad).max()) for c in (q, q[::-1]) for k in range(4))
        row["candidate_corner_err"] = round(min(err(q) for q in rejected) / scale / factor, 2)
    else:
        row["stage"] = "no-candidate"
    return row


def misses(photos: int, seed: int, sizes: list[str], out: Path) -> list[dict]:
    """Run the seated benchmark and explain each unhidden copy of every missed marker."""
    from ludoteca.companion.scan import detect, synth
    last: dict = {}
    real_photo, real_scan = synth.photo, detect.scan_photo
    dump: list[dict] = []

    def photo(scene, size, rng, *a, view=None, **kw):
        jpg, truth = real_photo(scene, size, rng, *a, view=view, **kw)
        last.update(truth=truth, view=view, size=size, game=scene.game)
        return jpg, truth

    def scan_photo(path, table, det=None):
        found = real_scan(path, table, det)
        truth, view = last["truth"], last["view"]
        got = Counter(f.marker for f in found)
        missed = Counter(truth.visible) - got
        if missed:
            gray, factor = detect.read_photo(path)
            res = next(k for k, v in synth.SIZES.items() if tuple(v) == tuple(last["size"]))
            for number in missed:
                copies = truth.corners.get(number, [])
                for corners in copies:
                    row = explain(gray, factor, det, number, corners, got)
                    row.update(game=last["game"], photo=Path(path).stem, marker=number, id=table[number].id,
                               kind=table[number].kind, copies_seen=len(copies),
                               printed=len(table[number].places), resolution=res, **view.label(),
                               tilt_deg=round(view.tilt, 1))
                    dump.append(row)
        return found

    synth.photo, detect.scan_photo = photo, scan_photo
    try:
        r = bench_scan.run_seated(photos, seed, sizes)
    finally:
        synth.photo, detect.scan_photo = real_photo, real_scan
    rows = r["rows"]
    hit = sum(x["found"] for x in rows)
    vis = sum(x["visible"] for x in rows)
    print(f"{len(rows)} photos, seed {seed}: {hit}/{vis} = {100 * hit / vis:.1f} % found, "
          f"{sum(x['false'] for x in rows)} false; {len(dump)} unhidden copies of missed markers\n")
    _counts("stage", dump)
    for cond, edges in (("px_per_cell", (2, 2.5, 3, 4, 6, 99)), ("skew", (1, 1.3, 1.6, 2, 2.5, 99)),
                        ("contrast", (0, 30, 60, 90, 130, 999)), ("sharpness", (0, 0.3, 0.5, 0.8, 1.2, 99))):
        print(f"by {cond}:")
        for lo, hi in zip(edges, edges[1:]):
            group = [d for d in dump if lo <= d[cond] < hi]
            if group:
                top = Counter(":".join(d["stage"].split(":")[:2]) for d in group).most_common(3)
                print(f"  {lo:>5}-{hi:<5} {len(group):4d}  {top}")
    for cond in ("kind", "blur", "light", "resolution", "tilt", "print"):
        print(f"by {cond}:")
        for value, n in sorted(Counter(d[cond] for d in dump).items()):
            print(f"  {value:22} {n:4d}")
    out.write_text(json.dumps({"seed": seed, "photos": len(rows), "found": hit, "visible": vis, "misses": dump},
                              indent=1, ensure_ascii=False))
    print(f"\nwritten {out}")
    return dump


def _counts(key: str, dump: list[dict]) -> None:
    print(f"by {key}:")
    for value, n in Counter(d[key] for d in dump).most_common():
        print(f"  {value:34} {n:4d}")
    print()


def other_codes(rng, n: int) -> list:
    """Printed codes that are not ours (synth.fiducials) and as many ArUco 4x4 codes outside our
    dictionary (the same grid, ids 100-999 of the 1,000 set), on white paper, 12 to 30 mm."""
    import cv2
    import numpy as np
    from ludoteca.companion.scan import synth
    out = synth.fiducials(rng, n)
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_1000)
    for _ in range(n):
        px = int(float(rng.uniform(12, 30)) * synth.FACE_PX_PER_MM)
        img = cv2.aruco.generateImageMarker(d, int(rng.integers(100, 1000)), px)
        img = cv2.copyMakeBorder(img, px // 6, px // 6, px // 6, px // 6, cv2.BORDER_CONSTANT, value=255)
        size = img.shape[1] / synth.FACE_PX_PER_MM
        out.append(synth.Face(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), np.full(img.shape, 255, np.uint8),
                              (size, size), None))
    return out


def false_reads(photos: int, seed: int, sizes: list[str]) -> int:
    """Seated photos of tables holding only other codes, unmarked pieces and unmarked art: the
    components reported (every one false), per game and resolution."""
    import cv2
    import numpy as np
    from ludoteca.cards import load
    from ludoteca.companion.scan import detect, synth, targets
    cv2.setNumThreads(1)
    catalog = load()
    det = detect.detector()
    tmp = Path(tempfile.mkdtemp(prefix="bench-scan-false-"))
    total, count = 0, 0
    for game_id in GAMES:
        game = catalog[game_id]
        table = targets.targets(game)
        _marked, plain = synth.faces(game)
        art = synth.unmarked(game, 4)
        for k in range(photos):
            s = seed + 1000 * k + zlib.crc32(game_id.encode()) % 997
            rng = np.random.default_rng(s)
            pieces = list(plain) + list(art) + other_codes(rng, 4)
            sc = synth.Scene(game_id)
            for face in [pieces[int(i)] for i in rng.permutation(len(pieces))][:12]:
                synth._place(sc, face, rng, (rng.uniform(-160, 160), rng.uniform(-110, 110)), 30,
                             float(rng.uniform(-60, 60)))
            view = synth.seated(rng)
            res = sizes[k % len(sizes)]
            synth.frame_all(sc, view, synth.SIZES[res])
            jpg, _truth = synth.photo(sc, synth.SIZES[res], rng, view=view)
            path = tmp / f"{game_id}-{k}.jpg"
            path.write_bytes(jpg)
            found = detect.scan_photo(path, table, det)
            count += 1
            if found:
                total += len(found)
                print(f"  FALSE {game_id} k={k} seed={s} {res} {view.label()}: "
                      f"{[(f.marker, f.target.id) for f in found]}")
    print(f"{count} photos of other codes only, seed {seed}: {total} false components")
    return total


def _load(path: Path, name: str):
    """Another copy of detect.py as a module of the same package (its relative imports work)."""
    spec = importlib.util.spec_from_file_location(f"ludoteca.companion.scan.{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu(photos: int, seed: int, sizes: list[str], base: Path, repeats: int = 3) -> None:
    """Decode + detect CPU, this tree's detector and ``base``'s, alternating on the same photos."""
    import cv2
    from ludoteca.companion.scan import detect, synth
    cv2.setNumThreads(1)
    old = _load(base, "detect_base")
    paths: list[tuple[str, Path, dict]] = []
    real_photo, real_scan = synth.photo, detect.scan_photo
    last: dict = {}

    def photo(scene, size, rng, *a, **kw):
        last["size"] = size
        return real_photo(scene, size, rng, *a, **kw)

    def keep(path, table, det=None):
        res = next(k for k, v in synth.SIZES.items() if tuple(v) == tuple(last["size"]))
        kept = Path(tempfile.mkdtemp(prefix="bench-cpu-")) / Path(path).name
        kept.write_bytes(Path(path).read_bytes())
        paths.append((res, kept, table))
        return []

    synth.photo, detect.scan_photo = photo, keep
    try:
        bench_scan.run_seated(photos, seed, sizes)
    finally:
        synth.photo, detect.scan_photo = real_photo, real_scan
    times: dict = defaultdict(lambda: ([], []))
    dets = (old.detector(), detect.detector())
    for _ in range(repeats):
        for res, path, table in paths:
            for which, mod in enumerate((old, detect)):
                t0 = time.process_time()
                gray, factor = mod.read_photo(path)
                mod.recognise(gray, table, factor, dets[which])
                times[res][which].append(time.process_time() - t0)
    print(f"decode + detect CPU per photo, one core, {len(paths)} photos x {repeats}: base -> this tree (median ratio)")
    for res in sizes:
        a, b = times[res]
        if a:
            ratios = [y / x for x, y in zip(a, b)]
            print(f"  {res:6}: {statistics.median(a) * 1000:6.1f} -> {statistics.median(b) * 1000:6.1f} ms "
                  f"(x{statistics.median(ratios):.2f})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("misses", "false", "cpu"))
    ap.add_argument("--photos", type=int, default=34, help="photos per game")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--sizes", default="12MP,3MP,1.2MP")
    ap.add_argument("--base", default="/work/main/companion/scan/detect.py")
    ap.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "scan-misses.json"))
    args = ap.parse_args()
    sizes = args.sizes.split(",")
    if args.what == "misses":
        misses(args.photos, args.seed, sizes, Path(args.out))
    elif args.what == "false":
        return 1 if false_reads(args.photos, args.seed, sizes) else 0
    else:
        cpu(args.photos, args.seed, sizes, Path(args.base))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Why the scanner misses markers on seated photos, and whether it reads markers that are not there.

``misses``: the seated benchmark's photos (bench_scan.run_seated, same seeds, same photos), and for
every printed copy of a marker that the photo shows unhidden but whose component was not found:
its size as seen (photo px per cell), skew (longest over shortest side), the photo's blur and light
and a local contrast and sharpness, how many of its printed copies the photo shows, and what became
of it in the detector: no candidate square at all, a square the detector decoded as another code,
a square our own reading refused (and which check: candidate read "corr"/"ratio", the size and shape
check "shape", the quiet-zone and cell checks "contrast"/"ring"/"spread"/"bits"), or read but lost
later (joined to another copy).  Prints counts by cause and by condition; writes a JSON of every miss.

``false``: photos from a seat holding no scoring piece at all, only other printed codes (5x5 and
6x6 ArUco, AprilTag, chessboards, QR-like squares, and the 4x4 codes of other families nearest to
ours: one or two cells away), unmarked pieces and our own art printed without markers: every
component reported is false.

``cpu``: decode + detection CPU per photo on one core of this tree's detector against another
copy of detect.py (``--base``, e.g. main's), paired photo by photo.

    python bench/bench_scan_misses.py misses --seed 7 --photos 34 --keep /tmp/seated7
    python bench/bench_scan_misses.py replay --keep /tmp/seated7    # the same photos, read again
    python bench/bench_scan_misses.py false --photos 13 --keep /tmp/false13   # 13 a game; again: reread
    python bench/bench_scan_misses.py cpu --photos 6 --base /work/main/companion/scan/detect.py
    python bench/bench_scan_misses.py cpu --photos 10 --keep /tmp/seated7       # 30 of the kept photos
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
MAIN_DETECT = "/work/main/companion/scan/detect.py"
NO_BASE = ""


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
    from ludoteca.cards import markers
    from ludoteca.companion.scan import detect
    trace: dict = {}
    detect.find_markers(gray, det=det, trace=trace, reduced=factor < 1)
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
    reads = [(c, q) for c, q in trace["reads"] if _near([q], centre, side)]
    refused = [(c, q, why) for c, q, why in trace["refused"] if _near([q], centre, side)]
    rejected = _near(trace["rejected"], centre, side)
    if any(c == number for c, _q, _w in refused):
        c, q, why = next(r for r in refused if r[0] == number)
        row["stage"] = "refused:" + why
        if why == "bits":
            grid = markers.cells(number)
            row["bits_ratio"] = round(detect.bits_ratio(detect.cell_means(work, q, len(grid)), grid), 2)
    elif any(c == number for c, _q in reads):
        row["stage"] = "read-then-lost"
    elif decoded:
        row["stage"] = f"decoded-wrong:{decoded[0][0]}"
    elif reads:
        row["stage"] = f"read-wrong:{reads[0][0]}"
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


def _explain_photo(path, table, found, truth, det, label: dict) -> list[dict]:
    """Explain every unhidden copy of each marker of ``truth.visible`` that ``found`` lacks."""
    from ludoteca.companion.scan import detect
    got = Counter(f.marker for f in found)
    missed = Counter(truth.visible) - got
    rows = []
    if missed:
        gray, factor = detect.read_photo(path)
        for number in missed:
            copies = truth.corners.get(number, [])
            for corners in copies:
                row = explain(gray, factor, det, number, corners, got)
                row.update(photo=Path(path).stem, marker=number, id=table[number].id, kind=table[number].kind,
                           copies_seen=len(copies), printed=len(table[number].places), **label)
                rows.append(row)
    return rows


def misses(photos: int, seed: int, sizes: list[str], out: Path, keep: Path | None) -> list[dict]:
    """Run the seated benchmark and explain each unhidden copy of every missed marker; with
    ``keep``, keep each photo and its truth there for :func:`replay`."""
    from ludoteca.companion.scan import detect, synth
    last: dict = {}
    real_photo, real_scan = synth.photo, detect.scan_photo
    dump: list[dict] = []
    kept: list[dict] = []

    def photo(scene, size, rng, *a, view=None, **kw):
        jpg, truth = real_photo(scene, size, rng, *a, view=view, **kw)
        last.update(truth=truth, view=view, size=size, game=scene.game)
        return jpg, truth

    def scan_photo(path, table, det=None):
        found = real_scan(path, table, det)
        truth, view = last["truth"], last["view"]
        res = next(k for k, v in synth.SIZES.items() if tuple(v) == tuple(last["size"]))
        label = {"game": last["game"], "resolution": res, **view.label(), "tilt_deg": round(view.tilt, 1)}
        dump.extend(_explain_photo(path, table, found, truth, det, label))
        if keep is not None:
            name = f"{last['game']}-{len(kept)}.jpg"
            (keep / name).write_bytes(Path(path).read_bytes())
            kept.append({"file": name, "visible": truth.visible, "hidden": truth.hidden,
                         "corners": {str(k): v for k, v in truth.corners.items()}})
        return found

    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
    synth.photo, detect.scan_photo = photo, scan_photo
    try:
        r = bench_scan.run_seated(photos, seed, sizes)
    finally:
        synth.photo, detect.scan_photo = real_photo, real_scan
    rows = r["rows"]
    if keep is not None:
        for meta, row in zip(kept, rows):
            meta["row"] = {k: v for k, v in row.items() if k not in ("missed", "extra", "cpu", "kinds")}
        (keep / "photos.json").write_text(json.dumps({"seed": seed, "photos": kept}))
    _summary(rows, dump, f"seed {seed}", out)
    return dump


def replay(folder: Path, out: Path, base: Path | None = None) -> list[dict]:
    """Read the photos kept by ``misses --keep`` with this tree's detector (or ``base``, another
    copy of detect.py, whose misses are then not explained): the bench's table by condition and
    the misses explained (the photos need not be made again)."""
    import cv2
    from ludoteca.cards import load
    from ludoteca.companion.scan import detect, synth, targets
    if base is not None:
        detect = _load(base, "detect_base")
    cv2.setNumThreads(1)
    catalog = load()
    det = detect.detector()
    meta = json.loads((folder / "photos.json").read_text())
    tables = {g: targets.targets(catalog[g]) for g in GAMES}
    rows, dump = [], []
    for entry in meta["photos"]:
        row = dict(entry["row"])
        table = tables[row["game"]]
        truth = synth.Truth(entry["visible"], entry["hidden"], {int(k): v for k, v in entry["corners"].items()})
        path = folder / entry["file"]
        t0 = time.process_time()
        found = detect.scan_photo(path, table, det)
        row["cpu"] = time.process_time() - t0
        got = Counter(f.marker for f in found)
        vis = Counter(truth.visible)
        present = vis + Counter(truth.hidden)
        row.update(found=sum(min(n, got.get(m, 0)) for m, n in vis.items()),
                   false=sum((got - present).values()),
                   double=sum(max(0, got.get(m, 0) - n) for m, n in present.items()),
                   total_right=got == present, missed=sorted((vis - got).elements()),
                   extra=sorted((got - present).elements()))
        rows.append(row)
        label = {k: row[k] for k in ("game", "resolution", "tilt", "blur", "light", "print", "tilt_deg")}
        if base is None:
            dump.extend(_explain_photo(path, table, found, truth, det, label))
    _summary(rows, dump, f"kept in {folder} (seed {meta['seed']})", out)
    _table(rows)
    for res in sorted({r["resolution"] for r in rows}):
        cpu = [x["cpu"] for x in rows if x["resolution"] == res]
        print(f"  CPU {res:6}: median {statistics.median(cpu) * 1000:6.1f} ms, max {max(cpu) * 1000:6.1f} ms")
    for r in rows:
        if r["extra"]:
            print("  FALSE", r["game"], r["k"], r["extra"])
    return dump


def _table(rows: list[dict]) -> None:
    """Recall, false components and totals right by condition (the bench's own table needs the
    scenes, for its score column, which a kept photo has not)."""
    print(f"{'condition':12} {'value':22} {'photos':>6} {'found':>6} {'visible':>7} {'recall':>7} "
          f"{'false':>5} {'totals right':>12}")
    groups = [("all", "", rows), ("tilt", "<= 45°", [r for r in rows if r["tilt_deg"] <= 45])]
    for cond in ("tilt", "layout", "blur", "light", "print", "resolution", "game"):
        groups += [(cond, v, [r for r in rows if r[cond] == v]) for v in sorted({r[cond] for r in rows})]
    for cond, value, group in groups:
        hit, vis = sum(r["found"] for r in group), sum(r["visible"] for r in group)
        right = sum(r["total_right"] for r in group)
        print(f"{cond:12} {value:22} {len(group):6d} {hit:6d} {vis:7d} {100 * hit / max(1, vis):6.1f}% "
              f"{sum(r['false'] for r in group):5d} {right:5d} ={100 * right / len(group):5.1f}%")


def _summary(rows: list[dict], dump: list[dict], what: str, out: Path) -> None:
    hit = sum(x["found"] for x in rows)
    vis = sum(x["visible"] for x in rows)
    print(f"{len(rows)} photos, {what}: {hit}/{vis} = {100 * hit / vis:.1f} % found, "
          f"{sum(x['false'] for x in rows)} false; {len(dump)} unhidden copies of missed markers\n")
    _counts("stage", dump)
    for cond, edges in (("px_per_cell", (0, 2, 2.5, 3, 4, 6, 99)), ("skew", (1, 1.3, 1.6, 2, 2.5, 99)),
                        ("contrast", (0, 30, 60, 90, 130, 999)), ("sharpness", (0, 0.3, 0.5, 0.8, 1.2, 99))):
        print(f"by {cond}:")
        for lo, hi in zip(edges, edges[1:]):
            group = [d for d in dump if lo <= d[cond] < hi]
            if group:
                top = Counter(":".join(d["stage"].split(":")[:2]) for d in group).most_common(3)
                print(f"  {lo:>5}-{hi:<5} {len(group):4d}  {top}")
    for cond in ("kind", "blur", "light", "resolution", "tilt", "print"):
        print(f"by {cond}: " + ", ".join(f"{v} {n}" for v, n in sorted(Counter(d[cond] for d in dump).items())))
    out.write_text(json.dumps({"photos": len(rows), "found": hit, "visible": vis, "misses": dump},
                              indent=1, ensure_ascii=False))
    print(f"\nwritten {out}")


def _counts(key: str, dump: list[dict]) -> None:
    print(f"by {key}:")
    for value, n in Counter(d[key] for d in dump).most_common():
        print(f"  {value:34} {n:4d}")
    print()


def near_codes() -> list[tuple[str, int]]:
    """The codes of other 4x4 families closest to ours, (dictionary, id): AprilTag 16h5 codes one
    or two cells from one of ours in some quarter turn (3 and 17 of its 30), and ArUco 4x4 codes
    outside our 100 two cells from one of ours (293 of 900; none is closer)."""
    import cv2
    import numpy as np
    from ludoteca.cards import markers
    aruco = cv2.aruco
    ours = [np.rot90(np.array(markers.cells(k))[1:-1, 1:-1], t) for k in range(len(markers.CODES)) for t in range(4)]
    out = []
    for name, ids in (("DICT_APRILTAG_16h5", range(30)), ("DICT_4X4_1000", range(100, 1000))):
        d = aruco.getPredefinedDictionary(getattr(aruco, name))
        for i in ids:
            bits = aruco.generateImageMarker(d, i, 6)[1:-1, 1:-1] == 0
            if min(int((bits != o).sum()) for o in ours) <= 2:
                out.append((name, i))
    return out


def other_codes(rng, n: int, near: list[tuple[str, int]]) -> list:
    """Printed codes that are not ours (synth.fiducials) and as many 4x4 codes of other families
    close to ours (``near``), on white paper, 12 to 30 mm."""
    import cv2
    import numpy as np
    from ludoteca.companion.scan import synth
    out = synth.fiducials(rng, n)
    for _ in range(n):
        name, i = near[int(rng.integers(0, len(near)))]
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
        px = int(float(rng.uniform(8, 30)) * synth.FACE_PX_PER_MM)
        img = cv2.aruco.generateImageMarker(d, i, px)
        img = cv2.copyMakeBorder(img, px // 6, px // 6, px // 6, px // 6, cv2.BORDER_CONSTANT, value=255)
        size = img.shape[1] / synth.FACE_PX_PER_MM
        out.append(synth.Face(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), np.full(img.shape, 255, np.uint8),
                              (size, size), None))
    return out


def false_reads(photos: int, seed: int, sizes: list[str], keep: Path | None = None) -> int:
    """Seated photos of tables holding only other codes, unmarked pieces and unmarked art: the
    components reported (every one false), per game and resolution.  With ``keep``: the photos
    kept there are read again (made and kept there the first time)."""
    import cv2
    import numpy as np
    from ludoteca.cards import load
    from ludoteca.companion.scan import detect, synth, targets
    cv2.setNumThreads(1)
    catalog = load()
    det = detect.detector()
    folder = keep or Path(tempfile.mkdtemp(prefix="bench-scan-false-"))
    index = folder / "false.json"
    if index.is_file():
        made = json.loads(index.read_text())
    else:
        folder.mkdir(parents=True, exist_ok=True)
        made = []
        near = near_codes()
        for game_id in GAMES:
            game = catalog[game_id]
            _marked, plain = synth.faces(game)
            art = synth.unmarked(game, 4)
            for k in range(photos):
                s = seed + 1000 * k + zlib.crc32(game_id.encode()) % 997
                rng = np.random.default_rng(s)
                mine = list(plain) + list(art)
                pieces = other_codes(rng, 4, near) + [mine[int(i)] for i in rng.permutation(len(mine))][:6]
                sc = synth.Scene(game_id)
                for face in pieces:
                    synth._place(sc, face, rng, (rng.uniform(-160, 160), rng.uniform(-110, 110)), 30,
                                 float(rng.uniform(-60, 60)))
                view = synth.seated(rng)
                res = sizes[k % len(sizes)]
                synth.frame_all(sc, view, synth.SIZES[res])
                jpg, _truth = synth.photo(sc, synth.SIZES[res], rng, view=view)
                name = f"{game_id}-{k}.jpg"
                (folder / name).write_bytes(jpg)
                made.append({"file": name, "game": game_id, "seed": s, "resolution": res, **view.label()})
        index.write_text(json.dumps(made))
    from ludoteca.cards import markers
    total = 0
    tables = {g: targets.targets(catalog[g]) for g in GAMES}
    refused: Counter = Counter()
    closest: list[float] = []
    for entry in made:
        found = detect.scan_photo(folder / entry["file"], tables[entry["game"]], det)
        if found:
            total += len(found)
            print(f"  FALSE {entry}: {[(f.marker, f.target.id) for f in found]}")
        trace: dict = {}
        gray, _factor = detect.read_photo(folder / entry["file"])
        detect.find_markers(gray, det=det, trace=trace, reduced=_factor < 1)
        for code, quad, why in trace["refused"]:
            refused[why] += 1
            if why == "bits":
                grid = markers.cells(code)
                closest.append(detect.bits_ratio(detect.cell_means(trace["work"], quad, len(grid)), grid))
    print(f"{len(made)} photos of other codes only: {total} false components; reads of some code of ours "
          f"refused by our checks: {dict(refused)}; the bits check's best ratios: "
          f"{[round(r, 2) for r in sorted(closest)[-8:]]}")
    return total


def _load(path: Path, name: str):
    """Another copy of detect.py as a module of the same package (its relative imports work)."""
    spec = importlib.util.spec_from_file_location(f"ludoteca.companion.scan.{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def cpu(photos: int, seed: int, sizes: list[str], base: Path, folder: Path | None = None, repeats: int = 3) -> None:
    """Decode + detect CPU, this tree's detector and ``base``'s, alternating on the same photos
    (``photos`` a game of the seated benchmark, or as many from ``folder``, kept by ``misses``)."""
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

    if folder is not None:
        from ludoteca.cards import load
        from ludoteca.companion.scan import targets
        catalog = load()
        tables = {g: targets.targets(catalog[g]) for g in GAMES}
        entries = json.loads((folder / "photos.json").read_text())["photos"]
        for entry in entries[::max(1, len(entries) // (3 * photos))]:
            paths.append((entry["row"]["resolution"], folder / entry["file"], tables[entry["row"]["game"]]))
    else:
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
    ap.add_argument("what", choices=("misses", "replay", "false", "cpu"))
    ap.add_argument("--keep", help="misses: keep the photos and their truth in this folder (for replay); "
                                   "replay: the folder")
    ap.add_argument("--photos", type=int, default=34, help="photos per game")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--sizes", default="12MP,3MP,1.2MP")
    ap.add_argument("--base", default=NO_BASE, help="cpu: the detect.py to pair with (main's by default); "
                                                    "replay: read with this detect.py instead")
    ap.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "scan-misses.json"))
    args = ap.parse_args()
    sizes = args.sizes.split(",")
    if args.what == "misses":
        misses(args.photos, args.seed, sizes, Path(args.out), Path(args.keep) if args.keep else None)
    elif args.what == "replay":
        replay(Path(args.keep), Path(args.out), Path(args.base) if args.base != NO_BASE else None)
    elif args.what == "false":
        return 1 if false_reads(args.photos, args.seed, sizes, Path(args.keep) if args.keep else None) else 0
    else:
        base = MAIN_DETECT if args.base == NO_BASE else args.base
        cpu(args.photos, args.seed, sizes, Path(base), Path(args.keep) if args.keep else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

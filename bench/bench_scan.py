"""Benchmark of `ludoteca scan` on synthetic table photos (companion/scan/synth.py).

The default, ``--mode seated``: photos as a phone takes them from a seat at the table, tilted 0 to
50 degrees, cards laid in rows, columns and fans overlapping 10 to 40 % either way (the next card on
top of the last or under it), depth blur or hand shake, shadow, glare or warm dim light, washed-out
prints, JPEG 55-85, among other printed codes (other ArUco and AprilTag families, chessboards,
QR-like squares), unmarked pieces and our own art without markers.  It reports, by condition
(tilt, layout and overlap direction, blur, light, print, resolution, game): the components found
among those that show at least one marker (recall), false components (not in the photo), pieces
counted twice, the photos whose every piece is counted exactly once (the total right) and those
whose score is right (the score of the pieces read against that of the pieces laid: a miss and an
extra of equal worth leave it right); why each wrong total is wrong (a piece with no marker in
sight, a marker not read, two copies merged, a piece counted twice, a false one, the tally); and
the CPU time per photo (decode + detection, one core).

    python bench/bench_scan.py --photos 40           # 40 seated photos per game
    python bench/bench_scan.py --games el_mapa       # one game's photos only (the same photos)
    python bench/bench_scan.py --mode flat           # the first benchmark: nearly overhead photos

``--mode flat``:
For each marker system (the kit printed with that dictionary), each game and each photo size it
makes photos of random end-of-game layouts with varied seeds and counts: visible markers found,
components reported that are not in the photo, and the time to read a 12 MP photo on one core
(decode + detection, medians).  Prints the recognition table (system x marker size x resolution)
and the failures; writes bench/results/scan.json.

    python bench/bench_scan.py                       # 4x4 (the kit's) on 24 layouts per game
    python bench/bench_scan.py --layouts 8 --systems DICT_4X4_100,DICT_5X5_100,DICT_APRILTAG_36h11
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import zlib
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GAMES = ("ciudadelas", "el_mapa", "gladiadores")


def use_system(name: str) -> None:
    """Print the kit with another dictionary: swap the codes cards.markers draws."""
    import cv2
    from ludoteca.cards import markers
    aruco = cv2.aruco
    d = aruco.getPredefinedDictionary(getattr(aruco, name))
    bits = d.markerSize
    codes = []
    for i in range(min(100, d.bytesList.shape[0])):
        img = aruco.generateImageMarker(d, i, bits + 2)[1:-1, 1:-1]
        v = 0
        for b in (img.ravel() > 0):
            v = (v << 1) | int(b)
        codes.append(v)
    markers.DICTIONARY, markers.BITS, markers.CODES = name, bits, tuple(codes)


def run(systems: list[str], layouts: int, seed: int, sizes: list[str]) -> dict:
    import cv2
    import numpy as np
    from ludoteca.cards import load
    from ludoteca.companion.scan import detect, synth, targets
    cv2.setNumThreads(1)
    catalog = load()
    rows: dict = defaultdict(lambda: [0, 0])     # (system, size_mm, resolution) -> [found, visible]
    false: Counter = Counter()
    failures: list[dict] = []
    times: dict = defaultdict(list)
    photos = 0
    tmp = Path(tempfile.mkdtemp(prefix="bench-scan-"))
    for system in systems:
        use_system(system)
        det = detect.detector(system)
        for game_id in GAMES:
            game = catalog[game_id]
            table = targets.targets(game)
            marked, plain = synth.faces(game)
            for k in range(layouts):
                s = seed + 1000 * k + zlib.crc32(game_id.encode()) % 997
                rng = np.random.default_rng(s)
                scene = synth.scene(game, rng, marked, plain)
                for res in sizes:
                    jpg, truth = synth.photo(scene, synth.SIZES[res], np.random.default_rng((s, len(res))))
                    path = tmp / f"{system}-{game_id}-{k}-{res}.jpg"
                    path.write_bytes(jpg)
                    photos += 1
                    w0, t0 = time.perf_counter(), time.process_time()
                    gray, factor = detect.read_photo(path)
                    t1 = time.process_time()
                    found = detect.recognise(gray, table, factor, det)
                    t2, w2 = time.process_time(), time.perf_counter()
                    times[(system, res, "decode")].append(t1 - t0)
                    times[(system, res, "detect")].append(t2 - t1)
                    times[(system, res, "total")].append(t2 - t0)
                    times[(system, res, "wall")].append(w2 - w0)
                    got = Counter(f.marker for f in found)
                    vis = Counter(truth.visible)
                    present = vis + Counter(truth.hidden)
                    for number, n in vis.items():
                        size = table[number].place[2]
                        hit = min(n, got.get(number, 0))
                        rows[(system, size, res)][0] += hit
                        rows[(system, size, res)][1] += n
                        if hit < n:
                            failures.append({"system": system, "game": game_id, "layout": k, "seed": s,
                                             "resolution": res, "marker": number, "id": table[number].id,
                                             "size_mm": size, "missed": n - hit})
                    extra = got - present
                    false[(system, res)] += sum(extra.values())
                    for number, n in extra.items():
                        failures.append({"system": system, "game": game_id, "layout": k, "seed": s,
                                         "resolution": res, "false_marker": number, "count": n})
    return {"rows": rows, "false": false, "failures": failures, "times": times, "photos": photos}


def run_seated(photos: int, seed: int, sizes: list[str], games: tuple[str, ...] = GAMES) -> dict:
    """Seated photos: per photo, its conditions and what was found against the truth (each game's
    photos are the same whichever other games run)."""
    import cv2
    import numpy as np
    from ludoteca.cards import load
    from ludoteca.companion.scan import detect, synth, targets
    cv2.setNumThreads(1)
    catalog = load()
    det = detect.detector()
    tmp = Path(tempfile.mkdtemp(prefix="bench-scan-"))
    rows = []
    for game_id in games:
        game = catalog[game_id]
        table = targets.targets(game)
        marked, plain = synth.faces(game)
        art = synth.unmarked(game, 4)
        for k in range(photos):
            s = seed + 1000 * k + zlib.crc32(game_id.encode()) % 997
            rng = np.random.default_rng(s)
            layout = synth.LAYOUTS[k % len(synth.LAYOUTS)]
            over = synth.OVERS[(k // len(synth.LAYOUTS)) % len(synth.OVERS)]
            overlap = float(rng.uniform(0.1, 0.4))
            others = [plain[int(i)] for i in rng.integers(0, len(plain), 2)] if plain else []
            others += [art[int(rng.integers(0, len(art)))]] + synth.fiducials(rng, 3)
            scene = synth.table_scene(game, rng, marked, others, layout, over, overlap)
            view = synth.seated(rng)
            res = sizes[k % len(sizes)]
            synth.frame_all(scene, view, synth.SIZES[res])
            jpg, truth = synth.photo(scene, synth.SIZES[res], rng, view=view)
            path = tmp / f"{game_id}-{k}.jpg"
            path.write_bytes(jpg)
            t0 = time.process_time()
            found = detect.scan_photo(path, table, det)
            cpu = time.process_time() - t0
            got = Counter(f.marker for f in found)
            vis = Counter(truth.visible)
            present = vis + Counter(truth.hidden)
            hit = sum(min(n, got.get(m, 0)) for m, n in vis.items())
            false = sum((got - present).values())
            double = sum(max(0, got.get(m, 0) - n) for m, n in present.items())
            camera = synth.seated_camera(view, synth.SIZES[res])
            rows.append({"game": game_id, "seed": s, "k": k, "resolution": res, "layout": f"{layout} {over}",
                         **view.label(), "tilt_deg": round(view.tilt, 1), "visible": sum(vis.values()),
                         "present": sum(present.values()), "found": hit, "false": false, "double": double,
                         "total_right": got == present, "cpu": cpu,
                         "kinds": _by_kind(table, vis, got),
                         "missed": sorted((vis - got).elements()), "extra": sorted((got - present).elements()),
                         **diagnose(game, table, scene.items, camera, synth.SIZES[res], truth, found)})
    return {"rows": rows, "photos": len(rows)}


def _by_kind(table: dict, vis: Counter, got: Counter) -> dict[str, list[int]]:
    """Per kind of face (its game and kind, and its size for counters): [found, visible]."""
    out: dict[str, list[int]] = {}
    for number, n in vis.items():
        t = table[number]
        kind = f"{t.kind} {t.size_mm[0]:g} mm" if t.face.endswith(("counter", "token")) else t.kind
        cell = out.setdefault(f"{t.face.split('/')[0]} {kind}", [0, 0])
        cell[0] += min(n, got.get(number, 0))
        cell[1] += n
    return out


#: why a photo's piece count is off, one word a piece: what the report's cause table counts
CAUSES = {
    "covered": "no marker of the piece in sight: every copy covered by another piece",
    "out_of_frame": "no marker of the piece in sight: out of the frame",
    "missed": "a marker in sight, not read (the detector)",
    "merged": "two copies of one kind merged into one by the vote of their markers",
    "twice": "one piece counted twice",
    "false": "a piece counted that is not in the photo",
    "tally": "the pieces right, the score wrong (tally or scoring)",
}


#: printed and written with the cause table: what "score right" counts and what the scanner adds
NOTE = ("score right: the score of the pieces read equals that of the pieces laid, photo by photo, by "
        "the game's own scoring of one player's fields (what a photo cannot show left out). The scanner "
        "names what the rules say must be there and the photo lacks (El Mapa's support rule, a Ciudadelas "
        "city said to be completed first) and adds no piece nor points for it: which piece, and so its "
        "worth, no photo shows; only the first-complete bonus the table states is counted. These scenes "
        "lay random pieces, so an El Mapa table may break the support rule itself: 'names missing' counts "
        "include such tables.")


def _score(game, fields: dict) -> int:
    """One player's total from the fields a photo gives, by the game's own scoring (its pure
    breakdown: a bench city may hold two of a district, which a record refuses)."""
    from ludoteca.companion.engine.scoring import ciudadelas, el_mapa, gladiadores
    if game.id == "ciudadelas":
        return sum(ciudadelas.breakdown(ciudadelas.CityEnd("P", tuple(fields["city"])), game).values())
    if game.id == "el_mapa":
        end = el_mapa.RealmEnd("P", tuple(fields["buildings"]), 0, fields.get("defeated", {}),
                               fields.get("resources", {}))
        return sum(el_mapa.breakdown(end, game).values())
    end = gladiadores.LudusEnd("P", fields["combat_wins"], tuple(fields["buildings"]))
    return sum(gladiadores.breakdown(end, game).values())


def diagnose(game, table, items, camera, size, truth, found) -> dict:
    """Each piece the photo's count has wrong and why (:data:`CAUSES`), and whether the score is
    right: the score of the pieces read against that of the pieces on the table.

    Every printed copy of every piece is mapped into the photo; each marker read is matched to the
    copy it lies on, so a component is known to stand for the pieces whose copies it read: none (a
    false one), one, or two (two copies of one kind taken for one face)."""
    import cv2
    import numpy as np

    from ludoteca.companion.scan import ScanError, detect, tally
    W, H = size
    pieces = [i for i in items if i.face.target is not None]
    copies = []                   # per piece: (quad px, visible, in the frame) per printed copy
    for item in pieces:
        shown = truth.corners.get(item.face.target.marker, [])
        mine = []
        for black in item.marker_squares(False):
            quad = cv2.perspectiveTransform(np.float32(black).reshape(-1, 1, 2), camera).reshape(4, 2)
            seen = any(np.abs(quad - np.float32(q)).max() < 0.5 for q in shown)
            inside = bool(quad.min() >= 0 and quad[:, 0].max() < W and quad[:, 1].max() < H)
            mine.append((quad, seen, inside))
        copies.append(mine)
    stands_for: list[set[int]] = []
    for f in found:
        owners: set[int] = set()
        for quad in f.seen:
            q = np.float32(quad)
            side = float(np.linalg.norm(q[1] - q[0]))
            near = [(float(np.linalg.norm(c[0].mean(0) - q.mean(0))), index)
                    for index, item in enumerate(pieces) if item.face.target.marker == f.marker
                    for c in copies[index]]
            if near and min(near)[0] < max(side, 4.0):
                owners.add(min(near)[1])
        stands_for.append(owners)
    credited: set[int] = set()
    causes: list[list] = []
    for owners in sorted(stands_for, key=len):
        if not owners:
            causes.append(["false", None])
            continue
        free = sorted(owners - credited)
        if not free:
            causes.append(["twice", pieces[min(owners)].face.target.id])
            continue
        credited.add(free[0])
    for index, item in enumerate(pieces):
        if index in credited:
            continue
        if any(index in owners for owners in stands_for):
            why = "merged"
        elif any(seen for _q, seen, _inside in copies[index]):
            why = "missed"
        elif any(inside for _q, _seen, inside in copies[index]):
            why = "covered"
        else:
            why = "out_of_frame"
        causes.append([why, item.face.target.id])
    truth_score = _score(game, tally.player_fields(game, [detect.Found(i.face.target, []) for i in pieces]))
    try:
        read_score: int | None = _score(game, tally.player_fields(game, found))
    except ScanError:
        read_score = None
    if read_score != truth_score and not causes:
        causes.append(["tally", None])
    # what the result says of itself: a piece read from one of its markers only, or pieces the
    # rules need and the photo lacks (a table of two players)
    return {"causes": causes, "score_truth": truth_score, "score_read": read_score,
            "score_right": read_score == truth_score, "one_marker": sum(not f.sure for f in found),
            "names_missing": tally.likely_missing(game, found, 2) != {}}


def report_seated(rows: list[dict]) -> list[dict]:
    """Print the table by condition; return it."""
    table = []
    print(f"{'condition':14} {'value':26} {'photos':>6} {'found':>6} {'visible':>7} {'recall':>7} "
          f"{'false':>5} {'twice':>5} {'totals right':>12} {'score right':>12}")

    def line(cond: str, value: str, group: list[dict]) -> None:
        hit = sum(r["found"] for r in group)
        vis = sum(r["visible"] for r in group)
        right = sum(r["total_right"] for r in group)
        score = sum(r["score_right"] for r in group)
        print(f"{cond:14} {value:26} {len(group):6d} {hit:6d} {vis:7d} {100 * hit / max(1, vis):6.1f}% "
              f"{sum(r['false'] for r in group):5d} {sum(r['double'] for r in group):5d} "
              f"{right:5d} ={100 * right / len(group):5.1f}% {score:5d} ={100 * score / len(group):5.1f}%")
        table.append({"condition": cond, "value": value, "photos": len(group), "found": hit, "visible": vis,
                      "false": sum(r["false"] for r in group), "twice": sum(r["double"] for r in group),
                      "totals_right": right, "score_right": score})
    line("all", "", rows)
    line("tilt", "<= 45°", [r for r in rows if r["tilt_deg"] <= 45])
    for cond in ("tilt", "layout", "blur", "light", "print", "resolution", "game"):
        for value in sorted({r[cond] for r in rows}):
            line(cond, value, [r for r in rows if r[cond] == value])
        print()
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        for kind, (hit, vis) in r["kinds"].items():
            kinds[kind][0] += hit
            kinds[kind][1] += vis
    for kind, (hit, vis) in sorted(kinds.items()):
        print(f"{'kind':14} {kind:26} {'':6} {hit:6d} {vis:7d} {100 * hit / max(1, vis):6.1f}%")
        table.append({"condition": "kind", "value": kind, "found": hit, "visible": vis})
    print()
    return table


def report_causes(rows: list[dict]) -> dict:
    """Print why totals are wrong: for each cause, the pieces it took or added and the photos it
    touched, by game, among photos whose piece count is wrong, and among those whose score is."""
    games = sorted({r["game"] for r in rows})
    wrong = [r for r in rows if not r["total_right"] or not r["score_right"]]
    print(f"why a total is wrong ({sum(not r['total_right'] for r in rows)} photos with the pieces wrong, "
          f"{sum(not r['score_right'] for r in rows)} with the score wrong, of {len(rows)}):")
    print(f"  {'cause':13} {'pieces':>6} {'photos':>6} {'score wrong':>11} {'alone':>5}  "
          + " ".join(f"{g[:11]:>11}" for g in games) + "   what")
    out = {}
    for cause, words in CAUSES.items():
        hit = [r for r in wrong if any(c[0] == cause for c in r["causes"])]
        pieces = sum(c[0] == cause for r in wrong for c in r["causes"])
        bad = [r for r in hit if not r["score_right"]]
        alone = [r for r in bad if {c[0] for c in r["causes"]} == {cause}]
        per_game = [sum(r["game"] == g for r in bad) for g in games]
        out[cause] = {"pieces": pieces, "photos": len(hit), "score_wrong": len(bad), "alone": len(alone),
                      "by_game": dict(zip(games, per_game))}
        print(f"  {cause:13} {pieces:6d} {len(hit):6d} {len(bad):11d} {len(alone):5d}  "
              + " ".join(f"{n:11d}" for n in per_game) + f"   {words}")
    masked = [r for r in rows if not r["total_right"] and r["score_right"]]
    print(f"  pieces wrong, score right: {len(masked)} photos (a miss and an extra of equal worth)")
    for right, words in ((False, "score wrong"), (True, "score right")):
        group = [r for r in rows if r["score_right"] is right]
        print(f"  {words}: {len(group)} photos; the result names pieces the rules need and the photo lacks in "
              f"{sum(r['names_missing'] for r in group)}, a piece read from one of its markers only in "
              f"{sum(r['one_marker'] > 0 for r in group)}")
    print(f"  note: {NOTE}")
    print()
    return {**out, "note": NOTE}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", choices=("seated", "flat"), default="seated")
    ap.add_argument("--photos", type=int, default=40, help="seated: photos per game")
    ap.add_argument("--games", default=",".join(GAMES), help="seated: the games photographed")
    ap.add_argument("--systems", default="DICT_4X4_100")
    ap.add_argument("--layouts", type=int, default=24, help="layouts per game (each photographed at every size)")
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    ap.add_argument("--sizes", default="12MP,3MP,1.2MP")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "scan.json"))
    args = ap.parse_args()
    if args.mode == "seated":
        r = run_seated(args.photos, args.seed, args.sizes.split(","), tuple(args.games.split(",")))
        print(f"{r['photos']} seated photos, seed {args.seed}, one core (cv2.setNumThreads(1))\n")
        table = report_seated(r["rows"])
        causes = report_causes(r["rows"])
        print("CPU per photo (decode + detection), median and max:")
        for res in args.sizes.split(","):
            cpu = [x["cpu"] for x in r["rows"] if x["resolution"] == res]
            if cpu:
                print(f"  {res:6}: {statistics.median(cpu) * 1000:6.1f} ms, max {max(cpu) * 1000:6.1f} ms")
        bad = [x for x in r["rows"] if not x["total_right"] or not x["score_right"]]
        print(f"\nphotos with the pieces or the score wrong ({len(bad)}):")
        keys = ("game", "k", "seed", "resolution", "layout", "tilt_deg", "blur", "light", "print", "missed",
                "extra", "causes", "score_truth", "score_read")
        for x in bad[:30]:
            print("  ", json.dumps({k: x[k] for k in keys}, ensure_ascii=False))
        out = Path(args.out).with_name("scan-seated.json")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"seed": args.seed, "table": table, "causes": causes, "photos": r["rows"]}, indent=1))
        return 0
    systems = args.systems.split(",")
    r = run(systems, args.layouts, args.seed, args.sizes.split(","))
    print(f"{r['photos']} photos, seed {args.seed}, one core (cv2.setNumThreads(1))\n")
    print(f"{'system':22} {'marker mm':>9} {'resolution':>10} {'found':>7} {'visible':>7} {'rate':>8}")
    table = []
    for (system, size, res), (hit, n) in sorted(r["rows"].items(), key=lambda kv: (kv[0][0], -kv[0][1], kv[0][2])):
        print(f"{system:22} {size:9.2f} {res:>10} {hit:7d} {n:7d} {100 * hit / n:7.2f}%")
        table.append({"system": system, "marker_mm": size, "resolution": res, "found": hit, "visible": n})
    print()
    totals = defaultdict(lambda: [0, 0])
    for (system, _size, res), (hit, n) in r["rows"].items():
        totals[(system, res)][0] += hit
        totals[(system, res)][1] += n
    for (system, res), (hit, n) in sorted(totals.items()):
        print(
            f"{system:22} {res:>6}: {hit}/{n} = {100 * hit / n:.2f}% visible markers found, "
            f"{r['false'][(system, res)]} false components"
        )
    print()
    timing = {}
    print("time per photo: CPU time of this process on one core (decode + detection), and wall time")
    for (system, res, what), values in sorted(r["times"].items()):
        med = statistics.median(values) * 1000
        timing[f"{system} {res} {what}"] = med
        print(
            f"{system:22} {res:>6} {what:7}: median {med:6.1f} ms, max {max(values) * 1000:6.1f} ms (n={len(values)})"
        )
    print(f"\nfailures ({len(r['failures'])}):")
    for f in r["failures"][:40]:
        print("  ", json.dumps(f))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "seed": args.seed,
                "photos": r["photos"],
                "table": table,
                "false": {f"{s} {res}": n for (s, res), n in r["false"].items()},
                "timing_ms": timing,
                "failures": r["failures"],
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Scan markers in the data and on the printed faces: codes, uniqueness, drawing, reading back."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter

import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra (opencv) is part of the test extra")

from ludoteca.cards import DataError, default_dir, load  # noqa: E402
from ludoteca.companion.scan import detect, synth  # noqa: E402
from ludoteca.companion.scan.targets import targets  # noqa: E402
from ludoteca.cards import markers  # noqa: E402
from ludoteca.generator.model import Face, Options  # noqa: E402
from ludoteca.generator.templating import render  # noqa: E402


def test_codes_are_opencvs_dictionary():
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, markers.DICTIONARY))
    assert len(markers.CODES) == dictionary.bytesList.shape[0] == 100
    for number in range(100):
        img = cv2.aruco.generateImageMarker(dictionary, number, markers.BITS + 2)
        assert [[bool(v == 0) for v in row] for row in img] == markers.cells(number), number
    with pytest.raises(markers.MarkerError):
        markers.cells(100)


SCORING = {"ciudadelas": ["district", "dark_district"], "el_mapa": ["building"],
           "gladiadores": ["building"]}


def test_every_scoring_component_has_a_marker_unique_in_its_game():
    catalog = load()
    for game_id, kinds in SCORING.items():
        game = catalog[game_id]
        for kind in kinds:
            assert all(isinstance(e.get("marker"), int) for e in game.entries(kind)), (game_id, kind)
        numbers = [e["marker"] for k in game.kinds for e in game.entries(k) if "marker" in e]
        assert len(numbers) == len(set(numbers)), game_id
    el_mapa = catalog["el_mapa"]
    marked = {c["id"] for c in el_mapa.entries("counter") if "marker" in c}
    assert marked == {c["id"] for c in el_mapa.entries("counter") if c["what"] in ("resource", "battle_points")}
    glad = catalog["gladiadores"]
    assert {t["id"] for t in glad.entries("token") if "marker" in t} == {
        t["id"] for t in glad.entries("token") if t.get("points")}
    # stable numbers: the first and the last of each game, as printed on kits already made
    ciud = catalog["ciudadelas"]
    assert (ciud.get("district", "manor")["marker"], ciud.get("district", "cathedral")["marker"]) == (0, 6)
    assert el_mapa.get("building", "cuartel")["marker"] == 0 and el_mapa.get("counter", "puntos_1")["marker"] == 26
    assert glad.get("building", "casula")["marker"] == 0 and glad.get("token", "points_1")["marker"] == 33


def test_a_marker_used_twice_is_one_line_naming_both(tmp_path):
    cards = tmp_path / "cards"
    shutil.copytree(default_dir(), cards, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    path = cards / "gladiadores" / "buildings.yaml"
    text = path.read_text(encoding="utf-8")
    assert "    marker: 1\n" in text
    path.write_text(text.replace("    marker: 1\n", "    marker: 0\n", 1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load(cards, games=("gladiadores",))
    problems = [str(p) for p in info.value.problems]
    assert len(problems) == 1
    assert "buildings.yaml:" in problems[0] and "building 'cubiculum': marker:" in problems[0]
    assert "already on building 'casula'" in problems[0] and problems[0].endswith("got 0")
    done = subprocess.run([sys.executable, "-m", "ludoteca", "validate", "--cards", str(cards)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "marker" in done.stderr and "Traceback" not in done.stderr


def _district_face(district_id: str) -> tuple[Face, dict]:
    from ludoteca.generator.games import ciudadelas
    game = load(games=("ciudadelas",))["ciudadelas"]
    colours = {c["id"]: ciudadelas.colour_style(c) for c in game.entries("colour")}
    entry = game.get("district", district_id)
    return ciudadelas._district_face(entry, colours), entry


def test_marker_is_vector_in_its_corner_and_no_markers_leaves_it_out():
    face, entry = _district_face("harbor")
    with_marker = render(face, (63.0, 88.0), 3.0, Options())
    without = render(face, (63.0, 88.0), 3.0, Options(markers=False))
    assert with_marker.count('class="scan-marker"') == 2 and "scan-marker" not in without
    (x, y, side, turn), (x2, y2, side2, turn2) = markers.places("ciudadelas/district", 63, 88)
    assert markers.path(entry["marker"], x, y, side) in with_marker
    assert markers.path(entry["marker"], x2, y2, side2, turn=turn2) in with_marker
    assert (x, y, turn) == (5.0, 5.0, 0) and side == side2 == 9.0      # top-left corner, 9 mm
    assert (x2 + side2, y2 + side2, turn2) == (63 - 5.0, 88 - 5.0, 180)  # bottom-right, turned
    assert markers.quiet(side) + 3 <= min(x, y)                        # quiet zone 3 mm from the cut
    from ludoteca.cli import build_parser
    assert build_parser().parse_args(["build", "--no-markers"]).markers is False
    assert build_parser().parse_args(["build"]).markers is True


@pytest.mark.parametrize("game_id", ["ciudadelas", "el_mapa", "gladiadores"])
def test_every_printed_marker_reads_back_as_its_component(game_id):
    """Each marked face, rendered by the kit at 10 px/mm, is read as exactly its own entry."""
    game = load(games=(game_id,))[game_id]
    table = targets(game)
    marked, plain = synth.faces(game)
    assert sorted(f.target.marker for f in marked) == sorted(table)
    det = detect.detector()
    for face in marked:
        found = detect.recognise(cv2.cvtColor(face.rgb, cv2.COLOR_BGR2GRAY), table, det=det)
        assert [(f.target.kind, f.target.id) for f in found] == [(face.target.kind, face.target.id)]
        w_px = face.rgb.shape[1]
        xs = [p[0] for p in found[0].outline]
        assert min(xs) == pytest.approx(0, abs=3) and max(xs) == pytest.approx(w_px, abs=3)
    for face in plain:                          # unmarked faces: characters, backs, tiles
        assert detect.recognise(cv2.cvtColor(face.rgb, cv2.COLOR_BGR2GRAY), table, det=det) == []


def _building_face(building_id: str):
    from ludoteca.generator.games import el_mapa
    game = load(games=("el_mapa",))["el_mapa"]
    comp = next(c for c in el_mapa.components(game, Options()) if c.id == "buildings")
    return next(f for f in comp.fronts if f.context["id"] == building_id), comp.size_mm, game


def test_el_mapa_building_tile_carries_its_marker_in_two_opposite_corners():
    """A 30 mm building tile prints its marker twice, top-right and turned half a turn bottom-left
    (issue 21: any overlap leaves one), each black square 3 mm or more from the cut and as large
    as the single one it replaces (7.2 mm); the scanner reads the tile from either copy, once."""
    face, (w, h), game = _building_face("templo_midas")
    svg = render(face, (w, h), 3.0, Options())
    assert svg.count('class="scan-marker"') == 2
    assert "scan-marker" not in render(face, (w, h), 3.0, Options(markers=False))
    (x, y, side, turn), (x2, y2, side2, turn2) = markers.places("el_mapa/building", w, h)
    assert side == side2 >= 7.2 and (turn, turn2) == (0, 180)
    assert x > w / 2 > y and y2 > h / 2 > x2                      # top right, bottom left
    assert (x2 + side2 / 2, y2 + side2 / 2) == pytest.approx((w - x - side / 2, h - y - side / 2))
    assert min(x2, y, w - x - side, h - y2 - side2) >= 3.0
    assert markers.path(face.context["marker"], x2, y2, side2, turn=turn2) in svg
    table = targets(game)
    rendered = synth._render(face, (w, h), False)
    gray = cv2.cvtColor(rendered.rgb, cv2.COLOR_BGR2GRAY)
    det = detect.detector()
    both = detect.recognise(gray, table, det=det)
    assert [(f.target.id, f.copies, f.printed) for f in both] == [("templo_midas", 2, 2)]
    px = synth.FACE_PX_PER_MM
    for cx, cy, s, _turn in markers.places("el_mapa/building", w, h):     # a tile laid over one corner
        covered = gray.copy()
        q = markers.quiet(s)
        covered[int((cy - q) * px):int((cy + s + q) * px), int((cx - q) * px):int((cx + s + q) * px)] = 90
        found = detect.recognise(covered, table, det=det)
        assert [(f.target.id, f.copies) for f in found] == [("templo_midas", 1)]


def test_counts_by_kind():
    from ludoteca.companion.scan.tally import counts
    game = load(games=("el_mapa",))["el_mapa"]
    table = targets(game)
    found = [detect.Found(table[n], []) for n in (0, 0, 19, 26)]
    assert counts(found) == {"building": {"cuartel": 2}, "counter": {"madera_5": 1, "puntos_1": 1}}
    assert Counter(f.target.kind for f in found) == Counter({"building": 2, "counter": 2})



def _grey(face: Face, size: tuple[float, float]):
    """A face rendered without bleed at 10 px per mm, in grey."""
    import cairosvg
    import numpy as np
    png = cairosvg.svg2png(bytestring=render(face, size, 0.0, Options()).encode(), dpi=254)
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)


def _around(gray, x: float, y: float, side: float, out: float, sides: str) -> list[int]:
    """Grey values along the named sides (t, l, r, b) of a marker's black square, ``out`` mm
    beyond its edge."""
    import numpy as np
    steps = np.linspace(0, side, 12)
    points = {"t": [(x + t, y - out) for t in steps], "b": [(x + t, y + side + out) for t in steps],
              "l": [(x - out, y + t) for t in steps], "r": [(x + side + out, y + t) for t in steps]}
    return [int(gray[int(py * 10), int(px * 10)]) for k in sides for px, py in points[k]]


def test_token_marker_stands_on_light_ground_on_the_dark_disc():
    """A Gladiadores point disc is dark to its edge: around its marker's one-cell white quiet zone
    the next cell out is light too (a tablet, not the disc's colour or a dark frame line), so that
    a blurred seated photo still shows a white square around the marker (issue 21)."""
    from ludoteca.generator.games import gladiadores
    game = load(games=("gladiadores",))["gladiadores"]
    for entry in (e for e in game.entries("token") if e.get("marker") is not None):
        w = float(entry["size_mm"])
        face = Face("gladiadores/token.svg.j2", gladiadores.plain(
            {"id": entry["id"], "shape": "disc", "colour": entry["colour"], "points": entry["points"],
             "name": entry["name"], "marker": entry["marker"]}), entry["id"])
        x, y, side = markers.place("gladiadores/token", w, w)
        values = _around(_grey(face, (w, w)), x, y, side, 1.5 * side / (markers.BITS + 2), "tlr")
        assert min(values) >= 200, (entry["id"], min(values))


def test_point_disc_markers_are_as_large_as_a_cards():
    """Every Gladiadores point disc carries a marker of at least 8 mm (cards carry 9 mm): the
    15 mm disc's 4.35 mm marker was read in half the seated photos, the 20 mm disc's 5.8 mm one in
    three quarters (bench_scan.py, issue 21); the marker stays a fifth of the disc, so the discs
    are large."""
    game = load(games=("gladiadores",))["gladiadores"]
    discs = [e for e in game.entries("token") if e.get("marker") is not None]
    assert discs
    for entry in discs:
        w = float(entry["size_mm"])
        assert markers.place("gladiadores/token", w, w)[2] >= 8.0, (entry["id"], w)


def test_building_markers_stand_on_light_ground():
    """Both markers of a Gladiadores building stand on a light corner tile: no dark line just
    outside the white quiet zone on any side, and towards the card's middle (the dark name band,
    the cost icon) light half a cell further; a seated photo's blur merged the dark band into
    the one-cell quiet zone (issue 21)."""
    from ludoteca.generator.games import gladiadores
    game = load(games=("gladiadores",))["gladiadores"]
    entry = next(e for e in game.entries("building") if not e.get("starting"))     # the darker band
    face = Face("gladiadores/building.svg.j2", gladiadores.plain(gladiadores.building_context(game, entry)),
                entry["id"])
    size = gladiadores.card_size(game)
    gray = _grey(face, size)
    for x, y, side, turn in markers.places("gladiadores/building", *size):
        cell = side / (markers.BITS + 2)
        inner = "rb" if turn == 0 else "lt"
        assert min(_around(gray, x, y, side, 1.05 * cell, "tlrb")) >= 200, turn
        assert min(_around(gray, x, y, side, 1.4 * cell, inner)) >= 200, turn


def test_building_player_count_badge_is_light():
    """The III/IV/V badge of a building front is a light shield with dark numerals: as a dark
    shield with light bars it read as a marker (a false building) in a blurred 1.2 MP seated photo
    (issue 21)."""
    import numpy as np
    from ludoteca.generator.games import gladiadores
    game = load(games=("gladiadores",))["gladiadores"]
    entry = next(e for e in game.entries("building") if not e.get("starting") and e["symbol"] != "none")
    context = gladiadores.building_context(game, entry)
    size = gladiadores.card_size(game)
    with_badge = _grey(Face("gladiadores/building.svg.j2", gladiadores.plain(context), "a"), size)
    without = _grey(Face("gladiadores/building.svg.j2", gladiadores.plain({**context, "numeral": None}), "b"), size)
    ys, xs = np.nonzero(np.abs(with_badge.astype(int) - without.astype(int)) > 40)
    assert len(xs) > 300                                                     # the badge is drawn
    box = with_badge[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    assert np.median(box) >= 150, np.median(box)


def test_el_mapa_counter_marker_stands_on_light_ground_over_its_ring():
    """An El Mapa counter's marker sits low, where the disc's coloured ring runs: left, right and
    below its one-cell white quiet zone the next cell out is light too (a cream tablet over the
    ring), so that a blurred seated photo still shows a white square around it (issue 21: the
    ring, darkening that margin, had the bit check refuse counters ArUco had read)."""
    import cairosvg
    import numpy as np
    from ludoteca.generator.games import el_mapa
    game = load(games=("el_mapa",))["el_mapa"]
    comps = el_mapa.components(game, Options())
    parts = [part for c in comps if c.layout == "pack" for part in c.parts]
    seen = set()
    for comp in parts:
        for face in comp.fronts:
            number = face.context.get("marker")
            if number is None or number in seen:
                continue
            seen.add(number)
            w = comp.size_mm[0]
            png = cairosvg.svg2png(bytestring=render(face, (w, w), 0.0, Options()).encode(), dpi=254)
            gray = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)   # 10 px per mm
            x, y, side = markers.place("el_mapa/counter", w, w)
            out = 1.5 * side / (markers.BITS + 2)      # halfway across the cell beyond the quiet zone
            ring = [(x - out, y + t) for t in np.linspace(0, side, 12)]
            ring += [(x + side + out, y + t) for t in np.linspace(0, side, 12)]
            ring += [(x + t, y + side + out) for t in np.linspace(0, side, 12)]
            values = [int(gray[int(py * 10), int(px * 10)]) for px, py in ring]
            assert min(values) >= 200, (face.context.get("name"), w, min(values))
    assert len(seen) == 8

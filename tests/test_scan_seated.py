"""Scanning a real table: twin markers, a seated player's view, codes of other families, what the
rules say is missing, several photos of one player, and ``--review``.  Small photos, in-process."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import yaml

cv2 = pytest.importorskip("cv2", reason="the scan extra (opencv) is part of the test extra")

import scanphotos  # noqa: E402

from ludoteca.cards import markers  # noqa: E402
from ludoteca.companion.scan import detect, synth, tally  # noqa: E402
from ludoteca.companion.scan.targets import targets  # noqa: E402


def _table(game_id: str):
    return targets(scanphotos.catalog()[game_id])


def _photo(tmp_path, name: str, game_id: str, seed: int, pieces: list[synth.Face]):
    """A 1.2 MP photo of these pieces only (overlapping as the scene lays them), and its truth."""
    rng = np.random.default_rng(seed)
    scene = synth.scene(scanphotos.catalog()[game_id], rng, [], [], pieces)
    jpg, truth = synth.photo(scene, synth.SIZES["1.2MP"], rng, table_mm=460)
    path = tmp_path / f"{name}.jpg"
    path.write_bytes(jpg)
    return path, truth


def _grey(face: synth.Face, scale: float = 0.5):
    """The face in grey at ``scale`` of its rendering (5 px/mm: markers of 45 px, read quickly)."""
    return cv2.resize(cv2.cvtColor(face.rgb, cv2.COLOR_BGR2GRAY), None, fx=scale, fy=scale,
                      interpolation=cv2.INTER_AREA)


def test_a_card_covered_from_either_side_is_read_once_and_says_how_sure():
    face = scanphotos.face("ciudadelas", "harbor")
    table = _table("ciudadelas")
    gray = _grey(face)
    h, w = gray.shape
    whole = detect.recognise(gray, table)
    assert [(f.target.id, f.copies, f.printed, f.sure) for f in whole] == [("harbor", 2, 2, True)]
    for covered in ((slice(0, h // 2), slice(0, w // 2)), (slice(h // 2, h), slice(w // 2, w))):
        part = gray.copy()
        part[covered] = 120                      # another card lies over this corner
        found = detect.recognise(part, table)
        assert [(f.target.id, f.copies, f.sure) for f in found] == [("harbor", 1, False)]


def test_two_identical_cards_side_by_side_are_two():
    gray = _grey(scanphotos.face("gladiadores", "casula"))
    pair = np.hstack([gray, np.full((gray.shape[0], 20), 200, np.uint8), gray])
    found = detect.recognise(pair, _table("gladiadores"))
    assert [(f.target.id, f.copies) for f in found] == [("casula", 2), ("casula", 2)]


def test_a_marker_seen_from_a_seat_at_57_degrees_is_read(tmp_path):
    """Its sides differ by more than 1.6 times, which the squareness check once refused."""
    scene = synth.Scene("ciudadelas", [synth.Item(scanphotos.face("ciudadelas", "temple"), (0.0, 0.0), 0.0)])
    view = synth.View(tilt=57, width_mm=400, quality=90)
    jpg, truth = synth.photo(scene, synth.SIZES["1.2MP"], np.random.default_rng(3), view=view)
    (tmp_path / "seat.jpg").write_bytes(jpg)
    found = detect.scan_photo(tmp_path / "seat.jpg", _table("ciudadelas"))
    assert [f.target.id for f in found] == ["temple"] and truth.visible == [found[0].marker]
    quad = np.array(found[0].corners)
    sides = [np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]
    assert max(sides) / min(sides) > 1.6


def _marker_image(code: int, cell: int = 12, grey_cell: tuple[int, int] | None = None):
    grid = markers.cells(code)
    n = len(grid)
    img = np.full(((n + 4) * cell, (n + 4) * cell), 235, np.uint8)
    for r in range(n):
        for c in range(n):
            if grid[r][c]:
                img[(r + 2) * cell:(r + 3) * cell, (c + 2) * cell:(c + 3) * cell] = 20
    if grey_cell:
        r, c = grey_cell
        img[(r + 2) * cell:(r + 3) * cell, (c + 2) * cell:(c + 3) * cell] = 128
    return cv2.GaussianBlur(img, (0, 0), 1.0)


def test_a_code_one_cell_away_from_ours_is_refused():
    """A code of another family one cell from ours (AprilTag 16h5 has three), read through blur,
    shows that cell in between black and white: it is not our marker."""
    quad = np.float32([[24, 24], [96, 24], [96, 96], [24, 96]])
    assert detect.quiet_zone_clear(_marker_image(27), quad, 27)
    grid = markers.cells(27)
    r, c = next((r, c) for r in range(1, 5) for c in range(1, 5) if not grid[r][c])
    assert not detect.quiet_zone_clear(_marker_image(27, grey_cell=(r, c)), quad, 27)


def test_el_mapa_names_the_buildings_the_support_rule_needs():
    game = scanphotos.catalog()["el_mapa"]
    table = _table("el_mapa")
    by_id = {t.id: t for t in table.values()}

    def read(*ids):
        return [detect.Found(by_id[i], []) for i in ids]
    assert tally.likely_missing(game, read("cuartel", "mercado", "arqueria"), 2) == {}
    assert tally.likely_missing(game, read("cuartel", "arqueria"), 2) == {1: 1}
    assert tally.likely_missing(game, read("arqueria"), 2) == {1: 2}
    assert tally.likely_missing(scanphotos.catalog()["ciudadelas"], [], 2) == {}


def test_el_mapa_scores_what_was_read_and_says_what_is_missing(tmp_path, capsys):
    from ludoteca.cli import main
    tiles = [scanphotos.face("el_mapa", "arqueria"), scanphotos.face("el_mapa", "cuartel")]
    path, truth = _photo(tmp_path, "ana", "el_mapa", 41, tiles)
    assert len(truth.visible) == 2
    code = main(["scan", "--game", "el_mapa", "--score", "--player", f"Ana={path}", "--player", f"Luis={path}",
                 "--set", "Ana.tiles_revealed=3", "--set", "Luis.tiles_revealed=3", "--lang", "en"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Ana: likely missing buildings the support rule needs under those read: 1 of level 1" in err
    assert "Ana: 2 pieces read" in out and "Total" in out


def test_a_second_photo_adds_what_the_first_missed():
    table = _table("el_mapa")
    by_id = {t.id: t for t in table.values() if t.kind == "building"}
    one = [detect.Found(by_id["cuartel"], [(0, 0)] * 4, copies=1), detect.Found(by_id["mercado"], [])]
    two = [detect.Found(by_id["mercado"], []), detect.Found(by_id["banco"], []), detect.Found(by_id["banco"], [])]
    merged = tally.merge([one, two])
    assert Counter(f.target.id for f in merged) == Counter({"cuartel": 1, "mercado": 1, "banco": 2})


def test_review_writes_the_annotated_photo_and_a_record_to_edit(tmp_path, capsys):
    from ludoteca.cli import main
    faces = [scanphotos.face("ciudadelas", "temple"), scanphotos.face("ciudadelas", "castle")]
    path, truth = _photo(tmp_path, "ana", "ciudadelas", 44, faces)
    assert len(truth.visible) == 2
    review = tmp_path / "review"
    assert main(["scan", str(path), "--game", "ciudadelas", "--review", str(review)]) == 0
    capsys.readouterr()
    assert cv2.imread(str(review / "ana-scan.png")) is not None
    text = (review / "record.yaml").read_text(encoding="utf-8")
    assert text.startswith("# ludoteca scan --review") and "ana: 2 piezas leídas" in text
    record = yaml.safe_load(text)
    assert record["game"] == "ciudadelas" and sorted(record["players"][0]["city"]) == ["castle", "temple"]


def _small_marker(code: int, side_px: float, k: int = 8):
    """A sharp marker whose black square is ``side_px`` photo pixels across, on a light table
    (drawn ``k`` times larger and reduced, as a camera's pixels average it)."""
    grid = markers.cells(code)
    cell = side_px * k / len(grid)
    big = np.full((120 * k, 120 * k), 225, np.uint8)
    x0 = 50 * k
    for r, row in enumerate(grid):
        for c, black in enumerate(row):
            if black:
                big[int(x0 + r * cell):int(x0 + (r + 1) * cell), int(x0 + c * cell):int(x0 + (c + 1) * cell)] = 25
    return cv2.resize(big, None, fx=1 / k, fy=1 / k, interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("side", [10.0, 11.0])
def test_a_sharp_marker_of_10_to_11_photo_pixels_is_read(side):
    """The detector hands back such a marker a pixel or so smaller than printed; the size check
    once refused it (a far token, a far card's corner in a 1.2 MP photo)."""
    found = detect.find_markers(_small_marker(7, side))
    assert [code for code, _quad in found] == [7]


def test_a_blurred_marker_the_detector_cannot_decode_is_read_from_its_candidate_square():
    """Depth blur washes a marker's lone cells into grey: OpenCV finds the square but gives up on
    its bits; read against the blurred look of every code it is the one it is."""
    sharp = _small_marker(0, 16)
    blurred = cv2.GaussianBlur(sharp, (0, 0), 1.2 * 16 / 6 / 2.5)     # 0.5 of a cell
    found = detect.find_markers(blurred)
    assert [code for code, _quad in found] == [0]
    (_code, quad), = detect.find_markers(sharp)
    assert np.allclose(found[0][1], quad, atol=1.5)       # the same corners, its top-left first


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_a_candidate_square_is_read_from_whichever_corner_it_starts(turn):
    gray = _small_marker(42, 30)
    (_code, quad), = detect.find_markers(gray, enlarge=False)
    square = np.roll(np.float32(quad), -turn, axis=0)
    for corners in (square, square[::-1]):
        (code, read, _fitted), = detect.read_candidates(gray, [corners], [])
        assert code == 42 and np.allclose(read, quad, atol=0.01)


def test_a_larger_code_of_another_family_is_not_read_as_ours():
    """A 6x6 ArUco code (id 27) at 90 px, read enlarged, decodes as our code 35 with every cell
    fitting; its cells have the other code's edges running through them."""
    aruco = cv2.aruco
    other = aruco.generateImageMarker(aruco.getPredefinedDictionary(aruco.DICT_6X6_250), 27, 90)
    table = np.full((180, 180), 235, np.uint8)
    table[45:135, 45:135] = other
    assert detect.find_markers(cv2.GaussianBlur(table, (0, 0), 0.8)) == []


def test_a_blurred_marker_read_with_its_corners_off_is_read_once_they_are_fitted():
    """The detector's corners of a small blurred marker are off by a fraction of a cell, and its
    cells are then sampled across their neighbours: fitted to the photo, they are where the marker
    is, and the cell checks pass."""
    gray = cv2.GaussianBlur(_small_marker(7, 24), (0, 0), 1.5)
    true = np.float32([[49.5, 49.5], [73.5, 49.5], [73.5, 73.5], [49.5, 73.5]])    # pixel centres
    off = true + np.float32([[1.5, -1], [-1, 1.2], [1.3, 1], [-1, -1.4]])
    assert detect.zone_refusal(gray, off, 7) is not None
    fitted, _cc = detect.refine_corners(gray, off, 7)
    assert np.abs(fitted - true).max() < 0.6
    assert detect.zone_refusal(gray, fitted, 7) is None and detect.refit_fits(gray, fitted, 7)


def test_a_shield_in_the_art_fitted_as_a_code_is_not_read():
    """A dark shield with a lighter bar across its upper middle, fitted as code 17 (a dark square
    with a white block there): every cell is then on its side of the grey, but it does not fit 17
    better than codes one cell away."""
    k = 8
    big = np.full((60 * k, 60 * k), 200, np.uint8)
    x0, y0, s = 16 * k, 14 * k, 28 * k
    cv2.rectangle(big, (x0, y0), (x0 + s, y0 + s // 2), 40, -1)
    cv2.ellipse(big, (x0 + s // 2, y0 + s // 2), (s // 2, s // 2), 0, 0, 180, 40, -1)
    cv2.ellipse(big, (x0 + s // 2, y0 + int(s * 0.3)), (int(s * 0.22), int(s * 0.1)), 0, 0, 360, 150, -1)
    gray = cv2.GaussianBlur(cv2.resize(big, None, fx=1 / k, fy=1 / k, interpolation=cv2.INTER_AREA), (0, 0), 1.2)
    fitted, _cc = detect.refine_corners(gray, np.float32([[16, 14], [44, 14], [44, 42], [16, 42]]), 17)
    assert detect.zone_refusal(gray, fitted, 17) is None
    assert not detect.refit_fits(gray, fitted, 17)


def test_a_dim_photo_is_brightened_for_the_detector_and_a_bright_one_left_as_it_is():
    """Warm evening light: the brightest parts of the photo well below white.  The detector's
    threshold offset is a fixed number of grey levels, so a dim photo is brightened for it (within
    DIM_GAIN); a photo with white in it is handed over untouched."""
    bright = _small_marker(7, 24)
    assert detect.brightened(bright) is bright
    dim = (bright * 0.45).astype(np.uint8)                     # white 225 -> 101
    lifted = detect.brightened(dim)
    gain = min(detect.DIM_GAIN, 255 / 101)
    assert lifted.max() == pytest.approx(min(255, 101 * gain), abs=2)
    assert int(lifted.min()) == pytest.approx(int(dim.min()) * gain, abs=2)

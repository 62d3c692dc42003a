"""Counting pieces from the markers read: two markers of one card vote together only where one
card's two markers sit, identical cards are counted by position (never merged, never twice), and
what the rules say must be there is named.  Flat images of the kit's faces, in-process."""

from __future__ import annotations

import json

import numpy as np
import yaml
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra (opencv) is part of the test extra")

import scanphotos  # noqa: E402
from clirun import ludoteca  # noqa: E402

from ludoteca.companion.scan import detect  # noqa: E402
from ludoteca.companion.scan.targets import targets  # noqa: E402

#: pixels a mm of the flat test images (9 mm markers of 36 px: read at once, and quickly)
PX_MM = 4.0


def _table(game_id: str):
    return targets(scanphotos.catalog()[game_id])


def _grey(game_id: str, entry_id: str):
    face = scanphotos.face(game_id, entry_id)
    k = PX_MM / 10.0
    return cv2.resize(cv2.cvtColor(face.rgb, cv2.COLOR_BGR2GRAY), None, fx=k, fy=k, interpolation=cv2.INTER_AREA)


def _cascade(card, n: int, dx_mm: float, dy_mm: float):
    """``n`` copies of one card, each laid ``dx_mm``, ``dy_mm`` from the last and on top of it."""
    h, w = card.shape
    sx, sy = abs(dx_mm) * PX_MM * (n - 1), abs(dy_mm) * PX_MM * (n - 1)
    canvas = np.full((int(h + sy) + 40, int(w + sx) + 40), 120, np.uint8)
    x0, y0 = 20 + (sx if dx_mm < 0 else 0), 20 + (sy if dy_mm < 0 else 0)
    for i in range(n):
        x, y = int(round(x0 + i * dx_mm * PX_MM)), int(round(y0 + i * dy_mm * PX_MM))
        canvas[y:y + h, x:x + w] = card
    return canvas


@pytest.mark.parametrize("n", [3, 4])
def test_identical_cards_close_together_are_each_counted_once(n):
    """Each card's two markers are in sight; a marker of the next card lies within the vote's reach
    of where this card's other marker is printed (18 and 16 mm off): the closest pair votes."""
    found = detect.recognise(_cascade(_grey("ciudadelas", "temple"), n, -18, 16), _table("ciudadelas"))
    assert [(f.target.id, f.copies) for f in found] == [("temple", 2)] * n


def _seat(tmp_path, width_mm: float):
    """Three identical cards 18 and 16 mm apart photographed from a seat (20 degrees, 1.2 MP, the
    frame ``width_mm`` across): the scene, its camera and what the scan finds."""
    from ludoteca.companion.scan import synth
    face = scanphotos.face("ciudadelas", "temple")
    scene = synth.Scene("ciudadelas", [synth.Item(face, (-18.0 * i, 16.0 * i), 0.0) for i in range(3)])
    view = synth.View(tilt=20, width_mm=width_mm, quality=90)
    synth.frame_all(scene, view, synth.SIZES["1.2MP"])
    jpg, truth = synth.photo(scene, synth.SIZES["1.2MP"], np.random.default_rng(5), view=view)
    assert len(truth.visible) == 3 and sum(len(q) for q in truth.corners.values()) == 6
    (tmp_path / "seat.jpg").write_bytes(jpg)
    return scene, synth.seated_camera(view, synth.SIZES["1.2MP"]), detect.scan_photo(tmp_path / "seat.jpg",
                                                                                      _table("ciudadelas"))


def test_identical_cards_close_together_seen_from_a_seat_are_each_counted_once(tmp_path):
    """Each card's markers vote through the photo's perspective: the three are three."""
    _scene, _camera, found = _seat(tmp_path, 260)
    assert [(f.target.id, f.copies) for f in found] == [("temple", 2)] * 3


def test_a_piece_s_outline_is_its_card_from_the_markers_that_voted(tmp_path):
    """What --review draws and what a tap in the app hits: every corner of a card's outline within a
    twentieth of its diagonal of where the card's corner is in the photo (the face mapped through
    both markers' eight corners; one small marker's four threw a far corner a tenth off)."""
    scene, camera, found = _seat(tmp_path, 400)
    assert [f.copies for f in found] == [2, 2, 2]
    cards = [cv2.perspectiveTransform(np.float32(item.corners()).reshape(-1, 1, 2), camera).reshape(4, 2)
             for item in scene.items]

    def off(card, outline) -> float:      # the farthest card corner from the outline's nearest corner
        return max(float(np.linalg.norm(outline - corner, axis=1).min()) for corner in card)
    for f in found:
        outline = np.float32(f.outline)
        card = min(cards, key=lambda c: off(c, outline))
        assert off(card, outline) < float(np.linalg.norm(card[0] - card[2])) / 20, (outline, card)


def test_one_printed_marker_read_twice_is_one_piece(monkeypatch):
    """The detector hands one marker back twice (its own read and a candidate's, a pixel apart): one
    card, not two."""
    table = _table("ciudadelas")
    code = next(m for m, t in table.items() if t.id == "temple")
    quad = [(100.0, 100.0), (136.0, 100.0), (136.0, 136.0), (100.0, 136.0)]
    again = [(x + 1.0, y - 0.5) for x, y in quad]
    monkeypatch.setattr(detect, "find_markers", lambda gray, **_options: [(code, quad), (code, again)])
    found = detect.recognise(None, table)
    assert [(f.target.id, f.copies) for f in found] == [("temple", 1)]


def _table_photo(tmp_path, name: str, cards: list) -> str:
    """A flat photo of these faces side by side on a grey table (JPEG)."""
    gap = np.full((cards[0].shape[0], 40), 120, np.uint8)
    row = np.hstack([part for card in cards for part in (card, gap)])
    photo = np.pad(row, 40, constant_values=120)
    path = tmp_path / f"{name}.jpg"
    path.write_bytes(cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes())
    return str(path)


def test_a_city_said_complete_first_with_districts_unread_is_scored_and_names_what_is_missing(tmp_path):
    """Ana completed her city first (8 districts), her photo shows two: the scan scores what it read and
    the first-complete bonus the table gives her, and names the 6 districts likely missing, instead of
    refusing the whole record."""
    ana = _table_photo(tmp_path, "ana", [_grey("ciudadelas", "temple"), _grey("ciudadelas", "castle")])
    luis = _table_photo(tmp_path, "luis", [_grey("ciudadelas", "temple")])
    done = ludoteca("scan", "--game", "ciudadelas", "--score", "--player", f"Ana={ana}", "--player", f"Luis={luis}",
                    "--set", "first_complete=Ana", "--json", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert "Ana: likely missing 6 districts of their city" in done.stderr
    out = json.loads(done.stdout)
    totals = {p["name"]: p["total"] for p in out["players"]}
    assert totals == {"Ana": 1 + 4 + 4, "Luis": 1}          # temple 1, castle 4, first complete 4
    assert out["scan"]["Ana"]["likely_missing"] == {"district": 6}
    assert out["scan"]["Luis"]["likely_missing"] == {}


def test_review_of_a_photo_names_the_buildings_the_support_rule_needs(tmp_path):
    """`scan PHOTO --review DIR` (no --score): the record to edit says, beside what was read, which
    buildings El Mapa's support rule needs under those read and the photo lacks."""
    photo = _table_photo(tmp_path, "ana", [_grey("el_mapa", "arqueria")])
    done = ludoteca("scan", photo, "--game", "el_mapa", "--review", tmp_path / "review")
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "review" / "record.yaml").read_text(encoding="utf-8")
    assert "# ana: " in text and "2 of level 1" in text
    assert yaml.safe_load(text)["players"] == [{"name": "ana", "buildings": ["arqueria"]}]


def test_the_annotated_photo_outlines_every_marker_that_voted():
    """--annotate and --review draw each marker read for a piece (a card read from both copies shows
    both in red), so a look tells which markers made it."""
    from ludoteca.companion.scan.draw import annotate
    grey = _grey("ciudadelas", "temple")
    found = detect.recognise(grey, _table("ciudadelas"))
    assert [f.copies for f in found] == [2]
    drawn = annotate(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), found)
    red = (drawn[:, :, 2] > 200) & (drawn[:, :, 1] < 60) & (drawn[:, :, 0] < 60)
    for quad in found[0].seen:
        x, y = (int(v) for v in np.mean(quad, axis=0))
        side = int(np.ptp(np.asarray(quad)[:, 0]))
        assert red[y - side:y + side, x - side:x + side].any(), quad

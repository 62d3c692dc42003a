"""El Mapa's print kit, read back from the PDFs that `ludoteca build el_mapa` writes.

One build per paper (the whole kit, shared with the other modules); every figure expected is
computed from the data in cards/el_mapa, and every figure measured is read out of the output
(manifest, text layer, crop marks, text sizes in the content streams).
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from ludoteca.cards import load
from ludoteca.generator.games import el_mapa
from ludoteca.generator.model import Options
from pdfmeasure import colour_distance, pdf_complaints, read, read_png, text_overflow, words

GAME = load(games=("el_mapa",))["el_mapa"]
ROMAN_LEVEL = {"I": 1, "II": 2, "III": 3}


@pytest.fixture(scope="module", params=["a4", "letter"])
def kit(request, shared_kit):
    """The El Mapa kit built on one paper: (out dir, manifest entries by component id); the
    whole kit, built once for every test module that reads it."""
    out = shared_kit("--paper", request.param)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    files = {f["component"]: f for f in manifest["files"] if f["game"] == "el_mapa"}
    return out, files, request.param


def pdf_text(path: Path, first: int | None = None, last: int | None = None) -> str:
    """The text layer in reading order, whitespace collapsed (a name wrapped on two lines reads
    as one)."""
    cmd = ["pdftotext"]
    if first:
        cmd += ["-f", str(first), "-l", str(last or first)]
    done = subprocess.run(cmd + [str(path), "-"], capture_output=True, text=True, check=True)
    return " ".join(done.stdout.split())


def copies_by_level(kind: str) -> Counter:
    tally: Counter = Counter()
    for entry in GAME.entries(kind):
        tally[entry["level"]] += entry["copies"]
    return tally


def back_levels(path: Path, pages: int) -> Counter:
    """Count the level printed on every back (even pages: each sheet of fronts, then its backs)."""
    tally: Counter = Counter()
    for page in range(2, pages + 1, 2):
        for numeral in re.findall(r"Nivel (III|II|I)\b", pdf_text(path, page)):
            tally[ROMAN_LEVEL[numeral]] += 1
    return tally


def test_tiles_per_level_match_the_data(kit):
    out, files, _ = kit
    tiles = files["tiles"]
    expected = copies_by_level("tile")
    assert tiles["items"] == sum(expected.values()) == 240
    assert tiles["duplex"] is True
    assert back_levels(out / tiles["path"], tiles["pages"]) == expected
    assert dict(expected) == {1: 114, 2: 108, 3: 18}


def test_tech_cards_are_72_with_a_back_per_level(kit):
    out, files, _ = kit
    cards = files["tech_cards"]
    expected = copies_by_level("tech_card")
    assert cards["items"] == sum(expected.values()) == 72
    assert cards["item_size_mm"] == [63.0, 88.0]
    assert back_levels(out / cards["path"], cards["pages"]) == expected


def _intervals(values: list[float]) -> list[float]:
    return [round(b - a, 3) for a, b in zip(values, values[1:])]


@pytest.mark.parametrize("component,size", [
    ("tiles", float(GAME.meta["print"]["map_tile_mm"])),
    ("buildings", float(GAME.meta["print"]["building_tile_mm"])),
])
def test_square_pieces_measure_their_size_between_crop_marks(kit, component, size):
    """Between neighbouring cut lines lies either a piece (its size) or a gutter (two bleeds)."""
    out, files, _ = kit
    assert size >= 30
    pages = read(out / files[component]["path"])
    for page in pages[:2]:
        xs, ys = page.cuts()
        for steps in (_intervals(xs), _intervals(ys)):
            pieces = [s for s in steps if abs(s - size) <= 0.2]
            assert pieces, steps
            assert all(abs(s - size) <= 0.2 or s < size / 2 for s in steps), steps


def test_tech_cards_measure_63_by_88_between_crop_marks(kit):
    out, files, _ = kit
    page = read(out / files["tech_cards"]["path"])[0]
    xs, ys = page.cuts()
    assert sum(abs(s - 63) <= 0.2 for s in _intervals(xs)) == 3
    assert sum(abs(s - 88) <= 0.2 for s in _intervals(ys)) == 3


def test_every_name_is_searchable_text(kit):
    out, files, _ = kit
    tech = pdf_text(out / files["tech_cards"]["path"])
    buildings = pdf_text(out / files["buildings"]["path"])
    aid = pdf_text(out / files["player_aid"]["path"])
    assert "Teletransporte" in tech and "Coliseo" in buildings
    for card in GAME.entries("tech_card"):
        assert card["name"]["es"] in tech, card["id"]
    for b in GAME.entries("building"):
        assert b["name"]["es"] in buildings, b["id"]
        assert b["name"]["es"].split()[0] in aid, b["id"]
    for troop in GAME.entries("troop"):
        assert troop["name"]["es"] in aid, troop["id"]


def test_no_text_under_6_pt_in_any_el_mapa_pdf(kit):
    """Every PDF on A4; on Letter only the full-page pieces, the only faces whose size follows
    the paper (cards, tiles and boards are the same faces on both papers)."""
    out, files, paper = kit
    comps = el_mapa.components(GAME, Options(paper=paper))
    wanted = {c.id for c in comps if paper == "a4" or c.layout == "page"}
    smallest = {}
    for cid in wanted:
        sizes = [t.size_pt for page in read(out / files[cid]["path"]) for t in page.texts]
        if sizes:
            smallest[cid] = min(sizes)
    assert {"player_aid", "score_pad", "setup_maps"} <= set(smallest)
    if paper == "a4":
        assert {"tiles", "tech_cards", "buildings", "castle_boards", "battle_board"} <= set(smallest)
    assert min(smallest.values()) >= 6 - 0.01, smallest


@pytest.fixture(scope="module")
def kit_en(shared_kit):
    """The El Mapa kit in English on Letter (English texts run longer than the Spanish)."""
    out = shared_kit("el_mapa", "gladiadores", "--paper", "letter", "--lang", "en")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return out, {f["component"]: f for f in manifest["files"] if f["game"] == "el_mapa"}, "letter"


def _no_text_leaves_its_face(out: Path, files: dict) -> None:
    """Fitted text stays inside its own face in every PDF: no word straddles a cut line read
    from the marks, every word lies inside the TrimBox (pdfmeasure.text_overflow); the split
    battle board is checked along its own edges."""
    boards = {c.id for c in el_mapa.components(GAME, Options()) if c.layout == "board"}
    wordy = {"tiles", "tech_cards", "buildings", "player_aid", "setup_maps", "battle_board"}
    assert wordy <= set(files) and "battle_board" in boards
    for cid, entry in files.items():
        path = out / entry["path"]
        assert any(words(path).values()) or cid not in wordy, cid
        assert text_overflow(path, board=cid in boards) == [], cid


def test_no_text_leaves_its_face(kit):
    out, files, _ = kit
    _no_text_leaves_its_face(out, files)


def test_no_english_text_leaves_its_face_on_letter(kit_en):
    out, files, _ = kit_en
    _no_text_leaves_its_face(out, files)


def test_every_pdf_reads_clean_in_strict_mode(kit):
    """No duplicate resource keys or other faults pypdf refuses in strict mode."""
    out, files, _ = kit
    assert {cid: pdf_complaints(out / f["path"]) for cid, f in files.items()} == \
        {cid: [] for cid in files}


def test_a_setup_map_for_every_player_count(kit):
    out, files, _ = kit
    maps = files["setup_maps"]
    counts = sorted(m["players"] for m in GAME.entries("map"))
    players = GAME.meta["players"]
    assert counts == list(range(players["min"], players["max"] + 1)) == [2, 3, 4, 5, 6]
    assert maps["pages"] == len(counts)
    for page, n in enumerate(counts, start=1):
        assert f"{n} jugadores" in pdf_text(out / maps["path"], page)


def test_counters_and_markers_match_the_data(kit):
    """Every counter and marker is on the one packed tokens file, in parts by size, the
    two-sided ones with their backs."""
    _, files, _ = kit
    assert not [cid for cid in files if cid.startswith(("counters_", "markers_"))]
    parts = {p["component"]: p for p in files["tokens"]["parts"]}
    by_size: Counter = Counter()
    for c in GAME.entries("counter"):
        by_size[c["size_mm"]] += c["copies"]
    for size, n in by_size.items():
        part = parts[f"counters_{size}mm"]
        assert part["items"] == n and part["item_size_mm"] == [size, size]
    colours = len(GAME.entries("player_colour"))
    marker_items = sum(p["items"] for cid, p in parts.items() if cid.startswith("markers_"))
    assert marker_items == colours * sum(m["copies"] for m in GAME.entries("player_marker"))
    two_sided = [p for p in parts.values() if p["two_sided"]]
    assert sum(p["items"] for p in two_sided) == colours * sum(
        m["copies"] for m in GAME.entries("player_marker") if m.get("two_sided"))
    assert files["tokens"]["items"] == sum(p["items"] for p in parts.values())
    assert files["tokens"]["duplex"] is True
    assert files["tokens"]["pages"] == 2 * files["tokens"]["sheets"]


def test_buildings_one_set_per_castle_board_and_one_of_each_wonder(kit):
    _, files, _ = kit
    boards = sum(b["copies"] for b in GAME.entries("board") if b.get("slots"))
    shared = [b for b in GAME.entries("building") if b.get("scope") == "shared"]
    own = [b for b in GAME.entries("building") if b.get("scope", "castle") == "castle"]
    assert files["buildings"]["items"] == boards * len(own) + len(shared)
    assert files["castle_boards"]["items"] == boards == 12


def test_castle_board_fits_one_page_each_when_turned(kit):
    _, files, paper = kit
    entry = files["castle_boards"]
    assert entry["pages"] == entry["items"]
    board = GAME.get("board", "castillo")["size_mm"]
    assert sorted(entry["item_size_mm"]) == sorted([board["width"], board["height"]])


def test_each_slot_sits_centred_over_the_slots_it_rests_on():
    comp = next(c for c in el_mapa.components(GAME, Options()) if c.id == "castle_boards")
    slots = {s["id"]: s for s in comp.fronts[0].context["slots"]}
    data = GAME.get("board", "castillo")["slots"]
    assert set(slots) == {s["id"] for s in data}
    for spec in data:
        slot = slots[spec["id"]]
        assert len(slot["supports"]) == len(spec.get("rests_on", []))
        for below in spec.get("rests_on", []):
            under = slots[below]
            assert under["y"] > slot["y"]                      # drawn below it
            assert abs(under["x"] - slot["x"]) < comp.fronts[0].context["slot_mm"]  # and under it
        if spec.get("rests_on"):
            xs = [slots[b]["x"] for b in spec["rests_on"]]
            assert abs(slot["x"] - sum(xs) / len(xs)) < 1e-9


def test_every_tile_level_has_its_own_colour_and_symbol():
    comp = next(c for c in el_mapa.components(GAME, Options()) if c.id == "tiles")
    backs = {f.context["level"]: f.context["style"] for f in comp.backs}
    assert set(backs) == {1, 2, 3}
    assert len({s["fill"] for s in backs.values()}) == 3
    assert len({s["shape"] for s in backs.values()}) == 3


PNG_DPI = 50


@pytest.fixture(scope="module")
def png_kit(shared_kit):
    """El Mapa built with --png: the folder of its PNGs."""
    out = shared_kit("el_mapa", "--png", str(PNG_DPI))
    return out / "png" / "el_mapa"


def test_map_tiles_get_tts_sheets_whose_back_sheet_shows_each_tiles_level(png_kit):
    levels = [t["level"] for t in sorted(GAME.entries("tile"), key=lambda e: e["level"])
              for _ in range(t["copies"])]                  # the kit's order: by level
    assert len(levels) == 240 and set(levels) == {1, 2, 3}
    size = float(GAME.meta["print"]["map_tile_mm"])
    cell = int(min(size * PNG_DPI / 25.4, 4096 // 10))
    per = 10 * 7 - 1                  # TTS keeps the 70th slot for the hidden card
    count = math.ceil(len(levels) / per)
    tts = png_kit / "tts"
    assert sorted(p.name for p in tts.glob("tiles*.png")) == sorted(
        n for s in range(1, count + 1) for n in (f"tiles-{s}.png", f"tiles-{s}-back.png"))
    # the single-face back of each level (with bleed), sampled at 15 % across, half-way down the trim
    bleed_px, trim_px = 3 * PNG_DPI / 25.4, size * PNG_DPI / 25.4
    single = {n: read_png(png_kit / "tiles" / f"back_{n}.png").mean(bleed_px + 0.15 * trim_px,
                                                                     bleed_px + 0.5 * trim_px)
              for n in (1, 2, 3)}
    assert min(colour_distance(single[a], single[b]) for a in single for b in single if a < b) > 60
    for s in range(count):
        chunk = levels[s * per:(s + 1) * per]
        front, back = read_png(tts / f"tiles-{s + 1}.png"), read_png(tts / f"tiles-{s + 1}-back.png")
        cols = min(10, len(chunk))
        expected = (cols * cell, math.ceil(len(chunk) / cols) * cell)
        assert (front.width, front.height) == (back.width, back.height) == expected
        assert front.width <= 4096
        for i, level in enumerate(chunk):
            x, y = (i % cols) * cell, (i // cols) * cell
            seen = back.mean(x + 0.15 * cell, y + 0.5 * cell)
            nearest = min(single, key=lambda n: colour_distance(seen, single[n]))
            assert nearest == level and colour_distance(seen, single[level]) < 20, (s, i, seen)
    # concretely: the last tile (level III) and the first (level I) have different backs
    last = read_png(tts / f"tiles-{count}-back.png")
    i = len(levels) - 1 - (count - 1) * per
    cols = min(10, len(levels) - (count - 1) * per)
    first = read_png(tts / "tiles-1-back.png").mean(0.15 * cell, 0.5 * cell)
    final = last.mean((i % cols + 0.15) * cell, (i // cols + 0.5) * cell)
    assert colour_distance(first, final) > 60

"""--png: one PNG per unique face with bleed, and a Tabletop Simulator sheet per deck."""

from __future__ import annotations

import math
import struct

from ludoteca.cli import main
from pdfmeasure import colour_distance, read_png
from test_generator_layout import make_deck


def _size(png) -> tuple[int, int]:
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_png_faces_and_tts_sheet(tmp_path, capsys):
    data, face, back = make_deck(tmp_path / "src", 12)
    # 12 rows, two copies of each: 24 cards, 12 unique fronts, 12 unique backs (they print the name)
    data.write_text(data.read_text().replace(",1\n", ",2\n"))
    out = tmp_path / "out"
    assert main(["deck", str(data), "--template", str(face), "--back", str(back), "--out", str(out),
                 "--png", "100"]) == 0
    faces = sorted(p.name for p in (out / "png" / "deck" / "cards").glob("*.png"))
    assert len(faces) == 24 and "c1.png" in faces and "back.png" in faces
    w, h = _size(out / "png" / "deck" / "cards" / "c1.png")
    assert (w, h) == (round((63 + 6) / 25.4 * 100), round((88 + 6) / 25.4 * 100))
    sheet = out / "png" / "deck" / "tts" / "cards.png"
    sw, sh = _size(sheet)
    card_w = round(63 / 25.4 * 100) // 1
    assert sw <= 4096 and sw == 10 * (sw // 10) and sh == 3 * (sh // 3)   # 24 cards: 10 x 3
    assert abs(sw // 10 - card_w) <= 1
    # the backs print the name, so they differ: a back sheet laid out like the fronts
    assert _size(out / "png" / "deck" / "tts" / "cards-back.png") == (sw, sh)
    # nothing changed: nothing written again
    capsys.readouterr()
    assert main(["deck", str(data), "--template", str(face), "--back", str(back), "--out", str(out),
                 "--png", "100"]) == 0
    assert ", 0 written," in capsys.readouterr().out


def test_tts_sheet_never_wider_than_4096(tmp_path):
    data, face, _ = make_deck(tmp_path / "src", 75)
    out = tmp_path / "out"
    assert main(["deck", str(data), "--template", str(face), "--out", str(out), "--png", "200"]) == 0
    sheets = sorted((out / "png" / "deck" / "tts").glob("cards-*.png"))
    assert [p.name for p in sheets] == ["cards-1.png", "cards-2.png"]     # 69 + 6
    w1, h1 = _size(sheets[0])
    assert w1 <= 4096 and h1 == 7 * (h1 // 7)
    w2, _ = _size(sheets[1])
    assert w2 == 6 * (w1 // 10)


PLAIN_BACK = """{% import "_lib.svg.j2" as lib %}
{{ lib.svg_open() }}
{{ lib.bg("#334455") }}
{{ lib.svg_close() }}
"""
COLOUR_BACK = """{% import "_lib.svg.j2" as lib %}
{{ lib.svg_open() }}
{{ lib.bg(colour) }}
{{ lib.svg_close() }}
"""


def _hex(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _build(tmp_path, n: int, back_template: str, dpi: int = 100):
    data, face, back = make_deck(tmp_path / "src", n)
    back.write_text(back_template, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["deck", str(data), "--template", str(face), "--back", str(back), "--out", str(out),
                 "--png", str(dpi)]) == 0
    colours = [line.split(",")[2] for line in data.read_text(encoding="utf-8").splitlines()[1:]]
    return out / "png" / "deck" / "tts", colours


def test_one_back_for_the_whole_deck_is_one_back_image(tmp_path):
    tts, _ = _build(tmp_path, 12, PLAIN_BACK)
    assert sorted(p.name for p in tts.glob("*.png")) == ["cards-back.png", "cards.png"]
    sheet, back = read_png(tts / "cards.png"), read_png(tts / "cards-back.png")
    assert (back.width * 10, back.height * 2) == (sheet.width, sheet.height)     # one cell
    assert colour_distance(back.mean(back.width / 2, back.height / 2), _hex("#334455")) < 3


def test_different_backs_get_a_back_sheet_laid_out_like_the_fronts(tmp_path):
    tts, colours = _build(tmp_path, 75, COLOUR_BACK, dpi=50)
    assert sorted(p.name for p in tts.glob("*.png")) == [
        "cards-1-back.png", "cards-1.png", "cards-2-back.png", "cards-2.png"]
    for s, chunk in enumerate((colours[:69], colours[69:]), start=1):
        front, back = read_png(tts / f"cards-{s}.png"), read_png(tts / f"cards-{s}-back.png")
        assert (back.width, back.height) == (front.width, front.height)
        cols = min(10, len(chunk))
        cw, ch = front.width // cols, front.height // math.ceil(len(chunk) / cols)
        assert front.width == cols * cw and front.height == len(chunk) // cols * ch + (
            ch if len(chunk) % cols else 0)
        for i, colour in enumerate(chunk):     # every cell shows the back of its own card
            seen = back.mean((i % cols + 0.5) * cw, (i // cols + 0.5) * ch)
            assert colour_distance(seen, _hex(colour)) < 3, (s, i, seen, colour)

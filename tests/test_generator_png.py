"""--png: one PNG per unique face with bleed, and a Tabletop Simulator sheet per deck."""

from __future__ import annotations

import struct

from ludoteca.cli import main
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
    assert (out / "png" / "deck" / "tts" / "cards-back.png").is_file()
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
    assert [p.name for p in sheets] == ["cards-1.png", "cards-2.png"]     # 70 + 5
    w1, h1 = _size(sheets[0])
    assert w1 <= 4096 and h1 == 7 * (h1 // 7)
    w2, _ = _size(sheets[1])
    assert w2 == 5 * (w1 // 10)

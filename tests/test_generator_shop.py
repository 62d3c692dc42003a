"""--shop PROFILE: images at the pixel size, bleed and format a print shop expects; ZIP; quantities."""

from __future__ import annotations

import csv
import io
import json
import struct
import zipfile
from pathlib import Path

import pytest

from ludoteca.cli import main
from ludoteca.generator.shop import profile, profiles
from pdfmeasure import colour_distance, read_png
from test_generator_layout import make_deck


def _png_info(path: Path) -> tuple[int, int, float | None]:
    """(width, height, dpi from pHYs) read from the file's chunks."""
    data = path.read_bytes()
    w, h = struct.unpack(">II", data[16:24])
    at = data.find(b"pHYs")
    dpi = None
    if at > 0:
        ppm, _ppm, unit = struct.unpack(">IIB", data[at + 4:at + 13])
        dpi = ppm * 0.0254 if unit == 1 else None
    return w, h, dpi


def test_every_profile_cites_its_spec_and_says_its_numbers():
    found = profiles()
    assert {"mpc-poker", "tgc-poker", "generic-300"} <= set(found)
    for p in found.values():
        assert p.dpi == 300 and p.colour_space == "sRGB" and p.spec_note
        if p.id != "generic-300":
            assert p.spec_url.startswith("https://") and str(p.pixels[0]) in p.spec_note


@pytest.mark.parametrize("key,size", [("mpc-poker", (822, 1122)), ("tgc-poker", (825, 1125)),
                                      # 63 + 2*3 = 69 mm and 88 + 6 = 94 mm at 300 DPI
                                      ("generic-300", (815, 1110))])
def test_profile_pixel_sizes(key, size):
    assert profile(key).geometry((63.0, 88.0))[:2] == size


def _deck(tmp_path: Path, shop: str, n: int = 4) -> Path:
    data, face, back = make_deck(tmp_path / "src", n)
    back.write_text(back.read_text().replace('"B-" ~ name', '"B"'), encoding="utf-8")   # one back
    data.write_text(data.read_text().replace("#3f9a4a,1\n", "#3f9a4a,3\n"), encoding="utf-8")  # c2 x 3
    out = tmp_path / "out"
    assert main(["deck", str(data), "--template", str(face), "--back", str(back), "--out", str(out),
                 "--shop", shop, "-q"]) == 0
    return out


def test_mpc_images_zip_and_quantities(tmp_path):
    out = _deck(tmp_path, "mpc-poker")
    folder = out / "shop" / "mpc-poker"
    fronts = sorted((folder / "deck-cards" / "front").glob("*.png"))
    backs = sorted((folder / "deck-cards" / "back").glob("*.png"))
    assert [p.name for p in fronts] == ["0001-c1.png", "0002-c2.png", "0003-c3.png", "0004-c4.png"]
    assert [p.name for p in backs] == ["0001-back.png"]
    for path in fronts + backs:
        w, h, dpi = _png_info(path)
        assert (w, h) == (822, 1122) and dpi == pytest.approx(300, abs=0.01)
    rows = list(csv.DictReader(io.StringIO((folder / "cantidades.csv").read_text(encoding="utf-8"))))
    assert [(r["file"], r["side"], r["count"]) for r in rows] == [
        ("deck-cards/front/0001-c1.png", "front", "1"), ("deck-cards/front/0002-c2.png", "front", "3"),
        ("deck-cards/front/0003-c3.png", "front", "1"), ("deck-cards/front/0004-c4.png", "front", "1"),
        ("deck-cards/back/0001-back.png", "back", "6")]
    with zipfile.ZipFile(out / "shop" / "mpc-poker.zip") as zf:
        assert sorted(zf.namelist()) == sorted([r["file"] for r in rows] + ["cantidades.csv"])
    entry = next(e for e in json.loads((out / "manifest.json").read_text())["files"] if e["component"] == "shop")
    assert (entry["path"], entry["images"], entry["items"]) == ("shop/mpc-poker.zip", 5, 6)
    assert entry["spec"] == profile("mpc-poker").spec_url
    assert "Imprenta (mpc-poker): sube shop/mpc-poker.zip: 5 imágenes" in (out / "LEEME-imprimir.txt").read_text()


def test_the_trim_fills_the_shops_trim_and_the_bleed_is_drawn(tmp_path):
    out = _deck(tmp_path, "tgc-poker", n=1)
    image = read_png(out / "shop" / "tgc-poker" / "deck-cards" / "front-0001-c1.png")
    assert (image.width, image.height) == (825, 1125)
    colour = (0x3a, 0x6f, 0xc4)                       # card 1's background, full bleed
    for x, y in ((2, 2), (822, 2), (2, 1122), (822, 1122), (412, 10)):
        assert colour_distance(image.mean(x, y, radius=1), colour) < 4, (x, y)
    # the frame (inset 3 mm from the trim) starts 37.5 + 3 mm * 750/63.0 = 73 px from the edge
    row = [image.rgb(x, 600) for x in range(60, 90)]
    dark = [60 + i for i, px in enumerate(row) if sum(px) < 200]
    assert dark and abs(dark[0] - 73) <= 2


def test_a_card_of_another_size_is_skipped_with_a_note(tmp_path, capsys):
    data, face, _ = make_deck(tmp_path / "src", 2)
    assert main(["deck", str(data), "--template", str(face), "--size", "40x40", "--out",
                 str(tmp_path / "out"), "--shop", "mpc-poker"]) == 0
    err = capsys.readouterr().err
    assert "note: deck/cards: 40x40 mm is not the card of shop profile mpc-poker; not exported" in err
    assert not (tmp_path / "out" / "shop").exists()


def test_an_unknown_profile_is_one_line(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["deck", "x.csv", "--shop", "kinkos"])
    assert exc.value.code == 2
    assert "unknown shop profile 'kinkos' (choose mpc-poker, tgc-poker, generic-300)" in capsys.readouterr().err

"""Tabletop Simulator: sheets of at most 69 cards and a saved object that imports in one step."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from ludoteca.cli import main
from ludoteca.generator.png import sheet_chunks
from ludoteca.generator.progress import Progress
from test_generator_layout import make_deck


def _size(png: Path) -> tuple[int, int]:
    return struct.unpack(">II", png.read_bytes()[16:24])


def _build(tmp_path: Path, n: int, back: bool = True, dpi: int = 50) -> Path:
    data, face, back_t = make_deck(tmp_path / "src", n)
    out = tmp_path / "out"
    args = ["deck", str(data), "--template", str(face), "--out", str(out), "--png", str(dpi), "-q"]
    assert main(args + (["--back", str(back_t)] if back else [])) == 0
    return out


@pytest.mark.parametrize("n,chunks", [(1, [(0, 1)]), (69, [(0, 69)]), (70, [(0, 69), (69, 70)]),
                                      (150, [(0, 69), (69, 138), (138, 150)])])
def test_sheets_hold_at_most_69_cards(n, chunks):
    assert sheet_chunks(n) == chunks


def test_saved_object_of_a_75_card_deck_with_its_own_backs(tmp_path):
    out = _build(tmp_path, 75)
    saved = json.loads((out / "png" / "deck" / "tts" / "cards.json").read_text(encoding="utf-8"))
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "cards"
    # sheet 1: 69 cards on 10 x 7 (the 70th slot is the hidden card); sheet 2: 6 cards on 6 x 1
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    one, two = deck["CustomDeck"]["1"], deck["CustomDeck"]["2"]
    assert (one["NumWidth"], one["NumHeight"], two["NumWidth"], two["NumHeight"]) == (10, 7, 6, 1)
    for sheet in (one, two):
        assert sheet["BackIsHidden"] is True and sheet["UniqueBack"] is True   # backs print the name
        face, back = Path(sheet["FaceURL"][len("file://"):]), Path(sheet["BackURL"][len("file://"):])
        assert face.is_file() and back.is_file()
        w, h = _size(face)
        assert (w // sheet["NumWidth"] * sheet["NumWidth"], h // sheet["NumHeight"] * sheet["NumHeight"]) == (w, h)
        assert _size(back) == (w, h)
    assert deck["DeckIDs"] == [100 + i for i in range(69)] + [200 + i for i in range(6)]
    cards = deck["ContainedObjects"]
    assert len(cards) == 75 and [c["CardID"] for c in cards] == deck["DeckIDs"]
    assert cards[0]["Name"] == "Card" and cards[0]["Nickname"] == "Carta1 Ñandú"
    assert cards[70]["CustomDeck"] == {"2": two}


def test_one_back_for_all_is_one_image_and_not_unique(tmp_path):
    data, face, back = make_deck(tmp_path / "src", 3)
    back.write_text(back.read_text().replace('"B-" ~ name', '"B"'), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["deck", str(data), "--template", str(face), "--back", str(back), "--out", str(out),
                 "--png", "50", "-q"]) == 0
    deck = json.loads((out / "png" / "deck" / "tts" / "cards.json").read_text())["ObjectStates"][0]
    sheet = deck["CustomDeck"]["1"]
    assert (sheet["NumWidth"], sheet["NumHeight"], sheet["UniqueBack"]) == (3, 1, False)
    assert sheet["BackURL"].endswith("/png/deck/tts/cards-back.png")
    fw, fh = _size(Path(sheet["FaceURL"][7:]))
    assert _size(Path(sheet["BackURL"][7:])) == (fw // 3, fh)


def test_a_single_card_is_a_card_not_a_deck(tmp_path):
    out = _build(tmp_path, 1, back=False)
    (card,) = json.loads((out / "png" / "deck" / "tts" / "cards.json").read_text())["ObjectStates"]
    assert card["Name"] == "Card" and card["CardID"] == 100
    assert card["CustomDeck"]["1"]["BackURL"] == ""


def test_manifest_and_guide_list_the_pngs_and_the_tts_grid(tmp_path):
    out = _build(tmp_path, 75)
    entry = json.loads((out / "manifest.json").read_text())["files"][0]
    listed = set(entry["png"])
    on_disk = {str(p.relative_to(out)) for p in (out / "png" / "deck" / "cards").glob("*.png")}
    assert listed == on_disk and len(listed) == 150          # 75 unique fronts, 75 unique backs
    tts = entry["tts"]
    assert tts["json"] == "png/deck/tts/cards.json"
    assert [(s["num_width"], s["num_height"], s["cards"]) for s in tts["sheets"]] == [(10, 7, 69), (6, 1, 6)]
    for sheet in tts["sheets"]:
        assert (out / sheet["face"]).is_file() and (out / sheet["back"]).is_file()
    guide = (out / "LEEME-imprimir.txt").read_text()
    assert "Tabletop Simulator: png/deck/tts/cards.json (cuadrícula 10×7, 6×1, 75 cartas)" in guide


def test_the_progress_bar_counts_the_pngs(tmp_path, monkeypatch):
    seen: list[tuple[str, int]] = []
    original = Progress.__init__

    def spy(self, total, what="pages", stream=None, quiet=False):
        original(self, total, what, stream, quiet)
        seen.append((what, total))

    monkeypatch.setattr(Progress, "__init__", spy)
    _build(tmp_path, 12, dpi=50)
    # 12 fronts + 12 backs, one front sheet and one back sheet
    assert ("PNG", 26) in seen
    seen.clear()
    _build(tmp_path, 12, dpi=50)                      # nothing changed: no PNG to count
    assert [w for w, _ in seen] == ["pages"]


def test_pngs_render_in_the_worker_pool(tmp_path, monkeypatch):
    import os
    from ludoteca.generator import raster
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: no pool")
    log = tmp_path / "writers"
    original = raster.write_bytes

    def spy(path, data, *args):                # forked into the workers with the pool
        with open(log, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        return original(path, data, *args)

    monkeypatch.setattr(raster, "write_bytes", spy)
    _build(tmp_path, 12, dpi=50)
    writers = set(log.read_text().split())
    assert writers and str(os.getpid()) not in writers


def test_tts_url_points_the_saved_object_at_the_uploaded_folder(tmp_path):
    data, face, back = make_deck(tmp_path / "src", 75)
    out = tmp_path / "out"
    base = ["deck", str(data), "--template", str(face), "--back", str(back), "--out", str(out),
            "--png", "50", "-q"]
    assert main(base + ["--tts-url", "https://example.org/kit/"]) == 0
    deck = json.loads((out / "png" / "deck" / "tts" / "cards.json").read_text())["ObjectStates"][0]
    urls = [(s["FaceURL"], s["BackURL"]) for _, s in sorted(deck["CustomDeck"].items())]
    site = "https://example.org/kit/png/deck/tts/"
    assert urls == [(site + "cards-1.png", site + "cards-1-back.png"),
                    (site + "cards-2.png", site + "cards-2-back.png")]
    for face_url, back_url in urls:  # each address names a file of the output folder
        for url in (face_url, back_url):
            assert (out / url.removeprefix("https://example.org/kit/")).is_file()
    assert main(base) == 0  # the same folder built again without it: local files again
    deck = json.loads((out / "png" / "deck" / "tts" / "cards.json").read_text())["ObjectStates"][0]
    assert deck["CustomDeck"]["1"]["FaceURL"] == (out / "png/deck/tts/cards-1.png").resolve().as_uri()


@pytest.mark.parametrize("url,says", [
    ("ftp://example.org/kit", "expected an http:// or https:// address"),
    ("https://example.org/my kit", "without spaces"),
    ("example.org/kit", "expected an http:// or https:// address"),
])
def test_a_bad_tts_url_is_refused_in_one_line(tmp_path, capsys, url, says):
    data, face, _back = make_deck(tmp_path / "src", 2)
    with pytest.raises(SystemExit) as stop:
        main(["deck", str(data), "--template", str(face), "--out", str(tmp_path / "out"), "--png", "50",
              "--tts-url", url])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--tts-url" in err and says in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_tts_url_without_png_is_refused(tmp_path, capsys):
    data, face, _back = make_deck(tmp_path / "src", 2)
    assert main(["deck", str(data), "--template", str(face), "--out", str(tmp_path / "out"),
                 "--tts-url", "https://example.org/kit"]) == 2
    assert capsys.readouterr().err.strip() == \
        "ludoteca: error: --tts-url names where the PNGs will be: give --png DPI too"
    assert not (tmp_path / "out").exists()


class _Captured:
    """A stand-in for the kit's staging folder: keeps what is written, in memory."""

    def __init__(self):
        self.texts: dict[Path, str] = {}

    def write_text(self, final: Path, text: str) -> bool:
        self.texts[final] = text
        return True


@pytest.mark.parametrize("lang", ["es", "en"])
def test_tts_decks_and_cards_are_named_in_the_kits_language(tmp_path, lang):
    from ludoteca.cards import load
    from ludoteca.generator.build import GAMES, game_components
    from ludoteca.generator.layout import Laid
    from ludoteca.generator.model import Options
    from ludoteca.generator.png import plan_png
    opts = Options(lang=lang, png_dpi=50)
    catalog = load(None, GAMES)
    named: dict[str, list[str]] = {}
    for game in GAMES:
        game_name = catalog[game].meta["name"][lang]
        for comp in game_components(game, catalog, opts, []):
            if not comp.deck:
                continue
            laid = Laid(pages=[], sheets=1, item=comp.size_mm, fronts=["<svg/>"] * len(comp.fronts),
                        backs=["<svg/>"] * len(comp.backs or []))
            stage = _Captured()
            plan_png(comp, laid, opts, tmp_path, stage, game_name)
            (text,) = stage.texts.values()
            saved = json.loads(text)
            (deck,) = saved["ObjectStates"]
            title = comp.title[lang]
            assert deck["Nickname"] == saved["SaveName"] == \
                (title if title == game_name else f"{title} · {game_name}")
            nicknames = [card["Nickname"] for card in deck["ContainedObjects"]]
            assert nicknames == [face.context["name"][lang] for face in comp.fronts]
            named[deck["Nickname"]] = nicknames
    manor, districts = ("Señorío", "Distritos · Ciudadelas") if lang == "es" else ("Manor", "Districts · Citadels")
    assert manor in named[districts]
    assert not [n for names in named.values() for n in names if "{" in n or "_" in n]

"""The rulebooks, read back from the PDFs: page order of the folded booklet, sizes, counts, the
worked example, the designer notes, fonts and text sizes, both languages.

The expected values come from the card data and from the scoring engine, never typed here.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from ludoteca.cards import load
from ludoteca.companion.engine.scoring import read_record, score_record
from ludoteca.generator.model import Options
from ludoteca.generator.rulebook import NAMES, book_pages, booklet_of, booklet_page_mm, documents
from ludoteca.generator.rulebook.impose import sides
from ludoteca.generator.rulebook.notes import notes
from ludoteca.generator.rulebook.source import TEXTS
from pdfmeasure import read

PT = 25.4 / 72
GAMES = ("ciudadelas", "el_mapa", "gladiadores")
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def catalog():
    return load()


@pytest.fixture(scope="module")
def books(catalog, tmp_path_factory) -> dict:
    """(game, lang, paper, kind) -> the PDF file, kind 'plain' (the pages in order) or 'booklet'.
    Set once per test session: the first pytest-xdist worker to ask sets them under a lock (as
    conftest's shared_kit does), the others read them."""
    import fcntl
    import os
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-books"
    folder.mkdir(exist_ok=True)
    out = {(game, lang, paper, kind): folder / f"{game}-{lang}-{paper}-{kind}.pdf"
           for game in GAMES for lang in ("es", "en") for paper in PAPERS for kind in ("plain", "booklet")}
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "done").exists():
            for game in GAMES:
                for lang in ("es", "en"):
                    for paper in PAPERS:
                        opts = Options(lang=lang, paper=paper)
                        pages = book_pages(catalog, game, opts)
                        out[game, lang, paper, "plain"].write_bytes(pages)
                        out[game, lang, paper, "booklet"].write_bytes(booklet_of(pages, catalog, game, opts))
            (folder / "done").touch()
    return out


def text_of(path: Path, first: int | None = None, crop: tuple[float, float, float, float] | None = None) -> str:
    """pdftotext of a file (or one page, or a crop of it in points)."""
    cmd = ["pdftotext", "-enc", "UTF-8"]
    if first is not None:
        cmd += ["-f", str(first), "-l", str(first)]
    if crop is not None:
        x, y, w, h = crop
        cmd += ["-r", "72", "-x", str(int(x)), "-y", str(int(y)), "-W", str(int(w)), "-H", str(int(h))]
    return subprocess.run(cmd + [str(path), "-"], capture_output=True, text=True, check=True).stdout


def layout_lines(path: Path) -> list[str]:
    """pdftotext -layout: each line as it is printed (a table row stays one line), spaces squeezed."""
    out = subprocess.run(["pdftotext", "-layout", "-enc", "UTF-8", str(path), "-"], capture_output=True,
                         text=True, check=True).stdout
    return [flat(line.replace("\u00a0", " ")) for line in out.splitlines()]


def flat(text: str) -> str:
    """Text with every run of white space as one space (lines and columns joined)."""
    return " ".join(text.split())


def body(path: Path, footer: str) -> str:
    """The whole text without the page footers, flattened: paragraphs broken by a page join up."""
    pages = text_of(path).split("\f")
    kept = []
    for page in pages:
        lines = [ln for ln in page.splitlines() if not re.fullmatch(rf"\s*{re.escape(footer)}\s*\d*\s*|\s*\d+\s*",
                                                                      ln)]
        kept.append("\n".join(lines))
    return flat(" ".join(kept))


def footer(catalog, game: str, lang: str) -> str:
    return f"{catalog[game].meta['name'][lang]} · {'Reglamento' if lang == 'es' else 'Rulebook'}"


# ---------------------------------------------------------------- the booklet


def test_booklet_order_by_hand():
    """Saddle stitch, worked by hand for 8 pages: the outer sheet holds 8|1 and 2|7."""
    assert sides(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert sides(5) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert sides(12)[:2] == [(12, 1), (2, 11)]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_booklet_pages_sit_where_folding_needs_them(books, catalog, game, paper):
    """Read the page number printed in each half of each sheet side and fold the stack in thought:
    sheet s front = [N - 2s, 2s + 1], back = [2s + 2, N - 2s - 1]; blanks beyond the last page."""
    pages = len(pypdf.PdfReader(books[game, "es", paper, "plain"]).pages)
    path = books[game, "es", paper, "booklet"]
    reader = pypdf.PdfReader(path)
    total = len(reader.pages) * 2
    assert total % 4 == 0 and pages <= total < pages + 4
    w, h = (float(v) for v in reader.pages[0].mediabox[2:])
    assert w > h                                        # landscape sheets
    assert (round(w * PT, 1), round(h * PT, 1)) == (PAPERS[paper][1], PAPERS[paper][0])
    name = catalog[game].meta["name"]["es"]
    found = []
    for i in range(len(reader.pages)):
        side = []
        for half in (0, 1):
            strip = text_of(path, i + 1, (half * w / 2, h - 40, w / 2, 40))     # the footer line
            number = re.fullmatch(re.escape(footer(catalog, game, "es")) + r"\s+(\d+)", strip.strip())
            text = text_of(path, i + 1, (half * w / 2, 0, w / 2, h))
            if number:
                side.append(int(number.group(1)))
            elif name in text:                          # the cover has no footer
                side.append(1)
            else:
                assert not text.strip(), text
                side.append(None)
        found.append(tuple(side))
    expected = []
    for s in range(total // 4):
        expected += [(total - 2 * s, 2 * s + 1), (2 * s + 2, total - 2 * s - 1)]
    expected = [tuple(p if p <= pages else None for p in side) for side in expected]
    assert found == expected
    # folding the stack: reading the sheets front-right, back-left, ... gives 1..N in order
    order = {}
    for k, (left, right) in enumerate(expected):
        order.setdefault(left, k)
        order.setdefault(right, k)
    assert sorted(p for p in order if p) == list(range(1, pages + 1))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang,paper", [("es", "a4"), ("en", "letter")])
def test_a_booklet_has_no_blank_page_that_layout_can_avoid(books, catalog, game, lang, paper):
    """A booklet's page count is a multiple of 4, so it may end with up to 3 blank pages, and only
    when setting the book a little tighter cannot save that sheet (Ciudadelas printed 9 pages and
    3 blanks)."""
    from ludoteca.generator.rulebook import Book, booklet_page_mm
    from ludoteca.generator.rulebook.content import blocks
    from ludoteca.generator.rulebook.impose import padded
    from ludoteca.generator.rulebook.typeset import page_count, typeset
    pages = len(pypdf.PdfReader(books[game, lang, paper, "plain"]).pages)
    path = books[game, lang, paper, "booklet"]
    halves = [text_of(path, i + 1, (half * w / 2, 0, w / 2, h)).strip()
              for i, page in enumerate(pypdf.PdfReader(path).pages)
              for w, h in [(float(page.mediabox[2]), float(page.mediabox[3]))] for half in (0, 1)]
    blank = sum(1 for text in halves if not text)
    assert blank == padded(pages) - pages <= 3
    if blank:
        book = Book("", "", lang, "", "#000000", booklet_page_mm(paper))
        tight = typeset(blocks(catalog[game], lang, catalog), book, tight=True)
        assert padded(page_count(tight)) == padded(pages)


@pytest.mark.parametrize("tight", [False, True])
def test_counting_a_setting_finds_the_pages_of_setting_it(catalog, tight):
    """The tighter setting a booklet may take is only counted (laid out, not drawn) before it is
    kept: the count is the number of pages the book is then set on."""
    from ludoteca.generator.rulebook import Book
    from ludoteca.generator.rulebook.content import blocks
    from ludoteca.generator.rulebook.typeset import page_count, pages_set, typeset
    parts = blocks(catalog["el_mapa"], "es", catalog)      # 18 pages, 17 when tight
    book = Book("", "", "es", "", "#000000", booklet_page_mm("a4"))
    assert pages_set(parts, book, tight) == page_count(typeset(parts, book, tight)) > 4


@pytest.mark.parametrize("game", ["ciudadelas", "gladiadores"])
def test_the_least_pages_of_the_tight_setting_are_never_more_than_it_takes(catalog, game):
    """A booklet skips counting the tight setting when even its least pages (found while setting
    the usual one) cannot save a sheet: that least must never be more than the count."""
    from ludoteca.generator.rulebook import Book
    from ludoteca.generator.rulebook.content import blocks
    from ludoteca.generator.rulebook.typeset import _Least, _set, pages_set
    parts = blocks(catalog[game], "es", catalog)
    book = Book("", "", "es", "", "#000000", booklet_page_mm("a4"))
    least = _Least()
    pages = _set(parts, book, draw=False, least=least)[2]
    assert 4 < least.pages <= pages_set(parts, book, tight=True) <= pages


def test_counting_the_tight_setting_stops_once_it_cannot_save_a_sheet(catalog, monkeypatch):
    """Ciudadelas takes 9 pages either way (at least 8 tight, so the count runs): counting its
    tight setting stops before its last pages once the pages filled and the least of the blocks
    left pass 8, and a limit it can keep to never stops it (the count is the pages it takes)."""
    from ludoteca.generator.rulebook import Book
    from ludoteca.generator.rulebook import typeset as ts
    from ludoteca.generator.rulebook.content import blocks
    parts = blocks(catalog["ciudadelas"], "es", catalog)
    book = Book("", "", "es", "", "#000000", booklet_page_mm("a4"))
    least = ts._Least()
    pages = ts._set(parts, book, draw=False, least=least)[2]
    assert least.pages == 8 < pages == 9
    ended: list[int] = []
    rest = ts._Least.rest
    monkeypatch.setattr(ts._Least, "rest", lambda self, started: ended.append(started) or rest(self, started))
    assert ts.pages_set(parts, book, tight=True, limit=(least, pages)) == pages       # never stopped
    assert len(ended) == pages
    ended.clear()
    assert ts.pages_set(parts, book, tight=True, limit=(least, 8)) > 8                 # stopped early
    assert len(ended) < pages - 1


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_page_sizes(books, paper):
    """The pages are half the paper (A5 on A4, half-letter on Letter); the booklet places them on
    landscape sheets of the paper without scaling."""
    pw, ph = PAPERS[paper]
    for game in GAMES:
        half = booklet_page_mm(paper)
        assert half == (ph / 2, pw)
        for page in pypdf.PdfReader(books[game, "en", paper, "plain"]).pages:
            assert abs(float(page.mediabox.width) * PT - half[0]) < 0.05
            assert abs(float(page.mediabox.height) * PT - half[1]) < 0.05
        sheet = pypdf.PdfReader(books[game, "en", paper, "booklet"]).pages[0]
        forms = sheet["/Resources"]["/XObject"]
        for ref in forms.values():
            form = ref.get_object()
            x0, y0, x1, y1 = (float(v) for v in form["/BBox"])
            assert abs((x1 - x0) * PT - half[0]) < 0.05 and abs((y1 - y0) * PT - half[1]) < 0.05
        assert re.findall(rb"q 1 0 0 1 [\d.]+ [\d.]+ cm /P\d+ Do Q", sheet.get_contents().get_data())


# ---------------------------------------------------------------- what the text says


@pytest.mark.parametrize("lang", ["es", "en"])
def test_ciudadelas_counts_are_the_data(books, catalog, lang):
    game = catalog["ciudadelas"]
    counts = game.counts()
    text = body(books["ciudadelas", lang, "a4", "plain"], footer(catalog, "ciudadelas", lang))
    cards = "cartas de distrito" if lang == "es" else "district cards"
    assert f"{counts['districts']} {cards} ({counts['districts_kinds']} " in text
    for colour in game.entries("colour"):
        assert f"{counts['districts_by_colour'][colour['id']]} {colour['name'][lang]}" in text
    assert f"{counts['characters']} {'cartas de personaje' if lang == 'es' else 'character cards'}" in text
    for comp in game.entries("component"):
        assert f"{comp['copies']} × {comp['name'][lang]}" in text
    layout = flat(text_of(books["ciudadelas", lang, "a4", "plain"]).replace("\u00a0", " "))
    for d in game.entries("district"):
        assert f"{d['name'][lang]} {d['cost']} {d['copies']}" in layout, d["id"]
    draft = game.meta["character_draft"]["by_players"]
    for n, row in draft.items():
        assert f"{n} {row['face_up']} {row['face_down_before']} {row['characters_each']}" in layout


@pytest.mark.parametrize("lang", ["es", "en"])
def test_el_mapa_counts_and_maps_are_the_data(books, catalog, lang):
    from collections import Counter
    game = catalog["el_mapa"]
    counts = game.counts()
    text = body(books["el_mapa", lang, "a4", "plain"], footer(catalog, "el_mapa", lang)).replace("\u00a0", " ")
    of = "de nivel" if lang == "es" else "of level"
    levels = ", ".join(f"{n} {of} {lv}" for lv, n in sorted(counts["tiles_by_level"].items()))
    assert f"{counts['tiles']} " in text and levels in text
    assert f"{counts['tech_cards']} " in text
    # the counters of one resource or troop on one line with their values, not "15 × Madera ×5"
    for kind in ("resource", "troop"):
        for thing in game.entries(kind):
            mine = [c for c in game.entries("counter") if c.get(kind) == thing["id"]]
            if not mine:
                continue
            values = (" y " if lang == "es" else " and ").join(
                f"{c['copies']} de valor {c['value']}" if lang == "es" else f"{c['copies']} worth {c['value']}"
                for c in mine)
            line = f"Contadores de {thing['name'][lang].lower()}: {values}." if lang == "es" else \
                f"{thing['name'][lang]} counters: {values}."
            assert line in text, thing["id"]
    assert not re.search(r"\d+ × [^•]*×\d", text)
    colours = len(game.entries("player_colour"))
    for m in game.entries("player_marker"):
        assert f"{m['copies'] * colours} × {m['name'][lang]}" in text, m["id"]
    for b in game.entries("board"):
        assert f"{b['copies']} × {b['name'][lang]}" in text
    for m in game.entries("map"):
        grid = m["grid"]
        assert f"{m['name'][lang]} ({len(grid[0])} × {len(grid)})" in text
        tally = Counter(str(c) for row in grid for c in row if str(c).isdigit())
        # the level badge prints its number; the map's own J/P/M labels may come between in reading order
        between = r"(?: [JPMX]\d*)* "
        assert re.search(between.join(f"{lv} × {tally[lv]}" for lv in sorted(tally)), text), m["id"]
    rows = flat(text_of(books["el_mapa", lang, "a4", "plain"]).replace("\u00a0", " "))
    for t in game.entries("troop"):
        assert f"{t['name'][lang]} " in rows and f" {t['hp']} {t['damage']} {t['map_move']} {t['battle_move']} " in rows
    for c in game.entries("tech_card"):
        assert f"{c['name'][lang]} {c['copies']} " in rows, c["id"]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_gladiadores_counts_and_cards_are_the_data(books, catalog, lang):
    game = catalog["gladiadores"]
    counts = game.counts()
    text = body(books["gladiadores", lang, "a4", "plain"], footer(catalog, "gladiadores", lang))
    by_kind = counts["gladiators_by_kind"]
    if lang == "es":
        assert (f"{counts['gladiators']} cartas de gladiador: {by_kind['tiro']} tiros (novatos) y "
                f"{by_kind['veteran']} veteranos") in text
    else:
        assert (f"{counts['gladiators']} gladiator cards: {by_kind['tiro']} Tiros (novices) and "
                f"{by_kind['veteran']} veterans") in text
    for t in game.entries("token"):
        assert f"{t['copies']} × {t['name'][lang]}" in text, t["id"]
    rows = flat(text_of(books["gladiadores", lang, "a4", "plain"]))
    lines = layout_lines(books["gladiadores", lang, "a4", "plain"])
    for g in game.entries("gladiator"):
        numbers = [g["combat"], g["work"], g["construction"], g["shields"], g["favor"], g["fight_cost"],
                   g.get("min_bid", "—"), g["copies"]]
        assert f"{g['name'][lang]} " + " ".join(map(str, numbers)) in lines, g["id"]
    for c in game.entries("combat_card"):
        assert f"{c['name'][lang]} {c['swords']} {c['shields']} {c['skulls']} {c['copies']}" in rows, c["id"]
    for row in game.meta["player_counts"]:
        star = r" ?\*" if row["expansion"] else ""
        assert any(re.fullmatch(rf"{row['players']}{star} .+ {row['starting_buildings']}", ln) for ln in lines), row
    setup = game.meta["setup"]
    assert (f"Da {setup['starting_coins']} monedas a cada jugador" if lang == "es"
            else f"Give {setup['starting_coins']} coins to each player") in text


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_worked_example_is_the_scoring_engine(books, catalog, game, lang):
    """Every player's row of the example table is what score_record gives for examples/<game>.yaml."""
    record = read_record(ROOT / "examples" / f"{game}.yaml")
    result = score_record(record, catalog)
    text = flat(text_of(books[game, lang, "a4", "plain"]))
    assert " ".join(p.name for p in result.players) in text
    for key, label in result.labels.items():
        row = " ".join([label[lang]] + [str(p.breakdown[key]) for p in result.players])
        assert row in text, row
    assert " ".join(["Total"] + [str(p.total) for p in result.players]) in text
    for p in result.players:
        assert sum(p.breakdown.values()) == p.total
    best = max(p.total for p in result.players)
    winner = result.winners[0]
    assert (f"Gana {winner} con {best} puntos." if lang == "es" else f"{winner} wins with {best} points.") in text


#: What a player should never read in a rulebook: code, ids of the data, file names, options.
CODE = {"backticks": re.compile(r"`"),
        "an id in snake_case": re.compile(r"\b[a-z]+_[a-z0-9_]+\b"),
        "a file name": re.compile(r"\b[\w/-]+\.(?:ya?ml|py|json|txt|csv|pdf|j2)\b"),
        "an option": re.compile(r"(?<![\w-])--[a-z][a-z-]*"),
        "a command": re.compile(r"\bludoteca [a-z]+")}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_no_page_shows_code_ids_file_names_or_options(books, game, lang):
    """Rules for players: no backticks ("cambia `edition` a `original`"), no ids of the data
    ("(most_gold)", "activa dark_city"), no file names ("examples/el_mapa.yaml"), no options."""
    pages = text_of(books[game, lang, "a4", "plain"]).split("\f")
    shown = [f"p. {n}: {what}: {m.group(0)!r}" for n, page in enumerate(pages, start=1)
             for what, pattern in CODE.items() for m in pattern.finditer(page.replace("\n", " "))]
    assert shown == []


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_designer_notes_close_the_book(books, catalog, game, lang):
    """The data's notes reach players as a short appendix of designer notes, last in the book
    before the turn summary, each led by what it is about; no "Aclaraciones" of provenance notes."""
    from ludoteca.generator.rulebook.source import texts
    path = books[game, lang, "a4", "plain"]
    heading = "Notas de diseño" if lang == "es" else "Designer notes"
    assert [o.title for o in pypdf.PdfReader(path).outline[-2:]] == [heading, SUMMARY[lang]]
    pages = text_of(path).split("\f")[:-1]                  # pdftotext ends every page with \f
    start = next(n for n, page in enumerate(pages) if heading in page)
    appendix = flat(" ".join(pages[start:-1]))
    written = texts(game)["designer_notes"]
    by_path = {n.path: n for n in notes(catalog[game])}
    for note in written:
        leads = note.get("topic", {}).get(lang) or ", ".join(
            dict.fromkeys(by_path[p].topic[lang] for p in note["about"]))
        assert f"{leads}." in appendix
    assert len(pages) - 1 - start <= 2, "a short appendix"
    assert "Aclaraciones" not in flat(" ".join(pages)) and "Clarifications" not in flat(" ".join(pages))


SUMMARY = {"es": "Resumen del turno", "en": "Turn summary"}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_turn_summary_is_the_last_page_and_says_what_the_player_aid_says(books, catalog, game, lang):
    """One page at the end: every line of it is a line the kit's reference card or player aid
    prints (the same function makes both), so the two cannot drift apart."""
    from ludoteca.generator.games import ciudadelas, el_mapa, gladiadores
    path = books[game, lang, "a4", "plain"]
    pages = text_of(path).split("\f")[:-1]
    assert SUMMARY[lang] in pages[-1] and SUMMARY[lang] not in flat(" ".join(pages[:-1]))
    if game == "ciudadelas":
        lines = ciudadelas.turn_steps(catalog[game])
    elif game == "el_mapa":
        lines = el_mapa.turn_steps(catalog[game])
    else:
        lines = [ln for sec in gladiadores.aid_sections(catalog[game]) if sec["id"] != "setup"
                 for ln in sec.get("lines", [])]
    last = flat(pages[-1])
    for line in lines:
        assert flat(line[lang]) in last, line[lang][:60]


def test_a_designer_note_about_no_data_note_is_one_line(catalog, tmp_path, monkeypatch):
    from ludoteca.generator.rulebook import source
    from ludoteca.generator.rulebook.content import blocks
    from ludoteca.generator.rulebook.source import RulebookError
    folder = tmp_path / "texts"
    folder.mkdir()
    for file in TEXTS.glob("*.yaml"):
        text = file.read_text(encoding="utf-8")
        if file.name == "ciudadelas.yaml":
            text = text.replace("  - about: [game.tie_break.note]", "  - about: [game.tie_breaks.note]")
        (folder / file.name).write_text(text, encoding="utf-8")
    monkeypatch.setattr(source, "TEXTS", folder)
    source._read.cache_clear()
    try:
        with pytest.raises(RulebookError) as err:
            blocks(catalog["ciudadelas"], "es", catalog)
    finally:
        source._read.cache_clear()
    message = str(err.value)
    assert "\n" not in message and message.startswith("ciudadelas.yaml:")
    assert "'game.tie_breaks.note' is no note of ciudadelas's data" in message


@pytest.mark.parametrize("game", GAMES)
def test_every_note_has_a_current_spanish_text(catalog, game):
    stale = [n.path for n in notes(catalog[game]) if not n.translated]
    assert not stale, f"notes_es.yaml: missing or stale for {stale}"


def test_an_edited_note_shows_as_untranslated(catalog, tmp_path):
    """Change one English note: the Spanish book prints the English, marked, until it is translated."""
    import copy
    game = copy.deepcopy(catalog["ciudadelas"])
    game.meta["tie_break"]["note"] = "A different note."
    note = next(n for n in notes(game) if n.path == "game.tie_break.note")
    assert not note.translated and note.text["es"] == "A different note."


# ---------------------------------------------------------------- fonts, sizes, languages


@pytest.mark.parametrize("kind", ["plain", "booklet"])
def test_fonts_are_embedded(books, kind):
    for game in GAMES:
        for lang in ("es", "en"):
            out = subprocess.run(["pdffonts", str(books[game, lang, "a4", kind])], capture_output=True,
                                 text=True, check=True).stdout.splitlines()[2:]
            assert out
            for line in out:
                assert "BitstreamVera" in line and re.search(r"\byes\s+yes\b", line), line


@pytest.mark.parametrize("kind", ["plain"])
def test_no_text_under_6_pt(books, kind):
    """The book's text; the pictures (the cover, the setup's real cards drawn small) are pictures."""
    for game in GAMES:
        for lang in ("es", "en"):
            texts = [t for page in read(books[game, lang, "a4", kind]) for t in page.texts]
            sizes = [t.size_pt for t in texts if not t.form.startswith("/LudotecaPicture")]
            assert sizes and min(sizes) >= 6.0
            assert len(sizes) < len(texts), "the setup picture's words are drawn"


@pytest.mark.parametrize("game", GAMES)
def test_both_languages_and_metadata(books, catalog, game):
    for lang, word in (("es", "Reglamento"), ("en", "Rulebook")):
        path = books[game, lang, "a4", "plain"]
        info = pypdf.PdfReader(path)
        assert info.metadata.title == f"{catalog[game].meta['name'][lang]} · {word}"
        assert info.trailer["/Root"]["/Lang"] == lang
        assert info.outline, "one bookmark per chapter"
        text = text_of(path)
        assert word in text
    es = text_of(books[game, "es", "a4", "plain"])
    en = text_of(books[game, "en", "a4", "plain"])
    assert ("Notas de diseño" in es and "Designer notes" not in es) and "Designer notes" in en


# ---------------------------------------------------------------- in the kit


def test_build_lists_the_rulebooks(tmp_path):
    out = tmp_path / "kit"
    run = subprocess.run([sys.executable, "-m", "ludoteca", "build", "ciudadelas", "--out", str(out),
                          "--lang", "en"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    entries = {e["path"]: e for e in manifest["files"]}
    for rel in NAMES["en"]:
        entry = entries[f"ciudadelas/{rel}"]
        assert (out / entry["path"]).is_file()
        assert entry["pages"] == len(pypdf.PdfReader(out / entry["path"]).pages)
        assert entry["item_size_mm"] == pytest.approx([297 / 2, 210], abs=0.01)     # A5 pages on A4
    assert entries["ciudadelas/rulebook.pdf"]["page_size_mm"] == pytest.approx([148.5, 210], abs=0.01)
    assert entries["ciudadelas/rulebook-booklet.pdf"]["page_size_mm"] == pytest.approx([297, 210], abs=0.01)
    guide = (out / "PRINT-GUIDE.txt").read_text(encoding="utf-8")
    assert "ciudadelas/rulebook-booklet.pdf" in guide and "flip on the short edge" in guide
    again = subprocess.run([sys.executable, "-m", "ludoteca", "build", "ciudadelas", "--out", str(out),
                            "--lang", "en"], capture_output=True, text=True)
    assert again.returncode == 0 and ", 0 written" in again.stdout


def test_documents_read_back_from_the_cache(catalog, tmp_path):
    from ludoteca.generator.rulebook import any_cached
    opts = Options(lang="es")
    assert not any_cached(tmp_path)            # a build's workers load the books' imports early
    first = documents(catalog, ("ciudadelas",), opts, tmp_path)
    assert any_cached(tmp_path)                # ... and not when a book is likely read back
    second = documents(catalog, ("ciudadelas",), opts, tmp_path)
    assert [d.data for d in first] == [d.data for d in second]
    assert [(d.pages, d.sheets) for d in first] == [(d.pages, d.sheets) for d in second]
    assert len(list(tmp_path.glob("*.pdf"))) == 2


def test_a_bad_placeholder_is_one_line(catalog, tmp_path, monkeypatch):
    from ludoteca.generator.rulebook import source
    from ludoteca.generator.rulebook.content import blocks
    folder = tmp_path / "texts"
    folder.mkdir()
    for path in TEXTS.glob("*.yaml"):
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "ciudadelas.yaml").write_text(
        "blocks:\n  - p: {es: 'Hay {game.no_such} cartas', en: 'There are {game.no_such} cards'}\n",
        encoding="utf-8")
    monkeypatch.setattr(source, "TEXTS", folder)
    source._read.cache_clear()
    try:
        with pytest.raises(source.RulebookError) as err:
            blocks(catalog["ciudadelas"], "es", catalog)
    finally:
        source._read.cache_clear()
    assert str(err.value) == "ciudadelas.yaml:2: blocks[0].p: {game.no_such} names no value of ciudadelas's data"


def test_edited_data_that_the_example_does_not_fit_leaves_it_out(catalog, tmp_path):
    """A complete city of 9 (edited data): the example's first_complete is refused by the scoring,
    so the book has no worked example and the build says why, instead of failing."""
    import copy
    edited = copy.copy(catalog)
    game = copy.deepcopy(catalog["ciudadelas"])
    game.meta["complete_city"] = 9
    edited["ciudadelas"] = game
    notes_out: list[str] = []
    docs = documents(edited, ("ciudadelas",), Options(lang="en"), None, notes_out)
    assert len(docs) == 2 and len(notes_out) == 1
    assert notes_out[0].startswith("ciudadelas rulebook: no worked example (examples/ciudadelas.yaml:")
    path = tmp_path / "book.pdf"
    path.write_bytes(docs[0].data)
    text = text_of(path)
    assert "A scoring example" not in text and "reaches 9 districts" in flat(text)


def _with_art(catalog, game_id: str, kind: str, entry_id: str, art):
    """A copy of ``catalog`` where one entry's ``art`` is ``art``."""
    import copy
    edited = copy.copy(catalog)
    game = copy.deepcopy(catalog[game_id])
    next(e for e in game.kinds[kind] if e["id"] == entry_id)["art"] = art
    edited[game_id] = game
    return edited


def test_an_art_edit_of_a_card_the_book_does_not_draw_reads_the_book_back(catalog, tmp_path, monkeypatch):
    """The book draws no district front: a district's new picture is not a reason to set it again,
    and setting it again would give the very same bytes."""
    import ludoteca.generator.rulebook as rulebook
    opts = Options(lang="es")
    first = documents(catalog, ("ciudadelas",), opts, tmp_path)
    district = catalog["ciudadelas"].entries("district")[0]
    edited = _with_art(catalog, "ciudadelas", "district", district["id"],
                       [dict(part, x=part.get("x", 60) + 7) for part in district["art"]])

    def refused(*_args):
        raise AssertionError("the book was set again")
    monkeypatch.setattr(rulebook, "_make", refused)
    again = documents(edited, ("ciudadelas",), opts, tmp_path)
    assert [d.data for d in again] == [d.data for d in first]
    assert book_pages(edited, "ciudadelas", opts) == first[0].data


def test_an_art_edit_of_a_card_the_book_draws_changes_its_key(catalog):
    """Gladiadores' setup picture draws buildings: the key of a book that drew one follows its art."""
    from ludoteca.generator.rulebook import _key, _shown_key
    from ludoteca.generator.rulebook.context import kit_components
    opts = Options(lang="es")
    face = kit_components(catalog["gladiadores"], "es")["buildings"].fronts[0]
    buildings = catalog["gladiadores"].entries("building")
    entry = next(e for e in buildings if e["id"] == face.name)
    other = next(e for e in buildings if e["art"] != entry["art"])
    edited = _with_art(catalog, "gladiadores", "building", entry["id"], dict(other["art"]))
    base = _key(catalog, "gladiadores", opts)
    assert _key(edited, "gladiadores", opts) == base
    shown = [["buildings", False, 0]]
    assert _shown_key(edited, "gladiadores", opts, base, shown) != _shown_key(catalog, "gladiadores", opts, base, shown)
    assert _shown_key(edited, "gladiadores", opts, base, []) == _shown_key(catalog, "gladiadores", opts, base, [])


def test_a_book_is_imposed_and_measured_without_reading_its_files_back(catalog, monkeypatch):
    """Setting a book for the kit reads neither of its files back (the imposition takes the
    pages pypdf holds, the counts and sizes are known): the pages and sizes it gives are those
    of the files."""
    import io

    from ludoteca.generator.rulebook import _key, _make
    read: list[bytes] = []

    class Reader(pypdf.PdfReader):
        def __init__(self, stream, *args, **kwargs):
            read.append(stream.getvalue() if isinstance(stream, io.BytesIO) else b"")
            super().__init__(stream, *args, **kwargs)
    monkeypatch.setattr(pypdf, "PdfReader", Reader)
    opts = Options(lang="en", paper="letter")
    made = _make(catalog, "ciudadelas", opts, None, _key(catalog, "ciudadelas", opts))
    assert read and not any(data in read for data, *_ in made)
    monkeypatch.undo()
    for data, n, size, _note in made:
        pdf = pypdf.PdfReader(io.BytesIO(data))
        box = pdf.pages[0].mediabox
        assert (n, size) == (len(pdf.pages), (float(box.width) * 25.4 / 72, float(box.height) * 25.4 / 72))


def test_a_text_is_parsed_once_for_both_settings(catalog, monkeypatch):
    """Counting the tight setting parses none of the texts the usual one parsed (their
    fragments look the same: only the spacing differs), and counts the pages it counts when it
    parses them all again."""
    from reportlab.platypus.paraparser import ParaParser

    from ludoteca.generator.rulebook import Book
    from ludoteca.generator.rulebook import typeset as ts
    from ludoteca.generator.rulebook.content import blocks
    parts = blocks(catalog["ciudadelas"], "es", catalog)
    book = Book("", "", "es", "", "#000000", booklet_page_mm("a4"))
    ts._FRAGS.clear()
    ts.pages_set(parts, book)
    parsed: list[str] = []
    parse = ParaParser.parse
    monkeypatch.setattr(ParaParser, "parse", lambda self, text, style: parsed.append(text) or parse(self, text, style))
    tight = ts.pages_set(parts, book, tight=True)
    assert parsed == []
    ts._FRAGS.clear()
    assert ts.pages_set(parts, book, tight=True) == tight and len(parsed) > 100


def test_a_paragraph_breaks_into_lines_once_for_both_settings(catalog, monkeypatch):
    """A paragraph measured again in the tight setting takes the lines it broke into at the
    same widths in the usual one: only the parts a page break splits off break anew; the
    tight count is the pages it counts breaking every line anew."""
    from reportlab.platypus import Paragraph

    from ludoteca.generator.rulebook import Book
    from ludoteca.generator.rulebook import typeset as ts
    from ludoteca.generator.rulebook.content import blocks
    parts = blocks(catalog["ciudadelas"], "es", catalog)
    book = Book("", "", "es", "", "#000000", booklet_page_mm("a4"))
    broken: list[int] = []
    breaks = Paragraph.breakLines
    monkeypatch.setattr(Paragraph, "breakLines", lambda self, width: broken.append(1) or breaks(self, width))
    ts._FRAGS.clear()
    ts._LINES.clear()
    ts.pages_set(parts, book)
    first = len(broken)
    tight = ts.pages_set(parts, book, tight=True)
    again = len(broken) - first
    ts._FRAGS.clear()
    ts._LINES.clear()
    assert ts.pages_set(parts, book, tight=True) == tight
    assert 5 * again < len(broken) - first - again


def test_numbers_are_written_as_reportlab_writes_them():
    """The books' numbers are written by our fp_str once the fonts are registered: the text
    reportlab's own gives, for whole, tiny, huge, negative, rounded and random numbers, alone
    or in lists, the second time (kept) as the first."""
    import random

    from reportlab.lib.rl_accel import _py_fp_str
    from reportlab.pdfgen import canvas, textobject

    from ludoteca.generator.rulebook import typeset as ts
    ts._fonts()
    assert canvas.fp_str is textobject.fp_str is ts.fp_str
    pick = random.Random(23)
    numbers = [0, -0.0, 1e-7, -1e-7, 2e-7, 5e-7, 1e-6, True, 0.5, -0.5, 0.9999999, 9.9999999, 999.9995, 123456.789]
    numbers += [sign * 10.0 ** k for k in range(-8, 9) for sign in (1, -1)] + [10 ** k for k in range(9)]
    numbers += [pick.choice((1, -1)) * 10 ** pick.uniform(-8, 8) for _ in range(3000)]
    numbers += [round(pick.uniform(-2000, 2000), pick.randint(0, 8)) for _ in range(3000)]
    ts._WRITTEN.clear()
    for _ in range(2):
        assert [ts.fp_str(n) for n in numbers] == [_py_fp_str(n) for n in numbers]
    assert ts.fp_str(numbers[:40]) == _py_fp_str(numbers[:40]) == ts.fp_str(*numbers[:40])
    assert ts.fp_str(tuple(numbers[-9:])) == _py_fp_str(tuple(numbers[-9:]))


def test_the_worked_example_names_its_cards_without_searching_every_kind(catalog, monkeypatch):
    """The worked example shows each card its record names in the book's language, looked up
    without :meth:`Game.find`'s error (a miss there works out the closest names), and a name no
    kind has is shown as written, without working them out either."""
    import difflib

    from ludoteca.generator.rulebook.content import blocks
    from ludoteca.generator.rulebook.context import Context
    from ludoteca.generator.rulebook.games import _name
    close: list[str] = []
    matches = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches",
                        lambda word, *a, **k: close.append(word) or matches(word, *a, **k))
    blocks(catalog["gladiadores"], "en", catalog)
    assert close == []
    ctx = Context(catalog["gladiadores"], "en", catalog)
    assert _name(ctx, "no such card") == "no such card" and close == []

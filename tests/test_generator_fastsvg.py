"""generator.fastsvg: every template's faces, drawn straight with cairo, look as cairosvg draws them.

One face of every template the kit's pages draw (the three games' cards, backs, tokens, boards and
sheets, the CSV deck's face and back, a sheet's crop marks) is drawn both ways and the two are
compared pixel by pixel; a face outside the subset must go to cairosvg, whatever it holds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pdfmeasure as pm
from ludoteca.generator import binding, build, fastsvg, fasttext, fonts, render
from ludoteca.generator.deck import deck_component
from ludoteca.generator.layout import lay_out
from ludoteca.generator.model import Options

ROOT = Path(__file__).resolve().parent.parent
DPI = 60            # enough to see a misplaced line, a wrong colour or a letter off by 0.2 mm
TOLERANCE = 16      # per channel, out of 255: antialiasing may differ, shapes and colours may not


#: Templates only the rulebooks draw: covers, and setup scenes holding the kit's faces drawn small.
RULEBOOK = ("cover.svg.j2", "setup_table.svg.j2")
TEMPLATES = sorted(str(p.relative_to(ROOT / "templates")) for p in (ROOT / "templates").glob("*/*.svg.j2")
                   if not p.name.startswith("_"))


@pytest.fixture(scope="module")
def faces() -> dict[str, str]:
    """An SVG per template (its first face in the kit), the deck's face and back, a sheet's marks."""
    from ludoteca.cards import load
    fonts.configure()
    opts = Options()
    roots = (str(build.templating.TEMPLATES),)
    catalog = load(None, build.GAMES)
    found: dict[str, str] = {}
    for game in build.GAMES:
        for comp in build.game_components(game, catalog, opts, []):
            for part in comp.parts or [comp]:
                for face in list(part.fronts) + list(part.backs or []):
                    if face.template not in found:
                        found[face.template] = build.render_faces(part, [face], opts, roots)[0]
    deck = deck_component(ROOT / "bench" / "data" / "cards120.csv", "deck/card.svg.j2",
                          "deck/back.svg.j2", (63.0, 88.0))
    fronts = build.render_faces(deck, list(deck.fronts[:9]), opts, roots)
    found["deck/card.svg.j2"] = fronts[0]
    found["deck/back.svg.j2"] = build.render_faces(deck, [deck.backs[0]], opts, roots)[0]
    found["crop marks"] = lay_out(deck, fronts, None, opts).pages[0].overlay
    from ludoteca.generator.rulebook import games
    from ludoteca.generator.rulebook.context import Context
    for game in build.GAMES:
        ctx = Context(catalog[game], "es", catalog)
        found[f"{game}/cover.svg.j2"] = getattr(games, f"{game}_cover")(ctx)[0].svg
        found[f"{game}/setup_table.svg.j2"] = getattr(games, f"{game}_setup")(ctx)[0].svg
    return found


def _pixels(hit) -> tuple[int, int, bytes]:
    """A recording painted on white at DPI."""
    cairo = binding.load()
    rec, w, h = hit
    scale = DPI / 72 / 16                       # recordings are in 1/16 pt
    width, height = max(1, round(w * scale)), max(1, round(h * scale))
    image = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)
    ctx = cairo.Context(image)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    ctx.scale(scale, scale)
    ctx.set_source_surface(rec, 0, 0)
    ctx.paint()
    image.flush()
    return width, height, bytes(image.get_data())


def _assert_alike(fast, slow, name: str) -> None:
    """The two recordings' pixels differ by at most TOLERANCE in every channel."""
    width, _height, a = _pixels(fast)
    _, _, b = _pixels(slow)
    if a == b:
        return
    off = [i for i, (p, q) in enumerate(zip(a, b)) if abs(p - q) > TOLERANCE]
    assert not off, (f"{name}: {len(off)} channel values differ, the first at pixel "
                     f"({off[0] // 4 % width}, {off[0] // 4 // width})")


@pytest.mark.parametrize("name", TEMPLATES + ["crop marks"])
def test_a_template_drawn_straight_looks_as_cairosvg_draws_it(faces, name, monkeypatch):
    assert name in faces, f"{name}: no face of the kit uses it"
    svg = faces[name]
    fast = fastsvg.record(svg)
    assert fast is not None, f"{name}: outside the subset"
    # cairosvg draws texts one letter at a time in a face with a gradient (fasttext leaves them to
    # it, for a text filled with one): ours fill rects, so texts are runs as in every other face
    monkeypatch.setattr(fasttext, "_NEEDS_BBOX", re.compile(r"<never\b"))
    slow = render._cairosvg_recording(svg)
    assert fast[1:] == pytest.approx(slow[1:])
    _assert_alike(fast, slow, name)


FACE = ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm" viewBox="0 0 20 20" '
        'font-family="Bitstream Vera Sans" text-rendering="geometricPrecision">{}</svg>')


@pytest.mark.parametrize("d", [
    "M2 2 L8 3 l2 4 H14 h2 V12 v2 Z",                                   # lines, absolute and relative
    "M2 2 10 3 12 9z m1 1 3 0 0 3z",                                    # repeated pairs are lines
    "M1 10 C3 1 7 1 9 10 S15 19 18 10 c1-2 1-3 0-4 s-2-2-3 0",          # cubics and their reflections
    "M1 10 Q5 1 9 10 T18 10 q1-3-2-4 t-3 0 T4 6",                      # quadratics and theirs
    "M3 8 A5 5 0 0 1 9 8 M11 8 A5 5 0 0 0 17 8 M3 14 A3 3 0 1 1 7 14 M12 14 a3 3 0 1 0 4 0",  # flags
    "M3 5 A6 3 30 0 1 15 12 M2 18 a2 1-20 0 1 6-2",                     # a turned ellipse, radii grown
    "M2 2h4.5.5v-3.5-.5 1e1 1e0z",                                      # numbers written tight
], ids=["lines", "repeats", "cubic", "quadratic", "arc_flags", "arc_turned", "tight"])
def test_every_path_command_is_drawn_as_cairosvg_draws_it(d):
    svg = FACE.replace('"20mm"', '"60mm"').format(   # three times the size: 140 pixels a side
        f'<path d="{d}" fill="#c04020" stroke="#102080" stroke-width="0.3"/>')
    fast = fastsvg.record(svg)
    assert fast is not None, d
    _assert_alike(fast, render._cairosvg_recording(svg), d)


@pytest.mark.parametrize("body", [
    '<line x1="1" y1="1" x2="9" y2="9" stroke="#000000"/>',                     # an element
    '<rect width="5mm" height="5" fill="#000000"/>',                            # a unit
    '<rect width="5" height="5" fill="rgb(10, 20, 30)"/>',                      # a colour
    '<rect width="5" height="5" style="fill: red"/>',                           # an attribute
    '<style>rect { fill: red }</style><rect width="5" height="5"/>',            # a style sheet
    '<text x="1" y="9" font-size="3">a <tspan font-weight="bold">b</tspan></text>',
    '<text x="1" y="9" font-size="3" stroke="#ff0000">a</text>',
    '<g fill="inherit"><rect width="5" height="5"/></g>',
    '<defs><linearGradient id="a"><stop offset="0" stop-color="#ff0000"/></linearGradient></defs>'
    '<circle cx="5" cy="5" r="4" fill="url(#a)"/>',                             # a gradient's box
    '<defs><linearGradient id="a"><stop offset="0" stop-color="#ff0000"/></linearGradient></defs>'
    '<rect width="5" height="5" fill="none" stroke="url(#a) #00ff00"/>',        # a gradient stroke
], ids=["line", "unit", "rgb", "style", "stylesheet", "tspan", "stroked_text", "inherit",
        "gradient_circle", "gradient_stroke"])
def test_anything_outside_the_subset_goes_to_cairosvg(body):
    svg = FACE.format(body)
    assert fastsvg.record(svg) is None
    render._RECORDINGS.clear()
    rec, w, h = render._recording(svg)               # drawn all the same, by cairosvg
    assert w > 0 and h > 0 and rec.ink_extents()[2] > 0
    render._RECORDINGS.clear()


def test_a_face_of_the_subset_is_not_drawn_by_cairosvg(faces, monkeypatch):
    """The engine's hook: a face of ours never reaches cairosvg (a worker need not import it)."""
    monkeypatch.setattr(render, "_cairosvg_recording", lambda svg: pytest.fail("cairosvg drew it"))
    render._RECORDINGS.clear()
    rec, _w, _h = render._recording(faces["deck/card.svg.j2"])
    assert rec.ink_extents()[2] > 0
    render._RECORDINGS.clear()


def test_the_gradient_of_a_district_is_drawn_straight(faces):
    """The kit's one gradient (a district's sky, filling a rect) is in the subset: no worker of
    a kit build needs cairosvg."""
    svg = faces["ciudadelas/district.svg.j2"]
    assert "<linearGradient" in svg and 'fill="url(#sky)"' in svg
    assert fastsvg.record(svg) is not None


def test_a_rulebook_picture_is_a_page_of_cairosvg_s_size_with_the_same_words(faces, tmp_path, monkeypatch):
    """A picture as a book takes it (a one-page PDF; here a card, as a setup scene shows them):
    the page cairosvg.svg2pdf makes, its words where cairosvg puts them (as runs, as the kit's
    faces have them)."""
    import cairosvg
    svg = faces["deck/card.svg.j2"]
    fast = fastsvg.pdf(svg)
    assert fast is not None
    monkeypatch.setattr(fasttext, "_NEEDS_BBOX", re.compile(r"<never\b"))
    with fasttext.fast_text(svg):
        slow = cairosvg.svg2pdf(bytestring=svg.encode("utf-8"))
    (tmp_path / "fast.pdf").write_bytes(fast)
    (tmp_path / "slow.pdf").write_bytes(slow)
    from pypdf import PdfReader
    pages = [PdfReader(tmp_path / f"{name}.pdf").pages for name in ("fast", "slow")]
    assert len(pages[0]) == 1 and list(pages[0][0].mediabox) == pytest.approx(list(pages[1][0].mediabox))
    a, b = pm.words(tmp_path / "fast.pdf")[1], pm.words(tmp_path / "slow.pdf")[1]
    assert [w[0] for w in a] == [w[0] for w in b] and a
    for p, q in zip(a, b):
        assert max(abs(u - v) for u, v in zip(p[1:], q[1:])) < 0.05, (p, q)


def test_a_user_template_s_face_is_parsed_once_to_be_checked_and_drawn(tmp_path, monkeypatch):
    """The SVG of a user's template is parsed to be checked; drawn in the same process, it is not
    parsed again, and looks as a face parsed afresh."""
    import shutil

    from ludoteca.generator import templating
    from ludoteca.generator.model import Face
    shutil.copy(ROOT / "templates" / "deck" / "card.svg.j2", tmp_path / "mine.svg.j2")
    face = Face("mine.svg.j2", {"name": "Catedral", "cost": "3", "color": "azul",
                                "text": "Roba una carta."}, "c1")
    svg = templating.render(face, (63.0, 88.0), 3.0, Options(), roots=(str(tmp_path),))
    parse, parsed = fastsvg.parse_xml, []
    monkeypatch.setattr(fastsvg, "parse_xml", lambda text: parsed.append(1) or parse(text))
    first = fastsvg.record(svg)
    assert first is not None and parsed == []
    again = fastsvg.record(svg)                 # taken once: parsed afresh the next time
    assert parsed == [1]
    assert _pixels(first) == _pixels(again)


def _page_pdfs(tmp_path, monkeypatch, page) -> tuple[Path, Path]:
    """The page drawn as the engine draws it, and drawn with every face from its recording."""
    render._RECORDINGS.clear()
    straight = tmp_path / "straight.pdf"
    straight.write_bytes(render._pages_to_pdf([page]))

    def refuse(*_args):
        raise fastsvg.Unsupported("test")
    with monkeypatch.context() as m:
        m.setattr(fastsvg, "draw_into", refuse)
        render._RECORDINGS.clear()
        recorded = tmp_path / "recorded.pdf"
        recorded.write_bytes(render._pages_to_pdf([page]))
    render._RECORDINGS.clear()
    return straight, recorded


def _gray(path: Path):
    """The one page of a PDF in gray at DPI, as poppler shows it (a Pillow image)."""
    import io
    import subprocess

    from PIL import Image
    done = subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", str(path)], capture_output=True, check=True)
    return Image.open(io.BytesIO(done.stdout))


def test_a_face_a_page_shows_once_is_drawn_straight_into_it_and_looks_the_same(tmp_path, monkeypatch):
    """A deck's faces (each shown once) and a sheet's marks are drawn into the page itself, not
    recorded and then painted (half the work, half the file): no form per face, texts as text,
    the same pixels as the page painted from recordings."""
    fonts.configure()
    deck = deck_component(ROOT / "bench" / "data" / "cards120.csv", "deck/card.svg.j2", None, (63.0, 88.0))
    fronts = build.render_faces(deck, list(deck.fronts[:4]), Options(), (str(build.templating.TEMPLATES),))
    page = lay_out(deck, fronts, None, Options()).pages[0]
    straight, recorded = _page_pdfs(tmp_path, monkeypatch, page)
    from pypdf import PdfReader
    forms = [len(PdfReader(path).pages[0]["/Resources"].get("/XObject", {})) for path in (straight, recorded)]
    assert forms == [0, 5]                            # four faces and the marks
    from PIL import ImageChops
    a, b = _gray(straight), _gray(recorded)
    assert a.size == b.size
    # the same shapes: only where a face is cut does the edge's antialiasing differ (a form's
    # clip in poppler), by a fraction of a pixel's grey; a shape off by a pixel differs by all
    counts = ImageChops.difference(a, b).histogram()
    off = sum(counts[TOLERANCE + 1:])
    worst = max(i for i, n in enumerate(counts) if n)
    assert off < a.size[0] * a.size[1] / 100 and worst < 128, f"{off} pixels differ, by up to {worst}"
    content = PdfReader(straight).pages[0].get_contents().get_data()
    assert content.count(b"Tj") >= 4 * 3                  # texts stay text: a name, cost, colour


def test_a_page_with_a_face_outside_the_subset_is_drawn_again_from_recordings(tmp_path, monkeypatch):
    """A face outside fastsvg's subset met while drawing straight (part of the page may be drawn
    by then): the page is drawn again, each face from its recording, that one by cairosvg."""
    fonts.configure()
    deck = deck_component(ROOT / "bench" / "data" / "cards120.csv", "deck/card.svg.j2", None, (63.0, 88.0))
    fronts = build.render_faces(deck, list(deck.fronts[:3]), Options(), (str(build.templating.TEMPLATES),))
    fronts[2] = fronts[2].replace("<rect", "<!-- a comment --><rect", 1)
    page = lay_out(deck, fronts, None, Options()).pages[0]
    drawn, slow = [], render._cairosvg_recording
    monkeypatch.setattr(render, "_cairosvg_recording", lambda svg: drawn.append(svg) or slow(svg))
    render._RECORDINGS.clear()
    data = render._pages_to_pdf([page])
    render._RECORDINGS.clear()
    assert drawn == [fronts[2]]
    (tmp_path / "page.pdf").write_bytes(data)
    names = " ".join(w[0] for w in pm.words(tmp_path / "page.pdf")[1])
    for row in list(deck.fronts[:3]):
        assert row.context["name"].split()[0] in names


SAME_ELEMENT = '<rect x="2" y="2" width="16" height="16"{}/>'
INHERITING = [  # one element, the same attributes, drawn after one another in different places
    '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><g fill="#ff0000">{}</g></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><g fill="#0000ff">{}</g></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" fill="#00ff00">{}</svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><g stroke="#000000" stroke-width="3" '
    'stroke-dasharray="2 2">{}</g></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><g opacity="0.5">{}</g></svg>',
]


@pytest.mark.parametrize("own", ["", ' opacity="0.5"', ' fill="#336699" fill-opacity="0.5"'])
def test_an_element_is_drawn_with_what_it_inherits_wherever_it_is(own):
    """What an element does is worked out once for the same attributes: what it inherits and
    whether it has children count too."""
    for outer in INHERITING + [INHERITING[0].replace("{}", "{}<circle cx='5' cy='5' r='3'/>")]:
        svg = outer.format(SAME_ELEMENT.format(own))
        _assert_alike(fastsvg.record(svg), render._cairosvg_recording(svg), svg)
    for group in (f"<g{own}/>", f"<g{own}>" + SAME_ELEMENT.format("") + "</g>"):   # empty, then not
        svg = INHERITING[2].format(group)
        _assert_alike(fastsvg.record(svg), render._cairosvg_recording(svg), svg)


def test_a_scene_draws_a_face_it_shows_several_times_once_and_looks_the_same(tmp_path, monkeypatch):
    """A rulebook's setup scene (Ciudadelas': stacks of cards, a fan of four) is drawn as its SVG
    nesting every card draws it, but each distinct card once: recorded, then painted at each
    place (the same words, the same shapes; a fifth of the time)."""
    from ludoteca.cards import load
    from ludoteca.generator.rulebook import games
    from ludoteca.generator.rulebook.context import Context
    catalog = load(None, ("ciudadelas",))
    (scene,) = games.ciudadelas_setup(Context(catalog["ciudadelas"], "es", catalog))
    distinct = {face[0] for face in scene.faces}
    assert len(scene.faces) > len(distinct) and any(face[5] for face in scene.faces)   # copies, turned
    record, recorded = fastsvg.record, []
    monkeypatch.setattr(fastsvg, "record", lambda svg: recorded.append(svg) or record(svg))
    placed = fastsvg.pdf_placed(scene.table, scene.faces)
    assert placed is not None and sorted(recorded) == sorted(distinct)
    (tmp_path / "placed.pdf").write_bytes(placed)
    (tmp_path / "nested.pdf").write_bytes(fastsvg.pdf(scene.svg))
    from PIL import ImageChops
    a, b = _gray(tmp_path / "placed.pdf"), _gray(tmp_path / "nested.pdf")
    assert a.size == b.size
    counts = ImageChops.difference(a, b).histogram()
    off = sum(counts[TOLERANCE + 1:])
    assert off < a.size[0] * a.size[1] / 100, f"{off} pixels differ"
    words = [pm.words(tmp_path / f"{name}.pdf")[1] for name in ("placed", "nested")]
    assert [w[0] for w in words[0]] == [w[0] for w in words[1]] and words[0]


def test_the_faces_of_one_template_read_their_root_once_and_still_check_every_element(monkeypatch):
    """A root's size, viewBox and what its children inherit are read once for the faces that
    share its attributes (a deck's 120 faces); every element of each face is still checked."""
    read = []
    length = fastsvg.length
    monkeypatch.setattr(fastsvg, "length", lambda s: read.append(s) or length(s))
    monkeypatch.setattr(fastsvg, "_ROOTS", {}, raising=False)
    for colour in ("#ff0000", "#00ff00", "#0000ff"):
        assert fastsvg.record(FACE.format(f'<rect width="5" height="5" fill="{colour}"/>')) is not None
    assert read == ["20mm", "20mm"]
    assert fastsvg.record(FACE.format('<defs><pattern id="p"/></defs><rect width="5" height="5"/>')) is None


def test_a_shape_drawn_again_the_same_way_is_appended_from_its_outline(monkeypatch):
    """The outline of an element drawn with the same plan at the same scale and turn is made
    once and appended after; at another scale or turn it is made again, and looks as cairosvg
    draws it there."""
    made = []
    rect = fastsvg.SHAPES["rect"]
    monkeypatch.setitem(fastsvg.SHAPES, "rect", lambda drawer, a: made.append(a) or rect(drawer, a))
    monkeypatch.setattr(fastsvg, "_PLANS", {})
    same = '<rect x="2" y="3" width="9" height="6" rx="2" fill="#336699"/>'
    for _ in range(3):
        assert fastsvg.record(FACE.format(same)) is not None
    assert len(made) == 1
    turned = FACE.format(same + f'<g transform="rotate(30 10 10) scale(1.5)">{same}</g>{same}')
    _assert_alike(fastsvg.record(turned), render._cairosvg_recording(turned), turned)
    assert len(made) == 2

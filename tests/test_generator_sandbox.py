"""A user's deck template runs on a budget per face, and what cairosvg cannot draw is refused
with a reason: each case one line naming the template and the face (the row of the CSV), exit 2,
within a few seconds; a deck that stays inside the budget builds as before."""

from __future__ import annotations

import resource
import time
from pathlib import Path

import pytest

from ludoteca.cli import main
from ludoteca.generator import budget, sandbox, templating

OPEN = '{% import "_lib.svg.j2" as lib %}\n{{ lib.svg_open() }}\n'
CLOSE = "\n{{ lib.svg_close() }}\n"


def deck(tmp_path: Path, body: str, *extra: str, files: dict[str, str] | None = None) -> Path:
    """A one-card deck (its row on line 2 of cards.csv) whose face is ``OPEN + body + CLOSE``."""
    folder = tmp_path / "tpl"
    folder.mkdir(exist_ok=True)
    (folder / "t.svg.j2").write_text(OPEN + body + CLOSE, encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    data = folder / "cards.csv"
    data.write_text("id,name,colour\nc1,Ana,#3a6fc4\n", encoding="utf-8")
    return data


def build(capsys, tmp_path: Path, data: Path, *extra: str) -> tuple[int, list[str], float]:
    start = time.perf_counter()
    code = main(["deck", str(data), "--template", str(data.parent / "t.svg.j2"),
                 "--out", str(tmp_path / "out"), "-q", *extra])
    return code, capsys.readouterr().err.strip().splitlines(), time.perf_counter() - start


def refused(capsys, tmp_path: Path, body: str, needle: str, files: dict[str, str] | None = None) -> str:
    """The deck is refused in one line that names the template, the face and its CSV row."""
    data = deck(tmp_path, body, files=files)
    code, err, seconds = build(capsys, tmp_path, data)
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith("ludoteca: error: template ") and "t.svg.j2" in err[0], err[0]
    assert needle in err[0], err[0]
    assert err[0].endswith(f"(in deck/cards face 'c1', {data}:2)"), err[0]
    assert seconds < 5
    assert not (tmp_path / "out" / "cards.pdf").exists()
    return err[0]


@pytest.mark.parametrize("body,needle", [
    ("{{ 9**(9**9) }}", "t.svg.j2:3: over the budget of one face: 9 ** 387420489 would make a number "
                        "of about 369,693,100 digits, over 4,300"),
    ("{% set n = 10**3000 %}{{ n * n }}", "a number * a number would make a number of about 6,000 digits"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
     "t.svg.j2:3: over the budget of one face: its loops ran more than 1,000,000 steps"),
    ("{% set s = '" + "x" * 200 + "' %}{% for a in s %}{% for b in s %}{% for c in s %}{% endfor %}"
     "{% endfor %}{% endfor %}", "its loops ran more than 1,000,000 steps"),
    ("{{ lipsum(1000000) }}", "its loops ran more than 1,000,000 steps"),
    ("{{ 'x' * 1000000000 }}", "'x' * 1000000000 would make a text of 1,000,000,000 characters, "
                               "over 8,000,000"),
    ("{{ [0] * 10**8 }}", "would make a list of 100,000,000 items"),
    ("{{ 'x'|center(20000000) }}", "it made a text of 20,000,000 characters, over 8,000,000"),
    ("{% for i in range(90000) %}{{ 'y' * 100 }}{% endfor %}",
     "t.svg.j2: over the budget of one face: it wrote more than 8,000,000 characters of SVG"),
    ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
     "t.svg.j2:3: over the budget of one face: it used more than 256 MB of memory"),
    ("{{ 'x'.ljust(2000000000) }}", "t.svg.j2:3: over the budget of one face: it used more than "
                                    "256 MB of memory"),
], ids=["power", "product", "nested_ranges", "loops_over_a_text", "lipsum", "text_times",
        "list_times", "filter_result", "output", "growing_text", "one_allocation"])
def test_a_template_over_its_budget_is_refused_naming_the_face(capsys, tmp_path, body, needle):
    refused(capsys, tmp_path, body, needle)


def test_a_template_that_runs_too_long_is_stopped_at_its_deadline(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "BUDGET", budget.Budget(seconds=0.3))
    body = ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
            "{{ f(40) }}")
    start = time.perf_counter()
    refused(capsys, tmp_path, body, ":3: over the budget of one face: it ran longer than 0.3 s")
    assert time.perf_counter() - start < 2


def test_the_budget_holds_when_the_template_comes_from_the_bytecode_cache(capsys, tmp_path):
    body = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    refused(capsys, tmp_path, body, "its loops ran more than 1,000,000 steps")
    templating.environment.cache_clear()            # the next run loads the compiled code
    refused(capsys, tmp_path, body, "its loops ran more than 1,000,000 steps")


def test_the_memory_cap_is_lifted_after_each_face(capsys, tmp_path):
    before = resource.getrlimit(resource.RLIMIT_AS)
    refused(capsys, tmp_path, "{{ 'x'.ljust(2000000000) }}", "more than 256 MB of memory")
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_run_of_faces_caps_memory_once_and_lifts_the_cap_at_its_end(monkeypatch):
    """Faces rendered one after another are capped at the first face and lifted at the end of
    the run: each face is still capped while it renders, and one that raises makes the next arm
    the cap afresh (from what the process holds then)."""
    before = resource.getrlimit(resource.RLIMIT_AS)
    sets = []
    real = resource.setrlimit
    monkeypatch.setattr(resource, "setrlimit", lambda kind, limits: sets.append(limits) or real(kind, limits))
    with budget.faces():
        for _ in range(5):
            with budget.face() as meter:
                assert resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY
                assert meter.memory_mb == budget.BUDGET.memory_mb
        assert len(sets) == 1
        with pytest.raises(budget.OverBudget):
            with budget.face():
                raise budget.OverBudget("over")
        with budget.face():
            pass
        assert len(sets) == 2
    assert sets[-1] == before and len(sets) == 3
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_template_inside_its_budget_builds(capsys, tmp_path):
    body = ("{% for i in range(200) %}<rect x=\"{{ i % 20 }}\" y=\"{{ i // 20 }}\" width=\"0.5\" "
            "height=\"0.5\"/>{% endfor %}<desc>{{ lipsum(2) }}{{ 'ab' * 50 }}{{ 2 ** 64 }}</desc>"
            "{{ lib.text_block(name, 5, 30, w - 10, 20, 12) }}")
    code, err, _ = build(capsys, tmp_path, deck(tmp_path, body))
    assert code == 0 and err == []
    assert (tmp_path / "out" / "cards.pdf").stat().st_size > 0


# --- what cairosvg cannot draw --------------------------------------------------------------------

XXE = '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'


def test_an_xml_entity_is_refused_in_words(capsys, tmp_path):
    data = deck(tmp_path, "&x;")
    face = data.parent / "t.svg.j2"
    face.write_text(XXE + face.read_text(encoding="utf-8"), encoding="utf-8")
    code, err, _ = build(capsys, tmp_path, data)
    assert code == 2 and len(err) == 1
    assert err[0] == (f"ludoteca: error: template t.svg.j2: its SVG declares the XML entity 'x' "
                      f"(SYSTEM 'file:///etc/passwd'); entities are refused (they can read files or "
                      f"grow without end): write the text itself (in deck/cards face 'c1', {data}:2)")


def test_an_svg_file_with_an_entity_beside_the_template_is_refused_naming_it(capsys, tmp_path):
    icon = '<?xml version="1.0"?>\n' + XXE + '<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>'
    refused(capsys, tmp_path, '<image href="icon.svg" width="5" height="5"/>',
            "t.svg.j2: refers to 'icon.svg', which declares the XML entity 'x'", files={"icon.svg": icon})


@pytest.mark.parametrize("body,needle", [
    ('<use x="1"/>', "its SVG has a <use> with href='', which draws the whole face, itself included"),
    ('<use href="#"/>', "its SVG has a <use> with href='#', which draws the whole face"),
    ('<g id="a"><rect width="1" height="1"/><use href="#a" x="1"/></g>',
     "its SVG has a <use> with href='#a' that draws an element holding it, so it would draw itself"),
    ('<defs><g id="a"><use href="#b"/></g><g id="b"><use xlink:href="#a" '
     'xmlns:xlink="http://www.w3.org/1999/xlink"/></g></defs><use href="#a"/>',
     "that draws an element holding it"),
    ('<defs><g id="a0"><rect width="1" height="1"/></g>{% for k in range(1, 6) %}<g id="a{{ k }}">'
     '{% for j in range(10) %}<use href="#a{{ k - 1 }}"/>{% endfor %}</g>{% endfor %}</defs>'
     '<use href="#a5"/>', "its SVG has <use> elements that draw more than 10,000 elements"),
    ("<g><rect/>", "its SVG is not well-formed XML (mismatched tag: line 3, column 2)"),
], ids=["no_href", "href_hash", "own_group", "two_groups", "copies_of_copies", "not_xml"])
def test_what_cairosvg_would_draw_without_end_is_refused(capsys, tmp_path, body, needle):
    refused(capsys, tmp_path, body, needle)


@pytest.mark.parametrize("ref", ["../secret.svg#a", "/etc/hostname", "file:///etc/passwd", "other.svg#a"])
def test_a_use_outside_the_folder_is_left_out_like_any_reference(capsys, tmp_path, ref):
    data = deck(tmp_path, f'<use href="{ref}" x="3" y="3"/>')
    code, err, _ = build(capsys, tmp_path, data)
    assert code == 0, err
    assert len(err) == 1 and err[0].startswith(f"note: template t.svg.j2: refers to {ref!r}")


def test_a_use_of_one_symbol_in_a_file_beside_the_template_draws_that_symbol(capsys, tmp_path):
    icons = ('<svg xmlns="http://www.w3.org/2000/svg"><g id="star"><rect width="10" height="10" '
             'fill="#00ff00"/></g><g id="sea"><rect width="100" height="100" fill="#0000ff"/></g></svg>')
    data = deck(tmp_path, '<use href="icons.svg#star" x="2" y="2"/>', files={"icons.svg": icons})
    code, err, _ = build(capsys, tmp_path, data, "--png", "50")
    assert code == 0 and err == [], err
    from pdfmeasure import colour_distance, read_png
    image = read_png(tmp_path / "out" / "png" / "deck" / "cards" / "c1.png")
    px = image.width / 63                                  # pixels per mm of the trim
    assert colour_distance(image.mean(7 * px, 7 * px), (0, 255, 0)) < 8
    assert colour_distance(image.mean(40 * px, 60 * px), (0, 0, 255)) > 100


def test_an_entity_in_a_data_uri_is_said_in_words_when_the_page_is_drawn(capsys, tmp_path):
    import base64
    icon = ('<?xml version="1.0"?>\n' + XXE + '<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>')
    data = deck(tmp_path, f'<image href="data:image/svg+xml;base64,{base64.b64encode(icon.encode()).decode()}" '
                'width="5" height="5"/>')
    code, err, _ = build(capsys, tmp_path, data)
    assert code == 2 and len(err) == 1
    assert err[0] == ("ludoteca: error: deck/cards sheet 1 front: could not render the page: an SVG in "
                      "it declares the XML entity 'x'; entities are refused")


class _Box:
    """A value a template reads an attribute of."""

    def __init__(self, v) -> None:
        self.v = v


def test_an_attribute_found_safe_once_is_still_looked_at_when_it_is_a_format_method():
    """The sandbox remembers that a type's attribute is safe to read; a ``str.format`` read
    through that same attribute of that same type is still jinja's sandboxed format, and a
    private attribute of that type is still refused."""
    from jinja2 import StrictUndefined
    from jinja2.exceptions import SecurityError
    env = sandbox.Sandbox(undefined=StrictUndefined)       # as templating makes it
    assert env.from_string("{{ a.v }}").render(a=_Box("x")) == "x"
    with pytest.raises(SecurityError):
        env.from_string("{{ b.v('x') }}").render(b=_Box("{0.__class__}".format))
    with pytest.raises(SecurityError):
        env.from_string("{{ a.__class__ }}").render(a=_Box("x"))


def test_a_face_without_use_elements_is_not_walked_for_them(monkeypatch):
    """The walk that follows <use> elements runs only when the SVG's text can hold one."""
    plain = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/><text>fuse</text></svg>'
    looping = '<svg xmlns="http://www.w3.org/2000/svg"><g id="a"><use href="#a"/></g></svg>'
    walked = []
    real = budget._check_uses
    monkeypatch.setattr(budget, "_check_uses", lambda root, limit: walked.append(root) or real(root, limit))
    assert budget.check_svg(plain.replace("fuse", "fuzz")).tag.endswith("svg") and walked == []
    budget.check_svg(plain)                          # "use" in a text: walked, nothing found
    assert len(walked) == 1
    with pytest.raises(budget.SvgRefused, match="draws an element holding it"):
        budget.check_svg(looping)

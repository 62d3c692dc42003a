"""Compiled templates (generator/tcompile.py, generator/trun.py) write Jinja's text to the
character, refuse in the sandbox what Jinja's sandbox refuses, and leave to Jinja whatever they
cannot answer; their code is cached, and a warm deck never imports jinja."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ludoteca.generator import budget, templating, trun
from ludoteca.generator.model import Face, Options

ROOT = Path(__file__).resolve().parent.parent

LIB = """{% set public = {"a": 1} %}{% set _private = 2 %}
{% macro box(x, label="<box>") -%}<g>{{ x }}{{ label }}{{ public.a }}</g>{%- endmacro %}
{% macro _hidden() %}h{% endmacro %}
{% macro down(n) %}{% if n > 0 %}{{ n }}{{ down(n - 1) }}{% endif %}{% endmacro %}"""

#: Templates that the compiler translates: each rendered by both, the same text wanted.
SAME = {
    "set_in_a_loop_stays_there": "{% set a = 1 %}{% for i in range(3) %}{% set a = a + i %}{{ a }},{% endfor %}{{ a }}",
    "read_before_set_in_a_loop": "{% for i in range(3) %}{{ z is defined }}{% set z = i %}{{ z }}{% endfor %}",
    "set_only_in_a_loop": "{% for i in [1, 2] %}{% set w2 = i * 2 %}{% endfor %}{{ w2 is defined }}",
    "loop_attributes": "{% for c in 'abc' %}{{ loop.index0 }}{{ loop.index }}{{ loop.first }}{{ loop.last }}"
                       "{{ loop.length }}{{ loop.revindex }}{{ loop.revindex0 }}|{% endfor %}",
    "nested_loops": "{% for a in [1, 2] %}{% for b in 'xy' %}{{ loop.index }}{{ a }}{{ b }}{% endfor %}"
                    "{{ loop.last }}{% endfor %}",
    "loop_else_and_pairs": "{% for i in [] %}x{% else %}empty{% endfor %}"
                           "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}",
    "if_elif_else": "{% for n in [0, 1, 2, 3] %}{% if n == 0 %}zero{% elif n == 1 %}one{% elif n > 2 %}big"
                    "{% else %}two{% endif %}{% endfor %}",
    "macro_defaults_and_keywords": "{% macro m(s, t=s ~ '!', u=none) %}<b>{{ s }}{{ t }}{{ u }}</b>{% endmacro %}"
                                   "{{ m('<&>') }}{{ m('a', t='<x>') }}{{ m(u=3, s='k') }}{{ m(m('<')) }}",
    "macro_reads_the_top_and_the_face": "{% set top = 'T' %}{% macro m() %}{{ top }}{{ name }}{% endmacro %}{{ m() }}",
    "macro_set_and_loop": "{% macro m(n) %}{% set acc = 0 %}{% for i in range(n) %}{% set acc = acc + i %}"
                          "{{ acc }}{% endfor %}{{ acc }}{% endmacro %}{{ m(4) }}",
    "imports": '{% import "lib.svg.j2" as lib %}{{ lib.box(1) }}{{ lib.box("<", label="&") }}{{ lib.public.a }}'
               "{{ lib.down(3) }}{{ lib.nothing is defined }}",
    "escaping": "{{ '<a href=\"x\">' }}{{ 'a' ~ '<b>' }}{{ ('<i>' | safe) ~ '<' }}{{ ['<', 'b'] | join('&') }}"
                "{{ [('<b>' | safe), '<'] | join }}{{ name }}{{ \"it's\" }}",
    "filters": "{{ 3.14159|num }} {{ 2|num }} {{ -0.0001|num }} {{ 'AbC'|lower }}{{ 'AbC'|upper }} {{ l|length }}"
               " {{ 2.675|round(2) }} {{ 2.5|round }} {{ 2.7|round(0, 'floor') }} {{ '42.7'|int }} {{ 'x'|int }}"
               " {{ 7.9|int }} {{ '3.5'|float }} {{ 'y'|float }} {{ missing|default('dflt') }} {{ ''|d('e', true) }}"
               " {{ '<'|e }}{{ '  pad  '|trim }}{{ 3|string }} {{ 'ab'|list }} {{ l|first }} {{ l|last }}"
               " {{ ['b', 'A', 'c']|min }} {{ ['b', 'A', 'c']|max }} {{ l|sum }} {{ -4|abs }} {{ d|length }}",
    "tests": "{{ none is none }}{{ 3 is odd }}{{ 3 is even }}{{ 3 is number }}{{ 'x' is string }}{{ d is mapping }}"
             "{{ l is sequence }}{{ missing is sequence }}{{ true is boolean }}{{ 3 is integer }}{{ 3.0 is float }}"
             "{{ true is true }}{{ 0 is false }}{{ missing is undefined }}{{ name is not defined }}",
    "arithmetic": "{{ 7 // 2 }} {{ 7 % 3 }} {{ 2 ** 10 }} {{ 1 / 3 }} {{ -(3) }} {{ +3 }} {{ 3 * 0.1 }} {{ 'ab' * 3 }}"
                  " {{ 1 < 2 < 3 }} {{ 2 in l }} {{ 9 not in l }} {{ 0 or 'x' }}{{ '' and 1 }} {{ not l }}"
                  " {{ 'y' if l else 'n' }} {{ 10 ** 20 }} {{ 2 ** 0.5 }} {{ 7.5 % 2 }}",
    "items_and_attributes": "{{ d.a }}{{ d['a'] }}{{ d.get('b', 5) }}{{ d.zz is defined }}{{ l[0] }}{{ l[-1] }}"
                            "{{ tp[1] }}{{ d['zz'] is defined }}{{ name.upper() }}{{ 'a,b'.split(',') }}",
    "literals_and_tuples": "{% set a, b = 1, 2 %}{{ a }}{{ b }}{{ (1, 'x') }}{{ [1, [2]] }}{{ {'k': 1} }}{{ 1.5e3 }}",
    "whitespace": "<g>\n  {% if true %}\n    <a/>\n  {% endif %}\n  {%- for i in range(2) -%}\n  <b/> {{ i }}\n"
                  "  {%- endfor %}\n</g>\n",
    "undefined_passed_on": "{% macro m(x) %}{{ x is defined }}{% endmacro %}{{ m() }}{{ m(missing) }}",
    "namespace": "{% set ns = namespace(n=0, s='') %}{% for i in range(4) %}{% set ns.n = ns.n + i %}"
                 "{% set ns.s = ns.s ~ i %}{% endfor %}{{ ns.n }} {{ ns.s }} {{ ns.zz is defined }} {{ ns }}",
    "call_block": "{% macro box(w=1) %}<g w='{{ w }}'>{{ caller() }}</g>{% endmacro %}{% for i in [1, 2] %}"
                  "{% call box(i) %}<i>{{ i }}{{ name }}</i>{% endcall %}{% endfor %}"
                  "{% macro opt() %}{{ caller is defined }}{% endmacro %}{{ opt() }}",
    "slices": "{{ l[1:] }}{{ name[:3] }}{{ l[::-1] }}{{ 'abcdef'[1:4] }}{{ tp[0:1] }}",
    "dict_global": "{{ dict(a=1, b='<') }}{% set m = dict(x=2) %}{{ m.x }}",
    "call_block_with_arguments": "{% macro m() %}{{ caller(1) }}{{ caller(2) }}{% endmacro %}"
                                 "{% call(x) m() %}<{{ x }}>{% endcall %}",
    "filtered_loop": "{% for i in l if i > 1 %}{{ loop.index }}{{ i }}{{ loop.last }}{% else %}none{% endfor %}"
                     "{% for k, v in d.items() if v > 1 %}{{ k }}{% endfor %}"
                     "{% for i in l if i > 9 %}{% else %}e{% endfor %}",
    "attribute_filters": "{% set rows = [{'n': 'a', 'v': 2, 'on': true}, {'n': 'B', 'v': 1, 'on': false}] %}"
                         "{{ rows|selectattr('on')|map(attribute='n')|join(',') }}"
                         "{{ rows|rejectattr('on')|list|length }}"
                         "{{ rows|selectattr('v', 'equalto', 1)|map(attribute='n')|list }}"
                         "{{ rows|selectattr('n', 'in', ['a'])|list|length }}{{ rows|sum(attribute='v') }}"
                         "{{ (rows|min(attribute='n')).n }}{{ (rows|max(attribute='v')).n }}"
                         "{{ rows|map(attribute='zz', default='-')|join }}",
    "own_list_grows": "{% set acc = [] %}{% for i in range(3) %}{% set _ = acc.append(i * 2) %}{% endfor %}{{ acc }}",
}

CONTEXT = {"name": "Ana <& 'x'>", "d": {"a": 1, "b": 2}, "l": [1, 2, 3], "tp": (4, 5)}


def jinja_and_compiled(tmp_path: Path, source: str, sandboxed: bool) -> tuple[str, str | None]:
    """The text Jinja writes and the compiled code's (None: not compiled)."""
    (tmp_path / "t.svg.j2").write_text(source, encoding="utf-8")
    (tmp_path / "lib.svg.j2").write_text(LIB, encoding="utf-8")
    roots = (str(tmp_path),)
    env = templating.environment(roots, sandboxed)
    expected = env.get_template("t.svg.j2").render(CONTEXT)
    fast = trun.Loader(templating._search(roots), sandboxed, templating._globals(), lambda: env, None)
    unit = fast.unit("t.svg.j2")
    if unit is None:
        return expected, None
    with budget.face() as meter:
        trun.S_.meter, trun.S_.depth = meter, 0
        return expected, meter.output(fast.render(unit, CONTEXT))


@pytest.mark.parametrize("sandboxed", [True, False], ids=["user", "kit"])
@pytest.mark.parametrize("name", sorted(SAME))
def test_the_compiled_code_writes_jinjas_text(tmp_path, name, sandboxed):
    expected, got = jinja_and_compiled(tmp_path, SAME[name], sandboxed)
    assert got is not None, f"{name} was not compiled"
    assert got == expected


#: Templates the compiler refuses (they keep Jinja).
REFUSED = {
    "varargs": "{% macro m() %}{{ varargs }}{% endmacro %}{{ m(1, 2) }}",
    "include": '{% include "lib.svg.j2" %}',
    "import_with_context": '{% import "lib.svg.j2" as lib with context %}',
    "filter_not_known": "{{ name|center(9) }}",
    "loop_as_a_value": "{% for i in [1] %}{{ loop }}{% endfor %}",
    "loop_cycle": "{% for i in [1] %}{{ loop.cycle('a', 'b') }}{% endfor %}",
    "recursive_loop": "{% for i in [1] recursive %}{{ i }}{% endfor %}",
    "macro_in_a_loop": "{% for i in [1] %}{% macro m() %}{% endmacro %}{% endfor %}",
    "lipsum": "{{ lipsum(1) }}",
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_is_not_translated_keeps_jinja(tmp_path, name):
    _, got = jinja_and_compiled(tmp_path, REFUSED[name], True)
    assert got is None


def render_both(tmp_path: Path, body: str) -> tuple[str, str, bool]:
    """A one-face user deck template rendered through templating.render, compiled first and
    with Jinja alone: (compiled's result or error, Jinja's, whether it stayed compiled)."""
    folder = tmp_path / "tpl"
    folder.mkdir(exist_ok=True)
    (folder / "t.svg.j2").write_text('{% import "_lib.svg.j2" as lib %}\n{{ lib.svg_open() }}\n' + body
                                     + "\n{{ lib.svg_close() }}\n", encoding="utf-8")
    roots = (str(folder),)
    results = []
    for compiled in (True, False):
        face = Face("t.svg.j2", {"name": "Ana", "d": {"k": 1}, "l": [1]}, "c1", "cards.csv:2")
        try:
            results.append(templating.render(face, (63, 88), 3, Options(), "deck/cards face 'c1'", roots,
                                             compiled=compiled))
        except Exception as exc:          # the message is what is compared
            results.append(f"{type(exc).__name__}: {exc}")
    return results[0], results[1], templating.compiled("t.svg.j2", roots)


#: What a user's template may try against the compiled code: each answered as Jinja answers
#: it (its error, or its text), the compiled code left for Jinja's sandbox to judge.
HOSTILE = {
    "class_of_a_text": "{{ name.__class__ }}",
    "class_by_item": "{{ name['__class__'] }}",
    "class_of_a_macro": "{{ lib.text.__class__ }}",
    "globals_of_a_macro": "{{ lib.text.fn.__globals__ }}",
    "macro_function": "{{ lib.text.fn }}",
    "module_dict": "{{ lib.__dict__ }}",
    "private_macro": "{{ lib._nothing is defined }}",
    "current_class": "{{ _cur.__class__ }}",
    "current_private": "{{ _cur.__dict__ }}",
    "fit_result_replace": "{{ _cur.fit('x', 20, 10, 9)._replace }}",
    "markup_format": "{{ ('{0.__class__}'|safe).format(1) }}",
    "text_format": "{{ '{0.__class__}'.format(name) }}",
    "format_map": "{{ '{a}'.format_map(d) }}",
    "percent_format": "{{ '%s' % name }}",
    "dict_pop": "{{ d.pop('k') }}{{ d }}",
    "list_append_then_fail": "{{ l.append(2) }}{{ l }}{{ name.__class__ }}",
    "huge_range": "{{ range(10**9)|length }}",
    "text_times_billion": "{{ 'x' * 10**9 }}",
    "power": "{{ 9 ** 9 ** 9 }}",
    "deep_macro": "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}",
    "macro_depth_60": "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(60) }}x",
    "ljust": "{{ 'x'.ljust(2000000000) }}",
    "call_a_text": "{{ name() }}",
    "undefined_attribute_use": "{{ d.nothing + 1 }}",
    "map_by_a_filter": "{{ l|map('string')|join }}",
    "context_list_append": "{{ l.append(5) }}{{ l }}",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_template_gets_jinjas_answer(tmp_path, name):
    compiled, jinja, _ = render_both(tmp_path, HOSTILE[name])
    assert compiled == jinja


def test_the_sandbox_checks_refuse_internals():
    macro = trun.CMacro(lambda: "x", "m", ())
    for obj, attr in ((macro, "fn"), (macro, "__class__"), ("x", "format"), ("x", "format_map"),
                      (trun.Markup("x"), "format"), ({}, "__class__"), ({}, "pop"), ([], "__class__"),
                      (1, "real"), (trun.TModule({}), "__dict__"), (trun.Current(), "__dict__"),
                      (object(), "x")):
        with pytest.raises(trun.Bail):
            trun.ga_safe(obj, attr)
    with pytest.raises(trun.Bail):
        trun.gi_safe("x", "__class__")
    with pytest.raises(trun.Bail):
        trun.gi_safe(object(), 0)
    assert trun.gi_safe({"__class__": 1}, "__class__") == 1            # data, not Python's
    assert trun.ga_safe({"a": 1}, "b") is trun.UNDEF
    with budget.face() as meter:
        trun.S_.meter = meter
        for f in (print, eval, getattr, "x".ljust, os.system, trun.Loader):
            with pytest.raises(trun.Bail):
                trun.call_safe(f, "x")
        with pytest.raises(trun.Bail):
            trun.range_safe(10**9)


DECK = ROOT / "bench" / "data" / "cards120.csv"


@pytest.fixture(scope="module")
def deck_faces():
    from ludoteca.generator.deck import deck_component
    from ludoteca.generator.sheets import data, item_size
    comp = deck_component(DECK, "card.svg.j2", "back.svg.j2", item_size(data()["deck"]["item"]))
    return comp, list(comp.fronts) + list(comp.backs)


@pytest.mark.parametrize("ink_saver", [False, True])
def test_the_120_card_deck_compiled_is_jinjas_to_the_character(deck_faces, ink_saver):
    from ludoteca.generator.build import bleed_of, face_size
    comp, faces = deck_faces
    roots = (str((templating.TEMPLATES / "deck").resolve()),)
    opts = Options(ink_saver=ink_saver)
    size, bleed = face_size(comp, opts), bleed_of(comp, opts)
    for face in faces:
        assert templating.render(face, size, bleed, opts, "", roots) == \
            templating.render(face, size, bleed, opts, "", roots, compiled=False)
    assert templating.compiled("card.svg.j2", roots) and templating.compiled("back.svg.j2", roots)


def test_a_damaged_cache_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "t.svg.j2").write_text("{{ name }}!", encoding="utf-8")
    roots = (str(tmp_path),)

    def fresh() -> trun.Loader:
        from ludoteca.atomic import cache_dir
        return trun.Loader(templating._search(roots), True, templating._globals(),
                           lambda: templating.environment(roots, True), cache_dir("templates-compiled"))

    assert fresh().unit("t.svg.j2") is not None
    cached = list((tmp_path / "cache" / "ludoteca" / "templates-compiled").iterdir())
    assert len(cached) == 1
    for damage in (b"", b"\x00garbage", cached[0].read_bytes()[:20]):
        cached[0].write_bytes(damage)
        unit = fresh().unit("t.svg.j2")
        assert unit is not None
        with budget.face() as meter:
            trun.S_.meter = meter
            assert "".join(unit.root({"name": "x"})) == "x!"
    cached[0].chmod(0)
    assert fresh().unit("t.svg.j2") is not None


def test_an_edited_template_is_compiled_again_in_the_same_process(tmp_path):
    template = tmp_path / "t.svg.j2"
    template.write_text("one", encoding="utf-8")
    roots = (str(tmp_path),)
    fast = templating.loader(roots, True)
    assert "".join(fast.unit("t.svg.j2").root({})) == "one"
    template.write_text("two", encoding="utf-8")
    os.utime(template, (1, 1))
    assert "".join(fast.unit("t.svg.j2").root({})) == "two"


def test_a_users_template_edited_or_removed_between_faces_counts_at_once(tmp_path):
    """A face reads its template's file once, to know it is the user's and whether its compiled
    code is still that file's: an edit or a removal between two faces is seen by the next."""
    from ludoteca.generator.model import Face, Options
    template = tmp_path / "card.svg.j2"
    face = Face("card.svg.j2", {"name": "Ana"}, "ana")
    roots = (str(tmp_path), str(templating.TEMPLATES / "deck"))

    def render() -> str:
        return templating.render(face, (63.0, 88.0), 3.0, Options(), roots=roots)
    template.write_text('<svg xmlns="http://www.w3.org/2000/svg"><text>{{ name }} one</text></svg>', "utf-8")
    assert "Ana one" in render() and templating.compiled("card.svg.j2", roots)
    template.write_text('<svg xmlns="http://www.w3.org/2000/svg"><text>{{ name }} two</text></svg>', "utf-8")
    os.utime(template, (1, 1))
    assert "Ana two" in render()
    template.unlink()                                  # the next folder's: the default face
    svg = render()
    assert "Ana" in svg and "two" not in svg
    assert templating._user_root("card.svg.j2", roots) == (templating.TEMPLATES / "deck").resolve()


def test_a_users_template_is_looked_at_once_a_face_however_its_folder_is_named(tmp_path, monkeypatch):
    """The look that finds a user's template is the one the compiled code's freshness takes, for a
    folder named through a link or relatively as well: no second stat of that file per face."""
    from ludoteca.generator import trun
    from ludoteca.generator.model import Face, Options
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "card.svg.j2").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><text>{{ name }}</text></svg>', "utf-8")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    monkeypatch.chdir(tmp_path)
    looked: list[str] = []
    real = trun.os.path.getmtime
    monkeypatch.setattr(trun.os.path, "getmtime", lambda p: looked.append(str(p)) or real(p))
    for folder in ("link", "real", str(tmp_path / "link")):
        roots = (folder,)
        for name in ("Ana", "Bea", "Ceci"):
            face = Face("card.svg.j2", {"name": name}, name)
            assert name in templating.render(face, (63.0, 88.0), 3.0, Options(), roots=roots)
        # one look when its code was loaded (the first face), none for the faces after it
        assert len([p for p in looked if p.endswith("card.svg.j2")]) == 1, looked
        assert templating.compiled("card.svg.j2", roots)
        looked.clear()


def test_a_warm_deck_never_imports_jinja(tmp_path):
    """The process itself: the second run of a deck finds its templates compiled in the cache (a
    user's own template: the package ships the default face compiled, tests/test_generator_shipped.py)."""
    data = tmp_path / "cards.csv"
    data.write_text("id,name,colour,text\nc1,Ana,blue,Hola\nc2,Luis,red,\n", encoding="utf-8")
    face = tmp_path / "mine" / "card.svg.j2"
    face.parent.mkdir()
    face.write_text("{# mine #}" + (templating.TEMPLATES / "deck" / "card.svg.j2").read_text("utf-8"), "utf-8")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop(templating.FAST_ENV, None)
    check = ("import runpy, sys, os\n"
             "sys.argv = ['ludoteca'] + sys.argv[1:]\n"
             "real = os._exit\n"
             "def leave(code):\n"
             "    print('JINJA' if any(m.split('.')[0] == 'jinja2' for m in sys.modules) else 'NO-JINJA')\n"
             "    sys.stdout.flush(); real(code)\n"
             "os._exit = leave\n"
             "try:\n    runpy.run_module('ludoteca.cli', run_name='__main__')\n"
             "except SystemExit as e:\n    leave(e.code or 0)\n")
    said = []
    for run in range(2):
        done = subprocess.run([sys.executable, "-c", check, "deck", str(data), "--template", str(face), "-q",
                               "--out", str(tmp_path / f"out{run}")],
                              capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        said.append(done.stdout.strip().splitlines()[-1])
    assert said == ["JINJA", "NO-JINJA"]


@pytest.fixture(scope="module")
def catalog():
    from ludoteca.cards import load
    from ludoteca.generator.build import GAMES
    return load(None, GAMES)


@pytest.mark.parametrize("lang,ink_saver,markers", [("es", False, True), ("en", True, False)])
def test_the_kits_compiled_faces_are_jinjas_to_the_character(catalog, lang, ink_saver, markers):
    """Faces of the three games whose template compiles, both ways: up to four different faces
    of each template (each option both ways across the two runs; bench/check_compiled.py
    compares every face of all eight)."""
    from ludoteca.generator.build import GAMES, bleed_of, face_size, game_components
    roots = (str(templating.TEMPLATES),)
    opts = Options(lang=lang, ink_saver=ink_saver, markers=markers)
    seen: set[str] = set()
    per_template: dict[str, int] = {}
    compared = set()
    for game in GAMES:
        for comp in game_components(game, catalog, opts, []):
            for part in getattr(comp, "parts", None) or [comp]:
                size, bleed = face_size(part, opts), bleed_of(part, opts)
                for face in list(part.fronts) + list(part.backs or []):
                    key = face.template + repr(sorted(face.context.items(), key=str))
                    if key in seen or per_template.get(face.template, 0) >= 4 \
                            or not templating.compiled(face.template, roots):
                        continue
                    seen.add(key)
                    per_template[face.template] = per_template.get(face.template, 0) + 1
                    assert templating.render(face, size, bleed, opts, "", roots) == \
                        templating.render(face, size, bleed, opts, "", roots, compiled=False), face.template
                    assert templating.compiled(face.template, roots), face.template
                    compared.add(face.template)
    assert {"ciudadelas/district.svg.j2", "el_mapa/tile_front.svg.j2", "gladiadores/gladiator.svg.j2",
            "gladiadores/token.svg.j2"} <= compared


@pytest.mark.parametrize("template", ["ciudadelas/_art.svg.j2", "gladiadores/_art.svg.j2", "_lib.svg.j2"])
def test_an_imported_template_exports_what_jinjas_module_exports(template):
    """What the games read of their art templates (the names of the drawings, POSES)."""
    ours = templating.module(template)
    jinjas = templating.environment().get_template(template).module
    assert isinstance(ours, trun.TModule)
    public = sorted(n for n in dir(jinjas) if not n.startswith("_"))
    assert sorted(n for n in dir(ours) if not n.startswith("_")) == public
    for name in public:
        if isinstance(getattr(ours, name), trun.CMacro):
            assert callable(getattr(ours, name)) and callable(getattr(jinjas, name))
        else:
            assert getattr(ours, name) == getattr(jinjas, name), name

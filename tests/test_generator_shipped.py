"""What the package ships made ahead of time (generator/shipped.py, written by
generator/prebuild.py): a first build on an empty user cache reads the compiled templates and the
cairo binding from it, compiles nothing and writes nothing into the user cache; a shipped file that
is stale (another template text, compiler or jinja) or damaged is passed over."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from ludoteca.atomic import cache_dir
from ludoteca.generator import binding, prebuild, shipped, tcompile, templating, trun
from ludoteca.generator.model import Options

ROOT = Path(__file__).resolve().parent.parent
DECK = (templating.TEMPLATES / "deck").resolve()
KIT = "ciudadelas/district.svg.j2"


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """A shipped folder as prebuild writes it, with one of the kit's templates (and its imports)
    besides the default deck's."""
    folder = tmp_path_factory.mktemp("package") / "_prebuilt"
    assert prebuild.write(folder, kit=[KIT]) == []
    return folder


@pytest.fixture
def fresh(made, tmp_path, monkeypatch):
    """An empty user cache, ``made`` as the package's folder, and the compiler counted."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(shipped, "FOLDER", made)
    calls: list[str] = []
    real = tcompile.compile_template

    def counted(env, source, name, *rest):
        calls.append(name)
        return real(env, source, name, *rest)
    monkeypatch.setattr(tcompile, "compile_template", counted)
    templating.loader.cache_clear()
    yield calls
    templating.loader.cache_clear()


def _deck_faces():
    from ludoteca.generator.deck import deck_component
    from ludoteca.generator.sheets import data, item_size
    comp = deck_component(ROOT / "examples" / "deck" / "cartas.csv", "card.svg.j2", "back.svg.j2",
                          item_size(data()["deck"]["item"]))
    return comp, list(comp.fronts)[:3] + list(comp.backs)[:1]


def _compiled_in_cache() -> list[Path]:
    folder = cache_dir("templates-compiled")
    return sorted(folder.iterdir()) if folder else []


def test_a_first_deck_reads_its_compiled_templates_from_the_package(fresh):
    from ludoteca.generator.build import bleed_of, face_size
    comp, faces = _deck_faces()
    roots = (str(DECK),)
    opts = Options()
    size, bleed = face_size(comp, opts), bleed_of(comp, opts)
    svgs = [templating.render(face, size, bleed, opts, "", roots) for face in faces]
    assert templating.compiled("card.svg.j2", roots) and templating.compiled("back.svg.j2", roots)
    assert fresh == [] and _compiled_in_cache() == []          # nothing compiled, nothing written
    assert svgs == [templating.render(face, size, bleed, opts, "", roots, compiled=False) for face in faces]


def test_the_kits_own_templates_are_read_from_the_package(fresh):
    loader = templating.loader()
    assert loader.unit(KIT) is not None and loader.module("_lib.svg.j2") is not None
    assert fresh == [] and _compiled_in_cache() == []


def _other_template(tmp_path: Path) -> tuple[str, ...]:
    """A user's copy of the default face, one comment added: a text nothing was shipped for."""
    (tmp_path / "card.svg.j2").write_text("{# mine #}" + (DECK / "card.svg.j2").read_text("utf-8"), "utf-8")
    return (str(tmp_path),)


@pytest.mark.parametrize("stale", ["template", "compiler", "jinja", "file", "index"])
def test_a_stale_or_damaged_shipped_template_is_compiled_instead(stale, fresh, made, tmp_path, monkeypatch):
    roots = (str(DECK),)
    if stale == "template":
        roots = _other_template(tmp_path)
    elif stale == "compiler":
        monkeypatch.setattr(trun, "_compiler_stamp", lambda: "another compiler")
    elif stale == "jinja":
        monkeypatch.setattr(trun, "jinja_version", lambda: "2.11.3")
    else:
        copy = tmp_path / "package" / "_prebuilt"
        shutil.copytree(made, copy)
        monkeypatch.setattr(shipped, "FOLDER", copy)
        source = (DECK / "card.svg.j2").read_text("utf-8")
        key = trun.template_key(True, source, shipped=True)
        damaged = copy / (shipped.template_file(key) if stale == "file" else shipped.INDEX)
        damaged.write_text("def root(ctx:\n", "utf-8")
    loader = templating.loader(roots, True)
    unit = loader.unit("card.svg.j2")
    assert unit is not None and "card.svg.j2" in fresh
    assert _compiled_in_cache()                                     # kept in the user cache, as before
    if stale != "template":                                         # what it renders is Jinja's
        from ludoteca.generator.build import bleed_of, face_size
        comp, faces = _deck_faces()
        opts = Options()
        size, bleed = face_size(comp, opts), bleed_of(comp, opts)
        assert templating.render(faces[0], size, bleed, opts, "", roots) == \
            templating.render(faces[0], size, bleed, opts, "", roots, compiled=False)


def test_the_shipped_cairo_binding_is_read_first_and_a_damaged_one_passed_over(made, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(shipped, "FOLDER", made)
    names = binding.module_names(binding._sources()[1])
    for name in names:
        monkeypatch.delitem(sys.modules, name, raising=False)
    written: list[int] = []
    write = binding._write
    monkeypatch.setattr(binding, "_write", lambda *args: (written.append(1), write(*args)))
    module = binding._prebuilt()
    assert module is not None and Path(module.__file__).parent == made and written == []
    types = module.ffi.list_types()
    assert "cairo_t" in types[0] and "GdkPixbuf" in module.ffi_pixbuf.list_types()[0]
    copy = tmp_path / "package" / "_prebuilt"
    shutil.copytree(made, copy)
    (copy / f"{names[0]}.py").write_text("raise ImportError('damaged')\n", "utf-8")
    monkeypatch.setattr(shipped, "FOLDER", copy)
    for name in names:
        monkeypatch.delitem(sys.modules, name, raising=False)
    again = binding._prebuilt()
    assert again is not None and Path(again.__file__).parent == cache_dir("cffi") and written == [1]
    assert again.ffi.list_types() == types


def test_jinjas_version_is_read_without_importing_it(tmp_path, monkeypatch):
    package = tmp_path / "site" / "jinja2" / "__init__.py"
    package.parent.mkdir(parents=True)
    monkeypatch.setattr(trun, "_jinja_origin", lambda: str(package))
    package.write_text('"""jinja"""\n__version__ = "3.1.6"\n', "utf-8")
    assert trun.jinja_version.__wrapped__() == "3.1.6"
    package.write_text("x = '__version__ = \"0.1\"'\n  __version__ = '0.2'\n__version__\t=  '3.1.5'  # x\n", "utf-8")
    assert trun.jinja_version.__wrapped__() == "3.1.5"          # the first at the start of a line
    package.write_text('from importlib.metadata import version\n__version__ = version("jinja2")\n', "utf-8")
    assert trun.jinja_version.__wrapped__() == ""
    (tmp_path / "site" / "jinja2-3.2.0.dist-info").mkdir()
    assert trun.jinja_version.__wrapped__() == "3.2.0"


def test_without_jinjas_version_no_template_is_shipped(tmp_path, monkeypatch):
    """A key without it could not tell one jinja from another: nothing is written to be found by it."""
    monkeypatch.setattr(trun, "jinja_version", lambda: "")
    monkeypatch.setattr(binding, "_sources", lambda: None)
    monkeypatch.setattr(prebuild, "_catalog", lambda _folder: [])
    left_out = prebuild.write(tmp_path / "_prebuilt", kit=[KIT])
    assert [line.split(":")[0] for line in left_out] == ["templates", "cairo binding"]
    assert [p.name for p in (tmp_path / "_prebuilt").iterdir()] == [shipped.INDEX]


@pytest.fixture
def cards_copy(tmp_path) -> Path:
    """The package's card data copied elsewhere (as bench/bench_build.py builds from a copy)."""
    from ludoteca.cards import default_dir
    copy = tmp_path / "my cards"
    shutil.copytree(default_dir(), copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return copy


def _reads(monkeypatch) -> list[Path]:
    """The card folders the loader reads (from the next call on)."""
    import ludoteca.cards
    read, calls = ludoteca.cards.load, []
    monkeypatch.setattr(ludoteca.cards, "load", lambda root, games: (calls.append(root), read(root, games))[1])
    return calls


def test_a_first_kit_reads_the_cards_catalog_from_the_package_placed_in_its_folder(fresh, cards_copy, monkeypatch):
    from ludoteca.cards import load
    from ludoteca.generator import catalogcache
    from ludoteca.generator.build import GAMES
    reads = _reads(monkeypatch)
    catalog = catalogcache.load(cards_copy, GAMES)
    assert reads == [] and list(cache_dir("catalog").iterdir()) == []
    assert catalog.root == cards_copy and catalog["el_mapa"].folder == cards_copy / "el_mapa"
    assert catalog == load(cards_copy, GAMES)          # every entry, and where each was read


@pytest.mark.parametrize("stale", ["card", "file"])
def test_a_stale_or_damaged_shipped_catalog_is_read_instead(stale, fresh, made, cards_copy, tmp_path, monkeypatch):
    from ludoteca.generator import catalogcache
    from ludoteca.generator.build import GAMES
    if stale == "card":
        districts = cards_copy / "ciudadelas" / "districts.yaml"
        districts.write_text(districts.read_text("utf-8").replace("Catedral", "Catedral Mayor", 1), "utf-8")
    else:
        copy = tmp_path / "package" / "_prebuilt"
        shutil.copytree(made, copy)
        monkeypatch.setattr(shipped, "FOLDER", copy)
        (copy / shipped.catalog_file(catalogcache.shipped_key(cards_copy, GAMES))).write_bytes(b"\x80\x05junk")
    reads = _reads(monkeypatch)
    catalog = catalogcache.load(cards_copy, GAMES)
    assert reads == [cards_copy] and len(list(cache_dir("catalog").iterdir())) == 1
    assert ("Catedral Mayor" in str(catalog["ciudadelas"].entries("district"))) == (stale == "card")

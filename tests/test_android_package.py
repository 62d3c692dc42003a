"""buildozer.spec, checked without an Android toolchain: what it packages, that every import of the
packaged code has its python-for-android requirement, the version, and the icon and splash."""

from __future__ import annotations

import re

import pytest

import androidspec as spec
import ludoteca


@pytest.fixture(scope="module")
def app():
    return spec.read_spec()


@pytest.fixture(scope="module")
def files(app):
    return [p.as_posix() for p in spec.packaged_files(spec.ROOT, app)]


def test_the_package_holds_the_app_the_engine_and_the_data_only(files):
    assert "main.py" in files and "ludoteca/__init__.py" in files
    for needed in ("cards/ciudadelas/districts.yaml", "cards/el_mapa/tiles.yaml", "cards/catalog.py",
                   "companion/app/home.kv", "companion/app/main.py", "companion/engine/store.py",
                   "companion/app/art/icon.png"):
        assert needed in files
    tops = {f.split("/")[0] for f in files}
    assert tops == {"main.py", "ludoteca", "cards", "companion", "LICENSE", "LICENSE-ART"}
    # of the top package only what the app uses: the package itself and its atomic writes (no CLI)
    assert sorted(f for f in files if f.startswith("ludoteca/")) == ["ludoteca/__init__.py", "ludoteca/atomic.py"]
    assert not [f for f in files if f.endswith((".svg", ".md", ".j2", ".pyc"))]


def test_every_import_has_its_requirement_and_every_requirement_is_used(app, files):
    from pathlib import Path
    needed, unknown = spec.needed_requirements(spec.ROOT, [Path(f) for f in files])
    assert unknown == {}, f"imports no requirement provides: {unknown}"
    listed = set(spec.requirements(app))
    assert "sqlite3" in needed  # the games database: _sqlite3 is built by its own recipe
    assert needed - listed == set(), f"missing from buildozer.spec requirements: {needed - listed}"
    assert listed - needed - spec.IMPLIED == set(), f"listed but never imported: {listed - needed}"


def test_kivy_is_pinned_and_the_target_api_is_current(app):
    assert spec.requirements(app)["kivy"] == "==2.3.1"
    # Google Play asks new apps and updates to target Android 16 (API 36) from 31 August 2026.
    assert int(app["android.api"]) >= 36
    assert int(app["android.minapi"]) <= 24


def test_the_version_is_read_from_the_package(app):
    source = (spec.ROOT / "ludoteca" / "__init__.py").read_text("utf-8")
    assert app["version.filename"] == "./ludoteca/__init__.py"
    (version,) = re.findall(app["version.regex"], source)
    assert version == ludoteca.__version__
    assert "version" not in app, "the version is written once, in ludoteca/__init__.py"
    pyproject = (spec.ROOT / "pyproject.toml").read_text("utf-8")
    assert 'dynamic = ["version"]' in pyproject and 'attr = "ludoteca.__version__"' in pyproject


@pytest.mark.parametrize("name, size", [("icon", 512), ("presplash", 1024)])
def test_icon_and_splash_are_ours_and_match_their_sources(app, name, size):
    import io

    import cairosvg
    from PIL import Image, ImageChops, ImageStat

    key = "icon.filename" if name == "icon" else "presplash.filename"
    path = spec.ROOT / app[key]
    assert path.is_file(), path
    shipped = Image.open(path).convert("RGBA")
    assert shipped.size == (size, size)
    svg = path.with_suffix(".svg").read_bytes()
    fresh = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg, output_width=size,
                                                   output_height=size))).convert("RGBA")
    diff = ImageStat.Stat(ImageChops.difference(shipped, fresh)).mean
    assert max(diff) < 1.0, f"{path.name} is stale: run python scripts/android_art.py"
    colours = len(shipped.convert("RGB").resize((64, 64)).getcolors(64 * 64))
    assert colours >= 5  # a drawing, not a blank square

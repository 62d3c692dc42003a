"""Ludoteca as a user installs it: the wheel, in a fresh virtual environment, away from the checkout.

One wheel and one environment for the module, at the lock's versions (tests/lockenv.py: a few
seconds with uv's cache warm). Every command then runs from an empty folder with a clean
environment, so nothing can come from the source tree.
"""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
import zipfile
from pathlib import Path

import pytest

import lockenv
import pdfmeasure as pm
from ludoteca.cards import load
from ludoteca.companion.engine.scoring import read_record, score_record
from ludoteca.cards import default_dir
from ludoteca.generator import binding, catalogcache, shipped, templating, trun
from ludoteca.generator.build import GAMES

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return lockenv.build_wheel(tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed (without the app extra), at the lock's
    versions."""
    env_dir = tmp_path_factory.mktemp("venv")
    lockenv.make_env(env_dir, str(wheel))
    return env_dir


def run(env_dir: Path, cwd: Path, *args: str, check: bool = True,
        more_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``ludoteca ARGS`` from the environment's own script, in ``cwd``, with no PYTHONPATH (and
    ``more_env`` set)."""
    env = lockenv.clean_env()
    env["LUDOTECA_DB"] = str(cwd / "games.db")
    env.update(more_env or {})
    done = subprocess.run([str(env_dir / "bin" / "ludoteca"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def test_the_wheel_holds_one_top_level_package_with_its_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"ludoteca", wheel.name.split("-py3")[0] + ".dist-info"}
    for needed in ("ludoteca/cards/ciudadelas/districts.yaml", "ludoteca/templates/_lib.svg.j2",
                   "ludoteca/templates/ciudadelas/district.svg.j2", "ludoteca/templates/deck/card.svg.j2",
                   "ludoteca/generator/sheets.yaml", "ludoteca/generator/words.yaml",
                   "ludoteca/companion/app/home.kv", "ludoteca/examples/ciudadelas.yaml",
                   "ludoteca/examples/deck/cartas.csv", "ludoteca/companion/app/art/icon.png"):
        assert needed in names
    assert not any(name.startswith("ludoteca/tests") or "/__pycache__/" in name for name in names)
    licences = {Path(name).name for name in names if "/licenses/" in name}
    assert licences == {"LICENSE", "LICENSE-ART"}


def test_the_wheel_ships_the_templates_compiled_the_cairo_binding_and_the_catalog(wheel):
    """Found by the keys this checkout computes: made from these templates and cards, by this
    compiler and loader, with the jinja (cffi, cairocffi, PyYAML) an installation runs."""
    names = set(zipfile.ZipFile(wheel).namelist())
    folder = "ludoteca/generator/" + shipped.FOLDER.name
    made = {name for name in names if name.startswith(folder + "/")}
    wanted = {f"{folder}/{shipped.INDEX}"}
    for path in templating.TEMPLATES.rglob("*.j2"):
        wanted.add(f"{folder}/{shipped.template_file(trun.template_key(False, path.read_text('utf-8'), shipped=True))}")
    for path in (templating.TEMPLATES / "deck").glob("*.j2"):
        wanted.add(f"{folder}/{shipped.template_file(trun.template_key(True, path.read_text('utf-8'), shipped=True))}")
    wanted |= {f"{folder}/{name}.py" for name in binding.module_names(binding._sources()[1])}
    wanted.add(f"{folder}/{shipped.catalog_file(catalogcache.shipped_key(default_dir(), GAMES))}")
    assert wanted <= made and len(made) == len(wanted) + 1      # and the sandbox's _lib.svg.j2


def test_the_wheels_build_runs_the_locks_versions():
    """The build's environment has what the prebuilt folder is made with, each at the version uv.lock
    holds (the one an installation runs), pinned in build-constraint-dependencies."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    lock = tomllib.loads((ROOT / "uv.lock").read_text("utf-8"))

    def norm(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()
    required = {norm(re.match(r"[\w.-]+", r).group(0)) for r in pyproject["build-system"]["requires"]}
    assert {"jinja2", "markupsafe", "cffi", "pycparser", "cairocffi", "pyyaml"} <= required
    pins = dict(pin.split("==") for pin in pyproject["tool"]["uv"]["build-constraint-dependencies"])
    pins = {norm(name): version for name, version in pins.items()}
    assert set(pins) == required
    locked = {norm(package["name"]): package.get("version") for package in lock["package"]}
    assert {name: pins[name] for name in required - {"setuptools"}} == \
        {name: locked[name] for name in required - {"setuptools"}}
    assert {norm(c["name"]): c["specifier"] for c in lock["manifest"]["build-constraints"]} == \
        {name: f"=={version}" for name, version in pins.items()}


def test_installed_top_level_names_are_ludoteca_only(installed, tmp_path):
    code = ("import importlib.metadata as m, json; d = m.distribution('ludoteca'); "
            "print(json.dumps(sorted({str(f).split('/')[0] for f in d.files})))")
    env = lockenv.clean_env()
    out = subprocess.run([str(installed / "bin" / "python"), "-c", code], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=True)
    tops = [name for name in json.loads(out.stdout) if not name.endswith(".dist-info")]
    assert tops == ["..", "ludoteca"]  # ".." is the environment's bin/ with the two scripts
    where = subprocess.run([str(installed / "bin" / "python"), "-c",
                            "import ludoteca.cards, ludoteca.templates; print(ludoteca.cards.__file__); "
                            "print(ludoteca.templates.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    for line in where.stdout.split():
        assert Path(line).is_relative_to(installed), line


def test_build_ciudadelas_from_the_wheel(installed, tmp_path):
    run(installed, tmp_path, "build", "ciudadelas", "--out", "kit")
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text("utf-8"))
    files = {entry["component"]: entry for entry in manifest["files"] if entry["game"] == "ciudadelas"}
    districts = tmp_path / "kit" / files["districts"]["path"]
    data = load()["ciudadelas"]
    pages = pm.read(districts)
    assert len(pages) == files["districts"]["pages"]
    assert all((round(p.size[0], 1), round(p.size[1], 1)) == (210.0, 297.0) for p in pages)  # mm
    assert files["districts"]["items"] == sum(d["copies"] for d in data.entries("district"))
    xs, ys = pages[0].cuts()
    widths = sorted({round(b - a, 1) for a, b in zip(xs, xs[1:]) if b - a > 30})
    assert widths == [63.0]
    text = subprocess.run(["pdftotext", str(districts), "-"], capture_output=True, text=True, check=True).stdout
    assert data.find("district", "catedral")["name"]["es"] in text
    fonts = subprocess.run(["pdffonts", str(districts)], capture_output=True, text=True, check=True).stdout
    assert all(line.split()[-5] == "yes" for line in fonts.splitlines()[2:])  # "emb" column


def test_the_packaged_example_deck(installed, tmp_path):
    start = run(installed, tmp_path, "deck", "--init", "mine")
    assert "cartas.csv" in start.stdout
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["back.svg.j2", "card.svg.j2", "cartas.csv"]
    again = run(installed, tmp_path, "deck", "--init", "mine", check=False)
    assert again.returncode == 2 and "already there" in again.stderr and len(again.stderr.splitlines()) == 1
    cache = tmp_path / "cache"              # a machine that never ran Ludoteca: nothing compiled, no header parsed
    done = run(installed, tmp_path, "deck", "mine/cartas.csv", "--template", "mine/card.svg.j2",
               "--back", "mine/back.svg.j2", "--out", "deck",
               more_env={"XDG_CACHE_HOME": str(cache), "PYTHONPROFILEIMPORTTIME": "1"})
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "cairocffi" in imported and not {"jinja2", "pycparser"} & imported
    assert list((cache / "ludoteca" / "templates-compiled").iterdir()) == []
    assert not (cache / "ludoteca" / "cffi").exists()
    rows = (tmp_path / "mine" / "cartas.csv").read_text("utf-8").splitlines()[1:]
    copies = sum(int(row.rsplit(",", 1)[1]) for row in rows)
    pdf = tmp_path / "deck" / "cartas.pdf"
    pages = pm.read(pdf)
    assert len(pages) == 2 * -(-copies // 9)  # fronts and backs, nine cards a sheet
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert {"Mercado", "Especias", "Biblioteca", "Perdida", "bórrala."} <= set(text.split())
    help_text = run(installed, tmp_path, "deck", "--help").stdout
    assert "ludoteca deck --init" in help_text


def test_score_the_packaged_example(installed, tmp_path):
    out = json.loads(run(installed, tmp_path, "score", "--example", "ciudadelas", "--json").stdout)
    here = score_record(read_record(ROOT / "examples" / "ciudadelas.yaml"), load(games=("ciudadelas",)))
    assert out == json.loads(json.dumps(here.as_json()))
    assert out["winners"] == ["Eva"]


def test_play_lists_actions_and_the_app_says_what_is_missing(installed, tmp_path):
    listing = run(installed, tmp_path, "play", "gladiadores", "--actions").stdout
    assert "fight" in listing and "build" in listing
    app = run(installed, tmp_path, "companion", check=False)
    assert app.returncode == 2
    assert app.stderr.strip().splitlines() == [
        "ludoteca: error: the companion app needs Kivy, which comes with the app extra: "
        "pip install 'ludoteca[app]'"]
    assert (installed / "bin" / "ludoteca-companion").is_file()

"""Ciudadelas district art (issue 20): every district, Dark City included, draws its own picture
from its ``art:`` list, shows its cost as a number, and an element that is not drawn is one clear
line naming the file, the entry and the field.

In-process: one catalog, each distinct face rendered once.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

from ludoteca.cards import DataError, catalog
from ludoteca.generator.games import ciudadelas
from ludoteca.generator.model import Options
from ludoteca.generator.templating import render
from test_art import _NOISE

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def faces():
    """Each distinct district face of both decks (the Dark City switched on), rendered once."""
    game = catalog.load(games=("ciudadelas",))["ciudadelas"]
    game.meta["dark_city"]["enabled"] = True
    opts = Options()
    out = []
    for comp in ciudadelas.components(game, opts):
        if comp.id in ("districts", "dark_city"):
            for face in {id(f): f for f in comp.fronts}.values():
                out.append((face, ET.fromstring(render(face, comp.size_mm, 3.0, opts))))
    return out


def test_every_district_name_has_a_picture_of_its_own_dark_city_included(faces):
    names = defaultdict(set)
    for face, root in faces:
        arts = [e for e in root.iter() if "art" in (e.get("class") or "").split()]
        assert len(arts) == 1, face.name
        names[_NOISE.sub("", ET.tostring(arts[0], encoding="unicode"))].add(face.context["name"]["es"])
    assert len(faces) == 41
    assert all(len(n) == 1 for n in names.values()), [sorted(n) for n in names.values() if len(n) > 1]


def test_the_cost_is_printed_as_a_number(faces):
    for face, root in faces:
        texts = ["".join(t.itertext()).strip() for t in root.iter(SVG + "text")]
        assert str(face.context["cost"]) in texts, (face.name, texts)


def test_an_element_that_is_not_drawn_is_one_clear_line(tmp_path):
    shutil.copytree(Path(catalog.load(games=("ciudadelas",)).root) / "ciudadelas", tmp_path / "ciudadelas")
    path = tmp_path / "ciudadelas" / "districts.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("- {el: pier,") == 1
    path.write_text(text.replace("- {el: pier,", "- {el: peir,"), encoding="utf-8")
    line = text[:text.index("- {el: pier,")].count("\n") + 1
    game = catalog.load(tmp_path, games=("ciudadelas",))["ciudadelas"]
    with pytest.raises(DataError) as err:
        ciudadelas.components(game, Options())
    message = str(err.value)
    assert "\n" not in message
    assert f"districts.yaml:{line}: district 'harbor': art[" in message
    assert ".el: " in message and "got peir" in message and "closest: pier" in message

"""Every distinct card has a picture of its own (issue 20): no two differently named cards share one.

A card's picture is the element its template marks ``class="art"``. The check renders the fronts of
each component listed in ``ART`` (Spanish, full colour), takes that element's SVG text with the
document's generated ids folded away, and fails when one picture belongs to two names.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from collections import defaultdict

import pytest

from ludoteca.cards import catalog
from ludoteca.generator.games import ciudadelas, el_mapa, gladiadores
from ludoteca.generator.model import Options, in_lang
from ludoteca.generator.templating import render

GAMES = {"ciudadelas": ciudadelas, "el_mapa": el_mapa, "gladiadores": gladiadores}

#: (game, component id): the components whose every front carries a picture of its own
ART: list[tuple[str, str]] = [
    ("ciudadelas", "districts"),
    ("gladiadores", "buildings"),
    ("gladiadores", "gladiators"),
    ("el_mapa", "buildings"),
    ("el_mapa", "tech_cards"),
]

#: generated ids and references to them, and colours: a picture that differs only by colour or by
#: the ids the page gives it is the same picture
_NOISE = re.compile(r'\b(id|xlink:href|href)="[^"]*"|url\(#[^)]*\)|#[0-9a-fA-F]{3,8}\b|'
                    r'\{http://www.w3.org/2000/svg\}|xmlns(:\w+)?="[^"]*"')
_CATALOG: list = []


def _catalog():
    if not _CATALOG:
        _CATALOG.append(catalog.load())
    return _CATALOG[0]


@functools.cache
def _arts(game: str, component: str) -> list[tuple[dict, ET.Element]]:
    """Each front of one component once (not once per copy): its name, context and picture."""
    opts = Options()
    comp = next(c for c in GAMES[game].components(_catalog()[game], opts) if c.id == component)
    out = []
    for face in {id(f): f for f in comp.fronts}.values():
        root = ET.fromstring(render(face, comp.size_mm, 3.0, opts))
        arts = [e for e in root.iter() if "art" in (e.get("class") or "").split()]
        assert len(arts) == 1, f"{game}/{component} {face.name}: {len(arts)} elements of class art"
        out.append((face.name, face.context, arts[0]))
    return out


def _pictures(game, component: str) -> dict[str, set[str]]:
    """For one component: the picture's SVG text -> the Spanish names of the cards showing it."""
    seen: dict[str, set[str]] = defaultdict(set)
    for _name, context, art in _arts(game, component):
        text = _NOISE.sub("", ET.tostring(art, encoding="unicode"))
        seen[text].add(in_lang(context.get("name"), "es"))
    return seen


@pytest.mark.parametrize("game,component", ART)
def test_no_two_names_share_a_picture(game: str, component: str) -> None:
    shared = {tuple(sorted(names)) for names in _pictures(game, component).values() if len(names) > 1}
    assert not shared, f"{game}/{component}: one picture for {sorted(shared)}"


def test_each_origin_fights_in_a_pose_of_its_own() -> None:
    """Gladiators of different origins do not share a body: arms and legs (the figure's limbs) are
    drawn in a pose of each origin's own, so a retiarius casting his net, an archer drawing his
    bow and a Roman behind his shield read apart at arm's length, not only by what they hold.
    (A gladiator with a pose of his own, a worker carrying, a builder at work, is left out.)"""
    data = _catalog()["gladiadores"]
    origins: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for name, context, art in _arts("gladiadores", "gladiators"):
        if "pose" in (data.get("gladiator", name).get("art") or {}):
            continue
        limbs = tuple(e.get("d") for e in art.iter() if e.get("class") == "limb")
        assert len(limbs) >= 4, f"{in_lang(context['name'], 'es')}: {len(limbs)} limbs drawn"
        origins[limbs].add(context["origin"])
    shared = sorted(sorted(o) for o in origins.values() if len(o) > 1)
    assert not shared, f"origins drawn in one pose: {shared}"

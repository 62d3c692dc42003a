"""Synthetic table photos for the scan tests: fixed seeds, the kit's own faces."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from ludoteca.cards import load
from ludoteca.companion.scan import synth


@cache
def catalog():
    return load()


@cache
def faces(game_id: str):
    return synth.faces(catalog()[game_id])


def pieces(game_id: str, ids: list[tuple[str, str]]) -> list[synth.Face]:
    """The marked faces of ``(kind, name)`` pairs, names as a record writes them."""
    game = catalog()[game_id]
    marked, _plain = faces(game_id)
    by_marker = {f.target.marker: f for f in marked}
    out = []
    for kind, name in ids:
        entry = game.find(kind, name) if kind != "counter" else game.get("counter", name)
        out.append(by_marker[entry["marker"]])
    return out


def photo(tmp: Path, name: str, game_id: str, seed: int, size: str = "3MP",
          chosen: list[synth.Face] | None = None, table_mm: float | None = None) -> tuple[Path, synth.Truth]:
    """Write one photo (a random layout, or ``chosen`` pieces) and return it with its truth."""
    marked, plain = faces(game_id)
    rng = np.random.default_rng(seed)
    scene = synth.scene(catalog()[game_id], rng, marked, plain, chosen)
    jpg, truth = synth.photo(scene, synth.SIZES[size], rng, table_mm=table_mm)
    path = tmp / f"{name}.jpg"
    path.write_bytes(jpg)
    return path, truth


@cache
def face(game_id: str, entry_id: str) -> synth.Face:
    """One marked face as the kit prints it, rendered alone (the game's other faces are not needed)."""
    import importlib

    from ludoteca.companion.scan.targets import targets
    from ludoteca.generator.model import Options
    game = catalog()[game_id]
    table = targets(game)
    module = importlib.import_module(f"ludoteca.generator.games.{game_id}")
    for comp in module.components(game, Options()):
        for one in comp.fronts:
            number = one.context.get("marker")
            if number in table and table[number].id == entry_id and comp.layout == "grid":
                rendered = synth._render(one, comp.size_mm, table[number].round)
                return synth.Face(rendered.rgb, rendered.alpha, rendered.size_mm, table[number])
    raise LookupError(entry_id)

"""One label mechanism: every game module takes its printed words from generator/words.yaml."""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

import pytest

from ludoteca.generator.games import plain
from ludoteca.generator.words import words

GAMES_DIR = Path(str(resources.files("ludoteca.generator.games")))


@pytest.mark.parametrize("game", ["ciudadelas", "el_mapa", "gladiadores"])
def test_no_game_module_writes_its_own_spanish_english_pairs(game):
    """A literal {"es": ..., "en": ...} (or a helper making one) in a game module is a label kept
    outside words.yaml."""
    tree = ast.parse((GAMES_DIR / f"{game}.py").read_text(encoding="utf-8"))
    pairs = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Dict)
             and {k.value for k in node.keys if isinstance(k, ast.Constant)} == {"es", "en"}]
    assert pairs == []
    assert words(game, "titles") and words(game, "labels")


def test_gladiadores_words_come_from_the_file():
    assert words("gladiadores", "stat")["favor"] == {"es": "Favor del público", "en": "Crowd favour"}
    assert words("gladiadores", "score")["total"] == {"es": "Total", "en": "Total"}


def test_plain_drops_notes_and_line_memory():
    assert plain({"a": [{"note": "x", "b": 1}], 2: ("y",)}) == {"a": [{"b": 1}], "2": ["y"]}

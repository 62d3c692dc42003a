"""The words printed on the kit that are not rules data, read from ``words.yaml``.

Each game module asks for its tables (``words("el_mapa", "labels")``) instead of keeping its own
dictionary of {es, en} pairs in code; every entry is checked to have both texts.
"""

from __future__ import annotations

import functools
from pathlib import Path

from .model import GeneratorError

WORDS_FILE = Path(__file__).with_name("words.yaml")
LANGS = ("es", "en")


@functools.lru_cache(maxsize=4)
def _data(source: Path) -> dict:
    from . import owndata
    found = owndata.load(source)
    return found if isinstance(found, dict) else {}


def words(game: str, table: str, source: Path = WORDS_FILE) -> dict[str, dict[str, str]]:
    """The ``table`` of ``game`` in words.yaml: {key: {"es": ..., "en": ...}} (a fresh copy)."""
    where = f"{source.name}: {game}.{table}"
    found = (_data(source).get(game) or {}).get(table)
    if not isinstance(found, dict):
        raise GeneratorError(f"{where}: missing (a mapping of key: {{es, en}} is expected)")
    out: dict[str, dict[str, str]] = {}
    for key, text in found.items():
        if not isinstance(text, dict) or sorted(text) != sorted(LANGS) \
                or not all(isinstance(text[lang], str) and text[lang] for lang in LANGS):
            raise GeneratorError(f"{where}.{key}: needs a non-empty es and en text, got {text!r}")
        out[str(key)] = dict(text)
    return out

"""The rulebook's own prose: YAML files in ``texts/``, checked, with values filled in from the card data.

A rule text never types a number of the game: it names it, ``{game.starting_gold}`` or
``{character.architect.max_builds}`` or ``{count.districts}``, and the value is read from the card
data when the book is built.  Every problem is one line naming the file, line and field.
"""

from __future__ import annotations

import functools
import hashlib
import re
from importlib import resources
from pathlib import Path
from typing import Any

from ludoteca.cards import Game
from ludoteca.cards.yamlread import LDict, LList, YamlProblem, read

from ..model import GeneratorError

TEXTS = Path(str(resources.files("ludoteca.generator.rulebook") / "texts"))
LANGS = ("es", "en")
PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.]+)\}")
BLOCK_KINDS = ("p", "list", "steps", "data", "auto", "h", "small")


class RulebookError(GeneratorError):
    """A rulebook text that cannot be used: one line, ``file:line: field: problem``."""


@functools.lru_cache(maxsize=16)
def _read(path: Path) -> Any:
    try:
        return read(path)
    except YamlProblem as exc:
        raise RulebookError(f"{path.name}:{exc.line}: {exc.message}") from None
    except OSError as exc:
        raise RulebookError(f"{path.name}: cannot be read: {exc.strerror}") from None


def texts(name: str, folder: Path | None = None) -> LDict:
    """One texts file (``common``, a game id, ``notes_es``) as read, with its lines."""
    data = _read((folder or TEXTS) / f"{name}.yaml")
    if not isinstance(data, LDict):
        raise RulebookError(f"{name}.yaml:1: a mapping at the top level")
    return data


def where(name: str, node: Any, key: Any, field: str) -> str:
    """``file:line: field`` for messages."""
    line = node.line_of(key) if isinstance(node, (LDict, LList)) else 1
    return f"{name}.yaml:{line}: {field}"


def check_text(value: Any, at: str) -> dict[str, str]:
    """An ``{es, en}`` text with both languages non-empty."""
    if not isinstance(value, dict) or sorted(value) != sorted(LANGS) \
            or not all(isinstance(value[lang], str) and value[lang].strip() for lang in LANGS):
        raise RulebookError(f"{at}: an {{es, en}} text with both languages, got {value!r:.60}")
    return {lang: value[lang] for lang in LANGS}


def lookup(game: Game, path: str) -> Any:
    """A value of the card data named by a dotted path.

    ``game.<field>...`` (or any single record such as ``map_rule``), ``count.<key>`` (the counts
    ``validate`` reports) or ``<kind>.<id>.<field>...``.
    """
    first, *rest = path.split(".")
    if first == "count":
        node: Any = game.counts()
    elif first in game.singles:
        node = game.singles[first]
    elif first in game.kinds and rest:
        try:
            node = game.get(first, rest[0])
        except KeyError:
            raise KeyError(path) from None
        rest = rest[1:]
    else:
        raise KeyError(path)
    for key in rest:
        if isinstance(node, dict):
            if key in node:
                node = node[key]
            elif key.isdigit() and int(key) in node:
                node = node[int(key)]
            else:
                raise KeyError(path)
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            raise KeyError(path)
    return node


def fill(text: str, game: Game, lang: str, at: str, extra: dict[str, Any] | None = None) -> str:
    """``text`` with every ``{path}`` replaced by its value from the data (or ``extra``)."""
    def one(match: re.Match) -> str:
        key = match.group(1)
        if extra and key in extra:
            value = extra[key]
        else:
            try:
                value = lookup(game, key)
            except KeyError:
                raise RulebookError(f"{at}: {{{key}}} names no value of {game.id}'s data") from None
        if isinstance(value, dict) and set(value) >= set(LANGS):
            value = value[lang]
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise RulebookError(f"{at}: {{{key}}} is not a single number or text in {game.id}'s data")
        return f"{value:g}" if isinstance(value, float) else str(value)
    return PLACEHOLDER.sub(one, text)


def note_key(text: str) -> str:
    """A short fingerprint of an English note: a translation made for another text is stale."""
    return hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()[:8]

"""Our reading of each ambiguity: every ``note:`` of a game's card data, in both languages.

Ciudadelas and El Mapa keep their notes in English only (a plain string); the Spanish text of each
is in ``texts/notes_es.yaml``, keyed by a fingerprint of the English it translates, so an edited
note shows up as untranslated instead of silently stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Iterator

from ludoteca.cards import Game

from .source import LANGS, RulebookError, note_key, texts

NOTE_KEYS = ("note", "notes", "edition_note")


@dataclass(frozen=True)
class Note:
    """One clarification: where it sits in the data, what it is about, its text per language."""

    path: str                     # "game.tie_break.note", "character.king.note", "game.notes.0"
    topic: dict[str, str]         # {es, en}: the entry's name, or the label of the rule
    text: dict[str, str]          # {es, en}
    translated: bool = True       # False: the Spanish text is missing or stale (English shown)
    english: str = ""             # the English as written in the data


def _walk(node: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in NOTE_KEYS:
                if isinstance(value, list):
                    for i, item in enumerate(value):
                        yield path + [str(key), str(i)], item
                else:
                    yield path + [str(key)], value
            else:
                yield from _walk(value, path + [str(key)])
    elif isinstance(node, list):
        for i, item in enumerate(node):
            label = str(item["id"]) if isinstance(item, dict) and "id" in item else str(i)
            yield from _walk(item, path + [label])


def raw_notes(game: Game) -> Iterator[tuple[str, Any, dict | None]]:
    """Every note of a game's data: (dotted path, value, the entry it belongs to or None)."""
    for name, record in game.singles.items():
        for path, value in _walk(record, [name]):
            yield ".".join(path), value, None
    for kind, entries in game.kinds.items():
        for entry in entries:
            for path, value in _walk(entry, [kind, str(entry.get("id", "?"))]):
                yield ".".join(path), value, entry


def notes(game: Game) -> list[Note]:
    """The clarifications of ``game``, in data order, each in Spanish and English."""
    topics = texts("common").get("topics", {}).get(game.id, {})
    spanish = texts("notes_es").get(game.id, {}) or {}
    out = []
    for path, value, entry in raw_notes(game):
        topic = _topic(path, entry, topics, game.id)
        if isinstance(value, dict):
            if not all(isinstance(value.get(lang), str) and value[lang].strip() for lang in LANGS):
                raise RulebookError(f"{game.id}: {path}: a note needs es and en, got {value!r:.60}")
            out.append(Note(path, topic, {lang: " ".join(value[lang].split()) for lang in LANGS}))
            continue
        english = " ".join(str(value).split())
        saved = spanish.get(note_key(english))
        ok = isinstance(saved, str) and bool(saved.strip())
        es = " ".join(saved.split()) if ok and isinstance(saved, str) else english
        out.append(Note(path, topic, {"es": es, "en": english}, bool(ok), english))
    return out


def _topic(path: str, entry: dict | None, topics: dict, game_id: str) -> dict[str, str]:
    if entry is not None and isinstance(entry.get("name"), dict):
        return {lang: str(entry["name"].get(lang) or entry["name"].get("es")) for lang in LANGS}
    parts = path.split(".")
    for n in range(len(parts), 0, -1):
        label = topics.get(".".join(parts[:n]))
        if isinstance(label, dict):
            return {lang: str(label[lang]) for lang in LANGS}
    raise RulebookError(f"common.yaml: topics.{game_id}: no label for the note at {path} "
                        f"(add '{'.'.join(parts[:2])}: {{es, en}}')")

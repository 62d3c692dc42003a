"""The caller's script for Ciudadelas: what the phone says when the crown calls the characters.

Every character is called, 1 to 8, the ones nobody chose included, one call every
:data:`SLOT_S` seconds, so neither the words nor the timing tell anyone who holds what.

>>> from ludoteca.cards import load
>>> data = load(games=("ciudadelas",))["ciudadelas"]
>>> calls(data, "es")[:2]
['Uno: Asesino.', 'Dos: Ladrón.']
>>> [start for start, _ in schedule(calls(data, "en"))][:3]
[0.0, 4.0, 8.0]
"""

from __future__ import annotations

from typing import Any

#: Seconds from the start of one call to the start of the next (every call, chosen or not).
SLOT_S = 4.0
NUMBERS = {
    "es": ("Uno", "Dos", "Tres", "Cuatro", "Cinco", "Seis", "Siete", "Ocho", "Nueve"),
    "en": ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"),
}


def characters(data: Any) -> list[dict]:
    """The classic characters in calling order (their number)."""
    return sorted(data.entries("character"), key=lambda c: c["number"]) if hasattr(data, "entries") \
        else sorted(data["character"], key=lambda c: c["number"])


def calls(data: Any, lang: str = "es") -> list[str]:
    """One sentence per character, in number order: its number in words and its name."""
    lang = lang if lang in NUMBERS else "es"
    out = []
    for char in characters(data):
        number = int(char["number"])
        word = NUMBERS[lang][number - 1] if 0 < number <= len(NUMBERS[lang]) else str(number)
        name = char["name"].get(lang) or char["name"]["es"]
        out.append(f"{word}: {name}.")
    return out


def schedule(lines: list[str], slot_s: float = SLOT_S) -> list[tuple[float, str]]:
    """When each call starts, in seconds from the first: the same gap for every call."""
    return [(i * slot_s, line) for i, line in enumerate(lines)]

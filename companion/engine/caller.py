"""The caller of Ciudadelas: which character the crown calls next, who answers, and what is said.

The crown calls the characters in number order, one call per "next", every number 1 to 8,
the ones nobody chose included, so the calls themselves tell nobody who holds what.  A
character nobody holds gets no answer; the murdered one is called too and its holder stays
silent (the Assassin's rule): the turn is lost and the table does not learn who held it.
:func:`next_call` is the one place that says so; the engine's ``call`` move applies it and the
app speaks :func:`call_line` of the call it made.

>>> from ludoteca.cards import load
>>> data = load(games=("ciudadelas",))["ciudadelas"]
>>> state = {"called": 3, "murdered": "king", "picks": [["king", "thief"], ["magician"]]}
>>> next_call(state, data)
{'number': 4, 'character': 'king', 'owner': 0, 'murdered': True, 'answered': False}
>>> call_line(data, 4, "es"), call_line(data, 1, "en")
('Cuatro: Rey.', 'One: Assassin.')
"""

from __future__ import annotations

from typing import Any

NUMBERS = {
    "es": ("Uno", "Dos", "Tres", "Cuatro", "Cinco", "Seis", "Siete", "Ocho", "Nueve"),
    "en": ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"),
}


def characters(data: Any) -> list[dict]:
    """The characters in calling order (their number)."""
    return sorted(data.entries("character"), key=lambda c: c["number"])


def next_call(state: dict, data: Any) -> dict | None:
    """The call after ``state["called"]``: its number, character id, the seat holding it (or None),
    whether it is the murdered one, and whether anyone answers.  None once all have been called."""
    number = int(state.get("called") or 0) + 1
    char = next((c for c in characters(data) if int(c["number"]) == number), None)
    if char is None:
        return None
    cid = char["id"]
    owner = next((seat for seat, picks in enumerate(state.get("picks") or []) if cid in picks), None)
    murdered = state.get("murdered") == cid
    return {"number": number, "character": cid, "owner": owner, "murdered": murdered,
            "answered": owner is not None and not murdered}


def call_line(data: Any, number: int, lang: str = "es") -> str:
    """What the caller says for the character of ``number``: its number in words and its name."""
    lang = lang if lang in NUMBERS else "es"
    char = next(c for c in characters(data) if int(c["number"]) == int(number))
    word = NUMBERS[lang][number - 1] if 0 < number <= len(NUMBERS[lang]) else str(number)
    name = char["name"].get(lang) or char["name"]["es"]
    return f"{word}: {name}."


def calls(data: Any, lang: str = "es") -> list[str]:
    """Every call of a round, in order (what the caller says over a whole round)."""
    return [call_line(data, int(c["number"]), lang) for c in characters(data)]

"""Names: a player's, typed at the table, or a card's, written in the data. One rule says which
are accepted (:func:`name_problem`: at most :data:`MAX_NAME` characters, none that a terminal or a
screen would act on instead of showing) and one function shows any name, even one saved before the
rule or read from a damaged file (:func:`shown`).

>>> name_problem("Ana") is None
True
>>> name_problem("Ana\\x1b[31m").got
"'\\\\x1b' at character 4"
>>> shown("\\x1b[31mAna")
'\\\\x1b[31mAna'
>>> shown("A" * 100)[-3:], len(shown("A" * 100))
('AA…', 60)
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

#: The longest name, in characters: the longest card name of the shipped data has 43.
MAX_NAME = 60
#: Characters a terminal or a text layout acts on instead of showing: control characters (C0, DEL,
#: C1: Unicode's Cc), lone surrogates (Cs), line and paragraph separators (Zl, Zp), bidirectional
#: marks, embeddings, overrides and isolates.
_BEYOND_C0 = "\x7f-\x9f\ud800-\udfff\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_HIDDEN = re.compile(f"[\x00-\x1f{_BEYOND_C0}]")
#: What is left to escape in ``json.dumps``'s text: it escapes C0 inside strings itself, and outside
#: them a C0 character is layout (the newlines of ``indent``).
_HIDDEN_IN_JSON = re.compile(f"[{_BEYOND_C0}]")


@dataclass(frozen=True)
class NameProblem:
    """Why a name is refused: what is allowed (``{es, en}``) and what was found."""

    expected: dict[str, str]
    got: str

    def text(self, who_es: str, who_en: str) -> dict[str, str]:
        """The whole message, ``{es, en}``: ``<who>: <expected>, got <found>``."""
        return {"es": f"{who_es}: {self.expected['es']}, no {self.got}",
                "en": f"{who_en}: {self.expected['en']}, got {self.got}"}


def hidden(char: str) -> bool:
    """Whether a character would act on the terminal or the layout rather than be seen."""
    return _HIDDEN.match(char) is not None


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def name_problem(name: str, limit: int = MAX_NAME) -> NameProblem | None:
    """Why ``name`` (already stripped) may not be a name, or None when it may."""
    if len(name) > limit:
        return NameProblem({"es": f"un nombre de como mucho {limit} caracteres",
                            "en": f"a name of at most {limit} characters"}, f"{len(name):,}")
    for index, char in enumerate(name, start=1):
        if hidden(char):
            return NameProblem({"es": "un nombre de letras, cifras, espacios y signos, sin caracteres de control",
                                "en": "a name of letters, digits, spaces and signs, without control characters"},
                               f"'{_escape(char)}' at character {index}")
    return None


def shown(name: object, limit: int = MAX_NAME) -> str:
    """A name as it is printed or drawn: every hidden character written as its escape (``\\x1b``),
    and at most ``limit`` characters (a longer one ends with ``…``)."""
    text = _HIDDEN.sub(lambda m: _escape(m.group()), str(name))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps`` (not ASCII-only, so names stay readable) with every hidden character written as
    its ``\\u`` escape: the same data, and nothing a terminal would act on."""
    text = json.dumps(value, ensure_ascii=False, **options)
    return _HIDDEN_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


_fold_short = functools.lru_cache(maxsize=4096)(_fold)


def fold(text: str) -> str:
    """Lower-case, without accents: how names are compared (the same few names are folded over
    and over while legal moves are listed: short ones are remembered)."""
    text = str(text)
    return _fold_short(text) if len(text) <= 100 else _fold(text)

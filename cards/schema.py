"""Check data values against the field specs written in each game's ``schema.yaml``.

A field spec is either a type name (``int``) or a mapping with ``type`` and
options.  Types:

``id``      lower-case ASCII id, ``[a-z0-9_]+``, unique within its kind
``str``     a non-empty string
``text``    displayed text: ``{es: ..., en: ...}``, both required; a field called ``name`` or
            ``*_name`` holds a name (:func:`cards.names.name_problem`: at most 60 characters,
            or ``max_len`` when the printed piece holds fewer; no control characters)
``int``     an integer from ``min`` to ``max`` (both required: every number has a plausible range)
``number``  an integer or a decimal from ``min`` to ``max`` (both required)
``bool``    true or false
``enum``    one of ``values``
``ref``     the id of an entry of kind ``to`` in the same game
``list``    a list of ``of``; ``min_len``, ``max_len``, ``unique``
``map``     a mapping from ``keys`` (a spec) to ``values`` (a spec)
``object``  a mapping with its own ``fields``

Every spec may say ``optional: true`` (it may be left out) and ``default``.
"""

from __future__ import annotations

import copy
import difflib
import re
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from .names import MAX_NAME, name_problem, shown

ID_RE = re.compile(r"^[a-z0-9_]+$")
#: an enum of more values than this is named by its size in an error, with the closest value as a hint
ENUM_LISTED = 24
TYPES = {"id", "str", "text", "int", "number", "bool", "enum", "ref", "list", "map", "object"}
SPEC_KEYS = {"type", "optional", "default", "min", "max", "values", "to", "of", "min_len",
             "max_len", "unique", "keys", "fields", "doc"}


def describe(value: Any) -> str:
    """How a found value reads in a message."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{shown(value, 40)}'"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return type(value).__name__


def normalise_spec(spec: Any) -> dict:
    """``'int'`` -> ``{'type': 'int'}``; mappings are returned as they are."""
    if isinstance(spec, str):
        return {"type": spec}
    return dict(spec)


@dataclass
class Finding:
    """A problem inside one value: the dotted field path and what was wrong."""

    field: str
    expected: str
    got: str
    line: int | None = None


@dataclass
class Checker:
    """Checks values; ``known_ids(kind)`` resolves ``ref`` fields."""

    known_ids: Callable[[str], set[str] | None]
    findings: list[Finding] = field(default_factory=list)

    def fail(self, path: str, expected: str, value: Any, line: int | None) -> None:
        """Record that ``value`` at ``path`` is not ``expected``."""
        self.findings.append(Finding(path, expected, describe(value), line))

    def check_fields(self, fields: dict, value: dict, path: str, line: int | None) -> dict:
        """Check a mapping against named fields; fill defaults; report unknown keys."""
        key_lines = getattr(value, "key_lines", {})
        for key in value:
            if key not in fields:
                suggestion = _closest(str(key), fields)
                hint = f" (did you mean '{suggestion}'?)" if suggestion else ""
                self.findings.append(Finding(
                    _join(path, str(key)), "a known field" + hint, "an unknown field",
                    key_lines.get(key, line)))
        for name, raw_spec in fields.items():
            spec = normalise_spec(raw_spec)
            if name not in value:
                if "default" in spec:
                    value[name] = copy.deepcopy(spec["default"])
                elif not spec.get("optional"):
                    self.findings.append(Finding(_join(path, name), _type_phrase(spec),
                                                 "nothing (the field is missing)", line))
                continue
            self.check(spec, value[name], _join(path, name), key_lines.get(name, line))
        return value

    def check(self, spec: dict, value: Any, path: str, line: int | None) -> None:
        """Check one value against a normalised spec, recording every finding."""
        kind = spec["type"]
        if value is None and spec.get("optional"):
            return
        if kind == "id":
            if not isinstance(value, str) or not ID_RE.match(value):
                self.fail(path, "an ASCII id of a-z, 0-9 and _", value, line)
        elif kind == "str":
            if not isinstance(value, str) or not value.strip():
                self.fail(path, "a non-empty string", value, line)
        elif kind == "text":
            leaf = path.rsplit(".", 1)[-1]
            self._check_text(value, path, line, is_name=leaf == "name" or leaf.endswith("_name"),
                             limit=spec.get("max_len", MAX_NAME))
        elif kind in ("int", "number"):
            ok = isinstance(value, int) if kind == "int" else isinstance(value, (int, float))
            if isinstance(value, bool) or not ok:
                self.fail(path, "an integer" if kind == "int" else "a number", value, line)
            else:
                lo, hi = spec.get("min"), spec.get("max")
                if lo is not None and value < lo or hi is not None and value > hi:
                    self.fail(path, _range_phrase(kind, lo, hi), value, line)
        elif kind == "bool":
            if not isinstance(value, bool):
                self.fail(path, "true or false", value, line)
        elif kind == "enum":
            if value not in spec["values"]:
                self.fail(path, _enum_phrase(spec["values"], value), value, line)
        elif kind == "ref":
            ids = self.known_ids(spec["to"])
            if not isinstance(value, str):
                self.fail(path, f"the id of a {spec['to']}", value, line)
            elif ids is not None and value not in ids:
                suggestion = _closest(value, ids)
                hint = f" (did you mean '{suggestion}'?)" if suggestion else ""
                self.fail(path, f"the id of a known {spec['to']}{hint}", value, line)
        elif kind == "list":
            self._check_list(spec, value, path, line)
        elif kind == "map":
            self._check_map(spec, value, path, line)
        elif kind == "object":
            if not isinstance(value, dict):
                self.fail(path, "a mapping", value, line)
            else:
                self.check_fields(spec["fields"], value, path, getattr(value, "line", line))

    def _check_text(self, value: Any, path: str, line: int | None, is_name: bool = False,
                    limit: int = MAX_NAME) -> None:
        if not isinstance(value, dict):
            self.fail(path, "a text in Spanish and English ({es: ..., en: ...})", value, line)
            return
        key_lines = getattr(value, "key_lines", {})
        for lang in value:
            if lang not in ("es", "en"):
                split = value[lang] is None  # `{es: a, b, en: c}` reads `b` as a key with no value
                hint = " (a comma inside {...} ends the text before it: quote the text)" if split else ""
                self.findings.append(Finding(_join(path, str(lang)), "a language, es or en" + hint,
                                             "an unknown language", key_lines.get(lang, line)))
        for lang, label in (("es", "a Spanish text"), ("en", "an English text")):
            text = value.get(lang)
            where = key_lines.get(lang, getattr(value, "line", line))
            if not isinstance(text, str) or not text.strip():
                got = "nothing (missing translation)" if text is None else describe(text)
                self.findings.append(Finding(_join(path, lang), label, got, where))
            elif is_name and (problem := name_problem(text.strip(), limit)) is not None:
                self.findings.append(Finding(_join(path, lang), problem.expected["en"], problem.got, where))

    def _check_list(self, spec: dict, value: Any, path: str, line: int | None) -> None:
        if not isinstance(value, list):
            self.fail(path, "a list", value, line)
            return
        lo, hi = spec.get("min_len"), spec.get("max_len")
        if lo is not None and len(value) < lo or hi is not None and len(value) > hi:
            self.fail(path, "a list of " + _range_phrase("items", lo, hi), value, line)
        item_spec = normalise_spec(spec["of"])
        with_ids = item_spec["type"] == "object" and normalise_spec(item_spec["fields"].get("id",
                                                                                            "str"))["type"] == "id"
        seen: set = set()
        first_ids: dict[str, int | None] = {}
        for i, item in enumerate(value):
            item_line = value.line_of(i) if hasattr(value, "line_of") else line
            self.check(item_spec, item, f"{path}[{i}]", item_line)
            if spec.get("unique") and isinstance(item, (str, int)):
                if item in seen:
                    self.fail(f"{path}[{i}]", "no repeated items", item, item_line)
                seen.add(item)
            if with_ids and isinstance(item, dict) and isinstance(item.get("id"), str):
                item_id = item["id"]
                if item_id in first_ids:
                    where = item.line_of("id") if hasattr(item, "line_of") else item_line
                    self.findings.append(Finding(f"{path}[{i}].id", *repeated_id(item_id, first_ids[item_id]), where))
                first_ids.setdefault(item_id, item_line)

    def _check_map(self, spec: dict, value: Any, path: str, line: int | None) -> None:
        if not isinstance(value, dict):
            self.fail(path, "a mapping", value, line)
            return
        key_spec = normalise_spec(spec.get("keys", "str"))
        value_spec = normalise_spec(spec["values"])
        key_lines = getattr(value, "key_lines", {})
        for key, item in value.items():
            item_line = key_lines.get(key, line)
            self.check(key_spec, key, f"{path}.{key}", item_line)
            self.check(value_spec, item, f"{path}.{key}", item_line)


def repeated_id(entry_id: str, first_line: int | None) -> tuple[str, str]:
    """How an id used twice in one list is told, in a data file's entries or a list inside an entry:
    ``(expected, got)``."""
    return f"a unique id (first used on line {first_line})", f"'{entry_id}' again"


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _type_phrase(spec: dict) -> str:
    """What a missing field should have held, with its article: 'an integer'."""
    kind = spec["type"]
    return {"text": "a text in Spanish and English", "ref": f"a reference to a {spec.get('to')}",
            "int": "an integer", "str": "a string", "id": "an ASCII id", "list": "a list",
            "map": "a mapping", "object": "a mapping", "bool": "true or false",
            "enum": _enum_phrase(spec.get("values", [])),
            "number": "a number"}.get(kind, kind)


def _enum_phrase(values: list, value: Any = None) -> str:
    """'one of a, b, c'; a long list (an art library's parts) by its size and the closest value."""
    if len(values) <= ENUM_LISTED:
        return "one of " + ", ".join(map(str, values))
    near = _closest(value, values) if isinstance(value, str) else None
    hint = f" (did you mean '{near}'?)" if near else ""
    return f"one of the {len(values)} values its schema lists{hint}"


def _range_phrase(what: str, lo: Any, hi: Any) -> str:
    noun = {"int": "an integer", "number": "a number"}.get(what, what)
    if lo is not None and hi is not None:
        return f"{noun} from {lo} to {hi}"
    if lo is not None:
        return f"{noun} of at least {lo}"
    return f"{noun} of at most {hi}"


def _closest(word: str, options: Any) -> str | None:
    found = difflib.get_close_matches(word, [str(o) for o in options], n=1, cutoff=0.6)
    return found[0] if found else None


def check_spec(spec: Any, where: str, kinds: Any = None) -> list[tuple[str, str, str]]:
    """Problems in a field spec itself, as (field, expected, got).

    A broken schema is a bug in cards/ and is reported like bad data.  ``kinds``,
    when given, are the kinds a ``ref`` may point ``to``.
    """
    spec = normalise_spec(spec) if isinstance(spec, (str, dict)) else spec
    if not isinstance(spec, dict) or spec.get("type") not in TYPES:
        got = describe(spec.get("type") if isinstance(spec, dict) else spec)
        return [(where, f"a field spec with a type among {', '.join(sorted(TYPES))}", got)]
    out = [(where, "a known spec key", f"'{k}'") for k in spec if k not in SPEC_KEYS]
    kind = spec["type"]
    if kind in ("int", "number"):
        for bound in ("min", "max"):
            value = spec.get(bound)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                out.append((where, f"{_type_phrase(spec)} with a plausible range ('{bound}' and its value)",
                            f"'{bound}': {describe(value)}"))
    if kind == "enum" and not isinstance(spec.get("values"), list):
        out.append((where, "an enum with a list of values", describe(spec.get("values"))))
    if kind == "ref":
        to = spec.get("to")
        if not isinstance(to, str) or kinds is not None and to not in kinds:
            out.append((where, "a ref with 'to' naming a kind of this game", describe(to)))
    if kind == "text" and "max_len" in spec:
        value = spec["max_len"]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_NAME:
            out.append((where, f"a name's 'max_len' from 1 to {MAX_NAME} characters", describe(value)))
    if kind == "list":
        for bound in ("min_len", "max_len"):
            value = spec.get(bound, 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                out.append((where, f"a list whose '{bound}' is a whole number of items", describe(value)))
        out += check_spec(spec.get("of"), where + "[]", kinds)
    if kind == "map":
        out += check_spec(spec.get("values"), where + ".values", kinds)
        if "keys" in spec:
            out += check_spec(spec["keys"], where + ".keys", kinds)
    if kind == "object":
        fields = spec.get("fields")
        if not isinstance(fields, dict):
            out.append((where, "an object with a mapping of fields", describe(fields)))
        else:
            for name, sub in fields.items():
                out += check_spec(sub, f"{where}.{name}", kinds)
    return out

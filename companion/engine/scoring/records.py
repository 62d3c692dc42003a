"""Reading end-of-game records (YAML or JSON) and checking their fields, with line numbers.

A record is plain data; YAML records come back as :class:`cards.yamlread.LDict` /
``LList`` that remember the line of every key and item, so each problem can say
``FILE:LINE: players[1].city[3]: unknown district 'Catedrall' (closest: ...)``.
Records given as plain dicts (the engine, tests) simply have no lines.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field, replace
from dataclasses import field as default  # `field` is also a name of RecordProblem
from pathlib import Path
from typing import Any
from collections.abc import Iterable

from ludoteca.cards import fold
from ludoteca.cards.limits import InputTooLarge, json_loads, read_bytes
from ludoteca.cards.names import name_problem
from ludoteca.cards.schema import describe
from ludoteca.cards.yamlread import LDict, LList, YamlProblem, parse
from ludoteca.cards.yamlread import line_of as yaml_line_of

#: The most of anything a record may count (gold, tiles, wins...): no end state of these games comes
#: near it, and the physical checks of each game (copies, tiles that exist) come from the data.
MAX_COUNT = 999
#: The most items a list in a record may hold (a city, a castle's buildings, a hand): no game has more
#: than 120 of any card, so every lookup after this check is bounded.
MAX_ITEMS = 200
#: Problems listed for one record; the rest are counted in one more line.
MAX_PROBLEMS = 50


@dataclass(frozen=True)
class RecordProblem:
    """One problem in a record: ``FILE:LINE: field: message``."""

    path: str
    line: int | None
    field: str
    message: str
    #: What a player at the table reads about it ({es, en}: no ids, paths or options), when known.
    plain: Any = default(default=None, compare=False)

    def __str__(self) -> str:
        head = f"{self.path}:{self.line}" if self.line else self.path
        return f"{head}: {self.field}: {self.message}" if self.field else f"{head}: {self.message}"


class RecordError(ValueError):
    """A record that cannot be scored; ``problems`` lists every problem found."""

    def __init__(self, problems: list[RecordProblem]):
        ordered = sorted(problems, key=lambda p: p.line or 0)
        if len(ordered) > MAX_PROBLEMS:
            rest = len(ordered) - MAX_PROBLEMS + 1
            ordered = ordered[:MAX_PROBLEMS - 1] + [RecordProblem(ordered[0].path, None, "",
                                                                  f"... and {rest} more problems")]
        self.problems = ordered
        super().__init__("\n".join(str(p) for p in self.problems))


def line_of(container: Any, key: Any) -> int | None:
    """The line of ``container[key]`` when the record came from YAML (the reader's own answer),
    else ``None``: a JSON record has no lines to name."""
    if not isinstance(container, (LDict, LList)):
        return None
    try:
        return yaml_line_of(container, key) or None
    except TypeError:  # an unhashable key or a non-integer index: the container's own line
        return container.line or None


def read_record(path: Path | str) -> Any:
    """Read a YAML or JSON record (by its suffix); raise :class:`RecordError` if unreadable."""
    where = str(path)
    if Path(path).is_dir():
        raise RecordError([RecordProblem(where, None, "", "expected a record file, got a folder")])
    try:
        text = read_bytes(path).decode("utf-8-sig")
    except InputTooLarge as exc:
        raise RecordError([RecordProblem(where, None, exc.field, f"{exc.expected}, got {exc.got}")]) from None
    except OSError as exc:
        raise RecordError([RecordProblem(where, None, "", f"cannot read the file ({exc.strerror})")]) from None
    except UnicodeDecodeError as exc:
        message = f"expected UTF-8 text, got undecodable bytes ({exc.reason})"
        raise RecordError([RecordProblem(where, 1, "file", message)]) from None
    if Path(path).suffix.lower() == ".json":
        try:
            data = json_loads(text, where)
        except InputTooLarge as exc:
            raise RecordError([RecordProblem(where, exc.line, exc.field,
                                             f"{exc.expected}, got {exc.got}")]) from None
        except json.JSONDecodeError as exc:
            what = f"{exc.msg[:1].lower()}{exc.msg[1:]}, column {exc.colno}"
            raise RecordError([RecordProblem(where, exc.lineno, "json",
                                             f"valid JSON, got a syntax error ({what})")]) from None
        try:  # JSON is YAML too: reuse the YAML reader only to learn the lines
            with_lines = parse(text, where)
        except YamlProblem:
            return data
        return with_lines if with_lines == data else data
    try:
        data = parse(text, where)
    except YamlProblem as exc:
        field_name, _, message = exc.message.partition(": ")
        raise RecordError([RecordProblem(where, exc.line, field_name, message)]) from None
    return data


@dataclass
class Reader:
    """Checks the fields of a record and collects every problem instead of stopping at the first."""

    path: str = "<record>"
    problems: list[RecordProblem] = field(default_factory=list)
    bounded: bool = True  # the MAX_COUNT and MAX_ITEMS limits (off for records the engine built)

    def bad(self, line: int | None, field_name: str, message: str, plain: Any = None) -> None:
        """Note one problem (``plain``: the words for a player, see :class:`RecordProblem`)."""
        self.problems.append(RecordProblem(self.path, line, field_name, message, plain))

    def missing(self, obj: dict, key: str, prefix: str) -> None:
        """Note that the required field ``key`` of ``obj`` is absent (at the line ``obj`` starts)."""
        self.bad(getattr(obj, "line", None) or None, _join(prefix, key), "missing (required)")

    def raise_if_bad(self) -> None:
        """Raise :class:`RecordError` with every problem noted so far, if any."""
        if self.problems:
            raise RecordError(self.problems)

    def mapping(self, value: Any, field_name: str, line: int | None) -> dict | None:
        """``value`` if it is a mapping, else ``None`` after a problem."""
        if isinstance(value, dict):
            return value
        self.bad(line, field_name, f"expected a mapping of fields, got {describe(value)}")
        return None

    def keys(self, obj: dict, prefix: str, allowed: Iterable[str]) -> None:
        """Report unknown keys, with the closest known one (required keys are checked when read)."""
        allowed = list(allowed)
        unknown = [key for key in obj if key not in allowed]
        if len(unknown) > MAX_PROBLEMS:
            self.bad(getattr(obj, "line", None) or None, prefix or "record",
                     f"{len(unknown):,} unknown fields; known: {', '.join(allowed)}")
            return
        for key in unknown:
            close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            self.bad(line_of(obj, key), _join(prefix, str(key)),
                     f"unknown field{hint}; known: {', '.join(allowed)}")

    def count(self, obj: dict, key: str, prefix: str, default: int | None = 0,
              most: int = MAX_COUNT) -> int | None:
        """A whole number from 0 to ``most``; ``default`` when absent (``None`` means required)."""
        if key not in obj:
            if default is None:
                self.missing(obj, key, prefix)
            return default
        value = obj[key]
        if isinstance(value, bool) or not isinstance(value, int):
            self.bad(line_of(obj, key), _join(prefix, key), f"expected a whole number, got {describe(value)}")
            return None
        if value < 0 or self.bounded and value > most:
            self.bad(line_of(obj, key), _join(prefix, key),
                 f"expected a number from 0 to {most}, got {describe(value)}" if value >= 0
                 else f"expected a number of at least 0, got {describe(value)}" if not self.bounded
                 else f"expected a number from 0 to {most}, got {describe(value)}")
            return None
        return value

    def text(self, obj: dict, key: str, prefix: str, required: bool = True) -> str | None:
        """A non-empty name, stripped; ``None`` (after a problem if required or wrong) otherwise."""
        if key not in obj:
            if required:
                self.missing(obj, key, prefix)
            return None
        value = obj[key]
        if not isinstance(value, str) or not value.strip():
            self.bad(line_of(obj, key), _join(prefix, key), f"expected a name, got {describe(value)}")
            return None
        problem = name_problem(value.strip())
        if problem is not None:
            self.bad(line_of(obj, key), _join(prefix, key), f"expected {problem.expected['en']}, got {problem.got}")
            return None
        return value.strip()

    def flag(self, obj: dict, key: str, prefix: str, default: bool | None) -> bool | None:
        """true or false; ``default`` when absent or wrong (after a problem)."""
        if key not in obj:
            return default
        value = obj[key]
        if not isinstance(value, bool):
            self.bad(line_of(obj, key), _join(prefix, key), f"expected true or false, got {describe(value)}")
            return default
        return value

    def items(self, obj: dict, key: str, prefix: str, required: bool = True) -> list | None:
        """A list field; ``None`` (after a problem if required) when absent or not a list."""
        if key not in obj:
            if required:
                self.missing(obj, key, prefix)
            return None
        value = obj[key]
        if not isinstance(value, list):
            self.bad(line_of(obj, key), _join(prefix, key), f"expected a list, got {describe(value)}")
            return None
        if self.bounded and len(value) > MAX_ITEMS:
            self.bad(line_of(obj, key), _join(prefix, key), f"expected a list of at most {MAX_ITEMS} items, "
                     f"got {len(value):,}")
            return None
        return value

    def counts_map(self, obj: dict, key: str, prefix: str) -> dict | None:
        """A mapping of names to whole numbers >= 0 (``{}`` when absent)."""
        if key not in obj:
            return {}
        value = obj[key]
        if not isinstance(value, dict):
            self.bad(line_of(obj, key), _join(prefix, key),
                     f"expected a mapping of names to numbers, got {describe(value)}")
            return None
        if self.bounded and len(value) > MAX_ITEMS:
            self.bad(line_of(obj, key), _join(prefix, key), f"expected at most {MAX_ITEMS} names, got {len(value):,}")
            return None
        out: dict = {}
        for name in value:
            number = self.count(value, name, _join(prefix, key), default=None)
            if number is not None:
                out[name] = number
        return out

    def card(self, game: Any, kinds: str | tuple[str, ...], name: Any, field_name: str,
             line: int | None) -> dict | None:
        """The entry a record names (id, Spanish or English name), or a problem with suggestions."""
        first = kinds if isinstance(kinds, str) else kinds[0]
        if not isinstance(name, str) or not name.strip():
            self.bad(line, field_name, f"expected a {first} name, got {describe(name)}")
            return None
        try:
            return game.find(kinds, name.strip())
        except LookupError as exc:
            self.bad(line, field_name, str(exc.args[0]) if exc.args else f"unknown {first} '{name}'")
            return None

    def players(self, record: dict, game: Any, allowed: Iterable[str],
                max_key: str = "max") -> list[tuple[int, dict]]:
        """The ``players`` list: each a mapping with a unique ``name``; count within the game's range.

        The range is ``players.min`` to ``players.<max_key>`` of the game record.
        """
        items = self.items(record, "players", "")
        if items is None:
            return []
        limits = game.meta.get("players", {}) if isinstance(game.meta.get("players"), dict) else {}
        low, high = limits.get("min"), limits.get(max_key, limits.get("max"))
        if (low is not None and len(items) < low) or (high is not None and len(items) > high):
            self.bad(line_of(record, "players"), "players",
                     f"{_game_name(game)} is for {low} to {high} players, got {len(items)}")
        out: list[tuple[int, dict]] = []
        seen: dict[str, int] = {}
        for index, item in enumerate(items):
            prefix = f"players[{index}]"
            player = self.mapping(item, prefix, line_of(items, index))
            if player is None:
                continue
            self.keys(player, prefix, allowed)
            name = self.text(player, "name", prefix)
            if name is not None:
                if fold(name) in seen:
                    self.bad(line_of(player, "name"), f"{prefix}.name",
                             f"'{name}' is already the name of players[{seen[fold(name)]}]")
                seen.setdefault(fold(name), index)
            out.append((index, player))
        return out


def finish(result: Any, physical: Reader, reader: Reader, lenient: bool) -> Any:
    """The result, unless the physical checks found a state the box does not allow.

    Without ``lenient`` those problems are refused like any other; with it (a house rule) the
    result is kept and each problem becomes a note, with its words for a player under ``plain``
    (what the app shows: see :func:`plain_note`).
    """
    if not physical.problems:
        return result
    if not lenient:
        reader.problems.extend(physical.problems)
        reader.raise_if_bad()
    notes = tuple({"es": f"Regla de la casa (--lenient), la caja no lo permite: {p.field}: {p.message}",
                   "en": f"House rule (--lenient), the box does not allow it: {p.field}: {p.message}",
                   "plain": dict(p.plain or PLAIN_NOT_IN_BOX)}
                  for p in physical.problems)
    return replace(result, notes=tuple(result.notes) + notes)


#: A physical problem's words for a player when its check gives none.
PLAIN_NOT_IN_BOX = {"es": "La partida tiene algo que la caja no permite: se cuenta tal como se jugó en la mesa.",
                    "en": "The game holds something the box does not allow: scored as played at the table."}


def plain_note(note: dict) -> dict:
    """A scoring note as a player reads it: its ``plain`` words when it has them (keeping whose it is)."""
    plain = note.get("plain")
    if not isinstance(plain, dict):
        return note
    return {**plain, **({"player": note["player"]} if note.get("player") else {})}


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _game_name(game: Any) -> str:
    name = game.meta.get("name")
    if isinstance(name, dict):
        return f"{name.get('es')} / {name.get('en')}" if name.get("es") != name.get("en") else str(name.get("es"))
    return str(game.id)

"""Load and validate the card data of every game: the one loader everything uses.

Each game folder under ``cards/`` holds a ``schema.yaml`` that names its kinds
(which file and key hold them, and their fields) and the counts that must add
up, plus the data files themselves.  :func:`load` reads it all, checks every
entry, and returns a :class:`Catalog`, or raises :class:`DataError` listing
every problem it found, each with its file and line.

>>> catalog = load()
>>> catalog["ciudadelas"].find("district", "catedral")["cost"]
5
"""

from __future__ import annotations

import difflib
from importlib import resources
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
import os
from typing import Any
from collections.abc import Iterator

from ludoteca.atomic import kind_of

from .names import fold, shown
from .problems import DataError, Problem
from .schema import Checker, check_spec, describe, normalise_spec, repeated_id
from .yamlread import YamlProblem, line_of, read

GAMES = ("ciudadelas", "el_mapa", "gladiadores")
FEW_NAMES = 12  # an unknown name with no close match lists every known one when there are this few
KIND_KEYS = {"file", "key", "single", "fields", "like", "report_by", "doc"}


def default_dir() -> Path:
    """The data shipped with Ludoteca."""
    return Path(str(resources.files("ludoteca.cards")))


@dataclass
class Game:
    """One game's data: its kinds of entries and its single ``game`` record."""

    id: str
    folder: Path
    schema: dict
    kinds: dict[str, list[dict]] = field(default_factory=dict)
    singles: dict[str, dict] = field(default_factory=dict)
    locations: dict[tuple[str, str], tuple[Path, int]] = field(default_factory=dict)
    _names: dict[tuple[str, ...], tuple[tuple, dict[str, dict]]] = field(default_factory=dict, repr=False)
    _pieces: dict[str, tuple[tuple, int]] = field(default_factory=dict, repr=False)

    @property
    def options(self) -> dict[str, dict]:
        """The options a new game may be given (``schema.yaml`` ``setup: options:``)."""
        return dict((self.schema.get("setup") or {}).get("options") or {})

    @property
    def meta(self) -> dict:
        """The game's own record (``game.yaml``): names, player range, rule options."""
        return self.singles.get("game", {})

    def entries(self, kind: str) -> list[dict]:
        """All entries of a kind, in file order."""
        if kind not in self.kinds:
            raise KeyError(f"{self.id} has no kind '{kind}' (it has {', '.join(self.kinds)})")
        return self.kinds[kind]

    def ids(self, kind: str) -> list[str]:
        """The ids of a kind, in file order."""
        return [e["id"] for e in self.entries(kind)]

    def get(self, kind: str, entry_id: str) -> dict:
        """The entry with this exact id."""
        for entry in self.entries(kind):
            if entry["id"] == entry_id:
                return entry
        raise KeyError(f"{self.id}: no {kind} with id '{entry_id}'")

    def pieces(self, kind: str) -> int:
        """How many pieces of a kind the box holds: every entry's ``copies`` (1 when left out),
        counted once (kept until the entry list changes, as the name index is)."""
        entries = self.entries(kind)
        stamp = (id(entries), len(entries))
        cached = self._pieces.get(kind)
        if cached is None or cached[0] != stamp:
            cached = (stamp, sum(e.get("copies", 1) for e in entries))
            self._pieces[kind] = cached
        return cached[1]

    def find(self, kind: str | tuple[str, ...], name: str) -> dict:
        """The entry named by its id, Spanish or English name, ignoring case and accents.

        ``kind`` may be a tuple of kinds searched in order.  Raises
        :class:`LookupError` whose message lists the closest names.
        """
        found = self.lookup(kind, name)
        if found is not None:
            return found
        kinds = (kind,) if isinstance(kind, str) else tuple(kind)
        wanted = fold(name).replace("-", " ").replace("_", " ")
        names = self._name_index(kinds)
        close = difflib.get_close_matches(wanted, list(names), n=3, cutoff=0.5)
        closest = list(dict.fromkeys(_display(names[c]) for c in close))
        every = list(dict.fromkeys(_display(e) for e in names.values()))
        if closest:
            hint = f" (closest: {', '.join(closest)})"
        elif len(every) <= FEW_NAMES:
            hint = f" (known: {', '.join(every)})"
        else:
            hint = ""
        raise LookupError(f"unknown {kinds[0]} '{shown(name)}'{hint}")

    def lookup(self, kind: str | tuple[str, ...], name: str) -> dict | None:
        """:meth:`find`'s entry, or None where it raises (without working out the closest names)."""
        kinds = (kind,) if isinstance(kind, str) else tuple(kind)
        return self._name_index(kinds).get(fold(name).replace("-", " ").replace("_", " "))

    def _name_index(self, kinds: tuple[str, ...]) -> dict[str, dict]:
        """Every folded label of these kinds' entries (kept until an entry list changes)."""
        stamp = tuple((id(self.entries(k)), len(self.entries(k))) for k in kinds)
        cached = self._names.get(kinds)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        names: dict[str, dict] = {}
        for k in kinds:
            for entry in self.entries(k):
                for label in _labels(entry):
                    names.setdefault(fold(label).replace("-", " ").replace("_", " "), entry)
        self._names[kinds] = (stamp, names)
        return names

    def location(self, kind: str, entry_id: str) -> tuple[Path, int]:
        """The file and line where an entry starts."""
        return self.locations[(kind, entry_id)]

    def counts(self) -> dict[str, Any]:
        """Counts per kind as ``validate`` reports them (copies summed where cards repeat)."""
        out: dict[str, Any] = {}
        for kind, spec in self.schema["kinds"].items():
            if spec.get("single"):
                continue
            entries = self.kinds.get(kind, [])
            key = spec["key"]
            has_copies = "copies" in spec["fields"]
            out[key] = sum(e.get("copies", 1) for e in entries) if has_copies else len(entries)
            if has_copies:
                out[f"{key}_kinds"] = len(entries)
            for by in spec.get("report_by", []):
                tally: Counter = Counter()
                for e in entries:
                    tally[str(e.get(by))] += e.get("copies", 1) if has_copies else 1
                out[f"{key}_by_{by}"] = dict(sorted(tally.items()))
        return out


def _labels(entry: dict) -> Iterator[str]:
    yield entry.get("id", "")
    name = entry.get("name")
    if isinstance(name, dict):
        yield from (v for v in name.values() if isinstance(v, str))
    elif isinstance(name, str):
        yield name


def _display(entry: dict) -> str:
    name = entry.get("name")
    if isinstance(name, dict):
        return f"{name.get('es')} / {name.get('en')}"
    return str(entry.get("id"))


class Catalog(dict):
    """Every game's data by game id: ``catalog['el_mapa'].entries('tile')``."""

    root: Path

    def __getitem__(self, game_id: str) -> Game:
        return super().__getitem__(game_id)


def load(cards_dir: Path | str | os.PathLike | None = None, games: tuple[str, ...] | None = None) -> Catalog:
    """Read and validate the data; raise :class:`DataError` with every problem found."""
    root = Path(cards_dir) if cards_dir is not None else default_dir()
    problems: list[Problem] = []
    if not root.is_dir():
        raise DataError([Problem(str(root), 0, "folder", root.name, "cards",
                                 "a folder of card data",
                                 "a file" if root.exists() else "no such folder")])
    catalog = Catalog()
    catalog.root = root
    for game_id in games or GAMES:
        game = _load_game(root / game_id, game_id, problems)
        if game is not None:
            catalog[game_id] = game
    if problems:
        raise DataError(problems)
    return catalog


def _load_game(folder: Path, game_id: str, problems: list[Problem]) -> Game | None:
    """One game's data, in five phases: its schema, its files, no stray sections or files, the ids
    of every kind, then every entry checked against its kind's fields (and the schema's totals)."""
    schema = _read_schema(folder, game_id, problems)
    if schema is None:
        return None
    game = Game(game_id, folder, schema)
    files = _read_files(folder, schema, game_id, problems)
    raw = _sections(folder, schema, files, problems)
    _check_strays(folder, schema, files, problems)
    checker = Checker(known_ids=_known_ids(schema, raw).get)
    sections = _check_entries(game, checker, raw, problems)
    _check_totals(game, sections, problems)
    _check_markers(game, problems)
    return game


def _read_schema(folder: Path, game_id: str, problems: list[Problem]) -> dict | None:
    """Phase 1: the game's ``schema.yaml``, read and checked (``like`` kinds get their fields)."""
    schema_path = folder / "schema.yaml"
    if not schema_path.is_file():
        problems.append(Problem(str(schema_path), 0, "game", game_id, "schema.yaml", "a schema file for the game",
                                kind_of(schema_path.stat().st_mode) if schema_path.exists() else "no such file"))
        return None
    try:
        schema = read(schema_path)
    except YamlProblem as exc:
        problems.append(Problem(str(schema_path), exc.line, "schema", game_id,
                                *_split_yaml_message(exc.message)))
        return None
    if not _schema_ok(schema, schema_path, game_id, problems):
        return None
    for spec in schema["kinds"].values():
        if "like" in spec:
            spec["fields"] = dict(schema["kinds"][spec["like"]]["fields"])
    return schema


def _read_files(folder: Path, schema: dict, game_id: str, problems: list[Problem]) -> dict[str, Any]:
    """Phase 2: every data file the schema names, read once (None for one that cannot be read)."""
    files: dict[str, Any] = {}
    for spec in schema["kinds"].values():
        if spec["file"] not in files:
            files[spec["file"]] = _read_data(folder / spec["file"], game_id, problems)
    return files


def _sections(folder: Path, schema: dict, files: dict[str, Any],
              problems: list[Problem]) -> dict[str, tuple[Path, Any, int]]:
    """Phase 2 (cont.): each kind's section in its file: ``{kind: (path, items, line)}``."""
    raw: dict[str, tuple[Path, Any, int]] = {}
    for kind, spec in schema["kinds"].items():
        path = folder / spec["file"]
        data = files[spec["file"]]
        if data is None:
            continue
        if not isinstance(data, dict):
            problems.append(Problem(str(path), getattr(data, "line", 1), "file", spec["file"],
                                    "top level", "a mapping of lists", describe(data)))
            continue
        if spec["key"] not in data:
            problems.append(Problem(str(path), 1, "file", spec["file"], spec["key"],
                                    f"a '{spec['key']}:' section", "nothing"))
            continue
        raw[kind] = (path, data[spec["key"]], line_of(data, spec["key"]))
    return raw


def _check_strays(folder: Path, schema: dict, files: dict[str, Any], problems: list[Problem]) -> None:
    """Phase 3: a section no kind reads, or a YAML file the schema does not name, is a problem."""
    for name, data in files.items():
        if isinstance(data, dict):
            wanted = {s["key"] for s in schema["kinds"].values() if s["file"] == name}
            for key in data:
                if key not in wanted:
                    problems.append(Problem(str(folder / name), line_of(data, key), "file", name,
                                            str(key), "a known section (" + ", ".join(sorted(wanted)) + ")",
                                            "an unknown section"))
    known_names = set(files) | {"schema.yaml"}
    for path in sorted([*folder.glob("*.yaml"), *folder.glob("*.yml")]):
        if path.name not in known_names:
            problems.append(Problem(str(path), 1, "file", path.name, "name",
                                    "a data file named in schema.yaml", "a file nobody reads"))


def _known_ids(schema: dict, raw: dict[str, tuple[Path, Any, int]]) -> dict[str, set[str]]:
    """Phase 4: the ids of every list kind, for references.

    A kind whose file could not be read has no ids: its refs are not checked, so that one broken
    file gives one problem, not one per reference to it."""
    ids: dict[str, set[str]] = {}
    for kind, (_path, items, _line) in raw.items():
        if not schema["kinds"][kind].get("single") and isinstance(items, list):
            ids[kind] = {e["id"] for e in items if isinstance(e, dict) and isinstance(e.get("id"), str)}
    return ids


def _check_entries(game: Game, checker: Checker, raw: dict[str, tuple[Path, Any, int]],
                   problems: list[Problem]) -> dict[str, tuple[Path, int]]:
    """Phase 5: every entry checked against its kind's fields, ids unique; the good ones kept.
    Returns where each list kind's section is (for the totals)."""
    schema, game_id = game.schema, game.id
    sections: dict[str, tuple[Path, int]] = {}
    for kind, (path, items, line) in raw.items():
        spec = schema["kinds"][kind]
        if spec.get("single"):
            if not isinstance(items, dict):
                problems.append(Problem(str(path), line, kind, game_id, spec["key"], "a mapping",
                                        describe(items)))
                continue
            _check_entry(checker, spec, items, path, kind, game_id, problems)
            game.singles[kind] = items
            continue
        if not isinstance(items, list):
            problems.append(Problem(str(path), line, kind, "-", spec["key"], "a list of entries",
                                    describe(items)))
            continue
        sections[kind] = (path, line)
        seen: dict[str, int] = {}
        good: list[dict] = []
        for index, entry in enumerate(items):
            entry_line = line_of(items, index)
            if not isinstance(entry, dict):
                problems.append(Problem(str(path), entry_line, kind, f"#{index + 1}", "entry",
                                        "a mapping with an id", describe(entry)))
                continue
            entry_id: str = entry["id"] if isinstance(entry.get("id"), str) else f"#{index + 1}"
            if entry_id in seen:
                problems.append(Problem(str(path), line_of(entry, "id"), kind, entry_id, "id",
                                        *repeated_id(entry_id, seen[entry_id])))
            seen.setdefault(entry_id, entry_line)
            _check_entry(checker, spec, entry, path, kind, entry_id, problems)
            game.locations[(kind, entry_id)] = (path, entry_line)
            good.append(entry)
        game.kinds[kind] = good
    for kind, spec in schema["kinds"].items():
        if not spec.get("single"):
            game.kinds.setdefault(kind, [])
    return sections


def _check_markers(game: Game, problems: list[Problem]) -> None:
    """Scan markers (``marker:``) name one kind of component: unique across all kinds of a game."""
    first: dict[int, tuple[str, str]] = {}
    for kind, entries in game.kinds.items():
        for entry in entries:
            number = entry.get("marker")
            if not isinstance(number, int) or isinstance(number, bool):
                continue
            if number in first:
                path, line = game.locations[(kind, entry["id"])]
                line = line_of(entry, "marker") if hasattr(entry, "line_of") else line
                other_kind, other_id = first[number]
                problems.append(Problem(str(path), line, kind, entry["id"], "marker",
                                        f"a marker unique in the game (already on {other_kind} "
                                        f"'{other_id}')", str(number)))
            first.setdefault(number, (kind, entry["id"]))


def _check_entry(checker: Checker, spec: dict, entry: dict, path: Path, kind: str,
                 entry_id: str, problems: list[Problem]) -> None:
    checker.findings = []
    line = getattr(entry, "line", 0)  # a mapping read from YAML (LDict) knows its line
    checker.check_fields(spec["fields"], entry, "", line)
    for f in checker.findings:
        problems.append(Problem(str(path), f.line or line, kind, entry_id, f.field, f.expected, f.got))


def _read_data(path: Path, game_id: str, problems: list[Problem]) -> Any:
    if not path.is_file():
        problems.append(Problem(str(path), 0, "file", path.name, "file", "a data file named in schema.yaml",
                                kind_of(path.stat().st_mode) if path.exists() else "no such file"))
        return None
    try:
        data = read(path)
    except YamlProblem as exc:
        problems.append(Problem(str(path), exc.line, "file", path.name, *_split_yaml_message(exc.message)))
        return None
    if data is None:
        problems.append(Problem(str(path), 1, "file", path.name, "top level", "a mapping of lists",
                                "nothing"))
    return data


def _split_yaml_message(message: str) -> tuple[str, str, str]:
    field_name, _, rest = message.partition(": ")
    expected, _, got = rest.partition(", got ")
    return field_name, expected, got


def _schema_ok(schema: Any, path: Path, game_id: str, problems: list[Problem]) -> bool:
    before = len(problems)

    def bad(line: int, field_name: str, expected: str, got: str = "") -> None:
        problems.append(Problem(str(path), line, "schema", game_id, field_name, expected, got))

    if not isinstance(schema, dict) or not isinstance(schema.get("kinds"), dict):
        bad(getattr(schema, "line", 1), "kinds", "a mapping of kinds",
            describe(schema.get("kinds") if isinstance(schema, dict) else schema))
        return False
    for key in schema:
        if key not in ("kinds", "checks", "doc", "setup"):
            bad(line_of(schema, key), str(key), "a known schema section (kinds, checks, doc, setup)", f"'{key}'")
    kinds = schema["kinds"]
    for kind, spec in kinds.items():
        line = line_of(kinds, kind)
        if not isinstance(spec, dict):
            bad(line, str(kind), "a kind description", describe(spec))
            continue
        for key in spec:
            if key not in KIND_KEYS:
                bad(line_of(spec, key), f"{kind}.{key}", "a known kind key", f"'{key}'")
        if not isinstance(spec.get("file"), str) or not isinstance(spec.get("key"), str):
            bad(line, str(kind), "'file' and 'key'", "nothing")
        if "like" in spec:
            target = kinds.get(spec["like"]) if isinstance(spec["like"], str) else None
            if not isinstance(target, dict) or not isinstance(target.get("fields"), dict):
                bad(line_of(spec, "like"), f"{kind}.like", "a kind of this game with its own fields",
                    describe(spec["like"]))
            continue
        if not isinstance(spec.get("fields"), dict):
            bad(line, f"{kind}.fields", "a mapping of field specs", describe(spec.get("fields")))
            continue
        if not spec.get("single"):
            id_spec = spec["fields"].get("id")
            if not isinstance(id_spec, (str, dict)) or normalise_spec(id_spec).get("type") != "id":
                bad(line, f"{kind}.fields.id", "an 'id' field of type id", describe(id_spec))
        for name, field_spec in spec["fields"].items():
            for where, expected, got in check_spec(field_spec, f"{kind}.{name}", kinds):
                bad(line_of(spec["fields"], name), where, expected, got)
    _setup_ok(schema, bad)
    checks = schema.get("checks", []) or []
    if not isinstance(checks, list):
        bad(line_of(schema, "checks"), "checks", "a list of checks", describe(checks))
        return False
    for i, check in enumerate(checks):
        ok = isinstance(check, dict) and check.get("kind") in kinds and "expect" in check
        ok = ok and isinstance(check.get("where", {}), dict)
        if ok and "by" in check:
            ok = isinstance(check["expect"], dict)
        elif ok:
            ok = isinstance(check["expect"], int) and not isinstance(check["expect"], bool)
        if not ok:
            bad(line_of(checks, i), f"checks[{i}]",
                "a check with a known kind and 'expect' (a number, or a mapping with 'by')",
                describe(check))
    return len(problems) == before


OPTION_TYPES = {"bool", "int", "seat", "ids"}
OPTION_KEYS = {"type", "default", "default_from", "default_flag", "min", "max", "of", "first_player",
               "players_max", "doc"}


def _setup_ok(schema: dict, bad: Any) -> None:
    """The schema's ``setup: options:``: each option a known type with words for the screens."""
    setup = schema.get("setup")
    if setup is None:
        return
    options = setup.get("options") if isinstance(setup, dict) else None
    if not isinstance(options, dict) or set(setup) - {"options", "doc"}:
        bad(line_of(schema, "setup"), "setup", "a mapping with 'options'", describe(setup))
        return
    for name, spec in options.items():
        line = line_of(options, name)
        if not isinstance(spec, dict) or spec.get("type") not in OPTION_TYPES:
            got = describe(spec.get("type") if isinstance(spec, dict) else spec)
            bad(line, f"setup.options.{name}.type", "one of " + ", ".join(sorted(OPTION_TYPES)), got)
            continue
        for key in spec:
            if key not in OPTION_KEYS:
                bad(line_of(spec, key), f"setup.options.{name}.{key}", "a known option key", f"'{key}'")
        doc = spec.get("doc")
        if not (isinstance(doc, dict) and set(doc) == {"es", "en"}
                and all(isinstance(v, str) and v.strip() for v in doc.values())):
            got = "a mapping of " + ", ".join(repr(str(k)) for k in doc) if isinstance(doc, dict) else describe(doc)
            bad(line, f"setup.options.{name}.doc", "words for the screens: {es: ..., en: ...}", got)
        for key in ("min", "max"):
            value = spec.get(key, 0)
            if spec["type"] == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                bad(line_of(spec, key), f"setup.options.{name}.{key}", "a whole number", describe(value))
        if spec["type"] == "ids" and spec.get("of") not in schema["kinds"]:
            bad(line, f"setup.options.{name}.of", "a kind of this game", describe(spec.get("of")))


def _check_totals(game: Game, sections: dict[str, tuple[Path, int]],
                  problems: list[Problem]) -> None:
    """The ``checks:`` of the schema: totals that must add up.

    Reported at the line of the kind's section; a kind whose section could not
    be read is not counted (its own problem is already reported).
    """
    for check in game.schema.get("checks", []) or []:
        kind = check["kind"]
        if kind not in sections:
            continue
        entries = game.kinds.get(kind, [])
        spec = game.schema["kinds"][kind]
        path, line = str(sections[kind][0]), sections[kind][1]
        where = check.get("where", {})
        chosen = [e for e in entries if all(e.get(k) == v for k, v in where.items())]
        total_field = check.get("sum")

        def total(items: list[dict], total_field: str | None = total_field) -> int:
            if total_field:
                return sum(v for v in (e.get(total_field) for e in items)
                           if isinstance(v, int) and not isinstance(v, bool))
            return len(items)

        what = f"sum of {total_field}" if total_field else "number of entries"
        label = check.get("label", spec["key"])
        if "by" in check:
            for group, expected in check["expect"].items():
                got = total([e for e in chosen if str(e.get(check["by"])) == str(group)])
                if got != expected:
                    problems.append(Problem(path, line, kind, label, f"{check['by']} {group}",
                                            f"a {what} of {expected}", str(got)))
        else:
            got = total(chosen)
            if got != check["expect"]:
                problems.append(Problem(path, line, kind, label, "total",
                                        f"a {what} of {check['expect']}", str(got)))

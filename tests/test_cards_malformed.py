"""Broken copies of the card data: every problem reported on its own line, exit 2, nothing written.

Each case copies the real ``cards/`` folder, breaks one thing in ``ciudadelas/`` and returns the
exact lines it expects, ``path:line: <kind> '<id>': <field>: <expected>, got <found>``, with the
line computed from where the break was made.  The loader is checked directly (Ciudadelas only)
and through ``ludoteca validate --cards DIR`` (all three games, so the others must be valid for
the lines to match exactly), run in this process (tests/clirun.py); one test runs the command as
its own process.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path
from collections.abc import Callable

import pytest

from clirun import ludoteca
from ludoteca.cards import DataError, default_dir, load

GAME = "ciudadelas"
REL = f"cards/{GAME}"
SCORE_CHECK = "a sum of copies of 66"


class Copy:
    """A copy of cards/ under tmp_path with helpers to break it."""

    def __init__(self, root: Path):
        self.root = root
        self.game = root / GAME

    def text(self, name: str) -> str:
        return (self.game / name).read_text(encoding="utf-8")

    def line_of(self, name: str, needle: str, after: str | None = None) -> int:
        """The line (1-based) of the only ``needle`` after the line holding ``after``."""
        text = self.text(name)
        start = text.index(after) if after is not None else 0
        found = text.index(needle, start)
        if after is None:
            assert text.count(needle) == 1, f"'{needle}' is not unique in {name}"
        return text.count("\n", 0, found) + 1

    def edit(self, name: str, old: str, new: str, after: str | None = None) -> int:
        """Replace ``old`` (the first one after ``after``) by ``new``; return its line."""
        text = self.text(name)
        line = self.line_of(name, old, after)
        start = text.index(after) if after is not None else 0
        at = text.index(old, start)
        (self.game / name).write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
        return line

    def append(self, name: str, extra: str) -> int:
        """Add text at the end of a file; return the line where it starts."""
        text = self.text(name)
        (self.game / name).write_text(text + extra, encoding="utf-8")
        return text.count("\n") + 1


def snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Copy:
    shutil.copytree(default_dir(), tmp_path / "cards", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path)
    return Copy(tmp_path / "cards")


def run_validate(cwd: Path, *extra: str) -> subprocess.CompletedProcess:
    """``ludoteca validate --cards cards`` in ``cwd``, in-process (what it says and returns; the
    command as its own process is tested by test_missing_cards_folder)."""
    return ludoteca("validate", "--cards", "cards", *extra, cwd=cwd)


def assert_reported(data: Copy, expected: list[str]) -> None:
    """The loader and the command report exactly ``expected``, exit 2, and write nothing."""
    before = snapshot(data.root)
    with pytest.raises(DataError) as err:
        load(data.root, games=(GAME,))
    assert [str(p) for p in err.value.problems] == expected
    assert str(err.value).splitlines() == expected
    proc = run_validate(data.root.parent)
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == expected
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert snapshot(data.root) == before


# --- the cases --------------------------------------------------------------------------------

CASES: dict[str, Callable[[Copy], list[str]]] = {}


def case(func: Callable[[Copy], list[str]]) -> Callable[[Copy], list[str]]:
    CASES[func.__name__] = func
    return func


@case
def wrong_type(c: Copy) -> list[str]:
    line = c.edit("districts.yaml", "cost: 4", "cost: four", after="- id: castle")
    return [f"{REL}/districts.yaml:{line}: district 'castle': cost: an integer, got 'four'"]


@case
def missing_field(c: Copy) -> list[str]:
    c.edit("districts.yaml", "    cost: 5\n", "", after="- id: cathedral")
    line = c.line_of("districts.yaml", "- id: cathedral")
    return [f"{REL}/districts.yaml:{line}: district 'cathedral': cost: an integer, "
            "got nothing (the field is missing)"]


@case
def typo_key(c: Copy) -> list[str]:
    line = c.edit("districts.yaml", "cost: 1", "cots: 1", after="- id: tavern")
    entry = c.line_of("districts.yaml", "- id: tavern")
    return [f"{REL}/districts.yaml:{entry}: district 'tavern': cost: an integer, "
            "got nothing (the field is missing)",
            f"{REL}/districts.yaml:{line}: district 'tavern': cots: a known field "
            "(did you mean 'cost'?), got an unknown field"]


@case
def duplicate_id(c: Copy) -> list[str]:
    first = c.line_of("districts.yaml", "- id: castle")
    line = c.edit("districts.yaml", "- id: palace", "- id: castle")
    return [f"{REL}/districts.yaml:{line}: district 'castle': id: a unique id "
            f"(first used on line {first}), got 'castle' again"]


@case
def unknown_ref(c: Copy) -> list[str]:
    line = c.edit("characters.yaml", "income_colour: yellow", "income_colour: yelow")
    return [f"{REL}/characters.yaml:{line}: character 'king': income_colour: the id of a known "
            "colour (did you mean 'yellow'?), got 'yelow'"]


@case
def unknown_ref_in_a_list(c: Copy) -> list[str]:
    line = c.edit("components.yaml", "characters: [assassin, thief,", "characters: [assassin, theif,")
    return [f"{REL}/components.yaml:{line}: component 'reference_card': characters[1]: the id of a "
            "known character (did you mean 'thief'?), got 'theif'"]


@case
def missing_translation(c: Copy) -> list[str]:
    line = c.edit("districts.yaml", "name: {es: Templo, en: Temple}", "name: {es: Templo}")
    return [f"{REL}/districts.yaml:{line}: district 'temple': name.en: an English text, "
            "got nothing (missing translation)"]


@case
def empty_translation(c: Copy) -> list[str]:
    line = c.edit("characters.yaml", "name: {es: Mago, en: Magician}", 'name: {es: "", en: Magician}')
    return [f"{REL}/characters.yaml:{line}: character 'magician': name.es: a Spanish text, got ''"]


@case
def text_not_translated(c: Copy) -> list[str]:
    line = c.edit("districts.yaml", "name: {es: Palacio, en: Palace}", "name: Palacio")
    return [f"{REL}/districts.yaml:{line}: district 'palace': name: a text in Spanish and English "
            "({es: ..., en: ...}), got 'Palacio'"]


@case
def unknown_language(c: Copy) -> list[str]:
    line = c.edit("districts.yaml", "name: {es: Iglesia, en: Church}",
                  "name: {es: Iglesia, en: Church, fr: Église}")
    return [f"{REL}/districts.yaml:{line}: district 'church': name.fr: a language, es or en, "
            "got an unknown language"]


@case
def unquoted_comma_in_text(c: Copy) -> list[str]:
    line = c.edit("districts.yaml", "name: {es: Ayuntamiento, en: Town Hall}",
                  "name: {es: Ayuntamiento, casa consistorial, en: Town Hall}")
    return [f"{REL}/districts.yaml:{line}: district 'town_hall': name.casa consistorial: a language, "
            "es or en (a comma inside {...} ends the text before it: quote the text), "
            "got an unknown language"]


@case
def yaml_syntax_error(c: Copy) -> list[str]:
    line = c.edit("characters.yaml", "number: 3\n", "number: 3: 4\n")
    return [f"{REL}/characters.yaml:{line}: file 'characters.yaml': yaml: valid YAML, got a syntax "
            "error (mapping values are not allowed in this context)"]


@case
def yaml_tab_in_schema(c: Copy) -> list[str]:
    line = c.edit("schema.yaml", "      name: text\n      edition:", "      name: text\n\tedition:")
    return [f"{REL}/schema.yaml:{line + 1}: schema '{GAME}': yaml: valid YAML, got a syntax error "
            "(found a tab character that violates indentation)"]


@case
def duplicate_yaml_key(c: Copy) -> list[str]:
    first = c.line_of("districts.yaml", "cost: 3", after="- id: manor")
    c.edit("districts.yaml", "    cost: 3\n", "    cost: 3\n    cost: 2\n", after="- id: manor")
    return [f"{REL}/districts.yaml:{first + 1}: file 'districts.yaml': yaml: each key once "
            f"(first on line {first}), got 'cost' again"]


@case
def count_does_not_add_up(c: Copy) -> list[str]:
    c.edit("districts.yaml", "copies: 5", "copies: 4", after="- id: manor")
    section = c.line_of("districts.yaml", "\ndistricts:") + 1
    return [f"{REL}/districts.yaml:{section}: district 'districts': colour yellow: "
            "a sum of copies of 12, got 11",
            f"{REL}/districts.yaml:{section}: district 'districts': total: {SCORE_CHECK}, got 65"]


@case
def entry_count_does_not_add_up(c: Copy) -> list[str]:
    start = c.text("characters.yaml").index("  - id: warlord")
    (c.game / "characters.yaml").write_text(c.text("characters.yaml")[:start], encoding="utf-8")
    section = c.line_of("characters.yaml", "\ncharacters:") + 1
    return [f"{REL}/characters.yaml:{section}: character 'characters': total: "
            "a number of entries of 8, got 7",
            f"{REL}/components.yaml:{c.line_of('components.yaml', 'characters: [')}: component "
            "'reference_card': characters[7]: the id of a known character, got 'warlord'"]


@case
def unknown_section(c: Copy) -> list[str]:
    line = c.append("game.yaml", "\nexpansions: []\n") + 1
    return [f"{REL}/game.yaml:{line}: file 'game.yaml': expansions: a known section "
            "(colours, game), got an unknown section"]


@case
def stray_file(c: Copy) -> list[str]:
    (c.game / "distritos.yml").write_text("districts: []\n", encoding="utf-8")
    return [f"{REL}/distritos.yml:1: file 'distritos.yml': name: a data file named in schema.yaml, "
            "got a file nobody reads"]


@case
def section_not_a_list(c: Copy) -> list[str]:
    (c.game / "dark_city.yaml").write_text("dark_city_districts:\n  museum: 4\n", encoding="utf-8")
    return [f"{REL}/dark_city.yaml:1: dark_district '-': dark_city_districts: a list of entries, "
            "got a mapping"]


@case
def bad_id_characters(c: Copy) -> list[str]:
    line = c.edit("districts.yaml", "- id: town_hall", "- id: Town Hall")
    return [f"{REL}/districts.yaml:{line}: district 'Town Hall': id: an ASCII id of a-z, 0-9 and _, "
            "got 'Town Hall'"]


@case
def non_ascii_id(c: Copy) -> list[str]:
    line = c.edit("characters.yaml", "- id: thief", "- id: ladrón")
    return [f"{REL}/characters.yaml:{line}: character 'ladrón': id: an ASCII id of a-z, 0-9 and _, "
            "got 'ladrón'",
            f"{REL}/components.yaml:{c.line_of('components.yaml', 'characters: [')}: component "
            "'reference_card': characters[1]: the id of a known character, got 'thief'"]


@case
def bool_where_int(c: Copy) -> list[str]:
    line = c.edit("game.yaml", "starting_gold: 2", "starting_gold: yes")
    return [f"{REL}/game.yaml:{line}: game '{GAME}': starting_gold: an integer, got true"]


@case
def negative_cost(c: Copy) -> list[str]:
    line = c.edit("dark_city.yaml", "cost: 3", "cost: -3", after="- id: lighthouse")
    return [f"{REL}/dark_city.yaml:{line}: dark_district 'lighthouse': cost: "
            "an integer from 0 to 100, got -3"]


@case
def number_out_of_range(c: Copy) -> list[str]:
    line = c.edit("characters.yaml", "number: 8", "number: 9")
    return [f"{REL}/characters.yaml:{line}: character 'warlord': number: an integer from 1 to 8, got 9"]


@case
def unknown_enum_value(c: Copy) -> list[str]:
    line = c.edit("game.yaml", "symbol: star", "symbol: circle")
    return [f"{REL}/game.yaml:{line}: colour 'purple': symbol: one of crown, cross, scales, sword, "
            "star, got 'circle'"]


@case
def empty_string(c: Copy) -> list[str]:
    line = c.edit("game.yaml", 'hex: "#2F5DA8"', 'hex: ""')
    return [f"{REL}/game.yaml:{line}: colour 'blue': hex: a non-empty string, got ''"]


@case
def scalar_where_list(c: Copy) -> list[str]:
    line = c.edit("districts.yaml", "abilities: [indestructible]", "abilities: indestructible")
    return [f"{REL}/districts.yaml:{line}: district 'keep': abilities: a list, got 'indestructible'"]


@case
def repeated_list_item(c: Copy) -> list[str]:
    line = c.edit("characters.yaml", "powers: [murder]", "powers: [murder, murder]")
    return [f"{REL}/characters.yaml:{line}: character 'assassin': powers[1]: no repeated items, "
            "got 'murder'"]


@case
def missing_file(c: Copy) -> list[str]:
    (c.game / "characters.yaml").unlink()
    return [f"{REL}/characters.yaml:0: file 'characters.yaml': file: a data file named in "
            "schema.yaml, got no such file"]


@case
def list_item_not_a_mapping(c: Copy) -> list[str]:
    line = c.append("districts.yaml", "  - castle\n")
    return [f"{REL}/districts.yaml:{line}: district '#29': entry: a mapping with an id, got 'castle'"]


@case
def top_level_not_a_mapping(c: Copy) -> list[str]:
    (c.game / "components.yaml").write_text("# the pieces\n- crown\n- reference_card\n", encoding="utf-8")
    return [f"{REL}/components.yaml:2: file 'components.yaml': top level: a mapping of lists, "
            "got a list of 2"]


@case
def empty_file(c: Copy) -> list[str]:
    (c.game / "dark_city.yaml").write_text("# nothing yet\n", encoding="utf-8")
    return [f"{REL}/dark_city.yaml:1: file 'dark_city.yaml': top level: a mapping of lists, "
            "got nothing"]


@case
def missing_section(c: Copy) -> list[str]:
    line = c.edit("game.yaml", "\ncolours:\n", "\npalette:\n") + 1
    return [f"{REL}/game.yaml:1: file 'game.yaml': colours: a 'colours:' section, got nothing",
            f"{REL}/game.yaml:{line}: file 'game.yaml': palette: a known section (colours, game), "
            "got an unknown section"]


@case
def nested_field_missing(c: Copy) -> list[str]:
    line = c.edit("game.yaml", "players: {min: 2, max: 7}", "players: {min: 2}")
    return [f"{REL}/game.yaml:{line}: game '{GAME}': players.max: an integer, "
            "got nothing (the field is missing)"]


@case
def map_key_out_of_range(c: Copy) -> list[str]:
    line = c.edit("game.yaml", "      7:\n", "      8:\n")
    return [f"{REL}/game.yaml:{line}: game '{GAME}': character_draft.by_players.8: "
            "an integer from 2 to 7, got 8"]


@case
def undecodable_bytes(c: Copy) -> list[str]:
    path = c.game / "components.yaml"
    path.write_bytes(path.read_bytes().replace(b"Carta de ayuda", "Carta de ayuda \xe9".encode("latin-1")))
    return [f"{REL}/components.yaml:1: file 'components.yaml': file: UTF-8 text, "
            "got undecodable bytes (invalid continuation byte)"]


@case
def schema_unknown_type(c: Copy) -> list[str]:
    line = c.edit("schema.yaml", "cost: {type: int, min: 0, max: 100, doc: Gold paid to build it.}",
                  "cost: {type: integer, min: 0, max: 100, doc: Gold paid to build it.}")
    return [f"{REL}/schema.yaml:{line}: schema '{GAME}': district.cost: a field spec with a type "
            "among bool, enum, id, int, list, map, number, object, ref, str, text, got 'integer'"]


@case
def schema_ref_to_unknown_kind(c: Copy) -> list[str]:
    line = c.edit("schema.yaml", "colour: {type: ref, to: colour}", "colour: {type: ref, to: color}")
    return [f"{REL}/schema.yaml:{line}: schema '{GAME}': district.colour: a ref with 'to' naming a "
            "kind of this game, got 'color'"]


@case
def option_words_split_by_an_unquoted_comma(c: Copy) -> list[str]:
    # YAML reads {es: a (si no, b)., en: c} as three keys: 'es', 'b).' and 'en'; the Spanish is cut
    line = c.line_of("schema.yaml", "  crown:")
    c.edit("schema.yaml", 'doc: {es: "Quién empieza con la corona (si no, al azar).",',
           "doc: {es: Quién empieza con la corona (si no, al azar).,")
    return [f"{REL}/schema.yaml:{line}: schema '{GAME}': setup.options.crown.doc: words for the "
            "screens: {es: ..., en: ...}, got a mapping of 'es', 'al azar).', 'en'"]


@pytest.mark.parametrize("name", list(CASES))
def test_malformed_input_is_reported(data: Copy, name: str) -> None:
    expected = CASES[name](data)
    assert_reported(data, expected)


def test_there_are_enough_distinct_cases() -> None:
    assert len(CASES) >= 22


def test_several_problems_at_once_are_all_reported(data: Copy) -> None:
    expected = (wrong_type(data) + typo_key(data) + unknown_ref(data) + bool_where_int(data)
                + stray_file(data) + unknown_enum_value(data))
    by_file = sorted(expected, key=lambda line: (line.split(":")[0], int(line.split(":")[1]), line))
    assert len(by_file) == 7
    assert_reported(data, by_file)


def test_json_output_on_bad_data_is_empty_and_exit_2(data: Copy) -> None:
    expected = negative_cost(data)
    proc = run_validate(data.root.parent, "--json")
    assert (proc.returncode, proc.stdout, proc.stderr.splitlines()) == (2, "", expected)


def test_missing_cards_folder(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "ludoteca", "validate", "--cards", "nowhere"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "nowhere:0: folder 'nowhere': cards: a folder of card data, got no such folder"]


def test_an_unbroken_copy_is_valid(data: Copy) -> None:
    before = snapshot(data.root)
    assert load(data.root, games=(GAME,))[GAME].counts()["districts"] == 66
    proc = run_validate(data.root.parent, "--json")
    assert proc.returncode == 0, proc.stderr
    assert '"districts": 66' in proc.stdout and '"characters": 8' in proc.stdout
    assert snapshot(data.root) == before

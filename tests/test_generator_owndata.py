"""generator.owndata: the kit's own YAML files are parsed once and then read from a JSON copy."""

from __future__ import annotations

import pytest

from ludoteca.generator import owndata


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "ludoteca" / "data"


def _parsed(monkeypatch) -> list:
    """Every parse of a file by PyYAML, noted."""
    seen: list = []
    parse = owndata._parse
    monkeypatch.setattr(owndata, "_parse", lambda path: seen.append(path.name) or parse(path))
    return seen


def test_a_file_is_parsed_once_then_read_from_its_copy_until_it_changes(tmp_path, cache, monkeypatch):
    source = tmp_path / "sheets.yaml"
    source.write_text("papers:\n  a4: {size: [210, 297], name: {es: A4, en: A4}}\nbleed: 3\n", encoding="utf-8")
    seen = _parsed(monkeypatch)
    first = owndata.load(source)
    assert first == {"papers": {"a4": {"size": [210, 297], "name": {"es": "A4", "en": "A4"}}}, "bleed": 3}
    assert owndata.load(source) == first and seen == ["sheets.yaml"]
    assert len(list(cache.glob("sheets-*.json"))) == 1
    source.write_text(source.read_text(encoding="utf-8").replace("bleed: 3", "bleed: 2.5"), encoding="utf-8")
    assert owndata.load(source)["bleed"] == 2.5 and seen == ["sheets.yaml"] * 2
    assert len(list(cache.glob("sheets-*.json"))) == 1                  # the earlier copy gone


def test_what_json_cannot_hold_as_it_is_is_parsed_every_time(tmp_path, cache, monkeypatch):
    source = tmp_path / "words.yaml"
    source.write_text("1: one\n2: two\n", encoding="utf-8")            # keys that are numbers
    seen = _parsed(monkeypatch)
    assert owndata.load(source) == {1: "one", 2: "two"} == owndata.load(source)
    assert seen == ["words.yaml"] * 2 and not list(cache.glob("*.json"))


def test_a_file_that_is_not_yaml_says_why(tmp_path, cache):
    source = tmp_path / "words.yaml"
    source.write_text("g: [unclosed\n", encoding="utf-8")
    with pytest.raises(owndata.Unreadable, match="words.yaml"):
        owndata.load(source)


def test_files_of_one_name_in_two_folders_keep_a_copy_each(tmp_path, cache, monkeypatch):
    """Two checkouts (or a user's words.yaml beside the kit's) share the cache: neither evicts
    the other's copy, and each reads its own."""
    a, b = tmp_path / "a" / "words.yaml", tmp_path / "b" / "words.yaml"
    for path, word in ((a, "uno"), (b, "dos")):
        path.parent.mkdir()
        path.write_text(f"w: {word}\n", encoding="utf-8")
    seen = _parsed(monkeypatch)
    assert owndata.load(a) == {"w": "uno"} and owndata.load(b) == {"w": "dos"}
    assert owndata.load(a) == {"w": "uno"} and owndata.load(b) == {"w": "dos"}
    assert seen == ["words.yaml"] * 2 and len(list(cache.glob("words-*.json"))) == 2

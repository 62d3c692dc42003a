"""``ludoteca validate`` on the awkward inputs a user makes: found in review, each once a bug."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ludoteca.cards import DataError, default_dir, display_path, load


def validate(cwd: Path, cards: Path | str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludoteca", "validate", "--cards", str(cards)],
                          cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    root = tmp_path / "mycards"  # not "cards": run from its parent, a bare cards/ would shadow the package
    shutil.copytree(default_dir(), root, ignore=shutil.ignore_patterns("__pycache__", "*.py", "*.md"))
    return root


def test_a_path_outside_the_working_folder_is_shown_whole(tmp_path, monkeypatch):
    inside = tmp_path / "work"
    inside.mkdir()
    monkeypatch.chdir(inside)
    assert display_path(inside / "cards" / "x.yaml") == "cards/x.yaml"
    assert display_path(tmp_path / "elsewhere" / "x.yaml") == str(tmp_path / "elsewhere" / "x.yaml")


def test_cards_option_naming_a_file(tmp_path):
    (tmp_path / "notes.txt").write_text("hello\n", encoding="utf-8")
    done = validate(tmp_path, "notes.txt")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        "notes.txt:0: folder 'notes.txt': cards: a folder of card data, got a file"]


def test_a_folder_where_a_data_file_should_be(copy):
    target = copy / "gladiadores" / "combat.yaml"
    target.unlink()
    target.mkdir()
    done = validate(copy.parent, "mycards")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        "mycards/gladiadores/combat.yaml:0: file 'combat.yaml': file: a data file named in schema.yaml, "
        "got a folder"]


def test_comma_hint_for_a_one_word_tail(copy):
    path = copy / "ciudadelas" / "districts.yaml"
    text = path.read_text(encoding="utf-8")
    old = "name: {es: Castillo, en: Castle}"
    line = text[:text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, "name: {es: Castillo, grande, en: Castle}"), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load(copy, games=("ciudadelas",))
    assert [str(p).split(": ", 1)[1] for p in err.value.problems] == [
        "district 'castle': name.grande: a language, es or en (a comma inside {...} ends the text "
        "before it: quote the text), got an unknown language"]
    assert err.value.problems[0].line == line

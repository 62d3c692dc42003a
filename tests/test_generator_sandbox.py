"""A user's deck template runs on a budget per face: each case over it is one line naming the
template and the face (the row of the CSV), exit 2, within a few seconds; a deck that stays
inside the budget builds as before."""

from __future__ import annotations

import resource
import time
from pathlib import Path

import pytest

from ludoteca.cli import main
from ludoteca.generator import sandbox, templating

OPEN = '{% import "_lib.svg.j2" as lib %}\n{{ lib.svg_open() }}\n'
CLOSE = "\n{{ lib.svg_close() }}\n"


def deck(tmp_path: Path, body: str, *extra: str, files: dict[str, str] | None = None) -> Path:
    """A one-card deck (its row on line 2 of cards.csv) whose face is ``OPEN + body + CLOSE``."""
    folder = tmp_path / "tpl"
    folder.mkdir(exist_ok=True)
    (folder / "t.svg.j2").write_text(OPEN + body + CLOSE, encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    data = folder / "cards.csv"
    data.write_text("id,name,colour\nc1,Ana,#3a6fc4\n", encoding="utf-8")
    return data


def build(capsys, tmp_path: Path, data: Path, *extra: str) -> tuple[int, list[str], float]:
    start = time.perf_counter()
    code = main(["deck", str(data), "--template", str(data.parent / "t.svg.j2"),
                 "--out", str(tmp_path / "out"), "-q", *extra])
    return code, capsys.readouterr().err.strip().splitlines(), time.perf_counter() - start


def refused(capsys, tmp_path: Path, body: str, needle: str, files: dict[str, str] | None = None) -> str:
    """The deck is refused in one line that names the template, the face and its CSV row."""
    data = deck(tmp_path, body, files=files)
    code, err, seconds = build(capsys, tmp_path, data)
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith("ludoteca: error: template ") and "t.svg.j2" in err[0], err[0]
    assert needle in err[0], err[0]
    assert err[0].endswith(f"(in deck/cards face 'c1', {data}:2)"), err[0]
    assert seconds < 5
    assert not (tmp_path / "out" / "cards.pdf").exists()
    return err[0]


@pytest.mark.parametrize("body,needle", [
    ("{{ 9**(9**9) }}", "t.svg.j2:3: over the budget of one face: 9 ** 387420489 would make a number "
                        "of about 369,693,100 digits, over 4,300"),
    ("{% set n = 10**3000 %}{{ n * n }}", "a number * a number would make a number of about 6,000 digits"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
     "t.svg.j2:3: over the budget of one face: its loops ran more than 1,000,000 steps"),
    ("{% set s = '" + "x" * 200 + "' %}{% for a in s %}{% for b in s %}{% for c in s %}{% endfor %}"
     "{% endfor %}{% endfor %}", "its loops ran more than 1,000,000 steps"),
    ("{{ lipsum(1000000) }}", "its loops ran more than 1,000,000 steps"),
    ("{{ 'x' * 1000000000 }}", "'x' * 1000000000 would make a text of 1,000,000,000 characters, "
                               "over 8,000,000"),
    ("{{ [0] * 10**8 }}", "would make a list of 100,000,000 items"),
    ("{{ 'x'|center(20000000) }}", "it made a text of 20,000,000 characters, over 8,000,000"),
    ("{% for i in range(90000) %}{{ 'y' * 100 }}{% endfor %}",
     "t.svg.j2: over the budget of one face: it wrote more than 8,000,000 characters of SVG"),
    ("{{ 'x'.ljust(2000000000) }}", "t.svg.j2:3: over the budget of one face: it used more than "
                                    "256 MB of memory"),
], ids=["power", "product", "nested_ranges", "loops_over_a_text", "lipsum", "text_times",
        "list_times", "filter_result", "output", "memory"])
def test_a_template_over_its_budget_is_refused_naming_the_face(capsys, tmp_path, body, needle):
    refused(capsys, tmp_path, body, needle)


def test_a_template_that_runs_too_long_is_stopped_at_its_deadline(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "BUDGET", sandbox.Budget(seconds=0.3))
    body = ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
            "{{ f(40) }}")
    start = time.perf_counter()
    refused(capsys, tmp_path, body, ":3: over the budget of one face: it ran longer than 0.3 s")
    assert time.perf_counter() - start < 2


def test_the_budget_holds_when_the_template_comes_from_the_bytecode_cache(capsys, tmp_path):
    body = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    refused(capsys, tmp_path, body, "its loops ran more than 1,000,000 steps")
    templating.environment.cache_clear()            # the next run loads the compiled code
    refused(capsys, tmp_path, body, "its loops ran more than 1,000,000 steps")


def test_the_memory_cap_is_lifted_after_each_face(capsys, tmp_path):
    before = resource.getrlimit(resource.RLIMIT_AS)
    refused(capsys, tmp_path, "{{ 'x'.ljust(2000000000) }}", "more than 256 MB of memory")
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_template_inside_its_budget_builds(capsys, tmp_path):
    body = ("{% for i in range(200) %}<rect x=\"{{ i % 20 }}\" y=\"{{ i // 20 }}\" width=\"0.5\" "
            "height=\"0.5\"/>{% endfor %}<desc>{{ lipsum(2) }}{{ 'ab' * 50 }}{{ 2 ** 64 }}</desc>"
            "{{ lib.text_block(name, 5, 30, w - 10, 20, 12) }}")
    code, err, _ = build(capsys, tmp_path, deck(tmp_path, body))
    assert code == 0 and err == []
    assert (tmp_path / "out" / "cards.pdf").stat().st_size > 0


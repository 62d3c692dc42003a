"""What the scoring tests of the three games share: the worked examples under
``fixtures/scoring/`` and the problems a bad record is refused with."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Mapping

import pytest
import yaml

from ludoteca.companion.engine.scoring import RecordError, score_record

FIXTURES = Path(__file__).parent / "fixtures" / "scoring"


def worked_examples(game: str) -> list[Path]:
    """The worked examples of ``game``: ``fixtures/scoring/<game>_*.yaml``, by name."""
    return sorted(FIXTURES.glob(f"{game}_*.yaml"))


def example(name: str) -> tuple[dict, dict]:
    """A worked example's record and what scoring it must give."""
    data = yaml.safe_load((FIXTURES / name).read_text(encoding="utf-8"))
    return data["record"], data["expected"]


def check_worked_example(path: Path, catalog: Mapping[str, Any], game: str) -> None:
    """Score the example's record: the game, every player's line and the winners are the expected ones."""
    record, expected = example(path.name)
    got = score_record(record, catalog).as_json()
    assert got["game"] == game
    assert got["players"] == expected["players"]
    assert got["winners"] == expected["winners"]


def refusal(record: Any, catalog: Mapping[str, Any], path: str = "<record>") -> list[str]:
    """The problems ``record`` is refused with, one text each (a record that is accepted fails the test)."""
    with pytest.raises(RecordError) as info:
        score_record(record, catalog, path=path)
    return [str(p) for p in info.value.problems]

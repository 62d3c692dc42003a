"""Issue 19's input edges, in-process: a bad ``play`` line never ends the session, names are
refused at input and never shown with control characters, card data and records that could not
be read give one line naming where."""

from __future__ import annotations

import io
import json
import sys

import pytest

from ludoteca.cli import main

ADJUST = {"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1}


def play(monkeypatch, capsys, tmp_path, lines: list[str], players: str = "Ana,Luis") -> tuple[int, list[dict], str]:
    """Run ``ludoteca play ciudadelas`` in this process on ``lines``; the exit code, answers, stderr."""
    data = "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code = main(["play", "ciudadelas", f"--players={players}", "--db", str(tmp_path / "g.db"), "--seed", "1"])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


@pytest.mark.parametrize("line, words", [
    ('{"action": "adjust", "player": "Ana", "resource": 5, "delta": 1}', "unknown resource '5'"),
    ('{"action": "\\ud800"}', "lone surrogate"),
    ('{"action": "adjust", "player": "\\ud800", "resource": "gold", "delta": 1}', "lone surrogate"),
    ('{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1, "id": "\\udfff"}', "lone surrogate"),
])
def test_a_bad_play_line_is_answered_and_the_session_goes_on(monkeypatch, capsys, tmp_path, line, words):
    code, answers, err = play(monkeypatch, capsys, tmp_path, [line, json.dumps(ADJUST)])
    assert code == 0 and "Traceback" not in err
    assert len(answers) == 2
    assert not answers[0]["ok"] and words in answers[0]["error"]
    assert answers[1]["ok"] and answers[1]["seq"] == 1


def test_a_fault_of_ours_refuses_the_line_not_the_session(monkeypatch, capsys, tmp_path):
    from ludoteca.companion.engine.games import ciudadelas

    real = ciudadelas.apply

    def broken(state, action, rng, data):
        if action.get("delta") == 7:
            raise KeyError("a bug")
        return real(state, action, rng, data)

    monkeypatch.setattr(ciudadelas, "apply", broken)
    code, answers, err = play(monkeypatch, capsys, tmp_path, [json.dumps(dict(ADJUST, delta=7)), json.dumps(ADJUST)])
    assert code == 0 and "Traceback" not in err
    assert answers[0]["ok"] is False and answers[0]["kind"] == "InternalError"
    assert "KeyError" in answers[0]["error"] and "not applied" in answers[0]["error"]
    assert answers[1]["ok"] and answers[1]["seq"] == 1 and answers[1]["state"]["players"][0]["gold"] == 3

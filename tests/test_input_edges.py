"""Issue 19's input edges, in-process: a bad ``play`` line never ends the session, names are
refused at input and never shown with control characters, card data and records that could not
be read give one line naming where."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

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
    from ludoteca.companion.engine.definition import GameDefinition

    real = GameDefinition.apply

    def broken(self, state, action, rng, data):
        if action.get("delta") == 7:
            raise KeyError("a bug")
        return real(self, state, action, rng, data)

    monkeypatch.setattr(GameDefinition, "apply", broken)
    code, answers, err = play(monkeypatch, capsys, tmp_path, [json.dumps(dict(ADJUST, delta=7)), json.dumps(ADJUST)])
    assert code == 0 and "Traceback" not in err
    assert answers[0]["ok"] is False and answers[0]["kind"] == "InternalError"
    assert "KeyError" in answers[0]["error"] and "not applied" in answers[0]["error"]
    assert answers[1]["ok"] and answers[1]["seq"] == 1 and answers[1]["state"]["players"][0]["gold"] == 3


@pytest.mark.parametrize("name, words", [
    ("A" * 100_000, "a name of at most 60 characters, got 100,000"),
    ("Ana\x01", "without control characters, got '\\x01' at character 4"),
    ("\x1b[31mAna", "got '\\x1b' at character 1"),
    ("Ana\u202eqwe", "got '\\u202e' at character 4"),
])
def test_a_player_name_that_is_no_name_is_refused_in_one_line(monkeypatch, capsys, tmp_path, name, words):
    code, answers, err = play(monkeypatch, capsys, tmp_path, [json.dumps(ADJUST)], players=f"{name},Luis")
    assert code == 2 and answers == []
    assert err.count("\n") == 1 and "player 1's name: " in err and words in err
    assert "Traceback" not in err


def test_a_name_of_60_characters_is_a_name(monkeypatch, capsys, tmp_path):
    code, answers, err = play(monkeypatch, capsys, tmp_path, [json.dumps(dict(ADJUST, player="B" * 60))],
                              players="B" * 60 + ",Luis")
    assert code == 0 and answers[0]["ok"], err


def test_names_saved_before_the_rule_are_shown_without_control_characters(monkeypatch, capsys, tmp_path):
    import sqlite3

    from ludoteca.companion.engine import Store

    db = tmp_path / "g.db"
    store = Store(db)
    store.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
    store.close()
    with sqlite3.connect(db) as conn:  # what an older Ludoteca let in
        conn.execute("UPDATE games SET players = ?", (json.dumps(["\x1b[31mAna\x07", "L" * 5000, "Eva\u202e\x9b"]),))
    conn.close()
    assert main(["history", "--json", "--db", str(db)]) == 0  # the same data, every hidden character escaped
    out = capsys.readouterr().out
    assert json.loads(out)[0]["players"] == ["\x1b[31mAna\x07", "L" * 5000, "Eva\u202e\x9b"]
    assert not any(c in out for c in "\x1b\x07\u202e\x9b") and "Eva\\u202e\\u009b" in out
    for argv in (["history", "--db", str(db)], ["history", "last", "--db", str(db)]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert not any(c in out for c in "\x1b\x07\u202e\x9b") and "\\x1b[31mAna\\x07" in out
        assert "L" * 59 + "…" in out and "L" * 61 not in out


def test_the_statistics_table_shows_names_without_control_characters():
    from ludoteca.companion.engine.stats import stats_table

    row = {"plays": 1, "wins": 1, "win_rate": 100.0, "average": 3.0, "best": 3}
    table = stats_table({"ciudadelas": {"plays": 1, "players": {"Eva\x9b2J": row}}})
    assert "\x9b" not in table and "Eva\\x9b2J" in table


def test_a_record_name_that_is_no_name_is_refused_and_unknown_cards_are_echoed_escaped(capsys, tmp_path):
    record = tmp_path / "r.yaml"
    record.write_text('game: gladiadores\nplayers:\n  - name: "\\e[31mAna"\n    combat_wins: 1\n'
                      '  - name: Luis\n    combat_wins: 2\n    buildings: ["\\e[2Jcasa"]\n', encoding="utf-8")
    assert main(["score", str(record)]) == 2
    out, err = capsys.readouterr()
    assert "\x1b" not in err and "\x1b" not in out
    assert f"{record}:3: players[0].name: expected a name of letters" in err
    assert "unknown building '\\x1b[2Jcasa'" in err


def card_copy(tmp_path) -> Path:
    """A copy of the shipped card data to spoil."""
    from ludoteca.cards import default_dir

    shutil.copytree(default_dir(), tmp_path / "cards", ignore=shutil.ignore_patterns("__pycache__", "*.py", "*.md"))
    return tmp_path / "cards"


def test_validate_refuses_a_card_name_of_100000_characters_or_with_control_characters(capsys, tmp_path):
    path = card_copy(tmp_path) / "gladiadores" / "buildings.yaml"
    text = path.read_text(encoding="utf-8")
    line = text[:text.index("name: {es: Domus")].count("\n") + 1
    path.write_text(text.replace("name: {es: Domus, en: Domus}", 'name: {es: "' + "D" * 100_000 + '", en: "Do\\tmus"}'),
                    encoding="utf-8")
    assert main(["validate", "--cards", str(tmp_path / "cards")]) == 2
    err = capsys.readouterr().err
    assert f"buildings.yaml:{line}: building 'domus': name.es: a name of at most 60 characters, got 100,000" in err
    assert f"buildings.yaml:{line}: building 'domus': name.en: a name of letters" in err
    assert "'\\x09' at character 3" in err


@pytest.mark.parametrize("game, old, new, where", [
    ("gladiadores", "        min_len: 1\n", "        min_len: one\n",
     "schema 'gladiadores': game.player_counts: a list whose 'min_len' is a whole number of items, got 'one'"),
    ("gladiadores", "      type: int\n      min: 1\n", "      type: int\n      min: uno\n",
     "schema 'gladiadores': setup.options.target.min: a whole number, got 'uno'"),
    ("el_mapa", "players: {type: object, fields: {min: {type: int, min: 1,",
     "players: {type: object, fields: {min: {type: int, min: uno,",
     "schema 'el_mapa': game.players.min: an integer with a plausible range ('min' and its value), got 'min': 'uno'"),
])
def test_a_word_where_the_schema_wants_a_number_is_one_line(capsys, tmp_path, game, old, new, where):
    path = card_copy(tmp_path) / game / "schema.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert main(["validate", "--cards", str(tmp_path / "cards")]) == 2
    err = capsys.readouterr().err
    assert f"{game}/schema.yaml:" in err and where in err and "Traceback" not in err


def test_an_id_repeated_inside_game_yaml_is_refused_like_a_repeated_entry(capsys, tmp_path):
    path = card_copy(tmp_path) / "el_mapa" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    first = text[:text.index("- id: maravilla")].count("\n") + 1
    second = text[:text.index("- id: ultima_ficha")].count("\n") + 1
    path.write_text(text.replace("- id: ultima_ficha", "- id: maravilla"), encoding="utf-8")
    assert main(["validate", "--cards", str(tmp_path / "cards")]) == 2
    err = capsys.readouterr().err
    assert err == (f"{path}:{second}: game 'el_mapa': end_conditions[1].id: a unique id (first used on line "
                   f"{first}), got 'maravilla' again\n")


def unblocking(fifo: Path, call, seconds: float = 5.0):
    """``call()`` in a thread; if it is still waiting on ``fifo`` after ``seconds``, a writer is opened
    to free it and the test fails (instead of hanging)."""
    import os
    import threading

    box: dict = {}
    worker = threading.Thread(target=lambda: box.update(result=call()), daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(seconds)
        pytest.fail(f"still waiting on the FIFO {fifo} after {seconds} s")
    return box.get("result")


def fifo_at(path: Path) -> Path:
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(path)
    return path


def test_read_bytes_refuses_what_is_no_regular_file_without_waiting(tmp_path):
    from ludoteca.cards.limits import NotAFile, read_bytes

    fifo = fifo_at(tmp_path / "r.yaml")

    def attempt(path):
        try:
            read_bytes(path)
        except NotAFile as exc:
            return exc.strerror
        return "read"

    assert unblocking(fifo, lambda: attempt(fifo)) == "a FIFO (named pipe), not a regular file"
    assert attempt(tmp_path) == "a folder, not a regular file"
    if Path("/dev/zero").exists():
        assert attempt("/dev/zero") == "a character device, not a regular file"


def test_a_settings_file_that_is_a_fifo_gives_the_defaults_at_once(tmp_path):
    from ludoteca.companion.app.settings import Settings

    fifo = fifo_at(tmp_path / "companion.json")
    loaded = unblocking(fifo, lambda: Settings.load(tmp_path))
    assert loaded == Settings()


def png_header(width: int, height: int) -> bytes:
    """A PNG that declares ``width`` x ``height`` and holds one row of data."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * (width + 1))) + chunk(b"IEND", b""))


@pytest.fixture
def white_png(tmp_path) -> Path:
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    path = tmp_path / "blanca.png"
    cv2.imwrite(str(path), np.full((120, 160), 255, np.uint8))
    return path


def scan(capsys, *argv) -> tuple[int, str, str]:
    code = main(["scan", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name, data, words", [
    ("vacia.jpg", b"", "the file is empty (0 bytes), not a photo"),
    ("p60000.png", png_header(60000, 60000), "a photo of 1 to 100 megapixels, got 60000 x 60000 pixels"),
    ("p32000.png", png_header(32000, 32000), "a photo of 1 to 100 megapixels, got 32000 x 32000 pixels"),
    ("cero.png", png_header(0, 5), "a photo of 1 to 100 megapixels, got 0 x 5 pixels"),
    ("texto.jpg", b"no soy una foto", "not an image Ludoteca can read (a JPEG or PNG photo)"),
])
def test_a_photo_that_cannot_be_one_is_refused_before_decoding(capsys, tmp_path, white_png, name, data, words):
    bad = tmp_path / name
    bad.write_bytes(data)
    code, out, err = scan(capsys, white_png, bad, "--game", "gladiadores")
    assert code == 2 and out == ""  # the good photo first: nothing printed for it either
    assert err == f"ludoteca scan: {bad}: {words}\n"


def test_a_png_that_lies_about_its_data_is_one_line(capsys, tmp_path, white_png):
    bad = tmp_path / "corta.png"
    bad.write_bytes(png_header(4000, 3000))  # one row of 3000
    code, out, err = scan(capsys, bad, "--game", "gladiadores")
    assert code == 2 and err.endswith(f"ludoteca scan: {bad}: not an image OpenCV can read (JPEG, PNG, ...)\n")


def test_a_photo_that_is_a_fifo_or_a_device_is_refused_without_waiting(capsys, tmp_path, white_png):
    fifo = fifo_at(tmp_path / "x.jpg")
    code, out, err = unblocking(fifo, lambda: scan(capsys, fifo, "--game", "ciudadelas"))
    assert code == 2
    assert err == f"ludoteca scan: {fifo}: cannot read the photo (a FIFO (named pipe), not a regular file)\n"
    if Path("/dev/zero").exists():
        code, out, err = scan(capsys, "/dev/zero", "--game", "ciudadelas")
        assert code == 2
        assert err == "ludoteca scan: /dev/zero: cannot read the photo (a character device, not a regular file)\n"


def test_a_set_value_of_5000_digits_is_one_line(capsys, white_png):
    code, out, err = scan(capsys, "--game", "ciudadelas", "--score", f"--player=Ana={white_png}",
                          f"--player=Luis={white_png}", "--set", "Luis.gold=" + "9" * 5000)
    assert code == 2 and err == "ludoteca scan: --set Luis.gold: yaml: numbers of at most 100 digits, got one of 5000\n"


def test_a_building_name_longer_than_its_tile_holds_is_refused_in_one_line(capsys, tmp_path):
    """El Mapa's building names have the schema's max_len (what the 30 mm tile's name band holds)."""
    path = card_copy(tmp_path) / "el_mapa" / "buildings.yaml"
    text = path.read_text(encoding="utf-8")
    old = "name: {es: Templo de Midas, en: Temple of Midas}"
    line = text[:text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, "name: {es: Templo de Midas el Dorado, en: Temple of Midas}"),
                    encoding="utf-8")
    assert main(["validate", "--cards", str(tmp_path / "cards")]) == 2
    err = capsys.readouterr().err
    assert f"buildings.yaml:{line}: building 'templo_midas': name.es: a name of at most 22 characters, got 25" in err
    assert "Traceback" not in err and err.count("\n") == 1

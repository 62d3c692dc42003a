"""Exports other apps import: BG Stats' fields as a real BG Stats file has them, local dates of the
play's start, real minutes, seat order, the BGG id from the data; ids as `history` prints them.

The field lists below are what we checked against: a real BG Stats play file (pastebin.com/iDbHyBui:
``about``, ``players`` with uuid/id/name/isAnonymous/modificationDate/bggUsername, ``locations``,
``games`` with uuid/id/name/modificationDate/cooperative/highestWins/noPoints/usesTeams/bggId), the
play and score fields of BG Stats' exports as parsed by open-source importers (playDate, durationMin,
ignored, manualWinner, rounds, usesTeams, gameRefId, playerScores with score (text), winner,
newPlayer, startPlayer, playerRefId, rank, seatOrder), and BG Stats' documented date layout
"2020-10-23 19:16:58" (bgstatsapp.com, "push plays to BG Stats").
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone, UTC
from pathlib import Path

import pytest

from ludoteca.companion.engine import BadArgument, Store
from ludoteca.companion.engine.clock import GameClock
from ludoteca.companion.engine.export import SUFFIXES, export_data
from ludoteca.companion.engine.lookup import find_game
from test_engine_helpers import play_to_end
from fakeclock import FakeTime

ROOT = Path(__file__).resolve().parent.parent
LUDOTECA = [sys.executable, "-m", "ludoteca"]
DATE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
REAL_TOP = {"about", "players", "locations", "games", "plays"}
REAL_PLAYER = {"uuid", "id", "name", "isAnonymous", "modificationDate", "bggUsername"}
REAL_GAME = {"uuid", "id", "name", "modificationDate", "cooperative", "highestWins", "noPoints", "usesTeams",
             "bggId"}
REAL_PLAY = {"uuid", "playDate", "entryDate", "modificationDate", "durationMin", "ignored", "manualWinner",
             "rounds", "usesTeams", "gameRefId", "playerScores"}
REAL_SCORE = {"score", "winner", "newPlayer", "startPlayer", "playerRefId", "rank", "seatOrder"}
#: Spain in winter (CET, UTC+1): 23:30 UTC on 28 March is already 29 March at the table.
CET = timezone(timedelta(hours=1), "CET")
T0 = datetime(2026, 3, 28, 23, 30, tzinfo=UTC)


def clocked_game(tmp_path):
    """Gladiadores for two, played to the end with a 5-minute break: 40 min on the wall, 35 played."""
    store = Store(tmp_path / "x.db")
    session = store.new_game("gladiadores", ["Ana", "Luis"], seed=2)
    now = FakeTime(T0)
    clock = GameClock(store, session.id, now=now)
    clock.observe(session.state)
    now.advance(minutes=10)
    clock.pause()
    now.advance(minutes=5)
    clock.resume()
    play_to_end(session, seed=2)
    now.advance(minutes=25)
    clock.observe(session.state)
    return store, session


def test_bgstats_has_the_fields_of_a_real_export_with_local_start_and_real_minutes(tmp_path):
    store, session = clocked_game(tmp_path)
    bg = json.loads(export_data(store, session.id, "bgstats", tz=CET))
    assert REAL_TOP <= set(bg)
    assert "http" not in bg["about"] and "example" not in bg["about"] and bg["about"]
    assert all(REAL_PLAYER <= set(p) for p in bg["players"])
    [game] = bg["games"]
    assert REAL_GAME <= set(game) and game["bggId"] == 0  # our own Gladiadores edition has no BGG entry
    [play] = bg["plays"]
    assert REAL_PLAY <= set(play)
    assert play["playDate"] == "2026-03-29 00:30:00"  # the start, in local time: the next day in Spain
    assert play["entryDate"] == "2026-03-29 01:10:00"  # the end
    assert play["durationMin"] == 35  # 40 minutes minus the 5-minute break
    for key in ("playDate", "entryDate", "modificationDate"):
        assert DATE.match(play[key]), play[key]
    final = session.state["final"]
    totals = {p["name"]: p for p in final["players"]}
    assert [s["seatOrder"] for s in play["playerScores"]] == [1, 2]
    for score in play["playerScores"]:
        assert REAL_SCORE <= set(score)
        name = bg["players"][score["playerRefId"] - 1]["name"]
        assert name == session.players[score["seatOrder"] - 1]
        assert score["score"] == str(totals[name]["total"]) and score["rank"] == totals[name]["rank"]
        assert score["winner"] == (name in final["winners"])
        assert score["startPlayer"] == (score["seatOrder"] - 1 == session.state["first_player"])


def test_the_bgg_id_comes_from_the_data(tmp_path):
    store = Store(tmp_path / "x.db")
    session = store.new_game("ciudadelas", ["Ana", "Luis", "Eva"], seed=1)
    assert session.data.meta["bgg"]["id"] == 478
    [game] = json.loads(export_data(store, session.id, "bgstats"))["games"]
    assert game["bggId"] == 478 and game["name"] == "Ciudadelas"


def test_bgstats_files_are_named_bgsplay():
    assert SUFFIXES["bgstats"] == "bgsplay"


def test_json_export_carries_the_clock(tmp_path):
    store, session = clocked_game(tmp_path)
    clock = json.loads(export_data(store, session.id, "json"))["clock"]
    assert clock["start"] == "2026-03-28T23:30:00+00:00" and clock["end"] == "2026-03-29T00:10:00+00:00"
    assert clock["minutes"] == 35 and clock["paused_minutes"] == 5 and clock["source"] == "clock"


def test_ids_as_history_prints_them_and_last(tmp_path):
    store = Store(tmp_path / "x.db")
    a = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    b = store.new_game("gladiadores", ["Ana", "Eva"], seed=2)
    assert find_game(store, a.id) == a.id
    assert find_game(store, a.id.split("-")[1]) == a.id  # the part after the date
    assert find_game(store, "last") in {a.id, b.id}
    assert find_game(store, "last") == store.history()[0]["id"]
    with pytest.raises(BadArgument, match="no game with id 'zzz'"):
        find_game(store, "zzz")
    with pytest.raises(BadArgument, match="several games"):
        find_game(store, a.id[:8])  # the date both ids start with


def run(args, stdin=None):
    return subprocess.run(LUDOTECA + args, input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_readme_command_and_action_line_work_with_the_shipped_actions(tmp_path):
    readme = (ROOT / "README.md").read_text("utf-8")
    command = re.search(r"^ludoteca play ciudadelas (.*) < examples/actions\.jsonl", readme, re.M)
    assert command, "README shows the play command with examples/actions.jsonl"
    shown = re.search(r"^(\{\"action\": .*\})$", readme, re.M)
    assert shown, "README shows an action line"
    lines = (ROOT / "examples" / "actions.jsonl").read_text("utf-8").splitlines()
    assert shown.group(1) in lines
    db = str(tmp_path / "r.db")
    import shlex

    args = ["play", "ciudadelas"] + shlex.split(command.group(1)) + ["--db", db]
    out = run(args, stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(lines) and all(a["ok"] for a in answers), out.stdout[-500:] + out.stderr
    game_id = answers[-1]["game_id"]
    hist = run(["history", "last", "--db", db])
    assert hist.returncode == 0 and game_id in hist.stdout and "1. Ana, 2. Luis, 3. Eva" in hist.stdout
    part = game_id.split("-")[1]
    bg = json.loads(run(["export", part, "--db", db, "--format", "bgstats"]).stdout)
    assert bg["plays"][0]["comments"].endswith(game_id) and bg["games"][0]["bggId"] == 478
    assert json.loads(run(["export", "last", "--db", db]).stdout)["id"] == game_id
    bad = run(["export", "nope", "--db", db])
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_history_shows_the_local_time_of_the_last_action(tmp_path):
    """The database keeps UTC; `history` shows the wall clock's time (TZ in the environment)."""
    import sqlite3
    store = Store(tmp_path / "x.db")
    game = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    store.close()
    with sqlite3.connect(tmp_path / "x.db") as conn:  # a last action at 23:30 UTC on 28 March 2026
        conn.execute("UPDATE games SET updated = '2026-03-28T23:30:00.000+00:00' WHERE id = ?", (game.id,))
    shown = {}
    for zone in ("UTC0", "JST-9", "ART3"):  # POSIX TZ: UTC, UTC+9 (Tokyo), UTC-3 (Buenos Aires)
        done = subprocess.run(LUDOTECA + ["history", "--db", str(tmp_path / "x.db")], capture_output=True,
                              text=True, timeout=120, cwd=ROOT, env={**os.environ, "TZ": zone})
        assert done.returncode == 0, done.stderr
        row = next(line for line in done.stdout.splitlines() if line.startswith(game.id))
        shown[zone] = re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", row).group()
    assert shown == {"UTC0": "2026-03-28 23:30", "JST-9": "2026-03-29 08:30", "ART3": "2026-03-28 20:30"}

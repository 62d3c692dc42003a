"""`ludoteca play`, `history` and `export` as a user runs them, plus the SIGKILL crash test."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from ludoteca.companion.engine import Store
from test_engine_helpers import play_to_end

LUDOTECA = [sys.executable, "-m", "ludoteca"]
PLAYERS = {"ciudadelas": "Ana,Luis,Eva,Pablo", "gladiadores": "Ana,Luis,Eva", "el_mapa": "Ana,Luis"}


def run(args, stdin=None):
    return subprocess.run(LUDOTECA + args, input=stdin, capture_output=True, text=True, timeout=120)


def scripted_game(tmp_path, game, seed):
    """The actions of a whole game, found by playing it in memory with the same seed."""
    store = Store(tmp_path / "plan.db")
    s = store.new_game(game, PLAYERS[game].split(","), seed=seed)
    play_to_end(s, seed=seed)
    return s


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_play_a_whole_game_through_the_command_line(tmp_path, game):
    plan = scripted_game(tmp_path, game, seed=5)
    db = tmp_path / "cli.db"
    lines = [json.dumps(a) for a in plan.actions]
    lines.insert(3, '{"action": "no_such_action"}')
    lines.insert(5, "not json")
    out = run(["play", game, "--players", PLAYERS[game], "--db", str(db), "--seed", "5"],
              "\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert answers[3]["ok"] is False and "no_such_action" in answers[3]["error"]
    assert answers[5]["ok"] is False and "JSON" in answers[5]["error"]
    oks = [a for a in answers if a["ok"]]
    assert [a["seq"] for a in oks] == list(range(1, len(plan.actions) + 1))
    last = oks[-1]["state"]
    assert last["finished"] and last["final"] == plan.state["final"]
    game_id = oks[-1]["game_id"]

    hist = run(["history", "--db", str(db), "--json"])
    [row] = json.loads(hist.stdout)
    assert row["id"] == game_id and row["status"] == "finished" and row["actions"] == len(plan.actions)
    assert row["winners"] == plan.state["final"]["winners"]
    table = run(["history", "--db", str(db)])
    assert game_id in table.stdout and "finished" in table.stdout

    exp = json.loads(run(["export", game_id, "--db", str(db), "--format", "json"]).stdout)
    assert exp["players"] == PLAYERS[game].split(",") and exp["actions"] == plan.actions
    assert exp["state"]["final"] == plan.state["final"]
    rows = list(csv.DictReader(io.StringIO(run(["export", game_id, "--db", str(db), "--format", "log"]).stdout)))
    assert len(rows) == len(plan.actions) and rows[0]["seq"] == "1"
    scores = list(csv.DictReader(io.StringIO(run(["export", game_id, "--db", str(db), "--format", "csv"]).stdout)))
    assert [(r["player"], int(r["total"])) for r in scores] == [(p["name"], p["total"]) for p in sorted(
        plan.state["final"]["players"], key=lambda p: PLAYERS[game].split(",").index(p["name"]))]
    bg = json.loads(run(["export", game_id, "--db", str(db), "--format", "bgstats"]).stdout)
    [play] = bg["plays"]
    scores = {bg["players"][s["playerRefId"] - 1]["name"]: s for s in play["playerScores"]}
    for p in plan.state["final"]["players"]:
        assert scores[p["name"]]["score"] == str(p["total"])
        assert scores[p["name"]]["winner"] == (p["name"] in plan.state["final"]["winners"])
    assert bg["games"][0]["id"] == play["gameRefId"] and play["playDate"]


def test_resume_with_game_id_and_export_to_file(tmp_path):
    db = str(tmp_path / "r.db")
    first = run(["play", "ciudadelas", "--players", "Ana,Luis,Eva", "--db", db, "--seed", "1"],
                '{"action": "adjust", "player": "Eva", "resource": "gold", "delta": 4}\n')
    gid = json.loads(first.stdout)["game_id"]
    second = run(["play", "ciudadelas", "--game-id", gid, "--db", db],
                 '{"action": "adjust", "player": "Eva", "resource": "gold", "delta": 1}\n')
    answer = json.loads(second.stdout)
    assert answer["seq"] == 2 and answer["state"]["players"][2]["gold"] == 2 + 4 + 1
    out = run(["export", gid, "--db", db, "--format", "json", "--out", str(tmp_path / "e" / "g.json")])
    assert out.returncode == 0
    assert len(json.loads((tmp_path / "e" / "g.json").read_text())["actions"]) == 2


@pytest.mark.parametrize("args, message", [
    (["play", "parchis", "--players", "Ana,Luis"], "unknown game"),
    (["play", "ciudadelas"], "--players"),
    (["play", "ciudadelas", "--players", "Ana"], "2 to 7 players"),
    (["play", "gladiadores", "--game-id", "nope"], "no game with id"),
    (["export", "nope", "--format", "json"], "no database here"),
    (["export", "x", "--format", "pdf"], "invalid choice"),
])
def test_command_line_errors_are_one_line(tmp_path, args, message):
    out = run(args + ["--db", str(tmp_path / "e.db")])
    assert out.returncode == 2
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


def test_actions_lists_every_action():
    out = run(["play", "ciudadelas", "--actions"])
    assert out.returncode == 0
    for name in ("adjust", "undo", "redo", "choose", "call", "build", "destroy"):
        assert any(line.startswith(name + " ") for line in out.stdout.splitlines())


def test_sigkill_never_loses_an_acknowledged_action(tmp_path):
    """Kill ``play`` at random moments; the client resends every action it has no answer for, and
    some it has, with the same ids: nothing acknowledged is lost and nothing is applied twice."""
    db = tmp_path / "crash.db"
    rnd = random.Random(1234)
    game_id = None
    acknowledged: dict[int, dict] = {}
    seq_of_id: dict[str, int] = {}
    # every action differs from its neighbours (player and a wide delta), so a stored row that is
    # not the one acknowledged at its seq (shifted, repeated, mixed up) fails the comparison below
    planned = [{"id": f"a{k}", "action": "adjust", "player": rnd.choice(["Ana", "Luis", "Eva"]),
                "resource": "gold", "delta": rnd.randint(1, 10**6)} for k in range(3000)]
    sent_upto = 0  # planned[:sent_upto] have been sent at least once
    kills = repeats = 0
    while kills < 22:
        args = ["play", "ciudadelas", "--db", str(db)]
        args += ["--game-id", game_id] if game_id else ["--players", "Ana,Luis,Eva", "--seed", "3"]
        proc = subprocess.Popen(LUDOTECA + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, bufsize=1)
        again = [acknowledged[seq]["sent"] for seq in sorted(acknowledged)[-3:]]  # answered, sent again
        batch = again + [a for a in planned[:sent_upto + 200] if a["id"] not in seq_of_id]
        feeder = threading.Thread(target=_feed, args=(proc, batch), daemon=True)
        feeder.start()  # a thread: answers fill the pipe back while lines are still being sent
        first = proc.stdout.readline()  # start-up is over: kill at a random moment in the stream
        time.sleep(rnd.random() * 0.3)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        kills += 1
        out = first + proc.stdout.read()
        answers = []
        for line in out.splitlines():
            try:
                answers.append(json.loads(line))
            except ValueError:
                continue  # a line cut by the kill was never acknowledged
        for sent, answer in zip(batch, answers):  # one answer per line, in the order sent
            assert answer.get("ok"), answer
            game_id = answer["game_id"]
            if sent["id"] in seq_of_id:
                assert answer.get("repeated") and answer["seq"] == seq_of_id[sent["id"]], answer
                repeats += 1
                continue
            assert answer["seq"] not in acknowledged, "two acknowledgements for one seq"
            seq_of_id[sent["id"]] = answer["seq"]
            acknowledged[answer["seq"]] = {"sent": sent, "state": answer["state"]}
        sent_upto += 200
    assert kills >= 20 and len(acknowledged) > 20 and repeats > 0
    conn = sqlite3.connect(db)
    rows = {seq: (json.loads(action), cid) for seq, action, cid in conn.execute(
        "SELECT seq, action, client_id FROM actions WHERE game_id = ?", (game_id,))}
    ids = [cid for _, cid in rows.values()]
    assert len(ids) == len(set(ids)), "an action id applied twice"
    for seq, answer in acknowledged.items():
        assert seq in rows, f"acknowledged action {seq} lost"
        sent = dict(answer["sent"])
        assert rows[seq] == ({k: v for k, v in sent.items() if k != "id"}, sent["id"]), \
            f"the action stored at {seq} is not the one acknowledged"
    reopened = Store(db).open(game_id)
    assert reopened.seq >= max(acknowledged)
    top = acknowledged[max(acknowledged)]["state"]
    replay = Store(db)
    assert replay.notice is None
    assert [p["gold"] for p in top["players"]] == [
        p["gold"] for p in _state_at(replay, game_id, max(acknowledged))["players"]]


def _feed(proc: subprocess.Popen, batch: list[dict]) -> None:
    try:
        for a in batch:
            proc.stdin.write(json.dumps(a) + "\n")
        proc.stdin.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass  # killed while lines were still being sent


def _state_at(store, game_id, seq):
    """The state after the first ``seq`` rows of the log (a fresh fold of the stored actions)."""
    from ludoteca.companion.engine.session import Session
    row = store.conn.execute("SELECT game, players, seed, options FROM games WHERE id=?", (game_id,)).fetchone()
    rows = [r["action"] for r in store.log(game_id)[:seq]]
    return Session(store, game_id, row[0], json.loads(row[1]), row[2], json.loads(row[3]), rows, seq).state


def test_play_refuses_an_unknown_key_and_stores_nothing_of_it(tmp_path):
    db = str(tmp_path / "k.db")
    lines = [{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1, "foo": 1},
             {"action": "adjust", "player": "Ana", "resource": "gold"},
             {"action": "adjust", "player": "Ana", "resource": "gold", "delta": 2}]
    out = run(["play", "ciudadelas", "--players", "Ana,Luis", "--db", db, "--seed", "1"],
              stdin="".join(json.dumps(a) + "\n" for a in lines))
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [False, False, True]
    assert "'foo'" in answers[0]["error"] and "resource" in answers[0]["error"]
    assert "needs 'delta'" in answers[1]["error"]
    assert answers[2]["seq"] == 1
    exported = run(["export", answers[2]["game_id"], "--db", db, "--format", "json"])
    assert exported.returncode == 0 and "foo" not in exported.stdout
    assert json.loads(exported.stdout)["actions"] == [lines[2]]

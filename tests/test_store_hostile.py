"""The database against what users and disks do to it: foreign files, damage, read-only, full disks,
resent actions.  Recovery is measured on nine kinds of damage to a database of 900 actions."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from clirun import ludoteca
from ludoteca.companion.engine import BadArgument, Store, StoreError
from ludoteca.companion.engine.recover import carve_files
from ludoteca.companion.engine.store import NoDatabase, NotOurs

LUDOTECA = [sys.executable, "-m", "ludoteca"]
ADJUST = {"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1}


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    """``ludoteca ARGS`` in this process (tests/clirun.py): what it answers on stdout and stderr,
    its exit code, what it leaves on disk."""
    return ludoteca(*args, stdin=stdin or "")


def one_game(path: Path, actions: int = 3) -> str:
    store = Store(path)
    session = store.new_game("ciudadelas", ["Ana", "Luis", "Eva"], seed=1)
    for k in range(actions):
        session.apply(dict(ADJUST, delta=k + 1))
    store.close()
    return session.id


@pytest.mark.parametrize("command", [["history"], ["history", "--json"], ["export", "x"],
                                     ["play", "ciudadelas", "--players", "Ana,Luis"]])
def test_a_text_file_is_refused_and_left_unchanged(tmp_path, command):
    notes = tmp_path / "notes.txt"
    notes.write_text("Comprar pan.\nLlamar a Luis.\n", encoding="utf-8")
    out = run(command + ["--db", str(notes)], stdin="")
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip() == f"ludoteca: error: {notes}: not a Ludoteca database (not an SQLite file); " \
                                 "it was left unchanged"
    assert notes.read_text(encoding="utf-8") == "Comprar pan.\nLlamar a Luis.\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_another_programs_sqlite_database_is_refused(tmp_path):
    other = tmp_path / "photos.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE photos (name TEXT)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with pytest.raises(NotOurs, match="another program"):
        Store(other)
    assert other.read_bytes() == before and not Path(f"{other}-wal").exists()


def test_history_on_a_missing_path_creates_nothing(tmp_path):
    path = tmp_path / "sub" / "none.db"
    out = run(["history", "--db", str(path), "--json"])
    assert out.returncode == 0 and json.loads(out.stdout) == []
    assert "no database here" in out.stderr
    assert not path.exists() and not path.parent.exists()
    with pytest.raises(NoDatabase):
        Store(path, readonly=True)


def test_history_and_export_on_a_read_only_file_and_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "games.db"
    game_id = one_game(path)
    path.chmod(stat.S_IRUSR)
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        if os.access(path, os.W_OK):  # root writes anyway: also check the code never asks to
            pytest.skip("running as a user who can write read-only files")
        out = run(["history", "--db", str(path), "--json"])
        assert out.returncode == 0, out.stderr
        assert [g["id"] for g in json.loads(out.stdout)] == [game_id]
        out = run(["export", game_id, "--db", str(path), "--format", "csv"])
        assert out.returncode == 0, out.stderr and len(out.stdout.splitlines()) == 4
    finally:
        folder.chmod(stat.S_IRWXU)
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_read_only_store_reads_without_writing(tmp_path):
    path = tmp_path / "games.db"
    game_id = one_game(path)
    before = path.read_bytes()
    store = Store(path, readonly=True)
    assert [g["id"] for g in store.history()] == [game_id]
    assert store.open(game_id).seq == 3
    with pytest.raises(StoreError, match="read-only"):
        store.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
    store.close()
    assert path.read_bytes() == before


def test_a_full_disk_is_a_clear_error(tmp_path, monkeypatch):
    store = Store(tmp_path / "full.db")
    session = store.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
    real = store.conn

    class FullDisk:
        """The connection of a disk with no space left: every write fails as SQLite says it."""

        def execute(self, sql, *args):
            if sql.startswith(("INSERT", "UPDATE", "COMMIT")):
                raise sqlite3.OperationalError("database or disk is full")
            return real.execute(sql, *args)

    monkeypatch.setattr(store, "conn", FullDisk())
    with pytest.raises(StoreError, match="the disk is full; free some space") as err:
        store.new_game("gladiadores", ["Ana", "Luis"], seed=2)
    assert "nothing was saved" in str(err.value)
    with pytest.raises(StoreError, match="the disk is full"):
        session.apply(ADJUST)
    monkeypatch.setattr(store, "conn", real)
    assert session.seq == 0 and [g["id"] for g in store.history()] == [session.id]
    assert session.apply(ADJUST)["players"][0]["gold"] == 3


@pytest.mark.parametrize("free_kb", [24, 120])
def test_a_full_disk_on_a_real_small_filesystem(tmp_path, free_kb):
    """A 600 KB tmpfs (when this test may mount one), full at the start or while playing: `play`
    ends with one line saying the disk is full, never a traceback."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        (mount / "filler").write_bytes(b"\0" * ((600 - free_kb) * 1024))
        lines = "".join(json.dumps(dict(ADJUST, delta=k)) + "\n" for k in range(2000))
        # a process of its own: the one that ends on the full disk lets go of the mount
        out = subprocess.run(LUDOTECA + ["play", "ciudadelas", "--players", "Ana,Luis", "--db", str(mount / "g.db")],
                             input=lines, capture_output=True, text=True, timeout=120)
        assert out.returncode in (1, 2) and "Traceback" not in out.stderr + out.stdout
        assert "the disk is full" in out.stderr + out.stdout
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def test_a_resent_action_id_is_acknowledged_again_not_applied_twice(tmp_path):
    store = Store(tmp_path / "ids.db")
    session = store.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
    first = session.apply(dict(ADJUST, id="tap-1", delta=5))
    assert (session.seq, session.acknowledged, session.repeated) == (1, 1, False)
    session.apply(dict(ADJUST, id=7, delta=1))
    again = session.apply(dict(ADJUST, id="tap-1", delta=5))
    assert (session.seq, session.acknowledged, session.repeated) == (2, 1, True)
    assert again["players"][0]["gold"] == first["players"][0]["gold"] + 1 == 2 + 5 + 1
    reopened = Store(tmp_path / "ids.db").open(session.id)
    reopened.apply(dict(ADJUST, id="7", delta=1))
    assert reopened.repeated and reopened.seq == 2
    for bad in (True, "", "x" * 101, 1.5, [1], {"a": 1}):
        with pytest.raises(BadArgument, match='"id"'):
            reopened.apply(dict(ADJUST, id=bad))


def test_resent_ids_through_play(tmp_path):
    db = str(tmp_path / "p.db")
    lines = [dict(ADJUST, id="a", delta=2), dict(ADJUST, id="b", delta=3), dict(ADJUST, id="a", delta=2)]
    out = run(["play", "ciudadelas", "--players", "Ana,Luis", "--db", db, "--seed", "1"],
              "".join(json.dumps(a) + "\n" for a in lines))
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert [(a["ok"], a["seq"], a.get("repeated", False)) for a in answers] == [
        (True, 1, False), (True, 2, False), (True, 1, True)]
    assert answers[2]["state"]["players"][0]["gold"] == 2 + 2 + 3
    exported = json.loads(run(["export", answers[0]["game_id"], "--db", db]).stdout)
    assert exported["actions"] == [dict(ADJUST, delta=2), dict(ADJUST, delta=3)]


@pytest.mark.parametrize("seed, ok", [("0", True), (str(2**63 - 1), True), (str(2**63), False),
                                      ("9" * 50, False), ("-1", False), ("1e9", False)])
def test_seed_bounds(tmp_path, seed, ok):
    out = run(["play", "gladiadores", "--players", "Ana,Luis", "--db", str(tmp_path / "s.db"),
               f"--seed={seed}"], "")
    assert "Traceback" not in out.stderr
    if ok:
        assert out.returncode == 0, out.stderr
    else:
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
        assert "expected a whole number from 0 to 9223372036854775807" in out.stderr


def test_store_refuses_a_seed_sqlite_cannot_hold():
    with pytest.raises(BadArgument, match="seed"):
        Store(":memory:").new_game("gladiadores", ["Ana", "Luis"], seed=10**50)


def test_a_huge_or_deep_play_line_is_one_error_and_the_session_goes_on(tmp_path):
    lines = ["[" * 30_000 + "]" * 30_000, '{"action": "adjust", "x": "' + "y" * 200_000 + '"}',
             json.dumps(ADJUST)]
    out = run(["play", "ciudadelas", "--players", "Ana,Luis", "--db", str(tmp_path / "l.db")],
              "\n".join(lines) + "\n")
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [False, False, True]
    assert "nesting of at most 64 levels" in answers[0]["error"]
    assert "at most 65,536 bytes" in answers[1]["error"]
    assert answers[2]["seq"] == 1


# -- recovery ------------------------------------------------------------------------------------

def _damage(path: Path, kind: str) -> None:
    data = bytearray(path.read_bytes())
    rnd = random.Random(kind)
    size = len(data)
    if kind == "header_zeroed":
        data[:100] = bytes(100)
    elif kind == "first_page_zeroed":
        data[:4096] = bytes(4096)
    elif kind == "truncated_half":
        del data[size // 2:]
    elif kind == "middle_pages_zeroed":
        data[size // 3:size // 3 + 8192] = bytes(8192)
    elif kind == "random_bytes_200":
        for _ in range(200):
            data[rnd.randrange(size)] = rnd.randrange(256)
    elif kind == "every_fifth_page_zeroed":
        for page in range(0, size // 4096, 5):
            data[page * 4096:(page + 1) * 4096] = bytes(4096)
    elif kind == "garbage_appended_and_header":
        data[:16] = b"Not SQLite here!"
        data += os.urandom(20000)
    elif kind == "page_pointers_scrambled":
        for page in range(1, size // 4096):
            start = page * 4096
            data[start:start + 40] = bytes(rnd.randrange(256) for _ in range(40))
    elif kind == "torn_tail":
        del data[size - 3000:]
        data += bytes(1000)
    path.write_bytes(bytes(data))


DAMAGE = ["header_zeroed", "first_page_zeroed", "truncated_half", "middle_pages_zeroed",
          "random_bytes_200", "every_fifth_page_zeroed", "garbage_appended_and_header",
          "page_pointers_scrambled", "torn_tail"]


@pytest.fixture(scope="module")
def nine_hundred(tmp_path_factory) -> Path:
    """Three Ciudadelas games of 300 actions each, closed cleanly."""
    path = tmp_path_factory.mktemp("src") / "ludoteca.db"
    store = Store(path)
    rnd = random.Random(9)
    for g in range(3):
        session = store.new_game("ciudadelas", ["Ana", "Luis", "Eva"], seed=g)
        for k in range(300):
            session.apply({"id": f"{g}-{k}", "action": "adjust", "player": rnd.choice(["Ana", "Luis", "Eva"]),
                           "resource": "gold", "delta": rnd.randint(1, 9)})
    store.close()
    return path


@pytest.mark.parametrize("kind", DAMAGE)
def test_every_readable_action_is_recovered(tmp_path, nine_hundred, kind):
    path = tmp_path / "ludoteca.db"
    shutil.copy(nine_hundred, path)
    _damage(path, kind)
    damaged = path.read_bytes()
    readable = carve_files([path])
    store = Store(path)
    report = store.recovery
    assert store.moved_to.read_bytes() == damaged
    assert report.actions_found == len(readable.actions) > 0
    restored = store.conn.execute("SELECT count(*) FROM actions").fetchone()[0]
    apart = store.conn.execute("SELECT count(*) FROM unreplayed").fetchone()[0]
    assert (restored, apart) == (report.actions, report.apart)
    assert restored + apart == report.actions_found  # every readable action is in the new file
    for game in store.history():  # and every recovered game opens and replays
        assert store.open(game["id"]).seq == game["seq"]
    ids = [r[0] for r in store.conn.execute("SELECT client_id FROM actions")]
    assert len(ids) == len(set(ids))
    print(f"{kind}: {report.actions_found}/900 readable, {report.actions} replayed, {report.apart} apart")
    if kind in ("header_zeroed", "first_page_zeroed", "garbage_appended_and_header"):
        assert (report.actions, report.games) == (900, 3)


def test_recovery_reads_the_write_ahead_log(tmp_path):
    """Actions still only in the -wal (the process was killed) are recovered too."""
    path = tmp_path / "w.db"
    code = ("import sys, os; from ludoteca.companion.engine import Store; s = Store(sys.argv[1]);"
            "g = s.new_game('gladiadores', ['Ana', 'Luis'], seed=1);"
            "[g.apply({'action': 'adjust', 'player': 'Ana', 'resource': 'coins', 'delta': 1}) for _ in range(40)];"
            "os._exit(0)")
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, env=dict(os.environ))
    assert Path(f"{path}-wal").stat().st_size > 0
    data = bytearray(path.read_bytes())
    data[:100] = bytes(100)
    path.write_bytes(bytes(data))
    store = Store(path)
    assert (store.recovery.actions, store.recovery.games) == (40, 1)


def test_csv_export_neutralises_formulas(tmp_path):
    """OWASP's CSV injection: a cell starting with = + - @ tab or CR is written with a leading '."""
    import csv
    import io

    db = str(tmp_path / "c.db")
    names = ['=HYPERLINK("http://x.invalid","clic")', "+1", "-2", "@SUM(A1)", "\tTab", "\rCr", "Ana"]
    store = Store(db)
    session = store.new_game("ciudadelas", names, seed=1)
    for name in names:
        session.apply({"action": "adjust", "player": name, "resource": "gold", "delta": -1})
    store.close()
    out = subprocess.run(LUDOTECA + ["export", session.id, "--db", db, "--format", "log"],
                         capture_output=True, timeout=120)
    rows = list(csv.DictReader(io.StringIO(out.stdout.decode("utf-8"), newline="")))
    assert [r["player"] for r in rows] == ["'" + n for n in names[:-1]] + ["Ana"]
    assert all(r["arguments"] == '{"resource": "gold", "delta": -1}' for r in rows)
    scores = subprocess.run(LUDOTECA + ["export", session.id, "--db", db, "--format", "csv"],
                            capture_output=True, timeout=120)
    players = [r["player"] for r in csv.DictReader(io.StringIO(scores.stdout.decode("utf-8"), newline=""))]
    assert players and all(p[0] not in "=+-@\t\r" for p in players if p), players

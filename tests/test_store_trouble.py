"""What an SQLite error says about the database file, and what the store does with it: only a
damaged file is ever set aside; a full disk, a read-only mount, a busy or unopenable file leave
it exactly where it is with one line saying why.  A second writer racing for the same action is
refused, never acknowledged.

Full disks and read-only mounts are made without root: SQLite's real errors (raised by SQLite
itself, with their real codes and messages) are handed back by a patched ``sqlite3.connect``;
``tests/test_store_hostile.py`` also runs them on a real small filesystem where one can be mounted.
"""

from __future__ import annotations

import io
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections import namedtuple
from pathlib import Path

import pytest

from ludoteca.cli import main
from ludoteca.companion.engine import BadArgument, Store, StoreError
from ludoteca.companion.engine import store as store_module
from ludoteca.companion.engine.trouble import (BUSY, DAMAGED, FULL, READ_ONLY, UNREACHABLE, Damage,
                                               trouble)

ADJUST = {"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1}
REAL_CONNECT = sqlite3.connect


def one_game(path: Path, actions: int = 3) -> str:
    store = Store(path)
    session = store.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
    for _ in range(actions):
        session.apply(ADJUST)
    store.close()
    return session.id


def raised(call) -> sqlite3.Error:
    """The error SQLite itself raises for ``call``."""
    try:
        call()
    except sqlite3.Error as exc:
        return exc
    raise AssertionError("SQLite raised nothing")


def cant_open(tmp_path: Path) -> sqlite3.Error:
    """SQLite's own SQLITE_CANTOPEN (what a read-only mount gives a WAL file without its -shm)."""
    return raised(lambda: REAL_CONNECT(f"{(tmp_path / 'nowhere' / 'x.db').as_uri()}?mode=ro", uri=True))


def shm_full() -> sqlite3.Error:
    """SQLite's SQLITE_IOERR_SHMSIZE, as a full disk gives it when the -shm cannot grow."""
    exc = sqlite3.OperationalError("disk I/O error")
    exc.sqlite_errorcode, exc.sqlite_errorname = 4874, "SQLITE_IOERR_SHMSIZE"
    return exc


def hold(path: Path) -> sqlite3.Connection:
    """A connection in the middle of writing with the file locked for itself (readers get BUSY)."""
    holder = REAL_CONNECT(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO unreplayed VALUES ('x', 1, 'a', 'b', NULL, 'r')")
    return holder


def cli(argv: list[str], monkeypatch, capsys, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def failing_connect(monkeypatch, error: sqlite3.Error, when=lambda target: True) -> None:
    """``sqlite3.connect`` as on a disk where SQLite reports ``error`` for targets ``when`` picks."""

    class Refusing:
        def execute(self, *args):
            raise error

        def close(self):
            pass

    def connect(target, *args, **kwargs):
        return Refusing() if when(str(target)) else REAL_CONNECT(target, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)


# -- the classification ---------------------------------------------------------------------------

def test_each_real_sqlite_error_is_classified(tmp_path):
    path = tmp_path / "g.db"
    one_game(path, actions=40)
    healthy = path.read_bytes()
    readonly = REAL_CONNECT(f"{path.as_uri()}?mode=ro", uri=True)
    assert trouble(raised(lambda: readonly.execute("DELETE FROM actions"))) == READ_ONLY
    readonly.close()

    holder = hold(path)
    other = REAL_CONNECT(path, timeout=0)
    assert trouble(raised(lambda: other.execute("SELECT count(*) FROM games").fetchone())) == BUSY
    holder.execute("ROLLBACK")
    other.close()
    holder.close()

    full = REAL_CONNECT(path, isolation_level=None)
    pages = full.execute("PRAGMA page_count").fetchone()[0]
    full.execute(f"PRAGMA max_page_count = {pages}")  # a database that may not grow: SQLITE_FULL
    error = raised(lambda: full.executemany("INSERT INTO unreplayed VALUES ('x', 1, ?, 'a', NULL, 'r')",
                                            [("y" * 3000,)] * 50))
    assert (error.sqlite_errorname, trouble(error)) == ("SQLITE_FULL", FULL)
    full.close()

    assert trouble(cant_open(tmp_path), tmp_path / "nowhere" / "x.db") == UNREACHABLE
    (tmp_path / "notes.db").write_bytes(b"SQLite format 3\x00" + b"\x07" * 8000)
    assert trouble(raised(lambda: REAL_CONNECT(tmp_path / "notes.db").execute("SELECT 1 FROM games"))) == DAMAGED
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(healthy[:4096] + b"\xee" * (len(healthy) - 4096))
    assert trouble(raised(lambda: REAL_CONNECT(damaged).execute("SELECT * FROM actions").fetchall())) == DAMAGED
    assert trouble(Damage("integrity check failed: page 4")) == DAMAGED
    assert trouble(OSError(28, "No space left on device")) == FULL


def test_an_io_error_on_a_full_disk_is_a_full_disk_and_elsewhere_not_damage(tmp_path, monkeypatch):
    path = tmp_path / "g.db"
    assert trouble(shm_full(), path) == UNREACHABLE
    monkeypatch.setattr(shutil, "disk_usage", lambda p: namedtuple("Usage", "total used free")(10, 10, 0))
    assert trouble(shm_full(), path) == FULL


# -- the repros: a healthy file is never set aside -------------------------------------------------

def test_play_on_a_full_disk_says_so_and_leaves_the_database_alone(tmp_path, monkeypatch, capsys):
    """The issue's repro: `play --game-id ID --db g.db`, disk full, the database closed cleanly."""
    path = tmp_path / "g.db"
    game_id = one_game(path)
    before = path.read_bytes()
    failing_connect(monkeypatch, shm_full())
    monkeypatch.setattr(shutil, "disk_usage", lambda p: namedtuple("Usage", "total used free")(10, 10, 0))
    code, out, err = cli(["play", "ciudadelas", "--game-id", game_id, "--db", str(path)], monkeypatch, capsys,
                         '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1}\n')
    assert code == 2 and out == ""
    assert err == (f"ludoteca: error: {path}: cannot open the database: the disk is full; free some space and "
                   "try again (nothing was saved)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"] and path.read_bytes() == before
    monkeypatch.setattr(sqlite3, "connect", REAL_CONNECT)
    assert Store(path).open(game_id).seq == 3


@pytest.mark.parametrize("command", [["history"], ["history", "last"], ["export", "last", "--format", "log"]])
def test_history_and_export_read_a_healthy_database_on_a_read_only_mount(tmp_path, monkeypatch, capsys, command):
    """SQLite cannot open a WAL file for reading alone where no -shm can be made: it is read as it is."""
    path = tmp_path / "g.db"
    game_id = one_game(path)
    failing_connect(monkeypatch, cant_open(tmp_path), when=lambda target: "mode=ro" in target)
    code, out, err = cli([*command, "--db", str(path)], monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert game_id in out or len(out.splitlines()) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"]


def test_play_on_an_unopenable_database_leaves_it_alone(tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.db"
    game_id = one_game(path)
    before = path.read_bytes()
    failing_connect(monkeypatch, cant_open(tmp_path))
    code, out, err = cli(["play", "ciudadelas", "--game-id", game_id, "--db", str(path)], monkeypatch, capsys)
    assert code == 2 and err == f"ludoteca: error: {path}: cannot open the database: unable to open database file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"] and path.read_bytes() == before


def test_a_file_the_probe_cannot_read_is_not_taken_for_ours(tmp_path, monkeypatch):
    """store.py's probe: when it cannot look inside (an error other than damage), nothing writes to
    the file, even if a writable connection would open it (here another program's database)."""
    path = tmp_path / "photos.db"
    conn = REAL_CONNECT(path)
    conn.execute("CREATE TABLE photos (name TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    failing_connect(monkeypatch, cant_open(tmp_path), when=lambda target: "mode=ro" in target)
    with pytest.raises(StoreError, match="cannot open the database: unable to open database file"):
        Store(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photos.db"] and path.read_bytes() == before


def test_a_database_held_by_another_program_is_not_touched(tmp_path, monkeypatch):
    """store.py's probe: an error other than damage (here: busy) is neither damage nor health."""
    path = tmp_path / "g.db"
    one_game(path)
    before = path.read_bytes()
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.05)
    holder = hold(path)
    try:
        for readonly in (False, True):
            with pytest.raises(StoreError, match="another program .* is using it") as err:
                Store(path, readonly=readonly)
            assert "otro programa" in err.value.text["es"]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"] and path.read_bytes() == before


def test_a_probe_error_that_is_damage_sets_the_file_aside(tmp_path):
    """An unknown file format (SQLite's plain SQLITE_ERROR, not "malformed") on a Ludoteca file."""
    path = tmp_path / "g.db"
    game_id = one_game(path)
    data = bytearray(path.read_bytes())
    data[44:48] = (99).to_bytes(4, "big")  # schema format number: no SQLite knows format 99
    path.write_bytes(bytes(data))
    error = raised(lambda: REAL_CONNECT(f"{path.as_uri()}?mode=ro", uri=True).execute("SELECT * FROM sqlite_master"))
    assert isinstance(error, sqlite3.OperationalError) and trouble(error) == DAMAGED
    store = Store(path)
    assert store.moved_to is not None and store.recovery.actions == 3
    assert store.open(game_id).seq == 3


def test_a_database_of_a_newer_ludoteca_is_left_alone(tmp_path):
    path = tmp_path / "g.db"
    one_game(path)
    conn = REAL_CONNECT(path)
    conn.execute("PRAGMA user_version = 9")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer Ludoteca"):
        Store(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"] and path.read_bytes() == before


# -- two writers ----------------------------------------------------------------------------------

def test_a_second_writer_racing_for_the_same_seq_is_refused_not_acknowledged(tmp_path):
    """Two stores on one file, both at seq 1: the second commit loses and says so; its session is
    unchanged and the file holds only the winner's action (store.py's IntegrityError)."""
    path = tmp_path / "g.db"
    first = Store(path)
    game = first.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
    game.apply(ADJUST)
    second = Store(path).open(game.id)
    game.apply(dict(ADJUST, delta=5, id="tap-a"))
    gold = second.state["players"][1]["gold"]
    with pytest.raises(StoreError, match="changed by another program and this action was not saved"):
        second.apply({"action": "adjust", "player": "Luis", "resource": "gold", "delta": 7, "id": "tap-b"})
    assert (second.seq, second.acknowledged, second.state["players"][1]["gold"]) == (1, 1, gold)
    log = Store(path).log(game.id)
    assert [row["action"]["delta"] for row in log] == [1, 5]
    assert second.store.seq_of(game.id, "tap-b") is None


def test_racing_writers_through_threads_lose_no_acknowledged_action(tmp_path):
    """Four stores on one file append to one game at once: every acknowledged action is in the
    file, in its place, and no two share a seq."""
    path = tmp_path / "g.db"
    game_id = Store(path).new_game("ciudadelas", ["Ana", "Luis"], seed=1).id
    acknowledged: list[tuple[int, str]] = []
    lock = threading.Lock()

    def writer(name: str) -> None:
        store = Store(path)
        for k in range(15):
            session = store.open(game_id)
            try:
                session.apply(dict(ADJUST, id=f"{name}-{k}"))
            except StoreError:
                continue
            with lock:
                acknowledged.append((session.acknowledged, f"{name}-{k}"))
        store.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in "abcd"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    conn = REAL_CONNECT(path)
    saved = dict(conn.execute("SELECT seq, client_id FROM actions WHERE game_id = ?", (game_id,)).fetchall())
    conn.close()
    assert acknowledged and all(saved.get(seq) == cid for seq, cid in acknowledged)
    assert sorted(saved) == list(range(1, len(saved) + 1)) == sorted(seq for seq, _ in acknowledged)


# -- the same on a real small filesystem, where one can be mounted --------------------------------

@pytest.fixture
def small_mount(tmp_path):
    mount = tmp_path / "small"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def test_full_and_read_only_on_a_real_filesystem(small_mount, monkeypatch, capsys):
    path = small_mount / "g.db"
    game_id = one_game(path)
    before = path.read_bytes()
    filler = small_mount / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
                f.flush()
        except OSError:
            pass
    code, _, err = cli(["play", "ciudadelas", "--game-id", game_id, "--db", str(path)], monkeypatch, capsys,
                       '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1}\n')
    assert code == 2 and "the disk is full" in err and path.read_bytes() == before
    assert not list(small_mount.glob("g.db.damaged-*"))
    filler.unlink()
    for extra in small_mount.glob("g.db-*"):
        extra.unlink()
    assert subprocess.run(["mount", "-o", "remount,ro", str(small_mount)], capture_output=True).returncode == 0
    code, out, err = cli(["history", "--db", str(path)], monkeypatch, capsys)
    assert (code, err) == (0, "") and game_id in out
    code, out, err = cli(["play", "ciudadelas", "--game-id", game_id, "--db", str(path)], monkeypatch, capsys)
    assert code == 2 and "read-only" in err and os.listdir(small_mount) == ["g.db"]


# -- rows a healthy SQLite file holds but Ludoteca never wrote ------------------------------------

BAD_GAME_ROWS = ["created = 'nope'", "updated = '2026-11-25Tnope'", "players = 'notjson'", "players = '[1, 2]'",
                 "options = 'x'", "seed = 'x'", "final = '{bad'",
                 "status = 'finished', final = '{\"players\": 5, \"winners\": []}'",
                 "status = 'finished', final = '{\"players\": [{\"name\": \"Ana\"}], \"winners\": [\"Ana\"]}'"]


@pytest.mark.parametrize("change", BAD_GAME_ROWS)
def test_a_damaged_game_row_is_left_out_with_a_note(tmp_path, monkeypatch, capsys, change):
    path = tmp_path / "g.db"
    bad = one_game(path)
    good = one_game(path)
    conn = REAL_CONNECT(path)
    conn.execute(f"UPDATE games SET {change} WHERE id = ?", (bad,))
    conn.commit()
    conn.close()
    note = f"ludoteca: note: 1 game(s) left out, their saved row is damaged: {bad}\n"
    for argv in (["history"], ["history", "--json"], ["history", "--stats"], ["history", good],
                 ["export", good, "--format", "bgstats"]):
        code, out, err = cli([*argv, "--db", str(path)], monkeypatch, capsys)
        assert (code, err) == (0, note), argv
        assert bad not in out
    code, out, err = cli(["export", bad, "--db", str(path)], monkeypatch, capsys)
    assert code == 2 and err.startswith(f"ludoteca: error: no game with id '{bad}'") and err.endswith(note)
    code, out, err = cli(["play", "ciudadelas", "--game-id", bad, "--db", str(path)], monkeypatch, capsys)
    assert (code, err) == (2, f"ludoteca: error: {path}: the saved row of game {bad} is damaged (values Ludoteca "
                              "does not write); it cannot be opened\n")


def test_a_database_of_an_older_ludoteca_is_brought_to_this_version(tmp_path):
    path = tmp_path / "games.db"
    Store(path).close()
    old = REAL_CONNECT(path)
    old.execute("PRAGMA user_version=1")
    old.commit()
    old.close()
    Store(path).close()
    check = REAL_CONNECT(path)
    try:
        assert check.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION > 1
    finally:
        check.close()


def test_a_seed_out_of_range_is_refused_saying_the_range():
    store = Store(":memory:")
    with pytest.raises(BadArgument) as refused:
        store.new_game("gladiadores", ["Ana", "Luis"], seed=2**63)
    assert str(refused.value) == f"the seed is a whole number from 0 to {2**63 - 1}"
    assert refused.value.text["es"] == "la semilla es un número de 0 a 9223372036854775807"
    store.close()
